#pragma once
/// \file HT_Results.hpp
/// \brief One HDF5 file per run, written collectively with parallel HDF5
/// (MPI-IO) and atomically: it is created under a temporary name and renamed
/// only once complete, so a crashed run never leaves a file that looks whole.
///
/// Values are collected during the run and written by write():
///  - attributes on the root group (the same on every rank: deck, revision, ...);
///  - per-rank datasets, shape [ranks] or [ranks, n], row r written by rank r;
///  - global datasets, shape [] (a scalar), [n] or [rows, columns] (a table),
///    written from rank 0's values.
///
/// Every dataset is stored as what it holds: float64 for measured values,
/// int64 for counts, keys and levels, uint8 (0 or 1) for booleans; and each
/// carries a `units` attribute ("s", "TEPS", "bytes", "1" for counts and
/// fractions).  docs/results.md lists every dataset a driver writes.
///
/// Examples: src/drivers/graph500/HT_Graph500Outcome.cpp, tests/io/tstResults.cpp.
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

namespace ht {

class Results {
 public:
  /// \brief How a dataset's values are stored in the file.
  enum class Kind { real, integer, boolean };

  explicit Results(MPI_Comm comm);
  /// \brief The ranks that write the file.
  MPI_Comm comm() const { return comm_; }

  /// \brief A root attribute (the run's description and settings).
  void attribute(const std::string& name, const std::string& value);
  /// \brief A root attribute, float64.
  void attribute(const std::string& name, double value);
  /// \brief A root attribute, int64.
  void attribute(const std::string& name, long long value);

  /// \brief This rank's value of dataset \p path, shape [ranks].
  void per_rank(const std::string& path, double mine, const std::string& units);
  /// \brief This rank's count, shape [ranks], int64.
  void per_rank(const std::string& path, long long mine, const std::string& units);
  /// \brief This rank's row of \p path, shape [ranks, n]; every rank gives the same n.
  void per_rank_row(const std::string& path, const std::vector<double>& row,
                    const std::string& units);
  /// \brief This rank's row of counts, shape [ranks, n], int64.
  void per_rank_row(const std::string& path, const std::vector<long long>& row,
                    const std::string& units);

  /// \brief A scalar dataset (shape []) of rank 0's \p value.
  void global(const std::string& path, double value, const std::string& units);
  /// \brief A scalar count (shape []), int64.
  void global(const std::string& path, long long value, const std::string& units);
  /// \brief A scalar boolean (shape []), uint8, units "1".
  void global(const std::string& path, bool value);
  /// \brief Rank 0's \p values, shape [n] (other ranks' values are ignored).
  void global(const std::string& path, const std::vector<double>& values, const std::string& units);
  /// \brief Rank 0's counts, shape [n], int64.
  void global(const std::string& path, const std::vector<long long>& values,
              const std::string& units);
  /// \brief Rank 0's \p rows as one table, shape [rows, longest row]: a
  /// shorter row is padded with zeros.  Stored as \p kind.
  void table(const std::string& path, const std::vector<std::vector<double>>& rows, Kind kind,
             const std::string& units);

  /// \brief Checks, before the run computes, that write(\p file) will be
  /// able to put its file in place (collective): rank 0 creates the file's
  /// folder, one rank per node creates and removes a file beside \p file
  /// (every rank opens the file through MPI-IO, rank 0 renames it there),
  /// and a folder where the file should be is refused.  A failure is a
  /// UsageError on every rank naming \p key (e.g. "Output/file"; empty:
  /// "the results folder"), the path and the system's reason.
  void check_writable(const std::string& file, const std::string& key) const;

  /// \brief Writes everything to \p file (collective); rank 0 renames the
  /// complete temporary file into place.  Throws ht::Error naming the file
  /// and the HDF5 call that failed (HDF5's own error stack is not printed).
  void write(const std::string& file) const;

  /// \brief One dataset as collected: its shape without the ranks' dimension
  /// of a per-rank dataset ({} is a scalar, or one value a rank).
  struct Set {
    Kind kind = Kind::real;
    bool per_rank = false;
    std::vector<unsigned long long> shape;
    std::vector<double> real;
    std::vector<long long> whole;  ///< integer and boolean values
    std::string units;
  };

 private:
  MPI_Comm comm_;
  std::map<std::string, std::string> text_attrs_;
  std::map<std::string, double> real_attrs_;
  std::map<std::string, long long> int_attrs_;
  std::map<std::string, Set> sets_;
};

/// \brief \p x as counts (each value rounded to the nearest integer).
std::vector<long long> counts(const std::vector<double>& x);

/// \brief Current local time as ISO 8601 ("2026-11-22T04:15:00+0000").
std::string iso_time_now();

}  // namespace ht
