// Tests of ht::Grid2D and the shapes of a rank count: coordinates, row and
// column sub-communicators and periodic shifts on every R x C grid of the
// ranks, and on grids of fewer ranks (the others spare); the most square
// grid; a deck's grid value (a grid that does not fit names both rank
// counts); balanced_grid's rule on 1 to 64 ranks (never 1 x P from 4 ranks
// on; peers and share within twice the nearest square's) and auto_grid's on
// 1 to 1024 (a grid for every count, spare ranks only where none is whole).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "comm/HT_Grid2D.hpp"
#include "runtime/HT_Error.hpp"

namespace {

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

std::string usage_error(const std::string& value, int ranks) {
  try {
    ht::parse_grid("Graph500/grid", value, ranks);
  } catch (const ht::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Grid2D, EveryShapeHasItsRowsColumnsAndPeriodicShifts) {
  const int size = world_size();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int rows = 1; rows <= size; ++rows) {
    if (size % rows) continue;
    const int cols = size / rows;
    ht::Grid2D grid(MPI_COMM_WORLD, {rows, cols});
    SCOPED_TRACE(grid.shape().name());
    EXPECT_EQ(grid.rank_of(grid.row(), grid.col()), rank);  // row-major
    int row_size = 0, col_size = 0, in_row = 0, in_col = 0, in_grid = 0;
    MPI_Comm_size(grid.row_comm(), &row_size);
    MPI_Comm_size(grid.col_comm(), &col_size);
    MPI_Comm_rank(grid.row_comm(), &in_row);
    MPI_Comm_rank(grid.col_comm(), &in_col);
    MPI_Comm_rank(grid.comm(), &in_grid);
    EXPECT_EQ(row_size, grid.cols());
    EXPECT_EQ(col_size, grid.rows());
    EXPECT_EQ(in_row, grid.col());
    EXPECT_EQ(in_col, grid.row());
    EXPECT_EQ(in_grid, rank);
    // Left by one along the row, wrapping; up by two along the column.
    auto [src, dst] = grid.shift(ht::Grid2D::along_row, -1);
    EXPECT_EQ(dst, grid.rank_of(grid.row(), (grid.col() + cols - 1) % cols));
    EXPECT_EQ(src, grid.rank_of(grid.row(), (grid.col() + 1) % cols));
    std::tie(src, dst) = grid.shift(ht::Grid2D::along_column, -2);
    EXPECT_EQ(dst, grid.rank_of((grid.row() + 2 * rows - 2) % rows, grid.col()));
    EXPECT_EQ(src, grid.rank_of((grid.row() + 2) % rows, grid.col()));
  }
  try {
    ht::Grid2D grid(MPI_COMM_WORLD, {size + 1, 1});
    FAIL() << "a grid of " << size + 1 << " ranks on " << size;
  } catch (const ht::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "a " + std::to_string(size + 1) + "x1 grid of ranks needs " +
                                         std::to_string(size + 1) +
                                         " ranks; the communicator has " + std::to_string(size));
  }
}

