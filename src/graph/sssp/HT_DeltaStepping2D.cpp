#include "graph/sssp/HT_DeltaStepping2D.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_PeerExchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "graph/sssp/impl/HT_SentFilter.hpp"
#include "graph/sssp/impl/HT_SsspState.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HeldBytes.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

using namespace impl;

namespace {

// A vertex waiting in a bucket (local index, distance bits when put there):
// one whose distance has changed since is stale and skipped.
struct Entry {
  std::uint32_t j, d;
};

// A candidate on its way to its owner: the vertex's offset in the owner's
// piece above the distance's bits, and the parent's id.
struct Candidate {
  std::uint64_t at;
  std::int64_t parent;
};

// How many rows, and entries within a row, ahead the relaxation requests a
// row's entries and a target's sent-filter word (as the 1D search does).
constexpr std::size_t kAheadRows = 2;
constexpr std::int64_t kAhead = 8;
// Gathered rows fewer than this a chunk cost more to spread than they gain.
constexpr std::size_t kMinChunkRows = 64;
// A phase's entries a round, at most: its candidates buffered at once (16
// bytes each, in the chunks' outboxes and the packed sends) stay under
// about 64 MiB a rank.
constexpr std::int64_t kRoundEntries = std::int64_t(1) << 21;

enum class Edges { light, heavy, all };

}  // namespace

double auto_delta(const Csr2D& g, MPI_Comm comm) {
  return auto_delta(g.row_weights, g.range.n_global, comm);
}

class DeltaStepping2D::Impl {
 public:
  Impl(const Csr2D& g, const Grid2D& grid, const SsspOptions& opt)
      : g_(g), grid_(grid), opt_(opt), profile_(profile_or_off(opt.profile)) {
    MPI_Comm comm = grid.comm();
    if (!on_every_rank(g.row_weights.size() == g.row_targets.size(), comm))
      throw UsageError("SSSP needs the edges' weights: the 2D block was built without them");
    impl::check_search(g.range.n_global, opt.delta);
    if (opt.delta == 0) opt_.delta = auto_delta(g, comm);
    inverse_delta_ = inverse_of(opt_.delta);
    threads_ = static_cast<std::size_t>(Kokkos::OpenMP().concurrency());
    state_.assign(static_cast<std::size_t>(g.range.local_count()), kUnreachedState);
    sent_budget_ = opt.sent_filter_bytes ? opt.sent_filter_bytes
                                         : g.row_targets.size() * sizeof(BlockIndex) / 2;
  }

  double delta() const { return opt_.delta; }
  const SsspResult& search(std::int64_t root);

 private:
  std::int64_t bucket_of(float d) const { return impl::bucket_of(d, inverse_delta_); }

  // The first bucket holding a live entry here, or kNoBucket; drops the
  // buckets before it that hold stale entries only.
  std::int64_t first_live() {
    while (!buckets_.empty()) {
      std::vector<Entry>& b = buckets_.begin()->second;
      b.erase(std::remove_if(b.begin(), b.end(), [&](Entry e) { return !live(e); }), b.end());
      if (!b.empty()) return buckets_.begin()->first;
      buckets_.erase(buckets_.begin());
    }
    return kNoBucket;
  }
  bool live(Entry e) const { return static_cast<std::uint32_t>(state_[e.j] >> 32) == e.d; }

  // Bucket b's entries, as this rank's part of the phase's rows (row index
  // above distance bits); classic keeps them for the heavy phase.  All are
  // live: b is the agreed bucket, so this rank's first, which first_live()
  // compacted at the last phase's end (or the root's alone).
  void take(std::int64_t b, bool keep) {
    mine_.clear();
    const auto it = buckets_.find(b);
    if (it == buckets_.end()) return;
    const std::int64_t slot = std::int64_t(g_.col) * g_.piece_bits;  // this piece in the row block
    for (const Entry e : it->second) {
      mine_.push_back(static_cast<std::uint64_t>(slot + e.j) << 32 | e.d);
      if (keep) settled_.push_back(e.j);
    }
    buckets_.erase(it);
  }

