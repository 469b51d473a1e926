// Tests of ht::DeltaStepping (kernel 3) and of kernel 1's weights, on np =
// 1, 2, 4 ranks x 1, 2 threads:
//  - kernel 1 with weights stores the same targets as without, each with the
//    generator's weight of its edge, in [0, 1);
//  - distances equal a serial Dijkstra's (sssp_oracle.hpp) for several roots
//    and deltas (all edges light, most heavy, in between), unreached alike,
//    with the exact sent filter and with a lossy one;
//  - every reached vertex's parent is reached, one edge away, and its
//    distance plus that edge's weight is the vertex's: a shortest-path tree;
//  - the distributed validation (validate_sssp) passes it (the wrong answers
//    it rejects: tstSsspValidate);
//  - the same on a graph read from a file (.mtx and .wel), with 32- and
//    64-bit targets;
//  - a graph without weights, or a negative window, is refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "assert_all.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_EdgeFile.hpp"
#include "graph/edge_files.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "runtime/HT_Error.hpp"
#include "sssp_oracle.hpp"

namespace {

TEST(KernelOneWeights, SameTargetsWithTheGeneratorsWeights) {
  const ht::Kronecker gen{9, 8, 0.57, 0.19, 0.19, 3};
  const ht::Csr plain = ht::build_csr(gen, MPI_COMM_WORLD);
  const ht::Csr weighted =
      ht::build_weighted_csr(gen, MPI_COMM_WORLD, nullptr, ht::TargetBits::automatic, 100);
  // Rows hold the same neighbours (their order follows how edges were cut
  // into pieces, which differs here).
  EXPECT_EQ(plain.offsets, weighted.offsets);
  for (std::size_t i = 0; i + 1 < plain.offsets.size(); ++i) {
    std::vector<std::int64_t> a = plain.neighbours(i);
    std::vector<std::int64_t> b = weighted.neighbours(i);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b) << "row " << i;
  }
  ASSERT_EQ(weighted.weights.size(), weighted.targets.size());
  EXPECT_TRUE(plain.weights.empty());
  // Each stored (u, v, w) is an input edge {u, v} with weight w.
  std::multimap<std::pair<std::int64_t, std::int64_t>, float> input;
  for (const auto& e : gen.weighted_edges(0, gen.edge_count())) {
    EXPECT_GE(e.w, 0.0f);
    EXPECT_LT(e.w, 1.0f);
    input.insert({{e.u, e.v}, e.w});
    input.insert({{e.v, e.u}, e.w});
  }
  const ht::VertexRange& r = weighted.range;
  for (std::int64_t i = 0; i < r.local_count(); ++i) {
    for (auto k = weighted.offsets[i]; k < weighted.offsets[i + 1]; ++k) {
      const auto [lo, hi] = input.equal_range({r.global(i), weighted.targets[k]});
      bool found = false;
      for (auto it = lo; it != hi; ++it) found = found || it->second == weighted.weights[k];
      EXPECT_TRUE(found) << r.global(i) << " -> " << weighted.targets[k];
    }
  }
}

// (delta, variant, sent filter bytes: 0 automatic, the exact filter here,
// buckets a fused phase may take: 0 automatic).
using Case = std::tuple<double, ht::SsspVariant, std::size_t, int>;
class DeltaSteppingCase : public ::testing::TestWithParam<Case> {};

