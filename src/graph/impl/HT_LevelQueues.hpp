#pragma once
// The level state of the queue-based variants (mpi, nonlocking): a plain
// visited bitmap, the frontier being expanded (oldq) and the next one
// (newq), filled in discovery order as the Graph500 reference does.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht::impl {

/// Sets j's bit in \p seen; true if it was already set.
inline bool test_and_set(std::uint64_t* seen, std::int64_t j) {
  std::uint64_t& word = seen[j >> 6];
  const std::uint64_t bit = std::uint64_t(1) << (j & 63);
  const bool was = word & bit;
  word |= bit;
  return was;
}

struct LevelQueues {
  std::vector<std::uint64_t> seen;
  std::vector<std::int64_t> oldq, newq;

  /// Sized once for \p n local vertices.
  explicit LevelQueues(std::int64_t n) : seen(static_cast<std::size_t>((n + 63) / 64)) {
    oldq.reserve(n);
    newq.reserve(n);
  }
  /// Marks j reached from u unless it was; true if it was not.
  bool visit(std::int64_t j, std::int64_t u, std::vector<std::int64_t>& pred) {
    if (test_and_set(seen.data(), j)) return false;
    pred[j] = u;
    newq.push_back(j);
    return true;
  }
  /// A new search from \p root: nothing seen, and oldq holds the root if
  /// it is this rank's (its own parent).
  void restart(const VertexRange& r, std::int64_t root, std::vector<std::int64_t>& pred) {
    std::fill(seen.begin(), seen.end(), 0);
    oldq.clear();
    newq.clear();
    if (r.mine(root)) visit(r.local(root), root, pred);
    advance();
  }
  /// newq becomes the frontier.
  void advance() {
    oldq.swap(newq);
    newq.clear();
  }
};

}  // namespace ht::impl
