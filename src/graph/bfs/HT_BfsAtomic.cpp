// Level-synchronous top-down BFS with atomic claims: no lock and no
// task-local copy.  A task expanding u claims neighbour v with one atomic
// fetch_or on v's visited bit; only the winner sets pred[v] and queues v, so
// no vertex is expanded twice (the redundant-visit ratio is 1 by
// construction).  The frontier's edges are cut into chunks, one task each
// (impl/HT_BfsChunked.hpp).
// The shared-memory form is the classic one (e.g. Leiserson & Schardl,
// "A work-efficient parallel breadth-first search algorithm", SPAA 2010
// discuss the benign races of such claims); the distributed one follows
// the Graph500 reference's bfs_simple.
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_ClaimChunk.hpp"

namespace ht::impl {

namespace {

class BfsAtomic final : public ChunkedBfs {
 public:
  using ChunkedBfs::ChunkedBfs;

 private:
  void spawn_level(int iteration, std::size_t n) override {
    spawn_chunks<Claim>(rt_, profile_, static_cast<ChunkedBfs*>(this), records_, iteration, n);
  }
};

}  // namespace

extern const BfsVariant bfs_atomic{
    "atomic",
    "chunk tasks claiming each vertex with one atomic operation on its visited bit",
    BfsWork::chunks,
    MPI_THREAD_SERIALIZED,
    BfsReports::redundancy,
    make_variant<BfsAtomic>};

}  // namespace ht::impl
