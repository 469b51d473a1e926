#pragma once
// A plain serial BFS over the whole edge list: the levels every variant must match.
#include <queue>
#include <vector>

#include "graph/HT_Kronecker.hpp"

/// Levels from \p key over \p edges (ht::Edge or ht::WeightedEdge, both ways,
/// self-loops ignored) on \p n vertices; -1 where unreachable.
template <class E>
std::vector<int> oracle_levels(const std::vector<E>& edges, std::int64_t n, std::int64_t key) {
  std::vector<std::vector<std::int64_t>> adj(n);
  for (const auto& e : edges) {
    if (e.u == e.v) continue;
    adj[e.u].push_back(e.v);
    adj[e.v].push_back(e.u);
  }
  std::vector<int> level(n, -1);
  std::queue<std::int64_t> q;
  level[key] = 0;
  q.push(key);
  while (!q.empty()) {
    const std::int64_t u = q.front();
    q.pop();
    for (auto v : adj[u]) {
      if (level[v] < 0) {
        level[v] = level[u] + 1;
        q.push(v);
      }
    }
  }
  return level;
}

/// The same over the generator's whole list.
inline std::vector<int> oracle_levels(const ht::Kronecker& gen, std::int64_t key) {
  return oracle_levels(gen.edges(0, gen.edge_count()), gen.vertex_count(), key);
}
