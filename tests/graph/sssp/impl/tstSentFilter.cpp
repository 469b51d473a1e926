// Tests of ht::impl::SentFilter, exact and lossy, against a model that
// remembers every bucket admitted:
//  - it holds a send back only when an earlier bucket went to that vertex,
//    also under racing threads (then the earlier one was admitted by some
//    thread); exact, it holds back every such send;
//  - lossy, in the bytes it was given, vertices displacing each other;
//  - reset() forgets the last search.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "graph/sssp/impl/HT_SentFilter.hpp"

namespace {

using ht::impl::SentFilter;

TEST(SentFilter, ExactHoldsBackExactlyTheLaterBuckets) {
  SentFilter f;
  f.reset(1000, 1 << 20);
  ASSERT_TRUE(f.exact());
  EXPECT_EQ(f.bytes(), 2000u);
  EXPECT_TRUE(f.admit(7, 5));
  EXPECT_FALSE(f.admit(7, 6));  // bucket 5 went first
  EXPECT_TRUE(f.admit(7, 5));   // the same bucket may still win
  EXPECT_TRUE(f.admit(7, 3));
  EXPECT_FALSE(f.admit(7, 4));
  EXPECT_TRUE(f.admit(8, 9));        // another vertex: its own record
  EXPECT_TRUE(f.admit(999, 70000));  // saturated, never held back wrongly
  EXPECT_TRUE(f.admit(999, 80000));
  f.reset(1000, 1 << 20);
  EXPECT_TRUE(f.admit(7, 6));  // a new search
}

TEST(SentFilter, LossyFitsItsBytesAndNeverHoldsBackWrongly) {
  SentFilter f;
  f.reset(std::int64_t(1) << 20, 100);  // 2 MiB exact: too many
  ASSERT_FALSE(f.exact());
  EXPECT_LE(f.bytes(), 100u);
  EXPECT_GE(f.bytes(), 8u);
  std::mt19937_64 rng(5);
  std::map<std::int64_t, std::int64_t> earliest;  // the model
  std::int64_t held = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<std::int64_t>(rng() % 40);  // 40 vertices, <= 8 slots
    const auto b = static_cast<std::int64_t>(rng() % 50);
    const auto e = earliest.find(v);
    if (f.admit(v, b)) {
      if (e == earliest.end() || b < e->second) earliest[v] = b;
    } else {
      ++held;
      ASSERT_NE(e, earliest.end()) << "vertex " << v << " held back, nothing sent";
      ASSERT_LT(e->second, b) << "vertex " << v << " held back at bucket " << b;
    }
  }
  EXPECT_GT(held, 0) << "a filter that never filters";
}

TEST(SentFilter, RacingThreadsHoldBackOnlyAfterAnEarlierAdmission) {
  for (const std::size_t budget : {std::size_t(1) << 20, std::size_t(256)}) {
    SentFilter f;
    f.reset(4096, budget);
    struct Call {
      std::int64_t v, b;
      bool admitted;
    };
    std::vector<std::vector<Call>> calls(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < calls.size(); ++t) {
      threads.emplace_back([&f, &calls, t] {
        std::mt19937_64 rng(t + 1);
        for (int i = 0; i < 50000; ++i) {
          const auto v = static_cast<std::int64_t>(rng() % 64);
          const auto b = static_cast<std::int64_t>(rng() % 100);
          calls[t].push_back({v, b, f.admit(v, b)});
        }
      });
    }
    for (auto& th : threads) th.join();
    std::map<std::int64_t, std::int64_t> least;  // the least bucket admitted, any thread
    for (const auto& c : calls)
      for (const Call& k : c)
        if (k.admitted && (!least.count(k.v) || k.b < least[k.v])) least[k.v] = k.b;
    for (const auto& c : calls)
      for (const Call& k : c)
        if (!k.admitted) {
          ASSERT_TRUE(least.count(k.v)) << "budget " << budget << ", vertex " << k.v;
          ASSERT_LT(least[k.v], k.b) << "budget " << budget << ", vertex " << k.v;
        }
  }
}

}  // namespace
