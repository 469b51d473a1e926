#pragma once
/// \file HT_Validate.hpp
/// \brief Validation of a BFS tree (Graph500 specification 3.0, kernel 2),
/// independent of the BFS: levels are recomputed from the parent array alone.
///
/// Checks, in the order reported:
///  1. root:       the key is its own parent;
///  2. tree:       following parents from any reached vertex ends at the key
///                 (no cycle, no other root, no parent that is unreached);
///  3. tree edge:  every {v, parent(v)} is an edge of the graph;
///  4. reach:      every graph edge has both ends reached or neither, so the
///                 tree holds the key's whole component and nothing else;
///  5. levels:     the ends of every graph edge differ by at most one level.
///
/// Distributed, by the owners of the vertices and edges, through the
/// coalescing exchange: each reached vertex tells its parent's owner that it
/// is a child, levels flow down the tree from the key one round per level,
/// and each rank asks the owners of its edges' remote ends for their levels.
/// Memory per rank: its vertices, their tree children and its distinct remote
/// neighbours; no rank holds an array over all vertices.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht {

struct Validation {
  enum Check { root = 1, tree = 2, tree_edge = 4, reach = 8, levels = 16, distances = 32 };
  int failed = 0;                   ///< bitwise or of the failed checks, over all ranks
  std::string what;                 ///< the first failure, with a vertex that shows it
  std::vector<std::int32_t> level;  ///< level per local vertex, -1 unreached
  int depth = 0;                    ///< deepest level + 1
  bool ok() const { return failed == 0; }
};

/// Checks \p pred (this rank's part) as a BFS tree from \p key.  Collective;
/// every rank gets the same verdict and message.
Validation validate_bfs(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                        MPI_Comm comm);

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
