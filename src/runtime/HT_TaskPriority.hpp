#pragma once
/// \file HT_TaskPriority.hpp
/// \brief Which ready task a worker takes first, on either task runtime.
///
/// Kokkos' TaskScheduler honours all three; OpenMP tasks take them as
/// `priority` hints, honoured only under OMP_MAX_TASK_PRIORITY
/// (runtime/impl/HT_OpenMPTasks.hpp).
///
/// Example: examples/tasks.cpp (spawn_after with a priority); a polling task
/// that respawns at low priority: src/graph/bfs/HT_BfsLocking.cpp.

namespace ht {

/// \brief Which ready task a worker takes first.
enum class TaskPriority {
  high,     ///< before any regular task
  regular,  ///< the default
  low       ///< after the regular ones (a polling task)
};

}  // namespace ht
