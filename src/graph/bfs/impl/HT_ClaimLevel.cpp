// A top-down level by atomic claims: a task expanding u claims neighbour v
// with one atomic fetch_or on v's visited bit; only the winner sets pred[v]
// and lists v, so no vertex is expanded twice.  The shared-memory form is the
// classic one (e.g. Leiserson & Schardl, "A work-efficient parallel
// breadth-first search algorithm", SPAA 2010 discuss the benign races of such
// claims).
#include "graph/bfs/impl/HT_ClaimLevel.hpp"

#include "graph/impl/HT_ChunkTask.hpp"

namespace ht::impl {

void ClaimTask::run() const {
  static_assert(sizeof(ClaimTask) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this");
  constexpr std::size_t kBatch = 64;
  TaskClock clock = s->clock(chunk, iteration);
  WorkerState& ws = s->worker_state();
  Bitmap& seen = s->seen();
  std::int64_t* const pred = s->pred();
  const std::int64_t* const degrees = s->counts_found_edges() ? s->graph().offsets.data() : nullptr;
  std::int64_t edges = 0;
  // pred is written in batches, after the claims: a locked fetch_or waits
  // for every earlier store to leave the store buffer, and a pred store
  // usually misses the cache, so interleaving them would serialize misses
  // (batched, a search at SCALE 20 on one thread ran about 10% faster).
  std::pair<std::int64_t, std::int64_t> won[kBatch];
  std::size_t n_won = 0;
  std::int64_t claims = 0;
  const auto flush = [&] {
    for (std::size_t w = 0; w < n_won; ++w) {
      pred[won[w].first] = won[w].second;
      s->list(ws, won[w].first);
    }
    if (degrees) {
      for (std::size_t w = 0; w < n_won; ++w)
        edges += degrees[won[w].first + 1] - degrees[won[w].first];
    }
    claims += static_cast<std::int64_t>(n_won);
    n_won = 0;
  };
  clock.items(s->expand(chunk, chunks, ws, [&](std::int64_t j, std::int64_t u) {
    if (!seen.claim(j)) return;
    won[n_won++] = {j, u};
    if (n_won == kBatch) flush();
  }));
  flush();
  ws.count_claims(claims, edges);
  clock.stop();
}

void ClaimTask::run_alone() const {
  TaskClock clock = s->clock(chunk, iteration);
  WorkerState& ws = s->worker_state();
  Bitmap& seen = s->seen();
  std::int64_t* const pred = s->pred();
  const std::int64_t* const degrees = s->counts_found_edges() ? s->graph().offsets.data() : nullptr;
  std::int64_t claims = 0, edges = 0;
  clock.items(s->expand(chunk, chunks, ws, [&](std::int64_t j, std::int64_t u) {
    if (!seen.set_new(j)) return;
    pred[j] = u;
    s->list(ws, j);
    ++claims;
    if (degrees) edges += degrees[j + 1] - degrees[j];
  }));
  ws.count_claims(claims, edges);
  clock.stop();
}

void claim_level(ChunkedSearch& s, TaskRuntime& rt, int iteration) {
  const std::size_t n = s.top_down_chunks();
  if (n == 0) return;
  s.profile().reserve(n);
  const std::int64_t edges = s.level_edges();
  if (edges < kAloneEdges || s.workers() == 1) {
    // Too small to share: alone, the claims need no atomics.
    ClaimTask{&s, 0, 1, iteration}.run_alone();
    if (s.profile().enabled()) s.profile().merge(*s.record(0));
    return;
  }
  if (edges < kTeamEdges) {
    // A high-diameter graph's levels are mostly this size: one fork-join of
    // the rank's threads, a chunk per thread (HT_ChunkTask.hpp, team_chunks).
    const std::size_t t = std::min(std::max(n, s.workers()), s.max_chunks());
    team_chunks(s.profile(), s.records(), t, [&](std::size_t c) {
      ClaimTask{&s, c, t, iteration}.run();
    });
    return;
  }
  for (std::size_t c = 0; c < n; ++c)
    merge_when_done(rt, s.profile(), rt.spawn(ClaimTask{&s, c, n, iteration}), s.record(c));
  rt.wait();
}

}  // namespace ht::impl
