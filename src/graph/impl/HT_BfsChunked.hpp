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
#include <atomic>
#include <memory>

#include "comm/HT_Exchange.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "graph/impl/HT_EdgeChunks.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht::impl {

/// Visited bits that many tasks test and set at once.
class AtomicBitmap {
 public:
  void resize(std::int64_t n) {
    n_words_ = static_cast<std::size_t>((n + 63) / 64);
    words_ = std::make_unique<std::atomic<std::uint64_t>[]>(n_words_);
  }
  void clear() {
    for (std::size_t w = 0; w < n_words_; ++w) words_[w].store(0, std::memory_order_relaxed);
  }
  bool test(std::int64_t j) const { return word(j) & bit(j); }
  /// Word \p w (bits 64 w .. 64 w + 63).
  std::uint64_t word_at(std::size_t w) const { return words_[w].load(std::memory_order_relaxed); }
  /// The word holding j's bit.
  std::uint64_t word(std::int64_t j) const {
    return words_[j >> 6].load(std::memory_order_relaxed);
  }
  /// Sets j's bit; true for the one caller that set it.  A plain load first:
  /// most edges lead to visited vertices and need no atomic write.
  bool claim(std::int64_t j) {
    std::atomic<std::uint64_t>& w = words_[j >> 6];
    return !(w.load(std::memory_order_relaxed) & bit(j)) &&
           !(w.fetch_or(bit(j), std::memory_order_relaxed) & bit(j));
  }

  /// Sets the bits of \p bits in word \p w.
  void set_word(std::size_t w, std::uint64_t bits) {
    words_[w].fetch_or(bits, std::memory_order_relaxed);
  }
  std::size_t words() const { return n_words_; }
  /// Writes to \p out[w] the bits set since \p prev was taken and brings
  /// prev up to date.
  void take_new_words(std::vector<std::uint64_t>& prev, std::uint64_t* out) const {
    for (std::size_t w = 0; w < n_words_; ++w) {
      const std::uint64_t now = words_[w].load(std::memory_order_relaxed);
      out[w] = now & ~prev[w];
      prev[w] = now;
    }
  }

  /// Appends, in increasing order, the bits set since \p prev was taken,
  /// and brings prev up to date.
  void take_new(std::vector<std::uint64_t>& prev, std::vector<std::int64_t>& out) const {
    for (std::size_t w = 0; w < n_words_; ++w) {
      const std::uint64_t now = words_[w].load(std::memory_order_relaxed);
      for (std::uint64_t d = now & ~prev[w]; d; d &= d - 1)
        out.push_back(static_cast<std::int64_t>(w * 64 + __builtin_ctzll(d)));
      prev[w] = now;
    }
  }

 private:
  static std::uint64_t bit(std::int64_t j) { return std::uint64_t(1) << (j & 63); }
  std::unique_ptr<std::atomic<std::uint64_t>[]> words_;
  std::size_t n_words_ = 0;
};

/// One worker's share of a level: touched only by tasks on that worker.
struct alignas(64) Lane {
  std::vector<std::vector<Exchange::Item>> out;  // per destination, up to capacity items
  std::vector<std::uint64_t> scratch;            // incremental: a task's own finds
  std::int64_t task_visits = 0, unique_visits = 0;
  std::int64_t found_vertices = 0, found_edges = 0;  // this level's finds (hybrid's heuristic)
};

class ChunkedBfs : public Bfs {
 public:
  ChunkedBfs(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm);
  /// Top-down levels until no rank finds a vertex.
  const BfsResult& search(std::int64_t root) override;

  // For the variants' tasks.
  AtomicBitmap& seen() { return seen_; }
  std::int64_t* pred() { return res_.pred.data(); }
  const std::int64_t* offsets() const { return g_.offsets.data(); }
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
  /// Spawns Task{self, record, c, n, iteration} for each chunk c < n, each
  /// with a record of its own, merged into the profile as soon as it is done.
  template <class Task, class Self>
  void spawn_chunks(Self* self, int iteration, std::size_t n) {
    profile_.reserve(n);
    for (std::size_t c = 0; c < n; ++c) {
      Future<void> f = rt_.spawn(Task{self, &records_[c], c, n, iteration});
      merge_when_done(rt_, profile_, f, &records_[c]);
    }
  }
  /// Tasks count their finds' degrees too (remote arrivals included).
  void count_found_edges() { count_edges_ = true; }

  // The pieces of a search, for search() and the variants that compose
  // them differently.
  /// Clears the search state, claims the key if it is this rank's and
  /// makes it the frontier.
  void start(std::int64_t root);
  /// One top-down level over the frontier: tasks, their remote finds sent,
  /// the exchange's end of level.  The exchange's level must have begun.
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
  AtomicBitmap seen_;
  AtomicBitmap known_;               // vertices taken or sent this search (all N; none on one rank)
  std::vector<std::uint64_t> prev_;  // seen_ as the level began
  std::vector<std::int64_t> oldq_;   // the frontier, in increasing order
  EdgeChunks chunk_;                 // its edges, cut into chunks
  std::vector<Lane> lanes_;
  std::vector<TaskRecord> records_;  // one per chunk (spawn_chunks): each task's own
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
  const std::int64_t first = r.first(), last = first + r.local_count();
  const std::int64_t* const offsets = g_.offsets.data();
  const std::int64_t* const targets = g_.targets.data();
  const std::int64_t* const oldq = oldq_.data();
  const std::int64_t* const starts = chunk_.starts();
  const auto m = static_cast<std::int64_t>(oldq_.size());
  const std::int64_t e0 = chunk_.edge_begin(c, n), e1 = chunk_.edge_begin(c + 1, n);
  std::int64_t since_pump = 0;
  for (auto q = static_cast<std::int64_t>(chunk_.row_of(e0)); q < m && starts[q] < e1; ++q) {
    const std::int64_t i = oldq[q], u = first + i, base = offsets[i] - starts[q];
    const std::int64_t k_begin = base + std::max(starts[q], e0);
    const std::int64_t k_end = base + std::min(starts[q + 1], e1);
    if (peers_) {
      // On several ranks, local or remote is a coin toss per edge; testing
      // one bitmap over all vertices first (set for every vertex this rank
      // already took or sent) leaves that branch to new vertices only.
      for (std::int64_t k = k_begin; k < k_end; ++k) {
        const std::int64_t v = targets[k];
        if (!known_.claim(v)) continue;
        if (v >= first && v < last)
          local(v - first, u);
        else  // once per search: its owner marks it visited when it arrives
          send(lane, r.owner(v), {v, u});
      }
    } else {
      for (std::int64_t k = k_begin; k < k_end; ++k) local(targets[k] - first, u);
    }
    // Take arrivals now and then: keeps the peers' sends moving.
    if (peers_ && (since_pump += k_end - k_begin) >= 4096) {
      pump();
      since_pump = 0;
    }
  }
  pump();
  return static_cast<std::int64_t>(chunk_.vertex_begin(c + 1, n) - chunk_.vertex_begin(c, n));
}

}  // namespace ht::impl
