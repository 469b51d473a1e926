#include "graph/sssp/HT_DeltaStepping.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Outbox.hpp"
#include "comm/HT_TeamBarrier.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/sssp/impl/HT_SentFilter.hpp"
#include "graph/sssp/impl/HT_SsspState.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HugePages.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

// A vertex's state and a distance's bucket: impl/HT_SsspState.hpp.
using State = impl::SsspState;
using impl::dist_of;
using impl::kLastBucket;
using impl::kNoParent;
constexpr auto& bits = impl::float_bits;
constexpr auto& pack = impl::pack_state;
const State kUnreached = impl::kUnreachedState;
constexpr std::int64_t kNone = impl::kNoBucket;

// A plain atomic read (Kokkos 3.4 has none outside Kokkos::Impl; every
// compiler Kokkos supports on hosts has this builtin).
State load(const State* s) { return __atomic_load_n(s, __ATOMIC_RELAXED); }
void store(State* s, State x) { __atomic_store_n(s, x, __ATOMIC_RELAXED); }

// A vertex waiting in a bucket, with the distance it had when it was put
// there: an entry whose vertex has moved on since is stale and skipped.
struct Entry {
  std::uint32_t j;  // local index: SSSP runs on at most 2^32 vertices
  std::uint32_t d;
};

// How many edges ahead relax_edges prefetches a target's state: a target's
// state is a cache miss of its own, and without the prefetch a search ran
// 10-20% slower; 8 and 16 ahead ran alike.
constexpr std::int64_t kAhead = 8;
// Frontier entries expand filters at a time (the next block's states are
// requested before this one's rows are relaxed).
constexpr std::size_t kBlock = 32;
// A live row's first edges are fetched this many rows before it is relaxed.
constexpr std::size_t kRowsAhead = 3;
// Appends to a bin with the growth out of line, so that the common path is
// inlined into the relaxation loop (the compiler kept a plain push_back a
// call there).
[[gnu::noinline]] void grow(std::vector<Entry>& bin) {
  bin.reserve(std::max<std::size_t>(256, 2 * bin.capacity()));
}
[[gnu::always_inline]] inline void append(std::vector<Entry>& bin, Entry e) {
  if (__builtin_expect(bin.size() == bin.capacity(), 0)) grow(bin);
  bin.push_back(e);
}

// A team run's threads take a wave's entries at most this many at a time
// (one atomic add each), and at least 4 blocks a thread: dynamic, as
// gapbs's schedule(dynamic, 64), so that a thread that wakes late takes less.
constexpr std::size_t kTeamBlock = 64;
// A team run's thread fuses its own finds in the bucket while they are fewer
// than this (gapbs's kBinSizeThreshold is 1000); more wait for a shared wave.
constexpr std::size_t kFuseEntries = 1024;

// Buckets a fused phase may take where a level's end costs a collective
// (nbx): fewer phases, at the price of relaxations a remote distance undoes.
constexpr int kNbxWindow = 4;

// auto_delta: this many times the mean weight over the squared mean degree
// (docs/performance/sssp.md#delta).
constexpr double kAutoDeltaScale = 4;

constexpr std::int64_t kRing = DeltaStepping::kRingBuckets;
static_assert((kRing & (kRing - 1)) == 0, "the ring's slots: a bucket's low bits");
std::size_t slot_of(std::int64_t b) { return static_cast<std::size_t>(b & (kRing - 1)); }

// An entry beyond the ring, with its bucket.
struct FarEntry {
  std::int64_t b;
  Entry e;
};
// A min-heap by bucket (std::push_heap keeps the largest first).
bool later(const FarEntry& x, const FarEntry& y) { return x.b > y.b; }

}  // namespace

class DeltaStepping::Impl {
 public:
  /// One worker's share of a phase: touched only by tasks on that worker.
  struct alignas(64) WorkerState {
    Outbox out;                            // remote relaxations, by destination
    std::vector<std::vector<Entry>> bins;  // found this phase: the ring's slots
    std::vector<FarEntry> far;             // found this phase, beyond the ring
    std::vector<std::uint32_t> taken;      // classic: the live vertices it took
    std::int64_t lo = kNone, hi = 0;       // the ring's buckets touched: [lo, hi)
    std::int64_t sent_low = kNone;         // the least bucket it sent this phase
    std::int64_t relaxations = 0;
  };

