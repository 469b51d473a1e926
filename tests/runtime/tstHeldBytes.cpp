#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "runtime/HT_HeldBytes.hpp"

namespace {

TEST(HeldBytes, ChargesFollowTheOwnerAndKeepTheHighWaterMark) {
  const ht::HeldBytes before = ht::held_bytes(ht::Held::search);
  {
    ht::HeldCharge a(ht::Held::search);
    a.set(1000);
    a.set(400);
    ht::HeldCharge b(std::move(a));
    EXPECT_EQ(a.bytes(), 0);
    EXPECT_EQ(b.bytes(), 400);
    EXPECT_EQ(ht::held_bytes(ht::Held::search).now, before.now + 400);
    EXPECT_GE(ht::held_bytes(ht::Held::search).high, before.now + 1000);
    EXPECT_EQ(ht::held_bytes(ht::Held::graph).now, 0) << "one kind never charges another";
  }
  EXPECT_EQ(ht::held_bytes(ht::Held::search).now, before.now);
  ht::held_reset_high();
  EXPECT_EQ(ht::held_bytes(ht::Held::search).high, before.now);
}

TEST(HeldBytes, ConcurrentChargesSumExactly) {
  ht::held_reset_high();
  const std::int64_t start = ht::held_bytes(ht::Held::exchange).now;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 10000; ++i) {
        ht::held_add(ht::Held::exchange, 16);
        ht::held_add(ht::Held::exchange, -16);
      }
      ht::held_add(ht::Held::exchange, 8);
    });
  for (auto& t : threads) t.join();
  const ht::HeldBytes b = ht::held_bytes(ht::Held::exchange);
  EXPECT_EQ(b.now, start + 32);
  EXPECT_GE(b.high, b.now);
  EXPECT_LE(b.high, start + 4 * 16 + 32);
  ht::held_add(ht::Held::exchange, -32);
}

TEST(HeldBytes, NamesAreTheResultsFilesNames) {
  EXPECT_STREQ(ht::held_name(ht::Held::graph), "graph");
  EXPECT_STREQ(ht::held_name(ht::Held::exchange), "exchange");
  EXPECT_STREQ(ht::held_name(ht::Held::search), "search");
}

}  // namespace
