#pragma once
/// \file HT_Graph500Outcome.hpp
/// \brief What a graph500_bfs run measured, and its two outputs: the 3.0
/// reference's block on stdout (then the study's columns), and the results
/// file's attributes and datasets (docs/results.md).  One pass per kernel.
///
/// Example: src/drivers/graph500/HT_Graph500Driver.cpp.
#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "drivers/graph500/HT_Graph500Config.hpp"
#include "drivers/graph500/HT_Search.hpp"
#include "graph/HT_Graph500Block.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

class Results;

/// \brief What a run measured: on every rank alike (reduced over ranks),
/// except BfsFigures::rank_bytes, level_times and the held bytes, this rank's own.
struct Graph500Outcome {
  Graph500Block header;            ///< kernel 1's: the block's header
  long long vertices = 0;          ///< the graph's vertices
  long long edges = 0;             ///< its input edges (self-loops dropped, for a file)
  long long stored_edges = 0;      ///< its edges in the CSR (duplicates, self-loops dropped)
  int target_bits = 32;            ///< bits per stored target (Csr::targets)
  long long graph_bytes = 0;       ///< this rank's: the CSR and its 2D block
  std::vector<std::int64_t> keys;  ///< the search keys
  /// The keys as the graph file names them (Graph500/relabel), else the keys.
  std::vector<std::int64_t> file_keys;
  int tasks_per_rank = 1;  ///< the BFS variant's
  BfsFigures bfs;          ///< kernel 2's, per key (empty when it did not run)
  SsspFigures sssp;        ///< kernel 3's, per key (empty when it did not run)
  /// This rank's most held at once by kind (Held), in kernel 1, in the
  /// searches (kernels 2 and 3) and in their validation: HT_HeldBytes.hpp.
  HeldHighs held_kernel1{}, held_searches{}, held_validation{};
};

/// \brief The 3.0 reference's block for the kernels that ran, then the
/// study's columns (rank 0 calls it).
void report_graph500(const Graph500Config& cfg, const Graph500Outcome& out, std::FILE* f);

/// \brief The run's attributes and datasets (docs/results.md).
void write_graph500(const Graph500Config& cfg, const Graph500Outcome& out, Results& r);

}  // namespace ht
