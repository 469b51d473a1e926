#pragma once
/// \file HT_ClosingBarrier.hpp
/// \brief The nonblocking barrier that closes a round every rank must reach
/// (NBX's level end in the Exchange, work stealing's shutdown, ht::barrier):
/// joined once, then tested while the caller goes on receiving.
///
/// Example: src/comm/HT_WorkStealing.cpp (the shutdown).
#include <mpi.h>

#include "comm/HT_CommCounts.hpp"

namespace ht {

/// The nonblocking barrier that closes a round every rank must reach (NBX's
/// level end, work stealing's shutdown): joined once, then tested while the
/// caller goes on receiving.
class ClosingBarrier {
 public:
  ClosingBarrier() = default;
  ClosingBarrier(const ClosingBarrier&) = delete;
  ClosingBarrier& operator=(const ClosingBarrier&) = delete;
  /// Joins the barrier of \p comm (once; later calls do nothing).
  void join(MPI_Comm comm) {
    if (joined_) return;
    mpi::Ibarrier(comm, &request_);
    joined_ = true;
    done_ = false;
  }
  /// join(), carrying \p value: the round closes with an MPI_Iallreduce
  /// (MPI_MIN) in place of the barrier.  A reduction completes on a rank
  /// only once every rank's value is in, so it closes the round as the
  /// barrier does, and least() is then the least value of all ranks.
  void join_min(MPI_Comm comm, long long value) {
    if (joined_) return;
    in_ = value;
    mpi::Iallreduce(&in_, &least_, 1, MPI_LONG_LONG, MPI_MIN, comm, &request_);
    joined_ = true;
    done_ = false;
  }
  /// After done() of a join_min(): the least value over the ranks.
  long long least() const { return least_; }
  bool joined() const { return joined_; }
  /// Joined, and every rank has joined.
  bool done() {
    if (joined_ && !done_) {
      int flag = 0;
      MPI_Test(&request_, &flag, MPI_STATUS_IGNORE);
      done_ = flag != 0;
    }
    return done_;
  }
  /// Ready for the next round (the last one done, or never joined).
  void reset() {
    joined_ = false;
    done_ = false;
  }

 private:
  // A barrier left open (an error unwound the round) stays so: MPI allows
  // neither cancelling nor freeing one, and waiting could hang.
  MPI_Request request_ = MPI_REQUEST_NULL;
  long long in_ = 0, least_ = 0;  // join_min()'s buffers: live until done()
  bool joined_ = false, done_ = false;
};

}  // namespace ht
