// Tests of validate_sssp by the wrong answers it must reject, on np = 1, 2,
// 4 ranks x 1, 2 threads.  A correct shortest-path tree (delta-stepping's,
// checked against Dijkstra in tstDeltaStepping) passes; each mutant of it
// fails, naming the check it breaks.  Mutants are made on the whole answer,
// alike on every rank, then each rank validates its own part:
//  - wrong everywhere: all distances 0, halved, doubled, one ulp up; hop
//    counts for distances; another key's tree; all parents grandparents;
//    nothing reached but the key;
//  - wrong at one vertex: a distance one ulp lower or higher, far lower, or
//    negative; a parent no neighbour; a cycle; an unreached vertex with a
//    distance; the key not at 0; a leaf hung on a longer path (only the
//    triangle rule sees it); a distance lowered where other ranks read it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "graph/whole_answers.hpp"

namespace {

using V = ht::Validation;
using test::at;

// A whole answer: one entry per vertex of the graph.
struct Answer {
  std::vector<std::int64_t> pred;
  std::vector<float> dist;
};

// A wrong answer, the checks of which at least one must fail, and how it is
// made from the right one.
struct Mutant {
  const char* name;
  int must;
  std::function<void(Answer&)> change;
};

class ValidateSssp : public ::testing::Test {
 protected:
  void SetUp() override {
    g = ht::build_weighted_csr(gen, MPI_COMM_WORLD);
    adj.resize(static_cast<std::size_t>(gen.vertex_count()));
    for (const auto& e : gen.weighted_edges(0, gen.edge_count())) {
      if (e.u == e.v) continue;
      adj[static_cast<std::size_t>(e.u)].push_back({e.v, e.w});
      adj[static_cast<std::size_t>(e.v)].push_back({e.u, e.w});
    }
    ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes({}), "Runtime/pool_MiB");
    ht::DeltaStepping sssp(g, {}, rt, MPI_COMM_WORLD);
    key = first([&](std::int64_t x) { return adj[at(x)].size() > 2; });
    good = search(sssp, key);
    tree = test::TreeShape(good.pred, key);
    other_key = first([&](std::int64_t x) { return x > gen.vertex_count() / 3 && reached(x); });
    other = search(sssp, other_key);
  }

  Answer search(ht::DeltaStepping& sssp, std::int64_t root) {
    const ht::SsspResult& r = sssp.search(root);
    return {test::whole(r.pred, g.range, MPI_INT64_T), test::whole(r.dist, g.range, MPI_FLOAT)};
  }
  bool reached(std::int64_t v) const { return tree.reached(v); }
  bool leaf(std::int64_t v) const { return tree.leaf(v); }
  std::int64_t first(const std::function<bool(std::int64_t)>& ok) const {
    return test::first_vertex(gen.vertex_count(), ok);
  }
  // Validates this rank's part of \p a.
  ht::Validation check(const Answer& a) const {
    return ht::validate_sssp(g, key, test::own_part(a.pred, g.range),
                             test::own_part(a.dist, g.range), MPI_COMM_WORLD);
  }

  const ht::Kronecker gen{10, 16, 0.57, 0.19, 0.19, 11};
  std::int64_t key = 0, other_key = 0;
  ht::Csr g;
  std::vector<std::vector<std::pair<std::int64_t, float>>> adj;
  test::TreeShape tree;  // the right tree's
  Answer good, other;
};

TEST_F(ValidateSssp, AcceptsTheShortestPathTree) {
  const ht::Validation v = check(good);
  EXPECT_TRUE(v.ok()) << v.what;
  EXPECT_TRUE(check(other).failed & V::root) << "another key's tree passed for this key";
}

