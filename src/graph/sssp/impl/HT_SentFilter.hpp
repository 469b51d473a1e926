#pragma once
/// \file HT_SentFilter.hpp
/// \brief The sent filter of distributed delta-stepping: a rank does not send
/// a remote vertex a distance when it has already sent that vertex one of an
/// earlier bucket, which the new one cannot beat.
///
/// Two forms, one contract:
///  - exact: the earliest bucket sent, 2 bytes per vertex of the graph
///    (saturated at 0xfffe; 0xffff: none);
///  - lossy: a direct-mapped table of (vertex, earliest bucket) words, for
///    when the graph's vertices outnumber the bytes a rank may spend (at
///    SCALE 30 the exact form takes 2 GiB on every rank).  A vertex that
///    another one displaced is forgotten: it is sent again, never wrongly
///    held back.
/// admit() is called concurrently by a rank's workers.  A bucket is recorded
/// only by the call that then sends it, so the filter never claims a send
/// that did not happen; racing writers can only leave a later bucket than
/// the truth (a weaker filter, never a wrong one).  Vertex ids are below
/// 2^32 (SSSP's parents are 32-bit).
///
/// Examples: src/graph/sssp/HT_DeltaStepping.cpp, tests/graph/sssp/impl/tstSentFilter.cpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/HT_HeldBytes.hpp"

namespace ht::impl {

class SentFilter {
 public:
  /// Clears it for a search on \p n_global vertices: exact while that takes
  /// at most \p budget_bytes, else lossy in at most \p budget_bytes (8-byte
  /// slots, a power of two of them, at least one).
  void reset(std::int64_t n_global, std::size_t budget_bytes) {
    const auto n = static_cast<std::size_t>(n_global);
    if (n * sizeof(std::uint16_t) <= budget_bytes) {
      slots_.clear();
      slots_.shrink_to_fit();
      exact_.assign(n, kNone16);
      held_.set(static_cast<std::int64_t>(bytes()));
      return;
    }
    exact_.clear();
    exact_.shrink_to_fit();
    std::size_t slots = 1;
    while (2 * slots * sizeof(std::uint64_t) <= budget_bytes) slots *= 2;
    shift_ = 64;
    for (std::size_t s = slots; s > 1; s /= 2) --shift_;
    slots_.assign(slots, kEmpty);
    held_.set(static_cast<std::int64_t>(bytes()));
  }

  bool exact() const { return slots_.empty(); }
  std::size_t bytes() const {
    return exact_.size() * sizeof(std::uint16_t) + slots_.size() * sizeof(std::uint64_t);
  }

  /// Where \p v's word lies, to prefetch ahead of admit(): a remote
  /// target's filter word is as random an access as a local target's state.
  const void* word(std::int64_t v) const {
    return exact() ? static_cast<const void*>(exact_.data() + v)
                   : static_cast<const void*>(slots_.data() + slot_of(v));
  }

  /// true: send vertex \p v a distance of bucket \p bucket (now recorded);
  /// false: a distance of an earlier bucket was already sent to \p v.
  bool admit(std::int64_t v, std::int64_t bucket) {
    const auto b = static_cast<std::uint16_t>(std::min<std::int64_t>(bucket, 0xfffe));
    if (exact()) {
      std::uint16_t* const s = &exact_[static_cast<std::size_t>(v)];
      const std::uint16_t before = __atomic_load_n(s, __ATOMIC_RELAXED);
      if (b > before) return false;
      if (b < before) __atomic_store_n(s, b, __ATOMIC_RELAXED);
      return true;
    }
    std::uint64_t* const s = &slots_[slot_of(v)];
    const std::uint64_t before = __atomic_load_n(s, __ATOMIC_RELAXED);
    const bool same = (before >> 16) == static_cast<std::uint64_t>(v);
    if (same && b > (before & 0xffff)) return false;
    if (!same || b < (before & 0xffff))
      __atomic_store_n(s, (static_cast<std::uint64_t>(v) << 16) | b, __ATOMIC_RELAXED);
    return true;
  }

 private:
  static constexpr std::uint16_t kNone16 = 0xffff;
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // no vertex id is 2^48 - 1
  // Fibonacci hashing: files number their vertices in runs, and a run must
  // not share slots.
  std::size_t slot_of(std::int64_t v) const {
    if (shift_ == 64) return 0;
    return static_cast<std::size_t>((static_cast<std::uint64_t>(v) * 0x9e3779b97f4a7c15ull) >>
                                    shift_);
  }

  std::vector<std::uint16_t> exact_;
  std::vector<std::uint64_t> slots_;
  HeldCharge held_{Held::search};  // bytes() (HT_HeldBytes.hpp)
  int shift_ = 64;                 // 64 - log2(slots)
};

}  // namespace ht::impl
