#pragma once
/// \file HT_Log.hpp
/// \brief The drivers' progress lines: printf-style, flushed at once (a long
/// run shows where it is, even through a pipe), and nothing when the log is
/// null, as it is on every rank but 0.
///
/// Example:
/// \code
///   ht::say(rank == 0 ? stdout : nullptr, "search %d/%d: %.3f s\n", t + 1, n, s);
/// \endcode
#include <cstdarg>
#include <cstdio>

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

}  // namespace ht
