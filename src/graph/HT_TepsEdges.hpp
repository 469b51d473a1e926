#pragma once
/// \file HT_TepsEdges.hpp
/// \brief The edge count of a search's TEPS (Graph500 specification 3.0):
/// the input edges within the searched component.
///
/// Example: tests/graph/tstGenerators.cpp.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht {

/// Input edges (self-loops excluded, duplicates counted) with both ends
/// reached in \p pred (this rank's part of a parent array, -1 unreached).
/// Collective.
std::int64_t component_edges(const Csr& g, const std::vector<std::int64_t>& pred, MPI_Comm comm);

}  // namespace ht
