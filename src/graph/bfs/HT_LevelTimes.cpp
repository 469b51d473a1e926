#include "graph/bfs/HT_LevelTimes.hpp"

#include <algorithm>

#include "comm/HT_Wait.hpp"
#include "io/HT_Results.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

namespace {

// The four parts, then the level's total (not printed as a column).
constexpr int kParts = 4, kFields = 5;
const char* const kNames[kFields] = {"expand", "communicate", "wait", "sync", "total"};
constexpr double LevelSeconds::*kField[kFields] = {&LevelSeconds::expand,
                                                   &LevelSeconds::communicate, &LevelSeconds::wait,
                                                   &LevelSeconds::sync, &LevelSeconds::total};

double part(const LevelSeconds& s, int p) { return s.*kField[p]; }

// Every rank's sums as [levels][parts], padded to the deepest rank's levels.
std::vector<double> padded(const std::vector<LevelSeconds>& sums, int levels) {
  std::vector<double> x(static_cast<std::size_t>(levels) * kFields, 0.0);
  for (std::size_t l = 0; l < sums.size(); ++l)
    for (int p = 0; p < kFields; ++p) x[l * kFields + p] = part(sums[l], p);
  return x;
}

int deepest(std::size_t levels, MPI_Comm comm) {
  int most = mpi_int(levels, "a search's levels");
  all_reduce(&most, 1, MPI_MAX, comm);
  return most;
}

}  // namespace

void LevelTimes::add(const std::vector<LevelSeconds>& levels) {
  if (sums_.size() < levels.size()) sums_.resize(levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l)
    for (const auto f : kField) sums_[l].*f += levels[l].*f;
  ++searches_;
}

void LevelTimes::print(std::FILE* f, MPI_Comm comm, bool table, const char* prefix) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int levels = deepest(sums_.size(), comm);
  const std::vector<double> mine = padded(sums_, levels);
  std::vector<double> sum(mine.size()), most(mine.size());
  const int n = mpi_int(mine.size(), "level times");
  reduce_to(0, mine.data(), sum.data(), n, MPI_SUM, comm);
  reduce_to(0, mine.data(), most.data(), n, MPI_MAX, comm);
  double total[kParts] = {}, lo[kParts], hi[kParts], all[kParts];
  for (const LevelSeconds& s : sums_)
    for (int p = 0; p < kParts; ++p) total[p] += part(s, p);
  reduce_to(0, total, lo, kParts, MPI_MIN, comm);
  reduce_to(0, total, hi, kParts, MPI_MAX, comm);
  reduce_to(0, total, all, kParts, MPI_SUM, comm);
  if (rank != 0) return;
  const double per = searches_ > 0 ? 1.0 / searches_ : 0.0;  // every rank ran every search
  if (table) {
    std::fprintf(
        f,
        "BFS time per level, seconds per search (mean over %d rank%s; expand_max: slowest rank)\n",
        size, size > 1 ? "s" : "");
    std::fprintf(f, "%5s %12s %12s %12s %12s %12s\n", "level", "expand", "expand_max",
                 "communicate", "wait", "sync");
    for (int l = 0; l < levels; ++l) {
      const double* s = &sum[static_cast<std::size_t>(l) * kFields];
      std::fprintf(f, "%5d %12.6f %12.6f %12.6f %12.6f %12.6f\n", l, s[0] * per / size,
                   most[static_cast<std::size_t>(l) * kFields] * per, s[1] * per / size,
                   s[2] * per / size, s[3] * per / size);
    }
  }
  for (int p = 0; p < kParts; ++p) {
    const std::string key = std::string(prefix) + "level_" + kNames[p] + "_seconds (min mean max):";
    std::fprintf(f, "%-39s %.6f %.6f %.6f\n", key.c_str(), lo[p] * per, all[p] * per / size,
                 hi[p] * per);
  }
  std::fflush(f);
}

void LevelTimes::write(Results& out, const std::string& prefix, MPI_Comm comm) const {
  const int levels = deepest(sums_.size(), comm);
  const std::vector<double> x = padded(sums_, levels);
  for (int p = 0; p < kFields; ++p) {
    std::vector<double> row(static_cast<std::size_t>(levels));
    for (int l = 0; l < levels; ++l) row[l] = x[static_cast<std::size_t>(l) * kFields + p];
    out.per_rank_row(prefix + "_" + kNames[p] + "_seconds", row, "s");
  }
}

}  // namespace ht