  // Step 1: the rows of every rank of the grid row, in rows_.
  void expand() {
    const int cols = g_.shape.cols;
    const int m = mpi_int(mine_.size(), "a phase's rows on a rank");
    std::vector<int> counts(cols), displs(cols), ones(cols, 1), at(cols);
    for (int t = 0; t < cols; ++t) at[t] = t;
    std::vector<MPI_Request> req(1);
    mpi::Iallgatherv(&m, 1, MPI_INT, counts.data(), ones.data(), at.data(), MPI_INT,
                     grid_.row_comm(), &req[0]);
    wait_all(req);
    std::int64_t total = 0;
    for (int t = 0; t < cols; ++t) {
      displs[t] = mpi_int(total, "a phase's row displacement");
      total += counts[t];
    }
    rows_.resize(static_cast<std::size_t>(mpi_int(total, "a phase's rows on a grid row")));
    mpi::Iallgatherv(mine_.data(), m, MPI_UINT64_T, rows_.data(), counts.data(), displs.data(),
                     MPI_UINT64_T, grid_.row_comm(), &req[0]);
    wait_all(req);
    if (cols > 1 && m > 0) {
      res_.messages += cols - 1;
      res_.bytes += static_cast<std::int64_t>(cols - 1) * 8 * m;
    }
  }

  // Step 2 for chunk c of n of rows_[q0_, q1_): its candidates, by the grid
  // column's rank that owns their vertex, in out_[c]; none for a vertex
  // already sent a distance of an earlier bucket (the sent filter).
  // Returns the entries relaxed.
  template <Edges kind>
  std::int64_t relax(std::size_t c, std::size_t n) {
    const std::size_t span = q1_ - q0_;
    const std::size_t first = q0_ + span * c / n, last = q0_ + span * (c + 1) / n;
    std::vector<std::vector<Candidate>>& out = out_[c];
    const float delta = static_cast<float>(opt_.delta);
    const std::int64_t piece = g_.piece_bits;
    const bool single_row = g_.shape.rows == 1;  // no division by the piece then
    std::int64_t relaxed = 0;
    const BlockIndex* const targets = g_.row_targets.data();
    const float* const weights = g_.row_weights.data();
    for (std::size_t q = first; q < last; ++q) {
      // A row's entries are a cache miss of their own (rows come in any
      // order): the row kAheadRows on is requested now.
      if (q + kAheadRows < last) {
        __builtin_prefetch(targets + row_begin_[q + kAheadRows]);
        __builtin_prefetch(weights + row_begin_[q + kAheadRows]);
      }
      const std::int64_t r = static_cast<std::int64_t>(rows_[q] >> 32);
      const float d = bits_float(static_cast<std::uint32_t>(rows_[q]));
      const std::int64_t parent = g_.row_vertex(r);
      const std::int64_t end = row_begin_[q] + (row_end_[q + 1] - row_end_[q]);
      for (std::int64_t k = row_begin_[q]; k < end; ++k) {
        if (k + kAhead < end) __builtin_prefetch(sent_.word(targets[k + kAhead]));
        const float w = weights[k];
        if (kind == Edges::light && !(w < delta)) continue;
        if (kind == Edges::heavy && w < delta) continue;
        ++relaxed;
        const std::int64_t col = targets[k];
        const float du = d + w;
        if (!sent_.admit(col, bucket_of(du))) continue;
        const std::int64_t s = single_row ? 0 : col / piece;
        out[static_cast<std::size_t>(s)].push_back(
            {static_cast<std::uint64_t>(col - s * piece) << 32 | float_bits(du), parent});
      }
    }
    return relaxed;
  }

  // Steps 2 and 3 in rounds of at most round_entries of the phase's
  // entries summed over the grid column, each rank relaxing its share of
  // its own in each: what an owner receives a round stays within
  // round_entries (plus a row per sender), whatever R and the frontier.
  template <Edges kind>
  void relax_and_settle(std::int64_t b, int group) {
    row_end_.resize(rows_.size() + 1);
    row_begin_.resize(rows_.size());
    row_end_[0] = 0;
    for (std::size_t q = 0; q < rows_.size(); ++q) {
      const BlockOffsets::Range e = g_.row_offsets[static_cast<std::int64_t>(rows_[q] >> 32)];
      row_begin_[q] = e.begin;
      row_end_[q + 1] = row_end_[q] + (e.end - e.begin);
    }
    const std::int64_t entries = row_end_.back();
    const std::int64_t most = opt_.round_entries > 0 ? opt_.round_entries : kRoundEntries;
    long long column = entries;
    if (g_.shape.rows > 1) all_reduce(&column, 1, MPI_SUM, grid_.col_comm());
    const long long rounds = (column + most - 1) / most;
    // One profile iteration a phase on every rank, whatever its rounds.
    const int iteration = profile_.begin_iteration(group, static_cast<int>(res_.phases),
                                                   static_cast<int>(4 * threads_));
    for (long long k = 0; k < rounds; ++k) {
      const auto at = [&](long long i) {
        // entries * i / rounds, exact without the product's overflow.
        const std::int64_t want = entries / rounds * i + entries % rounds * i / rounds;
        return static_cast<std::size_t>(std::lower_bound(row_end_.begin(), row_end_.end(), want) -
                                        row_end_.begin());
      };
      q0_ = std::min(at(k), rows_.size());
      q1_ = std::min(at(k + 1), rows_.size());
      relax_round<kind>(b, iteration);
    }
  }

