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
#include "graph/bfs/impl/HT_BfsChunked.hpp"

namespace ht::impl {

namespace {

// What one task found: its own arrays, read by its merge only.
struct Piece {
  std::vector<std::pair<std::int64_t, std::int64_t>> found;  // (local vertex, parent)...
  std::size_t count = 0;                                     // ...in its first count entries
  TaskRecord record;
};

class BfsIncremental;

struct Find {
  static constexpr bool kLaneIsTask = false;
  static std::int64_t run(BfsIncremental& b, std::size_t chunk, std::size_t chunks);
};

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
  Piece& piece(std::size_t c) { return pieces_[c]; }

 private:
  void spawn_level(int iteration, std::size_t n) override {
    profile().reserve(n);
    for (std::size_t c = 0; c < n; ++c) {
      Future<void> f =
          rt_.spawn(ChunkTask<BfsIncremental, Find>{this, &pieces_[c].record, c, n, iteration});
      // High priority: a finished task's finds reach the shared bitmap before
      // the next chunk starts, so that chunk skips them.
      rt_.spawn_after(f, Merge{this, &pieces_[c]}, TaskPriority::high);
    }
  }

  std::vector<Piece> pieces_;  // one per chunk, reused level after level
};

std::int64_t Find::run(BfsIncremental& b, std::size_t chunk, std::size_t chunks) {
  Lane& lane = b.lane();
  Bitmap& mine = lane.scratch;  // this task's finds
  const Bitmap& seen = b.seen();
  Piece& piece = b.piece(chunk);
  auto& found = piece.found;
  found.clear();
  const std::int64_t items = b.expand(chunk, chunks, lane, [&](std::int64_t j, std::int64_t u) {
    if (!seen.test_atomic(j) && mine.set_new(j)) found.emplace_back(j, u);
  });
  piece.count = found.size();
  // The next task on this worker starts from clean bits.
  for (const auto& f : found) mine.set_word(Bitmap::word_of(f.first), 0);
  return items;
}

}  // namespace

extern const BfsVariant bfs_incremental{
    "incremental",
    "chunk tasks with task-local finds, each task's merged as soon as it is done",
    BfsWork::chunks,
    MPI_THREAD_SERIALIZED,
    BfsReports::redundancy,
    make_variant<BfsIncremental>};

}  // namespace ht::impl
