#include "graph/bfs/impl/HT_ChunkedSearch.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include "comm/HT_TeamBarrier.hpp"
#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

namespace {
// The next frontier is read off the claim lists when the bitmap has at
// least this many words per listed vertex.
constexpr std::size_t kWordsPerListed = 4;
// Levels a team run records before the host takes them (then it may start
// another run): bounds its logs.
constexpr int kTeamLevels = 512;
}  // namespace

ChunkedSearch::ChunkedSearch(const Csr& g, const BfsOptions& opt, MPI_Comm comm)
    : g_(g),
      profile_(profile_or_off(opt.profile)),
      chunks_(static_cast<std::size_t>(std::max(1, opt.chunks))),
      peers_(g.range.size > 1),
      ex_(comm, opt.buffer_items),
      level_(ex_, res_, comm) {
  const std::int64_t n = g.range.local_count();
  seen_.resize(n);
  prev_.resize(n);
  known_.resize(peers_ ? g.range.n_global : 0);
  list_cap_ = seen_.words() / kWordsPerListed;
  // Touched now, not by the first search: a fresh page costs a fault.
  oldq_.assign(n, 0);
  oldq_.clear();
  chunk_.reserve(static_cast<std::size_t>(n));
  records_.resize(chunks_);
  if (!peers_) {
    // A team run's frontiers: a level of fewer than kTeamEdges edges finds
    // fewer than kTeamEdges vertices.
    // Each thread keeps its own: any one may find them all.
    const auto q = static_cast<std::size_t>(std::min<std::int64_t>(n, kTeamEdges));
    const auto threads = static_cast<std::size_t>(Kokkos::OpenMP().concurrency());
    for (auto& level : team_q_) level.assign(threads, std::vector<std::int64_t>(q));
    team_log_.resize(kTeamLevels);
    team_records_.resize(static_cast<std::size_t>(kTeamLevels) * threads);
    team_held_.set(static_cast<std::int64_t>(2 * threads * q * sizeof(std::int64_t)));
  }
  workers_.resize(static_cast<std::size_t>(Kokkos::OpenMP().concurrency()));
  for (WorkerState& l : workers_) l.out.attach(ex_);
  apply_ = [this](const Exchange::Item* items, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i) {
      const std::int64_t j = g_.range.local(items[i].vertex);
      if (claim(j, items[i].value) && count_edges_) {
        ++arrived_vertices_;
        arrived_edges_ += g_.degree(j);
      }
    }
  };
}

int ChunkedSearch::start(std::int64_t root) {
  const VertexRange& r = g_.range;
  res_.reset(r.local_count());
  seen_.clear();
  known_.clear();
  prev_.clear();
  forget_claims();
  for (WorkerState& l : workers_)
    l.task_visits = l.unique_visits = l.found_vertices = l.found_edges = 0;
  arrived_vertices_ = arrived_edges_ = 0;
  if (r.mine(root)) claim(r.local(root), root);
  take_frontier();
  return searches_++;
}

int ChunkedSearch::begin_level(int group, int level) {
  level_.begin(level);
  return profile_.begin_iteration(group, level, static_cast<int>(workers_.size()));
}

std::size_t ChunkedSearch::top_down_chunks() const {
  if (oldq_.empty()) return 0;
  return static_cast<std::size_t>(std::clamp<std::int64_t>(chunk_.edges() / kMinChunkEdges, 1,
                                                           static_cast<std::int64_t>(chunks_)));
}

void ChunkedSearch::end_top_down() {
  // Partial buffers leave now; the level ends on the host, all tasks done.
  for (WorkerState& l : workers_) l.out.flush();
  ex_.end_level(apply_);
}

bool ChunkedSearch::next_frontier() {
  take_frontier();
  return level_.end(static_cast<std::int64_t>(oldq_.size()));
}

const BfsResult& ChunkedSearch::finish() {
  for (const WorkerState& l : workers_) {
    res_.task_visits += l.task_visits;
    res_.unique_visits += l.unique_visits;
  }
  return res_;
}

