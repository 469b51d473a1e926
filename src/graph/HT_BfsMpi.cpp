// Level-synchronous top-down BFS, MPI only: one worker per rank expands its
// share of the frontier; discoveries of remote vertices go to their owners
// through the coalescing exchange, which is polled while expanding.
// (The Graph500 reference "bfs_simple", with coalescing buffers.)
#include "comm/HT_Exchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bfs.hpp"

namespace ht {

BfsResult bfs_mpi(const Csr& g, std::int64_t root, const BfsOptions& opt, MPI_Comm comm) {
  const VertexRange& r = g.range;
  BfsResult res;
  res.pred.assign(r.local_count(), -1);
  std::vector<std::int64_t> oldq, newq;  // local indices
  if (r.mine(root)) {
    res.pred[r.local(root)] = root;
    oldq.push_back(r.local(root));
  }
  res.frontier.push_back(1);

  std::vector<std::int64_t>& pred = res.pred;
  const Exchange::Handler visit_remote = [&](const Exchange::Item* items, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t i = r.local(items[k].vertex);
      if (pred[i] < 0) {
        pred[i] = items[k].parent;
        newq.push_back(i);
      }
    }
  };

  Exchange ex(comm, opt.buffer_items);
  for (int level = 0;; ++level) {
    ex.begin_level(level);
    std::size_t since_poll = 0;
    for (const std::int64_t i : oldq) {
      const std::int64_t u = r.global(i);
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t v = g.targets[k];
        if (r.mine(v)) {
          const std::int64_t j = r.local(v);
          if (pred[j] < 0) {
            pred[j] = u;
            newq.push_back(j);
          }
        } else {
          ex.push(r.owner(v), {v, u}, visit_remote);
        }
      }
      if (++since_poll == 64) {  // take arrivals now and then: keeps peers' sends moving
        ex.poll(visit_remote);
        since_poll = 0;
      }
    }
    ex.end_level(visit_remote);
    res.messages.push_back(ex.stats().messages);
    res.bytes.push_back(ex.stats().bytes);

    const auto next =
        static_cast<std::int64_t>(sum_over_ranks(static_cast<long long>(newq.size()), comm));
    if (next == 0) break;
    res.frontier.push_back(next);
    oldq.swap(newq);
    newq.clear();
  }
  return res;
}

}  // namespace ht
