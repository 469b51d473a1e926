#pragma once
/// \file bench_util.hpp
/// \brief What the benchmark programs under perf/ share: the steady clock in
/// seconds, the median of rounds, and `--name=value` flags.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace ht::bench {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The median of the rounds (the upper one of an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The integer value of `--name=value`, or \p fallback.
inline long flag(int argc, char** argv, const char* name, long fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0)
      return std::stol(argv[i] + prefix.size());
  return fallback;
}

}  // namespace ht::bench
