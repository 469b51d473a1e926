// Tests of the 2D direction-optimizing BFS (hybrid's 2D kernel): forced
// top-down, forced bottom-up and the heuristic's choice all give every
// vertex the serial oracle's level and pass the Graph500 checks on the 1D
// CSR, on the run's auto grid (1 x 1, 1 x 2, 2 x 2, 2 x 4, 3 x 3, 4 x 4 on
// 1, 2, 4, 8, 9, 16 ranks; 2 x 2 and 2 x 3 on 5 and 7, the last rank spare)
// and its transpose, on the most square grid of all the ranks where auto's
// leaves some spare (1 x 5, 1 x 7), and up to 4 ranks on every other grid
// of them; rows as the edges came and ordered by degree.  Each level's MPI is the
// scheme's: a top-down level sends no point-to-point message (its frontier
// travels in collectives along the grid column and row), and a bottom-up
// level passes its bitmap C - 1 times along the row and gathers the
// frontier's bitmap along the column only; a spare rank only joins each
// level's closing sum.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <tuple>

#include "bfs_check.hpp"
#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_Bfs2D.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Mode = ht::DirectionPolicy::Mode;
using Case = std::tuple<Mode, int, bool>;  // direction, SCALE, ordered

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// \p gen's graph, its vertices owned by the first \p owners ranks (a grid's;
// 0: all), its rows ordered by degree if \p ordered.
ht::Csr csr_of(const ht::Kronecker& gen, int owners, bool ordered) {
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD,
                            std::int64_t(1) << 22, ht::TargetBits::automatic, owners);
  if (ordered) ht::order_rows(g, MPI_COMM_WORLD);
  return g;
}

// The grids a test runs on: auto's, its transpose (R > C), the most
// square of all the ranks where auto's leaves some spare, and every other
// up to 4 ranks.
std::vector<ht::GridShape> grids() {
  const int size = world_size();
  std::vector<ht::GridShape> out{ht::auto_grid(size)};
  if (out[0].rows != out[0].cols) out.push_back({out[0].cols, out[0].rows});
  if (out[0].ranks() < size) out.push_back(ht::most_square_grid(size));
  if (size <= 4) {
    for (int rows = 1; rows <= size; ++rows) {
      if (size % rows || rows == out[0].rows || rows == out[0].cols) continue;
      out.push_back({rows, size / rows});
    }
  }
  return out;
}

class Bfs2D : public ::testing::TestWithParam<Case> {};

