// Tests of ht::Results: attributes, per-rank rows and global datasets land in
// the file as given; the file appears only complete (no temporary left).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "assert_all.hpp"
#include "h5_read.hpp"
#include "io/HT_Results.hpp"
#include "runtime/HT_Error.hpp"

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
  r.per_rank("timings/one", 10.0 + rank, "s");
  r.per_rank_row("timings/three", std::vector<double>{1.0 * rank, 2.0 * rank, 3.0 * rank}, "s");
  r.per_rank("counts/one", static_cast<long long>(rank) << 40, "bytes");
  r.per_rank_row("counts/two", std::vector<long long>{rank, -rank}, "1");
  r.global("summary/values", std::vector<double>{rank == 0 ? 7.0 : -1.0, 8.0}, "TEPS");
  r.global("summary/keys", std::vector<long long>{rank == 0 ? 5 : -1, 6, 7}, "1");
  r.global("summary/scalar", rank == 0 ? 2.5 : -1.0, "s");
  r.global("summary/count", rank == 0 ? 9LL : -1LL, "1");
  r.global("summary/flag", rank == 0);
  r.table("summary/table", {{1, 2, 3}, {4}}, ht::Results::Kind::integer, "1");
  r.table("summary/flags", {{1, 0}, {0, 1}}, ht::Results::Kind::boolean, "1");
  r.table("summary/reals", {{0.5}, {1.5, 2.5}}, ht::Results::Kind::real, "s");
  r.write(file);

  // Rank 0 reads it back, in a function of its own; every rank stops on its
  // verdict.
  const auto read_back = [&] {
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

    // Types, shapes and units as given: counts int64, booleans uint8, a
    // scalar has no dimension, a per-rank value one, a row or table two.
    using test::h5_dataset, test::h5_shape, test::h5_type, test::h5_units;
    const long long P = size;
    EXPECT_EQ(h5_type(file, "timings/one"), "float64");
    EXPECT_EQ(h5_shape(file, "timings/one"), (std::vector<long long>{P}));
    EXPECT_EQ(h5_shape(file, "timings/three"), (std::vector<long long>{P, 3}));
    EXPECT_EQ(h5_type(file, "counts/one"), "int64");
    EXPECT_EQ(h5_units(file, "counts/one"), "bytes");
    EXPECT_EQ(h5_dataset(file, "counts/one").back(), static_cast<double>((P - 1) << 40));
    EXPECT_EQ(h5_shape(file, "counts/two"), (std::vector<long long>{P, 2}));
    EXPECT_EQ(h5_dataset(file, "counts/two").back(), -(P - 1));
    EXPECT_EQ(h5_type(file, "summary/keys"), "int64");
    EXPECT_EQ(h5_dataset(file, "summary/keys"), (std::vector<double>{5, 6, 7}));
    EXPECT_EQ(h5_units(file, "summary/values"), "TEPS");
    EXPECT_EQ(h5_shape(file, "summary/scalar"), std::vector<long long>{});
    EXPECT_EQ(h5_dataset(file, "summary/scalar"), std::vector<double>{2.5});
    EXPECT_EQ(h5_units(file, "summary/scalar"), "s");
    EXPECT_EQ(h5_type(file, "summary/count"), "int64");
    EXPECT_EQ(h5_dataset(file, "summary/count"), std::vector<double>{9});
    EXPECT_EQ(h5_type(file, "summary/flag"), "uint8");
    EXPECT_EQ(h5_dataset(file, "summary/flag"), std::vector<double>{1});
    EXPECT_EQ(h5_units(file, "summary/flag"), "1");
    EXPECT_EQ(h5_shape(file, "summary/table"), (std::vector<long long>{2, 3}));
    EXPECT_EQ(h5_type(file, "summary/table"), "int64");
    EXPECT_EQ(h5_dataset(file, "summary/table"), (std::vector<double>{1, 2, 3, 4, 0, 0}));
    EXPECT_EQ(h5_type(file, "summary/flags"), "uint8");
    EXPECT_EQ(h5_dataset(file, "summary/flags"), (std::vector<double>{1, 0, 0, 1}));
    EXPECT_EQ(h5_type(file, "summary/reals"), "float64");
    EXPECT_EQ(h5_dataset(file, "summary/reals"), (std::vector<double>{0.5, 0, 1.5, 2.5}));
  };
  HT_ASSERT_ALL_NO_FATAL_FAILURE(if (rank == 0) read_back());
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Results, RaggedPerRankRowsAreAnError) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // lint: rank-uniform: the world's size
  if (size == 1) GTEST_SKIP() << "needs two ranks";
  ht::Results r(MPI_COMM_WORLD);
  r.per_rank_row("bad", std::vector<double>(rank + 1, 1.0), "1");
  EXPECT_THROW(r.write("tstResults_ragged.h5"), std::exception);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    EXPECT_FALSE(std::filesystem::exists("tstResults_ragged.h5"));
  }
}

