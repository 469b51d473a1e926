// Tests of ht::TaskRuntime, whichever task system is behind it (both run
// this file; .ci/run builds both): results through futures, when_all, respawn
// chains, spawns from inside tasks, a polling task behind many tasks, futures
// waited on across waits, and pool exhaustion (where there is a pool).
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

struct Square {
  using value_type = long;
  long x;
  void operator()(ht::TaskMember&, long& r) const { r = x * x; }
};

TEST(TaskRuntime, ResultsComeBackThroughFutures) {
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Square>(100), "Runtime/pool_MiB");
  std::vector<ht::Future<long>> f;
  for (long i = 0; i < 100; ++i) f.push_back(rt.spawn(Square{i}));
  rt.wait();
  for (long i = 0; i < 100; ++i) {
    ASSERT_TRUE(f[i].is_ready());
    EXPECT_EQ(f[i].get(), i * i);
  }
}

struct Count {
  using value_type = void;
  std::atomic<int>* n;
  void operator()(ht::TaskMember&) const { n->fetch_add(1); }
};

// Runs after a when_all: sees every predecessor's effect.
struct Check {
  using value_type = int;
  std::atomic<int>* n;
  void operator()(ht::TaskMember&, int& r) const { r = n->load(); }
};

TEST(TaskRuntime, WhenAllOrdersADependentTask) {
  std::atomic<int> n{0};
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Count>(64), "Runtime/pool_MiB");
  std::vector<ht::Future<void>> f;
  for (int i = 0; i < 50; ++i) f.push_back(rt.spawn(Count{&n}));
  auto all = rt.when_all(f);
  auto after = rt.spawn_after(all, Check{&n});
  rt.wait();
  EXPECT_TRUE(all.is_ready());
  EXPECT_EQ(after.get(), 50);
}

TEST(TaskRuntime, WhenAllBeyondOneBlockBuildsATree) {
  // More futures than one when_all node holds (max_block / 8 ~ 2000).
  std::atomic<int> n{0};
  const int tasks = 5000;
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Count>(tasks), "Runtime/pool_MiB");
  std::vector<ht::Future<void>> f;
  for (int i = 0; i < tasks; ++i) f.push_back(rt.spawn(Count{&n}));
  auto all = rt.when_all(f);
  auto after = rt.spawn_after(all, Check{&n});
  rt.wait();
  EXPECT_EQ(after.get(), tasks);
}

// Counts down by respawning itself; the value is the number of runs.
struct Countdown {
  using value_type = int;
  int left, runs = 0;
  void operator()(ht::TaskMember& m, int& r) {
    ++runs;
    if (--left > 0) {
      ht::respawn(this, m, ht::TaskPriority::low);
      return;
    }
    r = runs;
  }
};

TEST(TaskRuntime, RespawnChainsRunToTheEnd) {
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Countdown>(8), "Runtime/pool_MiB");
  std::vector<ht::Future<int>> f;
  for (int i = 1; i <= 8; ++i) f.push_back(rt.spawn(Countdown{i * 10}));
  rt.wait();
  for (int i = 1; i <= 8; ++i) EXPECT_EQ(f[i - 1].get(), i * 10);
}

// Sums 1..n by a binary tree of tasks spawned from inside tasks; each parent
// respawns once, after its children's when_all.
struct TreeSum {
  using value_type = long;
  ht::TaskRuntime* rt;
  long lo, hi;
  ht::Future<long> left, right;
  void operator()(ht::TaskMember& m, long& r) {
    if (hi - lo <= 4) {
      r = 0;
      for (long i = lo; i < hi; ++i) r += i;
      return;
    }
    if (left.is_null()) {
      const long mid = (lo + hi) / 2;
      left = rt->spawn(m, TreeSum{rt, lo, mid, {}, {}});
      right = rt->spawn(m, TreeSum{rt, mid, hi, {}, {}});
      std::vector<ht::Future<long>> both{left, right};
      ht::respawn_after(this, rt->when_all(m, both));
      return;
    }
    r = left.get() + right.get();
    left = right = ht::Future<long>();  // release the children
  }
};

