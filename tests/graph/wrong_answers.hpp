#pragma once
// Wrong answers, generated, for the search validators' tests, and the oracle
// that judges them.  A generator takes a right answer of the whole graph (the
// same on every rank) and derives, from one seed, answers broken by
// whole-answer transforms applied to a scope of vertices: all of them, one,
// k at random, or one rank's (so that the ranks' parts disagree).  Some
// transforms can leave a valid answer (another parent of the right level or
// distance): the oracle, not the generator, says which answers are valid.
//
// The oracle is the test's own: a serial BFS or Dijkstra over the generator's
// edge list (bfs_oracle.hpp, sssp_oracle.hpp), none of the kernels' or the
// validators' code.  An answer is valid only when
//  - every vertex the key cannot reach has parent -1 (and, for SSSP, distance
//    +inf), and the key is its own parent (at distance 0);
//  - BFS: every other reached vertex's parent is a neighbour one level up;
//  - SSSP: every distance equals the oracle's exactly, every reached vertex's
//    parent is joined to it by an edge of weight w with d(parent) + w equal to
//    its distance in float, and parents lead to the key.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "graph/HT_Csr.hpp"
#include "graph/HT_Kronecker.hpp"

namespace test {

/// \brief A whole answer: a parent per vertex, and for SSSP a distance per
/// vertex (empty for BFS).
struct Answer {
  std::vector<std::int64_t> pred;
  std::vector<float> dist;
  bool operator==(const Answer& o) const {
    if (pred != o.pred || dist.size() != o.dist.size()) return false;
    for (std::size_t i = 0; i < dist.size(); ++i)  // bitwise: -0 and NaN count as changes
      if (std::memcmp(&dist[i], &o.dist[i], sizeof(float)) != 0) return false;
    return true;
  }
};

/// \brief The whole graph as the oracle sees it: each edge of the whole list,
/// both ways, self-loops left out.
struct WholeGraph {
  std::vector<std::vector<std::pair<std::int64_t, float>>> adj;
  std::int64_t n = 0;
  WholeGraph(const std::vector<ht::WeightedEdge>& edges, std::int64_t vertices)
      : adj(static_cast<std::size_t>(vertices)), n(vertices) {
    for (const auto& e : edges) {
      if (e.u == e.v) continue;
      adj[static_cast<std::size_t>(e.u)].push_back({e.v, e.w});
      adj[static_cast<std::size_t>(e.v)].push_back({e.u, e.w});
    }
  }
  bool adjacent(std::int64_t u, std::int64_t v) const {
    for (const auto& [x, w] : adj[static_cast<std::size_t>(u)])
      if (x == v) return true;
    return false;
  }
};

/// \brief Why \p a is not a BFS tree from \p key, "" when it is one; \p level
/// holds the oracle's levels (-1: unreachable).
inline std::string judge_bfs(const WholeGraph& g, std::int64_t key, const std::vector<int>& level,
                             const Answer& a) {
  for (std::int64_t v = 0; v < g.n; ++v) {
    const std::int64_t p = a.pred[static_cast<std::size_t>(v)];
    const int lv = level[static_cast<std::size_t>(v)];
    const std::string at = "vertex " + std::to_string(v) + ": ";
    if (lv < 0) {
      if (p != -1) return at + "unreachable, has parent " + std::to_string(p);
    } else if (v == key) {
      if (p != key) return at + "the key, has parent " + std::to_string(p);
    } else if (p < 0 || p >= g.n || !g.adjacent(v, p) ||
               level[static_cast<std::size_t>(p)] != lv - 1) {
      return at + "parent " + std::to_string(p) + " is no neighbour one level up";
    }
  }
  return "";
}

/// \brief Why \p a is not a shortest-path tree from \p key, "" when it is one;
/// \p dist holds the oracle's distances (+inf: unreachable).
inline std::string judge_sssp(const WholeGraph& g, std::int64_t key, const std::vector<float>& dist,
                              const Answer& a) {
  const float inf = std::numeric_limits<float>::infinity();
  for (std::int64_t v = 0; v < g.n; ++v) {
    const auto i = static_cast<std::size_t>(v);
    const std::string at = "vertex " + std::to_string(v) + ": ";
    if (!(a.dist[i] == dist[i]))
      return at + "distance " + std::to_string(a.dist[i]) + ", shortest " + std::to_string(dist[i]);
    const std::int64_t p = a.pred[i];
    if (dist[i] == inf) {
      if (p != -1) return at + "unreachable, has parent " + std::to_string(p);
      continue;
    }
    if (v == key) {
      if (p != key) return at + "the key, has parent " + std::to_string(p);
      continue;
    }
    if (p < 0 || p >= g.n) return at + "parent " + std::to_string(p) + " is no vertex";
    bool confirmed = false;
    for (const auto& [x, w] : g.adj[i])
      confirmed = confirmed || (x == p && a.dist[static_cast<std::size_t>(p)] + w == a.dist[i]);
    if (!confirmed) return at + "no edge to parent " + std::to_string(p) + " weighs the difference";
  }
  // Parents lead to the key: zero weights, or weights lost to rounding, can
  // close a cycle of equal distances.
  std::vector<int> state(static_cast<std::size_t>(g.n), 0);  // 1: on the walk, 2: leads to the key
  state[static_cast<std::size_t>(key)] = 2;
  std::vector<std::int64_t> walk;
  for (std::int64_t v = 0; v < g.n; ++v) {
    if (a.pred[static_cast<std::size_t>(v)] < 0) continue;
    walk.clear();
    std::int64_t x = v;
    while (state[static_cast<std::size_t>(x)] == 0) {
      state[static_cast<std::size_t>(x)] = 1;
      walk.push_back(x);
      x = a.pred[static_cast<std::size_t>(x)];
    }
    if (state[static_cast<std::size_t>(x)] == 1)
      return "vertex " + std::to_string(v) + ": parents form a cycle";
    for (const std::int64_t y : walk) state[static_cast<std::size_t>(y)] = 2;
  }
  return "";
}

/// \brief One generated wrong (or possibly right) answer and how it was made.
struct Corruption {
  std::string name;
  Answer answer;
};

/// \brief Derives corrupted answers from a right one, alike on every rank
/// (the same seed, the same whole answers in).
class WrongAnswers {
 public:
  /// \p good and \p other: right answers from \p key and from another key;
  /// \p range: the vertices' owners (for the one-rank scope).
  WrongAnswers(const WholeGraph& g, std::int64_t key, const Answer& good, const Answer& other,
               const ht::VertexRange& range, std::uint64_t seed)
      : g_(g), key_(key), good_(good), other_(other), range_(range), rng_(seed) {
    const std::size_t n = good.pred.size();
    children_.assign(n, {});
    depth_.assign(n, -1);
    for (std::size_t v = 0; v < n; ++v)
      if (good.pred[v] >= 0 && static_cast<std::int64_t>(v) != key)
        children_[static_cast<std::size_t>(good.pred[v])].push_back(static_cast<std::int64_t>(v));
    std::vector<std::int64_t> stack{key};
    depth_[static_cast<std::size_t>(key)] = 0;
    while (!stack.empty()) {
      const std::int64_t x = stack.back();
      stack.pop_back();
      for (const std::int64_t c : children_[static_cast<std::size_t>(x)]) {
        depth_[static_cast<std::size_t>(c)] = depth_[static_cast<std::size_t>(x)] + 1;
        stack.push_back(c);
      }
    }
  }

