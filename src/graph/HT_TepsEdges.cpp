#include "graph/HT_TepsEdges.hpp"

#include "comm/HT_Wait.hpp"

namespace ht {

std::int64_t component_edges(const Csr& g, const std::vector<std::int64_t>& pred, MPI_Comm comm) {
  // A component holds both ends of its edges: count the reached rows' ends,
  // two per undirected edge (self-loops are not stored; dropped
  // duplicates are counted).
  long long ends = 0;
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    if (pred[i] >= 0) ends += g.degree(i) + (g.dropped.empty() ? 0 : g.dropped[i]);
  }
  return sum_over_ranks(ends, comm) / 2;
}

}  // namespace ht