  // One round of steps 2 and 3: rows_[q0_, q1_)'s entries relaxed in chunks
  // on the rank's threads (one lane each of the profile's \p iteration), the
  // candidates folded to their owners along the grid column, the owners'
  // buckets refilled.
  template <Edges kind>
  void relax_round(std::int64_t b, int iteration) {
    const std::size_t n =
        std::clamp<std::size_t>((q1_ - q0_) / kMinChunkRows, 1,
                                std::min<std::size_t>(4 * threads_, std::max(1, opt_.chunks)));
    const int rows = g_.shape.rows;
    if (out_.size() < n) out_.resize(n);
    for (std::size_t c = 0; c < n; ++c) {
      out_[c].resize(static_cast<std::size_t>(rows));
      for (auto& o : out_[c]) o.clear();
    }
    relaxed_.assign(n, 0);
    team_chunks(profile_, records_, n, [&](std::size_t c) {
      TaskClock clock(profile_, records_[c], iteration, static_cast<int>(c), static_cast<int>(c));
      relaxed_[c] = relax<kind>(c, n);
      clock.items(relaxed_[c]);
      clock.stop();
    });
    // Candidates for this rank's own vertices settle from the chunks'
    // outboxes; the others cross the grid column.
    const int self = g_.row;
    std::vector<std::int64_t> count(static_cast<std::size_t>(rows), 0);
    for (std::size_t c = 0; c < n; ++c) {
      res_.relaxations += relaxed_[c];
      for (int s = 0; s < rows; ++s)
        if (s != self) count[s] += static_cast<std::int64_t>(out_[c][s].size());
    }
    for (int s = 0; s < rows; ++s)
      if (count[s] > 0) {
        ++res_.messages;
        res_.bytes += count[s] * static_cast<std::int64_t>(sizeof(Candidate));
      }
    const PeerPlan plan(count, grid_.col_comm(), sizeof(Candidate));
    send_.resize(static_cast<std::size_t>(plan.sends()));
    std::vector<std::int64_t> at = plan.send_offsets();
    for (std::size_t c = 0; c < n; ++c)
      for (int s = 0; s < rows; ++s) {
        if (s == self) continue;
        std::copy(out_[c][s].begin(), out_[c][s].end(), send_.begin() + at[s]);
        at[s] += static_cast<std::int64_t>(out_[c][s].size());
      }
    recv_.resize(static_cast<std::size_t>(plan.receives()));
    peer_exchange(plan, send_.data(), recv_.data());
    std::size_t buffered = send_.capacity() + recv_.capacity();
    for (std::size_t c = 0; c < n; ++c)
      for (const auto& o : out_[c]) buffered += o.capacity();
    held_.set(static_cast<std::int64_t>(
        buffered * sizeof(Candidate) +
        (mine_.capacity() + rows_.capacity()) * sizeof(std::uint64_t) +
        (row_end_.capacity() + row_begin_.capacity()) * sizeof(std::int64_t)));
    for (std::size_t c = 0; c < n; ++c) settle(b, out_[c][static_cast<std::size_t>(self)]);
    settle(b, recv_);
  }

  // Step 3 for \p candidates: each one strictly shorter than its vertex's
  // distance wins and puts the vertex in its bucket (never below b).
  void settle(std::int64_t b, const std::vector<Candidate>& candidates) {
    std::int64_t last = -1;  // the bucket the last win went to, and its bin (map nodes stay put)
    std::vector<Entry>* bin = nullptr;
    for (const Candidate& x : candidates) {
      const auto j = static_cast<std::size_t>(x.at >> 32);
      const SsspState want = (x.at << 32) | static_cast<std::uint32_t>(x.parent);
      if ((want >> 32) >= (state_[j] >> 32)) continue;  // only strictly shorter wins
      state_[j] = want;
      const auto d = static_cast<std::uint32_t>(want >> 32);
      const std::int64_t to = std::max(b, bucket_of(bits_float(d)));
      if (to != last) {
        bin = &buckets_[to];
        last = to;
      }
      bin->push_back({static_cast<std::uint32_t>(j), d});
    }
  }

