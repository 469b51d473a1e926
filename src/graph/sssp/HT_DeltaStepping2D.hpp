#pragma once
/// \file HT_DeltaStepping2D.hpp
/// \brief Kernel 3 on the 2D partition (HT_Csr2D.hpp, with weights):
/// delta-stepping (HT_DeltaStepping.hpp) over the level scheme of the 2D BFS
/// (HT_Bfs2D.cpp), so that a 2D run keeps one copy of the graph.
///
/// Buckets, variants and the bucket rule are the 1D search's; each rank
/// keeps the distances of the vertices it owns in the 1D VertexRange, and
/// the answer is the 1D one.  A phase takes the agreed bucket's live
/// vertices and moves in three steps:
///  1. expand: each rank's taken vertices and their distances are gathered
///     along its grid row (one allgather of one word each), since their
///     rows' entries lie in the row block, spread over the grid row;
///  2. relax: each rank relaxes its block's entries of those rows (chunks of
///     the gathered list on the rank's threads) and sends each candidate
///     (vertex, distance, parent) to the target's owner, a rank of its grid
///     column (comm/HT_PeerExchange), unless it sent that vertex a distance
///     of an earlier bucket (impl/HT_SentFilter, by column index); a phase's
///     entries go in rounds of at most SsspOptions::round_entries summed
///     over the grid column, so what a rank sends or receives a round is
///     bounded whatever R and the frontier (a hub's row goes whole);
///  3. settle: the owner keeps a candidate strictly shorter than its
///     vertex's distance and puts the vertex in its bucket; one allreduce
///     then agrees on the next phase's bucket (a sum on the grid column
///     agrees on the rounds).
/// So a phase talks to R + C - 2 peers, where the 1D search's level end
/// talks to the ranks it sent to; a spare rank (HT_Grid2D.hpp) takes part
/// in the allreduce alone.  Buckets are an ordered map of the
/// non-empty ones: O(N/P + M/P) a rank whatever the weights and delta; a
/// bucket index saturates as the 1D one does.  A phase's gathered rows take
/// 24 bytes a frontier vertex of the row block, up to N/R (as the 2D BFS's
/// row list), charged as search memory with the candidates' buffers.
///
/// Examples: src/drivers/graph500/HT_Search.cpp, tests/graph/sssp/tstSsspShapes.cpp.
#include <mpi.h>

#include <memory>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"

namespace ht {

/// \brief The bucket width auto_delta() gives the block's graph (collective):
/// the same rule on the same entries, so the same width as the 1D CSR's.
double auto_delta(const Csr2D& g, MPI_Comm comm);

/// \brief Delta-stepping on one weighted 2D block: searches from any root.
class DeltaStepping2D {
 public:
  /// \brief Collective over \p grid's ranks.  Throws ht::UsageError where
  /// \p g has no weights, more than 2^32 vertices, or delta is negative or
  /// not finite.  SsspOptions::chunks bounds a phase's chunks, and
  /// sent_filter_bytes the sent filter (0: half the block's target bytes);
  /// buffer_items and window are the 1D search's own.
  DeltaStepping2D(const Csr2D& g, const Grid2D& grid, const SsspOptions& opt);
  ~DeltaStepping2D();
  DeltaStepping2D(const DeltaStepping2D&) = delete;
  DeltaStepping2D& operator=(const DeltaStepping2D&) = delete;

  /// Shortest paths from \p root (collective); valid until the next search.
  const SsspResult& search(std::int64_t root);
  /// The bucket width the searches use (SsspOptions::delta, or auto_delta's).
  double delta() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ht
