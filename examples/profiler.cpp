// The imbalance profiler: three iterations of four tasks, task t doing t + 1
// units of work, so each iteration is about 75% imbalanced.  Each task times
// itself into its own record (TaskClock); a merge task copies the record into
// the profile as soon as the task is done (merge_when_done).
//   mpirun -np 1 build/examples/example_profiler   -> "... imbalance ..." and "records: 12"
#include <cstdint>
#include <cstdio>
#include <vector>

#include "profile/HT_Profile.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

struct Work {
  using value_type = void;
  const ht::Profile* profile;
  ht::TaskRecord* record;
  int iteration, task;
  void operator()(ht::TaskMember&) const {
    ht::TaskClock clock(*profile, *record, iteration, task, task);  // lane: the task
    volatile std::uint64_t x = 0;
    for (std::uint64_t i = 0; i < 2000000ull * static_cast<std::uint64_t>(task + 1); ++i) x += i;
    clock.items(task + 1);
    clock.stop();
  }
};

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  constexpr int kTasks = 4, kIterations = 3;
  ht::ProfileSummary s;
  {
    ht::TaskRuntime rt(
        ht::TaskRuntime::pool_bytes_for<Work>(kTasks) + ht::profile_pool_bytes(kTasks),
        "Runtime/pool_MiB");
    ht::Profile profile;
    std::vector<ht::TaskRecord> records(kTasks * kIterations);  // one per task, never shared
    for (int step = 0; step < kIterations; ++step) {
      const int it = profile.begin_iteration(0, step, kTasks);  // host, before spawning
      profile.reserve(kTasks);
      for (int t = 0; t < kTasks; ++t) {
        ht::TaskRecord* r = &records[static_cast<std::size_t>(step * kTasks + t)];
        const ht::Future<void> done = rt.spawn(Work{&profile, r, it, t});
        ht::merge_when_done(rt, profile, done, r);
      }
      rt.wait();
    }
    profile.print(stdout, "step", env.comm(), false);  // collective; rank 0 prints
    s = profile.summarize();                           // this rank's
  }
  std::printf("rank %d: records: %lld, largest imbalance %.2f\n", env.rank(),
              static_cast<long long>(s.records), s.max_imbalance);
  return s.records == kTasks * kIterations ? 0 : 1;
}
