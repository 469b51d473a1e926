// Kernel 1's layout (HT_Csr.hpp): every row holds its targets exactly as the
// edges arrive, whatever the host threads (kernel 1 sorts each piece's
// edges into blocks of rows, stably, and each block is placed by one
// thread): local targets from the row's front in arrival order, remote ones
// from its back.  The oracle replays the arrival by itself: piece by piece,
// the ranks' slices in rank order, each edge's two directions in turn.  With
// and without weights, from a list and from a generator, pieces small enough
// that there are many, on a graph of many blocks of rows.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "graph/HT_Csr.hpp"

namespace {

// 2^13 vertices: four blocks of rows a rank on one rank.
const ht::Kronecker kGen{13, 8, 0.57, 0.19, 0.19, 7};
constexpr std::int64_t kChunk = 5000;

struct Entry {
  std::int64_t target;
  float w;
};

class CsrLayout : public ::testing::TestWithParam<std::pair<bool, bool>> {};

TEST_P(CsrLayout, RowsHoldTheirTargetsInArrivalOrder) {
  const auto [weighted, generated] = GetParam();
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::int64_t m = kGen.edge_count(), n = kGen.vertex_count();
  const auto [first, last] = ht::edge_slice(m, MPI_COMM_WORLD);
  ht::Csr g;
  if (generated) {
    g = weighted ? ht::build_weighted_csr(kGen, MPI_COMM_WORLD, nullptr, ht::TargetBits::automatic,
                                          kChunk)
                 : ht::build_csr(kGen, MPI_COMM_WORLD, nullptr, ht::TargetBits::automatic, kChunk);
  } else if (weighted) {
    g = ht::build_csr(kGen.weighted_edges(first, last), n, MPI_COMM_WORLD, kChunk);
  } else {
    g = ht::build_csr(kGen.edges(first, last), n, MPI_COMM_WORLD, kChunk);
  }
  const ht::VertexRange& r = g.range;

  // The arrival: piece k of every rank's slice, rank by rank.
  std::vector<std::vector<Entry>> arrived(static_cast<std::size_t>(r.local_count()));
  const auto all = kGen.weighted_edges(0, m);
  for (std::int64_t k = 0; k * kChunk < m; ++k) {
    for (int s = 0; s < size; ++s) {
      const std::int64_t lo = m * s / size, hi = m * (s + 1) / size;
      for (std::int64_t i = lo + k * kChunk; i < std::min(hi, lo + (k + 1) * kChunk); ++i) {
        const auto& e = all[static_cast<std::size_t>(i)];
        if (e.u == e.v) continue;
        if (r.mine(e.u)) arrived[static_cast<std::size_t>(r.local(e.u))].push_back({e.v, e.w});
        if (r.mine(e.v)) arrived[static_cast<std::size_t>(r.local(e.v))].push_back({e.u, e.w});
      }
    }
  }
  std::size_t rows_of_several = 0, differ = 0;
  EXPECT_EQ(g.offsets.size(), arrived.size() + 1);
  for (std::size_t i = 0; i < arrived.size() && i + 1 < g.offsets.size(); ++i) {
    std::vector<Entry> want;
    for (const Entry& x : arrived[i])
      if (r.mine(x.target)) want.push_back(x);
    for (auto x = arrived[i].rbegin(); x != arrived[i].rend(); ++x)
      if (!r.mine(x->target)) want.push_back(*x);
    rows_of_several += want.size() > 1;
    const std::int64_t a = g.offsets[i], b = g.offsets[i + 1];
    bool same = b - a == static_cast<std::int64_t>(want.size());
    for (std::int64_t k = a; same && k < b; ++k) {
      const Entry& x = want[static_cast<std::size_t>(k - a)];
      same = g.targets[static_cast<std::size_t>(k)] == x.target &&
             (!weighted || g.weights[static_cast<std::size_t>(k)] == x.w);
    }
    differ += !same;
  }
  EXPECT_EQ(differ, 0u) << "rows laid out otherwise than the edges arrived";
  EXPECT_GT(rows_of_several, arrived.size() / 4) << "a test that orders nothing";
  EXPECT_EQ(g.weights.empty(), !weighted);
}

INSTANTIATE_TEST_SUITE_P(Kernel1, CsrLayout,
                         ::testing::Values(std::pair{false, false}, std::pair{true, false},
                                           std::pair{false, true}, std::pair{true, true}));

}  // namespace
