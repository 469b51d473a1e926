// Tests of ht::SquareGrid: coordinates and shifts on square rank counts, and
// the refusal of other counts naming the nearest usable ones.
#include <gtest/gtest.h>

#include "comm/HT_SquareGrid.hpp"
#include "runtime/HT_Error.hpp"

TEST(SquareGrid, SquareCountsGiveAPeriodicGrid) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int q = ht::SquareGrid::floor_sqrt(size);
  if (q * q != size) GTEST_SKIP() << size << " ranks is not square";
  ht::SquareGrid g(MPI_COMM_WORLD);
  EXPECT_EQ(g.q(), q);
  EXPECT_EQ(g.row() * q + g.col(), rank);  // row-major, no reordering
  auto [src, dst] = g.shift(ht::SquareGrid::along_row, -1);
  EXPECT_EQ(dst, g.row() * q + (g.col() + q - 1) % q);  // left, wrapping
  EXPECT_EQ(src, g.row() * q + (g.col() + 1) % q);
}

TEST(SquareGrid, OtherCountsNameTheNearestSquares) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int q = ht::SquareGrid::floor_sqrt(size);
  if (q * q == size) GTEST_SKIP() << size << " ranks is square";
  try {
    ht::SquareGrid g(MPI_COMM_WORLD);
    FAIL() << "accepted " << size << " ranks";
  } catch (const ht::UsageError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("got " + std::to_string(size)), std::string::npos) << w;
    EXPECT_NE(w.find(std::to_string(q * q) + " and " + std::to_string((q + 1) * (q + 1))),
              std::string::npos)
        << w;
  }
}

TEST(SquareGrid, FloorSqrt) {
  EXPECT_EQ(ht::SquareGrid::floor_sqrt(1), 1);
  EXPECT_EQ(ht::SquareGrid::floor_sqrt(3), 1);
  EXPECT_EQ(ht::SquareGrid::floor_sqrt(4), 2);
  EXPECT_EQ(ht::SquareGrid::floor_sqrt(63), 7);
  EXPECT_EQ(ht::SquareGrid::floor_sqrt(64), 8);
}
