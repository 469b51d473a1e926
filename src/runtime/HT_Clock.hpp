#pragma once
/// \file HT_Clock.hpp
/// \brief Seconds on std::chrono::steady_clock: the one clock behind every
/// time HybridTasks reports (phases, BFS levels, the exchange, Cannon's
/// shifts, lock waits, the profile).  Parts that split time take a Clock, so
/// a test can inject one it controls.
///
/// Example: tests/profile/tstProfile.cpp (a clock injected).
#include <chrono>

namespace ht {

inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// A source of seconds: steady_seconds in a run, a fake in tests.
using Clock = double (*)();

}  // namespace ht
