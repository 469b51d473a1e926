// Tests of the Kronecker generator: a slice is the same edges whoever makes
// it (so the graph does not depend on the rank count), the label and shuffle
// maps are bijections, and the R-MAT quadrant probabilities show.
#include <gtest/gtest.h>
#include <mpi.h>

#include <set>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Kronecker.hpp"

namespace {

TEST(Kronecker, SlicesOfAnyRankCountMakeTheSameList) {
  ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 42};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const auto mine = gen.edges(first, last);
  // Gather every rank's slice on all ranks and compare with one whole list.
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> counts(size), displs(size);
  const int n = static_cast<int>(mine.size() * 2);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int p = 1; p < size; ++p) displs[p] = displs[p - 1] + counts[p - 1];
  std::vector<ht::Edge> all(gen.edge_count());
  MPI_Allgatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T,
                 MPI_COMM_WORLD);
  const auto whole = gen.edges(0, gen.edge_count());
  for (std::int64_t e = 0; e < gen.edge_count(); ++e) {
    ASSERT_EQ(all[e].u, whole[e].u) << e;
    ASSERT_EQ(all[e].v, whole[e].v) << e;
  }
}

TEST(Kronecker, AnotherSeedAnotherGraph) {
  ht::Kronecker a{10, 8, 0.57, 0.19, 0.19, 1}, b{10, 8, 0.57, 0.19, 0.19, 2};
  int same = 0;
  for (std::int64_t e = 0; e < 1000; ++e) same += a.edge(e).u == b.edge(e).u;
  EXPECT_LT(same, 50);
}

TEST(Permutation, IsABijectionForOddAndEvenSizes) {
  for (std::uint64_t n : {1ULL, 2ULL, 7ULL, 1024ULL, 1000ULL, 4097ULL}) {
    ht::Permutation p(n, 99);
    std::set<std::uint64_t> seen;
    for (std::uint64_t x = 0; x < n; ++x) {
      const std::uint64_t y = p(x);
      ASSERT_LT(y, n);
      seen.insert(y);
    }
    EXPECT_EQ(seen.size(), n) << n;
  }
}

TEST(Kronecker, QuadrantProbabilitiesShowInTheDegrees) {
  // Before the label permutation, vertex 0 would be the hub; after it, the
  // degree distribution is still heavy-tailed: the top 1% of vertices carry
  // far more than 1% of the edge ends.
  ht::Kronecker gen{12, 16, 0.57, 0.19, 0.19, 7};
  std::vector<std::int64_t> degree(gen.vertex_count());
  for (const auto& e : gen.edges(0, gen.edge_count())) {
    ++degree[e.u];
    ++degree[e.v];
  }
  std::sort(degree.rbegin(), degree.rend());
  std::int64_t top = 0, total = 0;
  for (std::size_t i = 0; i < degree.size(); ++i) {
    total += degree[i];
    if (i < degree.size() / 100) top += degree[i];
  }
  EXPECT_GT(double(top) / total, 0.10);  // uniform graphs give ~0.01
}

}  // namespace
