// Tests of ht::WorkStealing with work that is not UTS: an item (d) stands
// for a complete binary tree of depth d (2^(d+1) - 1 items in all), expanded
// by plain threads, not tasks, so the layer is shown usable by any driver.
// Invariants checked, on np = 1, 2, 4, both progress designs, every victim
// and amount:
//  - no work lost or done twice: the items processed over all ranks equal
//    the tree's, exactly, however much was stolen;
//  - termination: every rank's workers see done() and finish() returns;
//  - work moves: when all of it starts on rank 0, every other rank steals
//    some (the tree is large, and a thief asks again at once);
//  - with stealing off, work stays where it started.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <thread>
#include <vector>

#include "comm/HT_Wait.hpp"
#include "comm/HT_WorkStealing.hpp"
#include "runtime/HT_Error.hpp"

namespace {

struct Item {
  std::int32_t depth;
};

// Some work per item (~1 us: 1000 dependent multiply-adds), so that rank 0 alone would take long
// enough for thieves to find it busy even on a loaded machine.
std::uint64_t work(std::int32_t d) {
  std::uint64_t x = static_cast<std::uint64_t>(d) + 1;
  for (int k = 0; k < 1000; ++k) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

std::atomic<std::uint64_t> g_sink{0};  // keeps work() from being optimized away

struct Outcome {
  long long processed = 0;
  ht::StealStats stats;
};

// Every worker: take, expand depth-first, share when wanted, poll.
Outcome run(const ht::StealOptions& opt, int workers, int depth, bool all_on_rank0) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ht::StealPool<Item> pool(MPI_COMM_WORLD, workers, opt);
  if (!all_on_rank0 || rank == 0) {
    // Spread: one tree per rank; else the whole tree on rank 0.
    const Item root{depth};
    pool.seed(&root, 1);
  }
  std::atomic<long long> processed{0};
  pool.start();
  auto worker = [&] {
    std::vector<Item> stack, buf(8);
    ht::Backoff backoff;
    long long mine = 0;
    std::uint64_t sink = 0;
    for (;;) {
      const std::size_t n = pool.acquire(buf.data(), buf.size());
      if (n == 0) {
        pool.poll();
        if (pool.done()) break;
        backoff.pause();
        continue;
      }
      backoff = ht::Backoff();
      stack.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
      for (long long k = 1; !stack.empty(); ++k) {
        const Item it = stack.back();
        stack.pop_back();
        ++mine;
        sink += work(it.depth);
        if (it.depth > 0) {
          stack.push_back({it.depth - 1});
          stack.push_back({it.depth - 1});
        }
        if (k % 16 == 0) {
          pool.poll();
          if (pool.wanted() && stack.size() >= 2) {
            const std::size_t half = stack.size() / 2;
            pool.release(stack.data(), half);
            stack.erase(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(half));
          }
        }
      }
      pool.idle();
    }
    processed += mine;
    g_sink += sink;
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  pool.finish();
  return {processed.load(), pool.stats()};
}

long long total(long long x) {
  long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

struct Case {
  ht::StealProgress progress;
  ht::StealVictim victim;
  ht::StealAmount amount;
  std::size_t chunk;
  int workers;
};

class WorkStealingCase : public ::testing::TestWithParam<Case> {};

TEST_P(WorkStealingCase, AllWorkDoneOnceAndEveryRankStealsFromRank0) {
  const Case c = GetParam();
  ht::StealOptions opt;
  opt.progress = c.progress;
  opt.victim = c.victim;
  opt.amount = c.amount;
  opt.chunk = c.chunk;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int depth = 17;  // 262143 items, about 0.3 s of work on one core
  const Outcome o = run(opt, c.workers, depth, true);
  EXPECT_EQ(total(o.processed), (1LL << (depth + 1)) - 1);
  // What was given was received: no work lost in flight.
  EXPECT_EQ(total(o.stats.items_sent), total(o.stats.items_received));
  EXPECT_EQ(total(o.stats.served), total(o.stats.steals));
  if (size > 1 && rank > 0) {
    EXPECT_GT(o.stats.steals, 0) << "rank " << rank << " never got work";
    EXPECT_GT(o.processed, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Designs, WorkStealingCase,
    ::testing::Values(
        Case{ht::StealProgress::polling, ht::StealVictim::round_robin, ht::StealAmount::half, 20,
             1},
        Case{ht::StealProgress::thread, ht::StealVictim::round_robin, ht::StealAmount::half, 20, 1},
        Case{ht::StealProgress::polling, ht::StealVictim::random, ht::StealAmount::chunk, 20, 2},
        Case{ht::StealProgress::thread, ht::StealVictim::random, ht::StealAmount::chunk, 1, 2},
        // Many small steals: one item per reply.
        Case{ht::StealProgress::polling, ht::StealVictim::round_robin, ht::StealAmount::chunk, 1,
             1}));

TEST(WorkStealing, OffKeepsWorkWhereItStarted) {
  ht::StealOptions opt;
  opt.enabled = false;
  const int depth = 12;
  const Outcome o = run(opt, 1, depth, false);
  EXPECT_EQ(o.processed, (1LL << (depth + 1)) - 1);  // this rank's own tree, alone
  EXPECT_EQ(o.stats.requests, 0);
  EXPECT_EQ(o.stats.items_received, 0);
}

TEST(WorkStealing, TerminatesWithNoWorkAnywhere) {
  for (auto p : {ht::StealProgress::polling, ht::StealProgress::thread}) {
    ht::StealOptions opt;
    opt.progress = p;
    ht::StealPool<Item> pool(MPI_COMM_WORLD, 1, opt);
    pool.start();
    while (!pool.done()) {
      pool.poll();
      ht::idle_sleep();
    }
    pool.finish();
    SUCCEED();
  }
}

TEST(WorkStealing, NamesRoundTrip) {
  for (auto v : {ht::StealVictim::round_robin, ht::StealVictim::random})
    EXPECT_EQ(ht::victim_named(ht::victim_name(v)), v);
  for (auto a : {ht::StealAmount::half, ht::StealAmount::chunk})
    EXPECT_EQ(ht::amount_named(ht::amount_name(a)), a);
  for (auto p : {ht::StealProgress::polling, ht::StealProgress::thread})
    EXPECT_EQ(ht::progress_named(ht::progress_name(p)), p);
  EXPECT_THROW(ht::victim_named("nearest"), ht::UsageError);
}

}  // namespace
