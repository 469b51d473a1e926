#pragma once
/// \file HT_Profile.hpp
/// \brief Per-task, per-iteration timings and the load imbalance they show.
///
/// Each task fills one TaskRecord in its own storage (no lock, no shared
/// counter while it works); a merge task that depends on the task's future
/// copies the record into the rank's Profile as soon as the task is done, so
/// records arrive while other tasks still run, not after a barrier.
///
/// The unit of balance is a *lane*: the task, where a variant splits an
/// iteration statically among its tasks (the study's non-locking BFS), or the
/// worker thread, where many small tasks are scheduled dynamically.  Per
/// iteration (a BFS level, a GEMM step), with b_l the busy time of lane l:
///   imbalance = (max_l b_l - min_l b_l) / max_l b_l,
///   waiting   = sum_l (max b - b_l): lane time spent waiting for the slowest.
/// Over a run: the largest imbalance, the mean weighted by each iteration's
/// slowest time (a one-vertex level is 100% imbalanced and costs nothing),
/// and the waiting fraction sum(waiting) / sum(lanes * max b).
///
/// Example: examples/profiler.cpp.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "comm/HT_Wait.hpp"  // over_ranks
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

class Results;

/// What one task did in one iteration.
struct TaskRecord {
  int iteration = -1;      ///< index given by Profile::begin_iteration
  int lane = 0;            ///< task index or worker thread (see the file comment)
  int task = 0;            ///< task index within the iteration
  double start = 0;        ///< seconds since the profile's origin
  double end = 0;          ///< seconds since the profile's origin
  double busy = 0;         ///< seconds working (end - start for a task that runs once)
  std::int64_t items = 0;  ///< work items (frontier vertices, tiles, ...)
};

/// One iteration, as the rank saw it.
struct IterationStats {
  int group = 0, step = 0;  ///< e.g. (search, level) or (repetition, step)
  int lanes = 0;
  double slowest = 0, fastest = 0;  ///< busy seconds of the slowest and fastest lane
  double waiting = 0;               ///< lane seconds spent waiting for the slowest
  double imbalance() const { return slowest > 0 ? (slowest - fastest) / slowest : 0.0; }
};

/// A run's imbalance on one rank, or reduced over ranks.
struct ProfileSummary {
  double max_imbalance = 0;
  double mean_imbalance = 0;  ///< weighted by the iterations' slowest time
  double waiting = 0;         ///< fraction of lane time spent waiting for the slowest
  std::int64_t records = 0;
};

class Profile {
 public:
  // Times come from ht::Clock: steady_seconds in a run; tests inject a clock
  // they control, so no test depends on how fast the machine is.
  /// A disabled profile records nothing: TaskClock reads no clock and
  /// merge_when_done spawns no merge task.
  explicit Profile(bool enabled = true, Clock clock = steady_seconds);

  bool enabled() const { return enabled_; }
  /// Seconds since this profile was created, on its clock.
  double now() const { return clock_() - origin_; }

  /// Host, between task waves: opens iteration (group, step) over \p lanes
  /// lanes and returns its index, for the TaskRecords of its tasks.
  int begin_iteration(int group, int step, int lanes);
  /// Host, before spawning: room for \p n more records.
  void reserve(std::size_t n);
  /// Thread-safe and lock-free: stores \p r (called by merge tasks).
  void merge(const TaskRecord& r);

  /// The records merged so far, in merge order (host, after the tasks).
  std::vector<TaskRecord> records() const;
  /// Per iteration statistics of this rank (host, after the tasks).
  std::vector<IterationStats> iterations() const;
  ProfileSummary summarize() const;

  /// Per-rank arrays under \p prefix (e.g. "profile/bfs"; records padded to
  /// the longest rank with iteration -1) and the run's summary reduced over
  /// ranks (docs/results.md).  Collective.
  void write(Results& out, const std::string& prefix, MPI_Comm comm) const;
  /// The summary on \p f (rank 0 prints; collective): imbalance and waiting,
  /// min/mean/max over ranks, each line led by \p prefix; with \p table,
  /// first a row per \p step_name (over all groups), a screen or more.
  void print(std::FILE* f, const char* step_name, MPI_Comm comm, bool table,
             const char* prefix = "") const;

 private:
  struct Iteration {
    int group, step, lanes;
  };
  bool enabled_;
  Clock clock_;
  double origin_;
  std::vector<Iteration> iterations_;
  std::vector<TaskRecord> slots_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> overflow_{false};
};

/// \p p, or a profile that records nothing when \p p is null.
Profile& profile_or_off(Profile* p);

/// Times one task into its record: start at construction, stop() at the end.
class TaskClock {
 public:
  TaskClock(const Profile& p, TaskRecord& r, int iteration, int lane, int task) : p_(p), r_(r) {
    if (!p_.enabled()) return;
    r_.iteration = iteration;
    r_.lane = lane;
    r_.task = task;
    r_.items = 0;
    r_.start = p_.now();
  }
  void items(std::int64_t n) { r_.items += n; }
  void stop() {
    if (!p_.enabled()) return;
    r_.end = p_.now();
    r_.busy = r_.end - r_.start;
  }

 private:
  const Profile& p_;
  TaskRecord& r_;
};

namespace impl {
struct MergeRecord {
  using value_type = void;
  Profile* profile;
  const TaskRecord* record;
  void operator()(TaskMember&) const { profile->merge(*record); }
};
}  // namespace impl

/// Spawns the merge of \p r into \p p to run as soon as \p done is ready
/// (host side); a disabled profile spawns nothing and returns \p done.
template <class T>
Future<void> merge_when_done(TaskRuntime& rt, Profile& p, const Future<T>& done,
                             const TaskRecord* r) {
  if (!p.enabled()) return Future<void>(done);
  return rt.spawn_after(done, impl::MergeRecord{&p, r});
}

/// Task pool bytes for \p n merge tasks.
std::size_t profile_pool_bytes(std::size_t n);

}  // namespace ht
