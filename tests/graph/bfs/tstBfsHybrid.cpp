// Tests of the hybrid (direction-optimizing) variant: forced top-down,
// forced bottom-up and the heuristic's choice all give every vertex the
// serial oracle's level and pass the Graph500 checks, for coalescing
// buffers of one entry, a few and more than a level sends, on graphs whose
// rank blocks start on a bitmap word (the frontier gathered with
// MPI_Allgatherv) and graphs whose blocks do not (merged with MPI_BOR),
// with rows as the edges came and ordered by degree (order_rows: the
// bottom-up step's first target is then the hub).
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <tuple>

#include "assert_all.hpp"
#include "bfs_check.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Mode = ht::DirectionPolicy::Mode;
using Case = std::tuple<Mode, int, std::size_t, bool>;  // direction, SCALE, buffer, ordered

class BfsHybrid : public ::testing::TestWithParam<Case> {};

TEST_P(BfsHybrid, LevelsMatchTheOracleInEveryDirection) {
  const auto& [mode, scale, buffer, ordered] = GetParam();
  ht::Kronecker gen{scale, 8, 0.57, 0.19, 0.19, 5};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD);
  if (ordered) ht::order_rows(g, MPI_COMM_WORLD);
  ht::BfsOptions opt;
  opt.buffer_items = buffer;
  opt.chunks = 8;
  opt.direction.mode = mode;
  const ht::BfsVariant& kind = ht::bfs_variant("hybrid");
  opt = kind.resolve(opt, Kokkos::OpenMP().concurrency());
  ht::TaskRuntime rt(kind.pool_bytes(opt), "Runtime/pool_MiB");
  const auto bfs_of = kind.make(g, opt, rt, MPI_COMM_WORLD);
  int bottom_up_levels = 0;
  for (const auto key : ht::search_keys(g, 4, gen.seed, MPI_COMM_WORLD)) {
    const ht::BfsResult& bfs = bfs_of->search(key);
    ASSERT_NO_FATAL_FAILURE(check_levels(gen, g, key, bfs.pred));
    // One direction per level searched: the frontier sizes, plus the last,
    // empty one.
    HT_ASSERT_ALL_EQ(bfs.bottom_up.size(), bfs.frontier.size());
    for (int up : bfs.bottom_up) {
      if (mode == Mode::top_down) {
        EXPECT_EQ(up, 0);
      } else if (mode == Mode::bottom_up) {
        EXPECT_EQ(up, 1);
      }
      bottom_up_levels += up;
    }
    EXPECT_EQ(bfs.bottom_up.front(), mode == Mode::bottom_up) << "the key's level";
    // A bottom-up level sends nothing.
    for (std::size_t l = 0; l < bfs.bottom_up.size(); ++l) {
      if (bfs.bottom_up[l]) {
        EXPECT_EQ(bfs.messages[l], 0) << "level " << l;
      }
    }
  }
  // These graphs' frontiers grow past m_u / 15 edges: the heuristic uses
  // bottom-up for some levels and top-down for the first.
  if (mode == Mode::automatic) {
    EXPECT_GT(bottom_up_levels, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Directions, BfsHybrid,
    ::testing::Combine(::testing::Values(Mode::automatic, Mode::top_down, Mode::bottom_up),
                       ::testing::Values(5, 10),  // 2^5 / 4 ranks: blocks off the words
                       ::testing::Values(1, 7, std::size_t(1) << 20), ::testing::Bool()),
    [](const ::testing::TestParamInfo<Case>& p) {
      std::string name = ht::mode_name(std::get<0>(p.param));
      for (char& c : name)
        if (c == '-') c = '_';
      return name + "_scale" + std::to_string(std::get<1>(p.param)) + "_buffer" +
             std::to_string(std::get<2>(p.param)) + (std::get<3>(p.param) ? "_ordered" : "");
    });

}  // namespace
