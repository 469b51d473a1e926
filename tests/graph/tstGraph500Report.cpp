// Tests of the Graph500 statistics (the reference's definitions) and output keys.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "graph/HT_Graph500Report.hpp"

TEST(Graph500Report, StatisticsFollowTheReference) {
  const auto s = ht::statistics({4, 1, 3, 2, 5, 6, 8, 7});  // n = 8
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.firstquartile, 2.5);  // (x[1] + x[2]) / 2
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.thirdquartile, 6.5);
  EXPECT_DOUBLE_EQ(s.max, 8);
  EXPECT_DOUBLE_EQ(s.mean, 4.5);
  EXPECT_NEAR(s.stddev, 2.449489742783178, 1e-12);  // sample standard deviation
}

TEST(Graph500Report, HarmonicMeanOfTeps) {
  ht::Graph500Run run;
  run.bfs_seconds = {1, 2, 4};
  run.nedge = {100, 100, 100};  // TEPS 100, 50, 25
  double mean, stddev;
  ht::harmonic_teps(run, mean, stddev);
  EXPECT_NEAR(mean, 3.0 / (1.0 / 100 + 1.0 / 50 + 1.0 / 25), 1e-9);
  EXPECT_GT(stddev, 0);
}

TEST(Graph500Report, PrintsTheReferenceKeysInOrder) {
  ht::Graph500Run run;
  run.scale = 10;
  run.edgefactor = 16;
  run.bfs_seconds = {0.1, 0.2};
  run.nedge = {1000, 1000};
  run.validate_seconds = {0.01, 0.02};
  char buf[8192] = {};
  std::FILE* f = fmemopen(buf, sizeof buf, "w");
  ht::print_graph500(run, f);
  std::fclose(f);
  const std::string text = std::string("\n") + buf;
  std::size_t at = 0;  // each key starts a line, after the one before it
  for (const char* key : {"SCALE:",
                          "edgefactor:",
                          "NBFS:",
                          "graph_generation:",
                          "num_mpi_processes:",
                          "construction_time:",
                          "min_time:",
                          "firstquartile_time:",
                          "median_time:",
                          "thirdquartile_time:",
                          "max_time:",
                          "mean_time:",
                          "stddev_time:",
                          "min_nedge:",
                          "stddev_nedge:",
                          "min_TEPS:",
                          "max_TEPS:",
                          "harmonic_mean_TEPS:",
                          "harmonic_stddev_TEPS:",
                          "min_validate:",
                          "stddev_validate:"}) {
    const auto found = text.find(std::string("\n") + key, at);
    ASSERT_NE(found, std::string::npos) << key << " missing or out of order in\n" << text;
    at = found + 1;
  }
  EXPECT_NE(text.find("min_TEPS:                       5000\n"), std::string::npos) << text;
}

// With kernel 3, the 3.0 reference's block: "bfs  " and "sssp " lines,
// interleaved in its order, one nedge block, the harmonic means marked "!".
TEST(Graph500Report, PrintsThe30ReferenceBlockInOrder) {
  ht::Graph500Run bfs, sssp;
  bfs.scale = sssp.scale = 10;
  bfs.bfs_seconds = {0.1, 0.2};
  sssp.bfs_seconds = {0.4, 0.8};
  bfs.nedge = sssp.nedge = {1000, 1000};
  bfs.validate_seconds = sssp.validate_seconds = {0.01, 0.02};
  for (const bool with_bfs : {true, false}) {
    char buf[16384] = {};
    std::FILE* f = fmemopen(buf, sizeof buf, "w");
    ht::print_graph500_3(with_bfs ? &bfs : nullptr, sssp, f);
    std::fclose(f);
    const std::string text = std::string("\n") + buf;
    std::size_t at = 0;
    for (std::string key :
         {"SCALE:", "NBFS:", "construction_time:", "bfs  min_time:", "bfs  stddev_time:",
          "sssp min_time:", "sssp stddev_time:", "min_nedge:", "stddev_nedge:", "bfs  min_TEPS:",
          "bfs  harmonic_mean_TEPS:     !  ", "bfs  harmonic_stddev_TEPS:", "sssp min_TEPS:",
          "sssp harmonic_mean_TEPS:     !  ", "sssp harmonic_stddev_TEPS:", "bfs  min_validate:",
          "bfs  stddev_validate:", "sssp min_validate:", "sssp stddev_validate:"}) {
      const bool bfs_line = key.rfind("bfs  ", 0) == 0;
      const auto found = text.find("\n" + key, at);
      if (!with_bfs && bfs_line) {
        EXPECT_EQ(text.find("\n" + key), std::string::npos) << key << " without BFS in\n" << text;
        continue;
      }
      ASSERT_NE(found, std::string::npos) << key << " missing or out of order in\n" << text;
      at = found + 1;
    }
    EXPECT_NE(text.find("\nsssp min_TEPS:                  1250\n"), std::string::npos) << text;
  }
}
