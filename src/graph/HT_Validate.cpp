#include "graph/HT_Validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Kronecker.hpp"

namespace ht {

namespace {

constexpr std::int32_t kUnreached = -1, kBroken = -3, kPending = -4;
// Pairs per coalescing buffer: validation moves (vertex, value) pairs.
constexpr std::size_t kBufferItems = 4096;

// One step of owner-computes communication: items for other ranks go
// through the exchange, items for this rank are applied at once.
class Step {
 public:
  Step(Exchange& ex, int& phase, const VertexRange& r, const Exchange::Handler& apply)
      : ex_(ex), r_(r), apply_(apply) {
    ex_.begin_level(phase++);
  }
  void send(int dest, Exchange::Item item) {
    if (dest == r_.rank) {
      apply_(&item, 1);
    } else {
      ex_.push(dest, item, apply_);
    }
  }
  void finish() { ex_.end_level(apply_); }

 private:
  Exchange& ex_;
  const VertexRange& r_;
  const Exchange::Handler& apply_;
};

// Levels from parents, by the owners: every reached vertex tells its
// parent's owner that it is a child; then levels flow down the tree from the
// key, one round per level.  What no round reaches (a cycle, another root, an
// unreached or non-existent parent) is kBroken.  Memory: this rank's vertices
// and the tree's children of them, never a per-vertex array of the graph.
std::vector<std::int32_t> tree_levels(const Csr& g, std::int64_t key,
                                      const std::vector<std::int64_t>& pred, Exchange& ex,
                                      int& phase, MPI_Comm comm) {
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count();
  std::vector<std::int32_t> level(n, kUnreached);
  for (std::int64_t i = 0; i < n; ++i)
    if (pred[i] >= 0) level[i] = kPending;

  // Children, grouped by local parent (CSR).
  std::vector<std::pair<std::int64_t, std::int64_t>> edges;  // (local parent, child)
  {
    const Exchange::Handler apply = [&](const Exchange::Item* it, std::size_t k) {
      for (std::size_t j = 0; j < k; ++j) edges.push_back({r.local(it[j].parent), it[j].vertex});
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
        level[i] = static_cast<std::int32_t>(it[j].parent);
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

// A vertex id (< 2^43: SCALE <= 42) and a level in one exchange field, so
// that an edge's remote end learns both the near end and its level.
constexpr int kLevelShift = 43;
constexpr std::int64_t kLevelBias = 8;  // levels >= kBroken - 1 become >= 0
std::int64_t pack(std::int64_t v, std::int32_t level) {
  return v | ((static_cast<std::int64_t>(level) + kLevelBias) << kLevelShift);
}
std::int64_t vertex_of(std::int64_t packed) {
  return packed & ((std::int64_t(1) << kLevelShift) - 1);
}
std::int32_t level_of(std::int64_t packed) {
  return static_cast<std::int32_t>((packed >> kLevelShift) - kLevelBias);
}

// Records a failed check in \p res, keeping the first one's message in
// \p first.
auto failure_recorder(Validation& res, std::string& first) {
  return [&res, &first](Validation::Check c, const std::string& why) {
    if (res.failed == 0) first = why;
    res.failed |= c;
  };
}

// One verdict for all: the checks failed anywhere, and the message of the
// lowest rank that failed.
void agree(Validation& res, std::string first, const VertexRange& r, MPI_Comm comm) {
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
}

// A communicator of the validation's own, so that none of its messages can
// meet one of the exchange a search uses on the same communicator (same tags).
struct OwnComm {
  MPI_Comm c;
  explicit OwnComm(MPI_Comm comm) { MPI_Comm_dup(comm, &c); }
  ~OwnComm() { MPI_Comm_free(&c); }
  OwnComm(const OwnComm&) = delete;
  OwnComm& operator=(const OwnComm&) = delete;
};

}  // namespace

Validation validate_bfs(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                        MPI_Comm comm) {
  const VertexRange& r = g.range;
  OwnComm own_comm(comm);
  const MPI_Comm own = own_comm.c;
  Exchange ex(own, kBufferItems);
  int phase = 0;
  const std::vector<std::int32_t> level = tree_levels(g, key, pred, ex, phase, own);

  Validation res;
  std::string first;  // the first failure's message, this rank
  const auto fail = failure_recorder(res, first);
  if (r.mine(key) && pred[r.local(key)] != key) {
    fail(Validation::root, "check 1 (root): the parent of key " + std::to_string(key) + " is " +
                               std::to_string(pred[r.local(key)]));
  }
  res.level.assign(r.local_count(), kUnreached);
  std::int32_t deepest = 0;
  for (std::int64_t i = 0; i < r.local_count(); ++i) {
    const std::int64_t v = r.global(i);
    const std::int32_t lv = level[i];
    res.level[i] = lv < 0 ? kUnreached : lv;
    deepest = std::max(deepest, lv);
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
  }

  // Checks 4 and 5 on each edge {v, w} once, where v < w: by this rank when
  // it owns both ends, else by the owner of w, which is sent v and its level.
  const auto check_edge = [&](std::int64_t v, std::int32_t lv, std::int64_t w, std::int32_t lw) {
    if ((lv >= 0) != (lw >= 0) && lv != kBroken && lw != kBroken) {
      fail(Validation::reach, "check 4 (reach): edge {" + std::to_string(v) + ", " +
                                  std::to_string(w) + "} has one end in the tree and one out");
    } else if (lv >= 0 && lw >= 0 && std::abs(lv - lw) > 1) {
      fail(Validation::levels, "check 5 (levels): edge {" + std::to_string(v) + ", " +
                                   std::to_string(w) + "} joins levels " + std::to_string(lv) +
                                   " and " + std::to_string(lw));
    }
  };
  const Exchange::Handler far_end = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t w = it[j].vertex, v = vertex_of(it[j].parent);
      check_edge(v, level_of(it[j].parent), w, level[r.local(w)]);
    }
  };
  {
    Step step(ex, phase, r, far_end);
    for (std::int64_t i = 0; i < r.local_count(); ++i) {
      const std::int64_t v = r.global(i);
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t w = g.targets[k];
        if (w <= v) continue;  // the edge's other copy, in w's row, covers it
        if (r.mine(w)) {
          check_edge(v, level[i], w, level[r.local(w)]);
        } else {
          step.send(r.owner(w), {w, pack(v, level[i])});
        }
      }
    }
    step.finish();
  }

