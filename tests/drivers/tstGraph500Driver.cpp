// Tests of the graph500_bfs driver, run in-process as a benchmark would: the
// deck's defaults are the library's, every variant of the table runs from a
// deck with its trees validated, and cross-key errors name the key.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <numeric>

#include "drivers/HT_Graph500Driver.hpp"
#include "io/HT_Results.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "test_environment.hpp"

namespace {

int threads() { return Kokkos::OpenMP().concurrency(); }

Teuchos::RCP<Teuchos::ParameterList> deck(const std::string& variant, int tasks = 0) {
  auto d = Teuchos::rcp(new Teuchos::ParameterList(*ht::graph500_parameters()));
  auto& g = d->sublist("Graph500");
  g.set("SCALE", 9);
  g.set("edgefactor", 8);
  g.set("NBFS", 4);
  g.set("variant", variant);
  g.set("tasks", tasks);
  g.set("kernels", std::string("bfs"));  // kernel 3: tests/graph/tstDeltaStepping, graph500_sssp_*
  return d;
}

}  // namespace

TEST(Graph500Driver, DeckDefaultsAreTheLibrarysDefaults) {
  const auto valid = ht::graph500_parameters();
  const auto& g = valid->sublist("Graph500");
  const ht::BfsOptions lib;
  EXPECT_EQ(g.get<int>("chunks"), lib.chunks);
  EXPECT_EQ(g.get<int>("tasks"), lib.tasks);
  EXPECT_EQ(g.get<int>("buffer_items"), static_cast<int>(lib.buffer_items));
  EXPECT_EQ(g.get<std::string>("variant"), ht::bfs_variants().front().name);
}

TEST(Graph500Driver, TasksZeroFollowsTheVariantsRule) {
  const ht::Environment& env = test_environment();
  EXPECT_EQ(ht::graph500_config(*deck("nonlocking"), env).bfs.tasks, threads());
  EXPECT_EQ(ht::graph500_config(*deck("locking"), env).bfs.tasks, threads() + 1);
  EXPECT_EQ(ht::graph500_config(*deck("locking", 5), env).bfs.tasks, 5);
  EXPECT_THROW(ht::graph500_config(*deck("locking", 1), env), ht::UsageError);
  EXPECT_THROW(ht::bfs_variant("magic"), ht::UsageError);
  const auto c = ht::graph500_config(*deck("atomic"), env);
  EXPECT_EQ(c.variant->tasks_per_rank(c.bfs), ht::BfsOptions{}.chunks);
  EXPECT_EQ(c.pool_bytes, c.variant->pool_bytes(c.bfs));
}

TEST(Graph500Driver, MpiThreadLevelIsTheHighestOfTheKernelsThatRun) {
  const ht::Environment& env = test_environment();
  auto d = deck("mpi");
  EXPECT_EQ(ht::graph500_config(*d, env).mpi_thread_level, MPI_THREAD_FUNNELED);
  d->sublist("Graph500").set("kernels", std::string("bfs,sssp"));
  EXPECT_EQ(ht::graph500_config(*d, env).mpi_thread_level, MPI_THREAD_SERIALIZED);
  d->sublist("Graph500").set("kernels", std::string("sssp"));
  EXPECT_EQ(ht::graph500_config(*d, env).mpi_thread_level, MPI_THREAD_SERIALIZED);
  auto h = deck("hybrid");
  EXPECT_EQ(ht::graph500_config(*h, env).mpi_thread_level, MPI_THREAD_SERIALIZED);
}

TEST(Graph500Driver, PoolTooSmallNamesBothKeys) {
  auto d = deck("incremental");
  d->sublist("Graph500").set("chunks", 60000);
  d->sublist("Runtime").set("pool_MiB", 1);
  try {
    ht::graph500_config(*d, test_environment());
    FAIL() << "no error";
  } catch (const ht::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Graph500/chunks = 60000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Runtime/pool_MiB = 1"), std::string::npos) << e.what();
  }
}

TEST(Graph500Driver, EveryVariantRunsFromADeckAndWritesItsResults) {
  for (const ht::BfsVariant& v : ht::bfs_variants()) {
    SCOPED_TRACE(v.name);
    const ht::Graph500Config cfg = ht::graph500_config(*deck(v.name), test_environment());
    ht::Profile profile(cfg.profile);
    const ht::Graph500Outcome out = ht::run_graph500(cfg, profile, MPI_COMM_WORLD, nullptr);
    ASSERT_EQ(out.keys.size(), 4u);
    ASSERT_EQ(out.stats.bfs_seconds.size(), 4u);
    for (std::size_t k = 0; k < out.keys.size(); ++k) {
      EXPECT_GT(out.stats.nedge[k], 0);
      EXPECT_EQ(out.frontier[k].front(), 1);  // level 0: the key
      EXPECT_EQ(out.frontier[k].size(), static_cast<std::size_t>(out.levels[k]));
      if (v.reports == ht::BfsReports::redundancy) {
        EXPECT_GE(out.redundancy[k], 1.0);
      }
    }
    ht::Results r(MPI_COMM_WORLD);
    EXPECT_NO_THROW(ht::write_graph500(cfg, out, r));
  }
}