  // One phase of bucket b on this rank's part (mine_); returns the next
  // phase's bucket, agreed by every rank.
  template <Edges kind>
  std::int64_t phase(std::int64_t b, int group) {
    if (grid_.spare()) {  // no block, no vertex: the phase's profile iteration, the agreement
      profile_.begin_iteration(group, static_cast<int>(res_.phases),
                               static_cast<int>(4 * threads_));
    } else {
      expand();
      relax_and_settle<kind>(b, group);
    }
    ++res_.phases;
    std::int64_t next = first_live();
    all_reduce(&next, 1, MPI_MIN, grid_.comm());
    return next;
  }

  const Csr2D& g_;
  const Grid2D& grid_;
  SsspOptions opt_;
  Profile& profile_;
  double inverse_delta_ = 1.0;
  std::size_t threads_ = 1;
  std::vector<SsspState> state_;                        // the owned vertices'
  std::map<std::int64_t, std::vector<Entry>> buckets_;  // the non-empty ones
  std::vector<std::uint32_t> settled_;      // classic: taken in the bucket's light phases
  std::vector<std::uint64_t> mine_, rows_;  // a phase's rows: this rank's, the grid row's
  std::vector<std::vector<std::vector<Candidate>>> out_;  // per chunk, per grid-column rank
  std::vector<std::int64_t> relaxed_;
  std::vector<Candidate> send_, recv_;
  std::vector<std::int64_t> row_end_;    // entries of rows_[0, q), by q
  std::vector<std::int64_t> row_begin_;  // where row rows_[q]'s entries start
  std::size_t q0_ = 0, q1_ = 0;          // the round's rows
  SentFilter sent_;                      // by column index
  std::size_t sent_budget_ = 0;
  HeldCharge held_{Held::search};    // the candidates' buffers
  std::vector<TaskRecord> records_;  // the profile's, a chunk each
  SsspResult res_;
  int searches_ = 0;
};

const SsspResult& DeltaStepping2D::Impl::search(std::int64_t root) {
  Region region("SSSP: search");
  std::fill(state_.begin(), state_.end(), kUnreachedState);
  buckets_.clear();
  settled_.clear();
  sent_.reset(g_.col_slots(), sent_budget_);
  res_.buckets = res_.phases = res_.waves = res_.relaxations = res_.messages = res_.bytes = 0;
  if (g_.range.mine(root)) {
    const auto j = static_cast<std::uint32_t>(g_.range.local(root));
    state_[j] = pack_state(0.0f, root);
    buckets_[0].push_back({j, float_bits(0.0f)});
  }
  // Every rank gets the same bucket from each phase's allreduce, so all take
  // the same branches: classic runs light phases until its bucket stays
  // empty, then the heavy edges of every vertex the bucket held, once;
  // fused relaxes every edge of a vertex when it is taken.
  const bool classic = opt_.variant == SsspVariant::classic;
  const int group = searches_++;  // the profile's
  CommSteps steps(res_.comm);
  std::int64_t next = 0, taken = -1;  // the root's bucket, known to every rank
  bool heavy_due = false;
  for (;; steps.mark()) {
    if (heavy_due && next != taken) {
      std::sort(settled_.begin(), settled_.end());
      settled_.erase(std::unique(settled_.begin(), settled_.end()), settled_.end());
      mine_.clear();
      const std::int64_t slot = std::int64_t(g_.col) * g_.piece_bits;
      for (const std::uint32_t j : settled_)
        mine_.push_back(static_cast<std::uint64_t>(slot + j) << 32 | (state_[j] >> 32));
      settled_.clear();
      heavy_due = false;
      next = phase<Edges::heavy>(taken, group);
      continue;  // heavy edges may have filled a nearer bucket
    }
    if (next == kNoBucket) break;
    if (next != taken) {
      taken = next;
      ++res_.buckets;
    }
    take(taken, classic);
    if (classic) {
      next = phase<Edges::light>(taken, group);
      heavy_due = true;
    } else {
      next = phase<Edges::all>(taken, group);
    }
  }
  answer(state_, res_);
  return res_;
}

DeltaStepping2D::DeltaStepping2D(const Csr2D& g, const Grid2D& grid, const SsspOptions& opt)
    : impl_(std::make_unique<Impl>(g, grid, opt)) {}
DeltaStepping2D::~DeltaStepping2D() = default;

const SsspResult& DeltaStepping2D::search(std::int64_t root) { return impl_->search(root); }
double DeltaStepping2D::delta() const { return impl_->delta(); }

}  // namespace ht