  agree(res, first, r, comm);
  long long d = deepest;
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_LONG_LONG, MPI_MAX, comm);
  res.depth = static_cast<int>(d) + 1;
  return res;
}

namespace {

std::uint32_t float_bits(float d) {
  std::uint32_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
float bits_float(std::uint32_t b) {
  float d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

// The distances of this rank's edges' distinct remote ends, from their
// owners: a request step (vertex, asking rank) and an answer step (vertex,
// distance bits).  Memory: one entry per distinct remote neighbour.
std::unordered_map<std::int64_t, float> remote_distances(const Csr& g,
                                                         const std::vector<float>& dist,
                                                         Exchange& ex, int& phase) {
  const VertexRange& r = g.range;
  std::unordered_map<std::int64_t, float> far;
  for (const std::int64_t w : g.targets)
    if (!r.mine(w)) far.emplace(w, 0.0f);
  std::vector<Exchange::Item> asked;  // (vertex of mine, asking rank)
  {
    const Exchange::Handler ask = [&](const Exchange::Item* it, std::size_t k) {
      asked.insert(asked.end(), it, it + k);
    };
    Step step(ex, phase, r, ask);
    for (const auto& [w, unused] : far) step.send(r.owner(w), {w, r.rank});
    step.finish();
  }
  const Exchange::Handler answer = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j)
      far[it[j].vertex] = bits_float(static_cast<std::uint32_t>(it[j].parent));
  };
  Step step(ex, phase, r, answer);
  for (const Exchange::Item& a : asked)
    step.send(static_cast<int>(a.parent),
              {a.vertex, static_cast<std::int64_t>(float_bits(dist[r.local(a.vertex)]))});
  step.finish();
  return far;
}

}  // namespace