// Every grid of fewer ranks than the communicator's: the ranks from R C on
// are spare (in comm(), in no row or column); the others as on a whole grid.
TEST(Grid2D, RanksBeyondTheGridAreSpare) {
  const int size = world_size();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int n = 1; n < size; ++n) {
    for (int rows = 1; rows <= n; ++rows) {
      if (n % rows) continue;
      const int cols = n / rows;
      ht::Grid2D grid(MPI_COMM_WORLD, {rows, cols});
      SCOPED_TRACE(grid.shape().name() + " on " + std::to_string(size));
      EXPECT_EQ(grid.spares(), size - n);
      int in_grid = -1, grid_size = 0;
      MPI_Comm_rank(grid.comm(), &in_grid);
      MPI_Comm_size(grid.comm(), &grid_size);
      EXPECT_EQ(in_grid, rank);
      EXPECT_EQ(grid_size, size);
      EXPECT_EQ(grid.spare(), rank >= n);
      if (grid.spare()) {
        EXPECT_EQ(grid.row(), -1);
        EXPECT_EQ(grid.col(), -1);
        EXPECT_EQ(grid.row_comm(), MPI_COMM_NULL);
        EXPECT_EQ(grid.col_comm(), MPI_COMM_NULL);
        continue;
      }
      EXPECT_EQ(grid.rank_of(grid.row(), grid.col()), rank);
      int row_size = 0, col_size = 0, in_row = -1, in_col = -1;
      MPI_Comm_size(grid.row_comm(), &row_size);
      MPI_Comm_size(grid.col_comm(), &col_size);
      MPI_Comm_rank(grid.row_comm(), &in_row);
      MPI_Comm_rank(grid.col_comm(), &in_col);
      EXPECT_EQ(row_size, cols);
      EXPECT_EQ(col_size, rows);
      EXPECT_EQ(in_row, grid.col());
      EXPECT_EQ(in_col, grid.row());
      const auto [src, dst] = grid.shift(ht::Grid2D::along_row, 1);
      EXPECT_LT(src, n);
      EXPECT_LT(dst, n);
    }
  }
}

TEST(Grid2D, MostSquareHasFewerRows) {
  const std::vector<std::tuple<int, int, int>> want{{1, 1, 1}, {2, 1, 2},  {4, 2, 2},
                                                    {6, 2, 3}, {7, 1, 7},  {8, 2, 4},
                                                    {9, 3, 3}, {16, 4, 4}, {18, 3, 6}};
  for (const auto& [ranks, rows, cols] : want) {
    const ht::GridShape s = ht::most_square_grid(ranks);
    EXPECT_EQ(s.rows, rows) << ranks;
    EXPECT_EQ(s.cols, cols) << ranks;
    EXPECT_EQ(ht::parse_grid("Graph500/grid", "auto", ranks).name(), ht::auto_grid(ranks).name());
  }
  const ht::GridShape s = ht::parse_grid("Graph500/grid", "4x2", 8);
  EXPECT_EQ(s.rows, 4);
  EXPECT_EQ(s.cols, 2);
  EXPECT_EQ(s.name(), "4x2");
  // Fewer ranks than the run's: the others spare.
  EXPECT_EQ(ht::parse_grid("Graph500/grid", "2x3", 7).name(), "2x3");
  EXPECT_EQ(ht::parse_grid("Graph500/grid", "auto", 7).name(), "2x3");
  EXPECT_EQ(ht::parse_grid("Graph500/grid", "1x1", 4).name(), "1x1");
  EXPECT_EQ(ht::nearest_square_grid(12).name(), "3x3");
  EXPECT_EQ(ht::nearest_square_grid(13).name(), "4x4");
}

TEST(Grid2D, AGridThatDoesNotFitNamesBothCounts) {
  EXPECT_EQ(usage_error("3x3", 4), "Graph500/grid = 3x3 needs 9 ranks; this run has 4");
  EXPECT_EQ(usage_error("1x2", 1), "Graph500/grid = 1x2 needs 2 ranks; this run has 1");
  for (const char* bad : {"abc", "0x4", "2x", "x2", "2x-1", "2*2", "", "2x2x1"}) {
    const std::string e = usage_error(bad, 4);
    EXPECT_NE(e.find("Graph500/grid = '" + std::string(bad) + "': accepted are auto"),
              std::string::npos)
        << bad << ": " << e;
  }
}