void ChunkedSearch::take_frontier() {
  oldq_.clear();
  std::size_t listed = 0;
  for (const WorkerState& l : workers_) listed += l.claimed.size();
  if (listed_ && listed * kWordsPerListed <= seen_.words()) {
    // A few finds in a large graph (a high-diameter graph's levels): the
    // lists cost what the level found, the bitmap's scan N/64 words.  Left
    // unsorted: sorting costs more than the order saves on so few rows.
    for (WorkerState& l : workers_) {
      for (const std::int64_t i : l.claimed) prev_.set(i);
      oldq_.insert(oldq_.end(), l.claimed.begin(), l.claimed.end());
    }
  } else {
    seen_.take_new(prev_, [this](std::size_t w, Bitmap::Word bits) {
      Bitmap::for_each_bit(bits, w, [this](std::int64_t i) { oldq_.push_back(i); });
    });
  }
  forget_claims();
  const std::int64_t* const offsets = g_.offsets.data();
  chunk_.assign(
      oldq_, [offsets](std::int64_t i) { return offsets[i + 1] - offsets[i]; },
      [offsets](std::int64_t i) { __builtin_prefetch(offsets + i); });
}

bool ChunkedSearch::team_run_fits() const {
  return !peers_ && !oldq_.empty() && chunk_.edges() < kTeamEdges;
}

// One rank's small levels, as gapbs runs every level (a parallel region
// and a barrier a level) but with the whole run in one region: a grid's
// 1,000+ levels of a few thousand edges each cost what their edges cost, not
// a fork-join, a level's exchange and a collective each.  Thread 0 searches
// alone the levels of fewer than kAloneEdges edges (a path's, a grid's first
// and last) while the others wait; they join it for the larger ones.
//
// Each thread keeps its own finds, and the next level's frontier is the
// threads' lists end to end, in thread order, cut into equal shares: while
// the lists are even, a thread searches its own finds' rows again.  On a
// grid its part of the wave front then stays in its cache, level after
// level, and the threads meet only where their parts touch.  (One shared
// list, filled a block at a time, dealt each thread blocks from all over the
// front: every row, parent and bitmap word crossed between the cores.)
//
// A shared level ends at one barrier: past it, every thread sums the finds
// and decides the next level itself (the same sums, the same decision), so
// no thread waits while one ends the level.  The finds' counts alternate
// between two slots by the level's parity: a thread still summing level i
// reads what no one writes before the barrier that ends level i + 1.
struct ChunkedSearch::TeamPiece {
  const std::int64_t* at = nullptr;
  std::int64_t size = 0;
};

// Where a thread is: the level it searches next, counted from the run's
// first, and that level's frontier.  Each thread keeps its own copy.
struct ChunkedSearch::TeamStep {
  int level = 0;
  std::int64_t unexplored = 0;
  long long frontier = 0;
  std::vector<TeamPiece> cur{};  // one piece a thread, in thread order
  std::int64_t size = 0, edges = 0;
  bool quit = false;  // cur then holds the last level's finds
};

// What a thread found at a level (each writes its own line).
struct alignas(64) ChunkedSearch::TeamFound {
  std::int64_t vertices = 0, edges = 0;
};

struct ChunkedSearch::TeamRun {
  const std::function<bool(const FrontierCounts&)>& go_on;
  TeamStep start;                     // the host's, before the region; read only
  TeamStep lead{};                    // thread 0's after levels alone, and at the run's end
  std::vector<TeamFound> found[2]{};  // a shared level's finds, by its parity
};

