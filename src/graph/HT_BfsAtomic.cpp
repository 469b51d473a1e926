// Level-synchronous top-down BFS with atomic claims: no lock and no
// task-local copy.  A task expanding u claims neighbour v with one atomic
// fetch_or on v's visited bit; only the winner sets pred[v] and queues v, so
// no vertex is expanded twice (the redundant-visit ratio is 1 by
// construction).  oldq is cut into chunks, one task each (HT_BfsChunked.hpp).
// The shared-memory form is the classic one (e.g. Leiserson & Schardl,
// "A work-efficient parallel breadth-first search algorithm", SPAA 2010
// discuss the benign races of such claims); the distributed one follows
// the Graph500 reference's bfs_simple.
#include "graph/impl/HT_BfsChunked.hpp"

namespace ht::impl {

namespace {

struct Expand {
  using value_type = void;
  ChunkedBfs* b;
  TaskRecord* record;
  std::size_t begin, end;
  int iteration, task;

  void operator()(TaskMember&) const {
    TaskClock clock(b->profile(), *record, iteration, TaskRuntime::worker(), task);
    Lane& lane = b->lane();
    const Csr& g = b->graph();
    // Locals, not members: stores through pred could alias them.
    const VertexRange& r = g.range;
    const std::int64_t first = r.first(), last = first + r.local_count();
    const std::int64_t* const offsets = g.offsets.data();
    const std::int64_t* const targets = g.targets.data();
    const std::int64_t* const oldq = b->oldq().data();
    std::int64_t* const pred = b->pred();
    AtomicBitmap& seen = b->seen();
    const bool peers = b->peers();
    std::int64_t claims = 0;
    for (std::size_t q = begin; q < end; ++q) {
      const std::int64_t i = oldq[q], u = first + i;
      for (std::int64_t k = offsets[i], k_end = offsets[i + 1]; k < k_end; ++k) {
        const std::int64_t v = targets[k];
        if (v >= first && v < last) {
          const std::int64_t j = v - first;
          if (seen.claim(j)) {
            pred[j] = u;
            lane.found.push_back(j);
            ++claims;
          }
        } else {
          b->send(lane, r.owner(v), {v, u});
        }
      }
      if (peers && (q - begin) % 64 == 63) b->pump();
    }
    lane.task_visits += claims;  // each claim is a visit, and no other task's
    lane.unique_visits += claims;
    b->pump();
    clock.items(static_cast<std::int64_t>(end - begin));
    clock.stop();
  }
};
static_assert(sizeof(Expand) <= kLargestTaskBytes, "bfs_pool_bytes() assumes this bound");

class BfsAtomic final : public ChunkedBfs {
 public:
  BfsAtomic(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : ChunkedBfs(g, opt, rt, comm), records_(static_cast<std::size_t>(std::max(1, opt.chunks))) {}

 private:
  void spawn_level(int iteration, std::size_t n) override {
    profile().reserve(n);
    for (std::size_t c = 0; c < n; ++c) {
      Future<void> f = rt_.spawn(
          Expand{this, &records_[c], begin(c, n), begin(c + 1, n), iteration, static_cast<int>(c)});
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