// The rule of the header: from 4 ranks on, never one row, and the peers and
// the share of a vector within twice the nearest square grid's; the most
// square grid whenever that one passes, none only when it does not.
TEST(Grid2D, BalancedGridsStayWithinTwiceTheNearestSquare) {
  const std::set<int> none{5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 58, 59, 61, 62};
  for (int p = 1; p <= 64; ++p) {
    SCOPED_TRACE(std::to_string(p) + " ranks");
    const std::optional<ht::GridShape> s = ht::balanced_grid(p);
    const ht::GridShape most = ht::most_square_grid(p), square = ht::nearest_square_grid(p);
    EXPECT_EQ(!s, none.count(p) == 1);
    if (!s) {
      EXPECT_TRUE(most.rows == 1 || most.peers() > 2 * square.peers() ||
                  most.share() > 2 * square.share());
      continue;
    }
    EXPECT_EQ(s->name(), most.name());
    EXPECT_EQ(s->rows * s->cols, p);
    EXPECT_LE(s->rows, s->cols);
    if (p < 4) continue;  // 1 x 2 and 1 x 3: there is no other
    EXPECT_GE(s->rows, 2) << s->name();
    EXPECT_LE(s->peers(), 2 * square.peers()) << s->name() << " against " << square.name();
    EXPECT_LE(s->share(), 2 * square.share()) << s->name() << " against " << square.name();
  }
  EXPECT_EQ(ht::balanced_grid(14)->name(), "2x7");
  EXPECT_EQ(ht::balanced_grid(16)->name(), "4x4");
  EXPECT_EQ(ht::balanced_grid(3)->name(), "1x3");
}

// auto_grid's rule (comm/HT_Grid2D.hpp) on 1 to 1024 ranks: balanced_grid
// where there is one; else the balanced grid of the most ranks fewer, the
// others spare: never 1 x P from 4 ranks on, its peers, frontier share and
// graph share a rank within twice the nearest square grid's, and no count
// between it and P with a balanced grid.
TEST(Grid2D, AutoGridTakesTheMostRanksOfABalancedGrid) {
  for (int p = 1; p <= 1024; ++p) {
    SCOPED_TRACE(std::to_string(p) + " ranks");
    const ht::GridShape g = ht::auto_grid(p), square = ht::nearest_square_grid(p);
    EXPECT_LE(g.rows, g.cols);
    if (const auto whole = ht::balanced_grid(p)) {
      EXPECT_EQ(g.name(), whole->name());
      EXPECT_EQ(ht::spare_ranks(g, p), "");
      continue;
    }
    EXPECT_LT(g.ranks(), p) << g.name();
    EXPECT_EQ(g.name(), ht::most_square_grid(g.ranks()).name());
    EXPECT_GE(g.rows, 2) << g.name();
    EXPECT_LE(g.peers(), 2 * square.peers()) << g.name() << " against " << square.name();
    EXPECT_LE(g.share(), 2 * square.share()) << g.name() << " against " << square.name();
    EXPECT_LE(g.block(), 2 * square.block()) << g.name() << " against " << square.name();
    for (int n = g.ranks() + 1; n < p; ++n)
      EXPECT_FALSE(ht::balanced_on(ht::most_square_grid(n), p)) << n;
  }
  const std::vector<std::tuple<int, std::string, std::string>> want{{5, "2x2", "rank 4 spare"},
                                                                    {7, "2x3", "rank 6 spare"},
                                                                    {13, "3x4", "rank 12 spare"},
                                                                    {17, "4x4", "rank 16 spare"},
                                                                    {58, "3x19", "rank 57 spare"},
                                                                    {2, "1x2", ""},
                                                                    {3, "1x3", ""},
                                                                    {14, "2x7", ""}};
  for (const auto& [p, name, spare] : want) {
    EXPECT_EQ(ht::auto_grid(p).name(), name) << p;
    EXPECT_EQ(ht::spare_ranks(ht::auto_grid(p), p), spare) << p;
  }
  EXPECT_EQ(ht::spare_ranks({2, 4}, 11), "ranks 8 to 10 spare");
  EXPECT_EQ(ht::spare_ranks({2, 4}, 10), "ranks 8 and 9 spare");
  // Balanced on more ranks than it holds, never on fewer.
  EXPECT_TRUE(ht::balanced_on({2, 3}, 7));
  EXPECT_FALSE(ht::balanced_on({2, 3}, 5));
  EXPECT_FALSE(ht::balanced_on({1, 7}, 7));
}

}  // namespace