TEST_P(DeltaSteppingCase, DistancesAreDijkstrasAndParentsATree) {
  const auto [delta, variant, filter_bytes, window] = GetParam();
  const ht::Kronecker gen{10, 16, 0.57, 0.19, 0.19, 5};
  const ht::Csr g = ht::build_weighted_csr(gen, MPI_COMM_WORLD);
  ht::SsspOptions opt;
  opt.delta = delta;
  opt.variant = variant;
  opt.sent_filter_bytes = filter_bytes;
  opt.window = window;
  opt.buffer_items = 64;  // many messages
  opt.chunks = 8;
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
  ht::DeltaStepping sssp(g, opt, rt, MPI_COMM_WORLD);
  // The weight of the lightest edge {u, v}, any direction (duplicates kept).
  std::map<std::pair<std::int64_t, std::int64_t>, float> lightest;
  for (const auto& e : gen.weighted_edges(0, gen.edge_count())) {
    for (auto key : {std::pair{e.u, e.v}, std::pair{e.v, e.u}}) {
      auto [it, fresh] = lightest.insert({key, e.w});
      if (!fresh) it->second = std::min(it->second, e.w);
    }
  }
  for (std::int64_t root : {std::int64_t{0}, std::int64_t{517}, std::int64_t{1023}}) {
    const ht::SsspResult& res = sssp.search(root);
    const std::vector<float> want = oracle_distances(gen, root);
    const std::vector<float> dist = gather(res.dist, g.range, MPI_FLOAT);
    const std::vector<std::int64_t> pred = gather(res.pred, g.range, MPI_INT64_T);
    std::int64_t reached = 0;
    // Every vertex's path, in a function of its own: a distance or parent
    // that cannot be followed ends it, and then every rank stops.
    const auto check_paths = [&] {
      for (std::int64_t v = 0; v < gen.vertex_count(); ++v) {
        const auto s = static_cast<std::size_t>(v);
        if (std::isinf(want[s])) {
          EXPECT_TRUE(std::isinf(dist[s])) << "root " << root << ", vertex " << v;
          EXPECT_EQ(pred[s], -1);
          continue;
        }
        ++reached;
        ASSERT_NEAR(dist[s], want[s], 1e-5 * (1 + want[s])) << "root " << root << ", vertex " << v;
        if (v == root) {
          EXPECT_EQ(pred[s], root);
          EXPECT_EQ(dist[s], 0.0f);
          continue;
        }
        const std::int64_t p = pred[s];
        ASSERT_GE(p, 0) << v;
        const auto edge = lightest.find({p, v});
        ASSERT_NE(edge, lightest.end()) << "parent " << p << " of " << v << " is no neighbour";
        EXPECT_LE(dist[s], dist[static_cast<std::size_t>(p)] + edge->second) << v;
        EXPECT_LT(dist[static_cast<std::size_t>(p)], dist[s] + 1e-6f) << v;
      }
    };
    HT_ASSERT_ALL_NO_FATAL_FAILURE(check_paths());
    EXPECT_GT(reached, gen.vertex_count() / 4);
    EXPECT_GE(res.buckets, 1);
    const ht::Validation v = ht::validate_sssp(g, root, res.pred, res.dist, MPI_COMM_WORLD);
    EXPECT_TRUE(v.ok()) << v.what;
  }
}

// Both variants with all edges light (one bucket holds everything:
// Bellman-Ford in phases), most edges heavy (many buckets, nearly
// Dijkstra), and between; and a lossy sent filter of 8 slots, where
// vertices displace each other all the time.  classic at 0.5: wide buckets
// whose light waves run as several chunks on every worker, then a heavy
// phase over what all the workers took.  fused with windows of 3 and 8
// buckets a phase: ranks run ahead of each other's distances within a phase
// (with nbx, the automatic window is 4 already).
INSTANTIATE_TEST_SUITE_P(Deltas, DeltaSteppingCase,
                         ::testing::Values(Case{2.0, ht::SsspVariant::classic, 0, 0},
                                           Case{0.5, ht::SsspVariant::classic, 0, 0},
                                           Case{0.02, ht::SsspVariant::classic, 0, 0},
                                           Case{0.1, ht::SsspVariant::classic, 0, 0},
                                           Case{2.0, ht::SsspVariant::fused, 0, 0},
                                           Case{0.01, ht::SsspVariant::fused, 0, 0},
                                           Case{0.1, ht::SsspVariant::fused, 0, 0},
                                           Case{0.01, ht::SsspVariant::fused, 64, 0},
                                           Case{0.02, ht::SsspVariant::classic, 64, 0},
                                           Case{0.01, ht::SsspVariant::fused, 0, 3},
                                           Case{0.005, ht::SsspVariant::fused, 64, 8}));

// Kernel 3 on a graph read from a file: the generator's weighted edges
// written out, read back in either target width, searched, and compared with
// Dijkstra on the edges themselves.
class FileGraph : public ::testing::TestWithParam<std::pair<const char*, ht::TargetBits>> {};

