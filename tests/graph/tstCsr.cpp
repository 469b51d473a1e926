// Tests of kernel 1: every rank's rows hold exactly the non-self-loop input
// edges of its vertices, in both directions, duplicates kept.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>

#include "graph/HT_Csr.hpp"

TEST(Csr, RowsHoldBothDirectionsOfEveryEdgeButSelfLoops) {
  ht::Kronecker gen{9, 8, 0.57, 0.19, 0.19, 3};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  // A small chunk forces several exchange rounds.
  const ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD, 100);
  std::map<std::pair<std::int64_t, std::int64_t>, int> want, got;
  for (const auto& e : gen.edges(0, gen.edge_count())) {
    if (e.u == e.v) continue;
    if (g.range.mine(e.u)) ++want[{e.u, e.v}];
    if (g.range.mine(e.v)) ++want[{e.v, e.u}];
  }
  ASSERT_EQ(static_cast<std::int64_t>(g.offsets.size()), g.range.local_count() + 1);
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    for (auto k = g.offsets[i]; k < g.offsets[i + 1]; ++k) ++got[{g.range.global(i), g.targets[k]}];
  }
  EXPECT_EQ(got, want);
}

TEST(Csr, BlockDistributionCoversEveryVertexOnce) {
  for (std::int64_t n : {1, 5, 64, 1000}) {
    ht::VertexRange r(n, MPI_COMM_WORLD);
    long long mine = r.local_count(), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(total, n);
    for (std::int64_t i = 0; i < r.local_count(); ++i) EXPECT_TRUE(r.mine(r.global(i)));
  }
}
