// Tests of the graph500_bfs driver, run in-process as a benchmark would: the
// deck's defaults are the library's, every variant of the table runs from a
// deck with its trees validated and writes what it measured, and cross-key
// errors name the key.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <numeric>

#include "assert_all.hpp"
#include "drivers/graph500/HT_Graph500Driver.hpp"
#include "h5_read.hpp"
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
  EXPECT_EQ(g.get<std::string>("variant"),
            "hybrid");  // the fastest: what a run without a deck uses
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
    HT_ASSERT_ALL_EQ(out.keys.size(), 4u);
    HT_ASSERT_ALL_EQ(out.bfs.seconds.size(), 4u);
    EXPECT_TRUE(out.sssp.seconds.empty());  // kernels = bfs
    for (std::size_t k = 0; k < out.keys.size(); ++k) {
      EXPECT_GT(out.bfs.nedge[k], 0);
      EXPECT_EQ(out.bfs.frontier[k].front(), 1);  // level 0: the key
      EXPECT_EQ(out.bfs.frontier[k].size(), static_cast<std::size_t>(out.bfs.levels[k]));
      if (v.reports == ht::BfsReports::redundancy) {
        EXPECT_GE(out.bfs.redundancy[k], 1.0);
      }
    }
    // What was written is what was measured.
    // A name of its own: the np/thread instances of this test run at once.
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::string file = "tstGraph500Driver_" + std::string(v.name) + "_np" +
                             std::to_string(size) + "_t" + std::to_string(threads()) + ".h5";
    ht::Results r(MPI_COMM_WORLD);
    ht::write_graph500(cfg, out, r);
    r.write(file);
    // Rank 0 reads it back, in a function of its own; every rank stops on
    // its verdict.
    const auto read_back = [&] {
      EXPECT_EQ(test::h5_dataset(file, "bfs/seconds"), out.bfs.seconds);
      EXPECT_EQ(test::h5_dataset(file, "bfs/nedge"), out.bfs.nedge);
      EXPECT_EQ(test::h5_dataset(file, "bfs/levels"), out.bfs.levels);
      const std::vector<double> keys(out.keys.begin(), out.keys.end());
      EXPECT_EQ(test::h5_dataset(file, "bfs/keys"), keys);
      const std::vector<double> teps = test::h5_dataset(file, "bfs/teps");
      ASSERT_EQ(teps.size(), 4u);
      double inverse = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_DOUBLE_EQ(teps[k], out.bfs.nedge[k] / out.bfs.seconds[k]);
        inverse += 1 / teps[k];
      }
      const std::vector<double> hmean = test::h5_dataset(file, "bfs/harmonic_mean_TEPS");
      ASSERT_EQ(hmean.size(), 1u);
      EXPECT_NEAR(hmean[0], 4 / inverse, 1e-9 * 4 / inverse);
      EXPECT_EQ(test::h5_units(file, "bfs/harmonic_mean_TEPS"), "TEPS");
      EXPECT_EQ(test::h5_type(file, "bfs/keys"), "int64");
      EXPECT_EQ(test::h5_type(file, "bfs/bottom_up"), "uint8");
      const long long width = test::h5_shape(file, "bfs/frontier").at(1);
      EXPECT_EQ(test::h5_shape(file, "bfs/frontier"), (std::vector<long long>{4, width}));
      EXPECT_EQ(test::h5_shape(file, "bfs/bottom_up"), (std::vector<long long>{4, width}));
      EXPECT_EQ(test::h5_attribute(file, "SCALE"), 9);
      EXPECT_TRUE(test::h5_dataset(file, "sssp/seconds").empty());  // not run, not written
      std::remove(file.c_str());
    };
    HT_ASSERT_ALL_NO_FATAL_FAILURE(if (rank == 0) read_back());
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
