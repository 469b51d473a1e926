// Tests of ht::BlockOffsets against a plain counting sort (the oracle: one
// std::vector per slot): for generated blocks (dense, hypersparse, one hot
// slot, none), every slot's range has the oracle's length, entries placed
// through starts() and position() come out in the oracle's lists in their
// order, the non-empty bitmap marks exactly the slots with entries, and a
// hypersparse block costs bits a slot, not 8 bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "graph/HT_BlockOffsets.hpp"

namespace {

struct Block {
  std::int64_t slots;
  std::vector<std::int64_t> slot_of;  // entry -> slot
};

// Blocks of every shape the 2D partition makes, and edge cases.
std::vector<Block> blocks() {
  std::vector<Block> out;
  std::mt19937_64 rng(7);
  for (const std::int64_t slots : {1, 63, 64, 65, 1000, 200000}) {
    for (const std::int64_t entries :
         {std::int64_t(0), std::int64_t(1), slots / 2 + 1, 4 * slots}) {
      if (entries > 1000000) continue;
      Block b{slots, {}};
      std::uniform_int_distribution<std::int64_t> any(0, slots - 1);
      for (std::int64_t e = 0; e < entries; ++e) b.slot_of.push_back(any(rng));
      out.push_back(b);
    }
    Block hot{slots, std::vector<std::int64_t>(50, slots - 1)};  // one slot, the last
    out.push_back(hot);
  }
  Block hyper{1 << 22, {}};  // a 1 x P grid's row block: few rows of many
  std::uniform_int_distribution<std::int64_t> any(0, (1 << 22) - 1);
  for (int e = 0; e < 3000; ++e) hyper.slot_of.push_back(any(rng) & ~std::int64_t(0xff));
  out.push_back(hyper);
  return out;
}

TEST(BlockOffsets, AgreesWithACountingSortOnGeneratedBlocks) {
  for (const Block& b : blocks()) {
    SCOPED_TRACE(std::to_string(b.slots) + " slots, " + std::to_string(b.slot_of.size()) +
                 " entries");
    const auto entries = static_cast<std::int64_t>(b.slot_of.size());
    std::vector<std::vector<std::int64_t>> want(static_cast<std::size_t>(b.slots));
    for (std::int64_t e = 0; e < entries; ++e) want[b.slot_of[e]].push_back(e);

    const ht::BlockOffsets off =
        ht::BlockOffsets::build(b.slots, entries, [&](std::int64_t e) { return b.slot_of[e]; });
    ASSERT_EQ(off.slots(), b.slots);
    std::vector<std::int64_t> list(static_cast<std::size_t>(entries), -1);
    std::vector<std::int64_t> next = off.starts();
    ASSERT_EQ(static_cast<std::int64_t>(next.size()), off.nonempty_slots());
    for (std::int64_t e = 0; e < entries; ++e) list[next[off.position(b.slot_of[e])]++] = e;

    std::int64_t nonempty = 0;
    for (std::int64_t i = 0; i < b.slots; ++i) {
      const ht::BlockOffsets::Range r = off[i];
      ASSERT_EQ(off.nonempty().test(i), !want[i].empty()) << "slot " << i;
      ASSERT_GE(r.begin, 0);
      ASSERT_LE(r.end, entries);
      const std::vector<std::int64_t> got(list.begin() + r.begin, list.begin() + r.end);
      ASSERT_EQ(got, want[i]) << "slot " << i;
      if (!want[i].empty()) {
        const std::int64_t k = off.position(ht::Bitmap::word_of(i), ht::Bitmap::bit_of(i));
        EXPECT_EQ(k, off.position(i));
        EXPECT_EQ(k, nonempty) << "positions follow the slots' order";
        EXPECT_EQ(off.at(k).begin, r.begin);
        EXPECT_EQ(off.at(k).end, r.end);
        ++nonempty;
      }
    }
    EXPECT_EQ(off.nonempty_slots(), nonempty);
    // 1.5 bits a slot (rounded to words) and 8 bytes a non-empty slot, plus one.
    const auto words = static_cast<std::int64_t>((b.slots + 63) / 64);
    EXPECT_EQ(off.bytes(), words * 8 + words * 4 + (nonempty + 1) * 8);
  }
}

TEST(BlockOffsets, AHypersparseBlockCostsBitsASlot) {
  const std::int64_t slots = std::int64_t(1) << 22;
  const ht::BlockOffsets off =
      ht::BlockOffsets::build(slots, 1000, [](std::int64_t e) { return e * 4001; });
  EXPECT_EQ(off.nonempty_slots(), 1000);
  EXPECT_LT(off.bytes(), slots / 4);  // plain offsets: 8 bytes a slot
}

TEST(BlockOffsets, EmptyByDefault) {
  const ht::BlockOffsets off;
  EXPECT_EQ(off.slots(), 0);
  EXPECT_EQ(off.nonempty_slots(), 0);
  EXPECT_TRUE(off.starts().empty());
}

}  // namespace
