#pragma once
/// \file HT_SearchKeys.hpp
/// \brief The search keys of a Graph500 run: distinct vertices with at least
/// one edge, drawn from a seeded permutation, the same on every rank count.
///
/// Example: src/drivers/graph500/HT_Graph500Driver.cpp.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht {

/// Up to \p count distinct search keys of degree >= 1 (self-loops not
/// counted), drawn from a seeded permutation of the vertices.  Collective.
std::vector<std::int64_t> search_keys(const Csr& g, int count, std::uint64_t seed, MPI_Comm comm);

}  // namespace ht