TEST(TaskRuntime, TasksSpawnTasksAndJoinThem) {
  ht::TaskRuntime rt(4 << 20, "Runtime/pool_MiB");
  auto f = rt.spawn(TreeSum{&rt, 0, 1000, {}, {}});
  rt.wait();
  EXPECT_EQ(f.get(), 999L * 1000 / 2);
}

TEST(TaskRuntime, ExhaustedPoolIsAnErrorNamingSizeAndKey) {
  if (!ht::TaskRuntime::has_pool) GTEST_SKIP() << ht::TaskRuntime::name() << " has no fixed pool";
  ht::TaskRuntime rt(64 << 10, "Runtime/pool_MiB");  // one superblock
  std::vector<ht::Future<long>> f;
  try {
    for (int i = 0; i < 100000; ++i) f.push_back(rt.spawn(Square{i}));
    FAIL() << "100000 tasks fitted in a 64 KiB pool";
  } catch (const ht::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("task pool exhausted"), std::string::npos) << what;
    EXPECT_NE(what.find("65536 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("Runtime/pool_MiB"), std::string::npos) << what;
  }
  EXPECT_GT(f.size(), 10u);  // the pool did hold some
  rt.wait();                 // those spawned still run
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i].get(), long(i) * long(i));
}

// Spawns `n` Count tasks from inside itself.
struct Spawner {
  using value_type = void;
  ht::TaskRuntime* rt;
  std::atomic<int>* done;
  int n;
  void operator()(ht::TaskMember& m) const {
    for (int i = 0; i < n; ++i) rt->spawn(m, Count{done});
  }
};
// Polls until `n` tasks are done, giving its worker back between polls.
struct Poller {
  using value_type = int;
  std::atomic<int>* done;
  int n, polls = 0;
  void operator()(ht::TaskMember& m, int& r) {
    r = ++polls;
    if (done->load() < n) ht::respawn(this, m, ht::TaskPriority::low);
  }
};

// A polling task behind far more queued tasks than workers (libgomp runs a
// new task at once when more than 64 x threads are pending: a respawn there
// would recurse forever on one thread), and it must still let them run.
TEST(TaskRuntime, APollerBehindManyTasksLetsThemRun) {
  std::atomic<int> done{0};
  const int n = 20000;
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Count>(n + 2), "Runtime/pool_MiB");
  rt.spawn(Spawner{&rt, &done, n});
  auto polled = rt.spawn(Poller{&done, n});
  rt.wait();
  EXPECT_EQ(done.load(), n);
  EXPECT_GE(polled.get(), 1);
}

// A future from one wait() ordering a task of the next, and a when_all of
// nothing: ready at once.
TEST(TaskRuntime, FuturesOutliveAWait) {
  std::atomic<int> n{0};
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Count>(16), "Runtime/pool_MiB");
  std::vector<ht::Future<void>> first{rt.spawn(Count{&n}), rt.spawn(Count{&n})};
  rt.wait();
  auto none = rt.when_all(std::vector<ht::Future<void>>{});
  auto after = rt.spawn_after(rt.when_all(first), Check{&n});
  rt.wait();
  EXPECT_TRUE(none.is_ready());
  EXPECT_EQ(after.get(), 2);
}

TEST(TaskRuntime, PoolSizedFromTheWorkHoldsTheWork) {
  const int tasks = 20000;
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Square>(tasks), "Runtime/pool_MiB");
  std::vector<ht::Future<long>> f;
  for (int i = 0; i < tasks; ++i) f.push_back(rt.spawn(Square{i}));
  rt.wait();
  EXPECT_EQ(f.back().get(), long(tasks - 1) * (tasks - 1));
}

}  // namespace
