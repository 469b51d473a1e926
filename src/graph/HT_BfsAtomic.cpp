// Level-synchronous top-down BFS with atomic claims: no lock and no
// task-local copy.  A task expanding u claims neighbour v with one atomic
// fetch_or on v's visited bit; only the winner sets pred[v] and queues v, so
// no vertex is expanded twice (the redundant-visit ratio is 1 by
// construction).  The frontier's edges are cut into chunks, one task each
// (HT_BfsChunked.hpp).
// The shared-memory form is the classic one (e.g. Leiserson & Schardl,
// "A work-efficient parallel breadth-first search algorithm", SPAA 2010
// discuss the benign races of such claims); the distributed one follows
// the Graph500 reference's bfs_simple.
#include "graph/impl/HT_ClaimChunk.hpp"

namespace ht::impl {

namespace {

class BfsAtomic final : public ChunkedBfs {
 public:
  BfsAtomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : ChunkedBfs(g, opt, rt, comm), records_(static_cast<std::size_t>(std::max(1, opt.chunks))) {}

 private:
  void spawn_level(int iteration, std::size_t n) override {
    profile().reserve(n);
    for (std::size_t c = 0; c < n; ++c) {
      Future<void> f = rt_.spawn(ClaimChunk{this, &records_[c], c, n, iteration});
      merge_when_done(rt_, profile(), f, &records_[c]);
    }
  }

  std::vector<TaskRecord> records_;  // one per chunk: each task's own
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_atomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                     MPI_Comm comm) {
  return std::make_unique<BfsAtomic>(g, opt, rt, comm);
}

}  // namespace ht::impl
