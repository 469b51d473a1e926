#pragma once
/// \file HT_KokkosTasks.hpp
/// \brief ht::TaskRuntime on Kokkos' TaskScheduler (OpenMP): Kokkos 3.4 to
/// 4.7, where the task DAG exists.  Include runtime/HT_TaskRuntime.hpp.
///
/// Why a wrapper.  Kokkos' TaskScheduler (3.4 through 4.7) does not report an
/// exhausted pool in a Release build: the spawn placement-constructs the task
/// at a null pointer and the process segfaults.  Every allocation made here
/// (spawn, when_all) first proves, under one lock, that the pool has a block of
/// that exact size; otherwise it fails with the pool size and the deck key that
/// sets it: an exception on the host, an abort of the whole job inside a task.
///
/// Traps this wrapper steers around, verified on Kokkos 3.4:
///  - \c ChaseLevTaskScheduler crashes with more than 64 host-spawned tasks
///    pending, so this is the default (single-queue) \c TaskScheduler;
///  - a task blocked in \c MPI_Recv pins its worker (deadlock with one thread):
///    tasks poll MPI and respawn instead of blocking.
#include <omp.h>
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "runtime/HT_Error.hpp"
#include "runtime/impl/HT_TaskGuard.hpp"

namespace ht {

using Scheduler = Kokkos::TaskScheduler<Kokkos::OpenMP>;
/// The handle to a task's result.
template <class T>
using Future = Kokkos::BasicFuture<T, Scheduler>;
/// What a task's operator() receives: spawn(member, ...) and respawn(this,
/// member) take it.
using TaskMember = typename Scheduler::member_type;

namespace impl {
inline Kokkos::TaskPriority kokkos_priority(TaskPriority p) {
  return p == TaskPriority::high  ? Kokkos::TaskPriority::High
         : p == TaskPriority::low ? Kokkos::TaskPriority::Low
                                  : Kokkos::TaskPriority::Regular;
}
}  // namespace impl

/// Runs the calling task again later (a polling task that must not block
/// its worker): \p self is the functor's \c this, \p member its argument.
template <class F>
void respawn(F* self, TaskMember& member, TaskPriority p = TaskPriority::regular) {
  Kokkos::respawn(static_cast<impl::Guarded<F>*>(self), member.scheduler(),
                  impl::kokkos_priority(p));
}
/// Runs the calling task again once \p after is ready (a parent joining the
/// children it spawned).
template <class F, class T>
void respawn_after(F* self, const Future<T>& after, TaskPriority p = TaskPriority::regular) {
  Kokkos::respawn(static_cast<impl::Guarded<F>*>(self), after, impl::kokkos_priority(p));
}

class TaskRuntime {
 public:
  using memory_pool = typename Scheduler::memory_pool;

  /// Largest block the pool hands out; bigger when_all sets are built as trees.
  static constexpr std::size_t max_block = std::size_t(1) << 14;
  static constexpr std::size_t superblock = impl::kPoolSuperblock;

  /// A pool of \p pool_bytes (at least one superblock, 64 KiB); \p pool_key is
  /// the deck key that sets it, quoted in the exhaustion error.
  TaskRuntime(std::size_t pool_bytes, std::string pool_key);

  /// The task system behind this runtime, as every results file
  /// (attribute task_runtime) and every run's first line name it.
  static const char* name() { return "kokkos-taskscheduler"; }
  /// Whether tasks live in a fixed pool (whose exhaustion is an error).
  static constexpr bool has_pool = true;

  /// Bytes of pool one task of functor \p F occupies.
  template <class F>
  static constexpr std::size_t task_bytes() {
    return sizeof(typename Scheduler::template runnable_task_type<impl::Guarded<F>>);
  }
  /// A pool that holds \p live tasks of \p F at once plus their when_all nodes,
  /// with room for the pool's per-size superblocks.
  template <class F>
  static std::size_t pool_bytes_for(std::size_t live) {
    return impl::pool_bytes_for(task_bytes<F>(), live);
  }

