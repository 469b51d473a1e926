#pragma once
/// \file HT_ProgressPump.hpp
/// \brief Drives nonblocking MPI transfers forward from inside compute tasks.
///
/// MPI moves large messages only while some thread is inside an MPI call.  Each
/// compute task calls pump() between its tiles; a try-lock lets one thread at
/// a time test the requests, so MPI_THREAD_SERIALIZED suffices and no task
/// ever blocks in MPI.  The host posts, computes, then finish()es.  Times are
/// on the one clock (runtime/HT_Clock.hpp).
///
/// Example: src/gemm/HT_Cannon.cpp.
#include <mpi.h>

#include <atomic>
#include <vector>

#include "comm/HT_OneCaller.hpp"

namespace ht {

class ProgressPump {
 public:
  /// Takes over \p requests, already posted; records the posting time.
  void start(std::vector<MPI_Request> requests);
  /// Tests the requests unless another thread is doing so or all are done.
  void pump();
  /// Waits for what is still in flight (host only; MPI_Waitall with pauses)
  /// and returns the seconds it waited: 0 if the tasks saw it all complete.
  double finish();
  /// Seconds from start() until the transfers were seen complete.
  double duration() const { return t_done_ - t_post_; }

 private:
  std::vector<MPI_Request> requests_;
  OneCaller mpi_;
  std::atomic<bool> done_{true};
  double t_post_ = 0, t_done_ = 0;
};

}  // namespace ht
