// Tests of ht::Exchange, under both ways of ending a level (end markers,
// NBX): every item arrives once, at its owner, whatever the buffer size; its
// guards (a communicator of its own, nothing into a finished level, a
// handler that sends keeps its items); and
// its accounting, on a fake clock that moves only while
// arrivals are applied (one second per item), counts each second once:
// busy is exactly the seconds the handlers took, wait none (the fake clock
// stands still elsewhere), however the calls nest (finish() sends; a send
// that waits for room receives).  A second counted twice would show as busy
// above the handlers' seconds.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Outbox.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace {

double fake_now = 0;  // seconds on the fake clock
double fake_clock() { return fake_now; }

using End = ht::Exchange::Termination;

// (buffer items, items per peer, termination): full buffers, partial ones,
// and enough 1 MiB buffers in flight that senders must receive while they
// wait for room.
using Sizes = std::pair<std::size_t, std::int64_t>;
using Case = std::tuple<Sizes, End>;
class ExchangeAccounting : public ::testing::TestWithParam<Case> {};

TEST_P(ExchangeAccounting, EachSecondCountedOnceAndEveryItemArrives) {
  const auto [sizes, end] = GetParam();
  const auto [capacity, per_peer] = sizes;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // A communicator of its own: cases follow each other with no collective
  // between them (a BFS closes every level with one), and the same tags.
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  auto ex = std::make_unique<ht::Exchange>(comm, capacity, fake_clock, end);
  EXPECT_EQ(ex->termination(), end);
  std::vector<std::int64_t> from(size, 0);
  std::int64_t calls = 0;
  const ht::Exchange::Handler apply = [&](const ht::Exchange::Item* items, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_EQ(items[k].vertex % size, rank) << "an item reached a rank that does not own it";
      ++from.at(static_cast<std::size_t>(items[k].value));
    }
    ++calls;
    fake_now += 1.0;  // the only time that passes
  };
  for (int level = 0; level < 3; ++level) {
    std::fill(from.begin(), from.end(), 0);
    calls = 0;
    ex->begin_level(level);
    const double start = fake_now;
    for (std::int64_t i = 0; i < per_peer; ++i) {
      for (int p = 0; p < size; ++p)
        if (p != rank) ex->push(p, {p + size * i, rank}, apply);
      if (i % 1000 == 0) ex->poll(apply);
    }
    ex->end_level(apply);
    const ht::Exchange::Stats st = ex->stats();
    EXPECT_DOUBLE_EQ(st.busy, static_cast<double>(calls)) << "level " << level;
    EXPECT_DOUBLE_EQ(st.waiting, 0.0) << "level " << level;
    EXPECT_LE(st.busy + st.waiting, fake_now - start);
    for (int p = 0; p < size; ++p)
      EXPECT_EQ(from[p], p == rank ? 0 : per_peer)
          << "items from rank " << p << ", level " << level;
    const std::int64_t full = per_peer / static_cast<std::int64_t>(capacity);
    const std::int64_t partial = per_peer % static_cast<std::int64_t>(capacity) ? 1 : 0;
    EXPECT_EQ(st.messages, (size - 1) * (full + partial));
  }
  ex.reset();
  MPI_Comm_free(&comm);
}

// The nesting that once counted seconds twice: rank 0 fills every send slot
// to rank 1 (which is not receiving: it waits for a go), so the partial
// buffer that finish() sends must wait for room, receiving meanwhile, and so
// applies rank 1's one item inside finish()'s send.  Busy must still be the
// handler's one second.  (Were rank 1 to drain first, the case would pass
// without the nesting; it cannot pass with a second counted twice.)
class ExchangeAccountingNested : public ::testing::TestWithParam<End> {};