TEST_F(ValidateSssp, RejectsEveryMutant) {
  const float inf = ht::SsspResult::kUnreached;
  // Vertices the mutants need, chosen alike on every rank.
  const std::int64_t v = first([&](std::int64_t x) { return reached(x) && x != key; });
  const std::int64_t stranger = first([&](std::int64_t x) {
    if (!reached(x) || x == v) return false;
    for (const auto& [u, w] : adj[at(v)])
      if (u == x) return false;
    return true;
  });
  const std::int64_t lonely = first([&](std::int64_t x) { return !reached(x); });
  const std::int64_t lf = first([&](std::int64_t x) { return leaf(x); });
  const std::int64_t deep_leaf =
      first([&](std::int64_t x) { return leaf(x) && good.pred[at(x)] != key; });
  // A leaf with a reached neighbour, not its parent, over which its path is longer.
  std::int64_t longer_leaf = -1, longer_via = -1;
  for (std::int64_t x = 0; x < gen.vertex_count() && longer_leaf < 0; ++x) {
    if (!leaf(x)) continue;
    for (const auto& [u, w] : adj[at(x)]) {
      if (u != good.pred[at(x)] && reached(u) && good.dist[at(u)] + w > good.dist[at(x)]) {
        longer_leaf = x;
        longer_via = u;
        break;
      }
    }
  }
  HT_ASSERT_ALL(longer_leaf >= 0) << "no leaf with a longer path";
  // A reached vertex that, at distance 0, would be too close to a neighbour
  // on another rank (any neighbour on one rank).
  const std::int64_t crossing = first([&](std::int64_t x) {
    if (!reached(x) || x == key) return false;
    for (const auto& [u, w] : adj[at(x)])
      if (reached(u) && good.dist[at(u)] > w &&
          (g.range.size == 1 || g.range.owner(u) != g.range.owner(x)))
        return true;
    return false;
  });
  // Hop counts from the key, with a breadth-first tree's parents.
  Answer hops{std::vector<std::int64_t>(good.pred.size(), -1),
              std::vector<float>(good.dist.size(), inf)};
  {
    std::queue<std::int64_t> q;
    hops.pred[at(key)] = key;
    hops.dist[at(key)] = 0;
    q.push(key);
    while (!q.empty()) {
      const std::int64_t x = q.front();
      q.pop();
      for (const auto& [u, w] : adj[at(x)]) {
        if (hops.pred[at(u)] >= 0) continue;
        hops.pred[at(u)] = x;
        hops.dist[at(u)] = hops.dist[at(x)] + 1;
        q.push(u);
      }
    }
  }
  const auto each_reached = [&](Answer& a, const std::function<void(std::int64_t)>& f) {
    for (std::int64_t x = 0; x < gen.vertex_count(); ++x)
      if (a.pred[at(x)] >= 0) f(x);
  };

  const std::vector<Mutant> mutants = {
      // Wrong everywhere.
      {"every distance 0", V::tree_edge,
       [&](Answer& a) { each_reached(a, [&](std::int64_t x) { a.dist[at(x)] = 0; }); }},
      {"every distance halved", V::tree_edge,
       [&](Answer& a) { each_reached(a, [&](std::int64_t x) { a.dist[at(x)] /= 2; }); }},
      {"every distance doubled", V::tree_edge,
       [&](Answer& a) { each_reached(a, [&](std::int64_t x) { a.dist[at(x)] *= 2; }); }},
      {"every distance but the key's one ulp up", V::tree_edge,
       [&](Answer& a) {
         each_reached(a, [&](std::int64_t x) {
           if (x != key) a.dist[at(x)] = std::nextafter(a.dist[at(x)], inf);
         });
       }},
      {"hop counts for distances, with a breadth-first tree", V::tree_edge,
       [&](Answer& a) { a = hops; }},
      {"another key's shortest-path tree", V::root, [&](Answer& a) { a = other; }},
      {"every parent its grandparent", V::tree_edge,
       [&](Answer& a) {
         const Answer old = a;
         each_reached(a, [&](std::int64_t x) { a.pred[at(x)] = old.pred[at(old.pred[at(x)])]; });
       }},
      {"nothing reached but the key", V::reach,
       [&](Answer& a) {
         each_reached(a, [&](std::int64_t x) {
           if (x == key) return;
           a.pred[at(x)] = -1;
           a.dist[at(x)] = inf;
         });
       }},
      {"nothing reached, every other vertex at parent -1 and distance -1e-30", V::reach,
       [&](Answer& a) {
         for (std::int64_t x = 0; x < gen.vertex_count(); ++x) {
           if (x == key) continue;
           a.pred[at(x)] = -1;
           a.dist[at(x)] = -1e-30f;
         }
       }},
      // Wrong at one vertex.
      {"a distance one ulp lower", V::tree_edge,
       [&](Answer& a) { a.dist[at(v)] = std::nextafter(a.dist[at(v)], 0.0f); }},
      {"a distance one ulp higher", V::tree_edge,
       [&](Answer& a) { a.dist[at(v)] = std::nextafter(a.dist[at(v)], inf); }},
      {"a negative distance", V::reach, [&](Answer& a) { a.dist[at(lf)] = -a.dist[at(lf)]; }},
      {"a parent that is no neighbour", V::tree_edge, [&](Answer& a) { a.pred[at(v)] = stranger; }},
      {"a parent cycle", V::tree,
       [&](Answer& a) { a.pred[at(a.pred[at(deep_leaf)])] = deep_leaf; }},
      {"an unreached vertex with a distance", V::reach, [&](Answer& a) { a.dist[at(lonely)] = 1; }},
      {"an unreached vertex with a parent", V::reach, [&](Answer& a) { a.pred[at(lonely)] = key; }},
      {"the key at distance 0.5", V::root, [&](Answer& a) { a.dist[at(key)] = 0.5f; }},
      {"the key with another parent", V::root, [&](Answer& a) { a.pred[at(key)] = v; }},
      {"a leaf hung on a longer path", V::distances,
       [&](Answer& a) {
         a.pred[at(longer_leaf)] = longer_via;
         for (const auto& [u, w] : adj[at(longer_leaf)])
           if (u == longer_via) a.dist[at(longer_leaf)] = a.dist[at(u)] + w;
       }},
      {"a distance lowered where other ranks read it", V::distances,
       [&](Answer& a) { a.dist[at(crossing)] = 0; }},
  };
  for (const Mutant& m : mutants) {
    Answer a = good;
    m.change(a);
    test::expect_rejected(m.name, check(a), m.must);
  }
}

TEST_F(ValidateSssp, NamesTheVertexItsParentBothDistancesAndTheWeight) {
  const std::int64_t v = first([&](std::int64_t x) { return reached(x) && x != key; });
  // The lowest reached vertex but the key: rank 0's, and its check 3 comes
  // before any other failure (its children are higher, edges are checked after).
  HT_ASSERT_ALL_EQ(g.range.owner(v), 0);
  Answer a = good;
  a.dist[at(v)] += 0.25f;
  const ht::Validation res = check(a);
  const std::int64_t p = good.pred[at(v)];
  ASSERT_TRUE(res.failed & V::tree_edge) << res.what;
  EXPECT_EQ(res.what.rfind("check 3 (tree edge): " + std::to_string(v) + " at distance", 0), 0u)
      << res.what;
  EXPECT_NE(res.what.find("has parent " + std::to_string(p) + " at "), std::string::npos)
      << res.what;
  EXPECT_NE(res.what.find("the lightest weighs"), std::string::npos) << res.what;
}

}  // namespace
