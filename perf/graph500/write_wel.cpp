// write_wel: the Graph500 Kronecker graph of a SCALE, edgefactor and seed,
// with its kernel-3 weights, as a weighted edge list in gapbs's .wel format
// ("u v w" per line, integer weights): weight w in [0, 1) becomes
// 1 + floor(255 w), gapbs's own range [1, 255].  So that perf/graph500/
// sssp_references.sh runs gapbs's sssp on the very graph graph500_bfs
// searches (same edges; weights scaled).
//   write_wel <SCALE> <edgefactor> <seed> <out.wel>
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "graph/HT_Kronecker.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: write_wel <SCALE> <edgefactor> <seed> <out.wel>\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  ht::Kronecker gen;
  gen.scale = std::atoi(argv[1]);
  gen.edgefactor = std::atoi(argv[2]);
  gen.seed = std::strtoull(argv[3], nullptr, 10);
  std::FILE* f = std::fopen(argv[4], "w");
  if (!f) {
    std::perror(argv[4]);
    return 1;
  }
  const std::int64_t m = gen.edge_count(), piece = std::int64_t(1) << 20;
  for (std::int64_t first = 0; first < m; first += piece) {
    for (const auto& e : gen.weighted_edges(first, std::min(m, first + piece)))
      std::fprintf(f, "%lld %lld %d\n", static_cast<long long>(e.u), static_cast<long long>(e.v),
                   1 + static_cast<int>(std::floor(255.0f * e.w)));
  }
  return std::fclose(f) == 0 ? 0 : 1;
}
