#pragma once
/// \file HT_Kronecker.hpp
/// \brief The Graph500 Kronecker (R-MAT) edge generator (Graph500 specification
/// 3.0, section 3; D. Chakrabarti, Y. Zhan, C. Faloutsos, "R-MAT: A recursive
/// model for graph mining", SDM 2004).
///
/// 2^SCALE vertices, edgefactor * 2^SCALE edges.  Each edge picks one quadrant
/// per bit with probabilities A, B, C, D = 1 - A - B - C; vertex labels are then
/// permuted and the edge list shuffled, both by keyed bijections.  Edge e
/// depends only on (seed, e): any rank can generate any slice, and the same
/// deck gives the same graph whatever the rank count.
///
/// Example: tests/graph/tstKronecker.cpp.
#include <cstdint>
#include <vector>

#include "runtime/HT_Mix.hpp"

namespace ht {

/// \brief Draw \p i of edge \p k's random stream under \p seed: counter-based,
/// so any rank makes any edge and a generated graph does not depend on the
/// rank count (every generator's, HT_UniformRandom.hpp, HT_GridGraph.hpp).
inline std::uint64_t edge_draw(std::uint64_t seed, std::uint64_t k, int i) {
  return mix64(mix64(seed ^ (k * 0x9e3779b97f4a7c15ULL)) + static_cast<std::uint64_t>(i));
}

/// \brief A weight uniform in [0, 1) from a draw's top 24 bits: every value
/// is a float exactly, and below 1.
inline float edge_weight(std::uint64_t draw) { return static_cast<float>(draw >> 40) * 0x1.0p-24f; }

struct Edge {
  std::int64_t u, v;
};

/// An edge with its weight (kernel 3, SSSP).
struct WeightedEdge {
  std::int64_t u, v;
  float w;  ///< uniform in [0, 1)
};

struct Kronecker {
  int scale = 16;
  int edgefactor = 16;
  double a = 0.57, b = 0.19, c = 0.19;
  std::uint64_t seed = 1;

  std::int64_t vertex_count() const { return std::int64_t(1) << scale; }
  std::int64_t edge_count() const { return std::int64_t(edgefactor) << scale; }
  /// Edges [first, last) of the shuffled list, labels permuted.
  std::vector<Edge> edges(std::int64_t first, std::int64_t last) const;
  /// Edge number e of the shuffled list.
  Edge edge(std::int64_t e) const;
  /// Edges [first, last) with their weights (the same edges as edges()).
  std::vector<WeightedEdge> weighted_edges(std::int64_t first, std::int64_t last) const;
  /// Edge number e and its weight: uniform single precision in [0, 1), 24
  /// random bits, drawn from the edge's own stream right after its SCALE
  /// quadrant draws (as the 3.0 reference draws it after the edge), so the
  /// weighted graph, like the graph, is the same on any rank count.
  WeightedEdge weighted_edge(std::int64_t e) const;

 private:
  Edge endpoints(std::uint64_t k) const;  // edge k of the unshuffled stream
  std::uint64_t shuffled(std::int64_t e) const;
};

/// A keyed bijection of [0, n) (a Feistel network with cycle walking).
class Permutation {
 public:
  Permutation(std::uint64_t n, std::uint64_t key);
  std::uint64_t operator()(std::uint64_t x) const;

 private:
  std::uint64_t n_, key_;
  int half_;  // bits per Feistel half
};

}  // namespace ht
