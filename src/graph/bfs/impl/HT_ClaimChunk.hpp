#pragma once
// The top-down chunk body that claims each vertex with one atomic operation
// on its visited bit (the atomic variant's, and the hybrid variant's
// top-down levels).  pred is written in batches after the claims.
#include "graph/bfs/impl/HT_BfsChunked.hpp"

namespace ht::impl {

struct Claim {
  static constexpr bool kLaneIsTask = false;
  static constexpr std::size_t kBatch = 64;

  static std::int64_t run(ChunkedBfs& b, std::size_t chunk, std::size_t chunks) {
    Lane& lane = b.lane();
    Bitmap& seen = b.seen();
    std::int64_t* const pred = b.pred();
    const std::int64_t* const degrees = b.counts_found_edges() ? b.graph().offsets.data() : nullptr;
    std::int64_t edges = 0;
    // pred is written in batches, after the claims: a locked fetch_or waits
    // for every earlier store to leave the store buffer, and a pred store
    // usually misses the cache, so interleaving them would serialize misses
    // (batched, a search at SCALE 20 on one thread ran about 10% faster).
    std::pair<std::int64_t, std::int64_t> won[kBatch];
    std::size_t n_won = 0;
    std::int64_t claims = 0;
    const auto flush = [&] {
      for (std::size_t w = 0; w < n_won; ++w) pred[won[w].first] = won[w].second;
      if (degrees) {
        for (std::size_t w = 0; w < n_won; ++w)
          edges += degrees[won[w].first + 1] - degrees[won[w].first];
      }
      claims += static_cast<std::int64_t>(n_won);
      n_won = 0;
    };
    const std::int64_t items = b.expand(chunk, chunks, lane, [&](std::int64_t j, std::int64_t u) {
      if (!seen.claim(j)) return;
      won[n_won++] = {j, u};
      if (n_won == kBatch) flush();
    });
    flush();
    lane.task_visits += claims;  // each claim is a visit, and no other task's
    lane.unique_visits += claims;
    lane.found_vertices += claims;
    lane.found_edges += edges;
    return items;
  }
};

}  // namespace ht::impl
