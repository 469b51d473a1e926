#pragma once
/// \file HT_TeamBarrier.hpp
/// \brief A barrier of a rank's threads inside one parallel region (a team
/// run of a BFS's small levels, impl/HT_ChunkedSearch.hpp), that waits as
/// HT_Wait.hpp's Backoff does: spin, then yield, then sleep.
///
/// Kokkos' team barrier sleeps after a few microseconds of spinning, and a
/// thread that slept at a level's barrier woke tens of microseconds late,
/// every level: as much as a grid's level costs.  Here a waiter spins, then
/// yields for up to kYieldSeconds, and sleeps only after that (a thread
/// waiting while another searches levels alone gives its core away).
///
/// Example: src/graph/bfs/impl/HT_ChunkedSearch.cpp (team_levels).
#include <atomic>

#include "comm/HT_Wait.hpp"

namespace ht {

/// \brief A reusable barrier of \c size threads: the last to arrive lets the
/// others go, and its arrival orders their writes before it (acquire,
/// release).
class TeamBarrier {
 public:
  /// \brief Spins (pause) before yielding.
  static constexpr int kSpins = 1 << 12;
  /// \brief Seconds of yielding before sleeping.
  static constexpr double kYieldSeconds = 1e-3;

  /// \brief A barrier of \p size threads.
  explicit TeamBarrier(int size) : size_(size) {}

  /// \brief Returns once all \c size threads have called it (once each per round).
  void wait() {
    // Read before arriving: the last arrival moves it on only after this one.
    const int round = round_.load(std::memory_order_relaxed);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == size_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      round_.store(round + 1, std::memory_order_release);
      return;
    }
    Backoff backoff(kSpins, kYieldSeconds);
    while (round_.load(std::memory_order_acquire) == round) backoff.pause();
  }

 private:
  const int size_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<int> round_{0};
};

}  // namespace ht
