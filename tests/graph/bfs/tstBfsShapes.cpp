// Every BFS variant of the table (those that also search bottom-up: with the
// heuristic's directions and bottom-up only) and every 2D kernel, on the
// generated graphs of shapes.hpp (paths of thousands of levels, grids,
// chains of cliques, stars, spiders, trees, pieces apart; isolated vertices,
// duplicate edges, self-loops, ids shuffled across the ranks' blocks), on
// np = 1, 2, 4 ranks x 1, 2 threads.  From each of the instance's keys
// (inside and outside its big piece, isolated) the tree passes the Graph500
// checks (validate_bfs), gives every vertex the serial oracle's level
// (bfs_oracle.hpp), and is a BFS tree by wrong_answers.hpp's judge.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bfs_check.hpp"
#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/bfs/HT_Bfs2D.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_ChunkedSearch.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/shapes.hpp"
#include "graph/sssp/sssp_oracle.hpp"
#include "graph/wrong_answers.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Mode = ht::DirectionPolicy::Mode;

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// A graph, its CSR (rows ordered for odd seeds, as kernel 1 lays them out by
// default; as the edges came for even ones) and what the oracle says of it.
struct Case {
  test::ShapeGraph graph;
  ht::Csr csr;
  test::WholeGraph whole;
  std::vector<std::vector<int>> levels;  // per key
};

Case make_case(test::Shape shape, std::int64_t size, std::uint64_t seed) {
  test::ShapeGraph gr = test::make_shape(shape, size, seed, test::Weights::unit);
  std::vector<ht::Edge> edges;
  const auto [first, last] =
      ht::edge_slice(static_cast<std::int64_t>(gr.edges.size()), MPI_COMM_WORLD);
  for (std::int64_t i = first; i < last; ++i)
    edges.push_back(
        {gr.edges[static_cast<std::size_t>(i)].u, gr.edges[static_cast<std::size_t>(i)].v});
  ht::Csr g = ht::build_csr(edges, gr.n, MPI_COMM_WORLD);
  if (seed % 2) {
    ht::order_rows(g, MPI_COMM_WORLD);
    gr.name += " ordered";
  }
  test::WholeGraph whole(gr.edges, gr.n);
  std::vector<std::vector<int>> levels;
  for (const std::int64_t key : gr.keys) levels.push_back(oracle_levels(gr.edges, gr.n, key));
  return {std::move(gr), std::move(g), std::move(whole), std::move(levels)};
}

// One search judged: validate_bfs and the oracle's levels on this rank's
// vertices, then the whole tree by judge_bfs.  Collective; a failure leaves
// this search's checks only, so every rank goes on to the next search.
void check(const Case& c, std::size_t k, const std::vector<std::int64_t>& pred,
           const std::string& searcher) {
  SCOPED_TRACE(c.graph.name + ", " + searcher + ", key " + std::to_string(c.graph.keys[k]));
  const std::vector<std::int64_t> whole_pred = gather(pred, c.csr.range, MPI_INT64_T);
  [&] { ASSERT_NO_FATAL_FAILURE(check_levels(c.levels[k], c.csr, c.graph.keys[k], pred)); }();
  EXPECT_EQ(test::judge_bfs(c.whole, c.graph.keys[k], c.levels[k], test::Answer{whole_pred, {}}),
            "");
}

