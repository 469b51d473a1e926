#pragma once
/// \file HT_Search.hpp
/// \brief Graph500 kernels 2 (a BFS variant) and 3 (delta-stepping SSSP) as
/// trials (drivers/HT_Trials.hpp; a kernel, there and here, is what a
/// benchmark times): one search per key, every tree validated (a failed
/// check throws ht::Error naming the search, the key and the check), the
/// figures of each recorded, a progress line for the first and last search
/// and one every few seconds between (HT_Log.hpp's Ticker).  Each kernel
/// keeps its own figures beside the common ones.
///
/// Example: src/drivers/graph500/HT_Graph500Driver.cpp.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "drivers/HT_CommRecord.hpp"
#include "drivers/graph500/HT_ConstructGraph.hpp"
#include "graph/HT_Graph500Block.hpp"
#include "graph/bfs/HT_LevelTimes.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

class Profile;
class TaskRuntime;

/// \brief What every search kernel records per key: the reference block's inputs.
struct SearchFigures {
  std::vector<double> seconds;           ///< the search, slowest rank
  std::vector<double> nedge;             ///< edges of the key's component (TEPS)
  std::vector<double> validate_seconds;  ///< its validation, slowest rank
  CommRecord comm;                       ///< this rank's MPI counts per key and step
  /// \brief \p header (kernel 1's) with these searches: one kernel's block.
  Graph500Block block(const Graph500Block& header) const {
    Graph500Block r = header;
    r.seconds = seconds;
    r.nedge = nedge;
    r.validate_seconds = validate_seconds;
    return r;
  }
};

/// \brief Kernel 2's figures: per key, unless said otherwise.
struct BfsFigures : SearchFigures {
  std::vector<double> levels;                  ///< the tree's depth
  std::vector<double> lock_seconds;            ///< locking: max over ranks
  std::vector<double> redundancy;              ///< task visits / distinct visits
  std::vector<std::vector<double>> frontier;   ///< per level, global
  std::vector<std::vector<double>> messages;   ///< per level, sum over ranks
  std::vector<std::vector<double>> bytes;      ///< per level, sum over ranks
  std::vector<std::vector<double>> bottom_up;  ///< per level: 1 if searched bottom-up
  double rank_bytes = 0;                       ///< bytes this rank sent, all keys
  LevelTimes level_times;                      ///< this rank's time per level, all keys
};

/// \brief Kernel 3's figures: per key, unless said otherwise.
struct SsspFigures : SearchFigures {
  std::vector<double> buckets, phases;  ///< delta-stepping's steps
  std::vector<double> relaxations;      ///< edges relaxed, sum over ranks
  std::vector<double> messages;         ///< sum over ranks
  double max_distance = 0;              ///< the largest distance found, all keys
  double delta = 0;                     ///< the bucket width searched with (auto's, if so)
};

/// \brief The most this rank held at once by kind, over one kernel's
/// searches and, apart, over their validations: the validator's exchange
/// may address every rank where the search does not.
struct SearchHeld {
  HeldHighs searching{};   ///< in the searches
  HeldHighs validating{};  ///< in their validations
};

/// \brief Kernel 2 (collective): one search per key with the deck's BFS
/// variant, its tasks recorded in \p profile.  With a 2D block in \p graph,
/// the variant's 2D kernel searches it and the validator reads it.  Rank 0
/// writes the progress lines to \p log (none if null).
SearchHeld search_bfs(const Graph500Config& cfg, const Graph500Graph& graph,
                      const std::vector<std::int64_t>& keys, TaskRuntime& rt, Profile& profile,
                      BfsFigures& figures, MPI_Comm comm, std::FILE* log);

/// \brief Kernel 3 (collective), in a loop of its own after kernel 2's (the
/// specification's rule: the kernels share only the graph and keys): one
/// delta-stepping search per key on the 1D CSR, its tasks recorded in
/// \p profile (if not null), one iteration per phase.
SearchHeld search_sssp(const Graph500Config& cfg, const Graph500Graph& graph,
                       const std::vector<std::int64_t>& keys, TaskRuntime& rt, Profile* profile,
                       SsspFigures& figures, MPI_Comm comm, std::FILE* log);

}  // namespace ht
