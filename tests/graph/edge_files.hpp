#pragma once
// Graph files written by rank 0 for the readers' tests, in a scratch folder
// of the job's own (one name on every rank, none shared with another job).
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "graph/HT_Kronecker.hpp"

/// A folder for this job's files, the same path on every rank (collective).
inline std::string scratch_dir() {
  long long pid = getpid();
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  const auto dir =
      std::filesystem::temp_directory_path() / ("ht_edge_files_" + std::to_string(pid));
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Removes the scratch folder once every test of the program has run.
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string dir = scratch_dir();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);  // no rank still reads a file
    if (rank == 0) std::filesystem::remove_all(dir);
  }
};
inline ::testing::Environment* const scratch_cleanup =
    ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

/// Rank 0 writes \p text to \p path; every rank returns once it is there.
inline void write_file(const std::string& path, const std::string& text) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/// \p edges as gapbs's .wel (weights exact in float: 9 digits) or .el, as
/// a Matrix Market file (1-based; "pattern" without weights), a DIMACS .gr
/// (1-based arcs) or a SNAP .txt (as .el).
inline std::string edge_text(const std::vector<ht::WeightedEdge>& edges, const char* format,
                             std::int64_t n) {
  const std::string fmt = format;
  std::string text;
  char line[96];
  if (fmt == "mtx") {
    text = "%%MatrixMarket matrix coordinate real general\n% written by a test\n";
    text += std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(edges.size()) + "\n";
  } else if (fmt == "gr") {
    text = "c written by a test\np sp " + std::to_string(n) + " " + std::to_string(edges.size()) +
           "\nc arcs follow\n";
  } else {
    text = "# written by a test\n\n";  // a comment and a blank line
  }
  for (const auto& e : edges) {
    if (fmt == "mtx")
      std::snprintf(line, sizeof line, "%lld %lld %.9g\n", static_cast<long long>(e.u + 1),
                    static_cast<long long>(e.v + 1), static_cast<double>(e.w));
    else if (fmt == "gr")
      std::snprintf(line, sizeof line, "a %lld %lld %.9g\n", static_cast<long long>(e.u + 1),
                    static_cast<long long>(e.v + 1), static_cast<double>(e.w));
    else if (fmt == "wel")
      std::snprintf(line, sizeof line, "%lld %lld %.9g\n", static_cast<long long>(e.u),
                    static_cast<long long>(e.v), static_cast<double>(e.w));
    else
      std::snprintf(line, sizeof line, "%lld\t%lld\n", static_cast<long long>(e.u),
                    static_cast<long long>(e.v));
    text += line;
  }
  return text;
}
