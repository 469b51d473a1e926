#pragma once
// A task shape for kernels that spawn one per piece of a step (the 2D BFS,
// delta-stepping): piece \c chunk of \c chunks, its TaskRecord timed, and
// its work done by a Body:
//
//   struct Body {
//     static constexpr bool kLaneIsTask = false;  // lane: the worker (true: the piece)
//     static std::int64_t run(Owner&, std::size_t chunk, std::size_t chunks);  // items
//   };
//
// Static shares (the study's NT tasks) are lanes of their own; dynamically
// scheduled chunks are balanced per worker (see HT_Profile.hpp).  The 1D BFS
// variants write their task structs in their own files, within the same
// size bound.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "comm/HT_TeamBarrier.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"
#include "runtime/impl/HT_TaskGuard.hpp"

namespace ht::impl {

/// A step (a BFS level, a delta-stepping wave) of fewer edges than
/// kAloneEdges runs on the host alone, of fewer than kTeamEdges on the
/// rank's threads in one fork-join (team_chunks), and of more in chunk
/// tasks, which balance hubs and overlap messages (measured on grids and
/// Kronecker graphs, 1 rank x 2 threads: docs/performance/bfs.md#levels).
constexpr std::int64_t kAloneEdges = 1024;
constexpr std::int64_t kTeamEdges = 65536;
/// Fewer edges than this per chunk task cost more in spawning than they
/// gain in balance (BFS levels, delta-stepping waves).
constexpr std::int64_t kMinChunkEdges = 2048;

/// \brief Steps of fewer edges than this in a team run (one rank's BFS
/// levels, delta-stepping waves) run on one thread alone (kAloneEdges;
/// tests set 0 to share every step).
inline std::int64_t team_alone_edges_ = kAloneEdges;
inline std::int64_t team_alone_edges() { return team_alone_edges_; }
/// \brief Sets team_alone_edges() (tests).
inline void set_team_alone_edges(std::int64_t edges) { team_alone_edges_ = edges; }

/// Bytes every BFS task functor fits in (BfsVariant::pool_bytes counts on it).
constexpr std::size_t kLargestTaskBytes = 64;

template <class Owner, class Body>
struct ChunkTask {
  using value_type = void;
  Owner* owner;
  TaskRecord* record;
  std::size_t chunk, chunks;
  int iteration;

  void operator()(TaskMember&) const {
    static_assert(sizeof(ChunkTask) <= kLargestTaskBytes,
                  "BfsVariant::pool_bytes() assumes this bound");
    run();
  }
  /// The piece's work and its record, on whichever thread calls it.
  void run() const {
    const int c = static_cast<int>(chunk);
    TaskClock clock(owner->profile(), *record, iteration,
                    Body::kLaneIsTask ? c : TaskRuntime::worker(), c);
    clock.items(Body::run(*owner, chunk, chunks));
    clock.stop();
  }
};

/// Runs \p f(c) for each c < \p n on the rank's threads in one fork-join
/// (Kokkos::parallel_for, c by c in turn: \p n is a few per thread), then
/// merges \p records[0, n) into \p profile.  For steps of a few thousand
/// edges: a task's spawn and the scheduler's wait cost more than the step,
/// and one thread alone leaves the others' memory bandwidth unused.
template <class F>
void team_chunks(Profile& profile, std::vector<TaskRecord>& records, std::size_t n, F&& f) {
  if (records.size() < n) records.resize(n);
  profile.reserve(n);
  // Under the tasks' error policy: an exception must not reach the OpenMP region.
  Kokkos::parallel_for("ht::team_chunks",
                       Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::Schedule<Kokkos::Dynamic>>(0, n),
                       [&](std::size_t c) { guarded([&] { f(c); }); });
  Kokkos::fence();
  if (profile.enabled())
    for (std::size_t c = 0; c < n; ++c) profile.merge(records[c]);
}

/// \brief Runs \p f(t, T, barrier) on threads t < T of one parallel region,
/// under the tasks' error policy, and returns T: the smaller of \p threads
/// and the team Kokkos allows.  For one rank's team runs (a BFS's small
/// levels, a delta-stepping search), whose steps meet at \p barrier
/// (ht::TeamBarrier) instead of paying a fork-join each.
template <class F>
int team_run(const char* name, int threads, F&& f) {
  using Team = Kokkos::TeamPolicy<Kokkos::OpenMP>;
  std::unique_ptr<TeamBarrier> barrier;
  int T = threads;
  const auto body = [&](const Team::member_type& member) {
    guarded([&] { f(member.team_rank(), T, *barrier); });
  };
  T = std::min(threads, Team(1, 1).team_size_max(body, Kokkos::ParallelForTag()));
  barrier = std::make_unique<TeamBarrier>(T);
  Kokkos::parallel_for(name, Team(1, T), body);
  Kokkos::fence();
  return T;
}

/// Spawns ChunkTask<Owner, Body> for each chunk c < \p n with \p records[c]
/// (sized here), each merged into \p profile as soon as it is done.
template <class Body, class Owner>
void spawn_chunks(TaskRuntime& rt, Profile& profile, Owner* owner, std::vector<TaskRecord>& records,
                  int iteration, std::size_t n) {
  if (records.size() < n) records.resize(n);
  profile.reserve(n);
  for (std::size_t c = 0; c < n; ++c) {
    Future<void> f = rt.spawn(ChunkTask<Owner, Body>{owner, &records[c], c, n, iteration});
    merge_when_done(rt, profile, f, &records[c]);
  }
}

}  // namespace ht::impl