// Every searcher on \p c (or the variants \p only names): each 1D variant,
// then each 2D kernel on the run's auto grid; hybrid's in both of its modes.
void search_all(const Case& c, const std::vector<std::string>& only = {}) {
  ht::BfsOptions opt;
  opt.buffer_items = 16;  // several messages a level where a level has the finds
  opt.chunks = 8;
  const int threads = Kokkos::OpenMP().concurrency();
  for (const ht::BfsVariant& kind : ht::bfs_variants()) {
    if (!only.empty() && std::find(only.begin(), only.end(), kind.name) == only.end()) continue;
    for (const Mode mode : {Mode::automatic, Mode::bottom_up}) {
      if (mode == Mode::bottom_up && !kind.bottom_up) continue;
      opt.direction.mode = mode;
      const ht::BfsOptions o = kind.resolve(opt, threads);
      ht::TaskRuntime rt(kind.pool_bytes(o), "Runtime/pool_MiB");
      const std::string name = std::string(kind.name) + " " + ht::mode_name(mode);
      {
        const auto bfs = ht::make_bfs(kind, c.csr, o, rt, MPI_COMM_WORLD);
        for (std::size_t k = 0; k < c.graph.keys.size(); ++k)
          check(c, k, bfs->search(c.graph.keys[k]).pred, name);
      }
      if (!ht::has_2d_kernel(kind)) continue;
      ht::Grid2D grid(MPI_COMM_WORLD, ht::most_square_grid(world_size()));
      const ht::Csr2D b = ht::build_csr_2d(c.csr, grid);
      const auto bfs = ht::make_bfs_2d(kind, b, grid, o, rt);
      for (std::size_t k = 0; k < c.graph.keys.size(); ++k)
        check(c, k, bfs->search(c.graph.keys[k]).pred, name + " 2D " + grid.shape().name());
    }
  }
}

void search_all(test::Shape shape, const std::vector<std::int64_t>& sizes,
                const std::vector<std::uint64_t>& seeds) {
  for (const std::int64_t size : sizes)
    for (const std::uint64_t seed : seeds) search_all(make_case(shape, size, seed));
}

std::string shape_test_name(const ::testing::TestParamInfo<test::Shape>& p) {
  return test::shape_name(p.param);
}

// Sizes that no rank count divides, up to a few hundred vertices (a path of
// 150 searches 150 levels from its end), three seeds each.
class BfsShapes : public ::testing::TestWithParam<test::Shape> {};
TEST_P(BfsShapes, EveryVariantsTreeIsValidWithTheOraclesLevels) {
  search_all(GetParam(), {7, 45, 150}, {1, 2, 3});
}
INSTANTIATE_TEST_SUITE_P(Shapes, BfsShapes, ::testing::ValuesIn(test::kShapes), shape_test_name);

// One small instance of each shape: for 2 and 4 ranks of 2 threads, where
// a task variant's level costs tens of milliseconds on 2 oversubscribed cores.
class BfsShapesSmall : public ::testing::TestWithParam<test::Shape> {};
TEST_P(BfsShapesSmall, EveryVariantsTreeIsValidWithTheOraclesLevels) {
  search_all(GetParam(), {12}, {3});
}
INSTANTIATE_TEST_SUITE_P(Shapes, BfsShapesSmall, ::testing::ValuesIn(test::kShapes),
                         shape_test_name);

// High diameter, the point of issue 45: thousands of levels.
TEST(BfsShapesLong, APathOfThousandsOfLevels) { search_all(test::Shape::path, {2001}, {1}); }
TEST(BfsShapesLong, ACycleAndAChainOfCliques) {
  search_all(test::Shape::cycle, {1601}, {2});
  search_all(test::Shape::cliques, {1201}, {4});
}

// One rank's team runs (ChunkedSearch::team_levels) with every level
// shared by the threads, then with those under 24 edges searched by thread 0
// alone: the runs' barriers, shares and hand-overs, on every shape.
class BfsShapesTeam : public ::testing::TestWithParam<test::Shape> {};
TEST_P(BfsShapesTeam, SharedLevelsGiveTheOraclesLevels) {
  const std::int64_t alone = ht::impl::team_alone_edges();
  for (const std::int64_t edges : {0, 24}) {
    ht::impl::set_team_alone_edges(edges);
    for (const std::int64_t size : {45, 150})
      for (const std::uint64_t seed : {1, 2})
        search_all(make_case(GetParam(), size, seed), {"atomic", "hybrid"});
  }
  ht::impl::set_team_alone_edges(alone);
}
INSTANTIATE_TEST_SUITE_P(Shapes, BfsShapesTeam, ::testing::ValuesIn(test::kShapes),
                         shape_test_name);

}  // namespace
