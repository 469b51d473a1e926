#pragma once
/// \file HT_Direction.hpp
/// \brief When a direction-optimizing BFS searches top-down and when
/// bottom-up: the heuristic of S. Beamer, K. Asanović, D. Patterson,
/// "Direction-Optimizing Breadth-First Search", SC 2012, with gapbs'
/// defaults (alpha 15, beta 18).
///
/// Top-down pays for every edge out of the frontier (m_f); bottom-up pays,
/// at worst, for every edge out of an unvisited vertex (m_u), but stops at a
/// vertex's first parent.  So: go bottom-up once the frontier's edges pass a
/// share of the unexplored ones (m_f > m_u / alpha), and come back top-down
/// once the frontier shrinks below a share of the vertices (n_f < n / beta,
/// and smaller than the last).  After a bottom-up phase one top-down level
/// runs before the next test, since m_f is only known for a frontier that a
/// top-down level found (as in gapbs).  All counts are global (summed over
/// ranks), so every rank takes the same decision.
///
/// Examples: src/graph/bfs/HT_BfsHybrid.cpp, tests/graph/bfs/tstDirection.cpp.
#include <cstdint>
#include <string>
#include "runtime/HT_Choices.hpp"

namespace ht {

enum class Direction { top_down, bottom_up };

/// How a direction-optimizing search picks each level's direction.
struct DirectionPolicy {
  enum class Mode { automatic, top_down, bottom_up };
  Mode mode = Mode::automatic;
  double alpha = 15;  ///< top-down -> bottom-up when m_f > m_u / alpha
  double beta = 18;   ///< bottom-up -> top-down when n_f < n / beta (and shrinking)
};

/// What the heuristic reads at the end of a level, over all ranks.
struct FrontierCounts {
  std::int64_t n_f = 0;       ///< vertices in the next frontier
  std::int64_t m_f = 0;       ///< edges out of them
  std::int64_t m_u = 0;       ///< edges out of vertices still unvisited
  std::int64_t n = 0;         ///< vertices in the graph
  std::int64_t prev_n_f = 0;  ///< vertices in the frontier just expanded
};

/// The direction of the next level, after a level searched \p now.
Direction next_direction(const DirectionPolicy& p, Direction now, const FrontierCounts& c);

/// The direction a search starts in (from the key alone).
inline Direction first_direction(const DirectionPolicy& p) {
  return p.mode == DirectionPolicy::Mode::bottom_up ? Direction::bottom_up : Direction::top_down;
}

/// "auto", "top-down", "bottom-up": the deck's names of the modes
/// (runtime/HT_Choices.hpp).
inline constexpr Choices<DirectionPolicy::Mode, 3> kDirectionModes{
    {{DirectionPolicy::Mode::automatic, "auto"},
     {DirectionPolicy::Mode::top_down, "top-down"},
     {DirectionPolicy::Mode::bottom_up, "bottom-up"}}};
inline const char* mode_name(DirectionPolicy::Mode m) { return kDirectionModes.name(m); }

}  // namespace ht
