// A node of a replayed ht::TaskGraph throws on the last rank, on its second
// replay, while the other ranks wait for its output: the job must end on
// every rank with the node, the replay and the reason named, exit code 1,
// not a hang.
#include "comm/HT_TaskGraph.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  const int last = env.size() - 1;
  ht::TaskGraph g(env.comm());
  // A chain over the ranks and back: 0 -> 1 -> ... -> last -> 0.
  const long n = env.size() + 1;
  for (long v = 0; v < n; ++v)
    g.add_node(static_cast<int>(v % env.size()), 8, [&](const ht::NodeArgs& a) {
      if (a.node == last && a.replay == 1) throw ht::Error("injected failure in a node");
    });
  for (long v = 1; v < n; ++v) g.add_edge(v - 1, v);
  g.instantiate();
  ht::TaskRuntime rt(ht::TaskGraph::pool_bytes(), "Runtime/pool_MiB");
  g.replay(rt, 3);
  return 0;
}
