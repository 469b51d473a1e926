#pragma once
/// \file HT_UniformRandom.hpp
/// \brief A uniform random graph (Erdos-Renyi-like, as gapbs's `-u`): 2^SCALE
/// vertices, edgefactor * 2^SCALE edges, each end uniform over the vertices,
/// each weight uniform in [0, 1) as Kronecker's.
///
/// Edge e is drawn from its own counter-based stream (edge_draw), so any rank
/// makes any slice and the graph is the same on any rank count.  Its ends
/// are uniform already: no label permutation or shuffle has locality to hide.
///
/// Example: tests/graph/tstGenerators.cpp.
#include <cstdint>

#include "graph/HT_Kronecker.hpp"

namespace ht {

/// \brief The uniform random graph of a SCALE, edgefactor and seed.
struct UniformRandom {
  int scale = 16;
  int edgefactor = 16;
  std::uint64_t seed = 1;

  /// \brief 2^SCALE.
  std::int64_t vertex_count() const { return std::int64_t(1) << scale; }
  /// \brief edgefactor * 2^SCALE (self-loops among them are dropped by kernel 1).
  std::int64_t edge_count() const { return std::int64_t(edgefactor) << scale; }
  /// \brief Edge number \p e: draws 0 and 1 of its stream are its ends.
  Edge edge(std::int64_t e) const {
    const std::uint64_t mask = static_cast<std::uint64_t>(vertex_count()) - 1;
    const auto k = static_cast<std::uint64_t>(e);
    return {static_cast<std::int64_t>(edge_draw(key(), k, 0) & mask),
            static_cast<std::int64_t>(edge_draw(key(), k, 1) & mask)};
  }
  /// \brief Edge number \p e and its weight, draw 2 of its stream.
  WeightedEdge weighted_edge(std::int64_t e) const {
    const Edge uv = edge(e);
    return {uv.u, uv.v, edge_weight(edge_draw(key(), static_cast<std::uint64_t>(e), 2))};
  }

 private:
  // Not Kronecker's streams under the same seed.
  std::uint64_t key() const { return seed ^ 0x75e1f0a3c2b4d697ULL; }
};

}  // namespace ht
