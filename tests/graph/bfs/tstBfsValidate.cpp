// Tests of validate_bfs by the wrong answers it must reject, on np = 1, 2, 4.
// A BFS tree passes; each mutant of it fails, naming the check it breaks,
// with the same verdict on every rank.  Mutants are made on the whole parent
// array, alike on every rank, then each rank validates its own part:
//  - wrong everywhere: every vertex hung on the key; a depth-first tree;
//    another key's tree; nothing reached but the key;
//  - wrong at one vertex: one level off (hung on a neighbour of its own
//    level); a parent no neighbour; a cycle; the key not its own parent; an
//    unreached vertex given a parent; a reached vertex whose neighbour is
//    left out; a parent that is no vertex.
#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <vector>

#include "assert_all.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/whole_answers.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using V = ht::Validation;
using Parents = std::vector<std::int64_t>;  // one per vertex of the graph
using test::at;

struct Mutant {
  const char* name;
  int must;  // at least one of these checks fails
  std::function<void(Parents&)> change;
};

class ValidateBfs : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto [first_edge, last_edge] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
    g = ht::build_csr(gen.edges(first_edge, last_edge), gen.vertex_count(), MPI_COMM_WORLD);
    adj.resize(static_cast<std::size_t>(gen.vertex_count()));
    for (const auto& e : gen.edges(0, gen.edge_count())) {
      if (e.u == e.v) continue;
      adj[at(e.u)].push_back(e.v);
      adj[at(e.v)].push_back(e.u);
    }
    const std::vector<std::int64_t> keys = ht::search_keys(g, 2, 9, MPI_COMM_WORLD);
    key = keys.at(0);
    other_key = keys.at(1);
    good = search(key);
    other = search(other_key);
    level.assign(good.size(), -1);
    std::queue<std::int64_t> q;
    level[at(key)] = 0;
    q.push(key);
    while (!q.empty()) {
      const std::int64_t x = q.front();
      q.pop();
      for (std::int64_t u : adj[at(x)])
        if (level[at(u)] < 0) level[at(u)] = level[at(x)] + 1, q.push(u);
    }
    tree = test::TreeShape(good, key);
  }

  Parents search(std::int64_t root) {
    ht::TaskRuntime rt(1 << 20, "Runtime/pool_MiB");
    return test::whole(ht::make_bfs("mpi", g, {}, rt, MPI_COMM_WORLD)->search(root).pred, g.range,
                       MPI_INT64_T);
  }
  bool reached(std::int64_t v) const { return tree.reached(v); }
  bool leaf(std::int64_t v) const { return tree.leaf(v); }
  std::int64_t first(const std::function<bool(std::int64_t)>& ok) const {
    return test::first_vertex(gen.vertex_count(), ok);
  }
  ht::Validation check(const Parents& all) const {
    return ht::validate_bfs(g, key, test::own_part(all, g.range), MPI_COMM_WORLD);
  }

  const ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 9};
  ht::Csr g;
  std::vector<std::vector<std::int64_t>> adj;
  std::int64_t key = 0, other_key = 0;
  Parents good, other;
  std::vector<int> level;  // the right tree's, per vertex
  test::TreeShape tree;
};

TEST_F(ValidateBfs, AcceptsTheBfsTree) {
  const ht::Validation v = check(good);
  EXPECT_TRUE(v.ok()) << v.what;
}

TEST_F(ValidateBfs, RejectsEveryMutant) {
  // Vertices the mutants need, chosen alike on every rank.
  const std::int64_t v = first([&](std::int64_t x) { return level[at(x)] >= 2; });
  const std::int64_t stranger = first([&](std::int64_t x) {
    if (!reached(x) || x == v) return false;
    for (std::int64_t u : adj[at(v)])
      if (u == x) return false;
    return true;
  });
  // A vertex with a neighbour at its own level (a BFS leaves such edges).
  std::int64_t sideways = -1, beside = -1;
  for (std::int64_t x = 0; x < gen.vertex_count() && sideways < 0; ++x) {
    if (!reached(x) || x == key) continue;
    for (std::int64_t u : adj[at(x)])
      if (level[at(u)] == level[at(x)] && u != x) sideways = x, beside = u;
  }
  HT_ASSERT_ALL(sideways >= 0) << "no edge within a level";
  const std::int64_t lf = first([&](std::int64_t x) { return leaf(x) && good[at(x)] != key; });
  const std::int64_t lonely = first([&](std::int64_t x) { return !reached(x); });
  // A depth-first tree of the key's component.
  Parents dfs(good.size(), -1);
  {
    std::vector<std::int64_t> stack{key};
    dfs[at(key)] = key;
    while (!stack.empty()) {
      const std::int64_t x = stack.back();
      bool deeper = false;
      for (std::int64_t u : adj[at(x)]) {
        if (dfs[at(u)] >= 0) continue;
        dfs[at(u)] = x;
        stack.push_back(u);
        deeper = true;
        break;
      }
      if (!deeper) stack.pop_back();
    }
  }

  const std::vector<Mutant> mutants = {
      // Wrong everywhere.
      {"every vertex hung on the key", V::tree_edge,
       [&](Parents& p) {
         for (auto& x : p)
           if (x >= 0) x = key;
       }},
      {"a depth-first tree", V::levels, [&](Parents& p) { p = dfs; }},
      {"another key's tree", V::root, [&](Parents& p) { p = other; }},
      {"nothing reached but the key", V::reach,
       [&](Parents& p) {
         for (std::int64_t x = 0; x < gen.vertex_count(); ++x)
           if (x != key) p[at(x)] = -1;
       }},
      // Wrong at one vertex.
      {"one level off", V::levels, [&](Parents& p) { p[at(sideways)] = beside; }},
      {"a parent that is no neighbour", V::tree_edge, [&](Parents& p) { p[at(v)] = stranger; }},
      {"a parent cycle", V::tree, [&](Parents& p) { p[at(p[at(lf)])] = lf; }},
      {"the key not its own parent", V::root, [&](Parents& p) { p[at(key)] = adj[at(key)][0]; }},
      {"an unreached vertex given a parent", V::tree_edge | V::reach,
       [&](Parents& p) { p[at(lonely)] = key; }},
      {"a reached vertex whose neighbour is left out", V::reach,
       [&](Parents& p) { p[at(lf)] = -1; }},
      {"a parent that is no vertex", V::tree,
       [&](Parents& p) { p[at(v)] = gen.vertex_count() + 5; }},
  };
  for (const Mutant& m : mutants) {
    Parents p = good;
    m.change(p);
    test::expect_rejected(m.name, check(p), m.must);
  }
}

TEST_F(ValidateBfs, LevelsAndDepthAgreeOnEveryRank) {
  // The levels of a valid tree are the breadth-first levels, the same depth
  // on every rank.
  const ht::Validation ok = check(good);
  HT_ASSERT_ALL(ok.ok()) << ok.what;
  int deepest = 0;
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    const std::int64_t v = g.range.global(i);
    EXPECT_EQ(ok.level[i], level[at(v)]) << "vertex " << v;
    deepest = std::max(deepest, level[at(v)]);
  }
  MPI_Allreduce(MPI_IN_PLACE, &deepest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(ok.depth, deepest + 1);
}

}  // namespace
