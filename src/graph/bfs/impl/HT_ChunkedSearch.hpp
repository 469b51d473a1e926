#pragma once
// What the chunked task variants (BfsWork::chunks) share: a visited
// bitmap that tasks read and claim concurrently, per-worker states (the
// outbox and counters of whatever task runs on that worker, so no two
// threads ever touch one), and the steps of a level, whose next frontier
// is read off the bitmap in increasing vertex order.  Per level, the
// frontier's edges are cut into chunks of equal edge counts
// (HT_EdgeChunks.hpp), one task each: the scheduler hands the next chunk to
// whichever worker is free, so a fast worker takes more of them.
//
// A variant holds one ChunkedSearch and writes its own level loop, spawn and
// task bodies (HT_BfsAtomic.cpp is the shortest):
//
//   const int group = s.start(root);
//   for (int level = 0;; ++level) {
//     const int iteration = s.begin_level(group, level);
//     ...spawn s.top_down_chunks() tasks; each calls s.expand(c, n, ...)...
//     s.end_top_down();
//     if (!s.next_frontier()) break;
//   }
//   return s.finish();
//
// The sent filter (expand): on several ranks half the edges are remote and
// most lead to vertices that were found already; without a filter each cost
// a 16-byte item sent, received and rejected, and two ranks were slower than
// one.  So one bitmap over all vertices, set for every vertex this rank took
// or sent this search, is tested first: a remote vertex is sent once per
// search (its owner marks it visited in the level it first arrives, so later
// finds are moot), and the local-or-remote branch, a coin toss per edge, runs
// for new vertices only.  The mpi variant's loop filters the same way.
#include <algorithm>
#include <functional>
#include <utility>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Outbox.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/bfs/HT_Direction.hpp"
#include "graph/bfs/impl/HT_Level.hpp"
#include "graph/impl/HT_EdgeChunks.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht::impl {

/// \brief One worker's state in a level: touched only by tasks on that worker.
struct alignas(64) WorkerState {
  Outbox out;                         ///< remote finds, by destination
  std::int64_t task_visits = 0;       ///< finds by this worker's tasks, this search
  std::int64_t unique_visits = 0;     ///< of which no other task's
  std::int64_t found_vertices = 0;    ///< this level's finds (hybrid's heuristic)
  std::int64_t found_edges = 0;       ///< their edges (with count_found_edges)
  std::vector<std::int64_t> claimed;  ///< local vertices claimed this level
  /// \brief Counts a task's \p claims (each a visit no other task made) and
  /// the \p edges out of them.
  void count_claims(std::int64_t claims, std::int64_t edges) {
    task_visits += claims;
    unique_visits += claims;
    found_vertices += claims;
    found_edges += edges;
  }
};

/// \brief The state and steps of a chunked search on one rank.
class ChunkedSearch {
 public:
  /// \brief For searches of \p g with \p opt (buffer_items, chunks, profile).
  ChunkedSearch(const Csr& g, const BfsOptions& opt, MPI_Comm comm);

  // ---- The level loop (host) ----
  /// \brief Clears the search state, claims \p root if this rank owns it and
  /// makes it the frontier.  Returns the search's profile group.
  int start(std::int64_t root);
  /// \brief Begins level \p level (the exchange's, the clock); returns its
  /// profile iteration, one profile lane per worker.
  int begin_level(int group, int level);
  /// \brief How many top-down tasks this level spawns: up to opt.chunks of
  /// equal edge counts, none for an empty frontier.
  std::size_t top_down_chunks() const;
  /// \brief After the level's tasks: the workers' partial buffers sent and the
  /// exchange's level completed (remote finds claimed).
  void end_top_down();
  /// \brief The next frontier read off the visited bitmap, and summed over
  /// the ranks: true while any rank has one (collective).
  bool next_frontier();
  /// \brief The search's result, the workers' visit counts added.
  const BfsResult& finish();

