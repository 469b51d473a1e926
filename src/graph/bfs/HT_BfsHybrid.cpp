// Direction-optimizing BFS: S. Beamer, K. Asanović, D. Patterson,
// "Direction-Optimizing Breadth-First Search", SC 2012; distributed over the
// 1D block partition as in S. Beamer, A. Buluç, K. Asanović, D. Patterson,
// "Distributed Memory Breadth-First Search Revisited: Enabling Bottom-Up
// Search", IPDPS Workshops 2013, and the Graph500 reference's replicated
// bitmap BFS.
//
// Top-down levels are the atomic variant's (impl/HT_ClaimLevel.hpp): chunk
// tasks over the sorted frontier's edges claim each local vertex with one
// fetch_or, and send remote finds to their owners through the exchange.
// Bottom-up levels send no messages: every rank holds the level's frontier
// as a bitmap over all vertices (each rank's part gathered by ht::allgather,
// HT_Bitmap.hpp), and chunk tasks over the rank's unvisited vertices scan
// each one's neighbours and stop at the first that is in the frontier.
// Each row's first target is also held in a dense array (4 or 8 bytes a
// vertex): with kernel 1's rows ordered by degree (HT_RowOrder.hpp) it is the
// row's hub (on several ranks, its hub among this rank's vertices), which
// finds most vertices without touching their rows (Yasui et al., HPCS 2015,
// order rows so; the dense copy saves the cache miss a row).
// After each level one allreduce of three counts (frontier vertices, their
// edges, edges still unexplored) lets every rank take the same decision
// (HT_Direction.hpp).  Bitmaps of all vertices (the frontier and the sent
// filter) cost N/8 bytes each per rank; no per-vertex array spans the graph.
// On the 2D partition the row's make_2d runs HT_Bfs2D.cpp's kernel instead.
#include <algorithm>
#include <type_traits>

#include "graph/bfs/HT_Bfs2D.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_ClaimLevel.hpp"
#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {

// Fewer words (64 vertices each) than this per bottom-up task cost more to
// spawn than they gain in balance.
constexpr std::size_t kMinChunkWords = 32;

class BfsHybrid final : public Bfs {
 public:
  BfsHybrid(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt),
        g_(g),
        comm_(comm),
        s_(g, opt, comm),
        policy_(opt.direction),
        front_(g.range.n_global),
        mine_(g.range.local_count()) {
    s_.count_found_edges();
    // Each row's first target beside the others, or the vertex itself (never
    // in the frontier: it is unvisited when asked) for an empty row.
    const std::int64_t n = g.range.local_count();
    first_.assign(static_cast<std::size_t>(n), g.targets.wide());
    for (std::int64_t j = 0; j < n; ++j)
      first_.set(j, g.degree(j) > 0 ? g.targets[g.offsets[j]] : g.range.global(j));
  }

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    const int group = s_.start(root);
    // Edges out of this rank's unvisited vertices.
    std::int64_t unexplored = g_.offsets.back() - (r.mine(root) ? g_.degree(r.local(root)) : 0);
    Direction dir = first_direction(policy_);
    if (dir == Direction::bottom_up) {
      front_.clear();
      front_.set(root);
    }
    long long frontier = 1;
    for (int level = 0;; ++level) {
      const int iteration = s_.begin_level(group, level);
      s_.result().bottom_up.push_back(dir == Direction::bottom_up);
      if (dir == Direction::top_down) {
        if (s_.team_run_fits()) {
          // Small levels on one rank: one team run while they stay small and top-down.
          const int first = level;
          level = s_.team_levels(
              group, level, iteration, unexplored, frontier, [this](const FrontierCounts& c) {
                return next_direction(policy_, Direction::top_down, c) == Direction::top_down;
              });
          s_.result().bottom_up.resize(s_.result().bottom_up.size() + (level - first), 0);
        } else {
          claim_level(s_, rt_, iteration);
        }
        s_.end_top_down();
      } else {
        s_.unlisted_claims();
        const std::size_t words = s_.seen().words();
        if (static_cast<std::int64_t>(words) + unexplored < kTeamEdges) {
          // Few edges left to look at (a grid's last levels): one fork-join.
          const std::size_t t = std::min(s_.workers(), s_.max_chunks());
          team_chunks(s_.profile(), s_.records(), t, [&](std::size_t c) {
            UpTask{this, c, t, iteration}.run();
          });
        } else {
          const std::size_t n = std::clamp<std::size_t>(words / kMinChunkWords, 1, s_.max_chunks());
          s_.profile().reserve(n);
          for (std::size_t c = 0; c < n; ++c)
            merge_when_done(rt_, s_.profile(), rt_.spawn(UpTask{this, c, n, iteration}),
                            s_.record(c));
          rt_.wait();
        }
      }
      const auto [vertices, edges] = s_.take_found();
      unexplored -= edges;

      const long long local[3] = {vertices, edges, unexplored};
      long long global[3];
      s_.level().sum(local, global, 3);
      const Direction next =
          next_direction(policy_, dir, {global[0], global[1], global[2], r.n_global, frontier});
      if (global[0] > 0) {
        if (next == Direction::bottom_up)
          gather_frontier();
        else
          s_.take_frontier();
      }
      if (!s_.level().record(global[0])) break;
      frontier = global[0];
      dir = next;
    }
    return s_.finish();
  }

 private:
  // Chunk c of n of the rank's vertices, searched bottom-up.
  struct UpTask {
    using value_type = void;
    BfsHybrid* b;
    std::size_t chunk, chunks;
    int iteration;
    void operator()(TaskMember&) const { run(); }
    void run() const;
  };

  // The next frontier as a bitmap of all vertices, on every rank: this
  // rank's new bits (local work), then the gather (a closing collective).
  void gather_frontier() {
    s_.take_new(mine_);
    s_.level().sync([this] { allgather(mine_, g_.range, front_, comm_); });
    mine_.clear();
  }

  TaskRuntime& rt_;
  const Csr& g_;
  MPI_Comm comm_;
  ChunkedSearch s_;
  DirectionPolicy policy_;
  Bitmap front_;   // the frontier, all vertices (bottom-up levels)
  Bitmap mine_;    // this rank's part of it
  Targets first_;  // each row's first target (order_rows: its local hub)
};

