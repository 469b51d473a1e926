#pragma once
/// \file HT_TaskPriority.hpp
/// \brief Which ready task a worker takes first, on either task runtime.
///
/// Kokkos' TaskScheduler honours all three; OpenMP tasks take them as
/// `priority` hints, honoured only under OMP_MAX_TASK_PRIORITY
/// (runtime/impl/HT_OpenMPTasks.hpp).
///
/// Example: a polling task that yields to the search's own tasks
/// \code
///   rt.spawn(Receive{&state}, ht::TaskPriority::low);
///   // inside Receive::operator(): ht::respawn(this, member, ht::TaskPriority::low);
/// \endcode

namespace ht {

/// \brief Which ready task a worker takes first.
enum class TaskPriority {
  high,     ///< before any regular task
  regular,  ///< the default
  low       ///< after the regular ones (a polling task)
};

}  // namespace ht
