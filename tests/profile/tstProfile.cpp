// Tests of the imbalance profiler: the formulas on hand-made records, the
// imbalance of tasks with known durations (on an injected clock: no test here
// reads the wall clock), and incremental merges that lose no record whatever
// the thread count.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"

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

// The test's clock: each worker thread has its own time, which a task moves
// forward by its known duration.  Nothing depends on the machine's speed or
// load, and the times are exact.
thread_local double fake_seconds = 0;
double fake_clock() { return fake_seconds; }

// Works for a known time on the injected clock, starting at 0.
struct Work {
  using value_type = void;
  const ht::Profile* p;
  ht::TaskRecord* r;
  int iteration, lane, task;
  double seconds;
  void operator()(ht::TaskMember&) const {
    fake_seconds = 0;
    ht::TaskClock clock(*p, *r, iteration, lane, task);
    fake_seconds += seconds;
    clock.items(1);
    clock.stop();
  }
};

TEST(Profile, KnownDurationsGiveTheKnownImbalance) {
  // Two iterations run as real tasks on the scheduler: lanes of 50 + 30 / 20
  // (lane 0 runs two tasks; imbalance 0.75, waiting 60 of 160) and 40 / 40 / 40
  // (balanced).  A formula against the fastest ((s - f) / f = 3) or the mean
  // (0.6) gives other numbers.
  struct Task {
    int lane;
    double seconds;
  };
  const std::vector<std::vector<Task>> plan{{{0, 0.050}, {0, 0.030}, {1, 0.020}},
                                            {{0, 0.040}, {1, 0.040}, {2, 0.040}}};
  const std::vector<int> lanes{2, 3};
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Work>(8) + ht::profile_pool_bytes(8),
                     "Runtime/pool_MiB");
  ht::Profile p(true, fake_clock);
  std::vector<ht::TaskRecord> records(6);
  std::size_t k = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const int it = p.begin_iteration(0, static_cast<int>(i), lanes[i]);
    p.reserve(plan[i].size());
    for (std::size_t t = 0; t < plan[i].size(); ++t, ++k) {
      auto f = rt.spawn(
          Work{&p, &records[k], it, plan[i][t].lane, static_cast<int>(t), plan[i][t].seconds});
      ht::merge_when_done(rt, p, f, &records[k]);
    }
    rt.wait();
  }
  const auto its = p.iterations();
  ASSERT_EQ(its.size(), 2u);
  EXPECT_NEAR(its[0].slowest, 0.080, 1e-12);
  EXPECT_NEAR(its[0].fastest, 0.020, 1e-12);
  EXPECT_NEAR(its[0].imbalance(), 0.75, 1e-9);
  EXPECT_NEAR(its[0].waiting, 0.060, 1e-12);
  EXPECT_NEAR(its[1].imbalance(), 0.0, 1e-12);
  EXPECT_NEAR(its[1].waiting, 0.0, 1e-12);
  const ht::ProfileSummary s = p.summarize();
  EXPECT_NEAR(s.max_imbalance, 0.75, 1e-9);
  EXPECT_NEAR(s.mean_imbalance, (0.75 * 0.080) / (0.080 + 0.040), 1e-9);
  EXPECT_NEAR(s.waiting, 0.060 / (2 * 0.080 + 3 * 0.040), 1e-9);
  EXPECT_EQ(s.records, 6);
  for (const auto& r : p.records()) {
    EXPECT_NEAR(r.end - r.start, r.busy, 1e-12);
    EXPECT_EQ(r.items, 1);
  }
}

TEST(Profile, TimesAreOnTheInjectedClockFromTheProfilesOrigin) {
  fake_seconds = 100.0;  // the host thread's clock when the profile starts
  ht::Profile p(true, fake_clock);
  fake_seconds = 102.5;
  EXPECT_DOUBLE_EQ(p.now(), 2.5);
  ht::TaskRecord r;
  ht::TaskClock clock(p, r, 0, 0, 0);
  fake_seconds = 103.0;
  clock.stop();
  EXPECT_DOUBLE_EQ(r.start, 2.5);
  EXPECT_DOUBLE_EQ(r.end, 3.0);
  EXPECT_DOUBLE_EQ(r.busy, 0.5);
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
  // The one iteration's statistics come from those records.
  const auto its = p.iterations();
  ASSERT_EQ(its.size(), 1u);
  EXPECT_EQ(its[0].lanes, threads);
  EXPECT_GE(its[0].slowest, its[0].fastest);
  EXPECT_GE(its[0].waiting, 0.0);
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
