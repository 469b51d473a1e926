// Tests of the chunked variants' work split (impl/HT_EdgeChunks.hpp): walked
// the way ChunkedSearch::expand walks it, the chunks cover every edge of the
// frontier exactly once, hold equal numbers of edges (within one), and count
// every frontier vertex exactly once -- for rows of length 0, a hub longer
// than a chunk, and more chunks than rows.
#include <gtest/gtest.h>

#include <random>

#include "graph/impl/HT_EdgeChunks.hpp"

namespace {

using ht::impl::EdgeChunks;

// Row q of the frontier is vertex rows[q]; its length is degree[rows[q]].
void check(const std::vector<std::int64_t>& degree, std::size_t n) {
  std::vector<std::int64_t> rows(degree.size());
  for (std::size_t q = 0; q < rows.size(); ++q) rows[q] = static_cast<std::int64_t>(q);
  EdgeChunks chunks;
  chunks.assign(rows, [&](std::int64_t v) { return degree[v]; });
  const std::int64_t* starts = chunks.starts();
  const auto m = static_cast<std::int64_t>(rows.size());
  std::vector<std::vector<int>> covered(rows.size());
  for (std::size_t q = 0; q < rows.size(); ++q) covered[q].assign(degree[q], 0);
  std::int64_t counted = 0, smallest = chunks.edges(), largest = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const std::int64_t e0 = chunks.edge_begin(c, n), e1 = chunks.edge_begin(c + 1, n);
    smallest = std::min(smallest, e1 - e0);
    largest = std::max(largest, e1 - e0);
    for (auto q = static_cast<std::int64_t>(chunks.row_of(e0)); q < m && starts[q] < e1; ++q) {
      for (std::int64_t e = std::max(starts[q], e0); e < std::min(starts[q + 1], e1); ++e)
        ++covered[q][e - starts[q]];
    }
    const std::size_t vb = chunks.vertex_begin(c, n), ve = chunks.vertex_begin(c + 1, n);
    ASSERT_LE(vb, ve) << "chunk " << c;
    counted += static_cast<std::int64_t>(ve - vb);
    // A chunk owns the rows that start inside it.
    for (std::size_t q = vb; q < ve && c + 1 < n; ++q) {
      EXPECT_GE(starts[q], e0);
      EXPECT_LT(starts[q], e1);
    }
  }
  for (std::size_t q = 0; q < rows.size(); ++q)
    for (std::size_t k = 0; k < covered[q].size(); ++k)
      ASSERT_EQ(covered[q][k], 1) << "row " << q << " edge " << k << ", " << n << " chunks";
  EXPECT_EQ(counted, m) << n << " chunks";
  EXPECT_LE(largest - smallest, 1) << n << " chunks";
}

TEST(EdgeChunks, CoverEveryEdgeOnceInEqualChunks) {
  std::mt19937_64 rng(42);
  std::geometric_distribution<std::int64_t> skewed(0.08);
  std::vector<std::int64_t> degree(300);
  for (auto& d : degree) d = skewed(rng) * (rng() % 4 == 0 ? 0 : 1);  // a quarter empty
  degree[17] = 5000;                                                  // a hub over many chunks
  for (std::size_t n : {1, 2, 3, 7, 64, 299, 300, 1000}) check(degree, n);
}

TEST(EdgeChunks, EmptyRowsAndNoEdges) {
  check({0, 0, 0}, 1);
  check({0, 0, 5, 0, 0}, 2);
  check({0, 0, 5, 0, 0}, 5);
  check({9}, 4);
  EdgeChunks none;
  none.assign({}, [](std::int64_t) { return std::int64_t(0); });
  EXPECT_EQ(none.edges(), 0);
  EXPECT_EQ(none.vertex_begin(1, 1), 0u);
}

TEST(EdgeChunks, NoOverflowOnHugeFrontiers) {
  EdgeChunks chunks;
  const std::int64_t big = std::int64_t(1) << 60;
  chunks.assign({0, 1}, [&](std::int64_t) { return big; });
  EXPECT_EQ(chunks.edge_begin(1, 2), big);
  EXPECT_EQ(chunks.edge_begin(3, 4), 3 * (big / 2));
  EXPECT_EQ(chunks.row_of(big - 1), 0u);
  EXPECT_EQ(chunks.row_of(big), 1u);
}

}  // namespace
