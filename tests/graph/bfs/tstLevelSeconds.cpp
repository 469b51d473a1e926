// The per-level time accounting of every BFS variant (LevelSeconds): each
// part is a share of the level's own wall clock, counted once, so on every
// level of every search no part is negative and the four parts add up to the
// level's total; and the levels lie inside the search, so their totals add up
// to no more than the search took, timed around search() on the same clock.
// Tolerance: 1e-9 s, floating-point rounding of sums of steady_clock seconds;
// a part counted twice costs at least a clock tick and far more than that.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>

#include "assert_all.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

constexpr double kTolerance = 1e-9;

// (variant, hybrid's direction)
using Case = std::pair<std::string, const char*>;
class LevelSeconds : public ::testing::TestWithParam<Case> {};

TEST_P(LevelSeconds, PartsAddUpToTheLevelAndLevelsToTheSearch) {
  const auto& [variant, direction] = GetParam();
  ht::Kronecker gen{11, 16, 0.57, 0.19, 0.19, 3};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD);
  ht::BfsOptions opt;
  opt.buffer_items = 64;  // many messages: the exchange's accounting is exercised
  opt.direction.mode = ht::kDirectionModes.named(direction, "direction");
  const ht::BfsVariant& kind = ht::bfs_variant(variant);
  opt = kind.resolve(opt, Kokkos::OpenMP().concurrency());
  ht::TaskRuntime rt(kind.pool_bytes(opt), "Runtime/pool_MiB");
  const auto bfs = ht::make_bfs(kind, g, opt, rt, MPI_COMM_WORLD);
  int searched = 0;
  for (const auto key : ht::search_keys(g, 4, gen.seed, MPI_COMM_WORLD)) {
    const double t0 = ht::steady_seconds();
    const ht::BfsResult& r = bfs->search(key);
    const double search = ht::steady_seconds() - t0;
    HT_ASSERT_ALL(!r.seconds.empty()) << "key " << key;
    double levels = 0;
    for (std::size_t l = 0; l < r.seconds.size(); ++l) {
      const ht::LevelSeconds& s = r.seconds[l];
      SCOPED_TRACE("key " + std::to_string(key) + ", level " + std::to_string(l));
      EXPECT_GE(s.expand, -kTolerance);
      EXPECT_GE(s.communicate, 0.0);
      EXPECT_GE(s.wait, 0.0);
      EXPECT_GE(s.sync, 0.0);
      EXPECT_NEAR(s.expand + s.communicate + s.wait + s.sync, s.total, kTolerance);
      levels += s.total;
    }
    EXPECT_LE(levels, search + kTolerance) << "key " << key;
    ++searched;
  }
  EXPECT_EQ(searched, 4);
}

std::vector<Case> cases() {
  std::vector<Case> c;
  for (const ht::BfsVariant& v : ht::bfs_variants()) c.emplace_back(v.name, "auto");
  c.emplace_back("hybrid", "bottom-up");  // every level gathers the frontier bitmap
  return c;
}

INSTANTIATE_TEST_SUITE_P(Variants, LevelSeconds, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& c) {
                           std::string d = c.param.second;
                           d.erase(std::remove(d.begin(), d.end(), '-'), d.end());
                           return c.param.first + "_" + d;
                         });

}  // namespace
