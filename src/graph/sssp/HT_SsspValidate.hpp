#pragma once
/// \file HT_SsspValidate.hpp
/// \brief Validation of a shortest-path tree (Graph500 specification 3.0,
/// kernel 3), independent of the search: tree levels are recomputed from the
/// parent array alone (impl/HT_TreeCheck), distances checked edge by edge.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Validate.hpp"

namespace ht {

/// Checks \p pred and \p dist (this rank's parts) as a shortest-path tree
/// from \p key on the weighted graph \p g (Graph500 3.0, kernel 3):
///  1. root:       the key is its own parent, at distance 0;
///  2. tree:       parents lead from every reached vertex to the key (as above);
///  3. tree edge:  every vertex and its parent are joined by an edge, and the
///                 vertex is at most that edge's weight farther than its parent;
///  4. reach:      every edge has both ends reached or neither (the tree spans
///                 the key's component), and a vertex has a distance iff a parent;
///  5. distances:  the ends of every edge differ by at most its weight.
/// Distances are compared in the kernel's float arithmetic (d(parent) + w), so
/// an exact shortest-path tree passes exactly.  Distributed as validate_bfs:
/// each rank learns the distances of its edges' distinct remote ends from
/// their owners.  Validation::level holds the tree depth of each vertex.
Validation validate_sssp(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                         const std::vector<float>& dist, MPI_Comm comm);

}  // namespace ht
