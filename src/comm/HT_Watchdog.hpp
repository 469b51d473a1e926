#pragma once
/// \file HT_Watchdog.hpp
/// \brief A stuck protocol says why instead of burning the allocation.
///
/// A rank that waits on its peers (an exchange level that does not end, a
/// steal request nobody answers, a shutdown barrier that does not close)
/// calls waiting() in its wait loop, and progress() whenever something moves.
/// After limit() seconds of waiting with no progress it prints its protocol
/// state ("<program>: rank R: stuck in <protocol> for S s: <state>"), sends a
/// notice to every peer on the protocol's own communicator, and ends the job
/// with exit 1 after a short grace.  A peer whose waiting() (or the
/// protocol's own receive, for one that takes any tag) sees the notice prints
/// its state too, so every rank still in the protocol says where it stands.
///
/// The limit is the run's (Runtime/stall_seconds, default 300 s; 0: never),
/// set once per process with set_limit(); it should exceed any wait a run
/// can legitimately have (a level of the slowest rank's work).
///
/// Example: src/comm/HT_WorkStealing.cpp (watch()).
#include <mpi.h>

#include <string>

#include "runtime/HT_Clock.hpp"

namespace ht {

class Watchdog {
 public:
  /// The tag of the notice on a protocol's communicator (clear of theirs).
  static constexpr int kNoticeTag = 7999;
  /// The process's limit in seconds (0: never), and the deck key naming it.
  static double limit();
  static void set_limit(double seconds);
  static constexpr const char* kKey = "Runtime/stall_seconds";

  /// \p comm: the protocol's own communicator; \p what names the protocol.
  Watchdog(MPI_Comm comm, std::string what, Clock clock = steady_seconds);

  /// Something moved: a wait starts over.
  void progress() { since_ = -1; }
  /// In a wait loop: a peer's notice, or limit() seconds without progress
  /// since this wait began, prints state() and ends the job (exit 1).
  template <class State>
  void waiting(State&& state) {
    const double now = clock_();
    if (since_ < 0) since_ = now;
    if (now - checked_ >= kCheckSeconds) {
      checked_ = now;
      if (noticed()) stuck(state(), true);
    }
    if (limit_ > 0 && now - since_ > limit_) stuck(state(), false);
  }
  /// A peer's notice arrived through the protocol's own receive: print and end.
  [[noreturn]] void notice_received(const std::string& state) { stuck(state, true); }

 private:
  static constexpr double kCheckSeconds = 0.01;  // between two looks for a notice
  bool noticed();
  [[noreturn]] void stuck(const std::string& state, bool from_peer);

  MPI_Comm comm_;
  std::string what_;
  Clock clock_;
  double limit_;
  double since_ = -1, checked_ = 0;
};

}  // namespace ht
