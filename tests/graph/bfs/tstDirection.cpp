// The direction heuristic (Beamer et al., SC 2012) on known frontier sizes.
#include <gtest/gtest.h>

#include "graph/bfs/HT_Direction.hpp"
#include "runtime/HT_Error.hpp"

namespace {

using ht::Direction;
using Mode = ht::DirectionPolicy::Mode;

TEST(Direction, TopDownGoesBottomUpWhenTheFrontiersEdgesPassAShareOfTheUnexplored) {
  ht::DirectionPolicy p;  // alpha 15
  ht::FrontierCounts c;
  c.n = 1 << 20;
  c.m_u = 15000;
  c.m_f = 1000;  // == m_u / alpha: not more
  EXPECT_EQ(ht::next_direction(p, Direction::top_down, c), Direction::top_down);
  c.m_f = 1001;
  EXPECT_EQ(ht::next_direction(p, Direction::top_down, c), Direction::bottom_up);
  p.alpha = 10;  // a smaller alpha switches later
  EXPECT_EQ(ht::next_direction(p, Direction::top_down, c), Direction::top_down);
}

TEST(Direction, BottomUpStaysWhileTheFrontierGrowsOrIsLarge) {
  ht::DirectionPolicy p;  // beta 18
  ht::FrontierCounts c;
  c.n = 18000;  // n / beta = 1000
  c.prev_n_f = 5000;
  c.n_f = 6000;  // growing
  EXPECT_EQ(ht::next_direction(p, Direction::bottom_up, c), Direction::bottom_up);
  c.n_f = 1001;  // shrinking, but above n / beta
  EXPECT_EQ(ht::next_direction(p, Direction::bottom_up, c), Direction::bottom_up);
  c.n_f = 1000;  // shrinking and not above n / beta
  EXPECT_EQ(ht::next_direction(p, Direction::bottom_up, c), Direction::top_down);
  c.prev_n_f = 900;  // small, but growing again
  EXPECT_EQ(ht::next_direction(p, Direction::bottom_up, c), Direction::bottom_up);
}

TEST(Direction, BottomUpIgnoresTheEdgeTest) {
  // m_f is only meaningful for a frontier a top-down level found: however
  // large, a shrinking small frontier goes back top-down.
  ht::DirectionPolicy p;
  ht::FrontierCounts c{10, 1000000, 1, 18000, 20};
  EXPECT_EQ(ht::next_direction(p, Direction::bottom_up, c), Direction::top_down);
}

TEST(Direction, ForcedModesIgnoreTheCounts) {
  ht::FrontierCounts big{1000000, 1000000, 1, 1000000, 1};
  ht::FrontierCounts small{1, 1, 1000000, 1000000, 1000};
  for (Direction now : {Direction::top_down, Direction::bottom_up}) {
    for (const auto& c : {big, small}) {
      EXPECT_EQ(ht::next_direction({Mode::top_down}, now, c), Direction::top_down);
      EXPECT_EQ(ht::next_direction({Mode::bottom_up}, now, c), Direction::bottom_up);
    }
  }
  EXPECT_EQ(ht::first_direction({Mode::automatic}), Direction::top_down);
  EXPECT_EQ(ht::first_direction({Mode::top_down}), Direction::top_down);
  EXPECT_EQ(ht::first_direction({Mode::bottom_up}), Direction::bottom_up);
}

TEST(Direction, ModesRoundTripByNameAndABadNameIsRefused) {
  for (Mode m : {Mode::automatic, Mode::top_down, Mode::bottom_up})
    EXPECT_EQ(ht::kDirectionModes.named(ht::mode_name(m), "Graph500/direction"), m);
  try {
    ht::kDirectionModes.named("sideways", "Graph500/direction");
    FAIL() << "no error";
  } catch (const ht::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Graph500/direction = 'sideways'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("auto, top-down, bottom-up"), std::string::npos);
  }
}

}  // namespace