TEST_P(ExchangeAccountingNested, SendWaitingForRoomInsideFinish) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // lint: rank-uniform: the world's size
  if (size < 2) GTEST_SKIP() << "needs two ranks";
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const std::size_t capacity = std::size_t(1) << 16;  // 1 MiB messages: rendezvous
  auto ex = std::make_unique<ht::Exchange>(comm, capacity, fake_clock, GetParam());
  std::int64_t arrived = 0, calls = 0;
  const ht::Exchange::Handler apply = [&](const ht::Exchange::Item*, std::size_t n) {
    arrived += static_cast<std::int64_t>(n);
    ++calls;
    fake_now += 1.0;
  };
  MPI_Comm go;  // rank 0 tells rank 1 to start draining
  MPI_Comm_dup(comm, &go);
  ex->begin_level(0);
  // Exchange's sends in flight before it waits (4P + 4, or 16 of these 1 MiB ones).
  const auto slots = static_cast<std::int64_t>(ex->max_in_flight());
  EXPECT_EQ(slots, std::min<std::int64_t>(4 * size + 4, ht::Exchange::kBudgetBytes >> 20));
  if (rank == 0) {
    for (std::int64_t i = 0; i < slots * static_cast<std::int64_t>(capacity) + 1; ++i)
      ex->push(1, {1, 0}, apply);
    MPI_Send(nullptr, 0, MPI_BYTE, 1, 0, go);
  } else if (rank == 1) {
    ex->post(0, {ht::Exchange::Item{0, 1}});
    ex->poll(apply);  // sends it now: rank 0 has it before it fills its slots
    MPI_Recv(nullptr, 0, MPI_BYTE, 0, 0, go, MPI_STATUS_IGNORE);
  }
  ex->end_level(apply);
  const ht::Exchange::Stats st = ex->stats();
  EXPECT_DOUBLE_EQ(st.busy, static_cast<double>(calls));
  EXPECT_DOUBLE_EQ(st.waiting, 0.0);
  if (rank == 0) {
    EXPECT_EQ(arrived, 1);
  } else if (rank == 1) {
    EXPECT_EQ(arrived, slots * static_cast<std::int64_t>(capacity) + 1);
  }
  ex.reset();
  MPI_Comm_free(&go);
  MPI_Comm_free(&comm);
}

INSTANTIATE_TEST_SUITE_P(
    Buffers, ExchangeAccounting,
    ::testing::Combine(::testing::Values(Sizes{1, 50}, Sizes{7, 100}, Sizes{4096, 10000},
                                         Sizes{std::size_t(1) << 16,
                                               (std::int64_t(1) << 16) * 20 + 3}),
                       ::testing::Values(End::markers, End::nbx)));
INSTANTIATE_TEST_SUITE_P(Ends, ExchangeAccountingNested, ::testing::Values(End::markers, End::nbx));

// end_level_min(): every rank learns the least of the ranks' values with the
// level's end, level after level, whoever holds it, with data items flowing
// (an end marker that carries a value is not taken for data), and a plain
// end_level() between them agrees on nothing.
class ExchangeLeast : public ::testing::TestWithParam<End> {};

TEST_P(ExchangeLeast, EveryRankLearnsTheLeastValue) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Exchange ex(MPI_COMM_WORLD, 3, ht::steady_seconds, GetParam());
  std::int64_t got = 0;
  const ht::Exchange::Handler apply = [&](const ht::Exchange::Item* items, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_EQ(items[k].vertex, rank);
      got += items[k].value;
    }
  };
  for (int level = 0; level < 6; ++level) {
    ex.begin_level(level);
    for (int p = 0; p < size; ++p) {
      if (p != rank)
        for (int i = 0; i < 5; ++i) ex.push(p, {p, 1}, apply);
    }
    if (level == 3) {
      ex.end_level(apply);
      continue;
    }
    const int holder = level % size;  // the rank with the least value
    const std::int64_t value = rank == holder ? -7 - level : 1000 + rank;
    EXPECT_EQ(ex.end_level_min(apply, value), -7 - level) << "level " << level;
  }
  EXPECT_EQ(got, 6 * 5 * std::int64_t(size - 1));  // 6 levels, 5 items from each peer
}

INSTANTIATE_TEST_SUITE_P(Ends, ExchangeLeast, ::testing::Values(End::markers, End::nbx));

// What an exchange holds follows the peers a rank addresses, not the ranks:
// none at construction, one buffer while items for one peer wait, and
// within the byte budget after a level of many full buffers; everything
// still arrives, and ht::Held::exchange is charged the same bytes.
class ExchangeHeld : public ::testing::TestWithParam<End> {};

TEST_P(ExchangeHeld, OnePeerAddressedHoldsOneBuffer) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  constexpr std::size_t kCapacity = 64;
  constexpr auto kBuffer = static_cast<std::int64_t>(kCapacity * sizeof(ht::Exchange::Item));
  const std::int64_t before = ht::held_bytes(ht::Held::exchange).now;
  {
    ht::Exchange ex(MPI_COMM_WORLD, kCapacity, ht::steady_seconds, GetParam());
    EXPECT_EQ(ex.held_bytes(), 0) << "no buffer before the first push";
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    std::int64_t got = 0;
    const ht::Exchange::Handler apply = [&](const ht::Exchange::Item* items, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k) got += items[k].vertex == rank && items[k].value == prev;
    };
    constexpr std::int64_t kItems = 20 * kCapacity + 5;
    for (int level = 0; level < 2; ++level) {
      ex.begin_level(level);
      if (size > 1) {
        ex.push(next, {next, rank}, apply);
        if (level == 0) {
          EXPECT_EQ(ex.held_bytes(), kBuffer) << "one peer addressed: one buffer";
        }
        for (std::int64_t i = 1; i < kItems; ++i) ex.push(next, {next, rank}, apply);
      }
      ex.end_level(apply);
      EXPECT_LE(ex.held_bytes(), ht::Exchange::kBudgetBytes + kBuffer);
      EXPECT_EQ(ht::held_bytes(ht::Held::exchange).now - before, ex.held_bytes());
    }
    EXPECT_EQ(got, size > 1 ? 2 * kItems : 0);
  }
  EXPECT_EQ(ht::held_bytes(ht::Held::exchange).now, before) << "released with the exchange";
}

