// Delta-stepping for any finite weights >= 0 and any delta > 0 (issue 45),
// on np = 1, 2, 4 ranks x 1, 2 threads:
//  - generated graphs (a path, a grid, a chain of cliques, a star, pieces
//    that do not touch, zero weights, weights from 1e-30 to 1e30, one edge of
//    1e6 and one of 1e17 beside short ones), read from a .wel file, searched
//    by both variants with auto's delta, a narrow one whose bucket numbers
//    saturate, a wide one, and the smallest double; each answer judged by the
//    test's own Dijkstra (wrong_answers.hpp's judge_sssp: exact distances,
//    a parent per reached vertex, a tree) and passed by validate_sssp;
//  - auto_delta: about 0.002 on the Kronecker graphs, 4 mean weights over
//    the squared mean degree elsewhere, at most the heaviest, 1 when every
//    weight is 0.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "graph/edge_files.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "graph/wrong_answers.hpp"
#include "sssp_oracle.hpp"

namespace {

using Edges = std::vector<ht::WeightedEdge>;

// A generated graph: its edges and vertex count, alike on every rank.
struct Graph {
  std::string name;
  Edges edges;
  std::int64_t n = 0;
};

// Weights drawn by \p draw from one seed.
template <class Draw>
Graph path(std::int64_t n, Draw draw) {
  Graph g{"path", {}, n};
  for (std::int64_t v = 0; v + 1 < n; ++v) g.edges.push_back({v, v + 1, draw()});
  return g;
}
template <class Draw>
Graph grid(std::int64_t side, Draw draw) {
  Graph g{"grid", {}, side * side};
  for (std::int64_t y = 0; y < side; ++y)
    for (std::int64_t x = 0; x < side; ++x) {
      const std::int64_t v = y * side + x;
      if (x + 1 < side) g.edges.push_back({v, v + 1, draw()});
      if (y + 1 < side) g.edges.push_back({v, v + side, draw()});
    }
  return g;
}

std::vector<Graph> graphs() {
  std::mt19937_64 rng(45);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_real_distribution<double> exponent(-30.0, 30.0);
  const auto uniform = [&] { return unit(rng); };
  const auto wide = [&] { return static_cast<float>(std::pow(10.0, exponent(rng))); };
  std::vector<Graph> all;
  all.push_back(path(200, uniform));
  all.push_back(grid(16, uniform));
  {  // 12 cliques of 6, each joined to the next by one heavier edge
    Graph g{"cliques", {}, 72};
    for (std::int64_t c = 0; c < 12; ++c) {
      for (std::int64_t a = 0; a < 6; ++a)
        for (std::int64_t b = a + 1; b < 6; ++b)
          g.edges.push_back({6 * c + a, 6 * c + b, unit(rng)});
      if (c + 1 < 12) g.edges.push_back({6 * c + 5, 6 * c + 6, 5.0f + unit(rng)});
    }
    all.push_back(g);
  }
  {  // a hub and 300 leaves, some joined to each other
    Graph g{"star", {}, 301};
    for (std::int64_t v = 1; v <= 300; ++v) g.edges.push_back({0, v, 1.0f + unit(rng) * 1e3f});
    for (std::int64_t v = 1; v + 7 <= 300; v += 7) g.edges.push_back({v, v + 7, unit(rng)});
    all.push_back(g);
  }
  {  // a path, a grid's worth of edges elsewhere, isolated vertices between
    Graph g{"pieces", {}, 150};
    for (std::int64_t v = 0; v + 1 < 40; ++v) g.edges.push_back({v, v + 1, unit(rng)});
    for (std::int64_t v = 60; v + 1 < 100; ++v) g.edges.push_back({v, v + 1, unit(rng)});
    for (std::int64_t v = 120; v + 3 < 150; v += 2) g.edges.push_back({v, v + 3, unit(rng)});
    all.push_back(g);
  }
  {  // every weight 0, then a grid with every third weight 0
    Graph g = grid(12, [] { return 0.0f; });
    g.name = "zeros";
    all.push_back(g);
    int k = 0;
    Graph h = grid(12, [&] { return ++k % 3 == 0 ? 0.0f : unit(rng); });
    h.name = "some_zeros";
    all.push_back(h);
  }
  {  // weights 1e-30 to 1e30: a grid, and a path through a hub
    Graph g = grid(14, wide);
    g.name = "wide_grid";
    all.push_back(g);
    Graph h = path(120, wide);
    for (std::int64_t v = 2; v < 120; v += 5) h.edges.push_back({0, v, wide()});
    h.name = "wide_path";
    all.push_back(h);
  }
  // Issue 45's files: one edge of 1e6; 1e17 beside a shorter way round.
  all.push_back({"million", {{0, 1, 1e6f}}, 2});
  all.push_back({"1e17", {{0, 2, 1e17f}, {0, 1, 0.5f}, {1, 2, 0.5f}}, 3});
  // The largest float, on a leaf: no sum passes it (one that did would leave
  // its vertex unreached in float, as validate_sssp says).
  all.push_back(
      {"flt_max", {{0, 1, 0.25f}, {1, 2, std::numeric_limits<float>::max()}, {0, 3, 1.0f}}, 4});
  return all;
}

ht::Csr read(const Graph& g, const std::string& tag) {
  const std::string file = scratch_dir() + "/" + g.name + tag + ".wel";
  // The .wel writer prints %.9g: every float's exact value.
  write_file(file, edge_text(g.edges, "wel", g.n));
  ht::EdgeFile f = ht::EdgeFile::open(file);
  return ht::read_csr(f, true, MPI_COMM_WORLD);
}

// (delta: 0 auto; variant).
using Case = std::tuple<double, ht::SsspVariant>;
class AnyWeights : public ::testing::TestWithParam<Case> {};

TEST_P(AnyWeights, EveryGraphsAnswerIsDijkstrasAndValid) {
  const auto [delta, variant] = GetParam();
  for (const Graph& gr : graphs()) {
    const ht::Csr g = read(gr, "");
    // A file's vertices are those its edges name (the largest id + 1).
    HT_ASSERT_ALL(g.range.n_global <= gr.n) << gr.name << ": " << g.range.n_global << " vertices";
    const test::WholeGraph whole(gr.edges, g.range.n_global);
    ht::SsspOptions opt;
    opt.delta = delta;
    opt.variant = variant;
    opt.buffer_items = 8;  // many messages
    opt.chunks = 4;
    ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
    ht::DeltaStepping sssp(g, opt, rt, MPI_COMM_WORLD);
    EXPECT_GT(sssp.delta(), 0) << gr.name;
    for (const std::int64_t root : {std::int64_t{0}, g.range.n_global / 2, g.range.n_global - 1}) {
      const ht::SsspResult& res = sssp.search(root);
      const test::Answer a{gather(res.pred, g.range, MPI_INT64_T),
                           gather(res.dist, g.range, MPI_FLOAT)};
      const std::vector<float> want = oracle_distances(gr.edges, g.range.n_global, root);
      EXPECT_EQ(test::judge_sssp(whole, root, want, a), "")
          << gr.name << ", root " << root << ", delta " << sssp.delta();
      const ht::Validation v = ht::validate_sssp(g, root, res.pred, res.dist, MPI_COMM_WORLD);
      EXPECT_TRUE(v.ok()) << gr.name << ", root " << root << ": " << v.what;
    }
  }
}

// auto; 1e-3: weights of 1e30 are buckets past 2^62 (saturated); 1e30:
// one bucket; the smallest double: its inverse overflows, every distance
// but 0 in the last bucket.
INSTANTIATE_TEST_SUITE_P(
    Deltas, AnyWeights,
    ::testing::Combine(::testing::Values(0.0, 1e-3, 1e30,
                                         std::numeric_limits<double>::denorm_min()),
                       ::testing::Values(ht::SsspVariant::fused, ht::SsspVariant::classic)),
    [](const auto& p) {
      const double d = std::get<0>(p.param);
      const std::string delta = d == 0      ? "auto"
                                : d == 1e-3 ? "narrow"
                                : d == 1e30 ? "wide"
                                            : "denorm";
      return delta + "_" + ht::variant_name(std::get<1>(p.param));
    });

TEST(AutoDelta, AboutTheMeasuredBestOnKronecker) {
  for (const int scale : {10, 12}) {
    const ht::Csr g =
        ht::build_weighted_csr(ht::Kronecker{scale, 16, 0.57, 0.19, 0.19, 2}, MPI_COMM_WORLD);
    const double d = ht::auto_delta(g, MPI_COMM_WORLD);
    EXPECT_GT(d, 0.001) << "SCALE " << scale;
    EXPECT_LT(d, 0.004) << "SCALE " << scale;
  }
}

TEST(AutoDelta, FourMeanWeightsOverTheSquaredMeanDegree) {
  // A complete graph on 5 vertices (mean degree 4), weight 8: 4 * 8 / 16 = 2.
  std::vector<ht::WeightedEdge> k5;
  for (int u = 0; u < 5; ++u)
    for (int v = u + 1; v < 5; ++v) k5.push_back({u, v, 8.0f});
  ht::Csr c = read({"auto_k5", k5, 5}, "");
  EXPECT_DOUBLE_EQ(ht::auto_delta(c, MPI_COMM_WORLD), 2.0);
  // A path of 5 (mean degree 8/5), weights 1e6 and 3e6 (mean 2e6):
  // 4 * 2e6 / 2.56 is past the heaviest, so 3e6.
  ht::Csr g =
      read({"auto_million", {{0, 1, 1e6f}, {1, 2, 3e6f}, {2, 3, 1e6f}, {3, 4, 3e6f}}, 5}, "");
  EXPECT_DOUBLE_EQ(ht::auto_delta(g, MPI_COMM_WORLD), 3e6);
  // At most the heaviest weight: one edge of 0.5 among 1000 vertices, mean
  // degree 0.002.
  ht::Csr m = read({"auto_sparse", {{0, 999, 0.5f}}, 1000}, "");
  EXPECT_EQ(ht::auto_delta(m, MPI_COMM_WORLD), 0.5);
  ht::Csr z = read({"auto_zero", {{0, 1, 0.0f}, {1, 2, 0.0f}}, 3}, "");
  EXPECT_EQ(ht::auto_delta(z, MPI_COMM_WORLD), 1.0);
}

TEST(DeltaStepping, RefusesANegativeOrInfiniteDelta) {
  const ht::Csr g =
      ht::build_weighted_csr(ht::Kronecker{6, 4, 0.57, 0.19, 0.19, 1}, MPI_COMM_WORLD);
  for (const double delta :
       {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    ht::SsspOptions opt;
    opt.delta = delta;
    ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
    EXPECT_THROW(ht::DeltaStepping(g, opt, rt, MPI_COMM_WORLD), ht::UsageError) << delta;
  }
}

}  // namespace
