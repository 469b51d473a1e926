// Tests of Cannon's algorithm with tile tasks against a plain triple loop over
// the generator's entries, for N not divisible by q or the tile, with and
// without overlap, one task per tile and tiles shared by fewer tasks; and
// the refusal of a rank count that is not a square, naming the nearest ones.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "runtime/HT_Error.hpp"

namespace {

struct Case {
  long long n, tile;
  int tasks;
  bool overlap;
};

class Cannon : public ::testing::TestWithParam<Case> {};

TEST_P(Cannon, MatchesTheTripleLoop) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ht::GridShape shape = ht::most_square_grid(size);
  // lint: rank-uniform: the world's size
  if (shape.rows != shape.cols) GTEST_SKIP() << "Cannon needs a square rank count";
  const int q = shape.rows;
  const Case c = GetParam();
  const std::uint64_t seed = 11;
  ht::Grid2D g(MPI_COMM_WORLD, ht::cannon_grid(size));
  const long long nb = ht::block_size(c.n, q), row0 = g.row() * nb, col0 = g.col() * nb;
  ht::Block a("A", nb, nb), b("B", nb, nb), cc("C", nb, nb);
  ht::fill_block(a, seed, 0, row0, col0, c.n);
  ht::fill_block(b, seed, 1, row0, col0, c.n);
  Kokkos::fence();
  ht::TaskRuntime rt(ht::tile_pool_bytes(nb, c.tile, c.tasks), "Runtime/pool_MiB");
  ht::Cannon cannon(g, rt, nb, {c.tile, c.tasks, c.overlap});
  const auto t = cannon.multiply(a, b, cc);
  EXPECT_EQ(static_cast<int>(t.step_compute.size()), q);
  if (q > 1) {
    EXPECT_GT(t.comm, 0.0);
    if (c.overlap) {  // waiting starts after posting: exposed <= whole transfer
      EXPECT_GE(t.hidden(), 0.0);
      EXPECT_LE(t.hidden(), 1.0);
    } else {  // a blocking shift is all exposed
      EXPECT_DOUBLE_EQ(t.wait, t.comm);
      EXPECT_DOUBLE_EQ(t.hidden(), 0.0);
    }
  }

  double worst = 0;
  for (long long i = 0; i < nb; ++i) {
    for (long long j = 0; j < nb; ++j) {
      double want = 0;
      for (long long k = 0; k < c.n; ++k) {
        want += ht::matrix_entry(seed, 0, row0 + i, k, c.n) *
                ht::matrix_entry(seed, 1, k, col0 + j, c.n);
      }
      worst = std::max(worst, std::abs(cc(i, j) - want));
    }
  }
  EXPECT_LT(worst, 1e-12 * c.n) << "largest entry error";

  // The same product passes Freivalds' check on the unskewed blocks.
  ht::fill_block(a, seed, 0, row0, col0, c.n);
  ht::fill_block(b, seed, 1, row0, col0, c.n);
  Kokkos::fence();
  EXPECT_TRUE(ht::freivalds_check(g, a, b, cc, c.n, seed).passed());
}

INSTANTIATE_TEST_SUITE_P(Shapes, Cannon,
                         ::testing::Values(Case{64, 16, 0, true},   // divides evenly
                                           Case{37, 5, 0, true},    // N % q, nb % tile != 0
                                           Case{37, 5, 0, false},   // blocking shifts
                                           Case{50, 7, 3, true},    // tiles shared by 3 tasks
                                           Case{1, 1, 0, true},     // one entry, padded
                                           Case{9, 64, 0, false}),  // tile > block
                         [](const ::testing::TestParamInfo<Case>& p) {
                           const Case& c = p.param;
                           return "N" + std::to_string(c.n) + "_tile" + std::to_string(c.tile) +
                                  "_tasks" + std::to_string(c.tasks) +
                                  (c.overlap ? "_overlap" : "_blocking");
                         });

TEST(CannonGrid, SquaresOnlyNamingTheNearestOnes) {
  EXPECT_EQ(ht::cannon_grid(1).name(), "1x1");
  EXPECT_EQ(ht::cannon_grid(16).name(), "4x4");
  const std::vector<std::tuple<int, int, int>> refused{
      {2, 1, 4}, {3, 1, 4}, {8, 4, 9}, {12, 9, 16}, {63, 49, 64}};
  for (const auto& [ranks, below, above] : refused) {
    try {
      ht::cannon_grid(ranks);
      FAIL() << "accepted " << ranks << " ranks";
    } catch (const ht::UsageError& e) {
      EXPECT_EQ(std::string(e.what()),
                "Cannon's algorithm needs a square number of ranks (q x q); got " +
                    std::to_string(ranks) + ", the nearest usable counts are " +
                    std::to_string(below) + " and " + std::to_string(above));
    }
  }
}

}  // namespace
