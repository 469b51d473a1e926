#pragma once
/// \file HT_BfsValidate.hpp
/// \brief Validation of a BFS tree (Graph500 specification 3.0, kernel 2),
/// independent of the BFS: levels are recomputed from the parent array alone.
///
/// Checks, in the order reported, each with the tests whose wrong answers
/// break it (tstBfsValidate's listed mutants; tstWrongAnswers' generated
/// ones, judged by a serial BFS):
///  1. root:       the key is its own parent ("the key not its own parent",
///                 "another key's tree");
///  2. tree:       following parents from any reached vertex ends at the key
///                 (no cycle, no other root, no parent that is unreached) ("a
///                 parent cycle", "a parent that is no vertex");
///  3. tree edge:  every {v, parent(v)} is an edge of the graph ("a parent
///                 that is no neighbour", "every vertex hung on the key");
///  4. reach:      a parent is >= 0, or -1 for an unreached vertex, by one
///                 rule (impl::bfs_reach) that every pass calls (a parent >=
///                 n is no vertex: check 2); and every
///                 graph edge has both ends reached or neither, so the tree
///                 holds the key's whole component and nothing else ("nothing
///                 reached but the key"; generated: parent -2 or -7);
///  5. levels:     the ends of every graph edge differ by at most one level
///                 ("a depth-first tree", "one level off").
///
/// Distributed, by the owners of the vertices and edges, through the
/// coalescing exchange: each reached vertex tells its parent's owner that it
/// is a child, levels flow down the tree from the key one round per level,
/// and each rank asks the owners of its edges' remote ends for their levels.
/// Memory per rank: its vertices, their tree children and its distinct remote
/// neighbours; no rank holds an array over all vertices.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_Validate.hpp"

namespace ht {

/// Checks \p pred (this rank's part) as a BFS tree from \p key.  Collective;
/// every rank gets the same verdict and message.
Validation validate_bfs(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                        MPI_Comm comm);
/// The same checks on the 2D block \p b of \p grid (HT_Csr2D.hpp), where no
/// 1D CSR is kept: each entry's far end learns the near end and its level.
Validation validate_bfs(const Csr2D& b, const Grid2D& grid, std::int64_t key,
                        const std::vector<std::int64_t>& pred, MPI_Comm comm);

}  // namespace ht
