#pragma once
/// \file HT_SsspValidate.hpp
/// \brief Validation of a shortest-path tree (Graph500 specification 3.0,
/// kernel 3), independent of the search: tree levels are recomputed from the
/// parent array alone (impl/HT_TreeCheck), distances checked edge by edge.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_Validate.hpp"

namespace ht {

/// Checks \p pred and \p dist (this rank's parts) as a shortest-path tree
/// from \p key on the weighted graph \p g, by the rules of the Graph500 3.0
/// reference's validator (validate.c), which together leave one answer.
/// Each rule, and the tests whose wrong answers break it (tstSsspValidate's
/// listed mutants; tstWrongAnswers' generated ones, judged by a Dijkstra):
///  1. root:       the key is its own parent, at distance 0 ("the key at
///                 distance 0.5", "another key's shortest-path tree");
///  2. tree:       parents lead from every reached vertex to the key (no
///                 cycle, no other root, no unreached or non-existent parent)
///                 ("a parent cycle"; generated: parent replaced by itself);
///  3. tree edge:  every reached vertex but the key is joined to its parent by
///                 some copy of an edge of weight w with d(v) == d(parent) + w
///                 exactly, in the kernel's float arithmetic: d(v) is the
///                 length of a path from the key ("a distance one ulp
///                 higher", "every parent its grandparent");
///  4. reach:      every vertex is reached (a parent >= 0 and a finite
///                 distance >= 0) or unreached (parent -1 and distance +inf),
///                 by one rule (impl::sssp_reach) that the vertex and edge
///                 passes call (the levels follow parents alone); any
///                 other pair fails, naming the vertex; and every edge has
///                 both ends reached or neither, so the tree spans the key's
///                 component ("nothing reached but the key", "a negative
///                 distance"; generated: no parent and distance -1e-30, NaN,
///                 -inf);
///  5. distances:  every edge {u, v} of weight w has |d(u) - d(v)| <= w (the
///                 triangle rule, both ways), so no path is shorter than a
///                 distance; and every remote end's distance arrived ("a leaf
///                 hung on a longer path", "a distance lowered where other
///                 ranks read it").
/// 3 and 5 with 1 leave exactly the shortest distances: 3 makes each one a
/// path's length, 5 with d(key) = 0 makes none longer than the shortest.
/// No tolerance: the kernel computes d(parent) + w in float as 3 does.
/// Distributed as validate_bfs: each rank learns the distances of its edges'
/// distinct remote ends from their owners, as rule 4 reads them (+inf for an
/// unreached vertex).  Validation::level holds each vertex's tree depth.
Validation validate_sssp(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                         const std::vector<float>& dist, MPI_Comm comm);
/// The same checks on the weighted 2D block \p b of \p grid (HT_Csr2D.hpp),
/// where no 1D CSR is kept: each vertex learns its parent's distance from
/// the parent's owner; the holders of its row find the edge to the parent;
/// each entry's far end learns the near end's distance and the weight.
Validation validate_sssp(const Csr2D& b, const Grid2D& grid, std::int64_t key,
                         const std::vector<std::int64_t>& pred, const std::vector<float>& dist,
                         MPI_Comm comm);

}  // namespace ht