  // ---- Small levels on one rank (a high-diameter graph's) ----
  /// \brief Whether the coming top-down level may start a team run
  /// (team_levels): one rank, and a frontier of fewer than kTeamEdges edges.
  bool team_run_fits() const;
  /// \brief Searches top-down from level \p level on (begun, its profile
  /// \p iteration open) with the rank's threads in one team, one barrier
  /// between levels and nothing else: no task, exchange, collective or
  /// bitmap scan.  Goes on while a level finds vertices, fewer than
  /// kTeamEdges edges out of them, and \p go_on(counts) holds for the next
  /// level (every thread calls it: it must only read).  The levels it ends are recorded as
  /// end_top_down(), take_frontier() and Level::record() would; the last, whose finds are claimed
  /// and listed as claim_level() leaves them, is the caller's to end.  \p unexplored (edges out of
  /// unvisited vertices) and \p frontier (the frontier's vertices) follow the levels it ended.
  /// Returns the last level's number.
  int team_levels(int group, int level, int iteration, std::int64_t& unexplored,
                  long long& frontier, const std::function<bool(const FrontierCounts&)>& go_on);

  // ---- For the tasks (any worker) ----
  /// \brief Worker states, one a worker: TaskRuntime::worker() is below it.
  std::size_t workers() const { return workers_.size(); }
  /// \brief The calling task's worker state.
  WorkerState& worker_state() { return workers_[TaskRuntime::worker()]; }
  /// \brief Times task \p c of \p iteration into its record, on its worker's profile lane.
  TaskClock clock(std::size_t c, int iteration) {
    return TaskClock(profile_, records_[c], iteration, TaskRuntime::worker(), static_cast<int>(c));
  }
  /// \brief Task \p c's record, to merge into profile() when it is done.
  TaskRecord* record(std::size_t c) { return &records_[c]; }
  /// \brief The chunks' records (one per chunk, max_chunks()).
  std::vector<TaskRecord>& records() { return records_; }
  Profile& profile() { return profile_; }
  const Csr& graph() const { return g_; }
  Bitmap& seen() { return seen_; }
  std::int64_t* pred() { return res_.pred.data(); }
  /// \brief Claims local vertex \p j for parent \p u; true if this call won it.
  bool claim(std::int64_t j, std::int64_t u) {
    if (!seen_.claim(j)) return false;
    res_.pred[j] = u;
    list(worker_state(), j);
    return true;
  }
  /// \brief Lists local vertex \p j, claimed by \p ws's worker this level;
  /// past the lists' cap the level's frontier is read off the bitmap, and
  /// the lists hold no more.
  void list(WorkerState& ws, std::int64_t j) {
    if (ws.claimed.size() <= list_cap_) ws.claimed.push_back(j);
  }
  /// \brief This level's claims set bits that no WorkerState::claimed lists
  /// (a bottom-up level): the next frontier is read off the bitmap.
  void unlisted_claims() { listed_ = false; }
  /// \brief Whether tasks add their finds' degrees to WorkerState::found_edges.
  bool counts_found_edges() const { return count_edges_; }
  /// \brief The edge loop of chunk \p c of \p n: calls local(j, u) for each
  /// edge (u, v) of the chunk whose v is local (j = v's local index) and
  /// passes the sent filter, and sends the others to their owners through
  /// \p ws.  Returns the chunk's frontier vertices (profile items).
  template <class Local>
  std::int64_t expand(std::size_t c, std::size_t n, WorkerState& ws, Local&& local);
  /// \brief Sends and receives now, unless another task already is.
  void pump() {
    if (peers_) ex_.try_poll(apply_);
  }

  // ---- For a variant that also searches bottom-up (hybrid) ----
  /// \brief Tasks count their finds' degrees too (remote arrivals included).
  void count_found_edges() { count_edges_ = true; }
  /// \brief The frontier's edges this level.
  std::int64_t level_edges() const { return chunk_.edges(); }
  /// \brief The most tasks a level spawns (opt.chunks).
  std::size_t max_chunks() const { return chunks_; }
  Level& level() { return level_; }
  BfsResult& result() { return res_; }
  /// \brief next_frontier() without the sum: the next top-down frontier.
  void take_frontier();
  /// \brief This level's new finds, as words written into \p into
  /// (instead of take_frontier()).
  void take_new(Bitmap& into);
  /// \brief This level's finds (vertices, edges out of them) over the workers, zeroed.
  std::pair<std::int64_t, std::int64_t> take_found();