  /// Spawns a task from the host (outside any task).
  template <class F>
  Future<typename F::value_type> spawn(F f, TaskPriority p = TaskPriority::regular) {
    std::lock_guard<std::mutex> lock(mutex_);
    reserve(task_bytes<F>(), false);
    return Kokkos::host_spawn(Kokkos::TaskSingle(scheduler_, impl::kokkos_priority(p)),
                              impl::Guarded<F>(std::move(f)));
  }

  /// Spawns a task from the host that runs after \p dep is ready.
  template <class F, class T>
  Future<typename F::value_type> spawn_after(const Future<T>& dep, F f,
                                             TaskPriority p = TaskPriority::regular) {
    std::lock_guard<std::mutex> lock(mutex_);
    reserve(task_bytes<F>(), false);
    return Kokkos::host_spawn(Kokkos::TaskSingle(scheduler_, dep, impl::kokkos_priority(p)),
                              impl::Guarded<F>(std::move(f)));
  }

  /// The worker thread running the calling task, in [0, threads): an index
  /// for per-worker scratch, since a worker runs one task at a time.  On the
  /// host outside tasks: 0.
  static int worker() { return omp_get_thread_num(); }

  /// Spawns a task from inside a running task.  Exhaustion aborts the job.
  template <class F>
  Future<typename F::value_type> spawn(TaskMember& member, F f,
                                       TaskPriority p = TaskPriority::regular) {
    std::lock_guard<std::mutex> lock(mutex_);
    reserve(task_bytes<F>(), true);
    return Kokkos::task_spawn(Kokkos::TaskSingle(member.scheduler(), impl::kokkos_priority(p)),
                              impl::Guarded<F>(std::move(f)));
  }

  /// A future ready when all of \p fs are; from the host.
  template <class T>
  Future<void> when_all(const std::vector<Future<T>>& fs) {
    return when_all_impl(scheduler_, fs.data(), fs.size(), false);
  }
  /// A future ready when all of \p fs are; from inside a task.
  template <class T>
  Future<void> when_all(TaskMember& member, const std::vector<Future<T>>& fs) {
    return when_all_impl(member.scheduler(), fs.data(), fs.size(), true);
  }

  /// Runs every spawned task to completion (the calling thread works too).
  void wait() { Kokkos::wait(scheduler_); }

 private:
  static std::size_t aggregate_bytes(std::size_t n) {
    using aggregate = typename Scheduler::task_queue_type::aggregate_task_type;
    return sizeof(aggregate) + n * sizeof(void*);
  }
  /// Largest fan-in one when_all node may have in a block of max_block.
  static std::size_t max_fan_in() { return (max_block - aggregate_bytes(0)) / sizeof(void*); }

  template <class T>
  Future<void> when_all_impl(Scheduler s, const Future<T>* fs, std::size_t n, bool in_task) {
    if (n <= max_fan_in()) {
      std::lock_guard<std::mutex> lock(mutex_);
      reserve(aggregate_bytes(n), in_task);
      return s.when_all(fs, static_cast<int>(n));
    }
    // A tree of when_all nodes: each joins at most max_fan_in() futures.
    std::vector<Future<void>> level;
    for (std::size_t i = 0; i < n; i += max_fan_in()) {
      const std::size_t m = n - i < max_fan_in() ? n - i : max_fan_in();
      level.push_back(when_all_impl(s, fs + i, m, in_task));
    }
    return when_all_impl(s, level.data(), level.size(), in_task);
  }

  /// Proves the pool has a free block of \p bytes; caller holds mutex_.
  void reserve(std::size_t bytes, bool in_task);

  std::size_t pool_bytes_;
  std::string pool_key_;
  memory_pool pool_;  // shares its storage with scheduler_'s queue
  Scheduler scheduler_;
  std::mutex mutex_;
};

}  // namespace ht
