#pragma once
/// \file HT_Log.hpp
/// \brief The drivers' progress lines: printf-style, flushed at once (a long
/// run shows where it is, even through a pipe), and nothing when the log is
/// null, as it is on every rank but 0.  A Ticker keeps a loop's lines to a
/// few, so that a run's output stays short and ends on its summary.
///
/// Example: src/drivers/graph500/HT_Search.cpp (a Ticker).
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "runtime/HT_Settings.hpp"

namespace ht {

/// \brief Writes \p fmt's line to \p log and flushes it; nothing if \p log is null.
inline void say(std::FILE* log, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
inline void say(std::FILE* log, const char* fmt, ...) {
  if (!log) return;
  va_list args;
  va_start(args, fmt);
  std::vfprintf(log, fmt, args);
  va_end(args);
  std::fflush(log);
}

/// \brief Seconds between two progress lines of a loop or a search: 3, or
/// the environment's HT_PROGRESS_SECONDS (a test's way to see them quickly).
inline double progress_seconds() {
  const double x = std::atof(setting("HT_PROGRESS_SECONDS").c_str());
  return x > 0 ? x : 3.0;
}

/// \brief When a loop's progress line is due: its first and last steps, and
/// between them on passing a quarter of the loop, once \p every seconds have
/// passed since the last line: at most five lines a loop, so that a run's
/// output stays short.  It reads a clock and nothing else (no MPI), so a
/// caller may ask between work units.
class Ticker {
 public:
  explicit Ticker(double every = progress_seconds()) : every_(every), last_(now()) {}
  /// \brief True when step \p done of \p total (1-based) gets a line.
  bool due(int done, int total) {
    const int quarter = total > 0 ? 4 * done / total : 0;
    if (done > 1 && done < total && (quarter == quarter_ || now() - last_ < every_)) return false;
    quarter_ = quarter;
    last_ = now();
    return true;
  }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  double every_;
  double last_;
  int quarter_ = 0;
};

}  // namespace ht
