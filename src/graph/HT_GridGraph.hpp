#pragma once
/// \file HT_GridGraph.hpp
/// \brief A road-like graph of high diameter: a 2D grid of 2^SCALE vertices,
/// 2^floor(SCALE/2) rows by 2^ceil(SCALE/2) columns (SCALE 20: 1024 x 1024,
/// SCALE 21: 1024 x 2048), each vertex joined to its right and its lower
/// neighbour: about 2 edges a vertex, whatever the edgefactor, and
/// rows + columns - 2 BFS levels from a corner.
///
/// Vertex (r, c) is r * columns + c: the ids keep the grid's locality, as a
/// road network's file keeps its roads' (a Kronecker graph's labels are
/// permuted because R-MAT puts the hubs at the low ids; a grid has none).
/// Edges are numbered row by row, the horizontal ones first; weights are
/// uniform in [0, 1) as Kronecker's, drawn from edge e's own counter-based
/// stream (edge_draw), so any rank makes any slice and the graph is the same
/// on any rank count.
///
/// Example: tests/graph/tstGenerators.cpp.
#include <cstdint>

#include "graph/HT_Kronecker.hpp"

namespace ht {

/// \brief The grid graph of a SCALE (and a seed, for its weights).
struct GridGraph {
  int scale = 16;
  std::uint64_t seed = 1;

  /// \brief 2^floor(SCALE/2).
  std::int64_t rows() const { return std::int64_t(1) << (scale / 2); }
  /// \brief 2^ceil(SCALE/2).
  std::int64_t columns() const { return std::int64_t(1) << (scale - scale / 2); }
  /// \brief rows * columns = 2^SCALE.
  std::int64_t vertex_count() const { return std::int64_t(1) << scale; }
  /// \brief rows (columns - 1) horizontal edges and (rows - 1) columns vertical.
  std::int64_t edge_count() const { return horizontal() + (rows() - 1) * columns(); }
  /// \brief Edge number \p e: {v, v + 1} for the horizontal ones, then {v, v + columns}.
  Edge edge(std::int64_t e) const {
    const std::int64_t h = horizontal();
    if (e < h) {
      const std::int64_t r = e / (columns() - 1), v = e + r;  // skips each row's last column
      return {v, v + 1};
    }
    return {e - h, e - h + columns()};
  }
  /// \brief Edge number \p e and its weight.
  WeightedEdge weighted_edge(std::int64_t e) const {
    const Edge uv = edge(e);
    return {uv.u, uv.v, edge_weight(edge_draw(key(), static_cast<std::uint64_t>(e), 0))};
  }

 private:
  std::int64_t horizontal() const { return rows() * (columns() - 1); }
  std::uint64_t key() const { return seed ^ 0x2545f4914f6cdd1dULL; }
};

}  // namespace ht
