// Tests of the uniform random and grid generators (kernel 1 without a file)
// and of kernel 1's dropping of duplicate edges: each generated graph is the
// same on 1, 2 or 4 ranks (its rows hold the edges the generator makes, edge
// by edge, whoever makes them); the grid has its rows x columns shape, its
// edges and its diameter; the uniform graph its counts; a file listing each
// edge both ways is stored with each neighbour once, its input edges still
// counted for TEPS.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <queue>
#include <set>
#include <utility>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_GridGraph.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_TepsEdges.hpp"
#include "graph/HT_UniformRandom.hpp"

namespace {

using Row = std::vector<std::pair<std::int64_t, float>>;

// Every vertex's (neighbour, weight) list, sorted, from the generator's edges
// one by one on this rank alone: the graph as any rank count must store it.
template <class Gen>
std::vector<Row> reference(const Gen& gen) {
  std::vector<Row> rows(static_cast<std::size_t>(gen.vertex_count()));
  for (std::int64_t e = 0; e < gen.edge_count(); ++e) {
    const ht::WeightedEdge x = gen.weighted_edge(e);
    if (x.u == x.v) continue;
    rows[x.u].push_back({x.v, x.w});
    rows[x.v].push_back({x.u, x.w});
  }
  for (Row& r : rows) std::sort(r.begin(), r.end());
  return rows;
}

template <class Gen>
void expect_same_graph_on_any_rank_count(const Gen& gen) {
  const ht::Csr g = ht::build_weighted_csr(gen, MPI_COMM_WORLD, nullptr, ht::TargetBits::automatic,
                                           /*chunk=*/100);  // several pieces a rank
  const std::vector<Row> want = reference(gen);
  ASSERT_EQ(g.range.n_global, gen.vertex_count());
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    Row got;
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k)
      got.push_back({g.targets[k], g.weights[k]});
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want[g.range.global(i)]) << "vertex " << g.range.global(i);
  }
}

TEST(UniformRandom, TheSameGraphOnAnyRankCount) {
  expect_same_graph_on_any_rank_count(ht::UniformRandom{9, 8, 3});
}

TEST(GridGraph, TheSameGraphOnAnyRankCount) {
  expect_same_graph_on_any_rank_count(ht::GridGraph{9, 3});
}

TEST(UniformRandom, CountsAndRange) {
  const ht::UniformRandom gen{10, 16, 5}, other{10, 16, 6};
  EXPECT_EQ(gen.vertex_count(), 1024);
  EXPECT_EQ(gen.edge_count(), 16 * 1024);
  std::vector<std::int64_t> degree(1024, 0);
  int same = 0;
  for (std::int64_t e = 0; e < gen.edge_count(); ++e) {
    const ht::WeightedEdge x = gen.weighted_edge(e);
    ASSERT_TRUE(x.u >= 0 && x.u < 1024 && x.v >= 0 && x.v < 1024) << e;
    ASSERT_TRUE(x.w >= 0.0f && x.w < 1.0f) << e;
    EXPECT_EQ(x.u, gen.edge(e).u);
    ++degree[x.u];
    ++degree[x.v];
    same += other.edge(e).u == x.u;
  }
  EXPECT_LT(same, 200);  // another seed, another graph (1 in 1024 by chance)
  // Uniform ends: no hub (a Kronecker graph's top vertex has hundreds).
  EXPECT_LT(*std::max_element(degree.begin(), degree.end()), 80);
  EXPECT_GT(*std::min_element(degree.begin(), degree.end()), 5);
}

