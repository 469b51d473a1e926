// Tests of the task variants (locking, nonlocking, incremental, atomic,
// hybrid):
// every tree passes the Graph500 checks and gives every vertex the serial
// oracle's level, for 2 and 3 tasks (8 and 12 chunks) and coalescing buffers
// of one entry, a few, and more than a level sends; the study's measures and
// the profile come out in range.
#include <gtest/gtest.h>

#include <tuple>

#include "bfs_check.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

using Case = std::tuple<std::string, int, std::size_t>;  // variant, tasks, buffer

class BfsTasks : public ::testing::TestWithParam<Case> {};

TEST_P(BfsTasks, TreesAreValidAndLevelsMatchTheOracle) {
  const auto& [variant, tasks, buffer] = GetParam();
  ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 5};
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  const ht::Csr g = ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD);
  ht::BfsOptions opt;
  opt.buffer_items = buffer;
  opt.tasks = tasks;
  opt.chunks = 4 * tasks;
  ht::Profile profile;
  opt.profile = &profile;
  const ht::BfsVariant& kind = ht::bfs_variant(variant);
  ht::TaskRuntime rt(kind.pool_bytes(opt), "Runtime/pool_MiB");
  const auto bfs_of = ht::make_bfs(variant, g, opt, rt, MPI_COMM_WORLD);
  std::vector<std::int64_t> local_frontier;  // per iteration, from the oracle
  std::vector<int> bottom_up;                // per iteration (hybrid)
  for (const auto key : ht::search_keys(g, 3, gen.seed, MPI_COMM_WORLD)) {
    const ht::BfsResult& bfs = bfs_of->search(key);
    std::vector<int> want;
    ASSERT_NO_FATAL_FAILURE(check_levels(gen, g, key, bfs.pred, &want));
    const std::size_t levels_before = local_frontier.size();
    local_frontier.resize(profile.iterations().size(), 0);  // this search's levels
    bottom_up.resize(levels_before);
    bottom_up.insert(bottom_up.end(), bfs.bottom_up.begin(), bfs.bottom_up.end());
    bottom_up.resize(local_frontier.size(), 0);
    for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
      const int l = want[g.range.global(i)];
      if (l >= 0) ++local_frontier.at(levels_before + l);
    }
    EXPECT_GE(bfs.lock_seconds, 0.0);
    if (kind.reports != ht::BfsReports::lock_time) {
      EXPECT_EQ(bfs.lock_seconds, 0.0);
      // Tasks visit each vertex they reach at least once (peers' finds are
      // no task's visit); only the atomic claim rules out a second visit.
      long long local_finds = bfs.task_visits, unique = bfs.unique_visits;
      MPI_Allreduce(MPI_IN_PLACE, &local_finds, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &unique, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      std::int64_t reached = -1;  // the key is no visit of a task
      for (int l : want) reached += l >= 0;
      EXPECT_GE(local_finds, unique);
      EXPECT_LE(unique, reached);
      EXPECT_GT(unique, 0);
      int size;
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      if (size == 1) {
        EXPECT_EQ(unique, reached);
      }
      if (kind.visits_once) {
        EXPECT_EQ(local_finds, unique);
      }
    }
  }
  // Every level of every search left one record per task (locking: its
  // processing tasks), and the chunked variants at least one wherever this
  // rank had frontier vertices and none elsewhere; the items add up to them.
  const auto its = profile.iterations();
  const auto records = profile.records();
  ASSERT_EQ(its.size(), local_frontier.size());
  std::vector<std::int64_t> count(its.size(), 0), items(its.size(), 0);
  for (const auto& r : records) {
    EXPECT_LE(r.start, r.end);
    ++count[r.iteration];
    items[r.iteration] += r.items;
  }
  const std::int64_t per_level = kind.work == ht::BfsWork::tasks_and_io ? tasks - 1 : tasks;
  for (std::size_t i = 0; i < its.size(); ++i) {
    if (bottom_up[i]) {
      // A bottom-up level's tasks scan the rank's vertices, 64 per word.
      EXPECT_GT(count[i], 0) << "iteration " << i;
      EXPECT_LE(count[i], opt.chunks);
      EXPECT_EQ(items[i], (g.range.local_count() + 63) / 64 * 64) << "iteration " << i;
      continue;
    }
    if (kind.work != ht::BfsWork::chunks) {
      EXPECT_EQ(count[i], per_level) << "iteration " << i;
    } else {
      EXPECT_EQ(count[i] > 0, local_frontier[i] > 0) << "iteration " << i;
      EXPECT_LE(count[i], opt.chunks);
    }
    EXPECT_EQ(items[i], local_frontier[i]) << "iteration " << i;
  }
}

// Every variant of the table that runs tasks.
std::vector<std::string> task_variants() {
  std::vector<std::string> names;
  for (const auto& v : ht::bfs_variants())
    if (v.work != ht::BfsWork::single) names.push_back(v.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Variants, BfsTasks,
                         ::testing::Combine(::testing::ValuesIn(task_variants()),
                                            ::testing::Values(2, 3),
                                            ::testing::Values(1, 7, std::size_t(1) << 20)),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::get<0>(p.param) + "_tasks" +
                                  std::to_string(std::get<1>(p.param)) + "_buffer" +
                                  std::to_string(std::get<2>(p.param));
                         });

}  // namespace
