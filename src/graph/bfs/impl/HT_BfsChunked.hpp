#pragma once
// What the chunked task variants (incremental, atomic, hybrid) share: a visited
// bitmap that tasks read and claim concurrently, per-worker lanes (the
// outgoing buffers and counters of whatever task runs on that worker, so no
// two threads ever touch one), and the level loop, whose next frontier is
// read off the bitmap in increasing vertex order.  Per level, the frontier's
// edges are cut into up to opt.chunks chunks, one task each: the scheduler
// hands the next chunk to whichever worker is free, so a fast worker takes
// more of them.
#include <algorithm>
#include <memory>

#include "comm/HT_Exchange.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/bfs/impl/HT_EdgeScan.hpp"
#include "graph/bfs/impl/HT_Level.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/impl/HT_EdgeChunks.hpp"

namespace ht::impl {

/// One worker's share of a level: touched only by tasks on that worker.
struct alignas(64) Lane {
  std::vector<std::vector<Exchange::Item>> out;  // per destination, up to capacity items
  Bitmap scratch;                                // incremental: a task's own finds
  std::int64_t task_visits = 0, unique_visits = 0;
  std::int64_t found_vertices = 0, found_edges = 0;  // this level's finds (hybrid's heuristic)
};

class ChunkedBfs : public Bfs {
 public:
  ChunkedBfs(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm);
  /// Top-down levels until no rank finds a vertex.
  const BfsResult& search(std::int64_t root) override;

  // For the variants' tasks.
  Bitmap& seen() { return seen_; }
  const Csr& graph() const { return g_; }
  std::int64_t* pred() { return res_.pred.data(); }
  Profile& profile() { return profile_; }
  /// Whether tasks add their finds' degrees to Lane::found_edges.
  bool counts_found_edges() const { return count_edges_; }
  /// The calling task's lane.
  Lane& lane() { return lanes_[TaskRuntime::worker()]; }
  /// Claims local vertex j for parent u; true if this call won it.
  bool claim(std::int64_t j, std::int64_t u) {
    if (!seen_.claim(j)) return false;
    res_.pred[j] = u;
    return true;
  }
  /// Expands chunk c of n: calls local(j, u) for each edge (u, v) of the
  /// chunk whose v is local (j = v's local index), and sends the others to
  /// their owners.  Returns the chunk's frontier vertices (profile items).
  template <class Local>
  std::int64_t expand(std::size_t c, std::size_t n, Lane& lane, Local&& local);
  /// Sends and receives now, unless another task already is.
  void pump() {
    if (peers_) ex_.try_poll(apply_);
  }

 protected:
  /// Spawns one level's n tasks, task c to expand(c, n, ...).
  virtual void spawn_level(int iteration, std::size_t n) = 0;
  /// Gives every lane a zeroed bitmap of the local vertices (Lane::scratch).
  void give_lanes_scratch();
  /// Tasks count their finds' degrees too (remote arrivals included).
  void count_found_edges() { count_edges_ = true; }

  // The pieces of a search, for search() and the variants that compose
  // them differently.
  /// Clears the search state, claims the key if it is this rank's and
  /// makes it the frontier.
  void start(std::int64_t root);
  /// One top-down level over the frontier: tasks, their remote finds sent,
  /// the exchange's end of level.  The level must have begun.
  void top_down(int iteration);
  /// The next oldq: what was claimed this level, in increasing order.
  void take_frontier();
  /// This level's finds (vertices, edges out of them) over the lanes, zeroed.
  std::pair<std::int64_t, std::int64_t> take_found();
  /// The lanes' visit counters into the result.
  void end_search();

  TaskRuntime& rt_;
  const Csr& g_;
  MPI_Comm comm_;
  Profile& profile_;
  std::size_t chunks_;
  bool peers_;
  bool count_edges_ = false;
  int searches_ = 0;
  Exchange ex_;
  Exchange::Handler apply_;
  BfsResult res_;
  Level level_;
  Bitmap seen_;
  Bitmap known_;                    // vertices taken or sent this search (all N; none on one rank)
  Bitmap prev_;                     // seen_ as the level began
  std::vector<std::int64_t> oldq_;  // the frontier, in increasing order
  EdgeChunks chunk_;                // its edges, cut into chunks
  std::vector<Lane> lanes_;
  std::vector<TaskRecord> records_;                        // one per chunk: each task's own
  std::int64_t arrived_vertices_ = 0, arrived_edges_ = 0;  // remote arrivals claimed this level

 private:
  /// Queues a remote find; a full buffer goes to the exchange (lock-free).
  void send(Lane& lane, int dest, Exchange::Item item) {
    std::vector<Exchange::Item>& b = lane.out[dest];
    b.push_back(item);
    if (b.size() >= ex_.capacity()) {
      ex_.post(dest, std::move(b));
      b = {};
      b.reserve(ex_.capacity());
    }
  }
};

// The frontier is sorted, so the rows a chunk reads lie in increasing order
// in the CSR and the hardware prefetchers stream them (in the queue's order
// each row is a cache miss of its own).  Chunks hold equal numbers of edges
// (HT_EdgeChunks.hpp), so a hub cannot make one chunk outlast the level.
template <class Local>
std::int64_t ChunkedBfs::expand(std::size_t c, std::size_t n, Lane& lane, Local&& local) {
  // Plain locals: stores through pred could alias members, forcing reloads.
  const VertexRange& r = g_.range;
  const std::int64_t* const offsets = g_.offsets.data();
  const std::int64_t* const oldq = oldq_.data();
  const std::int64_t* const starts = chunk_.starts();
  const auto m = static_cast<std::int64_t>(oldq_.size());
  const std::int64_t e0 = chunk_.edge_begin(c, n), e1 = chunk_.edge_begin(c + 1, n);
  const auto first_time = [this](std::int64_t v) { return known_.claim(v); };
  const auto remote = [&](int owner, std::int64_t v, std::int64_t u) { send(lane, owner, {v, u}); };
  g_.targets.visit([&](const auto* const targets) {
    std::int64_t since_pump = 0;
    for (auto q = static_cast<std::int64_t>(chunk_.row_of(e0)); q < m && starts[q] < e1; ++q) {
      const std::int64_t i = oldq[q], base = offsets[i] - starts[q];
      const std::int64_t k_begin = base + std::max(starts[q], e0);
      const std::int64_t k_end = base + std::min(starts[q + 1], e1);
      scan_edges(targets, k_begin, k_end, r.global(i), r, peers_, first_time, local, remote);
      // Take arrivals now and then: keeps the peers' sends moving.
      if (peers_ && (since_pump += k_end - k_begin) >= 4096) {
        pump();
        since_pump = 0;
      }
    }
  });
  pump();
  return static_cast<std::int64_t>(chunk_.vertex_begin(c + 1, n) - chunk_.vertex_begin(c, n));
}

}  // namespace ht::impl