// What check_writable throws on this rank ("" if nothing), after every rank has checked.
std::string refusal(const ht::Results& r, const std::string& file, const std::string& key) {
  std::string got;
  try {
    r.check_writable(file, key);
  } catch (const ht::UsageError& e) {
    got = e.what();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return got;
}

// A place the results cannot go is refused at start-up on every rank (a
// UsageError naming the key or the results folder, the path, the system's
// reason); a good one is created and left clean.
TEST(Results, AnUnwritablePlaceIsRefusedAtStartUp) {
  namespace fs = std::filesystem;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string dir = "tstResults_place";
  if (rank == 0) {
    fs::remove_all(dir);
    fs::create_directories(dir + "/taken.h5");
    std::ofstream(dir + "/results") << "a file where the results folder goes\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  ht::Results r(MPI_COMM_WORLD);
  EXPECT_EQ(refusal(r, dir + "/results/app-1.h5", ""),
            "the results folder " + dir +
                "/results: cannot create it: Not a directory (Output/file writes the results "
                "elsewhere)");
  EXPECT_EQ(refusal(r, dir + "/results/sub/x.h5", "Output/file"),
            "Output/file = " + dir + "/results/sub/x.h5: cannot create its folder " + dir +
                "/results/sub: Not a directory");
  EXPECT_EQ(refusal(r, dir + "/taken.h5", "Output/file"),
            "Output/file = " + dir + "/taken.h5: a folder of that name is there; name a file");
  const std::string sys = refusal(r, "/sys/x.h5", "Output/file");
  EXPECT_TRUE(std::regex_match(sys, std::regex("Output/file = /sys/x.h5: cannot create a file in "
                                               "its folder /sys: [A-Z][a-z -]+")))
      << sys;
  EXPECT_EQ(refusal(r, dir + "/new/deeper/x.h5", "Output/file"), "");
  if (rank == 0) {
    EXPECT_TRUE(fs::is_directory(dir + "/new/deeper"));
    EXPECT_TRUE(fs::is_empty(dir + "/new/deeper"));  // the probe is gone
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// A failed HDF5 call is said in our words, naming the file and the call;
// HDF5's own error stack is not printed.
TEST(Results, AFailedHdf5CallIsSaidInOurWords) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ht::Results r(MPI_COMM_WORLD);
  r.attribute("app", std::string("test"));
  std::string got;
  testing::internal::CaptureStderr();
  try {
    r.write("tstResults_no_such_folder/x.h5");
  } catch (const ht::Error& e) {
    got = e.what();
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(std::regex_match(
      got, std::regex("results: cannot write tstResults_no_such_folder/x.h5: HDF5: creating "
                      "tstResults_no_such_folder/.x.h5.incomplete-[0-9]+ failed")))
      << got;
  EXPECT_EQ(printed.find("HDF5-DIAG"), std::string::npos) << printed;
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
