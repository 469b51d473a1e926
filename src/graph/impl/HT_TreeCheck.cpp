#include "graph/impl/HT_TreeCheck.hpp"

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht::impl {

std::vector<std::int32_t> tree_levels(const Csr& g, std::int64_t key,
                                      const std::vector<std::int64_t>& pred, Exchange& ex,
                                      int& phase, MPI_Comm comm) {
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count();
  // An invalid parent (a negative id other than -1) is the vertex pass's
  // failure; kBroken keeps it out of the edge checks.
  std::vector<std::int32_t> level(n, kUnreached);
  for (std::int64_t i = 0; i < n; ++i) {
    const Reach s = bfs_reach(pred[i]);
    if (s != Reach::unreached) level[i] = s == Reach::reached ? kPending : kBroken;
  }

  // Children, grouped by local parent (CSR).
  std::vector<std::pair<std::int64_t, std::int64_t>> edges;  // (local parent, child)
  {
    const Exchange::Handler apply = [&](const Exchange::Item* it, std::size_t k) {
      for (std::size_t j = 0; j < k; ++j) edges.push_back({r.local(it[j].value), it[j].vertex});
    };
    Step step(ex, phase, r, apply);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t v = r.global(i), p = pred[i];
      if (p < 0 || p == v) continue;
      if (p >= r.n_global) {
        level[i] = kBroken;  // no such vertex
        continue;
      }
      step.send(r.owner(p), {v, p});
    }
    step.finish();
  }
  // Counting sort by parent: O(children), no comparison sort.
  std::vector<std::int64_t> first(n + 1, 0), children(edges.size());
  for (const auto& e : edges) ++first[e.first + 1];
  for (std::int64_t i = 0; i < n; ++i) first[i + 1] += first[i];
  {
    std::vector<std::int64_t> at(first.begin(), first.end() - 1);
    for (const auto& e : edges) children[at[e.first]++] = e.second;
  }
  edges = {};

  // Levels down the tree: a vertex gets its level from its parent, once.
  std::vector<std::int64_t> frontier, next;
  if (r.mine(key) && pred[r.local(key)] == key) {
    level[r.local(key)] = 0;
    frontier.push_back(r.local(key));
  }
  const Exchange::Handler settle = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t i = r.local(it[j].vertex);
      if (level[i] == kPending) {
        level[i] = static_cast<std::int32_t>(it[j].value);
        next.push_back(i);
      }
    }
  };
  for (std::int32_t depth = 1;; ++depth) {
    {
      Step step(ex, phase, r, settle);
      for (const std::int64_t i : frontier)
        for (std::int64_t c = first[i]; c < first[i + 1]; ++c)
          step.send(r.owner(children[c]), {children[c], depth});
      step.finish();
    }
    if (sum_over_ranks(static_cast<long long>(next.size()), comm) == 0) break;
    frontier.swap(next);
    next.clear();
  }
  for (auto& l : level)
    if (l == kPending) l = kBroken;
  return level;
}

void agree(Validation& res, std::string first, std::int32_t deepest, const VertexRange& r,
           MPI_Comm comm) {
  int from = res.failed ? r.rank : r.size;
  all_reduce(&res.failed, 1, MPI_BOR, comm);
  all_reduce(&from, 1, MPI_MIN, comm);
  if (from < r.size) {
    unsigned long long len = first.size();
    mpi::Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, from, comm);
    first.resize(len);
    mpi::Bcast(first.data(), mpi_int(len, "a failure's message bytes"), MPI_CHAR, from, comm);
    res.what = first;
  }
  long long d = deepest;
  all_reduce(&d, 1, MPI_MAX, comm);
  res.depth = static_cast<int>(d) + 1;
}

}  // namespace ht::impl
