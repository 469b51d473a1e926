// A task graph defined once and replayed: a chain of 8 nodes dealt round
// robin over the ranks (so with 2 ranks every edge crosses ranks), each adding
// 1 to its producer's output; instantiated once, replayed 100 times.
//   mpirun -np 2 build/examples/example_task_graph   -> "node 7 computed 8, 100 replays"
#include <cstdio>
#include <cstring>

#include "comm/HT_TaskGraph.hpp"
#include "runtime/HT_Environment.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  constexpr long kNodes = 8;
  long last = 0;  // node 7's output, on its owner
  {
    // Every rank declares the same graph (SPMD); each keeps its own nodes.
    ht::TaskGraph g(env.comm());
    for (long i = 0; i < kNodes; ++i)
      g.add_node(static_cast<int>(i % env.size()), sizeof(long), [&last](const ht::NodeArgs& a) {
        long in = 0;
        if (a.n_inputs == 1) std::memcpy(&in, a.input[0], sizeof in);
        const long out = in + 1;
        std::memcpy(a.output, &out, sizeof out);
        if (a.node == kNodes - 1) last = out;
      });
    for (long i = 1; i < kNodes; ++i) g.add_edge(i - 1, i);
    g.instantiate();  // collective: checks the ranks agree, builds the messages
    ht::TaskRuntime rt(ht::TaskGraph::pool_bytes(), "Runtime/pool_MiB");
    g.replay(rt, 100);
    if (env.rank() == (kNodes - 1) % env.size())
      std::printf("node %ld computed %ld, %ld replays, %ld nodes on this rank\n", kNodes - 1, last,
                  g.replays(), g.local_size());
  }
  return last == kNodes || env.rank() != (kNodes - 1) % env.size() ? 0 : 1;
}
