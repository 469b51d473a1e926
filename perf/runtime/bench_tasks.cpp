// bench_tasks: the task runtime itself (ht::TaskRuntime), whichever task
// system is behind it: empty tasks per second spawned from the host, from
// inside one task and from inside many; the latency of a when_all over 1000
// futures; and the latency of one respawn of a polling task (how soon a task
// that gives its worker back runs again).  Each figure is the median of
// --rounds rounds, printed as a CTest measurement.
//
//   mpirun -np 1 --bind-to none bench_tasks --kokkos-num-threads=2 [--tasks=100000] [--rounds=7]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/bench_util.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using ht::bench::flag;
using ht::bench::median;

struct Empty {
  using value_type = void;
  void operator()(ht::TaskMember&) const {}
};

// Spawns n empty tasks from inside itself.
struct Spawner {
  using value_type = void;
  ht::TaskRuntime* rt;
  long n;
  void operator()(ht::TaskMember& m) const {
    for (long i = 0; i < n; ++i) rt->spawn(m, Empty{});
  }
};

// Respawns itself (low priority) until it has run `left` times.
struct Poller {
  using value_type = void;
  long left;
  void operator()(ht::TaskMember& m) {
    if (--left > 0) ht::respawn(this, m, ht::TaskPriority::low);
  }
};

template <class Body>
double seconds(Body&& body) {
  const double t0 = ht::steady_seconds();
  body();
  return ht::steady_seconds() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  const long n = flag(argc, argv, "tasks", 100000);
  const int rounds = static_cast<int>(flag(argc, argv, "rounds", 7));
  const int threads = env.threads();
  const long many = 4L * threads;  // spawning tasks in the "from many" case
  ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Spawner>(static_cast<std::size_t>(n) + 64),
                     "--tasks");
  std::vector<double> host, one, from_many, join, respawn;
  for (int r = 0; r < rounds; ++r) {
    host.push_back(seconds([&] {
      for (long i = 0; i < n; ++i) rt.spawn(Empty{});
      rt.wait();
    }));
    one.push_back(seconds([&] {
      rt.spawn(Spawner{&rt, n});
      rt.wait();
    }));
    from_many.push_back(seconds([&] {
      for (long s = 0; s < many; ++s) rt.spawn(Spawner{&rt, n / many});
      rt.wait();
    }));
    std::vector<ht::Future<void>> f;
    for (int i = 0; i < 1000; ++i) f.push_back(rt.spawn(Empty{}));
    join.push_back(seconds([&] {
      ht::Future<void> all = rt.when_all(f);
      rt.wait();
    }));
    const long polls = 10000;
    respawn.push_back(seconds([&] {
                        rt.spawn(Poller{polls}, ht::TaskPriority::low);
                        rt.wait();
                      }) /
                      polls);
  }
  if (env.rank() != 0) return 0;
  const double h = n / median(host), o = n / median(one), m = (n / many * many) / median(from_many);
  std::printf("Task runtime %s, %s, %d thread%s, %ld tasks, median of %d rounds\n",
              ht::TaskRuntime::name(), ht::Environment::kokkos_description().c_str(), threads,
              threads == 1 ? "" : "s", n, rounds);
  std::printf("%-44s %12.4g\n", "empty tasks/s spawned from the host:", h);
  std::printf("%-44s %12.4g\n", "empty tasks/s spawned from one task:", o);
  std::printf("%-44s %12.4g\n", "empty tasks/s spawned from many tasks:", m);
  std::printf("%-44s %12.2f\n", "when_all over 1000 futures, us:", 1e6 * median(join));
  std::printf("%-44s %12.2f\n", "one respawn of a polling task, us:", 1e6 * median(respawn));
  const std::string t = "_t" + std::to_string(threads);
  const auto measure = [](const std::string& name, double v) {
    std::printf("<CTestMeasurement type=\"numeric/double\" name=\"%s\">%.6g</CTestMeasurement>\n",
                name.c_str(), v);
  };
  measure("runtime" + t + "_host_spawn_tasks_per_s", h);
  measure("runtime" + t + "_spawn_from_one_tasks_per_s", o);
  measure("runtime" + t + "_spawn_from_many_tasks_per_s", m);
  measure("runtime" + t + "_when_all_1000_us", 1e6 * median(join));
  measure("runtime" + t + "_respawn_us", 1e6 * median(respawn));
  return 0;
}
