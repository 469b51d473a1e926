#pragma once
/// \file HT_Clock.hpp
/// \brief Seconds on std::chrono::steady_clock: the one clock that the
/// profile, the exchange's level timings and the waits read.
///
/// Example:
/// \code
///   const double t0 = ht::steady_seconds();
///   work();
///   const double seconds = ht::steady_seconds() - t0;
/// \endcode
#include <chrono>

namespace ht {

inline double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace ht
