// Both SSSP variants (fused, classic; auto delta) on the generated graphs of
// shapes.hpp (paths of thousands of edges, grids, chains of cliques, stars,
// spiders, trees, pieces apart; isolated vertices, duplicate edges of their
// own weights, self-loops, ids shuffled across the ranks' blocks), each shape
// with every kind of weights (unit, uniform, integers 1..255, all zero, some
// zero, 1e-30 to 1e30, tiny and huge mixed), on np = 1, 2, 4 ranks x 1, 2
// threads, and one rank's team run with its waves shared; and on the 2D
// block of the auto grid (every grid of the ranks for the small instances,
// and auto's with its spare ranks on 5 and 7), each answer checked by the 2D
// validator.  From each of the
// instance's keys (inside and outside its big piece, isolated) the answer
// passes validate_sssp and is the test's own Dijkstra's by wrong_answers.hpp's
// judge: exact distances, a parent per reached vertex whose edge weighs the
// difference, a tree.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/shapes.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_DeltaStepping2D.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "graph/wrong_answers.hpp"
#include "sssp_oracle.hpp"

namespace {

// The grids of the 2D search: none, auto_grid's, or every R x C = P and
// auto_grid's (with spare ranks where it leaves some).
enum class Grids { none, automatic, all };

std::vector<ht::GridShape> grids_of(Grids grids, int p) {
  const ht::GridShape auto_shape = ht::auto_grid(p);
  std::vector<ht::GridShape> out;
  if (grids == Grids::all)
    for (int rows = 1; rows <= p; ++rows)
      if (p % rows == 0) out.push_back({rows, p / rows});
  if (grids == Grids::automatic || (grids == Grids::all && auto_shape.ranks() < p))
    out.push_back(auto_shape);
  return out;
}

int world_size() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// Searches from every key of gr by \p make_search(variant) (an object with
// search(key) and delta()), each answer validated by \p validate(key,
// result) and judged against the oracle's distances \p want.
template <class Make, class Validate>
void judge_searches(const test::ShapeGraph& gr, const ht::VertexRange& range,
                    const std::vector<std::vector<float>>& want, const std::string& layout,
                    Make&& make_search, Validate&& validate) {
  const test::WholeGraph whole(gr.edges, gr.n);
  for (const ht::SsspVariant variant : {ht::SsspVariant::fused, ht::SsspVariant::classic}) {
    ht::SsspOptions opt;
    opt.variant = variant;
    opt.buffer_items = 8;  // many messages
    opt.chunks = 4;
    opt.round_entries = 16;  // 2D: many rounds a phase
    auto sssp = make_search(opt);
    for (std::size_t k = 0; k < gr.keys.size(); ++k) {
      const std::int64_t key = gr.keys[k];
      SCOPED_TRACE(gr.name + ", " + layout + ", " + ht::variant_name(variant) + ", delta " +
                   std::to_string(sssp->delta()) + ", key " + std::to_string(key));
      const ht::SsspResult& res = sssp->search(key);
      const test::Answer a{gather(res.pred, range, MPI_INT64_T),
                           gather(res.dist, range, MPI_FLOAT)};
      const ht::Validation v = validate(key, res);
      EXPECT_TRUE(v.ok()) << v.what;
      EXPECT_EQ(test::judge_sssp(whole, key, want[k], a), "");
    }
  }
}

// Every key of one instance searched by both variants, on the 1D CSR and on
// the 2D block of \p grids, and judged.  Rows ordered (the lightest of
// duplicates kept) for odd seeds, as the edges came for even ones.
void search_all(test::Shape shape, std::int64_t size, std::uint64_t seed, test::Weights weights,
                Grids grids = Grids::automatic) {
  test::ShapeGraph gr = test::make_shape(shape, size, seed, weights);
  // The CSR, its vertices owned by the first \p owners ranks (0: all).
  const auto csr_of = [&](int owners) {
    const auto [first, last] =
        ht::edge_slice(static_cast<std::int64_t>(gr.edges.size()), MPI_COMM_WORLD);
    ht::Csr g = ht::build_csr(
        std::vector<ht::WeightedEdge>(gr.edges.begin() + first, gr.edges.begin() + last), gr.n,
        MPI_COMM_WORLD, std::int64_t(1) << 22, ht::TargetBits::automatic, owners);
    if (seed % 2) ht::order_rows(g, MPI_COMM_WORLD);
    return g;
  };
  const ht::Csr g = csr_of(0);
  if (seed % 2) gr.name += " ordered";
  std::vector<std::vector<float>> want;
  for (const std::int64_t key : gr.keys) want.push_back(oracle_distances(gr.edges, gr.n, key));
  std::unique_ptr<ht::TaskRuntime> rt;
  judge_searches(
      gr, g.range, want, "1D",
      [&](const ht::SsspOptions& opt) {
        rt.reset();  // one runtime at a time
        rt = std::make_unique<ht::TaskRuntime>(ht::DeltaStepping::pool_bytes(opt),
                                               "Runtime/pool_MiB");
        return std::make_unique<ht::DeltaStepping>(g, opt, *rt, MPI_COMM_WORLD);
      },
      [&](std::int64_t key, const ht::SsspResult& res) {
        return ht::validate_sssp(g, key, res.pred, res.dist, MPI_COMM_WORLD);
      });
  for (const ht::GridShape& on : grids_of(grids, world_size())) {
    const ht::Csr owned = csr_of(on.ranks());
    const ht::Grid2D grid(MPI_COMM_WORLD, on);
    const ht::Csr2D b = ht::build_csr_2d(owned, grid);
    judge_searches(
        gr, owned.range, want, "2D " + grid.shape().name(),
        [&](const ht::SsspOptions& opt) {
          return std::make_unique<ht::DeltaStepping2D>(b, grid, opt);
        },
        [&](std::int64_t key, const ht::SsspResult& res) {
          return ht::validate_sssp(b, grid, key, res.pred, res.dist, MPI_COMM_WORLD);
        });
  }
}

std::string shape_test_name(const ::testing::TestParamInfo<test::Shape>& p) {
  return test::shape_name(p.param);
}

// Each kind of weights on the shape, at sizes that no rank count divides
// (one per kind, in turn), a seed each.
class SsspShapes : public ::testing::TestWithParam<test::Shape> {};
TEST_P(SsspShapes, BothVariantsGiveDijkstrasDistancesForEveryWeight) {
  const std::int64_t sizes[] = {7, 61, 150};
  std::uint64_t seed = 0;
  for (const test::Weights w : test::kWeights) {
    search_all(GetParam(), sizes[seed % 3], seed + 1, w);
    ++seed;
  }
}
INSTANTIATE_TEST_SUITE_P(Shapes, SsspShapes, ::testing::ValuesIn(test::kShapes), shape_test_name);

// One small instance of each shape, weights 1e-30 to 1e30: for 2 and 4
// ranks of 2 threads, where a phase costs tens of milliseconds on 2
// oversubscribed cores.
class SsspShapesSmall : public ::testing::TestWithParam<test::Shape> {};
TEST_P(SsspShapesSmall, BothVariantsGiveDijkstrasDistances) {
  search_all(GetParam(), 12, 3, test::Weights::wide, Grids::all);
}
INSTANTIATE_TEST_SUITE_P(Shapes, SsspShapesSmall, ::testing::ValuesIn(test::kShapes),
                         shape_test_name);

// One rank's team run (fused: every bucket in one parallel region) with
// every wave shared by the threads, then with those under 24 edges taken by
// thread 0 alone: its barriers, shares and hand-overs, on every shape.
class SsspShapesTeam : public ::testing::TestWithParam<test::Shape> {};
TEST_P(SsspShapesTeam, SharedWavesGiveDijkstrasDistances) {
  const std::int64_t alone = ht::impl::team_alone_edges();
  for (const std::int64_t edges : {0, 24}) {
    ht::impl::set_team_alone_edges(edges);
    search_all(GetParam(), 150, 1, test::Weights::integers, Grids::none);
    search_all(GetParam(), 61, 2, test::Weights::wide, Grids::none);
  }
  ht::impl::set_team_alone_edges(alone);
}
INSTANTIATE_TEST_SUITE_P(Shapes, SsspShapesTeam, ::testing::ValuesIn(test::kShapes),
                         shape_test_name);

// High diameter: a path of two thousand edges, road-like integer weights
// and tiny and huge ones mixed.
TEST(SsspShapesLong, APathOfThousandsOfEdges) {
  search_all(test::Shape::path, 2001, 1, test::Weights::integers);
  search_all(test::Shape::path, 1201, 2, test::Weights::tiny_and_huge);
}

}  // namespace
