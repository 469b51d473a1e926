// write_wel: the Graph500 Kronecker graph of a SCALE, edgefactor and seed,
// with its kernel-3 weights, as a weighted edge list in gapbs's .wel format
// ("u v w" per line, integer weights): weight w in [0, 1) becomes
// 1 + floor(255 w), gapbs's own range [1, 255].  With --unique, the graph as
// gapbs builds it: each undirected pair once, at its lightest weight, no
// self-loops (gapbs's builder squishes duplicates so), so that graph500_bfs
// (Graph500/file) and gapbs's sssp read the very same graph from the one
// file (perf/graph500/sssp_references.sh).
//   write_wel [--unique] <SCALE> <edgefactor> <seed> <out.wel>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "graph/HT_Kronecker.hpp"

namespace {

int scaled(float w) { return 1 + static_cast<int>(std::floor(255.0f * w)); }

}  // namespace

int main(int argc, char** argv) {
  const bool unique = argc > 1 && std::string(argv[1]) == "--unique";
  if (argc != 5 + (unique ? 1 : 0)) {
    std::fprintf(stderr, "usage: write_wel [--unique] <SCALE> <edgefactor> <seed> <out.wel>\n");
    return 2;
  }
  char** arg = argv + (unique ? 2 : 1);
  Kokkos::ScopeGuard kokkos(argc, argv);
  ht::Kronecker gen;
  gen.scale = std::atoi(arg[0]);
  gen.edgefactor = std::atoi(arg[1]);
  gen.seed = std::strtoull(arg[2], nullptr, 10);
  std::FILE* f = std::fopen(arg[3], "w");
  if (!f) {
    std::perror(arg[3]);
    return 1;
  }
  const std::int64_t m = gen.edge_count(), piece = std::int64_t(1) << 20;
  std::vector<std::tuple<std::int64_t, std::int64_t, int>> pairs;
  for (std::int64_t first = 0; first < m; first += piece) {
    for (const auto& e : gen.weighted_edges(first, std::min(m, first + piece))) {
      if (!unique)
        std::fprintf(f, "%lld %lld %d\n", static_cast<long long>(e.u), static_cast<long long>(e.v),
                     scaled(e.w));
      else if (e.u != e.v)
        pairs.emplace_back(std::min(e.u, e.v), std::max(e.u, e.v), scaled(e.w));
    }
  }
  std::sort(pairs.begin(), pairs.end());  // by pair, then weight: the lightest first
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& [u, v, w] = pairs[i];
    if (i > 0 && std::get<0>(pairs[i - 1]) == u && std::get<1>(pairs[i - 1]) == v) continue;
    std::fprintf(f, "%lld %lld %d\n", static_cast<long long>(u), static_cast<long long>(v), w);
  }
  return std::fclose(f) == 0 ? 0 : 1;
}
