// Tests of the drivers' memory estimates (AppSpec::memory): they grow with
// the run's size, fall with its ranks, tell what would fit a budget, and put
// an absurd run far above any machine.  That they match a run's measured
// peak: the end-to-end test graph500_memory_estimate (tests/apps).
#include <gtest/gtest.h>

#include <string>

#include "drivers/HT_GemmDriver.hpp"
#include "drivers/HT_UtsDriver.hpp"
#include "drivers/graph500/HT_Graph500Memory.hpp"
#include "test_environment.hpp"

namespace {

constexpr std::uint64_t MiB = std::uint64_t(1) << 20, GiB = std::uint64_t(1) << 30;
constexpr std::uint64_t kPlenty = ~std::uint64_t(0);

ht::Graph500Config graph(int scale, const std::string& kernels = "bfs,sssp",
                         const std::string& partition = "1d") {
  Teuchos::ParameterList d(*ht::graph500_parameters());
  d.sublist("Graph500").set("SCALE", scale);
  d.sublist("Graph500").set("kernels", kernels);
  d.sublist("Graph500").set("partition", partition);
  return ht::graph500_config(d, test_environment());
}

std::uint64_t g500(int scale, int ranks, const std::string& kernels = "bfs,sssp",
                   const std::string& partition = "1d") {
  return ht::graph500_memory(graph(scale, kernels, partition), ranks, 1, kPlenty).bytes;
}

TEST(MemoryEstimates, Graph500GrowsWithScaleAndFallsWithRanks) {
  EXPECT_GT(g500(14, 1), ht::kBaselineBytes);
  EXPECT_LT(g500(14, 1), ht::kBaselineBytes + 128 * MiB);
  for (int s = 14; s < 30; ++s) EXPECT_LT(g500(s, 1), g500(s + 1, 1)) << "SCALE " << s;
  // The graph dominates from SCALE 20: twice the vertices, about twice the bytes.
  EXPECT_NEAR(double(g500(24, 1) - ht::kBaselineBytes) / double(g500(23, 1) - ht::kBaselineBytes),
              2.0, 0.1);
  EXPECT_LT(g500(24, 4), g500(24, 2));
  EXPECT_LT(g500(24, 1, "bfs"), g500(24, 1, "bfs,sssp"));  // no weights, no SSSP state
}

TEST(MemoryEstimates, Graph500TwoDKeepsOneCopyOfTheGraph) {
  // The block, entries once (with their weights for SSSP), and the CSR's
  // offsets: within 1.2 times 1D's graph on 4 and 16 ranks, with or
  // without SSSP.
  for (const int ranks : {4, 16})
    for (const char* kernels : {"bfs", "bfs,sssp"}) {
      const double one = ht::graph500_graph_bytes(graph(22, kernels, "1d"), ranks);
      const double two = ht::graph500_graph_bytes(graph(22, kernels, "2d"), ranks);
      EXPECT_LE(two, 1.2 * one) << ranks << " ranks, " << kernels;
      EXPECT_GT(two, one) << ranks << " ranks, " << kernels;
    }
  // On 5 ranks auto's grid is 2x2, rank 4 spare: a rank of it holds what
  // it holds on 4 ranks.
  EXPECT_EQ(ht::graph500_graph_bytes(graph(22, "bfs", "2d"), 5),
            ht::graph500_graph_bytes(graph(22, "bfs", "2d"), 4));
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) GTEST_SKIP() << "a 2 x 2 grid needs 4 ranks";
  // Kernel 1 holds the arriving rows beside the whole CSR while it builds the block.
  EXPECT_GT(g500(22, 4, "bfs", "2d"), g500(22, 4, "bfs", "1d"));
}

TEST(MemoryEstimates, Graph500SaysWhatFits) {
  const ht::MemoryEstimate e = ht::graph500_memory(graph(36, "bfs"), 1, 1, 32 * GiB);
  EXPECT_GT(e.bytes, 4 * 1024 * GiB);  // terabytes: refused by any node
  EXPECT_NE(e.parts.find("Graph500/SCALE = 36: the graph "), std::string::npos) << e.parts;
  // The largest SCALE under 32 GiB on 1 rank, and the ranks SCALE 36 needs
  // (in 1D each holds two bitmaps of all 2^36 vertices, 16 GiB).
  EXPECT_NE(e.fits.find("SCALE 2"), std::string::npos) << e.fits;
  EXPECT_NE(e.fits.find(" fits on 1 rank; SCALE 36 would need about "), std::string::npos)
      << e.fits;
  const int fits = std::stoi(e.fits.substr(e.fits.find("SCALE ") + 6));
  EXPECT_LE(g500(fits, 1, "bfs"), 32 * GiB);
  EXPECT_GT(g500(fits + 1, 1, "bfs"), 32 * GiB);
  EXPECT_TRUE(ht::graph500_memory(graph(16), 1, 1, 32 * GiB).fits.empty());  // it fits
}

TEST(MemoryEstimates, GemmCountsItsBlocks) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 2) GTEST_SKIP() << "cannon_gemm takes a square rank count";
  Teuchos::ParameterList d(*ht::gemm_parameters());
  d.sublist("GEMM").set("N", 40000);
  const ht::GemmConfig cfg = ht::gemm_config(d, test_environment());
  const ht::MemoryEstimate e = ht::gemm_memory(cfg, 4 * GiB);
  const double block = 8.0 * double(cfg.block) * double(cfg.block);
  EXPECT_GE(double(e.bytes), (size == 1 ? 3 : 5) * block);
  EXPECT_LT(double(e.bytes), (size == 1 ? 3 : 5) * block + 256.0 * MiB);
  EXPECT_NE(e.fits.find(" fits on " + std::to_string(size)), std::string::npos) << e.fits;
  EXPECT_NE(e.fits.find("N = 40000 would need "), std::string::npos) << e.fits;
}

TEST(MemoryEstimates, UtsCountsTheBinomialRootsChildren) {
  Teuchos::ParameterList d(*ht::uts_parameters());
  auto& t = d.sublist("Tree");
  t.set("name", std::string("custom"));
  t.set("type", std::string("binomial"));
  t.set("b0", 2e9);
  t.set("q", 0.1);
  t.set("m", 2);
  const ht::UtsConfig cfg = ht::uts_config(d, test_environment());
  const ht::MemoryEstimate e = ht::uts_memory(cfg, 1, 1, 4 * GiB);
  EXPECT_GT(e.bytes, 2e9 * 24);
  EXPECT_NE(e.fits.find("A binomial Tree/b0 up to "), std::string::npos) << e.fits;
  // A sample tree: the baseline and the stacks.
  const ht::UtsConfig t1 = ht::uts_config(*ht::uts_parameters(), test_environment());
  EXPECT_LT(ht::uts_memory(t1, 4, 2, kPlenty).bytes, ht::kBaselineBytes + 64 * MiB);
}

}  // namespace