TEST_P(Bfs2D, LevelsMatchTheOracleOnEveryGrid) {
  // Plain variables, not structured bindings: a lambda below captures them.
  const Mode mode = std::get<0>(GetParam());
  const int scale = std::get<1>(GetParam());
  const bool ordered = std::get<2>(GetParam());
  const ht::Kronecker gen{scale, 8, 0.57, 0.19, 0.19, 5};
  const auto keys = ht::search_keys(csr_of(gen, 0, false), 3, gen.seed, MPI_COMM_WORLD);
  ht::BfsOptions opt;
  opt.chunks = 8;
  opt.direction.mode = mode;
  const ht::BfsVariant& kind = ht::bfs_variant("hybrid");
  opt = kind.resolve(opt, Kokkos::OpenMP().concurrency());
  ht::TaskRuntime rt(kind.pool_bytes(opt), "Runtime/pool_MiB");
  for (const ht::GridShape& shape : grids()) {
    SCOPED_TRACE("grid " + shape.name());
    const ht::Csr g = csr_of(gen, shape.ranks(), ordered);
    ht::Grid2D grid(MPI_COMM_WORLD, shape);
    const ht::Csr2D b = ht::build_csr_2d(g, grid);
    const auto bfs_of = ht::make_bfs_2d(kind, b, grid, opt, rt);
    const long long column_bitmap =
        static_cast<long long>(shape.rows) * static_cast<long long>(b.piece_bits / 8);
    int bottom_up_levels = 0;
    // Each key's checks in a function of their own: an ASSERT that fails on
    // one rank leaves that key's checks, not the loop, so every rank still
    // takes part in the next search's collectives.
    for (const auto key : keys)
      [&] {
        const ht::BfsResult& bfs = bfs_of->search(key);
        ASSERT_NO_FATAL_FAILURE(check_levels(gen, g, key, bfs.pred));
        ASSERT_EQ(bfs.bottom_up.size(), bfs.frontier.size());
        ASSERT_EQ(bfs.comm.size(), bfs.frontier.size());
        for (std::size_t l = 0; l < bfs.bottom_up.size(); ++l) {
          const int up = bfs.bottom_up[l];
          if (mode == Mode::top_down) {
            EXPECT_EQ(up, 0);
          } else if (mode == Mode::bottom_up) {
            EXPECT_EQ(up, 1);
          }
          bottom_up_levels += up;
          const ht::CommCounts& c = bfs.comm[l];
          EXPECT_EQ(c.barriers, 0);
          if (grid.spare()) {  // the closing sum alone
            EXPECT_EQ(c.messages, 0) << "level " << l;
            EXPECT_EQ(c.collectives, 1) << "level " << l;
          } else if (up) {
            EXPECT_EQ(c.messages, shape.cols - 1) << "level " << l;
            EXPECT_EQ(c.bytes, (shape.cols - 1) * (b.piece_bits / 8)) << "level " << l;
            // The column's bitmap (N / 8C bytes), the fold's counts and finds,
            // and the closing sum.
            EXPECT_GE(c.collective_bytes, column_bitmap) << "level " << l;
          } else {
            EXPECT_EQ(c.messages, 0) << "level " << l;
          }
        }
        EXPECT_EQ(bfs.bottom_up.front(), mode == Mode::bottom_up) << "the key's level";
      }();
    if (mode == Mode::automatic && scale >= 8) {
      EXPECT_GT(bottom_up_levels, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Directions, Bfs2D,
    ::testing::Combine(::testing::Values(Mode::automatic, Mode::top_down, Mode::bottom_up),
                       ::testing::Values(4, 9),  // 2^4 / 16 ranks: one vertex a piece
                       ::testing::Bool()),
    [](const ::testing::TestParamInfo<Case>& p) {
      std::string name = ht::mode_name(std::get<0>(p.param));
      for (char& c : name)
        if (c == '-') c = '_';
      return name + "_scale" + std::to_string(std::get<1>(p.param)) +
             (std::get<2>(p.param) ? "_ordered" : "");
    });

// A bottom-up sub-step cut into several tasks whose word ranges do not
// line up with the search's batches of 4 words: SCALE 13 gives a piece of
// 128 words on 1 rank (3 tasks: words 0-41, 42-84, 85-127) and 64 on 2.
TEST(Bfs2DManyTasks, BottomUpTasksSplitAPieceAnywhere) {
  const ht::Kronecker gen{13, 8, 0.57, 0.19, 0.19, 6};
  const ht::GridShape shape = ht::auto_grid(world_size());
  const ht::Csr g = csr_of(gen, shape.ranks(), true);
  const auto keys = ht::search_keys(g, 2, gen.seed, MPI_COMM_WORLD);
  const ht::BfsVariant& kind = ht::bfs_variant("hybrid");
  ht::BfsOptions opt;
  opt.chunks = 3;
  ht::Grid2D grid(MPI_COMM_WORLD, shape);
  const ht::Csr2D b = ht::build_csr_2d(g, grid);
  for (const Mode mode : {Mode::bottom_up, Mode::automatic}) {
    opt.direction.mode = mode;
    const ht::BfsOptions o = kind.resolve(opt, Kokkos::OpenMP().concurrency());
    ht::TaskRuntime rt(kind.pool_bytes(o), "Runtime/pool_MiB");
    const auto bfs_of = ht::make_bfs_2d(kind, b, grid, o, rt);
    for (const auto key : keys) [&] { check_levels(gen, g, key, bfs_of->search(key).pred); }();
  }
}

TEST(Bfs2DVariants, OnlyHybridHasA2DKernel) {
  EXPECT_EQ(ht::variants_with_2d_kernel(), "hybrid");
  const ht::GridShape shape = ht::auto_grid(world_size());
  ht::Grid2D grid(MPI_COMM_WORLD, shape);
  const ht::Kronecker gen{4, 4, 0.57, 0.19, 0.19, 1};
  const ht::Csr g = csr_of(gen, shape.ranks(), false);
  const ht::Csr2D b = ht::build_csr_2d(g, grid);
  ht::TaskRuntime rt(ht::bfs_variant("hybrid").pool_bytes(ht::BfsOptions{}), "Runtime/pool_MiB");
  try {
    ht::make_bfs_2d(ht::bfs_variant("atomic"), b, grid, ht::BfsOptions{}, rt);
    FAIL() << "atomic has no 2D kernel";
  } catch (const ht::UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "Graph500/partition = 2d with Graph500/variant = atomic: a 2D kernel exists for "
                 "hybrid (or Graph500/partition = 1d)");
  }
}

}  // namespace
