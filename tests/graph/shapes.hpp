#pragma once
// Generated graphs of the shapes users bring (issue 45), for the searches'
// correctness tests: paths (thousands of levels), cycles, 2D grids, chains of
// cliques, stars, spiders (a hub with long legs), random trees and many
// disconnected pieces; weights of one kind (unit, uniform, integers 1..255,
// all zero, some zero, 1e-30 to 1e30, or tiny and huge mixed).  One instance
// comes from (shape, size, seed, weights) alone, alike on every rank and rank
// count.  Beside the shape's own piece it holds a small piece and, by seed,
// isolated vertices; the seed also draws duplicate edges (each with a weight
// of its own), self-loops, and a shuffle of the vertex ids (so that the shape
// does not line up with the ranks' blocks) and of the edges' order and ends.
// Its keys: the shape's first vertex (a path's end, a grid's corner, a
// star's hub), a far one (the other end or corner; any for spiders, trees
// and pieces), one at random, the small piece's end, and an isolated vertex
// where there is one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "graph/HT_Kronecker.hpp"

namespace test {

/// \brief The kinds of graph.
enum class Shape { path, cycle, grid, cliques, star, spider, tree, pieces };
/// \brief Every shape.
inline constexpr Shape kShapes[] = {Shape::path, Shape::cycle,  Shape::grid, Shape::cliques,
                                    Shape::star, Shape::spider, Shape::tree, Shape::pieces};
/// \brief A shape's name, as test names spell it.
inline const char* shape_name(Shape s) {
  static constexpr const char* kNames[] = {"path", "cycle",  "grid", "cliques",
                                           "star", "spider", "tree", "pieces"};
  return kNames[static_cast<int>(s)];
}

/// \brief How the edges' weights are drawn.
enum class Weights { unit, uniform, integers, zero, some_zero, wide, tiny_and_huge };
/// \brief Every kind of weights.
inline constexpr Weights kWeights[] = {Weights::unit,         Weights::uniform,   Weights::integers,
                                       Weights::zero,         Weights::some_zero, Weights::wide,
                                       Weights::tiny_and_huge};
/// \brief A kind of weights' name, as test names spell it.
inline const char* weights_name(Weights w) {
  static constexpr const char* kNames[] = {"unit",      "uniform", "integers",     "zero",
                                           "some_zero", "wide",    "tiny_and_huge"};
  return kNames[static_cast<int>(w)];
}

/// \brief One generated graph: its edges over vertices [0, n), the keys to
/// search from, and a name that says how to make it again.
struct ShapeGraph {
  std::string name;
  std::vector<ht::WeightedEdge> edges;
  std::int64_t n = 0;
  std::vector<std::int64_t> keys;
};

/// \brief The graph of \p shape with about \p size vertices in its own
/// piece, drawn from \p seed, weighted by \p weights.
inline ShapeGraph make_shape(Shape shape, std::int64_t size, std::uint64_t seed, Weights weights) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(shape) * 131 +
                      static_cast<std::uint64_t>(weights));
  const auto below = [&rng](std::int64_t k) {
    return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(k));
  };
  const auto uniform = [&rng] { return std::uniform_real_distribution<float>(0.0f, 1.0f)(rng); };
  const auto power = [&rng](double lo, double hi) {
    return static_cast<float>(std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng)));
  };
  const auto weight = [&]() -> float {
    switch (weights) {
      case Weights::unit:
        return 1.0f;
      case Weights::uniform:
        return uniform();
      case Weights::integers:
        return static_cast<float>(1 + below(255));
      case Weights::zero:
        return 0.0f;
      case Weights::some_zero:
        return below(3) == 0 ? 0.0f : uniform();
      case Weights::wide:
        return power(-30, 30);
      default:
        return below(2) ? power(-30, -20) : power(20, 30);
    }
  };

  ShapeGraph g;
  std::vector<ht::WeightedEdge>& e = g.edges;
  const auto join = [&](std::int64_t u, std::int64_t v) { e.push_back({u, v, weight()}); };
  size = std::max<std::int64_t>(size, 4);
  std::int64_t n = size;  // the shape's piece: [0, n)
  std::int64_t far = -1;  // the second key, if not the piece's last vertex
  switch (shape) {
    case Shape::path:
    case Shape::cycle:
      for (std::int64_t v = 0; v + 1 < n; ++v) join(v, v + 1);
      if (shape == Shape::cycle) join(n - 1, 0);
      break;
    case Shape::grid: {  // rows x cols, not square, each vertex joined right and down
      const std::int64_t rows = std::max<std::int64_t>(
          2, static_cast<std::int64_t>(std::sqrt(static_cast<double>(size) / 3)));
      const std::int64_t cols = size / rows;
      n = rows * cols;
      for (std::int64_t y = 0; y < rows; ++y)
        for (std::int64_t x = 0; x < cols; ++x) {
          if (x + 1 < cols) join(y * cols + x, y * cols + x + 1);
          if (y + 1 < rows) join(y * cols + x, (y + 1) * cols + x);
        }
      break;
    }
    case Shape::cliques: {  // cliques of 2..9 vertices, each joined to the next by one edge
      const std::int64_t k = 2 + below(8);
      const std::int64_t count = std::max<std::int64_t>(2, size / k);
      n = count * k;
      for (std::int64_t c = 0; c < count; ++c) {
        for (std::int64_t a = 0; a < k; ++a)
          for (std::int64_t b = a + 1; b < k; ++b) join(c * k + a, c * k + b);
        if (c + 1 < count) join(c * k + below(k), (c + 1) * k + below(k));
      }
      break;
    }
    case Shape::star:  // hub 0; a few leaves joined to each other
      for (std::int64_t v = 1; v < n; ++v) join(0, v);
      for (std::int64_t i = below(n / 8 + 1); i > 0; --i) join(1 + below(n - 1), 1 + below(n - 1));
      break;
    case Shape::spider: {  // hub 0 with legs of about sqrt(size) vertices
      const std::int64_t leg = std::max<std::int64_t>(
          1, static_cast<std::int64_t>(std::sqrt(static_cast<double>(size))) + below(5));
      for (std::int64_t v = 1; v < n; ++v) join((v - 1) % leg == 0 ? 0 : v - 1, v);
      far = 1 + below(n - 1);
      break;
    }
    case Shape::tree:  // a random recursive tree: each vertex hangs on an earlier one
      for (std::int64_t v = 1; v < n; ++v) join(below(v), v);
      far = below(n);
      break;
    case Shape::pieces: {  // paths, cliques and stars of 1..40 vertices, apart
      std::int64_t v = 0;
      while (v < n) {
        const std::int64_t m = std::min(n - v, 1 + below(40));
        switch (below(3)) {
          case 0:
            for (std::int64_t i = 0; i + 1 < m; ++i) join(v + i, v + i + 1);
            break;
          case 1:
            for (std::int64_t a = 0; a < std::min<std::int64_t>(m, 8); ++a)
              for (std::int64_t b = a + 1; b < std::min<std::int64_t>(m, 8); ++b)
                join(v + a, v + b);
            for (std::int64_t i = 8; i < m; ++i) join(v + i - 1, v + i);
            break;
          default:
            for (std::int64_t i = 1; i < m; ++i) join(v, v + i);
        }
        v += m;
      }
      far = below(n);
      break;
    }
  }
  if (far < 0) far = n - 1;
  const std::int64_t random_key = below(n);
  // The small piece: a path of 2..5 vertices; then 0..3 isolated vertices.
  const std::int64_t small = n, small_size = 2 + below(4);
  for (std::int64_t i = 0; i + 1 < small_size; ++i) join(small + i, small + i + 1);
  const std::int64_t isolated = small + small_size, isolated_count = below(4);
  g.n = isolated + isolated_count;

  std::string extras;
  const std::size_t shape_edges = e.size();
  if (below(3) == 0) {  // duplicates, each with a weight of its own
    extras += " dup";
    for (std::int64_t i = std::max<std::int64_t>(1, static_cast<std::int64_t>(shape_edges) / 16);
         i > 0; --i) {
      const ht::WeightedEdge d =
          e[static_cast<std::size_t>(below(static_cast<std::int64_t>(shape_edges)))];
      join(d.v, d.u);
    }
  }
  if (below(3) == 0) {  // self-loops, some on isolated vertices
    extras += " loops";
    for (std::int64_t i = 1 + g.n / 64; i > 0; --i) {
      const std::int64_t v = below(g.n);
      join(v, v);
    }
  }
  std::vector<std::int64_t> id(static_cast<std::size_t>(g.n));
  std::iota(id.begin(), id.end(), 0);
  if (below(4) != 0) {  // most instances: ids shuffled, edges in any order and either way round
    extras += " shuffled";
    std::shuffle(id.begin(), id.end(), rng);
    std::shuffle(e.begin(), e.end(), rng);
    for (auto& x : e)
      if (rng() % 2) std::swap(x.u, x.v);
  }
  for (auto& x : e) {
    x.u = id[static_cast<std::size_t>(x.u)];
    x.v = id[static_cast<std::size_t>(x.v)];
  }
  const auto key = [&](std::int64_t v) { return id[static_cast<std::size_t>(v)]; };
  g.keys = {key(0), key(far == 0 ? random_key : far), key(small + small_size - 1)};
  if (random_key != 0 && random_key != far) g.keys.push_back(key(random_key));
  if (isolated_count > 0) g.keys.push_back(key(isolated));
  g.name = std::string(shape_name(shape)) + " size " + std::to_string(size) + " seed " +
           std::to_string(seed) + " " + weights_name(weights) + " (n " + std::to_string(g.n) +
           ", " + std::to_string(e.size()) + " edges" + extras + ")";
  return g;
}

}  // namespace test
