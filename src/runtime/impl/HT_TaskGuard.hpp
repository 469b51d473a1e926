#pragma once
/// \file HT_TaskGuard.hpp
/// \brief What both task runtimes share: the error policy
/// around every task body, and the pool size a deck's Runtime/pool_MiB is
/// checked against.
///
/// An exception escaping a task body (ht::Error from the exchange,
/// std::bad_alloc from a push_back) would reach the OpenMP region the task
/// runs in and end in std::terminate with no word of which rank failed or why;
/// instead the rank prints "<app>: rank R: error: <what>" and the whole job
/// aborts (exit 1).
#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskPriority.hpp"

namespace ht {

namespace impl {
/// The granule of Kokkos' task memory pool (its superblock).
constexpr std::size_t kPoolSuperblock = std::size_t(1) << 16;

/// A pool that holds \p live tasks of \p task_bytes at once plus their
/// when_all nodes, with room for the pool's per-size superblocks: what Kokkos'
/// pool needs, and, on a runtime without a pool, the figure a deck's
/// Runtime/pool_MiB is still checked against, so that a deck runs on either.
inline std::size_t pool_bytes_for(std::size_t task_bytes, std::size_t live) {
  std::size_t block = 64;
  while (block < task_bytes) block *= 2;
  const std::size_t need = 2 * live * block + live * sizeof(void*) + 8 * kPoolSuperblock;
  return need < 16 * kPoolSuperblock ? 16 * kPoolSuperblock : need;
}

/// Ends the job for an exception that escaped a task body (see above).
[[noreturn]] void task_failed(const std::string& what);

/// Runs \p f() under the error policy: also for work that an OpenMP region
/// runs without a task (impl/HT_ChunkTask.hpp's team_chunks).
template <class F>
void guarded(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    task_failed(error_words(e));  // out of memory: the phase and the bytes
  } catch (...) {
    task_failed("a task threw an exception that is not a std::exception");
  }
}

/// Functor \p F's body under the error policy.  Derived, not wrapping, so
/// that F keeps its layout and value_type, and a runtime can find its task
/// record from F's \c this (respawn).
template <class F>
struct Guarded : F {
  explicit Guarded(F f) : F(std::move(f)) {}
  template <class Member, class... Result>
  void operator()(Member& member, Result&... result) {
    guarded([&] { F::operator()(member, result...); });
  }
};
}  // namespace impl

}  // namespace ht
