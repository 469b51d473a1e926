#pragma once
/// \file HT_HeldBytes.hpp
/// \brief What a rank holds, by kind, counted where it is allocated: the
/// graph (1D rows, 2D blocks), exchange buffers (per-peer and in flight) and
/// search state (bitmaps, frontiers, parents, distances).  Each kind keeps
/// its bytes now and its high-water mark, so a run can report, per rank,
/// what grows with the number of ranks P (docs/scaling.md) without a
/// profiler: the counts are exact, not sampled.
///
/// Owners charge what they allocate and release it when they free it, most
/// simply through a HeldCharge member that follows the container's size.
/// Every function is thread-safe (relaxed atomics: the counts are read
/// between phases, after a synchronisation).
///
/// Examples: src/comm/HT_Exchange.hpp (its HeldCharge member), tests/runtime/tstHeldBytes.cpp.
#include <algorithm>
#include <array>
#include <cstdint>

namespace ht {

/// \brief The kinds of bytes a rank holds that the results report.
enum class Held { graph, exchange, search };
/// \brief How many kinds there are (for loops over Held).
inline constexpr int kHeldKinds = 3;

/// \brief "graph", "exchange" or "search" (the results file's names).
const char* held_name(Held what);

/// \brief Bytes of one kind: held now, and the most held at once since the
/// last held_reset_high() (or since the process started).
struct HeldBytes {
  std::int64_t now = 0;   ///< held at this moment
  std::int64_t high = 0;  ///< the high-water mark
};

/// \brief Adds \p bytes (negative: releases) to what this rank holds of \p what.
void held_add(Held what, std::int64_t bytes);
/// \brief What this rank holds of \p what.
HeldBytes held_bytes(Held what);
/// \brief Starts a new high-water mark for every kind from what is held now
/// (a driver calls it before each phase it reports).
void held_reset_high();

/// \brief The most a rank held at once of each kind (indexed by Held).
using HeldHighs = std::array<long long, kHeldKinds>;

/// \brief Raises each of \p into to this rank's high-water mark of its kind
/// since the last held_reset_high().
inline void fold_held_highs(HeldHighs& into) {
  for (int k = 0; k < kHeldKinds; ++k)
    into[k] = std::max<long long>(into[k], held_bytes(static_cast<Held>(k)).high);
}

/// \brief A charge that follows one owner's allocation: set() moves it to
/// the owner's current size, the destructor releases it.  Movable, so it can
/// live beside the container it counts.
class HeldCharge {
 public:
  explicit HeldCharge(Held what) : what_(what) {}
  ~HeldCharge() { set(0); }
  HeldCharge(HeldCharge&& o) noexcept : what_(o.what_), bytes_(o.bytes_) { o.bytes_ = 0; }
  HeldCharge& operator=(HeldCharge&& o) noexcept {
    if (this != &o) {
      set(0);
      what_ = o.what_;
      bytes_ = o.bytes_;
      o.bytes_ = 0;
    }
    return *this;
  }
  HeldCharge(const HeldCharge&) = delete;
  HeldCharge& operator=(const HeldCharge&) = delete;

  /// \brief The owner now holds \p bytes (the difference is charged).
  void set(std::int64_t bytes) {
    if (bytes != bytes_) held_add(what_, bytes - bytes_);
    bytes_ = bytes;
  }
  /// \brief What this charge holds.
  std::int64_t bytes() const { return bytes_; }

 private:
  Held what_;
  std::int64_t bytes_ = 0;
};

}  // namespace ht
