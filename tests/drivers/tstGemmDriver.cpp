// Tests of the cannon_gemm driver, run in-process as perf/gemm's benchmark
// does: the deck's defaults are Cannon's, a run from a deck gives a product
// that passes Freivalds' check and writes what it measured.  (That the check
// rejects wrong products: tests/gemm/tstFreivalds.cpp.)
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "assert_all.hpp"
#include "drivers/HT_GemmDriver.hpp"
#include "h5_read.hpp"
#include "io/HT_Results.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "test_environment.hpp"

namespace {

Teuchos::RCP<Teuchos::ParameterList> deck(int n, int tile) {
  auto d = Teuchos::rcp(new Teuchos::ParameterList(*ht::gemm_parameters()));
  d->sublist("GEMM").set("N", n);
  d->sublist("GEMM").set("tile", tile);
  d->sublist("GEMM").set("repetitions", 2);
  return d;
}

}  // namespace

TEST(GemmDriver, DeckDefaultsAreCannonsDefaults) {
  const auto valid = ht::gemm_parameters();
  const auto& g = valid->sublist("GEMM");
  const ht::CannonOptions lib;
  EXPECT_EQ(g.get<int>("tile"), lib.tile);
  EXPECT_EQ(g.get<int>("tasks"), lib.tasks);
  EXPECT_EQ(g.get<bool>("overlap"), lib.overlap);
}

TEST(GemmDriver, ARunFromADeckIsCorrectAndTimed) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ht::GemmConfig cfg = ht::gemm_config(*deck(101, 16), test_environment());
  EXPECT_EQ(cfg.q * cfg.q, size);
  EXPECT_EQ(cfg.block, (101 + cfg.q - 1) / cfg.q);
  ht::Profile profile(cfg.profile);
  const ht::GemmOutcome out = ht::run_gemm(cfg, profile, MPI_COMM_WORLD, nullptr);
  EXPECT_TRUE(out.check.passed()) << out.check.error << " > " << out.check.bound;
  HT_ASSERT_ALL_EQ(out.seconds.size(), 2u);
  HT_ASSERT_ALL_EQ(out.gflops.size(), 2u);
  for (double s : out.seconds) EXPECT_GT(s, 0.0);
  EXPECT_EQ(out.step_compute.size(), static_cast<std::size_t>(cfg.q));
  EXPECT_EQ(profile.iterations().size(), static_cast<std::size_t>(2 * cfg.q));
  // What was written is what was measured.
  // A name of its own: the np/thread instances of this test run at once.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string file = "tstGemmDriver_np" + std::to_string(size) + "_t" +
                           std::to_string(Kokkos::OpenMP().concurrency()) + ".h5";
  ht::Results r(MPI_COMM_WORLD);
  ht::write_gemm(cfg, out, r);
  r.write(file);
  if (rank == 0) {
    EXPECT_EQ(test::h5_dataset(file, "gemm/seconds"), out.seconds);
    EXPECT_EQ(test::h5_dataset(file, "gemm/gflops"), out.gflops);
    EXPECT_EQ(test::h5_dataset(file, "gemm/freivalds_error"), std::vector<double>{out.check.error});
    EXPECT_EQ(test::h5_dataset(file, "gemm/valid"), std::vector<double>{1});
    EXPECT_EQ(test::h5_type(file, "gemm/valid"), "uint8");
    EXPECT_EQ(test::h5_shape(file, "gemm/compute_seconds"), (std::vector<long long>{size, 2}));
    EXPECT_EQ(test::h5_attribute(file, "N"), 101);
    EXPECT_EQ(test::h5_attribute(file, "q"), cfg.q);
    std::remove(file.c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(GemmDriver, BlocksTooBigForOneMessageAreRefused) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) GTEST_SKIP() << "the limit is per block: one rank shows it";
  EXPECT_THROW(ht::gemm_config(*deck(50000, 256), test_environment()), ht::UsageError);
}
