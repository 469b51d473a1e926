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
      : ChunkedBfs(g, opt, rt, comm) {}

 private:
  void spawn_level(int iteration, std::size_t n) override {
    spawn_chunks<ClaimChunk>(static_cast<ChunkedBfs*>(this), iteration, n);
  }
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_atomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                     MPI_Comm comm) {
  return std::make_unique<BfsAtomic>(g, opt, rt, comm);
}

}  // namespace ht::impl
