#pragma once
/// \file HT_LevelTimes.hpp
/// \brief Where a rank's BFS time goes, level by level: expand, communicate,
/// wait, sync (BfsResult::seconds), summed over a run's searches, printed as
/// a table and written to the results file.  On a cluster it shows which
/// levels are communication-bound and which rank the others wait for.
///
/// Examples: src/drivers/graph500/HT_Search.cpp (add),
/// src/drivers/graph500/HT_Graph500Driver.cpp (print),
/// src/drivers/graph500/HT_Graph500Outcome.cpp (write).
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "graph/bfs/HT_Bfs.hpp"

namespace ht {

class Results;

class LevelTimes {
 public:
  /// Adds one search's levels.
  void add(const std::vector<LevelSeconds>& levels);
  /// The totals' min / mean / max over ranks, a line per part led by
  /// \p prefix; with \p table, first per level: seconds per search of each
  /// part, mean over ranks, and the largest rank's expand.  Collective;
  /// rank 0 prints to \p f.
  void print(std::FILE* f, MPI_Comm comm, bool table = true, const char* prefix = "") const;
  /// Per-rank datasets <prefix>_{expand,communicate,wait,sync,total}_seconds,
  /// shape [ranks, levels]: seconds summed over the searches.  Collective.
  void write(Results& out, const std::string& prefix, MPI_Comm comm) const;

 private:
  std::vector<LevelSeconds> sums_;
  int searches_ = 0;
};

}  // namespace ht
