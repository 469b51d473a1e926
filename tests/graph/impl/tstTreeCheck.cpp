// Tests of what both validators share (impl/HT_TreeCheck.hpp): check_rows
// runs a check over rows on every worker and reports as one loop would:
// every failed check, and the message of the lowest failing row.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "graph/impl/HT_TreeCheck.hpp"

namespace {

// Fails rows 7 (tree) and every multiple of 100 from 300 on (reach): on two
// workers the later rows run at the same time as the earlier ones.
TEST(CheckRows, EveryFailureCountsAndTheLowestRowSpeaksFirst) {
  for (const std::int64_t n : {0, 1, 5, 1000, 100000}) {
    ht::Validation res;
    std::string first;
    std::atomic<std::int64_t> visits{0};
    ht::impl::check_rows("test", n, res, first, [&](std::int64_t i, const auto& fail) {
      visits.fetch_add(1, std::memory_order_relaxed);
      if (i == 7) fail(ht::Validation::tree, "row 7");
      if (i >= 300 && i % 100 == 0) fail(ht::Validation::reach, "row " + std::to_string(i));
    });
    EXPECT_EQ(visits.load(), n) << "each row once";
    const int want = (n > 7 ? ht::Validation::tree : 0) | (n > 300 ? ht::Validation::reach : 0);
    EXPECT_EQ(res.failed, want) << n << " rows";
    EXPECT_EQ(first, n > 7 ? "row 7" : "") << n << " rows";
  }
}

// A failure recorded before (the root check) keeps its message.
TEST(CheckRows, AnEarlierFailureKeepsItsMessage) {
  ht::Validation res;
  std::string first;
  ht::impl::failure_recorder(res, first)(ht::Validation::root, "the root");
  ht::impl::check_rows("test", 1000, res, first, [](std::int64_t i, const auto& fail) {
    if (i == 999) fail(ht::Validation::distances, "row 999");
  });
  EXPECT_EQ(res.failed, ht::Validation::root | ht::Validation::distances);
  EXPECT_EQ(first, "the root");
}

}  // namespace
