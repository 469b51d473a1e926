// Tests of the task variants (locking, nonlocking): every tree passes the
// Graph500 checks and gives every vertex the serial oracle's level, for 2 and
// 3 tasks and coalescing buffers of one entry, a few, and more than a level
// sends; the study's measures come out in range.
#include <gtest/gtest.h>

#include <tuple>

#include "bfs_oracle.hpp"
#include "graph/HT_Bfs.hpp"
#include "graph/HT_Validate.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Case = std::tuple<std::string, int, std::size_t>;  // variant, tasks, buffer

class BfsTasks : public ::testing::TestWithParam<Case> {};

TEST_P(BfsTasks, TreesAreValidAndLevelsMatchTheOracle) {
  const auto& [variant, tasks, buffer] = GetParam();
  ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 5};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD);
  ht::TaskRuntime rt(ht::bfs_pool_bytes(tasks), "Runtime/pool_MiB");
  const ht::BfsOptions opt{buffer, tasks};
  const auto bfs_of = ht::make_bfs(variant, g, opt, rt, MPI_COMM_WORLD);
  for (const auto key : ht::search_keys(g, 3, gen.seed, MPI_COMM_WORLD)) {
    const ht::BfsResult& bfs = bfs_of->search(key);
    const ht::Validation v = ht::validate_bfs(g, key, bfs.pred, MPI_COMM_WORLD);
    ASSERT_TRUE(v.ok()) << v.what;
    const auto want = oracle_levels(gen, key);
    for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
      ASSERT_EQ(v.level[i], want[g.range.global(i)]) << "vertex " << g.range.global(i);
    }
    EXPECT_GE(bfs.lock_seconds, 0.0);
    if (variant == "nonlocking") {
      // Every unique local visit was found by at least one task (or came from
      // a peer), and tasks may have found the same vertex more than once.
      long long local_finds = bfs.task_visits, unique = bfs.unique_visits;
      MPI_Allreduce(MPI_IN_PLACE, &local_finds, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &unique, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      std::int64_t reached = -1;  // the key is no visit of a task
      for (int l : want) reached += l >= 0;
      EXPECT_EQ(unique, reached);
      int size;
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      if (size == 1) {
        EXPECT_GE(local_finds, unique);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, BfsTasks,
                         ::testing::Combine(::testing::Values("locking", "nonlocking"),
                                            ::testing::Values(2, 3),
                                            ::testing::Values(1, 7, std::size_t(1) << 20)),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::get<0>(p.param) + "_tasks" +
                                  std::to_string(std::get<1>(p.param)) + "_buffer" +
                                  std::to_string(std::get<2>(p.param));
                         });

}  // namespace
