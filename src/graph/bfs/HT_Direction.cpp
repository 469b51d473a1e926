#include "graph/bfs/HT_Direction.hpp"

#include "runtime/HT_Error.hpp"

namespace ht {

Direction next_direction(const DirectionPolicy& p, Direction now, const FrontierCounts& c) {
  switch (p.mode) {
    case DirectionPolicy::Mode::top_down:
      return Direction::top_down;
    case DirectionPolicy::Mode::bottom_up:
      return Direction::bottom_up;
    case DirectionPolicy::Mode::automatic:
      break;
  }
  if (now == Direction::top_down) {
    return static_cast<double>(c.m_f) > static_cast<double>(c.m_u) / p.alpha ? Direction::bottom_up
                                                                             : Direction::top_down;
  }
  const bool growing = c.n_f >= c.prev_n_f;
  const bool large = static_cast<double>(c.n_f) > static_cast<double>(c.n) / p.beta;
  return growing || large ? Direction::bottom_up : Direction::top_down;
}

}  // namespace ht
