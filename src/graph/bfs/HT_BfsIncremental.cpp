// Level-synchronous top-down BFS with task-local finds merged incrementally:
// the study's non-locking design without its barrier.  A task expands one
// chunk of the frontier's edges into a list of its own, skipping vertices
// already merged into the rank's visited bitmap; a merge task that depends on
// the task's future claims its finds into visited / pred as soon as it is
// done, while other chunks are still being expanded.  A task sees every
// merge that finished before it looked, so two tasks find the same vertex
// only while both run: with many small chunks, rarely (the redundant-visit
// ratio).
#include <algorithm>

#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_ChunkedSearch.hpp"
#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {

class BfsIncremental final : public Bfs {
 public:
  BfsIncremental(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt),
        s_(g, opt, comm),
        found_(static_cast<std::size_t>(std::max(1, opt.chunks))),
        mine_(s_.workers()) {
    for (Scratch& m : mine_) m.bits.resize(g.range.local_count());
  }

  const BfsResult& search(std::int64_t root) override {
    const int group = s_.start(root);
    for (int level = 0;; ++level) {
      const int iteration = s_.begin_level(group, level);
      if (const std::size_t n = s_.top_down_chunks()) {
        s_.profile().reserve(n);
        for (std::size_t c = 0; c < n; ++c) {
          Future<void> f = rt_.spawn(FindTask{this, c, n, iteration});
          // High priority: a finished task's finds reach the shared bitmap
          // before the next chunk starts, so that chunk skips them.
          rt_.spawn_after(f, MergeTask{this, c}, TaskPriority::high);
        }
        rt_.wait();
      }
      s_.end_top_down();
      if (!s_.next_frontier()) break;
    }
    return s_.finish();
  }

 private:
  // What one task found, read by its merge only.
  struct Found {
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;  // (local vertex, parent)...
    std::size_t count = 0;                                     // ...in its first count entries
  };
  // A worker's bitmap of the running task's finds, clean between tasks.
  struct alignas(64) Scratch {
    Bitmap bits;
  };

  // Chunk c of n: the finds no merge has claimed yet, into found_[c].
  struct FindTask {
    using value_type = void;
    BfsIncremental* b;
    std::size_t chunk, chunks;
    int iteration;

    void operator()(TaskMember&) const {
      static_assert(sizeof(FindTask) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes it");
      ChunkedSearch& s = b->s_;
      TaskClock clock = s.clock(chunk, iteration);
      WorkerState& ws = s.worker_state();
      Bitmap& mine = b->mine_[TaskRuntime::worker()].bits;
      const Bitmap& seen = s.seen();
      Found& out = b->found_[chunk];
      auto& found = out.pairs;
      found.clear();
      clock.items(s.expand(chunk, chunks, ws, [&](std::int64_t j, std::int64_t u) {
        if (!seen.test_atomic(j) && mine.set_new(j)) found.emplace_back(j, u);
      }));
      out.count = found.size();
      // The next task on this worker starts from clean bits.
      for (const auto& f : found) mine.set_word(Bitmap::word_of(f.first), 0);
      clock.stop();
    }
  };

  // Claims chunk c's finds into visited / pred, once its FindTask is done.
  struct MergeTask {
    using value_type = void;
    BfsIncremental* b;
    std::size_t chunk;

    void operator()(TaskMember&) const {
      ChunkedSearch& s = b->s_;
      const Found& out = b->found_[chunk];
      WorkerState& ws = s.worker_state();
      ws.task_visits += static_cast<std::int64_t>(out.count);
      const auto* found = out.pairs.data();
      for (std::size_t f = 0; f < out.count; ++f)
        ws.unique_visits += s.claim(found[f].first, found[f].second);
      s.profile().merge(*s.record(chunk));
      s.pump();
    }
  };

  TaskRuntime& rt_;
  ChunkedSearch s_;
  std::vector<Found> found_;   // one per chunk, reused level after level
  std::vector<Scratch> mine_;  // one per worker
};

}  // namespace

extern const BfsVariant bfs_incremental{
    "incremental",
    "chunk tasks with task-local finds, each task's merged as soon as it is done",
    BfsWork::chunks,
    MPI_THREAD_SERIALIZED,
    BfsReports::redundancy,
    /*visits_once=*/false,
    /*bottom_up=*/false,
    make_variant<BfsIncremental>};

}  // namespace ht::impl