  Impl(const Csr& g, const SsspOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : g_(g),
        opt_(opt),
        rt_(rt),
        profile_(profile_or_off(opt.profile)),
        peers_(g.range.size > 1),
        ex_(comm, opt.buffer_items) {
    if (!on_every_rank(g.weights.size() == g.targets.size(), comm))
      throw UsageError("SSSP needs the edges' weights: the graph was built without them");
    if (!on_every_rank(g.split_rows(), comm))
      throw UsageError(
          "SSSP needs each row's local targets first (Csr::split, as kernel 1 builds)");
    impl::check_search(g.range.n_global, opt.delta);
    if (opt.delta == 0) opt_.delta = auto_delta(g, comm);
    inverse_delta_ = impl::inverse_of(opt_.delta);
    if (opt.window < 0)
      throw UsageError("SSSP window must be >= 0 (0: automatic), not " +
                       std::to_string(opt.window));
    // One rank has no remote distance to wait for: its fused phase goes on
    // through every bucket, as a sequential delta-stepping does.
    window_ = opt.window > 0                                    ? opt.window
              : !peers_                                         ? kLastBucket
              : ex_.termination() == Exchange::Termination::nbx ? kNbxWindow
                                                                : 1;
    if (opt.variant == SsspVariant::classic) window_ = 1;
    sent_budget_ = opt.sent_filter_bytes ? opt.sent_filter_bytes : g.targets.bytes() / 2;
    workers_.resize(static_cast<std::size_t>(Kokkos::OpenMP().concurrency()));
    shared_ = workers_.size() > 1;
    // This rank's mean degree: waves are cut here alone.
    mean_degree_ =
        std::max(1.0, static_cast<double>(g.targets.size()) /
                          static_cast<double>(std::max<std::int64_t>(1, g.range.local_count())));
    // A wave's entries are counted at the graph's mean degree (64 entries
    // on the Kronecker graphs, 512 on a grid).
    min_chunk_entries_ = static_cast<std::size_t>(
        std::max(64.0, static_cast<double>(impl::kMinChunkEdges) / mean_degree_));
    for (WorkerState& l : workers_) {
      l.out.attach(ex_);
      l.bins.resize(static_cast<std::size_t>(kRing));
    }
    bins_.resize(static_cast<std::size_t>(kRing));
    assign_in_huge_pages(state_, static_cast<std::size_t>(g.range.local_count()), kUnreached);
    apply_ = [this](const Exchange::Item* items, std::size_t k) {
      WorkerState& ws = this->worker_state();
      for (std::size_t i = 0; i < k; ++i) {
        relax(ws, g_.range.local(items[i].vertex), static_cast<State>(items[i].value));
      }
    };
  }

  Profile& profile() { return profile_; }
  double delta() const { return opt_.delta; }
  WorkerState& worker_state() { return workers_[static_cast<std::size_t>(TaskRuntime::worker())]; }

  /// Atomic min of local vertex j's state by distance alone; a win puts j in
  /// its bucket (never one already taken: those are settled).  Inlined by
  /// force: left to itself the compiler called it per edge, and 4 x 1
  /// searches ran 10% slower.  With one worker no other thread writes a
  /// state, and a plain store does without the locked instruction.
  [[gnu::always_inline]] void relax(WorkerState& ws, std::int64_t j, State want) {
    State* s = &state_[static_cast<std::size_t>(j)];
    State cur = load(s);
    while ((want >> 32) < (cur >> 32)) {
      const State seen =
          shared_ ? Kokkos::atomic_compare_exchange(s, cur, want) : (store(s, want), cur);
      if (seen == cur) {
        const std::int64_t b = std::max(bucket_, bucket_of(dist_of(want)));
        const Entry e{static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(want >> 32)};
        if (__builtin_expect(b - ring_ >= kRing, 0)) return put_far(ws, b, e);
        append(ws.bins[slot_of(b)], e);
        ws.lo = std::min(ws.lo, b);
        ws.hi = std::max(ws.hi, b + 1);
        return;
      }
      cur = seen;
    }
  }

  /// Out of line, as append's growth: the rare path kept out of the relaxation loop.
  [[gnu::noinline]] static void put_far(WorkerState& ws, std::int64_t b, Entry e) {
    ws.far.push_back({b, e});
  }

  std::int64_t bucket_of(float d) const { return impl::bucket_of(d, inverse_delta_); }

  enum class Edges { light, heavy, all };
  /// Chunk c of n of the phase's frontier: its live entries relax their
  /// edges of one kind.  (A template: the kind test folds away in the edge loop.)
  template <Edges kind>
  std::int64_t expand(std::size_t c, std::size_t n) {
    return g_.targets.visit([&](const auto* const targets) { return expand<kind>(c, n, targets); });
  }
  template <Edges kind, class T>
  std::int64_t expand(std::size_t c, std::size_t n, const T* const targets) {
    const std::size_t m = frontier_.size();
    return expand_range<kind>(this->worker_state(), frontier_.data(), m * c / n, m * (c + 1) / n,
                              targets);
  }
  /// Entries [q0, q1) of \p frontier on worker state \p ws; returns the live ones.
  template <Edges kind, class T>
  std::int64_t expand_range(WorkerState& ws, const Entry* const frontier, std::size_t q0,
                            std::size_t q1, const T* const targets) {
    const std::int64_t* const offsets = g_.offsets.data();
    const float* const weights = g_.weights.data();
    std::int64_t relaxed = 0, live = 0;
    // A block at a time: its stale entries dropped first, in a tight loop
    // (the states of every block but a chunk's first were requested a block
    // earlier), so that the rows' prefetches below run ahead over live rows only.
    struct Row {
      std::uint32_t j;
      float du;
    };
    Row rows[kBlock];
    for (std::size_t b0 = q0; b0 < q1; b0 += kBlock) {
      const std::size_t b1 = std::min(b0 + kBlock, q1);
      for (std::size_t q = b1; q < std::min(b1 + kBlock, q1); ++q) {
        __builtin_prefetch(state_.data() + frontier[q].j);
        __builtin_prefetch(offsets + frontier[q].j);
      }
      std::size_t k = 0;
      for (std::size_t q = b0; q < b1; ++q) {
        const State st = load(&state_[frontier[q].j]);
        rows[k] = {frontier[q].j, dist_of(st)};
        k += static_cast<std::uint32_t>(st >> 32) == frontier[q].d;
      }
      live += static_cast<std::int64_t>(k);
      for (std::size_t r = 0; r < k; ++r) {
        // Three stages ahead: the first edges of the row kRowsAhead on (and
        // its split), and the targets' states of the next row's first
        // kAhead edges.  Short rows (a grid's, a road's) relax only a few
        // edges each, so the in-row prefetches of relax_edges rarely fire.
        if (r + kRowsAhead < k) {
          const std::int64_t o = offsets[rows[r + kRowsAhead].j];
          __builtin_prefetch(targets + o);
          __builtin_prefetch(weights + o);
          if (!g_.split.empty()) __builtin_prefetch(g_.split.data() + rows[r + kRowsAhead].j);
        }
        if (r + 1 < k) {
          // Its local targets only: a remote one has no state here.
          const std::int64_t a = offsets[rows[r + 1].j];
          const std::int64_t e = std::min(g_.local_end(rows[r + 1].j), a + kAhead);
          for (std::int64_t x = a; x < e; ++x)
            __builtin_prefetch(state_.data() +
                               (static_cast<std::int64_t>(targets[x]) - g_.range.first()));
        }
        const std::int64_t i = rows[r].j;
        if (kind == Edges::light) ws.taken.push_back(rows[r].j);
        const std::int64_t k0 = offsets[i], k1 = offsets[i + 1];
        relaxed += relax_edges<kind>(ws, targets, i, rows[r].du, k0, k1);
        if (peers_) ws.out.pump_now_and_then(k1 - k0, apply_);
      }
    }
    if (peers_) ex_.try_poll(apply_);
    ws.relaxations += relaxed;
    return live;
  }

  /// Edges [k0, k1) of local vertex i, at distance du, those of one kind:
  /// its local targets (first in the row, Csr::split) by an atomic min, its
  /// remote ones sent to their owners.
  template <Edges kind, class T>
  std::int64_t relax_edges(WorkerState& ws, const T* const targets, std::int64_t i, float du,
                           std::int64_t k0, std::int64_t k1) {
    const VertexRange& r = g_.range;
    const float* const weights = g_.weights.data();
    // In range first: a double beyond the largest float has no float value.
    const auto delta =
        static_cast<float>(std::min(opt_.delta, double{std::numeric_limits<float>::max()}));
    const std::int64_t u = r.global(i), first = r.first();
    const std::int64_t split = std::clamp(g_.local_end(i), k0, k1);
    const auto light = [&](float w) {
      return kind == Edges::all || (w < delta) == (kind == Edges::light);
    };
    std::int64_t relaxed = 0;
    for (std::int64_t k = k0; k < split; ++k) {
      // The state of a target some edges ahead: its line arrives while
      // these edges are relaxed (the state array outgrows L2 from SCALE 18).
      if (k + kAhead < split)
        __builtin_prefetch(state_.data() +
                           (static_cast<std::int64_t>(targets[k + kAhead]) - first));
      const float w = weights[k];
      if (!light(w)) continue;
      ++relaxed;
      relax(ws, static_cast<std::int64_t>(targets[k]) - first, pack(du + w, u));
    }
    for (std::int64_t k = split; k < k1; ++k) {
      // So is a remote target's filter word.
      if (k + kAhead < k1)
        __builtin_prefetch(sent_.word(static_cast<std::int64_t>(targets[k + kAhead])));
      const float w = weights[k];
      if (!light(w)) continue;
      ++relaxed;
      const std::int64_t v = targets[k], b = bucket_of(du + w);
      if (sent_.admit(v, b)) {
        // Where the owner would put it if it wins (relax).
        ws.sent_low = std::min(ws.sent_low, std::max(floor_, b));
        ws.out.send(r.owner(v), {v, static_cast<std::int64_t>(pack(du + w, u))});
      }
    }
    return relaxed;
  }

  const SsspResult& search(std::int64_t root);

 private:
  template <Edges kind>
  struct Relax {
    static constexpr bool kLaneIsTask = false;
    static std::int64_t run(Impl& s, std::size_t c, std::size_t n) {
      return s.template expand<kind>(c, n);
    }
  };
  using Light = Relax<Edges::light>;
  using Heavy = Relax<Edges::heavy>;
  using All = Relax<Edges::all>;

  /// Moves the workers' finds into the rank's buckets: only the bins each
  /// worker touched, not every bucket once per phase.
  void gather_bins() {
    for (WorkerState& l : workers_) {
      for (std::int64_t b = l.lo; b < l.hi; ++b) {
        std::vector<Entry>& from = l.bins[slot_of(b)];
        std::vector<Entry>& to = bins_[slot_of(b)];
        if (from.empty()) continue;
        if (to.empty()) {
          to.swap(from);  // no copy: the usual case, one worker's finds
        } else {
          to.insert(to.end(), from.begin(), from.end());
          from.clear();
        }
      }
      top_ = std::max(top_, l.hi);
      l.lo = kNone;
      l.hi = 0;
      for (const FarEntry& f : l.far) {
        far_.push_back(f);
        std::push_heap(far_.begin(), far_.end(), later);
      }
      l.far.clear();
    }
  }

  bool is_live(const Entry& e) const {
    return static_cast<std::uint32_t>(state_[static_cast<std::size_t>(e.j)] >> 32) == e.d;
  }

  /// The ring from bucket \p b on (the agreed one: every bucket before it is
  /// empty, so their slots are free): the far entries now within it move in,
  /// stale ones are dropped.
  void move_ring(std::int64_t b) {
    ring_ = b;
    while (!far_.empty() && far_.front().b - ring_ < kRing) {
      std::pop_heap(far_.begin(), far_.end(), later);
      const FarEntry f = far_.back();
      far_.pop_back();
      if (!is_live(f.e)) continue;
      const std::int64_t at = std::max(f.b, ring_);
      bins_[slot_of(at)].push_back(f.e);
      top_ = std::max(top_, at + 1);
    }
  }

  /// Bucket b's entries become the frontier; the bucket emptied.  Stale
  /// entries stay in it: the wave's tasks skip them where they read each
  /// vertex's state anyway (a separate pass was a tenth of a search, on the
  /// host alone).  Each live vertex is there once: an entry is live only
  /// while its distance is the vertex's own, and a vertex takes each
  /// distance once (a win is strictly shorter).
  void take_bucket(std::int64_t b) {
    frontier_.clear();
    if (b - ring_ < kRing) frontier_.swap(bins_[slot_of(b)]);
  }

  /// fused, a window of several buckets: moves on to this rank's next live
  /// bucket before the window's end (frontier_ its entries); false if none.
  bool next_in_window() {
    if (window_ < 2) return false;
    const std::int64_t b = next_bucket(bucket_ + 1);
    if (b == kNone || b - floor_ >= window_) return false;  // no floor_ + window_: it may overflow
    if (b - ring_ >= kRing) {
      // Past the ring: on one rank every bucket before b is empty, so the
      // ring moves on; with peers, a remote distance may still land before
      // b, so the phase ends and the ranks agree on the next bucket.
      if (peers_) return false;
      move_ring(b);
    }
    bucket_ = b;
    take_bucket(b);
    return true;
  }

  /// classic: the vertices the last wave took, for the bucket's heavy phase.
  void collect_taken() {
    for (WorkerState& l : workers_) {
      settled_.insert(settled_.end(), l.taken.begin(), l.taken.end());
      l.taken.clear();
    }
  }

  /// The first bucket from \p b on holding a live vertex here (or kNone):
  /// the ring's, else the nearest far entry's.  The stale entries it passes
  /// are dropped, so that each is read once, not once per phase until its
  /// bucket is taken.
  std::int64_t next_bucket(std::int64_t b) {
    for (std::int64_t k = std::max(b, ring_); k < std::min(top_, ring_ + kRing); ++k) {
      std::vector<Entry>& bin = bins_[slot_of(k)];
      const auto first =
          std::find_if(bin.begin(), bin.end(), [this](const Entry& e) { return is_live(e); });
      bin.erase(bin.begin(), first);
      if (!bin.empty()) return k;
    }
    while (!far_.empty() && !is_live(far_.front().e)) {
      std::pop_heap(far_.begin(), far_.end(), later);
      far_.pop_back();
    }
    return far_.empty() ? kNone : far_.front().b;
  }

  /// One wave of tasks over frontier_'s edges of one kind: its entries cut
  /// into equal chunks, one task each, which the workers take as they free
  /// up (a hub's row is one entry; a search holds few).
  template <class Body>
  void wave(int iteration) {
    if (frontier_.empty()) return;
    // Counted at the mean degree: a wave's rows are not read before it runs.
    const double edges = static_cast<double>(frontier_.size()) * mean_degree_;
    const auto most = static_cast<std::size_t>(std::max(1, opt_.chunks));
    const std::size_t n =
        std::min(std::max(frontier_.size() / min_chunk_entries_, workers_.size()), most);
    if (!shared_ || edges < impl::kAloneEdges) {
      // One chunk's work: run it here.  Most buckets of a narrow delta are
      // this small, and a task's round trip through the scheduler (spawn,
      // merge task, wait) cost more than their edges.  Recorded as a task of
      // the host's worker state all the same.
      if (records_.empty()) records_.resize(1);
      profile_.reserve(1);
      TaskClock clock(profile_, records_[0], iteration, TaskRuntime::worker(), 0);
      clock.items(Body::run(*this, 0, 1));
      clock.stop();
      if (profile_.enabled()) profile_.merge(records_[0]);
      return;
    }
    if (edges < impl::kTeamEdges) {
      impl::team_chunks(profile_, records_, n, [&](std::size_t c) {
        impl::ChunkTask<Impl, Body>{this, &records_[c], c, n, iteration}.run();
      });
      return;
    }
    impl::spawn_chunks<Body>(rt_, profile_, this, records_, iteration, n);
    rt_.wait();
  }

  /// One phase: a wave over frontier_, then (light phases, bucket fusion as
  /// in gapbs) more waves over what the rank itself put back into the
  /// bucket, until it has none: work that needs no other rank takes no
  /// global step.  Then the exchange's level closes and its arrivals go to
  /// their buckets.  classic: the vertices its light waves took go to
  /// settled_, for the bucket's heavy phase.
  ///
  /// Returns the bucket the next phase takes, the same on every rank: the
  /// least over the ranks of their first live bucket and of the buckets they
  /// sent this phase, agreed by the level's own end (Exchange::end_level_min),
  /// not by a collective of its own.  A rank's buckets still fill after its
  /// flush, but only with what its peers sent, which their own values cover:
  /// so the result is at most the first bucket live anywhere once the level
  /// is over.  It may be less (a sent distance that lost at its owner): that
  /// bucket's phase finds nothing live and sends nothing, and so ends with
  /// the exact one.
  template <class Body>
  std::int64_t phase(int group, bool fuse) {
    ex_.begin_level(static_cast<int>(res_.phases));
    const int it = profile_.begin_iteration(group, static_cast<int>(res_.phases),
                                            static_cast<int>(workers_.size()));
    if (std::is_same_v<Body, All> && fuse && team_fits()) {
      team_search(it);
    } else {
      wave<Body>(it);
      while (fuse) {
        gather_bins();
        take_bucket(bucket_);
        if (frontier_.empty() && !next_in_window()) break;
        ++res_.waves;
        wave<Body>(it);
      }
    }
    if (opt_.variant == SsspVariant::classic) collect_taken();
    // O(peers each worker touched), not O(P x workers).
    for (WorkerState& l : workers_) l.out.flush();
    gather_bins();
    std::int64_t low = next_bucket(bucket_);
    for (WorkerState& l : workers_) low = std::min(low, std::exchange(l.sent_low, kNone));
    const std::int64_t next = ex_.end_level_min(apply_, low);
    res_.messages += ex_.stats().messages;
    res_.bytes += ex_.stats().bytes;
    ++res_.phases;
    gather_bins();
    return next;
  }

  // One rank with several threads, fused: the whole phase (every bucket) is
  // one team run, as gapbs runs a search (one parallel region, a barrier
  // or two a bucket) but with the buckets too small to share taken by
  // thread 0 alone: a grid's thousands of buckets of a few hundred edges
  // each cost their edges, not a fork-join or a task wave each.
  struct TeamRun {
    alignas(64) std::atomic<std::size_t> next{0};  // the wave's next entry to take
    // Thread 0 writes these between barriers.
    std::size_t block = 1;  // entries a take
    bool quit = false;
    int threads = 1;
    std::vector<TaskRecord> records;        // a thread's share of the run, profiled
    std::vector<std::vector<Entry>> fused;  // a thread's entries in team_fuse
  };
  bool team_fits() const { return !peers_ && shared_ && opt_.variant == SsspVariant::fused; }
  bool small_wave() const {
    return static_cast<double>(frontier_.size()) * mean_degree_ <
           static_cast<double>(impl::team_alone_edges());
  }
  // Entries [q0, q1) of the wave, by thread t.
  void team_expand(TeamRun& run, int t, const Entry* entries, std::size_t q0, std::size_t q1) {
    WorkerState& ws = workers_[static_cast<std::size_t>(t)];
    TaskRecord& rec = run.records[static_cast<std::size_t>(t)];
    const double start = profile_.enabled() ? profile_.now() : 0;
    rec.items += g_.targets.visit([&](const auto* const targets) {
      return expand_range<Edges::all>(ws, entries, q0, q1, targets);
    });
    if (profile_.enabled()) rec.busy += profile_.now() - start;
  }
  // Bucket fusion, as gapbs's: thread t goes on with what it put back into
  // the bucket itself while that is a few entries, with no barrier (a
  // bucket's chains of light edges were most of a grid's waves).
  void team_fuse(TeamRun& run, int t) {
    std::vector<Entry>& mine = workers_[static_cast<std::size_t>(t)].bins[slot_of(bucket_)];
    std::vector<Entry>& fused = run.fused[static_cast<std::size_t>(t)];
    while (!mine.empty() && mine.size() < kFuseEntries) {
      fused.swap(mine);
      team_expand(run, t, fused.data(), 0, fused.size());
      fused.clear();
    }
  }
  // Thread 0, the wave done: the next wave is the bucket's own new entries,
  // else the next live bucket's; false when there is none.
  bool team_next(TeamRun& run) {
    gather_bins();
    take_bucket(bucket_);
    if (frontier_.empty() && !next_in_window()) {
      run.quit = true;
      return false;
    }
    ++res_.waves;
    share(run);
    return true;
  }
  // Thread 0: frontier_ is the next wave, taken from its first entry.
  void share(TeamRun& run) {
    run.next.store(0, std::memory_order_relaxed);
    run.block = std::clamp<std::size_t>(frontier_.size() / (4 * run.threads), 1, kTeamBlock);
  }
  // Thread 0: the waves too small to share, alone, until one is not.
  void team_lead(TeamRun& run) {
    while (!run.quit && small_wave()) {
      team_expand(run, 0, frontier_.data(), 0, frontier_.size());
      team_fuse(run, 0);
      team_next(run);
    }
  }
  void team_thread(TeamRun& run, int t, int T, TeamBarrier& barrier) {
    if (t == 0) {
      run.threads = T;
      share(run);
      team_lead(run);
    }
    for (;;) {
      barrier.wait();  // the wave thread 0 took, or the run's end
      if (run.quit) return;
      const std::size_t m = frontier_.size();
      const std::size_t block = run.block;
      for (std::size_t q; (q = run.next.fetch_add(block, std::memory_order_relaxed)) < m;)
        team_expand(run, t, frontier_.data(), q, std::min(q + block, m));
      team_fuse(run, t);
      barrier.wait();  // its finds in the threads' bins
      if (t == 0 && team_next(run)) team_lead(run);
    }
  }
  void team_search(int iteration) {
    TeamRun run;
    run.records.assign(workers_.size(), TaskRecord{});
    run.fused.resize(workers_.size());
    const double start = profile_.enabled() ? profile_.now() : 0;
    const int T = impl::team_run(
        "ht::DeltaStepping::team_search", static_cast<int>(workers_.size()),
        [&](int t, int n, TeamBarrier& barrier) { team_thread(run, t, n, barrier); });
    if (!profile_.enabled()) return;
    // A thread's share of the run as one record: its busy time and entries.
    const double end = profile_.now();
    profile_.reserve(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t) {
      TaskRecord r = run.records[static_cast<std::size_t>(t)];
      r.iteration = iteration;
      r.lane = r.task = t;
      r.start = start;
      r.end = end;
      profile_.merge(r);
    }
  }

  const Csr& g_;
  SsspOptions opt_;
  TaskRuntime& rt_;
  Profile& profile_;
  bool peers_;
  bool shared_ = true;                  // several workers
  double mean_degree_ = 1;              // this rank's edges a vertex
  std::size_t min_chunk_entries_ = 64;  // a task's fewest entries (kMinChunkEdges)
  impl::SentFilter sent_;               // what was sent (several ranks only)
  std::size_t sent_budget_ = 0;         // its most bytes
  Exchange ex_;
  Exchange::Handler apply_;
  std::vector<State> state_;
  std::vector<std::vector<Entry>> bins_;  // the ring: bucket b in slot b mod kRing
  std::vector<FarEntry> far_;             // a heap of the entries beyond it
  std::vector<Entry> frontier_;
  std::vector<std::uint32_t> settled_;
  std::vector<WorkerState> workers_;
  std::vector<TaskRecord> records_;
  // The bucket this rank is taking; the one the phase started from, the
  // same on every rank (floor_ <= bucket_ < floor_ + window_).  relax() puts
  // no entry below bucket_, so every bin below it is empty.  The ring holds
  // buckets [ring_, ring_ + kRing); ring_ <= floor_ (on one rank the window
  // moves the ring on: next_in_window).  top_: past the last ring bucket
  // that may hold entries.
  std::int64_t bucket_ = 0, floor_ = 0, ring_ = 0, top_ = 1;
  std::int64_t window_ = 1;  // buckets a fused phase may take
  double inverse_delta_ = 1.0;
  int searches_ = 0;
  SsspResult res_;
};

const SsspResult& DeltaStepping::Impl::search(std::int64_t root) {
  Region region("SSSP: search");
  const VertexRange& r = g_.range;
  const int group = searches_++;
  // The per-vertex passes before and after the search, on every worker (on
  // the host alone they were a tenth of a 2-thread search at SCALE 18).
  using Host = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>;
  const auto n = static_cast<std::int64_t>(r.local_count());
  State* const state = state_.data();
  Kokkos::parallel_for("ht::DeltaStepping::reset", Host(0, n),
                       [=](std::int64_t j) { state[j] = kUnreached; });
  Kokkos::fence();
  if (peers_) sent_.reset(r.n_global, sent_budget_);
  // Bins keep their storage from search to search, but no more than a grown
  // bin's first: a rank's bins then hold at most its entries of one search.
  const auto empty = [](std::vector<Entry>& b) {
    if (b.capacity() > 256) std::vector<Entry>().swap(b);
    b.clear();
  };
  for (auto& b : bins_) empty(b);
  for (WorkerState& l : workers_)
    for (auto& b : l.bins) empty(b);
  far_.clear();
  ring_ = 0;
  top_ = 1;  // the root's bucket

  res_.buckets = res_.phases = res_.waves = res_.relaxations = res_.messages = res_.bytes = 0;
  bucket_ = 0;
  settled_.clear();
  if (r.mine(root)) {
    const std::int64_t j = r.local(root);
    state_[static_cast<std::size_t>(j)] = pack(0.0f, root);
    bins_[0].push_back({static_cast<std::uint32_t>(j), bits(0.0f)});
  }
  // Phases in lockstep on every rank: each one takes the bucket the last
  // one's end agreed on (phase()), the first the root's.  Every rank gets the
  // same value from each level's end, so all take the same branches below
  // and end the same levels: no rank can wait in a level that another left.
  // classic: light edges in phases until the bucket stays empty, then the
  // heavy edges of every vertex it held, once.  fused: every edge of a
  // vertex when it is taken.
  const bool classic = opt_.variant == SsspVariant::classic;
  bool heavy_due = false;  // classic: the bucket left has its heavy phase to run
  bucket_ = -1;
  std::int64_t taken = -1;  // the last bucket agreed on
  CommSteps steps(res_.comm);
  std::int64_t next = 0;  // the root's bucket, known to every rank
  for (;; steps.mark()) {
    bucket_ = floor_ = taken;  // back to the agreed one (a window may have gone on)
    if (heavy_due && next != bucket_) {
      std::sort(settled_.begin(), settled_.end());
      settled_.erase(std::unique(settled_.begin(), settled_.end()), settled_.end());
      frontier_.clear();
      for (const std::uint32_t j : settled_)
        frontier_.push_back({j, static_cast<std::uint32_t>(state_[j] >> 32)});
      settled_.clear();
      next = phase<Heavy>(group, false);
      heavy_due = false;
      continue;  // heavy edges may have filled a nearer bucket
    }
    if (next == kNone) break;
    if (next != taken) {
      bucket_ = floor_ = taken = next;
      move_ring(next);
      ++res_.buckets;
    }
    take_bucket(bucket_);
    if (classic) {
      next = phase<Light>(group, true);
      heavy_due = true;
    } else {
      next = phase<All>(group, true);
    }
  }
  impl::answer(state_, res_);
  for (WorkerState& l : workers_) {
    res_.relaxations += l.relaxations;
    l.relaxations = 0;
  }
  return res_;
}

DeltaStepping::DeltaStepping(const Csr& g, const SsspOptions& opt, TaskRuntime& rt, MPI_Comm comm)
    : impl_(std::make_unique<Impl>(g, opt, rt, comm)) {}
DeltaStepping::~DeltaStepping() = default;

const SsspResult& DeltaStepping::search(std::int64_t root) { return impl_->search(root); }
double DeltaStepping::delta() const { return impl_->delta(); }

double auto_delta(const Csr& g, MPI_Comm comm) {
  return auto_delta(g.weights, g.range.n_global, comm);
}

double auto_delta(const std::vector<float>& weights, std::int64_t vertices, MPI_Comm comm) {
  // Weights are floats: their sum over 2^40 edge ends stays far inside a double.
  double sums[2] = {0, static_cast<double>(weights.size())}, heaviest = 0;
  for (const float w : weights) {
    sums[0] += static_cast<double>(w);
    heaviest = std::max(heaviest, static_cast<double>(w));
  }
  mpi::Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  mpi::Allreduce(MPI_IN_PLACE, &heaviest, 1, MPI_DOUBLE, MPI_MAX, comm);
  if (!(sums[0] > 0)) return 1;  // every distance 0: any width
  const double mean_weight = sums[0] / sums[1];
  const double mean_degree = sums[1] / static_cast<double>(std::max<std::int64_t>(1, vertices));
  return std::min(heaviest, kAutoDeltaScale * mean_weight / (mean_degree * mean_degree));
}

std::size_t DeltaStepping::pool_bytes(const SsspOptions& opt) {
  // One phase's chunk tasks and their merge tasks are live at once.
  return TaskRuntime::pool_bytes_for<impl::ChunkTask<Impl, Impl>>(
      2 * static_cast<std::size_t>(std::max(1, opt.chunks)));
}

}  // namespace ht