INSTANTIATE_TEST_SUITE_P(Ends, ExchangeHeld, ::testing::Values(End::markers, End::nbx));

// A worker's Outbox holds buffers for the peers it touched only, and its
// flush forgets them (O(peers touched)); what it sent arrives.
TEST(Outbox, HoldsAndFlushesOnlyThePeersTouched) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // lint: rank-uniform: the world's size
  if (size < 2) GTEST_SKIP() << "needs two ranks";
  constexpr std::size_t kCapacity = 16;
  ht::Exchange ex(MPI_COMM_WORLD, kCapacity);
  ht::Outbox out;
  out.attach(ex);
  std::int64_t got = 0;
  const ht::Exchange::Handler apply = [&](const ht::Exchange::Item* items, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) got += items[k].vertex == rank;
  };
  const int next = (rank + 1) % size;
  for (int level = 0; level < 2; ++level) {
    ex.begin_level(level);
    EXPECT_EQ(out.peers_touched(), 0u);
    for (std::int64_t i = 0; i < 3 * static_cast<std::int64_t>(kCapacity) + 1; ++i) {
      out.send(next, {next, rank});
      out.pump_now_and_then(1, apply);
    }
    EXPECT_EQ(out.peers_touched(), 1u);
    EXPECT_EQ(out.held_bytes(), static_cast<std::int64_t>(kCapacity * sizeof(ht::Exchange::Item)));
    out.flush();
    EXPECT_EQ(out.peers_touched(), 0u);
    EXPECT_EQ(out.held_bytes(), 0);
    ex.end_level(apply);
  }
  EXPECT_EQ(got, 2 * (3 * static_cast<std::int64_t>(kCapacity) + 1));
}

// Searches back to back with no collective between them, each starting again
// at level 0 (SSSP agrees only in its levels' ends): a rank that has begun
// the next search's level must not have its items or its end taken for the
// level a slower peer is still ending.  Every item carries its round; a
// round's items all arrive in that round, and no round hangs (the
// watchdog would end the test).
class ExchangeBackToBack : public ::testing::TestWithParam<End> {};

TEST_P(ExchangeBackToBack, ANextSearchsLevelIsNotTakenForThisOne) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Exchange ex(MPI_COMM_WORLD, 4, ht::steady_seconds, GetParam());
  constexpr int kRounds = 200;
  for (int round = 0; round < kRounds; ++round) {
    std::int64_t got = 0;
    const ht::Exchange::Handler apply = [&](const ht::Exchange::Item* items, std::size_t n) {
      for (std::size_t k = 0; k < n; ++k) {
        EXPECT_EQ(items[k].value, round) << "an item of another round";
        ++got;
      }
    };
    const int levels = 1 + round % 3;  // the last level's parity varies
    for (int level = 0; level < levels; ++level) {
      ex.begin_level(level);
      for (int p = 0; p < size; ++p)
        if (p != rank) ex.push(p, {p, round}, apply);
      // One rank lags by turns, so that the others run ahead into the next round.
      if (rank == round % size) ht::idle_sleep();
      const std::int64_t least = ex.end_level_min(apply, round * 10 + rank);
      EXPECT_EQ(least, round * 10) << "round " << round;
    }
    EXPECT_EQ(got, std::int64_t(levels) * (size - 1)) << "round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Ends, ExchangeBackToBack, ::testing::Values(End::markers, End::nbx));

// By ranks: markers while the ranks are few, NBX beyond kMarkerRanks; a
// choice made is kept.  (HT_EXCHANGE_END: the app tests.)
TEST(ExchangeTermination, ResolvedByRanks) {
  const int k = ht::Exchange::kMarkerRanks;
  EXPECT_EQ(ht::Exchange::resolve(End::by_ranks, 1), End::markers);
  EXPECT_EQ(ht::Exchange::resolve(End::by_ranks, k), End::markers);
  EXPECT_EQ(ht::Exchange::resolve(End::by_ranks, k + 1), End::nbx);
  EXPECT_EQ(ht::Exchange::resolve(End::markers, 4 * k), End::markers);
  EXPECT_EQ(ht::Exchange::resolve(End::nbx, 2), End::nbx);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Exchange ex(MPI_COMM_WORLD, 16, ht::steady_seconds, End::by_ranks);
  EXPECT_EQ(ex.termination(), ht::Exchange::resolve(End::by_ranks, size));
}

}  // namespace

