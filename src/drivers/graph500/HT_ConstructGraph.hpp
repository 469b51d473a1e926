#pragma once
/// \file HT_ConstructGraph.hpp
/// \brief Graph500 kernel 1 as the driver runs it: the distributed CSR from
/// the deck's generator (Kronecker, uniform or grid), or from a graph file,
/// each neighbour once in a row, with weights when kernel 3
/// runs, timed as the specification asks (generation or reading apart from
/// construction, each the slowest rank's).
///
/// Example: src/drivers/graph500/HT_Graph500Driver.cpp.
#include <mpi.h>

#include <cstdio>
#include <memory>

#include "comm/HT_Grid2D.hpp"
#include "drivers/graph500/HT_Graph500Config.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_Graph500Block.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

/// \brief Kernel 1's graph and what the report says of it.
struct Graph500Graph {
  /// The 1D CSR; with a 2D block, its offsets and dropped counts only
  /// (degrees, for the keys and TEPS): the block is the graph.
  Csr csr;
  HeldCharge csr_held{Held::graph};  ///< csr.bytes(), charged as the graph's
  /// Graph500/partition = 2d: the grid of ranks and this rank's block of
  /// the same graph, with weights when kernel 3 runs (kernels 2 and 3
  /// search it, and their validators read it).
  std::unique_ptr<Grid2D> grid;
  Csr2D blocks;
  long long vertices = 0;      ///< the graph's vertices
  long long edges = 0;         ///< its input edges (self-loops dropped, for a file)
  long long stored_edges = 0;  ///< the CSR's, duplicates and self-loops dropped
  int target_bits = 32;        ///< bits per stored target (Csr::targets)
  /// The file's id of each vertex when Graph500/relabel numbered them anew
  /// (EdgeFile::original_ids); else empty.
  std::vector<std::int64_t> original_ids;
  /// \brief \p v as the file names it (itself unless relabelled).
  long long file_id(std::int64_t v) const {
    return original_ids.empty() ? v : original_ids[static_cast<std::size_t>(v)];
  }
  /// The reference block's header: SCALE and edgefactor (a file's graph's
  /// own), ranks, and the slowest rank's generation (or reading) and
  /// construction seconds; no search figures.
  Graph500Block header;
};

/// \brief Kernel 1 (collective): throws ht::Error for a bad file (naming the
/// file and line) and UsageError for a file too large for the deck's rules.
/// A line to \p log (if not null) as each phase starts.
Graph500Graph construct_graph(const Graph500Config& cfg, MPI_Comm comm, std::FILE* log = nullptr);

}  // namespace ht
