// results_write: ht::Results::write() against the same datasets written by
// plain serial HDF5 calls (one file, a dataset and its units attribute each,
// no collective I/O, no temporary name), alternated, on one rank.  The
// datasets are shaped as a graph500_bfs run's: per-rank scalars, 64-key rows
// and per-level tables.  Prints "results_write_seconds", "plain_hdf5_seconds"
// (medians) and their ratio.
//   mpirun -np 1 results_write <scratch dir> [--rounds=9]
#include <hdf5.h>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_util.hpp"
#include "io/HT_Results.hpp"

namespace {

constexpr int kScalars = 120, kRows = 40, kKeys = 64, kLevels = 24;

ht::Results filled(MPI_Comm comm) {
  ht::Results r(comm);
  r.attribute("deck", std::string(2048, 'd'));
  for (int i = 0; i < 20; ++i) r.attribute("setting_" + std::to_string(i), double(i));
  for (int i = 0; i < kScalars; ++i) r.per_rank("scalars/s" + std::to_string(i), 1.5 * i, "s");
  for (int i = 0; i < kRows; ++i)
    r.per_rank_row("rows/r" + std::to_string(i), std::vector<double>(kKeys, 0.25 * i), "s");
  std::vector<std::vector<double>> levels(kKeys, std::vector<double>(kLevels, 3.0));
  for (int i = 0; i < 8; ++i)
    r.table("levels/t" + std::to_string(i), levels, ht::Results::Kind::real, "s");
  return r;
}

void plain_set(hid_t file, const std::string& name, const std::vector<hsize_t>& dims,
               const double* data) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t set =
      H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  const hid_t type = H5Tcopy(H5T_C_S1), scalar = H5Screate(H5S_SCALAR);
  H5Tset_size(type, 1);
  const hid_t attr = H5Acreate2(set, "units", type, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, type, "s");
  H5Aclose(attr), H5Sclose(scalar), H5Tclose(type), H5Dclose(set), H5Sclose(space);
}

// The same datasets by plain HDF5 calls (groups flattened into names).
void plain(const std::string& path) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const std::vector<double> one(kKeys * kLevels, 1.0);
  for (int i = 0; i < kScalars; ++i) plain_set(f, "s" + std::to_string(i), {1}, one.data());
  for (int i = 0; i < kRows; ++i) plain_set(f, "r" + std::to_string(i), {1, kKeys}, one.data());
  for (int i = 0; i < 8; ++i) plain_set(f, "t" + std::to_string(i), {kKeys, kLevels}, one.data());
  H5Fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: results_write <scratch dir> [--rounds=N]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string dir = argv[1];
  const long rounds = ht::bench::flag(argc, argv, "rounds", 9);
  const ht::Results r = filled(MPI_COMM_WORLD);
  std::vector<double> ours, theirs;
  for (long i = 0; i < rounds; ++i) {
    for (int turn = 0; turn < 2; ++turn) {  // the order swapped every round
      const bool mine = (turn == 0) == (i % 2 == 0);
      const double t0 = ht::bench::now();
      if (mine)
        r.write(dir + "/ours.h5");
      else
        plain(dir + "/plain.h5");
      (mine ? ours : theirs).push_back(ht::bench::now() - t0);
    }
  }
  const double a = ht::bench::median(ours), b = ht::bench::median(theirs);
  std::printf("results_write_seconds: %.6f\nplain_hdf5_seconds: %.6f\nratio: %.3f\n", a, b, a / b);
  MPI_Finalize();
  return 0;
}
