// Tests of ht::TaskGraph on whichever task runtime the build has (.ci/run
// builds both), on 1, 2 and 4 ranks, remote edges carried either way
// (RemoteEdges), ids given in step order or last step first (not a
// topological order): Task Bench's dependence patterns (chain, stencil, tree,
// butterfly, all-to-all, random), points in blocks over the ranks, turned by
// one rank each step, so edges are local and remote.  Every node checks, on
// every replay, that it saw exactly its inputs (count, order, size, producer,
// this replay, contents) and that it runs once per replay; its value, 1 + the
// sum of its inputs', is checked against a serial evaluation of the whole
// graph.  Then the graphs it must refuse: a cycle (quoted, without the path
// into it), an edge to a node that does not exist, an edge given twice, an
// owner that is not a rank, and ranks that declared different graphs; and a
// graph's messages stay off the caller's communicator.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "assert_all.hpp"
#include "comm/HT_TaskGraph.hpp"
#include "runtime/HT_Error.hpp"

namespace {

int rank_of_world() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int ranks_of_world() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// What every output starts with; the rest of it is a byte pattern.
struct Head {
  long replay, node, value;
};

/// Producers of point i at step t (> 0), as points of step t - 1, in order.
using Pattern = std::function<std::vector<int>(int t, int i, int width)>;

struct Shape {
  const char* name;
  int width, steps;
  Pattern deps;
};

std::vector<int> all_points(int width) {
  std::vector<int> v(width);
  for (int j = 0; j < width; ++j) v[j] = j;
  return v;
}

const Shape kShapes[] = {
    {"chain", 1, 40, [](int, int, int) { return std::vector<int>{0}; }},
    // More steps than receives are posted ahead (a window that slides).
    {"stencil", 8, 30,
     [](int, int i, int w) {
       std::vector<int> v;
       for (int j = i - 1; j <= i + 1; ++j)
         if (j >= 0 && j < w) v.push_back(j);
       return v;
     }},
    // A reduction tree: step t keeps every 2^t-th point, fed by itself and
    // its partner; points a step drops have no consumers.
    {"tree", 16, 5,
     [](int t, int i, int) {
       const int span = 1 << t;
       if (i % span != 0) return std::vector<int>{};
       return std::vector<int>{i, i + span / 2};
     }},
    {"butterfly", 8, 4,
     [](int t, int i, int) {
       return std::vector<int>{i, i ^ (1 << (t - 1))};
     }},
    {"all_to_all", 6, 4, [](int, int, int w) { return all_points(w); }},
    {"random", 12, 6,
     [](int t, int i, int w) {
       std::mt19937 gen(static_cast<unsigned>(1000 * t + i));  // the same on every rank
       std::vector<int> v;
       for (int j = 0; j < w; ++j)
         if (gen() % 3 == 0) v.push_back(j);
       return v;
     }},
};

/// The bytes of node \p v's output: a head and a tail of varied length.
std::size_t bytes_of(long v) { return sizeof(Head) + static_cast<std::size_t>(v % 3) * 40; }
std::byte tail_byte(long v, long replay, std::size_t k) {
  return static_cast<std::byte>((v * 31 + replay * 7 + static_cast<long>(k)) & 0xff);
}

/// Node ids in step order, or the last step first: then ids are not a
/// topological order, as in a graph declared consumers first.
enum class Ids { forward, reversed };

class Patterns : public ::testing::TestWithParam<std::tuple<Shape, ht::RemoteEdges, Ids>> {};

TEST_P(Patterns, EveryNodeSeesExactlyItsInputsOncePerReplay) {
  const Shape& s = std::get<0>(GetParam());
  const bool reversed = std::get<2>(GetParam()) == Ids::reversed;
  const int rank = rank_of_world(), ranks = ranks_of_world();
  const long n = static_cast<long>(s.width) * s.steps;
  auto node = [&](int t, int i) {
    return static_cast<long>(reversed ? s.steps - 1 - t : t) * s.width + i;
  };
  // Blocks of points, as Task Bench, turned by one rank each step so that
  // chains cross ranks too.
  std::vector<int> owner(n);
  for (int t = 0; t < s.steps; ++t)
    for (int i = 0; i < s.width; ++i) owner[node(t, i)] = (i * ranks / s.width + t) % ranks;
  // Producers of every node, and the serial value of every node.
  std::vector<std::vector<long>> preds(n);
  std::vector<long> value(n, 0);
  for (int t = 0; t < s.steps; ++t)
    for (int i = 0; i < s.width; ++i) {
      const long v = node(t, i);
      if (t > 0)
        for (int j : s.deps(t, i, s.width)) preds[v].push_back(node(t - 1, j));
      value[v] = 1;
      for (long p : preds[v]) value[v] += value[p];
    }
  std::vector<int> runs(n, 0);  // each element written by its node's owner only
  std::atomic<long> wrong{0};
  std::string first_wrong;
  std::atomic_flag said = ATOMIC_FLAG_INIT;
  auto complain = [&](long v, const std::string& what) {
    if (wrong.fetch_add(1) == 0 && !said.test_and_set())
      first_wrong = "node " + std::to_string(v) + ": " + what;
  };

  ht::TaskGraph g(MPI_COMM_WORLD, std::get<1>(GetParam()));
  std::string misnumbered;  // the first node add_node numbered otherwise
  for (long v = 0; v < n; ++v) {
    const long id = g.add_node(owner[v], bytes_of(v), [&, v](const ht::NodeArgs& a) {
      if (a.node != v) complain(v, "called as node " + std::to_string(a.node));
      if (runs[v] != a.replay) complain(v, "ran " + std::to_string(runs[v]) + " times before");
      ++runs[v];
      if (a.n_inputs != static_cast<int>(preds[v].size()))
        return complain(v, std::to_string(a.n_inputs) + " inputs");
      long sum = 1;
      for (int k = 0; k < a.n_inputs; ++k) {
        const long p = preds[v][k];
        Head h;
        std::memcpy(&h, a.input[k], sizeof h);
        if (a.input_bytes[k] != bytes_of(p) || h.node != p || h.replay != a.replay)
          return complain(v, "input " + std::to_string(k) + " is node " + std::to_string(h.node) +
                                 ", replay " + std::to_string(h.replay));
        for (std::size_t b = sizeof h; b < a.input_bytes[k]; ++b)
          if (a.input[k][b] != tail_byte(p, a.replay, b)) return complain(v, "input tail");
        sum += h.value;
      }
      if (sum != value[v]) complain(v, "value " + std::to_string(sum));
      if (a.output_bytes != bytes_of(v)) complain(v, "output bytes");
      const Head out{a.replay, v, sum};
      std::memcpy(a.output, &out, sizeof out);
      for (std::size_t b = sizeof out; b < a.output_bytes; ++b)
        a.output[b] = tail_byte(v, a.replay, b);
    });
    if (id != v && misnumbered.empty())
      misnumbered = "node " + std::to_string(v) + " numbered " + std::to_string(id);
  }
  HT_ASSERT_ALL(misnumbered.empty()) << misnumbered;
  for (long v = 0; v < n; ++v)
    for (long p : preds[v]) g.add_edge(p, v);
  g.instantiate();

  ht::TaskRuntime rt(ht::TaskGraph::pool_bytes(), "Runtime/pool_MiB");
  const int replays = 5;
  g.replay(rt, 2);
  g.replay(rt, replays - 2);
  EXPECT_EQ(g.replays(), replays);
  EXPECT_EQ(wrong.load(), 0) << "rank " << rank << ", " << first_wrong;
  long mine = 0;
  for (long v = 0; v < n; ++v) {
    const bool here = owner[v] == rank;
    mine += here;
    EXPECT_EQ(runs[v], here ? replays : 0) << "node " << v << " on rank " << rank;
  }
  EXPECT_EQ(g.local_size(), mine);
}

INSTANTIATE_TEST_SUITE_P(
    TaskGraph, Patterns,
    ::testing::Combine(::testing::ValuesIn(kShapes),
                       ::testing::Values(ht::RemoteEdges::messages, ht::RemoteEdges::persistent),
                       ::testing::Values(Ids::forward, Ids::reversed)),
    [](const auto& c) {
      return std::string(std::get<0>(c.param).name) +
             (std::get<1>(c.param) == ht::RemoteEdges::messages ? "_messages" : "_persistent") +
             (std::get<2>(c.param) == Ids::forward ? "" : "_reversed_ids");
    });

// A no-op body for the graphs that are refused.
void nothing(const ht::NodeArgs&) {}

std::string refusal(const std::function<void(ht::TaskGraph&)>& define) {
  ht::TaskGraph g(MPI_COMM_WORLD);
  try {
    define(g);
  } catch (const ht::UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TaskGraph, ACycleIsRefusedWithItsNodesNamed) {
  // 0 -> 1 -> 2 -> 3 -> 1, 3 -> 4: the cycle is 1, 2, 3 and no other node.
  const std::string what = refusal([](ht::TaskGraph& g) {
    for (int v = 0; v < 5; ++v) g.add_node(0, 8, nothing);
    g.add_edge(0, 1);
    g.add_edge(1, 2);
    g.add_edge(2, 3);
    g.add_edge(3, 1);
    g.add_edge(3, 4);
    g.instantiate();
  });
  std::smatch m;
  ASSERT_TRUE(std::regex_search(what, m, std::regex("a cycle, ([0-9]+( -> [0-9]+)+)"))) << what;
  std::set<int> named;
  std::vector<int> order;
  const std::string cycle = m[1];
  const std::regex number("[0-9]+");
  for (std::sregex_iterator it(cycle.begin(), cycle.end(), number), end; it != end; ++it) {
    order.push_back(std::stoi(it->str()));
    named.insert(order.back());
  }
  EXPECT_EQ(named, (std::set<int>{1, 2, 3})) << what;
  ASSERT_EQ(order.size(), 4u) << what;
  EXPECT_EQ(order.front(), order.back()) << what;
  for (std::size_t k = 0; k + 1 < order.size(); ++k)  // each arrow is an edge
    EXPECT_EQ(order[k + 1], order[k] % 3 + 1) << what;
}

TEST(TaskGraph, ACycleReachedFromOutsideIsQuotedWithoutThePathToIt) {
  // 3 -> 0, 2 -> 3, 3 -> 2: node 0 waits on the cycle 2, 3 but is not on it.
  const std::string what = refusal([](ht::TaskGraph& g) {
    for (int v = 0; v < 4; ++v) g.add_node(0, 8, nothing);
    g.add_edge(3, 0);
    g.add_edge(2, 3);
    g.add_edge(3, 2);
    g.instantiate();
  });
  EXPECT_TRUE(what.find("a cycle, 2 -> 3 -> 2") != std::string::npos ||
              what.find("a cycle, 3 -> 2 -> 3") != std::string::npos)
      << what;
}

TEST(TaskGraph, ASelfEdgeIsACycle) {
  EXPECT_NE(refusal([](ht::TaskGraph& g) {
              g.add_node(0, 8, nothing);
              g.add_node(0, 8, nothing);
              g.add_edge(0, 1);
              g.add_edge(1, 1);
              g.instantiate();
            }).find("a cycle, 1 -> 1"),
            std::string::npos);
}

TEST(TaskGraph, AnEdgeToANodeThatDoesNotExistIsRefused) {
  const std::string what = refusal([](ht::TaskGraph& g) {
    for (int v = 0; v < 5; ++v) g.add_node(0, 8, nothing);
    g.add_edge(2, 9);
  });
  EXPECT_NE(what.find("edge 2 -> 9: node 9 does not exist (nodes are 0 to 4)"), std::string::npos)
      << what;
  EXPECT_NE(refusal([](ht::TaskGraph& g) {
              g.add_node(0, 8, nothing);
              g.add_edge(-1, 0);
            }).find("node -1 does not exist"),
            std::string::npos);
}

TEST(TaskGraph, AnEdgeGivenTwiceIsRefused) {
  const std::string what = refusal([](ht::TaskGraph& g) {
    g.add_node(0, 8, nothing);
    g.add_node(0, 8, nothing);
    g.add_edge(0, 1);
    g.add_edge(0, 1);
  });
  EXPECT_NE(what.find("edge 0 -> 1 is given twice"), std::string::npos) << what;
}

TEST(TaskGraph, AnOwnerThatIsNotARankIsRefused) {
  const int ranks = ranks_of_world();
  const std::string what = refusal([&](ht::TaskGraph& g) { g.add_node(ranks, 8, nothing); });
  EXPECT_NE(what.find("node 0: owner " + std::to_string(ranks) + " is not a rank"),
            std::string::npos)
      << what;
}

TEST(TaskGraph, RanksThatDeclareDifferentGraphsAreRefused) {
  // lint: rank-uniform: the world's size
  if (ranks_of_world() == 1) GTEST_SKIP() << "needs two ranks";
  const int rank = rank_of_world();
  const std::string what = refusal([&](ht::TaskGraph& g) {
    for (int v = 0; v < 4; ++v) g.add_node(v % 2, 8, nothing);
    g.add_edge(0, rank == 1 ? 3 : 2);  // rank 1 differs
    g.instantiate();
  });
  EXPECT_NE(what.find("the ranks declared different graphs"), std::string::npos) << what;
}

TEST(TaskGraph, ItsMessagesKeepToItsOwnCommunicator) {
  // A receive from anyone on the communicator the graph was given must hear
  // nothing of the graph's messages.
  const int ranks = ranks_of_world();
  ht::TaskGraph g(MPI_COMM_WORLD);
  for (int v = 0; v < 8; ++v)
    g.add_node(v % ranks, sizeof(long),
               [](const ht::NodeArgs& a) { *reinterpret_cast<long*>(a.output) = a.n_inputs; });
  for (int v = 1; v < 8; ++v) g.add_edge(v - 1, v);
  g.instantiate();
  long stray = 0;
  MPI_Request r;
  MPI_Irecv(&stray, 1, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
  ht::TaskRuntime rt(ht::TaskGraph::pool_bytes(), "Runtime/pool_MiB");
  g.replay(rt, 3);
  MPI_Barrier(MPI_COMM_WORLD);
  int heard = 0;
  MPI_Test(&r, &heard, MPI_STATUS_IGNORE);
  EXPECT_EQ(heard, 0) << "a graph message reached the caller's communicator";
  if (!heard) {
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
}

TEST(TaskGraph, ReplaysAgainAfterAnotherGraph) {
  // Two graphs alive at once keep their messages apart (each its own
  // communicator): a chain over the ranks in each, replayed alternately.
  const int ranks = ranks_of_world();
  std::vector<long> last(2, -1);
  std::vector<std::unique_ptr<ht::TaskGraph>> gs;
  for (int k = 0; k < 2; ++k) {
    gs.push_back(std::make_unique<ht::TaskGraph>(MPI_COMM_WORLD));
    for (int v = 0; v < 6; ++v)
      gs[k]->add_node(v % ranks, sizeof(long), [&, k](const ht::NodeArgs& a) {
        const long in =
            a.n_inputs ? *reinterpret_cast<const long*>(a.input[0]) : 100 * k + 1000 * a.replay;
        *reinterpret_cast<long*>(a.output) = in + 1;
        if (a.node == 5) last[k] = in + 1;
      });
    for (int v = 1; v < 6; ++v) gs[k]->add_edge(v - 1, v);
    gs[k]->instantiate();
  }
  ht::TaskRuntime rt(ht::TaskGraph::pool_bytes(), "Runtime/pool_MiB");
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 2; ++k) gs[k]->replay(rt);
  if (rank_of_world() == 5 % ranks) {
    EXPECT_EQ(last[0], 2006);  // the third replay's
    EXPECT_EQ(last[1], 2106);
  }
}

}  // namespace
