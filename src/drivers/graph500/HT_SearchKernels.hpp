#pragma once
/// \file HT_SearchKernels.hpp
/// \brief The two search kernels of graph500_bfs, as Search<K> runs them
/// (HT_Search.hpp): kernel 2, a BFS variant; kernel 3, delta-stepping SSSP.
/// Each keeps its own figures beside the common ones.
///
/// Example: src/drivers/graph500/HT_Graph500Driver.cpp.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/graph500/HT_Graph500Config.hpp"
#include "drivers/graph500/HT_Search.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "graph/bfs/HT_LevelTimes.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"

namespace ht {

class Profile;
class TaskRuntime;

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

/// \brief Kernel 2: the deck's BFS variant.
class BfsKernel {
 public:
  using Figures = BfsFigures;
  static constexpr const char* name = "BFS";
  static constexpr TrialRegions regions{"Graph500: BFS", "Graph500: validation"};

  /// With \p blocks (and the \p grid they were built on), the variant's 2D
  /// kernel searches them and the validator reads them; else \p g serves both.
  BfsKernel(const Graph500Config& cfg, const Csr& g, TaskRuntime& rt, Profile& profile,
            MPI_Comm comm, const Csr2D* blocks = nullptr, const Grid2D* grid = nullptr);
  void search(std::int64_t key) { result_ = &bfs_->search(key); }
  Validation validate(std::int64_t key) const;
  const std::vector<std::int64_t>& pred() const { return result_->pred; }
  /// Levels, messages, bytes and visits summed over ranks (collective).
  std::string record(BfsFigures& f, const Validation& v) const;

 private:
  const Graph500Config& cfg_;
  const Csr& g_;
  const Csr2D* blocks_;
  const Grid2D* grid_;
  MPI_Comm comm_;
  std::unique_ptr<Bfs> bfs_;
  const BfsResult* result_ = nullptr;
};

/// \brief Kernel 3's figures: per key, unless said otherwise.
struct SsspFigures : SearchFigures {
  std::vector<double> buckets, phases;  ///< delta-stepping's steps
  std::vector<double> relaxations;      ///< edges relaxed, sum over ranks
  std::vector<double> messages;         ///< sum over ranks
  double max_distance = 0;              ///< the largest distance found, all keys
  double delta = 0;                     ///< the bucket width searched with (auto's, if so)
};

/// \brief Kernel 3: delta-stepping, in a loop of its own after kernel 2's
/// (the specification's rule: the kernels share only the graph and keys).
class SsspKernel {
 public:
  using Figures = SsspFigures;
  static constexpr const char* name = "SSSP";
  static constexpr TrialRegions regions{"Graph500: SSSP", "Graph500: SSSP validation"};

  /// SSSP's tasks are recorded in \p profile, one iteration per phase.
  SsspKernel(const Graph500Config& cfg, const Csr& g, TaskRuntime& rt, Profile* profile,
             MPI_Comm comm);
  void search(std::int64_t key) { result_ = &sssp_.search(key); }
  Validation validate(std::int64_t key) const;
  const std::vector<std::int64_t>& pred() const { return result_->pred; }
  /// The bucket width: Graph500/delta's, or the one auto chose.
  double delta() const { return sssp_.delta(); }
  /// Steps, relaxations, messages and the farthest distance (collective).
  std::string record(SsspFigures& f, const Validation& v) const;

 private:
  const Csr& g_;
  MPI_Comm comm_;
  DeltaStepping sssp_;
  const SsspResult* result_ = nullptr;
};

}  // namespace ht
