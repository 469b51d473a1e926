// Direction-optimizing BFS: S. Beamer, K. Asanović, D. Patterson,
// "Direction-Optimizing Breadth-First Search", SC 2012; distributed over the
// 1D block partition as in S. Beamer, A. Buluç, K. Asanović, D. Patterson,
// "Distributed Memory Breadth-First Search Revisited: Enabling Bottom-Up
// Search", IPDPS Workshops 2013, and the Graph500 reference's replicated
// bitmap BFS.
//
// Top-down levels are the atomic variant's: chunk tasks over the sorted
// frontier's edges claim each local vertex with one fetch_or, and send
// remote finds to their owners through the coalescing exchange.
// Bottom-up levels send no messages: every rank holds the level's frontier
// as a bitmap over all vertices (each rank's part gathered with one
// MPI_Allgatherv), and chunk tasks over the rank's unvisited vertices scan
// each one's neighbours and stop at the first that is in the frontier.
// After each level one allreduce of three counts (frontier vertices, their
// edges, edges still unexplored) lets every rank take the same decision
// (HT_Direction.hpp).  Bitmaps of all vertices (the frontier and the sent
// filter) cost N/8 bytes each per rank; no per-vertex array spans the graph.
#include <algorithm>

#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_ClaimChunk.hpp"

