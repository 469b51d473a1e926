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
#include <cstdint>
#include <vector>

#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht::impl {

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
    const int c = static_cast<int>(chunk);
    TaskClock clock(owner->profile(), *record, iteration,
                    Body::kLaneIsTask ? c : TaskRuntime::worker(), c);
    clock.items(Body::run(*owner, chunk, chunks));
    clock.stop();
  }
};

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
