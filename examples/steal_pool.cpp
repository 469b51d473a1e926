// Work stealing between ranks: rank 0 holds the root of a binary tree of
// depth 16; each rank's worker expands nodes depth first, shares half its
// stack when asked (wanted()), and steals when out of work, until the pool
// detects that no work is left anywhere.  Every node is counted exactly once.
//   mpirun -np 2 build/examples/example_steal_pool   -> "nodes: 131071 (expected 131071)"
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "comm/HT_WorkStealing.hpp"
#include "runtime/HT_Environment.hpp"

namespace {
struct Node {
  int depth;  // children: two nodes of depth - 1, none at 0
};
}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  constexpr int kDepth = 16;
  long long mine = 0;
  long long stolen = 0;
  {
    // One worker on this rank (the host thread); drivers run one per task.
    ht::StealPool<Node> pool(env.comm(), 1, ht::StealOptions{});
    if (env.rank() == 0) {
      const Node root{kDepth};
      pool.seed(&root, 1);
    }
    pool.start();
    std::vector<Node> stack, buf(8);
    while (!pool.done()) {
      const std::size_t n = pool.acquire(buf.data(), buf.size());  // now busy, if n > 0
      if (n == 0) {
        pool.poll();  // a steal request goes out, or the termination token moves
        continue;
      }
      stack.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
      for (long k = 1; !stack.empty(); ++k) {
        const Node node = stack.back();
        stack.pop_back();
        ++mine;
        if (node.depth > 0) stack.insert(stack.end(), 2, Node{node.depth - 1});
        if (k % 16 == 0) {
          pool.poll();
          if (pool.wanted() && stack.size() >= 2) {  // a thief, or an idle worker, waits
            const std::size_t half = stack.size() / 2;
            pool.release(stack.data(), half);
            stack.erase(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(half));
          }
        }
      }
      pool.idle();  // out of work: passive until acquire() finds some
    }
    pool.finish();  // collective: checks that no item was lost or left behind
    stolen = static_cast<long long>(pool.stats().items_received);
  }
  long long all = 0;
  MPI_Reduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, env.comm());
  std::printf("rank %d: %lld nodes, %lld items stolen\n", env.rank(), mine, stolen);
  const long long expected = (2LL << kDepth) - 1;
  if (env.rank() == 0) std::printf("nodes: %lld (expected %lld)\n", all, expected);
  return env.rank() != 0 || all == expected ? 0 : 1;
}