  /// At least \p count corruptions that differ from the right answer: every
  /// transform in every scope, then two random transforms in a row on one
  /// random scope until \p count.
  std::vector<Corruption> make(std::size_t count) {
    std::vector<Corruption> out;
    const auto add = [&](const std::vector<const Transform*>& ts, Scope s) {
      Corruption c{"", good_};
      const std::vector<std::int64_t> in = scope(s);
      for (const Transform* t : ts) {
        t->apply(c.answer, in);
        c.name += (c.name.empty() ? "" : " + ") + t->name;
      }
      c.name += " (" + scope_name(s) + ")";
      if (!(c.answer == good_)) out.push_back(std::move(c));
    };
    const std::vector<Transform> all = transforms();
    for (const Transform& t : all)
      for (Scope s : {Scope::all, Scope::one, Scope::some, Scope::rank}) add({&t}, s);
    while (out.size() < count) {
      const Transform* first = &all[pick(all.size())];
      add({first, &all[pick(all.size())]}, static_cast<Scope>(pick(4)));
    }
    return out;
  }

 private:
  enum class Scope { all, one, some, rank };
  struct Transform {
    std::string name;
    std::function<void(Answer&, const std::vector<std::int64_t>&)> apply;
  };

  static std::string scope_name(Scope s) {
    switch (s) {
      case Scope::all:
        return "every vertex";
      case Scope::one:
        return "one vertex";
      case Scope::some:
        return "k vertices";
      default:
        return "one rank's vertices";
    }
  }
  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }
  std::int64_t any_vertex() { return static_cast<std::int64_t>(pick(good_.pred.size())); }
  bool reached(std::int64_t v) const { return good_.pred[static_cast<std::size_t>(v)] >= 0; }
  // A parent an earlier transform may have made no vertex (-2, n, ...).
  bool is_vertex(std::int64_t p) const { return p >= 0 && p < g_.n; }

