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
/// The rest of the code names only what this header declares (that each
/// runtime provides it is checked at compile time,
/// runtime/impl/HT_TaskRuntimeInterface.hpp):
/// ht::TaskRuntime, ht::Future<T>, ht::TaskMember, ht::TaskPriority,
/// ht::respawn and ht::respawn_after.  Every task body runs under the error
/// policy of runtime/impl/HT_TaskGuard.hpp (an escaping exception ends the job
/// with the rank and the reason).  A task that respawns itself calls
/// ht::respawn, and a task never blocks its worker on MPI: it polls and
/// respawns.
///
/// Example: examples/tasks.cpp (futures, when_all, spawn_after).
#if defined(HT_TASKS_OPENMP)
#include "runtime/impl/HT_OpenMPTasks.hpp"
#else
#include "runtime/impl/HT_KokkosTasks.hpp"
#endif
