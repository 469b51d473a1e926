#pragma once
// The top-down scan of a frontier vertex's edges, with the sent filter:
// shared by the MPI-only variant and the chunked task variants.
//
// On several ranks half the edges are remote and most lead to vertices that
// were found already; without a filter each cost a 16-byte item sent,
// received and rejected, and two ranks were slower than one.  So one bitmap
// over all vertices, set for every vertex this rank took or sent this
// search, is tested first: a remote vertex is sent once per search (its owner
// marks it visited in the level it first arrives, so later finds are moot),
// and the local-or-remote branch, a coin toss per edge, runs for new
// vertices only.
#include <cstdint>

#include "graph/HT_Csr.hpp"

namespace ht::impl {

/// Edges [\p k0, \p k1) of frontier vertex \p u (global id): each target v
/// goes to local(v's local index, u) if this rank owns it, else to
/// remote(owner, v, u).  With \p peers, a target for which first_time(v) is
/// false (the filter above) is skipped.  \p targets are 32- or 64-bit ids
/// (Targets::visit).
template <class T, class FirstTime, class Local, class Remote>
inline void scan_edges(const T* targets, std::int64_t k0, std::int64_t k1, std::int64_t u,
                       const VertexRange& r, bool peers, FirstTime&& first_time, Local&& local,
                       Remote&& remote) {
  const std::int64_t first = r.first(), last = first + r.local_count();
  if (!peers) {
    for (std::int64_t k = k0; k < k1; ++k) local(targets[k] - first, u);
    return;
  }
  for (std::int64_t k = k0; k < k1; ++k) {
    const std::int64_t v = targets[k];
    if (!first_time(v)) continue;
    if (v >= first && v < last)
      local(v - first, u);
    else
      remote(r.owner(v), v, u);
  }
}

}  // namespace ht::impl