namespace {

// Each exchange has a communicator of its own: two on the same one, in the
// same level, items sent at once (1-item buffers), the second ended first:
// neither sees the other's items (with a shared communicator and tag the
// second would take the first's).
TEST(ExchangeGuards, EachHasItsOwnCommunicator) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Exchange one(MPI_COMM_WORLD, 1), two(MPI_COMM_WORLD, 1);
  std::int64_t got_one = 0, got_two = 0;
  const ht::Exchange::Handler on_one = [&](const ht::Exchange::Item* it, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(it[k].value, 1) << "exchange two's item in one";
    got_one += static_cast<std::int64_t>(n);
  };
  const ht::Exchange::Handler on_two = [&](const ht::Exchange::Item* it, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(it[k].value, 2) << "exchange one's item in two";
    got_two += static_cast<std::int64_t>(n);
  };
  one.begin_level(0);
  two.begin_level(0);
  for (int p = 0; p < size; ++p) {
    if (p == rank) continue;
    for (int i = 0; i < 5; ++i) one.push(p, {p, 1}, on_one);
    for (int i = 0; i < 3; ++i) two.push(p, {p, 2}, on_two);
  }
  two.end_level(on_two);
  one.end_level(on_one);
  EXPECT_EQ(got_one, 5 * (size - 1));
  EXPECT_EQ(got_two, 3 * (size - 1));
  int same = 0;
  MPI_Comm_compare(one.comm(), two.comm(), &same);
  EXPECT_NE(same, MPI_IDENT);
}

// Nothing enters a level after its finish(): push() and post() are refused
// (their items could arrive a level late), and so is drained() before
// finish() (this rank's buffered items would never leave).
TEST(ExchangeGuards, RefusesItemsAfterFinishAndDrainingBeforeIt) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::Exchange ex(MPI_COMM_WORLD, 8);
  const ht::Exchange::Handler apply = [](const ht::Exchange::Item*, std::size_t) {};
  const int peer = (rank + 1) % size;
  ex.begin_level(0);
  EXPECT_THROW(ex.drained(apply), ht::Error);
  ex.finish(apply);
  if (size > 1) {
    EXPECT_THROW(ex.push(peer, {peer, 0}, apply), ht::Error);
    EXPECT_THROW(ex.post(peer, {ht::Exchange::Item{peer, 0}}), ht::Error);
  }
  while (!ex.drained(apply)) ht::idle_sleep();
  ex.begin_level(1);  // a new level takes items again
  if (size > 1) ex.push(peer, {peer, 0}, apply);
  ex.end_level(apply);
}

// A handler that sends: its push waits for room (1 MiB messages that rank 1
// does not take yet) and so receives meanwhile.  Rank 1's second message
// can only be matched then (rank 1 drains only once its synchronous send
// completed), inside the first's handler: it must wait until that handler
// returns, not be written over the items the handler still reads.
TEST(ExchangeGuards, AHandlerThatSendsKeepsItsItems) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // lint: rank-uniform: the world's size
  if (size < 2) GTEST_SKIP() << "needs two ranks";
  const std::size_t capacity = std::size_t(1) << 16;  // rendezvous-sized messages
  ht::Exchange ex(MPI_COMM_WORLD, capacity);
  const std::int64_t flood = (4 * size + 4) * static_cast<std::int64_t>(capacity) + 1;
  bool inside = false;
  std::vector<std::int64_t> order;
  ht::Exchange::Handler apply;
  apply = [&](const ht::Exchange::Item* items, std::size_t n) {
    EXPECT_FALSE(inside) << "a handler entered inside another";
    inside = true;
    const std::vector<ht::Exchange::Item> before(items, items + n);
    if (rank == 0 && order.empty()) {
      for (std::int64_t i = 0; i < flood; ++i) ex.push(1, {1, 9}, apply);
    }
    for (std::size_t k = 0; k < n; ++k)
      EXPECT_EQ(items[k].value, before[k].value) << "item " << k << " changed under its handler";
    if (rank == 0) order.push_back(items[0].value);
    inside = false;
  };
  ex.begin_level(0);
  if (rank == 1) {
    std::vector<ht::Exchange::Item> a(8, {0, 1}), b(8, {0, 2});
    MPI_Request r[2];
    const int tag = ex.tag();
    MPI_Isend(a.data(), 8 * sizeof(a[0]), MPI_BYTE, 0, tag, ex.comm(), &r[0]);
    MPI_Issend(b.data(), 8 * sizeof(b[0]), MPI_BYTE, 0, tag, ex.comm(), &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);  // b matched: rank 0 is inside a's handler
  } else if (rank == 0) {
    while (order.empty()) ex.poll(apply);
  }
  ex.end_level(apply);
  if (rank == 0) {
    EXPECT_EQ(order, (std::vector<std::int64_t>{1, 2}));
  }
}

}  // namespace
