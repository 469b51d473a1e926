// Tests of the MPI-only BFS: every tree passes the Graph500 checks and gives
// every vertex the serial oracle's level, with coalescing buffers of one
// entry, a few, and more than a level sends.
#include <gtest/gtest.h>

#include "assert_all.hpp"
#include "bfs_check.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

class BfsMpi : public ::testing::TestWithParam<std::size_t> {};

TEST_P(BfsMpi, TreesAreValidAndLevelsMatchTheOracle) {
  ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 5};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD);
  const auto keys = ht::search_keys(g, 4, gen.seed, MPI_COMM_WORLD);
  HT_ASSERT_ALL_EQ(keys.size(), 4u);
  ht::TaskRuntime rt(1 << 20, "Runtime/pool_MiB");  // unused by the mpi variant
  ht::BfsOptions opt;
  opt.buffer_items = GetParam();
  opt.tasks = 1;
  const auto bfs_mpi = ht::make_bfs("mpi", g, opt, rt, MPI_COMM_WORLD);
  for (const auto key : keys) {
    const ht::BfsResult& bfs = bfs_mpi->search(key);
    std::vector<int> want;
    ASSERT_NO_FATAL_FAILURE(check_levels(gen, g, key, bfs.pred, &want));
    // Frontier sizes add up to the reached vertices.
    std::int64_t reached = 0, total = 0;
    for (int l : want) reached += l >= 0;
    for (auto f : bfs.frontier) total += f;
    EXPECT_EQ(total, reached);
  }
}

INSTANTIATE_TEST_SUITE_P(Buffers, BfsMpi, ::testing::Values(1, 7, std::size_t(1) << 20),
                         [](const ::testing::TestParamInfo<std::size_t>& p) {
                           return "buffer" + std::to_string(p.param);
                         });

}  // namespace