// Share \p t of \p shares of the level (its record lane t of \p T): the rows' offsets, their
// targets and the targets' parents are fetched ahead in three stages (a wave front's rows are cache
// misses each, and one miss at a time left the core idle).
template <bool kAtomic>
void ChunkedSearch::team_expand(const TeamStep& s, int t, int shares, int T, TeamFound& found) {
  const std::int64_t* const offsets = g_.offsets.data();
  std::int64_t* const pred = res_.pred.data();
  std::int64_t* const next = team_q_[s.level & 1][static_cast<std::size_t>(t)].data();
  TaskRecord& rec = team_records_[static_cast<std::size_t>(s.level * T + t)];
  const bool profiled = profile_.enabled();
  if (profiled) rec.start = profile_.now();
  const std::int64_t lo = s.size * t / shares, hi = s.size * (t + 1) / shares;
  std::int64_t n_found = 0, edges = 0;
  g_.targets.visit([&](const auto* const targets) {
    constexpr std::int64_t kAhead = 16;
    std::int64_t first = 0;  // the piece's first position in the frontier
    for (const TeamPiece& piece : s.cur) {
      const std::int64_t* const cur = piece.at;
      const std::int64_t a = std::max(lo, first) - first;
      const std::int64_t b = std::min(hi, first + piece.size) - first;
      first += piece.size;
      for (std::int64_t q = a; q < b; ++q) {
        if (q + 4 * kAhead < b) __builtin_prefetch(offsets + cur[q + 4 * kAhead]);
        if (q + 2 * kAhead < b) __builtin_prefetch(targets + offsets[cur[q + 2 * kAhead]]);
        if (q + kAhead < b) {
          const std::int64_t x = cur[q + kAhead];
          for (std::int64_t k = offsets[x], e = offsets[x + 1]; k < e; ++k)
            if (!seen_.test_atomic(targets[k])) {
              __builtin_prefetch(pred + targets[k], 1);
              __builtin_prefetch(offsets + targets[k]);  // its degree, counted when claimed
            }
        }
        const std::int64_t u = cur[q];
        for (std::int64_t k = offsets[u], e = offsets[u + 1]; k < e; ++k) {
          const std::int64_t v = targets[k];
          if (!(kAtomic ? seen_.claim(v) : seen_.set_new(v))) continue;
          pred[v] = u;
          edges += offsets[v + 1] - offsets[v];
          next[n_found++] = v;
        }
      }
    }
  });
  found = {n_found, edges};
  WorkerState& ws = workers_[static_cast<std::size_t>(t)];
  ws.task_visits += n_found;
  ws.unique_visits += n_found;
  if (profiled) {
    rec.end = profile_.now();
    rec.busy = rec.end - rec.start;
    rec.lane = rec.task = t;
    rec.items = hi - lo;
  }
}

// Every thread, level s.level searched (\p found: each thread's finds): makes
// its finds the next level's frontier, and returns whether the run goes on.
// Thread 0 (\p lead) logs the level.
bool ChunkedSearch::team_end_level(const TeamRun& run, TeamStep& s, const TeamFound* found,
                                   bool alone, bool lead) {
  const int i = s.level;
  std::int64_t n_f = 0, m_f = 0;
  for (std::size_t t = 0; t < s.cur.size(); ++t) {
    n_f += found[t].vertices;
    m_f += found[t].edges;
    s.cur[t] = {team_q_[i & 1][t].data(), found[t].vertices};
  }
  if (lead) team_log_[static_cast<std::size_t>(i)] = {n_f, m_f, level_.now(), alone};
  s.size = n_f;
  s.edges = m_f;
  const FrontierCounts c{n_f, m_f, s.unexplored - m_f, g_.range.n_global, s.frontier};
  if (n_f == 0 || m_f >= kTeamEdges || i + 1 == kTeamLevels || !run.go_on(c)) {
    s.quit = true;
    return false;
  }
  s.unexplored -= m_f;
  s.frontier = n_f;
  s.level = i + 1;
  return true;
}

// Thread 0: the levels too small to share, alone, until one is not.
void ChunkedSearch::team_lead(TeamRun& run, TeamStep& s, int T) {
  std::vector<TeamFound> found(s.cur.size());
  while (!s.quit && (T == 1 || s.edges < team_alone_edges())) {
    team_expand<false>(s, 0, 1, T, found[0]);
    team_end_level(run, s, found.data(), true, true);
  }
}

