#pragma once
/// \file HT_ClaimLevel.hpp
/// \brief A top-down level of a ChunkedSearch whose tasks claim each local
/// find with one atomic operation, so that no vertex is visited twice.
///
/// Examples: src/graph/bfs/HT_BfsAtomic.cpp, src/graph/bfs/HT_BfsHybrid.cpp.
#include <cstddef>

#include "graph/bfs/impl/HT_ChunkedSearch.hpp"

namespace ht::impl {

/// \brief Chunk \c chunk of \c chunks of the frontier's edges, each local
/// find claimed with one atomic fetch_or on its visited bit.
struct ClaimTask {
  using value_type = void;
  ChunkedSearch* s;
  std::size_t chunk, chunks;
  int iteration;
  /// \brief The task body.
  void operator()(TaskMember&) const { run(); }
  /// \brief The chunk's work, beside other tasks of the level.
  void run() const;
  /// \brief The chunk's work when it is the level's only one, on the calling
  /// thread: plain claims, no atomics.
  void run_alone() const;
};

/// \brief One top-down level's chunks of \p s, a ClaimTask each, spawned on
/// \p rt and waited for; each task's record merged into the profile's
/// \p iteration.  A level of fewer edges than a few chunks runs on the calling thread
/// (ClaimTask::run_alone).  Then the caller ends the level (ChunkedSearch::end_top_down).
void claim_level(ChunkedSearch& s, TaskRuntime& rt, int iteration);

}  // namespace ht::impl
