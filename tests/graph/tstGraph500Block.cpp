// Tests of the Graph500 statistics (the reference's definitions) and output keys.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>

#include "graph/HT_Graph500Block.hpp"

TEST(Graph500Block, StatisticsFollowTheReference) {
  const auto s = ht::statistics({4, 1, 3, 2, 5, 6, 8, 7});  // n = 8
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.firstquartile, 2.5);  // (x[1] + x[2]) / 2
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.thirdquartile, 6.5);
  EXPECT_DOUBLE_EQ(s.max, 8);
  EXPECT_DOUBLE_EQ(s.mean, 4.5);
  EXPECT_NEAR(s.stddev, 2.449489742783178, 1e-12);  // sample standard deviation
}

TEST(Graph500Block, HarmonicMeanOfTeps) {
  ht::Graph500Block block;
  block.seconds = {1, 2, 4};
  block.nedge = {100, 100, 100};  // TEPS 100, 50, 25
  double mean, stddev;
  ht::harmonic_teps(block, mean, stddev);
  EXPECT_NEAR(mean, 3.0 / (1.0 / 100 + 1.0 / 50 + 1.0 / 25), 1e-9);
  EXPECT_GT(stddev, 0);
}

// The 3.0 reference's block, whichever kernels ran: "bfs  " and "sssp "
// lines interleaved in its order, one nedge block, the harmonic means marked
// "!", and no line of a kernel that did not run.
TEST(Graph500Block, PrintsThe30ReferenceBlockWhicheverKernelsRan) {
  ht::Graph500Block bfs, sssp;
  bfs.scale = sssp.scale = 10;
  bfs.seconds = {0.1, 0.2};
  sssp.seconds = {0.4, 0.8};
  bfs.nedge = sssp.nedge = {1000, 1000};
  bfs.validate_seconds = sssp.validate_seconds = {0.01, 0.02};
  for (const auto& [with_bfs, with_sssp] : {std::pair{true, true}, {false, true}, {true, false}}) {
    char buf[16384] = {};
    std::FILE* f = fmemopen(buf, sizeof buf, "w");
    ht::print_graph500_block(with_bfs ? &bfs : nullptr, with_sssp ? &sssp : nullptr, f);
    std::fclose(f);
    const std::string text = std::string("\n") + buf;
    std::size_t at = 0;
    for (std::string key : {"SCALE:",
                            "edgefactor:",
                            "NBFS:",
                            "graph_generation:",
                            "num_mpi_processes:",
                            "construction_time:",
                            "bfs  min_time:",
                            "bfs  stddev_time:",
                            "sssp min_time:",
                            "sssp stddev_time:",
                            "min_nedge:",
                            "stddev_nedge:",
                            "bfs  min_TEPS:",
                            "bfs  harmonic_mean_TEPS:     !  ",
                            "bfs  harmonic_stddev_TEPS:",
                            "sssp min_TEPS:",
                            "sssp harmonic_mean_TEPS:     !  ",
                            "sssp harmonic_stddev_TEPS:",
                            "bfs  min_validate:",
                            "bfs  stddev_validate:",
                            "sssp min_validate:",
                            "sssp stddev_validate:"}) {
      const bool absent =
          (!with_bfs && key.rfind("bfs  ", 0) == 0) || (!with_sssp && key.rfind("sssp ", 0) == 0);
      const auto found = text.find("\n" + key, at);
      if (absent) {
        EXPECT_EQ(text.find("\n" + key), std::string::npos) << key << " of a kernel not run\n"
                                                            << text;
        continue;
      }
      ASSERT_NE(found, std::string::npos) << key << " missing or out of order in\n" << text;
      at = found + 1;
    }
    if (with_sssp) {
      EXPECT_NE(text.find("\nsssp min_TEPS:                  1250\n"), std::string::npos) << text;
    }
    if (with_bfs) {
      EXPECT_NE(text.find("\nbfs  min_TEPS:                  5000\n"), std::string::npos) << text;
    }
    // No line without its kernel's prefix but the header's and nedge's.
    EXPECT_EQ(text.find("\nmin_time:"), std::string::npos) << text;
    EXPECT_EQ(text.find("\nharmonic_mean_TEPS:"), std::string::npos) << text;
  }
}