  // The vertices a transform changes; one and k are drawn among the reached
  // but the key half the time, so that most draws hit the tree.
  std::vector<std::int64_t> scope(Scope s) {
    std::vector<std::int64_t> in;
    const auto draw = [&] {
      if (rng_() % 2)
        for (int tries = 0; tries < 64; ++tries) {
          const std::int64_t v = any_vertex();
          if (reached(v) && v != key_) return v;
        }
      return any_vertex();
    };
    switch (s) {
      case Scope::all:
        for (std::int64_t v = 0; v < g_.n; ++v) in.push_back(v);
        break;
      case Scope::one:
        in.push_back(draw());
        break;
      case Scope::some:
        for (std::size_t k = 2 + pick(7); k > 0; --k) in.push_back(draw());
        break;
      case Scope::rank: {
        const ht::VertexRange mine = range_.of_rank(static_cast<int>(pick(range_.size)));
        for (std::int64_t v = mine.first(); v < mine.first() + mine.local_count(); ++v)
          in.push_back(v);
      }
    }
    return in;
  }

  std::vector<Transform> transforms() {
    const float inf = std::numeric_limits<float>::infinity();
    const bool sssp = !good_.dist.empty();
    std::vector<Transform> t;
    const auto each = [](const std::function<void(Answer&, std::int64_t)>& f) {
      return [f](Answer& a, const std::vector<std::int64_t>& in) {
        for (const std::int64_t v : in) f(a, v);
      };
    };
    const auto at = [](std::int64_t v) { return static_cast<std::size_t>(v); };
    const auto unreach = [this, at, inf](Answer& a, std::int64_t v) {
      if (v == key_) return;
      a.pred[at(v)] = -1;
      if (!a.dist.empty()) a.dist[at(v)] = inf;
    };
    // Parents.
    t.push_back({"unreached", each(unreach)});
    t.push_back({"only the key's neighbours kept", each([this, unreach](Answer& a, std::int64_t v) {
                   if (!g_.adjacent(key_, v)) unreach(a, v);
                 })});
    t.push_back({"parent replaced by its grandparent", [this, at](Answer& a, const auto& in) {
                   const Answer old = a;
                   for (const std::int64_t v : in)
                     if (is_vertex(old.pred[at(v)])) a.pred[at(v)] = old.pred[at(old.pred[at(v)])];
                 }});
    t.push_back({"parent replaced by the key", each([this, at](Answer& a, std::int64_t v) {
                   if (a.pred[at(v)] >= 0) a.pred[at(v)] = key_;
                 })});
    t.push_back(
        {"parent replaced by a random neighbour", each([this, at](Answer& a, std::int64_t v) {
           const auto& adj = g_.adj[at(v)];
           if (a.pred[at(v)] >= 0 && v != key_ && !adj.empty())
             a.pred[at(v)] = adj[pick(adj.size())].first;
         })});
    // Another valid parent, where the right answer has one: a neighbour one
    // level up (BFS) or one whose distance plus the edge is this one's.
    t.push_back(
        {"parent replaced by another that fits", each([this, at](Answer& a, std::int64_t v) {
           if (v == key_ || !reached(v)) return;
           std::vector<std::int64_t> fits;
           for (const auto& [u, w] : g_.adj[at(v)]) {
             if (!reached(u) || u == good_.pred[at(v)]) continue;
             if (good_.dist.empty() ? depth_[at(u)] == depth_[at(v)] - 1
                                    : good_.dist[at(u)] + w == good_.dist[at(v)])
               fits.push_back(u);
           }
           if (!fits.empty()) a.pred[at(v)] = fits[pick(fits.size())];
         })});
    t.push_back({"parent replaced by a random vertex", each([this, at](Answer& a, std::int64_t v) {
                   if (a.pred[at(v)] >= 0) a.pred[at(v)] = any_vertex();
                 })});
    t.push_back({"parent replaced by itself", each([at](Answer& a, std::int64_t v) {
                   if (a.pred[at(v)] >= 0) a.pred[at(v)] = v;
                 })});
    t.push_back({"parent no vertex (-2, -7 or n)", each([this, at](Answer& a, std::int64_t v) {
                   const std::int64_t bad[] = {-2, -7, g_.n};
                   a.pred[at(v)] = bad[pick(3)];
                 })});
    t.push_back({"unreached given the key as parent", each([this, at](Answer& a, std::int64_t v) {
                   if (a.pred[at(v)] >= 0) return;
                   a.pred[at(v)] = key_;
                   if (!a.dist.empty()) a.dist[at(v)] = 1.0f;
                 })});
    t.push_back({"another key's answer", each([this, at](Answer& a, std::int64_t v) {
                   a.pred[at(v)] = other_.pred[at(v)];
                   if (!a.dist.empty()) a.dist[at(v)] = other_.dist[at(v)];
                 })});
    t.push_back({"a subtree dropped", [this, at, unreach](Answer& a, const auto& in) {
                   std::vector<std::int64_t> stack;
                   for (const std::int64_t v : in)
                     if (v != key_ && reached(v)) stack.push_back(v);
                   if (stack.size() > 4) stack.resize(4);  // a few subtrees, not all
                   while (!stack.empty()) {
                     const std::int64_t x = stack.back();
                     stack.pop_back();
                     unreach(a, x);
                     for (const std::int64_t c : children_[at(x)]) stack.push_back(c);
                   }
                 }});
    t.push_back({"two vertices' entries swapped", [this, at](Answer& a, const auto& in) {
                   for (const std::int64_t v : in) {
                     const std::int64_t u = any_vertex();
                     std::swap(a.pred[at(v)], a.pred[at(u)]);
                     if (!a.dist.empty()) std::swap(a.dist[at(v)], a.dist[at(u)]);
                   }
                 }});
    // Levels shifted by one: hung one level lower (a neighbour of the same
    // level or one level down).
    t.push_back({"levels shifted by one", each([this, at](Answer& a, std::int64_t v) {
                   if (v == key_ || !reached(v)) return;
                   for (const auto& [u, w] : g_.adj[at(v)]) {
                     if (reached(u) && u != v && depth_[at(u)] >= depth_[at(v)]) {
                       a.pred[at(v)] = u;
                       if (!a.dist.empty()) a.dist[at(v)] = a.dist[at(u)] + w;
                       return;
                     }
                   }
                 })});
    if (!sssp) return t;
    // Distances.
    const auto dists = [&t, each, at](const std::string& name, std::function<float(float)> f) {
      t.push_back({name, each([f, at](Answer& a, std::int64_t v) {
                     if (a.pred[at(v)] >= 0) a.dist[at(v)] = f(a.dist[at(v)]);
                   })});
    };
    dists("distance scaled by 3", [](float d) { return 3 * d; });
    dists("distance scaled by 1 + 2^-10", [](float d) { return d * (1 + 1.0f / 1024); });
    dists("distance shifted by 0.5", [](float d) { return d + 0.5f; });
    dists("distance shifted by -0.01", [](float d) { return d - 0.01f; });
    dists("distance negated", [](float d) { return -d; });
    dists("distance halved", [](float d) { return d / 2; });
    dists("distance zeroed", [](float) { return 0.0f; });
    dists("distance one ulp up", [inf](float d) { return std::nextafter(d, inf); });
    dists("distance one ulp down", [inf](float d) { return std::nextafter(d, -inf); });
    dists("distance NaN", [](float) { return std::numeric_limits<float>::quiet_NaN(); });
    dists("distance +inf", [inf](float) { return inf; });
    dists("distance -inf", [inf](float) { return -inf; });
    dists("distance -0", [](float) { return -0.0f; });
    // The hole of issue 38: unreached with a tiny negative distance.
    t.push_back({"no parent, distance -1e-30", each([this, at](Answer& a, std::int64_t v) {
                   if (v == key_) return;
                   a.pred[at(v)] = -1;
                   a.dist[at(v)] = -1e-30f;
                 })});
    t.push_back({"no parent, distance kept", each([this, at](Answer& a, std::int64_t v) {
                   if (v != key_) a.pred[at(v)] = -1;
                 })});
    t.push_back({"unreached given a finite distance", each([at](Answer& a, std::int64_t v) {
                   if (a.pred[at(v)] < 0) a.dist[at(v)] = 0.5f;
                 })});
    t.push_back({"distance its parent's", [this, at](Answer& a, const auto& in) {
                   const Answer old = a;
                   for (const std::int64_t v : in)
                     if (is_vertex(old.pred[at(v)])) a.dist[at(v)] = old.dist[at(old.pred[at(v)])];
                 }});
    return t;
  }

  const WholeGraph& g_;
  std::int64_t key_;
  const Answer& good_;
  const Answer& other_;
  const ht::VertexRange& range_;
  std::mt19937_64 rng_;
  std::vector<std::vector<std::int64_t>> children_;  // the right tree's
  std::vector<int> depth_;                           // the right tree's, -1 unreached
};

}  // namespace test
