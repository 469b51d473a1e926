// task_systems: the two maintained task systems a Kokkos without tasking
// could run ht::TaskRuntime on, measured bare on the same threads, so that
// the choice (docs/performance/runtimes.md, "Choosing the second task runtime") rests
// on figures: OpenMP tasks (libgomp, the runtime Kokkos' OpenMP backend uses)
// and oneTBB (task_group in a task_arena; task_arena::enqueue for the
// respawn, which must not jump the queue).
//
// Figures, each the median of --rounds rounds, on --threads threads:
//   from_one:  empty tasks per second, all spawned by one task
//   from_many: empty tasks per second, spawned by 4 tasks per thread
//   respawn:   microseconds per respawn of a task that re-submits itself,
//              with 4 x threads busy tasks beside it (a polling task)
//
//   task_systems --threads=2 [--tasks=200000] [--rounds=7]
// Built only where CMake finds oneTBB (Debian: libtbb-dev); not a CTest test.
#include <omp.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
#include "common/bench_util.hpp"

namespace {

using ht::bench::flag;
using ht::bench::median;
using ht::bench::now;

std::atomic<long> sink{0};
void empty_body() { sink.fetch_add(1, std::memory_order_relaxed); }

// --- OpenMP tasks ------------------------------------------------------------
template <class Body>
double omp_region(int threads, Body&& body) {
  const double t0 = now();
#pragma omp parallel num_threads(threads)
#pragma omp single
  body();
  return now() - t0;
}

double omp_from_one(int threads, long n) {
  return omp_region(threads, [n] {
    for (long i = 0; i < n; ++i) {
#pragma omp task
      empty_body();
    }
  });
}
double omp_from_many(int threads, long n) {
  const long spawners = 4L * threads, each = n / spawners;
  return omp_region(threads, [=] {
    for (long s = 0; s < spawners; ++s) {
#pragma omp task
      for (long i = 0; i < each; ++i) {
#pragma omp task
        empty_body();
      }
    }
  });
}
void omp_poll(long left) {
  if (left == 0) return;
#pragma omp task
  omp_poll(left - 1);
}
double omp_respawn(int threads, long n) {
  return omp_region(threads, [=] {
    for (int b = 0; b < 4 * threads; ++b) {
#pragma omp task
      empty_body();
    }
#pragma omp task
    omp_poll(n);
  });
}

// --- oneTBB ------------------------------------------------------------------
double tbb_from_one(tbb::task_arena& arena, long n) {
  const double t0 = now();
  arena.execute([&] {
    tbb::task_group g;
    g.run([&] {
      for (long i = 0; i < n; ++i) g.run(empty_body);
    });
    g.wait();
  });
  return now() - t0;
}
double tbb_from_many(tbb::task_arena& arena, int threads, long n) {
  const long spawners = 4L * threads, each = n / spawners;
  const double t0 = now();
  arena.execute([&] {
    tbb::task_group g;
    for (long s = 0; s < spawners; ++s)
      g.run([&] {
        for (long i = 0; i < each; ++i) g.run(empty_body);
      });
    g.wait();
  });
  return now() - t0;
}
// A respawn goes through the arena's shared queue (enqueue): g.run from a
// worker would put it first in that worker's own deque, ahead of the work it
// polls for.
double tbb_respawn(tbb::task_arena& arena, int threads, long n) {
  std::atomic<long> left{n};
  const double t0 = now();
  arena.execute([&] {
    tbb::task_group g;
    for (int b = 0; b < 4 * threads; ++b) g.run(empty_body);
    // Enqueued work is not the group's: wait for the poller's last run too.
    std::atomic<bool> done{false};
    struct Poll {
      tbb::task_arena* arena;
      std::atomic<long>* left;
      std::atomic<bool>* done;
      void operator()() const {
        if (left->fetch_sub(1) > 1)
          arena->enqueue(*this);
        else
          done->store(true);
      }
    };
    arena.enqueue(Poll{&arena, &left, &done});
    g.wait();
    while (!done.load()) std::this_thread::yield();
  });
  return now() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = static_cast<int>(flag(argc, argv, "threads", 2));
  const long n = flag(argc, argv, "tasks", 200000), rounds = flag(argc, argv, "rounds", 7);
  const long polls = n / 10;
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(threads);
  std::vector<double> o1, om, orsp, t1, tm, trsp;
  for (long r = 0; r < rounds; ++r) {  // alternated, so drift hits both
    o1.push_back(n / omp_from_one(threads, n));
    t1.push_back(n / tbb_from_one(arena, n));
    om.push_back(n / omp_from_many(threads, n));
    tm.push_back(n / tbb_from_many(arena, threads, n));
    orsp.push_back(1e6 * omp_respawn(threads, polls) / polls);
    trsp.push_back(1e6 * tbb_respawn(arena, threads, polls) / polls);
  }
  std::printf("threads %d, %ld tasks, median of %ld rounds\n", threads, n, rounds);
  std::printf("%-28s %14s %14s\n", "", "openmp", "onetbb");
  std::printf("%-28s %14.3g %14.3g\n", "from_one tasks/s", median(o1), median(t1));
  std::printf("%-28s %14.3g %14.3g\n", "from_many tasks/s", median(om), median(tm));
  std::printf("%-28s %14.3g %14.3g\n", "respawn us", median(orsp), median(trsp));
  return sink.load() > 0 ? 0 : 1;
}
