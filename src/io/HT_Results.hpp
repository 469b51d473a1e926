#pragma once
/// \file HT_Results.hpp
/// \brief One HDF5 file per run, written collectively with parallel HDF5
/// (MPI-IO) and atomically: it is created under a temporary name and renamed
/// only once complete, so a crashed run never leaves a file that looks whole.
///
/// Values are collected during the run and written by write():
///  - attributes on the root group (the same on every rank: deck, revision, ...);
///  - per-rank datasets, shape [ranks] or [ranks][n], row r written by rank r;
///  - global datasets, written from rank 0's values.
///
/// Example:
/// \code
///   ht::Results res(comm);
///   res.attribute("app", "cannon_gemm");
///   res.per_rank("timings/compute", {t_compute});        // [ranks]
///   res.global("gemm/gflops", {gflops});
///   res.write("results/run.h5");                          // collective
/// \endcode
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

namespace ht {

class Results {
 public:
  explicit Results(MPI_Comm comm);
  /// The ranks that write the file.
  MPI_Comm comm() const { return comm_; }

  void attribute(const std::string& name, const std::string& value);
  void attribute(const std::string& name, double value);
  void attribute(const std::string& name, long long value);

  /// This rank's row of dataset \p path; every rank must give the same length.
  void per_rank(const std::string& path, const std::vector<double>& mine);
  /// Dataset \p path with rank 0's \p values (other ranks' values are ignored).
  void global(const std::string& path, const std::vector<double>& values);
  /// A string dataset (rank 0's values), e.g. names of columns.
  void global_strings(const std::string& path, const std::vector<std::string>& values);

  /// Writes everything to \p file (collective); rank 0 renames the complete
  /// temporary file into place.  Throws ht::Error on failure.
  void write(const std::string& file) const;

 private:
  MPI_Comm comm_;
  std::map<std::string, std::string> text_attrs_;
  std::map<std::string, double> real_attrs_;
  std::map<std::string, long long> int_attrs_;
  std::map<std::string, std::vector<double>> per_rank_, global_;
  std::map<std::string, std::vector<std::string>> strings_;
};

/// Current local time as ISO 8601 ("2026-11-22T04:15:00+0000").
std::string iso_time_now();

}  // namespace ht
