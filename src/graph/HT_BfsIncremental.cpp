// Level-synchronous top-down BFS with task-local finds merged incrementally:
// the study's non-locking design without its barrier.  A task expands one
// chunk of the frontier's edges into a list of its own, skipping vertices already merged
// into the rank's visited bitmap; a merge task that depends on the task's
// future claims its finds into visited / pred / newq as soon as it is done,
// while other chunks are still being expanded.  A task sees every merge that
// finished before it looked, so two tasks find the same vertex only while
// both run: with many small chunks, rarely (the redundant-visit ratio).
#include <algorithm>

#include "graph/impl/HT_BfsChunked.hpp"

namespace ht::impl {

namespace {

// What one task found: its own arrays, read by its merge only.
struct Piece {
  std::vector<std::pair<std::int64_t, std::int64_t>> found;  // (local vertex, parent)...
  std::size_t count = 0;                                     // ...in its first count entries
  TaskRecord record;
};

struct Expand {
  using value_type = void;
  ChunkedBfs* b;
  Piece* piece;
  std::size_t chunk, chunks;
  int iteration;

  void operator()(TaskMember&) const {
    TaskClock clock(b->profile(), piece->record, iteration, TaskRuntime::worker(),
                    static_cast<int>(chunk));
    Lane& lane = b->lane();
    std::uint64_t* const mine = lane.scratch.data();  // this task's finds, as bits
    const AtomicBitmap& seen = b->seen();
    auto& found = piece->found;
    found.clear();
    clock.items(b->expand(chunk, chunks, lane, [&](std::int64_t j, std::int64_t u) {
      const std::uint64_t bit = std::uint64_t(1) << (j & 63);
      if (!(seen.word(j) & bit) && !(mine[j >> 6] & bit)) {
        mine[j >> 6] |= bit;
        found.emplace_back(j, u);
      }
    }));
    const std::size_t n = found.size();
    piece->count = n;
    // The next task on this worker starts from clean bits.
    for (std::size_t f = 0; f < n; ++f) mine[found[f].first >> 6] = 0;
    clock.stop();
  }
};
static_assert(sizeof(Expand) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this bound");

struct Merge {
  using value_type = void;
  ChunkedBfs* b;
  Piece* piece;

  void operator()(TaskMember&) const {
    Lane& lane = b->lane();
    lane.task_visits += static_cast<std::int64_t>(piece->count);
    const auto* found = piece->found.data();
    for (std::size_t f = 0; f < piece->count; ++f)
      lane.unique_visits += b->claim(found[f].first, found[f].second);
    b->profile().merge(piece->record);
    b->pump();
  }
};

class BfsIncremental final : public ChunkedBfs {
 public:
  BfsIncremental(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : ChunkedBfs(g, opt, rt, comm), pieces_(static_cast<std::size_t>(std::max(1, opt.chunks))) {
    give_lanes_scratch();
  }

 private:
  void spawn_level(int iteration, std::size_t n) override {
    profile().reserve(n);
    for (std::size_t c = 0; c < n; ++c) {
      Future<void> f = rt_.spawn(Expand{this, &pieces_[c], c, n, iteration});
      // High priority: a finished task's finds reach the shared bitmap before
      // the next chunk starts, so that chunk skips them.
      rt_.spawn_after(f, Merge{this, &pieces_[c]}, Kokkos::TaskPriority::High);
    }
  }

  std::vector<Piece> pieces_;  // one per chunk, reused level after level
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_incremental(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                          MPI_Comm comm) {
  return std::make_unique<BfsIncremental>(g, opt, rt, comm);
}

}  // namespace ht::impl
