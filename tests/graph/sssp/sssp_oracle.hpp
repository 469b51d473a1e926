#pragma once
// A plain serial Dijkstra over a whole weighted edge list, in the kernel's
// arithmetic (a distance is its parent's plus the edge's weight, in float):
// the distances every SSSP must match; and the ranks' answers gathered whole.
#include <mpi.h>

#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Kronecker.hpp"

/// Shortest distances from \p root over \p edges (both ways, self-loops
/// ignored) on \p n vertices; +inf where unreachable.
inline std::vector<float> oracle_distances(const std::vector<ht::WeightedEdge>& edges,
                                           std::int64_t n, std::int64_t root) {
  std::vector<std::vector<std::pair<std::int64_t, float>>> adj(static_cast<std::size_t>(n));
  for (const auto& e : edges) {
    if (e.u == e.v) continue;
    adj[static_cast<std::size_t>(e.u)].push_back({e.v, e.w});
    adj[static_cast<std::size_t>(e.v)].push_back({e.u, e.w});
  }
  std::vector<float> dist(static_cast<std::size_t>(n), std::numeric_limits<float>::infinity());
  using Item = std::pair<float, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  dist[static_cast<std::size_t>(root)] = 0;
  q.push({0.0f, root});
  while (!q.empty()) {
    const auto [d, u] = q.top();
    q.pop();
    if (d > dist[static_cast<std::size_t>(u)]) continue;
    for (const auto& [v, w] : adj[static_cast<std::size_t>(u)]) {
      const float nd = d + w;
      if (nd < dist[static_cast<std::size_t>(v)]) {
        dist[static_cast<std::size_t>(v)] = nd;
        q.push({nd, v});
      }
    }
  }
  return dist;
}

/// The same over the generator's whole list.
inline std::vector<float> oracle_distances(const ht::Kronecker& gen, std::int64_t root) {
  return oracle_distances(gen.weighted_edges(0, gen.edge_count()), gen.vertex_count(), root);
}

/// This rank's per-vertex values (\p mine, its vertices of \p r) gathered
/// into one array over all vertices, on every rank.
template <class T>
std::vector<T> gather(const std::vector<T>& mine, const ht::VertexRange& r, MPI_Datatype type) {
  std::vector<int> counts(static_cast<std::size_t>(r.size)), at(static_cast<std::size_t>(r.size));
  for (int p = 0; p < r.size; ++p) {
    const ht::VertexRange o = r.of_rank(p);
    counts[static_cast<std::size_t>(p)] = static_cast<int>(o.local_count());
    at[static_cast<std::size_t>(p)] = static_cast<int>(o.first());
  }
  std::vector<T> all(static_cast<std::size_t>(r.n_global));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), type, all.data(), counts.data(),
                 at.data(), type, MPI_COMM_WORLD);
  return all;
}