TEST(GridGraph, RowsColumnsEdgesAndDiameter) {
  for (const int scale : {1, 8, 9}) {
    const ht::GridGraph gen{scale, 1};
    const std::int64_t r = gen.rows(), c = gen.columns();
    EXPECT_EQ(r, std::int64_t(1) << (scale / 2));
    EXPECT_EQ(c, std::int64_t(1) << ((scale + 1) / 2));
    EXPECT_EQ(r * c, gen.vertex_count());
    EXPECT_EQ(gen.edge_count(), r * (c - 1) + (r - 1) * c);
    // Exactly each vertex's right and lower neighbour.
    std::set<std::pair<std::int64_t, std::int64_t>> got, want;
    for (std::int64_t e = 0; e < gen.edge_count(); ++e) got.insert({gen.edge(e).u, gen.edge(e).v});
    for (std::int64_t v = 0; v < r * c; ++v) {
      if (v % c + 1 < c) want.insert({v, v + 1});
      if (v / c + 1 < r) want.insert({v, v + c});
    }
    EXPECT_EQ(got, want) << "SCALE " << scale;
    // From a corner, the far corner is rows + columns - 2 levels away.
    const std::vector<Row> adj = reference(gen);
    std::vector<std::int64_t> level(static_cast<std::size_t>(r * c), -1);
    std::queue<std::int64_t> q;
    level[0] = 0;
    q.push(0);
    while (!q.empty()) {
      const std::int64_t v = q.front();
      q.pop();
      for (const auto& [w, weight] : adj[v])
        if (level[w] < 0) {
          level[w] = level[v] + 1;
          q.push(w);
        }
    }
    EXPECT_EQ(*std::max_element(level.begin(), level.end()), r + c - 2);
    EXPECT_EQ(level[r * c - 1], r + c - 2);
  }
  EXPECT_EQ((ht::GridGraph{20, 1}.rows()), 1024);
  EXPECT_EQ((ht::GridGraph{22, 1}.columns()), 2048);
}

// The file: 0 1, 1 0, 1 2, 2 1, 0 1 (each edge both ways, one twice).
class Duplicates : public ::testing::Test {
 protected:
  ht::Csr build() const {
    const std::vector<ht::WeightedEdge> all = {
        {0, 1, 0.5f}, {1, 0, 0.25f}, {1, 2, 0.75f}, {2, 1, 0.125f}, {0, 1, 0.375f}};
    const auto [first, last] = ht::edge_slice(5, MPI_COMM_WORLD);
    return ht::build_csr(std::vector<ht::WeightedEdge>(all.begin() + first, all.begin() + last), 3,
                         MPI_COMM_WORLD);
  }
  // Each row once, with the lightest weight of its copies; rows still split.
  static void expect_each_neighbour_once(const ht::Csr& g) {
    const std::vector<Row> want = {{{1, 0.25f}}, {{0, 0.25f}, {2, 0.125f}}, {{1, 0.125f}}};
    const std::vector<std::uint32_t> dropped = {2, 3, 1};
    HT_ASSERT_ALL(g.split_rows());
    for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
      Row got;
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        got.push_back({g.targets[k], g.weights[k]});
        EXPECT_EQ(k < g.local_end(i), g.range.mine(g.targets[k])) << "row " << i;
      }
      std::sort(got.begin(), got.end());
      const std::int64_t v = g.range.global(i);
      EXPECT_EQ(got, want[v]) << "vertex " << v;
      EXPECT_EQ(g.dropped[i], dropped[v]) << "vertex " << v;
    }
    // TEPS count the input's 5 edges, duplicates and all.
    const std::vector<std::int64_t> reached(static_cast<std::size_t>(g.range.local_count()), 0);
    EXPECT_EQ(ht::component_edges(g, reached, MPI_COMM_WORLD), 5);
  }
};

TEST_F(Duplicates, DroppedInInputOrder) {
  ht::Csr g = build();
  long long stored = static_cast<long long>(g.targets.size()), total = 0;
  MPI_Allreduce(&stored, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, 10);  // before: every input edge's two ends
  ht::drop_duplicates(g);
  expect_each_neighbour_once(g);
  ht::drop_duplicates(g);  // a second call drops and counts nothing more
  expect_each_neighbour_once(g);
}

TEST_F(Duplicates, DroppedWhenOrderedByDegree) {
  ht::Csr g = build();
  ht::order_rows(g, MPI_COMM_WORLD);
  expect_each_neighbour_once(g);
}

TEST_F(Duplicates, InputOrderKeptForTheFirstOfEachTarget) {
  // One rank: row 1 receives 0, 0, 2, 2 (its edges in file order); row 0 gets
  // 1 three times.  The first 0 and the first 2 stay, in that order.
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // lint: rank-uniform: the world's size
  if (size != 1) GTEST_SKIP() << "the arrival order is one rank's";
  ht::Csr g = build();
  ht::drop_duplicates(g);
  EXPECT_EQ(g.neighbours(1), (std::vector<std::int64_t>{0, 2}));
}

}  // namespace
