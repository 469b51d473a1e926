// Tests of kernel 1's row order (HT_RowOrder.hpp): after order_rows every
// row holds each of its input neighbours exactly once, with its lightest
// input weight, local targets before remote ones, each part by the
// targets' degree (highest first, ties by id); Csr::dropped counts what was
// dropped, so the TEPS edge count is the input's.  For 32- and 64-bit ids,
// with and without weights (each takes its own sorting path).
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_TepsEdges.hpp"
#include "graph/impl/HT_TargetDegrees.hpp"
#include "runtime/HT_Error.hpp"

namespace {

// A Kronecker graph (256 vertices) dense enough at its hubs to repeat edges.
const ht::Kronecker kGen{8, 16, 0.57, 0.19, 0.19, 5};

struct Row {
  int count = 0;  // input copies of the edge
  float lightest = 0;
};

class OrderRows : public ::testing::TestWithParam<std::pair<ht::TargetBits, bool>> {};

TEST_P(OrderRows, KeepEachNeighbourOnceLightestFirstByDegree) {
  const auto [bits, weighted] = GetParam();
  // 300 vertices: rank blocks that do not start on a bitmap word.
  const auto [first, last] = ht::edge_slice(kGen.edge_count(), MPI_COMM_WORLD);
  const std::int64_t n = 300, chunk = std::int64_t(1) << 20;
  ht::Csr g = weighted
                  ? ht::build_csr(kGen.weighted_edges(first, last), n, MPI_COMM_WORLD, chunk, bits)
                  : ht::build_csr(kGen.edges(first, last), n, MPI_COMM_WORLD, chunk, bits);
  const ht::VertexRange& r = g.range;
  HT_ASSERT_ALL_EQ(g.targets.wide(), bits == ht::TargetBits::b64);
  // The input, and every vertex's input degree (the order's key), from the
  // whole edge list: independent of the CSR.
  std::vector<long long> degree(static_cast<std::size_t>(r.n_global), 0);
  std::map<std::pair<std::int64_t, std::int64_t>, Row> want;
  for (const auto& e : kGen.weighted_edges(0, kGen.edge_count())) {
    if (e.u == e.v) continue;
    ++degree[e.u];
    ++degree[e.v];
    for (auto [a, b] : {std::pair{e.u, e.v}, std::pair{e.v, e.u}}) {
      if (!r.mine(a)) continue;
      Row& row = want[{a, b}];
      row.lightest = row.count++ == 0 ? e.w : std::min(row.lightest, e.w);
    }
  }
  std::vector<std::int64_t> all(static_cast<std::size_t>(r.local_count()), 0);
  const std::int64_t before =
      ht::component_edges(g, std::vector<std::int64_t>(all.size(), 0), MPI_COMM_WORLD);

  ht::order_rows(g, MPI_COMM_WORLD);

  HT_ASSERT_ALL(g.split_rows());
  HT_ASSERT_ALL_EQ(g.dropped.size(), all.size());
  HT_ASSERT_ALL_EQ(g.targets.size(), static_cast<std::size_t>(g.offsets.back()));
  if (weighted) {
    HT_ASSERT_ALL_EQ(g.weights.size(), g.targets.size());
  }
  std::map<std::pair<std::int64_t, std::int64_t>, Row> got;
  long long dropped = 0, ordered_pairs = 0, ordered_remote = 0, remote = 0;
  // This rank's rows, in a function of their own: an ASSERT there (a row
  // that cannot be read on) leaves it, and then every rank stops.
  const auto check_rows = [&] {
    for (std::int64_t i = 0; i < r.local_count(); ++i) {
      const std::int64_t u = r.global(i);
      ASSERT_LE(g.offsets[i], g.local_end(i));
      ASSERT_LE(g.local_end(i), g.offsets[i + 1]);
      std::int64_t input = 0;
      for (auto k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t v = g.targets[k];
        Row& row = got[{u, v}];
        ASSERT_EQ(row.count++, 0) << "row " << u << " holds " << v << " twice";
        row.lightest = weighted ? g.weights[k] : 0;
        const auto in = want.find({u, v});
        ASSERT_NE(in, want.end()) << "row " << u << " holds " << v << ", not an input edge";
        input += in->second.count;
        EXPECT_EQ(r.mine(v), k < g.local_end(i)) << "row " << u << ", edge " << k;
        remote += !r.mine(v);
        // Within a part: degree not rising, ties by rising id.
        if (k > g.offsets[i] && k != g.local_end(i)) {
          const std::int64_t p = g.targets[k - 1];
          EXPECT_TRUE(degree[p] > degree[v] || (degree[p] == degree[v] && p < v))
              << "row " << u << ": " << p << " (degree " << degree[p] << ") before " << v
              << " (degree " << degree[v] << ")";
          ordered_pairs += degree[p] != degree[v];
          ordered_remote += degree[p] != degree[v] && k > g.local_end(i);
        }
      }
      EXPECT_EQ(g.dropped[i], input - g.degree(i)) << "row " << u;
      dropped += g.dropped[i];
    }
    ASSERT_EQ(got.size(), want.size());
    for (const auto& [edge, row] : want) {
      ASSERT_TRUE(got.count(edge)) << edge.first << " -> " << edge.second << " lost";
      if (weighted) {
        EXPECT_EQ(got[edge].lightest, row.lightest) << edge.first << " -> " << edge.second;
      }
    }
  };
  HT_ASSERT_ALL_NO_FATAL_FAILURE(check_rows());
  // What makes this test able to fail: duplicates, rows whose degrees
  // differ, and on several ranks remote parts whose degrees differ (their
  // degrees come from the owners).
  long long sums[4] = {dropped, ordered_pairs, remote, ordered_remote};
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(sums[0], 0);
  EXPECT_GT(sums[1], 0);
  if (r.size > 1) {
    EXPECT_GT(sums[2], 0);
    EXPECT_GT(sums[3], 0);
  }
  // The TEPS edge count is the input's, duplicates included, and stays so
  // after a second call (which has nothing left to drop).
  EXPECT_EQ(ht::component_edges(g, std::vector<std::int64_t>(all.size(), 0), MPI_COMM_WORLD),
            before);
  const std::size_t kept = g.targets.size();
  ht::order_rows(g, MPI_COMM_WORLD);
  EXPECT_EQ(g.targets.size(), kept);
  EXPECT_EQ(ht::component_edges(g, std::vector<std::int64_t>(all.size(), 0), MPI_COMM_WORLD),
            before);
}

// The degrees behind the order (impl::TargetDegrees) against the input's
// degrees counted from the whole edge list, for every entry of every local
// row: dense hubs, ids spread over a large N, remote ids clustered at the
// top of the range, and a graph smaller than the ranks (a rank owns nothing).
struct Graph {
  const char* name;
  std::int64_t n;
  std::vector<ht::Edge> edges;  // the whole input
};

std::vector<Graph> graphs() {
  std::vector<Graph> out;
  out.push_back({"hubs", 300, kGen.edges(0, kGen.edge_count())});
  // Scale-12 Kronecker edges spread over 2^20 + 5 vertices.
  const ht::Kronecker sparse{12, 1, 0.57, 0.19, 0.19, 9};
  std::vector<ht::Edge> spread = sparse.edges(0, sparse.edge_count());
  for (ht::Edge& e : spread) e = {e.u * 256 + e.u % 7, e.v * 256 + e.v % 5};
  out.push_back({"spread", (std::int64_t(1) << 20) + 5, spread});
  // 64 low vertices each joined to 40 of the top 2048 of 2^16.
  std::vector<ht::Edge> clustered;
  const std::int64_t n = std::int64_t(1) << 16;
  for (std::int64_t u = 0; u < 64; ++u)
    for (std::int64_t j = 0; j < 40; ++j)
      clustered.push_back({u, n - 1 - (u * 37 + j * 53) % 2048});
  out.push_back({"clustered", n, clustered});
  out.push_back({"tiny", 5, {{0, 4}, {1, 4}, {2, 3}, {4, 4}, {0, 4}, {3, 1}}});
  return out;
}

class TargetDegreesTest : public ::testing::TestWithParam<ht::TargetBits> {};

TEST_P(TargetDegreesTest, MatchInputDegreesOfEveryTarget) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const Graph& gr : graphs()) {
    SCOPED_TRACE(gr.name);
    const auto m = static_cast<std::int64_t>(gr.edges.size());
    const std::vector<ht::Edge> slice(gr.edges.begin() + m * rank / size,
                                      gr.edges.begin() + m * (rank + 1) / size);
    const ht::Csr g = ht::build_csr(slice, gr.n, MPI_COMM_WORLD, std::int64_t(1) << 20, GetParam());
    const ht::VertexRange& r = g.range;
    std::map<std::int64_t, long long> degree;  // the oracle: non-self-loop ends
    for (const ht::Edge& e : gr.edges) {
      if (e.u == e.v) continue;
      ++degree[e.u];
      ++degree[e.v];
    }
    // Rounds as order_rows takes them, and rounds of about 7 entries.
    long long checked = 0, checked_remote = 0;
    std::int64_t longest = 0;
    for (std::int64_t i = 0; i < r.local_count(); ++i) longest = std::max(longest, g.degree(i));
    // The loop is collective: it only records, and every rank judges after
    // it (HT_ASSERT_ALL), so a failure on one rank ends every rank's test.
    for (const std::int64_t per_round : {ht::impl::TargetDegrees::kRound, std::int64_t(7)}) {
      ht::impl::TargetDegrees lookup(g, MPI_COMM_WORLD, per_round);
      std::int64_t covered = 0;
      long long not_asked = 0, gaps = 0, wrong = 0, too_big = 0;
      std::string first_wrong;
      while (lookup.next()) {
        not_asked += !lookup.asked();
        gaps += lookup.row_begin() != covered;
        covered = lookup.row_end();
        for (std::int64_t i = lookup.row_begin(); i < lookup.row_end(); ++i) {
          for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
            const std::int64_t v = g.targets[k];
            if (lookup[k] != degree[v] && wrong++ == 0)
              first_wrong = "row " + std::to_string(r.global(i)) + ", entry " + std::to_string(k) +
                            ", target " + std::to_string(v) + ": " + std::to_string(lookup[k]) +
                            " for " + std::to_string(degree[v]);
            ++checked;
            checked_remote += !r.mine(v);
          }
        }
        // No array of N: 4 bytes an entry of a round (a longer row alone).
        too_big += lookup.bytes() > 4 * static_cast<std::size_t>(std::max(per_round, longest));
      }
      EXPECT_EQ(not_asked, 0) << "rounds of " << per_round;
      EXPECT_EQ(gaps, 0) << "rounds of " << per_round << ": a round skipped or repeated rows";
      EXPECT_EQ(wrong, 0) << "rounds of " << per_round << ": first wrong at " << first_wrong;
      EXPECT_EQ(too_big, 0) << "rounds of " << per_round << ": a round held more than its entries";
      EXPECT_EQ(covered, r.local_count()) << "rounds of " << per_round;
      HT_ASSERT_ALL(not_asked + gaps + wrong + too_big == 0 && covered == r.local_count())
          << "rounds of " << per_round;
    }
    long long sums[2] = {checked, checked_remote};
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GT(sums[0], 0);
    if (size > 1) {
      EXPECT_GT(sums[1], 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, TargetDegreesTest,
                         ::testing::Values(ht::TargetBits::automatic, ht::TargetBits::b64));

// A CSR whose rows are not split on several ranks (made by hand) is
// refused: its remote targets would be taken for local ones.
TEST(OrderRowsRefuses, RowsNotSplit) {
  ht::Csr g = ht::build_csr(kGen.edges(0, 0), kGen.vertex_count(), MPI_COMM_WORLD);
  // lint: rank-uniform: the world's size
  if (g.range.size == 1) GTEST_SKIP() << "one rank: every target is local";
  g.split.clear();
  EXPECT_THROW(ht::order_rows(g, MPI_COMM_WORLD), ht::UsageError);
}

INSTANTIATE_TEST_SUITE_P(WidthsAndWeights, OrderRows,
                         ::testing::Values(std::pair{ht::TargetBits::automatic, false},
                                           std::pair{ht::TargetBits::automatic, true},
                                           std::pair{ht::TargetBits::b64, false},
                                           std::pair{ht::TargetBits::b64, true}));

}  // namespace