namespace ht::impl {

namespace {

// Fewer words (64 vertices each) than this per bottom-up task cost more to
// spawn than they gain in balance.
constexpr std::size_t kMinChunkWords = 32;

class BfsHybrid;

// Chunk c of n of the rank's vertices, searched bottom-up.
struct UpChunk {
  using value_type = void;
  BfsHybrid* b;
  TaskRecord* record;
  std::size_t chunk, chunks;
  int iteration;
  void operator()(TaskMember&) const;
};
static_assert(sizeof(UpChunk) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this bound");

class BfsHybrid final : public ChunkedBfs {
 public:
  BfsHybrid(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : ChunkedBfs(g, opt, rt, comm),
        policy_(opt.direction),
        front_(static_cast<std::size_t>((g.range.n_global + 63) / 64)),
        mine_(seen_.words()) {
    count_found_edges();
    const VertexRange& r = g.range;
    // Every rank's part of the frontier bitmap starts on a word when the
    // blocks are multiples of 64 vertices (SCALE >= 6 + log2(ranks) with a
    // power-of-two rank count): then MPI_Allgatherv places them; otherwise
    // an MPI_Allreduce with MPI_BOR merges full-size bitmaps.
    gather_ = r.per_rank % 64 == 0;
    for (int p = 0; p < r.size; ++p) {
      const VertexRange o = r.of_rank(p);
      counts_.push_back(static_cast<int>((o.local_count() + 63) / 64));
      displs_.push_back(o.local_count() > 0 ? static_cast<int>(o.first() / 64) : 0);
    }
  }

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = g_.range;
    const int group = searches_++;
    start(root);
    // Edges out of this rank's unvisited vertices.
    std::int64_t unexplored = g_.offsets.back() - (r.mine(root) ? g_.degree(r.local(root)) : 0);
    Direction dir = first_direction(policy_);
    if (dir == Direction::bottom_up) {
      std::fill(front_.begin(), front_.end(), 0);
      front_[root >> 6] = std::uint64_t(1) << (root & 63);
    }
    long long frontier = 1;
    for (int level = 0;; ++level) {
      ex_.begin_level(level);
      const int iteration = profile_.begin_iteration(group, level, static_cast<int>(lanes_.size()));
      res_.bottom_up.push_back(dir == Direction::bottom_up);
      if (dir == Direction::top_down)
        top_down(iteration);
      else
        bottom_up(iteration);
      const auto [vertices, edges] = take_found();
      unexplored -= edges;

      const double sync_start = steady_seconds();
      const long long local[3] = {vertices, edges, unexplored};
      long long global[3];
      sum_over_ranks(local, global, 3, comm_);
      FrontierCounts c{global[0], global[1], global[2], r.n_global, frontier};
      const Direction next = next_direction(policy_, dir, c);
      if (global[0] > 0) {
        if (next == Direction::bottom_up)
          gather_frontier();
        else
          take_frontier();
      }
      record_level(res_, ex_, global[0], sync_start, steady_seconds() - sync_start);
      if (global[0] == 0) break;
      frontier = global[0];
      dir = next;
    }
    end_search();
    return res_;
  }

  // For the bottom-up tasks.
  const std::uint64_t* front() const { return front_.data(); }
  const Csr& graph() const { return g_; }

 private:
  void spawn_level(int iteration, std::size_t n) override {
    spawn_chunks<ClaimChunk>(static_cast<ChunkedBfs*>(this), iteration, n);
  }

  void bottom_up(int iteration) {
    const std::size_t n = std::clamp<std::size_t>(seen_.words() / kMinChunkWords, 1, chunks_);
    spawn_chunks<UpChunk>(this, iteration, n);
    rt_.wait();
  }

  // The next frontier as a bitmap of all vertices, on every rank.
  void gather_frontier() {
    const VertexRange& r = g_.range;
    seen_.take_new_words(prev_, mine_.data());
    if (r.size == 1) {
      std::copy(mine_.begin(), mine_.end(), front_.begin());
      return;
    }
    std::vector<MPI_Request> req(1);
    if (gather_) {
      std::copy(mine_.begin(), mine_.end(), front_.begin() + displs_[r.rank]);
      MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, front_.data(), counts_.data(),
                      displs_.data(), MPI_UINT64_T, comm_, &req[0]);
    } else {
      std::fill(front_.begin(), front_.end(), 0);
      const std::int64_t first = r.first();
      for (std::size_t w = 0; w < mine_.size(); ++w) {
        for (std::uint64_t d = mine_[w]; d; d &= d - 1) {
          const std::int64_t v = first + static_cast<std::int64_t>(w * 64 + __builtin_ctzll(d));
          front_[v >> 6] |= std::uint64_t(1) << (v & 63);
        }
      }
      MPI_Iallreduce(MPI_IN_PLACE, front_.data(), static_cast<int>(front_.size()), MPI_UINT64_T,
                     MPI_BOR, comm_, &req[0]);
    }
    wait_all(req);
  }

  DirectionPolicy policy_;
  std::vector<std::uint64_t> front_;  // the frontier, all vertices (bottom-up levels)
  std::vector<std::uint64_t> mine_;   // this rank's part of it, local words
  bool gather_ = true;
  std::vector<int> counts_, displs_;  // each rank's words in front_
};

void UpChunk::operator()(TaskMember&) const {
  TaskClock clock(b->profile(), *record, iteration, TaskRuntime::worker(), static_cast<int>(chunk));
  const Csr& g = b->graph();
  AtomicBitmap& seen = b->seen();
  const std::size_t words = seen.words();
  const std::size_t w0 = words * chunk / chunks, w1 = words * (chunk + 1) / chunks;
  const std::int64_t n_local = g.range.local_count();
  const std::int64_t* const offsets = g.offsets.data();
  const std::int64_t* const targets = g.targets.data();
  const std::uint64_t* const front = b->front();
  std::int64_t* const pred = b->pred();
  std::int64_t found = 0, edges = 0;
  for (std::size_t w = w0; w < w1; ++w) {
    std::uint64_t todo = ~seen.word_at(w);
    const std::int64_t base = static_cast<std::int64_t>(w) * 64;
    if (n_local - base < 64) todo &= (std::uint64_t(1) << (n_local - base)) - 1;
    std::uint64_t got = 0;
    for (; todo; todo &= todo - 1) {
      const int bit = __builtin_ctzll(todo);
      const std::int64_t j = base + bit;
      for (std::int64_t k = offsets[j], end = offsets[j + 1]; k < end; ++k) {
        const std::int64_t v = targets[k];
        if (front[v >> 6] & (std::uint64_t(1) << (v & 63))) {
          pred[j] = v;
          got |= std::uint64_t(1) << bit;
          edges += end - offsets[j];
          break;
        }
      }
    }
    // This task alone writes word w's bits this level.
    if (got) {
      seen.set_word(w, got);
      found += __builtin_popcountll(got);
    }
  }
  Lane& lane = b->lane();
  lane.found_vertices += found;
  lane.found_edges += edges;
  lane.task_visits += found;
  lane.unique_visits += found;
  clock.items(static_cast<std::int64_t>(w1 - w0) * 64);
  clock.stop();
}

}  // namespace

std::unique_ptr<Bfs> make_bfs_hybrid(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                     MPI_Comm comm) {
  return std::make_unique<BfsHybrid>(g, opt, rt, comm);
}

}  // namespace ht::impl