 private:
  /// Empties the claim lists: the bitmap holds every claim so far.
  void forget_claims();
  // A team run (team_levels): thread 0 searches the small levels alone;
  // the others join it for the larger ones.
  struct TeamPiece;
  struct TeamStep;
  struct TeamFound;
  struct TeamRun;
  template <bool kAtomic>
  void team_expand(const TeamStep& s, int t, int shares, int T, TeamFound& found);
  bool team_end_level(const TeamRun& run, TeamStep& s, const TeamFound* found, bool alone,
                      bool lead);
  void team_lead(TeamRun& run, TeamStep& s, int T);
  void team_thread(TeamRun& run, int t, int T, const std::function<void()>& barrier);

  const Csr& g_;
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
  Bitmap known_;                    // the sent filter (all N; none on one rank)
  Bitmap prev_;                     // seen_ as the level began
  std::vector<std::int64_t> oldq_;  // the frontier, in increasing order
  EdgeChunks chunk_;                // its edges, cut into chunks
  std::vector<WorkerState> workers_;
  std::vector<TaskRecord> records_;                        // one per chunk: each task's own
  std::int64_t arrived_vertices_ = 0, arrived_edges_ = 0;  // remote arrivals claimed this level
  bool listed_ = true;        // every claim since the last take is in a WorkerState::claimed
  std::size_t list_cap_ = 0;  // the most a list holds: past it, the bitmap is read
  // A team run's levels: each thread's finds (two levels' worth, in turn),
  // what each level found and when it ended, and each thread's record of it.
  // Sized once, by the constructor: a team run's threads keep pointers into team_q_.
  struct TeamLevel {
    std::int64_t vertices = 0, edges = 0;
    double end = 0;
    bool alone = false;
  };
  std::vector<std::vector<std::int64_t>> team_q_[2];
  std::vector<TeamLevel> team_log_;
  std::vector<TaskRecord> team_records_;
  HeldCharge team_held_{Held::search};
};

// The frontier is sorted, so the rows a chunk reads lie in increasing order
// in the CSR and the hardware prefetchers stream them (in the queue's order
// each row is a cache miss of its own).  Chunks hold equal numbers of edges,
// so a hub cannot make one chunk outlast the level.
template <class Local>
std::int64_t ChunkedSearch::expand(std::size_t c, std::size_t n, WorkerState& ws, Local&& local) {
  // Plain locals: stores through pred could alias members, forcing reloads.
  const VertexRange& r = g_.range;
  const std::int64_t first = r.first(), last = first + r.local_count();
  const std::int64_t* const offsets = g_.offsets.data();
  const std::int64_t* const oldq = oldq_.data();
  const std::int64_t* const starts = chunk_.starts();
  const auto m = static_cast<std::int64_t>(oldq_.size());
  const std::int64_t e0 = chunk_.edge_begin(c, n), e1 = chunk_.edge_begin(c + 1, n);
  const bool peers = peers_;
  constexpr std::int64_t kAhead = 8;
  g_.targets.visit([&](const auto* const targets) {
    for (auto q = static_cast<std::int64_t>(chunk_.row_of(e0)); q < m && starts[q] < e1; ++q) {
      // A sparse frontier's rows are cache misses each (a grid's wave front
      // is a diagonal): fetch offsets 2 * kAhead rows ahead, targets kAhead.
      if (q + 2 * kAhead < m) __builtin_prefetch(offsets + oldq[q + 2 * kAhead]);
      if (q + kAhead < m) __builtin_prefetch(targets + offsets[oldq[q + kAhead]]);
      const std::int64_t i = oldq[q], base = offsets[i] - starts[q], u = r.global(i);
      const std::int64_t k_begin = base + std::max(starts[q], e0);
      const std::int64_t k_end = base + std::min(starts[q + 1], e1);
      if (!peers) {
        for (std::int64_t k = k_begin; k < k_end; ++k) local(targets[k] - first, u);
        continue;
      }
      for (std::int64_t k = k_begin; k < k_end; ++k) {
        const std::int64_t v = targets[k];
        if (!known_.claim(v)) continue;  // the sent filter
        if (v >= first && v < last)
          local(v - first, u);
        else
          ws.out.send(r.owner(v), {v, u});
      }
      ws.out.pump_now_and_then(k_end - k_begin, apply_);
    }
  });
  pump();
  return static_cast<std::int64_t>(chunk_.vertex_begin(c + 1, n) - chunk_.vertex_begin(c, n));
}

}  // namespace ht::impl
