#pragma once
/// \file HT_RowOrder.hpp
/// \brief Kernel 1's row layout for the searches: each row's neighbours
/// ordered by degree, highest first, and duplicate edges dropped.
///
/// A bottom-up BFS step scans an unvisited vertex's neighbours until one is
/// in the frontier; hubs are in the frontier soonest, so with hubs first the
/// scan stops after about one edge (Yasui, Fujisawa, Sato, "Fast and
/// scalable NUMA-based thread parallel breadth-first search", HPCS 2015).
/// Duplicates change no search; dropping them (SSSP keeps the lightest)
/// saves their scans.  The TEPS edge count still counts them (Csr::dropped).
///
/// Example: tests/graph/tstRowOrder.cpp.
#include <mpi.h>

#include "graph/HT_Csr.hpp"
#include "runtime/HT_Choices.hpp"

namespace ht {

/// \brief How kernel 1 lays out each row (Graph500/row_order).
enum class RowOrder {
  degree,  ///< order_rows: hubs first, duplicates dropped
  input    ///< as the edges came (kernel 1 then drops duplicates by drop_duplicates)
};
/// \brief Graph500/row_order's names (runtime/HT_Choices.hpp).
inline constexpr Choices<RowOrder, 2> kRowOrders{
    {{RowOrder::degree, "degree"}, {RowOrder::input, "input"}}};

/// \brief Orders every row's local and remote parts (Csr::split) by their
/// targets' degree, highest first (ties by id), and drops repeated targets
/// (keeping the lightest weight), counting them in Csr::dropped (a second
/// call adds nothing).  Collective.  Where the degree exchange would pass
/// MPI's int counts, remote parts are ordered by id alone, on every rank.
/// \throws UsageError if the rows are not split (a CSR made by hand).
void order_rows(Csr& g, MPI_Comm comm);

}  // namespace ht
