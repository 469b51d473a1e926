#pragma once
/// \file HT_SsspState.hpp
/// \brief What the 1D and 2D delta-steppings share: a vertex's state word,
/// the bucket of a distance, what a search accepts and its answer.
///
/// A state is the distance's float bits above the parent's 32-bit id:
/// non-negative floats order as their bits, so one 64-bit compare (or atomic
/// min) orders states by distance, and the distance and its parent change
/// together.  A bucket index is computed in double and saturates at
/// kLastBucket, so any finite distance over any delta > 0 has one.
///
/// Examples: src/graph/sssp/HT_DeltaStepping.cpp, src/graph/sssp/HT_DeltaStepping2D.cpp.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "graph/sssp/HT_DeltaStepping.hpp"
#include "runtime/HT_Error.hpp"

namespace ht::impl {

/// \brief A vertex's state: its distance's float bits above its parent's id.
using SsspState = std::uint64_t;
/// \brief The parent of an unreached vertex.
constexpr std::uint32_t kNoParent = 0xffffffffu;

/// \brief The bits of \p d.
inline std::uint32_t float_bits(float d) {
  std::uint32_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
/// \brief The float of bits \p b.
inline float bits_float(std::uint32_t b) {
  float d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
/// \brief The distance of state \p s.
inline float dist_of(SsspState s) { return bits_float(static_cast<std::uint32_t>(s >> 32)); }
/// \brief The parent of state \p s (kNoParent when unreached).
inline std::uint32_t parent_of(SsspState s) { return static_cast<std::uint32_t>(s); }
/// \brief The state of distance \p d from \p parent.
inline SsspState pack_state(float d, std::int64_t parent) {
  return (SsspState{float_bits(d)} << 32) | static_cast<std::uint32_t>(parent);
}
/// \brief An unreached vertex's state.
inline const SsspState kUnreachedState = pack_state(SsspResult::kUnreached, kNoParent);

/// \brief No bucket: none live, none sent.
constexpr std::int64_t kNoBucket = std::numeric_limits<std::int64_t>::max();
/// \brief The last bucket: every farther distance (a huge weight, a narrow
/// delta) saturates to it, so a bucket index is always defined and below
/// kNoBucket.
constexpr std::int64_t kLastBucket = std::int64_t(1) << 62;

/// \brief The bucket of distance \p d at 1 / delta = \p inverse_delta, by a
/// multiply (a division per win cost as much as the rest of a relaxation).
/// In double and saturated before the conversion (a float's distance over a
/// narrow delta passes any integer's range; inf and NaN fail the test).
inline std::int64_t bucket_of(float d, double inverse_delta) {
  const double x = static_cast<double>(d) * inverse_delta;
  return x < static_cast<double>(kLastBucket) ? static_cast<std::int64_t>(x) : kLastBucket;
}
/// \brief 1 / \p delta, at most the largest double (a subnormal delta's
/// inverse overflows).
inline double inverse_of(double delta) {
  return std::min(1.0 / delta, std::numeric_limits<double>::max());
}

/// \brief Throws ht::UsageError where a search cannot run on a graph of
/// \p vertices vertices (parents take 32 bits) or with \p delta (negative
/// or not finite; 0 is auto_delta's).
inline void check_search(std::int64_t vertices, double delta) {
  if (vertices > (std::int64_t(1) << 32))
    throw UsageError("SSSP keeps parents in 32 bits: at most 2^32 vertices (SCALE 32), not " +
                     std::to_string(vertices));
  if (!(delta >= 0) || !std::isfinite(delta))
    throw UsageError("SSSP delta must be > 0 (0: auto_delta), not " + std::to_string(delta));
}

/// \brief A search's answer from its final states: \p res's distances and
/// parents (+inf and -1 where unreached), on every host worker (on the host
/// alone this was a tenth of a 2-thread search at SCALE 18).
inline void answer(const std::vector<SsspState>& state, SsspResult& res) {
  const std::size_t n = state.size();
  res.dist.resize(n);
  res.pred.resize(n);
  const SsspState* const s = state.data();
  float* const dist = res.dist.data();
  std::int64_t* const pred = res.pred.data();
  Kokkos::parallel_for("ht::DeltaStepping::answer",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, n),
                       [=](std::size_t j) {
                         const bool reached = s[j] != kUnreachedState;
                         dist[j] = reached ? dist_of(s[j]) : SsspResult::kUnreached;
                         pred[j] = reached ? static_cast<std::int64_t>(parent_of(s[j])) : -1;
                       });
  Kokkos::fence();
}

}  // namespace ht::impl
