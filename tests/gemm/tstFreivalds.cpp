// Tests that Freivalds' check tells a right product from wrong ones: one
// entry off by 1e-6, one tile missing, a transposed factor.
#include <gtest/gtest.h>

#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "gemm/HT_TileGemm.hpp"

namespace {

class Freivalds : public ::testing::Test {
 protected:
  void SetUp() override {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int q = ht::SquareGrid::floor_sqrt(size);
    if (q * q != size) GTEST_SKIP() << "needs a square rank count";
    grid = std::make_unique<ht::SquareGrid>(MPI_COMM_WORLD);
    nb = ht::block_size(n, q);
    a = ht::Block("A", nb, nb);
    b = ht::Block("B", nb, nb);
    c = ht::Block("C", nb, nb);
    refill();
    ht::TaskRuntime rt(ht::tile_pool_bytes(nb, 32, 0), "Runtime/pool_MiB");
    ht::Cannon(*grid, rt, nb, {32, 0, true}).multiply(a, b, c);
    refill();
  }
  void refill() {
    ht::fill_block(a, seed, 0, grid->row() * nb, grid->col() * nb, n);
    ht::fill_block(b, seed, 1, grid->row() * nb, grid->col() * nb, n);
    Kokkos::fence();
  }
  bool check() { return ht::freivalds_check(*grid, a, b, c, n, seed).passed(); }

  const long long n = 300;
  const std::uint64_t seed = 5;
  long long nb = 0;
  std::unique_ptr<ht::SquareGrid> grid;
  ht::Block a, b, c;
};

TEST_F(Freivalds, AcceptsTheRightProduct) {
  const auto r = ht::freivalds_check(*grid, a, b, c, n, seed);
  EXPECT_TRUE(r.passed()) << r.error << " > " << r.bound;
  EXPECT_LT(r.error, r.bound / 10);  // with room to spare
}

TEST_F(Freivalds, RejectsOneEntryOffByAMillionth) {
  if (grid->row() == 0 && grid->col() == 0) c(3, 4) += 1e-6;
  EXPECT_FALSE(check());
}

TEST_F(Freivalds, RejectsAMissingTile) {
  if (grid->row() == grid->q() - 1 && grid->col() == 0) {
    for (long long i = 0; i < 32 && i < nb; ++i)
      for (long long j = 0; j < 32 && j < nb; ++j) c(i, j) = 0;
  }
  EXPECT_FALSE(check());
}

TEST_F(Freivalds, RejectsTheProductOfOtherMatrices) {
  // Check against B A's inputs swapped: A <-> B.
  std::swap(a, b);
  EXPECT_FALSE(check());
}

}  // namespace
