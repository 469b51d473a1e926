#pragma once
/// \file HT_Csr2D.hpp
/// \brief Graph500 kernel 1's graph in the 2D partition: rank (i, j) of an
/// R x C grid (HT_Grid2D.hpp) holds the adjacency between row block i and
/// column block j (Buluç and Madduri, SC11; Beamer, Buluç, Asanović and
/// Patterson, IPDPS-W 2013).
///
/// Vertices keep their 1D owners (VertexRange, HT_Csr.hpp): rank k owns
/// piece k, [k p, (k + 1) p).  A grid's spare ranks (HT_Grid2D.hpp) own no
/// vertex (kernel 1 builds the CSR with owners = R C) and hold no block;
/// they only join the collectives over the whole grid with nothing of their
/// own (a level's or phase's agreement, the validators' exchange steps).  Row block i is the pieces
/// of grid row i's ranks (pieces i C .. i C + C - 1, one contiguous range of about N / R vertices);
/// column block j is the pieces of grid column j's ranks (pieces j, C + j, ..., about N / C
/// vertices).  So what is gathered along a grid row spans row block i, along a grid column column
/// block j, and a vertex of either block is owned in this rank's grid row or column: a search talks
/// to R + C - 2 peers.  A search's parents lie where the 1D CSR's do.
///
/// Each entry is held once, by row: each row-block vertex's neighbours in
/// the column block, in the 1D row's order (hubs first after order_rows).
/// Both directions of a search work from it (HT_Bfs2D.cpp): a bottom-up
/// step scans the rows of unvisited vertices against the column block's
/// frontier; a top-down step, the graph being undirected, scans the rows
/// of the row block's frontier vertices, whose targets lie in the column
/// block, and sends each find along the grid column to its owner.  A second
/// orientation would double the entries, and with the 1D CSR's targets
/// beside them the graph took 2.9 times 1D's bytes; so a 2D run keeps this
/// block alone, with the weights beside its entries when kernel 3 runs:
/// construct_graph frees the 1D CSR's targets and weights, and the 2D forms
/// of validate_bfs, DeltaStepping2D and validate_sssp read the block.
/// Block indices give each piece a slot of piece_bits bits (p rounded up
/// to a word), so a block's bitmap is its pieces' bitmaps side by side.
/// Memory per rank: the block's entries (2M / P, 4 bytes each, 8 with a
/// weight), the owned vertices' degrees (N / P) and offsets for the
/// non-empty rows only (HT_BlockOffsets.hpp: 1.5 bits a slot of the N / R,
/// 8 bytes a non-empty one); no array spans N, N / R or N / C entries.
///
/// Examples: src/graph/bfs/HT_Bfs2D.cpp, tests/graph/tstCsr2D.cpp.
#include <cstdint>
#include <vector>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_BlockOffsets.hpp"
#include "graph/HT_Csr.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

/// \brief A row or column index in a block: 32 bits, half the entries'
/// memory, for blocks of up to 2^32 rows and columns (SCALE 32 on a 1 x P
/// grid; build_csr_2d refuses more).
using BlockIndex = std::uint32_t;

/// \brief This rank's block of the 2D partition (see the file comment).
struct Csr2D {
  VertexRange range;             ///< the vertices' owners: the 1D distribution over R C ranks
  GridShape shape;               ///< R x C
  int row = 0, col = 0;          ///< this rank's place in the grid (-1 on a spare rank)
  std::int64_t piece_bits = 64;  ///< one piece's slot in a block index: range.per_rank, in words
  /// Row-block vertex r's neighbours in the column block (column indices):
  /// row_targets over row_offsets[r]; in the 1D row's order, so a row
  /// ordered by degree (order_rows) keeps its hub first.
  BlockOffsets row_offsets;
  std::vector<BlockIndex> row_targets;
  /// The entries' weights beside row_targets (kernel 3), when the 1D CSR
  /// had them; else empty.
  std::vector<float> row_weights;
  /// The whole degree of each vertex this rank owns (its 1D row's length).
  std::vector<std::int64_t> degree;

  /// \brief Slots in the row block (C pieces) and the column block (R pieces).
  std::int64_t row_slots() const { return shape.cols * piece_bits; }
  std::int64_t col_slots() const { return shape.rows * piece_bits; }
  /// \brief The row index of \p v (a vertex of this rank's row block).
  std::int64_t row_index(std::int64_t v) const {
    const int o = range.owner(v);
    return (o % shape.cols) * piece_bits + (v - o * range.per_rank);
  }
  /// \brief The column index of \p u (a vertex of this rank's column block).
  std::int64_t col_index(std::int64_t u) const {
    const int o = range.owner(u);
    return (o / shape.cols) * piece_bits + (u - o * range.per_rank);
  }
  /// \brief The vertex at row index \p r.
  std::int64_t row_vertex(std::int64_t r) const {
    const std::int64_t t = r / piece_bits;
    return (row * shape.cols + t) * range.per_rank + r % piece_bits;
  }
  /// \brief The vertex at column index \p c.
  std::int64_t col_vertex(std::int64_t c) const {
    const std::int64_t s = c / piece_bits;
    return (s * shape.cols + col) * range.per_rank + c % piece_bits;
  }
  /// \brief Directed edges (adjacency entries) this rank's block holds.
  std::int64_t entries() const { return static_cast<std::int64_t>(row_targets.size()); }
  /// \brief Bytes the block holds (targets, weights, offsets, degrees).
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(row_targets.size() * sizeof(BlockIndex) +
                                     row_weights.size() * sizeof(float) +
                                     degree.size() * sizeof(std::int64_t)) +
           row_offsets.bytes();
  }
  /// bytes(), charged to Held::graph while the block lives (build_csr_2d sets it).
  HeldCharge held{Held::graph};
};

/// \brief The 2D blocks of the 1D CSR \p g on \p grid (collective; the
/// grid's ranks are g's, its R C ranks g's owners).  Row v's entries stay in v's grid row, so each
/// rank's rows travel along its grid row (peer_exchange), packed in rounds
/// of at most \p round_entries entries (8 bytes each, 16 with a weight) a
/// rank.  Works for any kernel-1 graph (generated or read from a file),
/// ordered or not; the block has weights where \p g has.
Csr2D build_csr_2d(const Csr& g, const Grid2D& grid,
                   std::int64_t round_entries = std::int64_t(1) << 22);
/// \brief build_csr_2d() that frees \p g's targets, weights and split once
/// their entries have left, before the block is sorted (\p g keeps its
/// offsets: degrees): kernel 1 then never holds the 1D entries, the arriving
/// ones and the block at once.
Csr2D move_to_csr_2d(Csr& g, const Grid2D& grid,
                     std::int64_t round_entries = std::int64_t(1) << 22);

}  // namespace ht