void BfsHybrid::UpTask::run() const {
  static_assert(sizeof(UpTask) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this");
  ChunkedSearch& s = b->s_;
  TaskClock clock = s.clock(chunk, iteration);
  const Csr& g = b->g_;
  Bitmap& seen = s.seen();
  const Bitmap& front = b->front_;
  const std::size_t words = seen.words();
  const std::size_t w0 = words * chunk / chunks, w1 = words * (chunk + 1) / chunks;
  const std::int64_t* const offsets = g.offsets.data();
  std::int64_t* const pred = s.pred();
  std::int64_t found = 0, edges = 0;
  // A row's first target is read from a dense array (a stream, not a cache
  // miss per row); with rows ordered by degree it is the hub, which finds
  // most vertices.  The rest of the rows of kBatch words are scanned after,
  // each prefetched kAhead rows before.
  constexpr std::size_t kBatch = 4, kAhead = 8;
  std::int64_t rest[kBatch * 64];
  g.targets.visit([&](const auto* const targets) {
    using Id = std::remove_const_t<std::remove_pointer_t<decltype(targets)>>;
    const Id* const first = b->first_.data<Id>();  // as wide as the targets
    for (std::size_t wb = w0; wb < w1; wb += kBatch) {
      const std::size_t we = std::min(w1, wb + kBatch);
      std::size_t n = 0;
      Bitmap::Word got[kBatch] = {};
      for (std::size_t w = wb; w < we; ++w) {
        Bitmap::for_each_bit(seen.clear_atomic(w), w, [&](std::int64_t j) {
          const std::int64_t v = first[j];
          if (front.test(v)) {
            pred[j] = v;
            got[w - wb] |= Bitmap::bit_of(j);
            edges += offsets[j + 1] - offsets[j];
          } else if (offsets[j + 1] - offsets[j] > 1) {
            rest[n++] = j;
          }
        });
      }
      for (std::size_t x = 0; x < n; ++x) {
        if (x + kAhead < n) __builtin_prefetch(targets + offsets[rest[x + kAhead]] + 1);
        const std::int64_t j = rest[x];
        for (std::int64_t k = offsets[j] + 1, end = offsets[j + 1]; k < end; ++k) {
          const std::int64_t v = targets[k];
          if (front.test(v)) {
            pred[j] = v;
            got[Bitmap::word_of(j) - wb] |= Bitmap::bit_of(j);
            edges += end - offsets[j];
            break;
          }
        }
      }
      // This task alone writes these words' bits this level.
      for (std::size_t w = wb; w < we; ++w) {
        if (got[w - wb]) {
          seen.or_word_atomic(w, got[w - wb]);
          found += Bitmap::count(got[w - wb]);
        }
      }
    }
  });
  s.worker_state().count_claims(found, edges);
  clock.items(Bitmap::first_of(w1) - Bitmap::first_of(w0));
  clock.stop();
}

}  // namespace

extern const BfsVariant bfs_hybrid{
    "hybrid",
    "direction-optimizing: atomic's top-down levels, and bottom-up levels against a frontier "
    "bitmap gathered on every rank (Beamer et al., SC 2012 / IPDPS-W 2013); see "
    "Graph500/direction, alpha, beta",
    BfsWork::chunks,
    MPI_THREAD_SERIALIZED,
    BfsReports::redundancy,
    /*visits_once=*/true,
    /*bottom_up=*/true,
    make_variant<BfsHybrid>,
    make_direction_optimizing_2d};

}  // namespace ht::impl
