#include "graph/HT_Validate.hpp"

#include <algorithm>
#include <cstdlib>

#include "comm/HT_Wait.hpp"
#include "graph/HT_Kronecker.hpp"

namespace ht {

namespace {

constexpr std::int32_t kUnreached = -1, kOnPath = -2, kBroken = -3;

// Every rank's parent array, concatenated (global ids index it).
std::vector<std::int64_t> gather_pred(const Csr& g, const std::vector<std::int64_t>& pred,
                                      MPI_Comm comm) {
  const VertexRange& r = g.range;
  std::vector<int> counts(r.size), displs(r.size);
  for (int p = 0; p < r.size; ++p) {
    const VertexRange other = r.of_rank(p);
    counts[p] = static_cast<int>(other.local_count());
    displs[p] = static_cast<int>(other.first());
  }
  std::vector<std::int64_t> all(r.n_global);
  MPI_Allgatherv(pred.data(), static_cast<int>(pred.size()), MPI_INT64_T, all.data(), counts.data(),
                 displs.data(), MPI_INT64_T, comm);
  return all;
}

// Levels from parents: walk up to a vertex of known level, then number the
// path back down.  Cycles, other roots and unreached parents become kBroken.
std::vector<std::int32_t> levels_from_parents(const std::vector<std::int64_t>& pred,
                                              std::int64_t key) {
  const std::int64_t n = static_cast<std::int64_t>(pred.size());
  std::vector<std::int32_t> level(n, kUnreached);
  std::vector<std::int64_t> path;
  for (std::int64_t v = 0; v < n; ++v) {
    if (pred[v] < 0 || level[v] != kUnreached) continue;
    path.clear();
    std::int64_t x = v;
    std::int32_t base = kBroken;
    for (;;) {
      if (level[x] >= 0 || level[x] == kBroken) {
        base = level[x];
        break;
      }
      if (level[x] == kOnPath) break;  // a cycle
      if (pred[x] == x) {
        if (x == key) {
          level[x] = 0;
          base = 0;
        }
        break;  // another root stays kBroken
      }
      if (pred[x] < 0 || pred[x] >= n) break;  // parent unreached or no vertex
      level[x] = kOnPath;
      path.push_back(x);
      x = pred[x];
    }
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      base = base >= 0 ? base + 1 : kBroken;
      level[*it] = base;
    }
    if (level[x] == kOnPath || (pred[x] == x && x != key)) level[x] = kBroken;
  }
  return level;
}

}  // namespace

Validation validate_bfs(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                        MPI_Comm comm) {
  const VertexRange& r = g.range;
  const std::vector<std::int64_t> all = gather_pred(g, pred, comm);
  const std::vector<std::int32_t> level = levels_from_parents(all, key);

  Validation res;
  std::string first;
  auto fail = [&](Validation::Check c, const std::string& why) {
    if (res.failed == 0) first = why;
    res.failed |= c;
  };
  if (r.mine(key) && pred[r.local(key)] != key) {
    fail(Validation::root, "check 1 (root): the parent of key " + std::to_string(key) + " is " +
                               std::to_string(pred[r.local(key)]));
  }
  res.level.assign(r.local_count(), kUnreached);
  for (std::int64_t i = 0; i < r.local_count(); ++i) {
    const std::int64_t v = r.global(i);
    const std::int32_t lv = level[v];
    res.level[i] = lv < 0 ? kUnreached : lv;
    if (pred[i] >= 0 && lv < 0) {
      fail(Validation::tree, "check 2 (tree): parents from vertex " + std::to_string(v) +
                                 " do not lead to the key (cycle, other root or unreached parent)");
      continue;
    }
    if (lv > 0) {
      const std::int64_t p = pred[i];
      const auto begin = g.targets.begin() + g.offsets[i],
                 end = g.targets.begin() + g.offsets[i + 1];
      if (std::find(begin, end, p) == end) {
        fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) + " has parent " +
                                        std::to_string(p) + " but no edge to it");
      }
    }
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
      const std::int64_t w = g.targets[k];
      const std::int32_t lw = level[w];
      if ((lv >= 0) != (lw >= 0) && lv != kBroken && lw != kBroken) {
        fail(Validation::reach, "check 4 (reach): edge {" + std::to_string(v) + ", " +
                                    std::to_string(w) + "} has one end in the tree and one out");
      } else if (lv >= 0 && lw >= 0 && std::abs(lv - lw) > 1) {
        fail(Validation::levels, "check 5 (levels): edge {" + std::to_string(v) + ", " +
                                     std::to_string(w) + "} joins levels " + std::to_string(lv) +
                                     " and " + std::to_string(lw));
      }
    }
  }

  // One verdict for all: the checks failed anywhere, and the message of the
  // lowest rank that failed.
  int failed = res.failed;
  MPI_Allreduce(&failed, &res.failed, 1, MPI_INT, MPI_BOR, comm);
  int mine = failed ? r.rank : r.size, from = r.size;
  MPI_Allreduce(&mine, &from, 1, MPI_INT, MPI_MIN, comm);
  if (from < r.size) {
    unsigned long long len = first.size();
    MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, from, comm);
    first.resize(len);
    MPI_Bcast(first.data(), static_cast<int>(len), MPI_CHAR, from, comm);
    res.what = first;
  }
  std::int32_t deepest = 0;
  for (std::int32_t l : level) deepest = std::max(deepest, l);
  res.depth = deepest + 1;
  return res;
}

std::int64_t component_edges(const Csr& g, const std::vector<std::int64_t>& pred, MPI_Comm comm) {
  long long ends = 0;  // each undirected edge has two directed ends in the rows
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    if (pred[i] >= 0) ends += g.degree(i);
  }
  return sum_over_ranks(ends, comm) / 2;
}

std::vector<std::int64_t> search_keys(const Csr& g, int count, std::uint64_t seed, MPI_Comm comm) {
  const VertexRange& r = g.range;
  const Permutation order(static_cast<std::uint64_t>(r.n_global), seed ^ 0x6b43a9b5ULL);
  std::vector<std::int64_t> keys;
  constexpr int kBatch = 256;
  std::vector<int> usable(kBatch);
  for (std::int64_t at = 0; at < r.n_global && static_cast<int>(keys.size()) < count;
       at += kBatch) {
    const int n = static_cast<int>(std::min<std::int64_t>(kBatch, r.n_global - at));
    for (int k = 0; k < n; ++k) {
      const auto v = static_cast<std::int64_t>(order(static_cast<std::uint64_t>(at + k)));
      usable[k] = r.mine(v) && g.degree(r.local(v)) > 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, usable.data(), n, MPI_INT, MPI_MAX, comm);
    for (int k = 0; k < n && static_cast<int>(keys.size()) < count; ++k) {
      if (usable[k])
        keys.push_back(static_cast<std::int64_t>(order(static_cast<std::uint64_t>(at + k))));
    }
  }
  return keys;
}

}  // namespace ht
