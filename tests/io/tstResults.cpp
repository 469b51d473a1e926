// Tests of ht::Results: attributes, per-rank rows and global datasets land in
// the file as given; the file appears only complete (no temporary left).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <filesystem>

#include "io/HT_Results.hpp"

namespace {

double read_at(hid_t f, const char* path, hsize_t row, hsize_t col, int rank_dims) {
  hid_t set = H5Dopen2(f, path, H5P_DEFAULT);
  hid_t space = H5Dget_space(set);
  hsize_t start[2] = {row, col}, count[2] = {1, 1};
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  hsize_t one = 1;
  hid_t mem = H5Screate_simple(1, &one, nullptr);
  double v = -1;
  H5Dread(set, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(set);
  (void)rank_dims;
  return v;
}

TEST(Results, EveryRankRowAndEveryAttributeIsWritten) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string dir = "tstResults_out", file = dir + "/run.h5";
  if (rank == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  ht::Results r(MPI_COMM_WORLD);
  r.attribute("app", std::string("tst"));
  r.attribute("ranks", static_cast<long long>(size));
  r.attribute("pi", 3.25);
  r.per_rank("timings/one", {10.0 + rank});
  r.per_rank("timings/three", {1.0 * rank, 2.0 * rank, 3.0 * rank});
  r.global("summary/values", {rank == 0 ? 7.0 : -1.0, 8.0});
  r.global_strings("summary/names", {"alpha", "beta"});
  r.write(file);

  if (rank == 0) {
    // Only the complete file: no temporary beside it.
    int entries = 0;
    for (auto& e : std::filesystem::directory_iterator(dir)) {
      ++entries;
      EXPECT_EQ(e.path().filename(), "run.h5");
    }
    EXPECT_EQ(entries, 1);

    hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    long long ranks = 0;
    hid_t a = H5Aopen(f, "ranks", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_LLONG, &ranks);
    H5Aclose(a);
    EXPECT_EQ(ranks, size);
    double pi = 0;
    a = H5Aopen(f, "pi", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, &pi);
    H5Aclose(a);
    EXPECT_EQ(pi, 3.25);
    for (int r2 = 0; r2 < size; ++r2) {
      EXPECT_EQ(read_at(f, "timings/one", r2, 0, 1), 10.0 + r2);
      EXPECT_EQ(read_at(f, "timings/three", r2, 2, 2), 3.0 * r2);
    }
    EXPECT_EQ(read_at(f, "summary/values", 0, 0, 1), 7.0);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Results, RaggedPerRankRowsAreAnError) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "needs two ranks";
  ht::Results r(MPI_COMM_WORLD);
  r.per_rank("bad", std::vector<double>(rank + 1, 1.0));
  EXPECT_THROW(r.write("tstResults_ragged.h5"), std::exception);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    EXPECT_FALSE(std::filesystem::exists("tstResults_ragged.h5"));
  }
}

}  // namespace