void ChunkedSearch::team_thread(TeamRun& run, int t, int T, const std::function<void()>& barrier) {
  TeamStep s = run.start;
  for (;;) {
    if (T == 1 || s.edges < team_alone_edges()) {
      if (t == 0) {
        team_lead(run, s, T);
        run.lead = s;
      }
      barrier();  // thread 0's levels alone done
      if (t != 0) s = run.lead;
      if (s.quit) return;
    }
    std::vector<TeamFound>& found = run.found[s.level & 1];
    team_expand<true>(s, t, T, T, found[static_cast<std::size_t>(t)]);
    barrier();  // every thread's finds complete
    if (!team_end_level(run, s, found.data(), false, t == 0)) {
      if (t == 0) run.lead = s;
      return;
    }
  }
}

int ChunkedSearch::team_levels(int group, int level, int iteration, std::int64_t& unexplored,
                               long long& frontier,
                               const std::function<bool(const FrontierCounts&)>& go_on) {
  TeamRun run{go_on, {0, unexplored, frontier}};
  run.start.cur.resize(workers_.size());
  run.start.size = static_cast<std::int64_t>(oldq_.size());
  run.start.cur[0] = {oldq_.data(), run.start.size};
  run.start.edges = chunk_.edges();
  for (auto& f : run.found) f.resize(workers_.size());
  int T = static_cast<int>(workers_.size());
  if (T == 1) {
    team_thread(run, 0, 1, [] {});
  } else {
    T = team_run("ht::team_levels", T, [&](int t, int n, TeamBarrier& barrier) {
      team_thread(run, t, n, [&] { barrier.wait(); });
    });
  }
  // The levels the run ended, as the host's loop would have recorded them.
  const int last = run.lead.level;
  double start = level_.started();
  for (int i = 0; i <= last; ++i) {
    const TeamLevel& l = team_log_[static_cast<std::size_t>(i)];
    if (profile_.enabled()) {
      const int it = i == 0 ? iteration : profile_.begin_iteration(group, level + i, T);
      const int lanes = l.alone ? 1 : T;
      profile_.reserve(static_cast<std::size_t>(lanes));
      for (int t = 0; t < lanes; ++t) {
        TaskRecord r = team_records_[static_cast<std::size_t>(i * T + t)];
        r.iteration = it;
        profile_.merge(r);
      }
    }
    if (i == last) {
      // The caller ends it: its finds claimed and listed, as claim_level leaves them.
      level_.begin(level + i, start);
      WorkerState& ws = workers_[0];
      ws.found_vertices += l.vertices;
      ws.found_edges += l.edges;
      std::copy(seen_.data(), seen_.data() + seen_.words(), prev_.data());
      for (const TeamPiece& piece : run.lead.cur) {
        for (std::int64_t x = 0; x < piece.size; ++x) {
          const std::int64_t j = piece.at[x];
          prev_.set_word(Bitmap::word_of(j), prev_.word(Bitmap::word_of(j)) & ~Bitmap::bit_of(j));
          list(ws, j);
        }
      }
      break;
    }
    level_.record_alone(start, l.end, l.vertices);
    unexplored -= l.edges;
    frontier = l.vertices;
    start = l.end;
  }
  return level + last;
}

void ChunkedSearch::take_new(Bitmap& into) {
  seen_.take_new(prev_, [&into](std::size_t w, Bitmap::Word bits) { into.set_word(w, bits); });
  forget_claims();
}

void ChunkedSearch::forget_claims() {
  for (WorkerState& l : workers_) l.claimed.clear();
  listed_ = true;
}

std::pair<std::int64_t, std::int64_t> ChunkedSearch::take_found() {
  std::pair<std::int64_t, std::int64_t> found{arrived_vertices_, arrived_edges_};
  for (WorkerState& l : workers_) {
    found.first += l.found_vertices;
    found.second += l.found_edges;
    l.found_vertices = l.found_edges = 0;
  }
  arrived_vertices_ = arrived_edges_ = 0;
  return found;
}

}  // namespace ht::impl
