#pragma once
/// \file HT_Graph500Memory.hpp
/// \brief graph500_bfs's memory known up front: a rank's peak resident
/// bytes as a function of its configuration (AppSpec::memory), checked by
/// run_app before kernel 1 (app/HT_MemoryCheck.hpp).
///
/// The model, per rank of P, for n = 2^SCALE vertices, m = edgefactor n
/// edges, its n/P vertices and E = 2m/P adjacency entries (each edge is
/// stored twice), t = 4 or 8 bytes a target (HT_Targets.hpp), w = 4 bytes a
/// weight when SSSP runs; the peak is kBaselineBytes plus the task pool plus
/// the largest of the phases:
///  - kernel 1: the CSR ((t + w) E + 20 n/P: offsets, split, dropped)
///    while a piece of 2^20 edges is generated and travels (kPieceBytes an
///    edge, half as much more with weights), then while order_rows asks the targets'
///    degrees (4 bytes an entry of a round of 2^24, 8 more a remote one; 20
///    a vertex);
///  - the 2D block (partition 2d): the CSR and the block's entries once
///    (4 E, and its row offsets), its rows while they arrive (8 E) and a
///    round in flight; then, unless SSSP reads it, the CSR's offsets only;
///  - the searches: the graph, kSearchVertexBytes a local
///    vertex (parents, queues, the validator's levels and tree), the
///    frontier bitmaps (n/8 bytes in 1D; n/(8R) + n/(8C) in 2D), the
///    coalescing buffers (16 bytes a pair, a buffer per destination and
///    thread), one rank's BFS team lists (16 bytes a vertex and thread, at
///    most 2^16 vertices); SSSP's sent filter (t E / 2) and its per-vertex state.
/// The CSR dominates from SCALE 20 on one rank; below it the baseline.
/// Measured peak over estimate (run/peak_rss_bytes over run/estimated_bytes):
/// see docs/results.md and the test graph500_memory_estimate.
///
/// Example: tests/drivers/tstMemoryEstimates.cpp.
#include <cstdint>

#include "drivers/graph500/HT_Graph500Config.hpp"
#include "runtime/HT_MemoryBudget.hpp"

namespace ht {

/// \brief Bytes a rank's searches hold per local vertex beside the graph
/// (the model above; measured, docs/results.md: run/estimated_bytes).
inline constexpr std::uint64_t kSearchVertexBytes = 64;
/// \brief Bytes an edge of kernel 1's piece takes while generated, sent and
/// placed: 16 generated, twice while the next piece replaces it, 32 each way
/// and 32 sorted into blocks of rows (HT_Csr.cpp); a weighted edge takes 24,
/// so 1.5 times as much.
inline constexpr std::uint64_t kPieceBytes = 128;

/// \brief The estimate of the most loaded rank of \p ranks (each with
/// \p threads Kokkos threads) for \p cfg, and what would fit in \p budget
/// bytes a rank: the largest SCALE on these ranks, or the ranks this
/// SCALE needs.
MemoryEstimate graph500_memory(const Graph500Config& cfg, int ranks, int threads,
                               std::uint64_t budget);

/// \brief The model's graph bytes a rank holds through the searches (the
/// CSR, or in 2D the block and what it leaves of the CSR) for \p cfg on \p ranks
/// (in 2D on cfg's grid if it holds \p ranks ranks, else on auto_grid's).
double graph500_graph_bytes(const Graph500Config& cfg, int ranks);

/// \brief graph500_memory of the run \p deck describes under \p env
/// (graph500_spec's AppSpec::memory).
MemoryEstimate graph500_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                                    std::uint64_t budget);

}  // namespace ht
