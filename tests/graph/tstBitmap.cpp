// Tests of ht::Bitmap: plain and atomic access agree, iteration is in
// increasing order and sees every set bit once, take_new() hands over each
// bit once, and allgather() gives every rank every block, on both of its
// paths (blocks of whole words, and not); a bitmap's words count as search
// state (HT_HeldBytes.hpp) while it holds them, unless its owner counts them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <set>
#include <utility>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/HT_Csr.hpp"

namespace {

TEST(Bitmap, SetTestCountAndIterate) {
  for (const std::int64_t n : {1, 63, 64, 65, 1000}) {
    ht::Bitmap b(n);
    EXPECT_EQ(b.size(), n);
    EXPECT_EQ(b.words(), static_cast<std::size_t>((n + 63) / 64));
    std::set<std::int64_t> want;
    for (std::int64_t i = 0; i < n; i += 3) want.insert(i);
    want.insert(n - 1);
    for (const auto i : want) EXPECT_TRUE(b.set_new(i) || i == n - 1) << i;
    EXPECT_FALSE(b.set_new(n - 1));
    EXPECT_EQ(b.count(), static_cast<std::int64_t>(want.size()));
    std::vector<std::int64_t> seen;
    b.for_each([&](std::int64_t i) { seen.push_back(i); });
    EXPECT_EQ(seen, std::vector<std::int64_t>(want.begin(), want.end()));
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(b.test(i), want.count(i) == 1) << i;
      EXPECT_EQ(b.test_atomic(i), b.test(i)) << i;
    }
    b.clear();
    EXPECT_EQ(b.count(), 0);
  }
}

TEST(Bitmap, ItsWordsCountAsSearchStateWhileHeld) {
  const auto now = [] { return ht::held_bytes(ht::Held::search).now; };
  const std::int64_t before = now();
  {
    ht::Bitmap a(1000);  // 16 words
    EXPECT_EQ(now() - before, 16 * 8);
    ht::Bitmap b = a;  // a copy holds its own
    EXPECT_EQ(now() - before, 2 * 16 * 8);
    ht::Bitmap c = std::move(b);  // a move hands the words over
    EXPECT_EQ(now() - before, 2 * 16 * 8);
    c.counted_by_owner();  // its owner counts it
    EXPECT_EQ(now() - before, 16 * 8);
    c.resize(64 * 100);
    EXPECT_EQ(now() - before, 16 * 8);
    a.resize(64 * 100);  // the capacity it holds
    EXPECT_EQ(now() - before, 100 * 8);
  }
  EXPECT_EQ(now(), before);
}

TEST(Bitmap, ClearBitsOfAWordStopAtTheSize) {
  ht::Bitmap b(70);  // words: 64 bits, then 6
  b.set(0);
  b.set(65);
  EXPECT_EQ(b.clear_atomic(0), ~ht::Bitmap::Word(1));
  EXPECT_EQ(b.clear_atomic(1), ht::Bitmap::Word(0x3f) & ~ht::Bitmap::Word(2));
  EXPECT_EQ(ht::Bitmap::count(b.clear_atomic(1)), 5);
  EXPECT_EQ(ht::Bitmap::first_of(1), 64);
}

TEST(Bitmap, ClaimIsWonOnceAcrossThreads) {
  const std::int64_t n = 100000;
  ht::Bitmap b(n);
  long won = 0;
  Kokkos::parallel_reduce(
      "claims", Kokkos::RangePolicy<Kokkos::OpenMP>(0, 4 * n),
      [&](std::int64_t k, long& sum) { sum += b.claim(k % n); }, won);
  EXPECT_EQ(won, n);
  EXPECT_EQ(b.count(), n);
}

TEST(Bitmap, TakeNewHandsOverEachBitOnce) {
  ht::Bitmap b(300), prev(300);
  std::vector<std::int64_t> got;
  const auto take = [&] {
    got.clear();
    b.take_new(prev, [&](std::size_t w, ht::Bitmap::Word bits) {
      ht::Bitmap::for_each_bit(bits, w, [&](std::int64_t i) { got.push_back(i); });
    });
  };
  b.set(5);
  b.set(64);
  b.set(299);
  take();
  EXPECT_EQ(got, (std::vector<std::int64_t>{5, 64, 299}));
  b.set(6);
  take();
  EXPECT_EQ(got, (std::vector<std::int64_t>{6}));
  take();
  EXPECT_TRUE(got.empty());
}

TEST(Bitmap, AllgatherGivesEveryRankEveryBlock) {
  // 640 vertices: blocks of whole words on 1, 2 and 4 ranks; 650: not.
  for (const std::int64_t n : {640, 650, 7}) {
    const ht::VertexRange r(n, MPI_COMM_WORLD);
    ht::Bitmap mine(r.local_count()), all(n);
    // Vertex v is set when v % 3 == 0 or v is a block's first or last.
    for (std::int64_t i = 0; i < r.local_count(); ++i) {
      const std::int64_t v = r.global(i);
      if (v % 3 == 0 || i == 0 || i == r.local_count() - 1) mine.set(i);
    }
    all.set(n - 1);  // stale bits must not survive
    ht::allgather(mine, r, all, MPI_COMM_WORLD);
    const auto check_all = [&] {
      for (std::int64_t v = 0; v < n; ++v) {
        const ht::VertexRange o = r.of_rank(r.owner(v));
        const std::int64_t i = v - o.first();
        const bool want = v % 3 == 0 || i == 0 || i == o.local_count() - 1;
        ASSERT_EQ(all.test(v), want) << "n " << n << ", vertex " << v;
      }
    };
    HT_ASSERT_ALL_NO_FATAL_FAILURE(check_all());
  }
}

}  // namespace