Validation validate_sssp(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                         const std::vector<float>& dist, MPI_Comm comm) {
  const VertexRange& r = g.range;
  OwnComm own_comm(comm);
  const MPI_Comm own = own_comm.c;
  Exchange ex(own, kBufferItems);
  int phase = 0;
  const std::vector<std::int32_t> level = tree_levels(g, key, pred, ex, phase, own);
  const std::unordered_map<std::int64_t, float> far = remote_distances(g, dist, ex, phase);
  const auto distance = [&](std::int64_t v) { return r.mine(v) ? dist[r.local(v)] : far.at(v); };

  Validation res;
  std::string first;  // the first failure's message, this rank
  const auto fail = failure_recorder(res, first);
  const auto text = [](double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", x);
    return std::string(b);
  };
  if (r.mine(key) && (pred[r.local(key)] != key || dist[r.local(key)] != 0.0f)) {
    fail(Validation::root, "check 1 (root): key " + std::to_string(key) + " has parent " +
                               std::to_string(pred[r.local(key)]) + " and distance " +
                               text(dist[r.local(key)]));
  }
  res.level.assign(r.local_count(), kUnreached);
  std::int32_t deepest = 0;
  for (std::int64_t i = 0; i < r.local_count(); ++i) {
    const std::int64_t v = r.global(i);
    const std::int32_t lv = level[i];
    const bool reached = pred[i] >= 0, has_dist = std::isfinite(dist[i]);
    res.level[i] = lv < 0 ? kUnreached : lv;
    deepest = std::max(deepest, lv);
    if (reached != has_dist) {
      fail(Validation::reach, "check 4 (reach): vertex " + std::to_string(v) + " has parent " +
                                  std::to_string(pred[i]) + " and distance " + text(dist[i]));
      continue;
    }
    if (reached && lv < 0) {
      fail(Validation::tree, "check 2 (tree): parents from vertex " + std::to_string(v) +
                                 " do not lead to the key (cycle, other root or unreached parent)");
      continue;
    }
    if (lv > 0) {
      // Joined to its parent by an edge (the lightest of the copies) whose
      // weight covers the step.
      const std::int64_t p = pred[i];
      float lightest = std::numeric_limits<float>::infinity();
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k)
        if (g.targets[k] == p) lightest = std::min(lightest, g.weights[k]);
      if (std::isinf(lightest)) {
        fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) + " has parent " +
                                        std::to_string(p) + " but no edge to it");
      } else if (dist[i] > distance(p) + lightest) {
        fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) + " at distance " +
                                        text(dist[i]) + " has parent " + std::to_string(p) +
                                        " at " + text(distance(p)) + " over an edge of weight " +
                                        text(lightest));
      }
    }
  }
  // Checks 4 and 5 on every stored edge (each input edge twice, once per end:
  // both directions of the inequality).
  for (std::int64_t i = 0; i < r.local_count(); ++i) {
    const std::int64_t v = r.global(i);
    const float dv = dist[i];
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
      const std::int64_t w = g.targets[k];
      if (w == v) continue;
      const float dw = distance(w);
      if (std::isfinite(dv) != std::isfinite(dw)) {
        fail(Validation::reach, "check 4 (reach): edge {" + std::to_string(v) + ", " +
                                    std::to_string(w) + "} has one end in the tree and one out");
      } else if (std::isfinite(dv) && dv > dw + g.weights[k]) {
        fail(Validation::distances, "check 5 (distances): edge {" + std::to_string(v) + ", " +
                                        std::to_string(w) + "} of weight " + text(g.weights[k]) +
                                        " joins distances " + text(dv) + " and " + text(dw));
      }
    }
  }
  agree(res, first, r, comm);
  long long d = deepest;
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_LONG_LONG, MPI_MAX, comm);
  res.depth = static_cast<int>(d) + 1;
  return res;
}

}  // namespace ht
