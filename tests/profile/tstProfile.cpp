// Tests of the imbalance profiler: the formulas on hand-made records, the
// imbalance of tasks with known durations, and incremental merges that lose
// no record whatever the thread count.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "profile/HT_Profile.hpp"

namespace {

ht::TaskRecord record(int iteration, int lane, double busy) {
  ht::TaskRecord r;
  r.iteration = iteration;
  r.lane = lane;
  r.task = lane;
  r.end = busy;
  r.busy = busy;
  return r;
}

TEST(Profile, FormulasOnKnownRecords) {
  ht::Profile p;
  const int first = p.begin_iteration(0, 0, 3);
  const int second = p.begin_iteration(0, 1, 2);
  p.reserve(5);
  p.merge(record(first, 0, 4.0));
  p.merge(record(first, 1, 1.5));
  p.merge(record(first, 1, 0.5));  // a lane's records add up
  p.merge(record(first, 2, 1.0));
  p.merge(record(second, 0, 10.0));
  // Lane 1 of the second iteration ran nothing: it waited all along.
  const auto its = p.iterations();
  ASSERT_EQ(its.size(), 2u);
  EXPECT_DOUBLE_EQ(its[0].slowest, 4.0);
  EXPECT_DOUBLE_EQ(its[0].fastest, 1.0);
  EXPECT_DOUBLE_EQ(its[0].imbalance(), 0.75);
  EXPECT_DOUBLE_EQ(its[0].waiting, 0.0 + 2.0 + 3.0);
  EXPECT_DOUBLE_EQ(its[1].imbalance(), 1.0);
  const ht::ProfileSummary s = p.summarize();
  EXPECT_DOUBLE_EQ(s.max_imbalance, 1.0);
  EXPECT_DOUBLE_EQ(s.mean_imbalance, (3.0 + 10.0) / (4.0 + 10.0));
  EXPECT_DOUBLE_EQ(s.waiting, (5.0 + 10.0) / (3 * 4.0 + 2 * 10.0));
  EXPECT_EQ(s.records, 5);
}

TEST(Profile, RecordOutsideAnIterationIsRefused) {
  ht::Profile p;
  p.begin_iteration(0, 0, 2);
  p.reserve(1);
  p.merge(record(0, 2, 1.0));  // lane 2 of 2
  EXPECT_THROW(p.iterations(), ht::Error);
}

TEST(Profile, DisabledRecordsNothing) {
  ht::Profile p(false);
  EXPECT_EQ(p.begin_iteration(0, 0, 2), -1);
  ht::TaskRecord r;
  ht::TaskClock clock(p, r, 0, 0, 0);
  clock.stop();
  EXPECT_EQ(r.iteration, -1);
  EXPECT_TRUE(p.records().empty());
}

// Sleeps for its duration: the busy time is known whatever the thread count.
struct Sleep {
  using value_type = void;
  const ht::Profile* p;
  ht::TaskRecord* r;
  int iteration, lane;
  int ms;
  void operator()(ht::TaskMember&) const {
    ht::TaskClock clock(*p, *r, iteration, lane, lane);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    clock.items(1);
    clock.stop();
  }
};

TEST(Profile, KnownDurationsGiveTheKnownImbalance) {
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Sleep>(8) + ht::profile_pool_bytes(8),
                     "Runtime/pool_MiB");
  ht::Profile p;
  // Two iterations: lanes of 80 / 20 ms (imbalance 0.75, waiting 60 of 160)
  // and 40 / 40 / 40 ms (balanced).
  const std::vector<std::vector<int>> plan{{80, 20}, {40, 40, 40}};
  std::vector<ht::TaskRecord> records(5);
  std::size_t k = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const int it = p.begin_iteration(0, static_cast<int>(i), static_cast<int>(plan[i].size()));
    p.reserve(plan[i].size());
    for (std::size_t lane = 0; lane < plan[i].size(); ++lane, ++k) {
      auto f = rt.spawn(Sleep{&p, &records[k], it, static_cast<int>(lane), plan[i][lane]});
      ht::merge_when_done(rt, p, f, &records[k]);
    }
    rt.wait();
  }
  const auto its = p.iterations();
  ASSERT_EQ(its.size(), 2u);
  // Sleeps overrun a little, never underrun: tolerances that a wrong formula
  // ((s - f) / f = 3, or against the mean = 0.6) cannot meet.
  EXPECT_NEAR(its[0].imbalance(), 0.75, 0.08);
  EXPECT_NEAR(its[0].waiting / (2 * its[0].slowest), 0.375, 0.05);
  EXPECT_LT(its[1].imbalance(), 0.15);
  const ht::ProfileSummary s = p.summarize();
  EXPECT_NEAR(s.mean_imbalance, 60.0 / 120.0, 0.08);
  EXPECT_NEAR(s.waiting, 60.0 / (160.0 + 120.0), 0.05);
  for (const auto& r : p.records()) EXPECT_GE(r.end - r.start, 0.019);
}

struct Mark {
  using value_type = void;
  const ht::Profile* p;
  ht::TaskRecord* r;
  int iteration, task;
  void operator()(ht::TaskMember&) const {
    ht::TaskClock clock(*p, *r, iteration, ht::TaskRuntime::worker(), task);
    clock.items(task);
    clock.stop();
  }
};

TEST(Profile, IncrementalMergesLoseNoRecord) {
  constexpr int n = 4000;
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Mark>(n) + ht::profile_pool_bytes(n),
                     "Runtime/pool_MiB");
  ht::Profile p;
  std::vector<ht::TaskRecord> records(n);
  const int threads = Kokkos::OpenMP().concurrency();
  const int it = p.begin_iteration(0, 0, threads);
  p.reserve(n);
  for (int t = 0; t < n; ++t) {
    auto f = rt.spawn(Mark{&p, &records[t], it, t});
    ht::merge_when_done(rt, p, f, &records[t]);
  }
  rt.wait();
  const auto got = p.records();
  ASSERT_EQ(got.size(), static_cast<std::size_t>(n));
  std::vector<int> seen(n, 0);
  for (const auto& r : got) {
    ASSERT_GE(r.task, 0);
    ASSERT_LT(r.task, n);
    ++seen[r.task];
    EXPECT_EQ(r.items, r.task);  // the record is the task's own, whole
    EXPECT_EQ(r.iteration, it);
    EXPECT_LT(r.lane, threads);
  }
  for (int t = 0; t < n; ++t) EXPECT_EQ(seen[t], 1) << "task " << t;
  EXPECT_NO_THROW(p.iterations());
}

TEST(Profile, OverRanks) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ht::OverRanks r = ht::over_ranks(rank + 1.0, MPI_COMM_WORLD);
  EXPECT_DOUBLE_EQ(r.min, 1.0);
  EXPECT_DOUBLE_EQ(r.max, size);
  EXPECT_DOUBLE_EQ(r.mean, (size + 1) / 2.0);
}

}  // namespace
