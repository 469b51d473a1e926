#pragma once
/// \file HT_TaskRuntime.hpp
/// \brief A rank's task runtime: spawn with a priority, futures, when_all,
/// respawn of a polling task, the worker index; results come back through
/// futures.  One interface, two task systems, chosen at configure time
/// (-DHT_TASKS, see docs/install.md):
///
/// | HT_TASKS | task system | where |
/// |---|---|---|
/// | \c kokkos | Kokkos' TaskScheduler (OpenMP) | Kokkos 3.4 to 4.7 (task DAG on) |
/// | \c openmp | OpenMP tasks on the threads Kokkos' OpenMP backend uses | any Kokkos, 5.x included
/// |
///
/// The rest of the code names only what this header declares:
/// ht::TaskRuntime, ht::Future<T>, ht::TaskMember, ht::TaskPriority,
/// ht::respawn and ht::respawn_after.  Every task body runs under the error
/// policy of runtime/impl/HT_TaskGuard.hpp (an escaping exception ends the job
/// with the rank and the reason).  A task that respawns itself calls
/// ht::respawn, and a task never blocks its worker on MPI: it polls and
/// respawns.
///
/// Example (runs as is inside an ht::Environment):
/// \code
///   struct Square {
///     using value_type = long;
///     long x;
///     void operator()(ht::TaskMember&, long& r) { r = x * x; }
///   };
///   ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Square>(8), "Runtime/pool_MiB");
///   std::vector<ht::Future<long>> f;
///   for (long i = 0; i < 8; ++i) f.push_back(rt.spawn(Square{i}));
///   auto all = rt.when_all(f);
///   rt.wait();                     // all.is_ready(), f[3].get() == 9
/// \endcode
#if defined(HT_TASKS_OPENMP)
#include "runtime/impl/HT_OpenMPTasks.hpp"
#else
#include "runtime/impl/HT_KokkosTasks.hpp"
#endif
