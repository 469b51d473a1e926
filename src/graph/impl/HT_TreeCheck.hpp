#pragma once
/// \file HT_TreeCheck.hpp
/// \brief What the BFS and SSSP validators share: owner-computes steps
/// through the coalescing exchange, the tree's levels recomputed from the
/// parent array alone, and one verdict agreed by all ranks.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "comm/HT_Exchange.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Validate.hpp"

namespace ht::impl {

constexpr std::int32_t kUnreached = -1, kBroken = -3, kPending = -4;

// What a vertex's entries say, by one rule that every pass of a validator
// calls, so that no two passes can read one answer two ways.
enum class Reach { reached, unreached, invalid };

// BFS: a parent is a vertex id; unreached is exactly -1.
inline Reach bfs_reach(std::int64_t parent) {
  return parent >= 0 ? Reach::reached : parent == -1 ? Reach::unreached : Reach::invalid;
}

// SSSP: reached is a parent and a finite distance >= 0; unreached is exactly
// parent -1 and distance +inf; any other pair (a negative or NaN distance, a
// finite one without a parent, +inf with one) is invalid.
inline Reach sssp_reach(std::int64_t parent, float dist) {
  if (parent >= 0) return std::isfinite(dist) && dist >= 0.0f ? Reach::reached : Reach::invalid;
  return parent == -1 && dist == std::numeric_limits<float>::infinity() ? Reach::unreached
                                                                        : Reach::invalid;
}
// Pairs per coalescing buffer: validation moves (vertex, value) pairs.
constexpr std::size_t kBufferItems = 4096;

// The checks address every rank, so a buffer a peer: kBufferItems up to 16
// ranks, then fewer (never below 256), so that they hold at most 1 MiB
// together whatever the number of ranks (docs/scaling.md#memory-per-rank).
inline std::size_t check_buffer_items(MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const std::size_t share = (std::size_t(1) << 20) / (16 * static_cast<std::size_t>(ranks));
  return std::clamp<std::size_t>(share, 256, kBufferItems);
}

// One step of owner-computes communication: items for other ranks go
// through the exchange, items for this rank are applied at once.
class Step {
 public:
  Step(Exchange& ex, int& phase, const VertexRange& r, const Exchange::Handler& apply)
      : ex_(ex), r_(r), apply_(apply) {
    ex_.begin_level(phase++);
  }
  void send(int dest, Exchange::Item item) {
    if (dest == r_.rank) {
      apply_(&item, 1);
    } else {
      ex_.push(dest, item, apply_);
    }
  }
  void finish() { ex_.end_level(apply_); }

 private:
  Exchange& ex_;
  const VertexRange& r_;
  const Exchange::Handler& apply_;
};

// Levels from parents, by the owners: every reached vertex tells its
// parent's owner that it is a child; then levels flow down the tree from the
// key, one round per level.  What no round reaches (a cycle, another root, an
// unreached or non-existent parent) is kBroken.  Memory: this rank's vertices
// and the tree's children of them, never a per-vertex array of the graph.
std::vector<std::int32_t> tree_levels(const Csr& g, std::int64_t key,
                                      const std::vector<std::int64_t>& pred, Exchange& ex,
                                      int& phase, MPI_Comm comm);

// Records a failed check in \p res, keeping the first one's message in
// \p first.
inline auto failure_recorder(Validation& res, std::string& first) {
  return [&res, &first](Validation::Check c, const std::string& why) {
    if (res.failed == 0) first = why;
    res.failed |= c;
  };
}

// Runs check(i, fail) for local rows [0, n) on every host worker, in
// contiguous blocks, fail being a failure_recorder of the block's own; the
// blocks' failures merge in row order, so \p first gets the lowest failing
// row's message, as one loop would give it.  check may read anything and
// write its own row's entries only.
template <class Check>
void check_rows(const char* name, std::int64_t n, Validation& res, std::string& first,
                Check&& check) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const std::int64_t blocks = std::max(1, 4 * Host().concurrency());
  std::vector<Validation> part(static_cast<std::size_t>(blocks));
  std::vector<std::string> part_first(static_cast<std::size_t>(blocks));
  Kokkos::parallel_for(name, Kokkos::RangePolicy<Host>(0, blocks), [&](std::int64_t b) {
    const auto fail = failure_recorder(part[b], part_first[b]);
    for (std::int64_t i = n * b / blocks, end = n * (b + 1) / blocks; i < end; ++i) check(i, fail);
  });
  Kokkos::fence();
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (part[b].failed && res.failed == 0) first = part_first[b];
    res.failed |= part[b].failed;
  }
}

// One verdict for all: the checks failed anywhere, the message of the
// lowest rank that failed, and the depth of the deepest level + 1.
void agree(Validation& res, std::string first, std::int32_t deepest, const VertexRange& r,
           MPI_Comm comm);

/// What both validations open with: an exchange of their own (on a
/// communicator of its own: nothing of a search's can meet it), and the
/// tree's levels from the parents alone (tree_levels).
struct TreeCheck {
  Exchange ex;
  int phase = 0;
  std::vector<std::int32_t> level;
  TreeCheck(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred, MPI_Comm comm)
      : ex(comm, check_buffer_items(comm)),
        level(tree_levels(g, key, pred, ex, phase, ex.comm())) {}
};

}  // namespace ht::impl
