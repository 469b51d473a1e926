#pragma once
// What the chunked task variants (incremental, atomic) share: a visited
// bitmap that tasks read and claim concurrently, per-worker lanes (the finds
// and outgoing buffers of whatever task runs on that worker, so no two
// threads ever touch one), and the level loop.  Per level, oldq is cut into
// up to opt.chunks chunks, one task each: the scheduler hands the next chunk
// to whichever worker is free, so a fast worker takes more of them.
#include <atomic>
#include <memory>

#include "comm/HT_Exchange.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
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

 private:
  static std::uint64_t bit(std::int64_t j) { return std::uint64_t(1) << (j & 63); }
  std::unique_ptr<std::atomic<std::uint64_t>[]> words_;
  std::size_t n_words_ = 0;
};

/// One worker's share of a level: touched only by tasks on that worker.
struct alignas(64) Lane {
  std::vector<std::int64_t> found;               // next-frontier vertices claimed here
  std::vector<std::vector<Exchange::Item>> out;  // per destination, up to capacity items
  std::vector<std::uint64_t> scratch;            // incremental: a task's own finds
  std::int64_t task_visits = 0, unique_visits = 0;
};

class ChunkedBfs : public Bfs {
 public:
  ChunkedBfs(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm);
  const BfsResult& search(std::int64_t root) final;

  // For the variants' tasks.
  const Csr& graph() const { return g_; }
  const std::vector<std::int64_t>& oldq() const { return oldq_; }
  AtomicBitmap& seen() { return seen_; }
  std::int64_t* pred() { return res_.pred.data(); }
  Profile& profile() { return profile_; }
  /// The calling task's lane.
  Lane& lane() { return lanes_[TaskRuntime::worker()]; }
  /// Claims local vertex j for parent u; true if this call won it.
  bool claim(Lane& lane, std::int64_t j, std::int64_t u) {
    if (!seen_.claim(j)) return false;
    res_.pred[j] = u;
    lane.found.push_back(j);
    return true;
  }
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
  /// Sends and receives now, unless another task already is.
  void pump() {
    if (peers_) ex_.try_poll(apply_);
  }
  bool peers() const { return peers_; }

 protected:
  /// Spawns one level's tasks: chunk c of \p n covers oldq()[begin(c), begin(c + 1)).
  virtual void spawn_level(int iteration, std::size_t n) = 0;
  std::size_t begin(std::size_t c, std::size_t n) const { return oldq_.size() * c / n; }
  /// Gives every lane a zeroed bitmap of the local vertices (Lane::scratch).
  void give_lanes_scratch();
  TaskRuntime& rt_;

 private:
  const Csr& g_;
  MPI_Comm comm_;
  Profile& profile_;
  std::size_t chunks_;
  bool peers_;
  int searches_ = 0;
  Exchange ex_;
  Exchange::Handler apply_;
  BfsResult res_;
  AtomicBitmap seen_;
  std::vector<std::int64_t> oldq_;
  std::vector<Lane> lanes_;
};

}  // namespace ht::impl
