#pragma once
/// \file HT_Csr.hpp
/// \brief Graph500 kernel 1: the undirected graph as a distributed CSR.
///
/// 1D block distribution: rank r owns vertices [r*p, (r+1)*p), p = ceil(n/O),
/// O the owning ranks: every rank, or the first R C for a 2D grid with spare
/// ranks (HT_Grid2D.hpp), which own none.
/// Each input edge {u, v} is stored in both directions (u's row and v's row);
/// self-loops are dropped (they never change a BFS); duplicates stay, as the
/// input has them, until order_rows (HT_RowOrder.hpp) or drop_duplicates
/// drops them, as kernel 1 does.  Vertex ids and local indices are
/// 64-bit in every interface; the stored targets take 32 bits when the vertex count allows
/// (HT_Targets.hpp).
///
/// Examples: src/drivers/graph500/HT_ConstructGraph.cpp, tests/graph/tstCsr.cpp.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_GridGraph.hpp"
#include "graph/HT_Kronecker.hpp"
#include "graph/HT_Targets.hpp"
#include "graph/HT_UniformRandom.hpp"

namespace ht {

/// Which rank owns which vertices.
struct VertexRange {
  std::int64_t n_global = 0, per_rank = 1;
  int rank = 0, size = 1;
  int owners = 1;  ///< the ranks that own vertices, the first of the communicator's

  VertexRange() = default;
  /// \brief \p n vertices over the first \p owners ranks of \p comm (0:
  /// every rank; fewer: the others own none).
  VertexRange(std::int64_t n, MPI_Comm comm, int owners = 0);
  /// The same distribution seen from rank \p r.
  VertexRange of_rank(int r) const;
  /// v / per_rank by a multiply and a correction: a 64-bit division costs
  /// tens of cycles, and this runs once per remote edge (exact for v < 2^53).
  int owner(std::int64_t v) const {
    std::int64_t q = static_cast<std::int64_t>(static_cast<double>(v) * inverse_);
    if (q * per_rank > v)
      --q;
    else if ((q + 1) * per_rank <= v)
      ++q;
    return static_cast<int>(q);
  }
  std::int64_t first() const { return first_; }
  std::int64_t local_count() const { return end_ - first_; }
  std::int64_t local(std::int64_t v) const { return v - first_; }
  std::int64_t global(std::int64_t local_index) const { return first_ + local_index; }
  /// Two compares, no division: this runs once per edge.
  bool mine(std::int64_t v) const { return v >= first_ && v < end_; }

 private:
  void bounds();
  std::int64_t first_ = 0, end_ = 0;
  double inverse_ = 1.0;  // 1 / per_rank
};

struct Csr {
  VertexRange range;
  std::vector<std::int64_t> offsets;  ///< local_count + 1 entries
  Targets targets;                    ///< global ids of the neighbours
  /// The edges' weights beside their targets (kernel 3); empty when the
  /// graph was built without them, so a BFS-only run pays nothing.
  std::vector<float> weights;
  /// Kernel 1 puts the targets this rank owns first in each row: row i's
  /// local targets are [offsets[i], local_end(i)), its remote ones follow.
  /// Kernels then tell them apart by position, not by an owner test per
  /// edge, which on several ranks is a coin toss (a mispredicted branch for
  /// every other edge).  Empty on one rank: every target is local.
  std::vector<std::int64_t> split;
  /// Input edges each row had beyond its targets: duplicates that
  /// order_rows (HT_RowOrder.hpp) or drop_duplicates dropped.  Empty if
  /// neither has run.
  /// The TEPS edge count counts them, as the specification does.
  std::vector<std::uint32_t> dropped;
  /// Whether rows are laid out as above (kernel 1 does it; a CSR put
  /// together by hand on several ranks may not be).
  bool split_rows() const { return range.size == 1 || split.size() + 1 == offsets.size(); }
  std::int64_t local_end(std::int64_t local_index) const {
    return split.empty() ? offsets[local_index + 1] : split[local_index];
  }
  std::int64_t degree(std::int64_t local_index) const {
    return offsets[local_index + 1] - offsets[local_index];
  }
  /// \brief The neighbours of local vertex \p local_index, as global ids.
  std::vector<std::int64_t> neighbours(std::int64_t local_index) const;
  /// \brief Bytes the CSR holds.
  std::int64_t bytes() const {
    return static_cast<std::int64_t>((offsets.size() + split.size()) * sizeof(std::int64_t) +
                                     targets.bytes() + weights.size() * sizeof(float) +
                                     dropped.size() * sizeof(std::uint32_t));
  }
};

/// This rank's slice [first, last) of the m input edges: an even split.
std::pair<std::int64_t, std::int64_t> edge_slice(std::int64_t m, MPI_Comm comm);

/// Builds the CSR from every rank's slice of the edge list (collective).
/// Edges travel in pieces of at most \p chunk per rank, twice (a pass counts
/// each row's degree, a second places the targets), so besides \p edges and
/// the CSR a rank holds one piece in flight.  The first \p owners ranks own
/// the vertices (VertexRange; 0: every rank), every rank's edges count.
Csr build_csr(const std::vector<Edge>& edges, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk = std::int64_t(1) << 22, TargetBits bits = TargetBits::automatic,
              int owners = 0);
/// The same with weights (Csr::weights).
Csr build_csr(const std::vector<WeightedEdge>& edges, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk = std::int64_t(1) << 22, TargetBits bits = TargetBits::automatic,
              int owners = 0);
/// The same from the \p m edges at \p edges, wherever they are held.
Csr build_csr(const Edge* edges, std::size_t m, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk = std::int64_t(1) << 22, TargetBits bits = TargetBits::automatic,
              int owners = 0);
/// The same with weights.
Csr build_csr(const WeightedEdge* edges, std::size_t m, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk = std::int64_t(1) << 22, TargetBits bits = TargetBits::automatic,
              int owners = 0);
/// Kernel 1 from the generator \p gen (Kronecker, UniformRandom or GridGraph),
/// without an edge list: each rank generates
/// its slice (edge_slice) in pieces of at most \p chunk edges, once per pass,
/// so its peak is the CSR plus one piece (2^20 edges: 16 MiB generated, 32
/// MiB each way in flight; pieces of 2^22 cost 190 MiB more per rank at
/// SCALE 22 and were no faster).  The same graph as
/// build_csr(gen.edges(slice), ...) on any rank count.  Adds the seconds
/// spent generating (both passes) to \p generation_seconds if not null.
/// \p owners as build_csr's: every rank generates its slice.
template <class Generator>
Csr build_csr(const Generator& gen, MPI_Comm comm, double* generation_seconds = nullptr,
              TargetBits bits = TargetBits::automatic, std::int64_t chunk = std::int64_t(1) << 20,
              int owners = 0);
/// Kernel 1 with the generator's weights (e.g. Kronecker::weighted_edge)
/// beside the targets, for SSSP: 4 bytes more per stored edge, 8 in flight.
template <class Generator>
Csr build_weighted_csr(const Generator& gen, MPI_Comm comm, double* generation_seconds = nullptr,
                       TargetBits bits = TargetBits::automatic,
                       std::int64_t chunk = std::int64_t(1) << 20, int owners = 0);

/// \brief Drops each row's repeated targets in place, keeping the first in
/// row order with the lightest weight, and counts them in Csr::dropped as
/// order_rows (HT_RowOrder.hpp) does, which kernel 1 runs instead when it
/// orders rows by degree.  Local, no communication.
void drop_duplicates(Csr& g);

}  // namespace ht