TEST_P(FileGraph, DistancesAreDijkstras) {
  const auto [format, bits] = GetParam();
  const ht::Kronecker gen{9, 8, 0.57, 0.19, 0.19, 8};
  const std::string path = scratch_dir() + "/sssp." + format;
  write_file(path, edge_text(gen.weighted_edges(0, gen.edge_count()), format, gen.vertex_count()));
  ht::EdgeFile file = ht::EdgeFile::open(path);
  const ht::Csr g = ht::read_csr(file, true, MPI_COMM_WORLD, nullptr, bits);
  ht::SsspOptions opt;
  opt.delta = 0.05;
  opt.buffer_items = 32;
  opt.chunks = 4;
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
  ht::DeltaStepping sssp(g, opt, rt, MPI_COMM_WORLD);
  for (std::int64_t root : {std::int64_t{1}, std::int64_t{300}}) {
    const ht::SsspResult& res = sssp.search(root);
    const std::vector<float> want = oracle_distances(gen, root);
    const std::vector<float> dist = gather(res.dist, g.range, MPI_FLOAT);
    const auto check_distances = [&] {
      for (std::int64_t v = 0; v < g.range.n_global; ++v) {
        const auto s = static_cast<std::size_t>(v);
        if (std::isinf(want[s]))
          EXPECT_TRUE(std::isinf(dist[s])) << format << ", root " << root << ", vertex " << v;
        else
          ASSERT_NEAR(dist[s], want[s], 1e-5 * (1 + want[s])) << format << ", vertex " << v;
      }
    };
    HT_ASSERT_ALL_NO_FATAL_FAILURE(check_distances());
    const ht::Validation v = ht::validate_sssp(g, root, res.pred, res.dist, MPI_COMM_WORLD);
    EXPECT_TRUE(v.ok()) << v.what;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, FileGraph,
                         ::testing::Values(std::pair{"mtx", ht::TargetBits::automatic},
                                           std::pair{"wel", ht::TargetBits::b64}));

TEST(DeltaStepping, RefusesAGraphWithoutWeights) {
  const ht::Csr g = ht::build_csr(ht::Kronecker{6, 4, 0.57, 0.19, 0.19, 1}, MPI_COMM_WORLD);
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes({}), "Runtime/pool_MiB");
  EXPECT_THROW(ht::DeltaStepping(g, {}, rt, MPI_COMM_WORLD), ht::UsageError);
}

TEST(DeltaStepping, RefusesANegativeWindow) {
  const ht::Csr g =
      ht::build_weighted_csr(ht::Kronecker{6, 4, 0.57, 0.19, 0.19, 1}, MPI_COMM_WORLD);
  ht::SsspOptions opt;
  opt.window = -1;
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
  try {
    ht::DeltaStepping(g, opt, rt, MPI_COMM_WORLD);
    ADD_FAILURE() << "a window of -1 was taken";
  } catch (const ht::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos) << e.what();
  }
}

// A CSR whose rows were not split (put together by hand on several ranks):
// refused, not searched with remote targets taken for local ones.
TEST(DeltaStepping, RefusesRowsNotSplitOnSeveralRanks) {
  ht::Csr g = ht::build_weighted_csr(ht::Kronecker{6, 4, 0.57, 0.19, 0.19, 1}, MPI_COMM_WORLD);
  EXPECT_TRUE(g.split_rows());
  g.split.clear();
  // A rank that owns no rows (SCALE 6 on 9 ranks) passes vacuously.
  EXPECT_EQ(ht::on_every_rank(g.split_rows(), MPI_COMM_WORLD), g.range.size == 1);
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes({}), "Runtime/pool_MiB");
  if (g.range.size == 1) {
    EXPECT_NO_THROW(ht::DeltaStepping(g, {}, rt, MPI_COMM_WORLD));
  } else {
    EXPECT_THROW(ht::DeltaStepping(g, {}, rt, MPI_COMM_WORLD), ht::UsageError);
    const std::vector<std::int64_t> pred(static_cast<std::size_t>(g.range.local_count()), -1);
    const std::vector<float> dist(pred.size(), ht::SsspResult::kUnreached);
    EXPECT_THROW(ht::validate_sssp(g, 0, pred, dist, MPI_COMM_WORLD), ht::UsageError);
  }
}

}  // namespace
