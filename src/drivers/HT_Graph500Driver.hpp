#pragma once
/// \file HT_Graph500Driver.hpp
/// \brief The graph500_bfs driver, Graph500 specification 3.0 kernels 1, 2
/// and 3: deck -> configuration -> generation, construction (with weights
/// when SSSP runs), BFS searches then SSSP searches from the same keys, every
/// tree validated -> report (the reference's output block, and its `sssp `
/// lines) -> results.
///
/// Each step is a function of its own, so a test or a benchmark drives a run
/// in-process; apps/graph500_bfs.cpp is only main().
///
/// Example (inside an ht::Environment):
/// \code
///   auto deck = Teuchos::rcp(new Teuchos::ParameterList(*ht::graph500_parameters()));
///   deck->sublist("Graph500").set("SCALE", 10);
///   const ht::Graph500Config cfg = ht::graph500_config(*deck, env);
///   ht::Profile profile(cfg.profile);
///   const ht::Graph500Outcome out = ht::run_graph500(cfg, profile, env.comm(), nullptr);
///   // out.stats.bfs_seconds.size() == 64 searches, each validated
/// \endcode
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app/HT_App.hpp"
#include "comm/HT_Exchange.hpp"
#include "graph/HT_Graph500Report.hpp"
#include "graph/HT_Kronecker.hpp"
#include "graph/HT_Targets.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/HT_LevelTimes.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"

namespace ht {

class Environment;
class Profile;
class Results;

/// Every parameter of graph500_bfs, with defaults, docs and validators.
Teuchos::RCP<const Teuchos::ParameterList> graph500_parameters();
/// The graph500_bfs application: its name, purpose and parameters.
AppSpec graph500_spec();

/// A run's settings, read from a validated deck and checked across keys.
struct Graph500Config {
  Kronecker gen;
  int nbfs = 64;
  const BfsVariant* variant = nullptr;
  BfsOptions bfs;              ///< resolved for this rank's Kokkos threads
  std::size_t pool_bytes = 0;  ///< the task pool (Runtime/pool_MiB, or derived)
  bool profile = true;
  bool run_bfs = true;   ///< kernel 2 runs (Graph500/kernels)
  bool run_sssp = true;  ///< kernel 3 runs (Graph500/kernels): the graph gets weights
  SsspOptions sssp_opt;  ///< Graph500/delta; chunks and buffers as the BFS's
  std::string file;      ///< Graph500/file: kernel 1 reads it; empty: generated
  TargetBits target_bits = TargetBits::automatic;  ///< Graph500/target_bits
  /// How the exchanges' levels end (HT_EXCHANGE_END, else by rank count).
  Exchange::Termination level_end = Exchange::Termination::markers;
  /// The MPI thread level the run needs: the highest of the kernels that run.
  int mpi_thread_level = MPI_THREAD_SINGLE;
};

/// Reads \p deck (validated against graph500_parameters()) for a run under
/// \p env; UsageError naming the key, the value and what is accepted.
Graph500Config graph500_config(const Teuchos::ParameterList& deck, const Environment& env);

/// What a run measured: on every rank alike (reduced over ranks), except
/// rank_bytes and level_times, which are this rank's own.
struct Graph500Outcome {
  Graph500Run stats;                           ///< the reference block's inputs
  std::vector<std::int64_t> keys;              ///< the search keys
  std::vector<double> levels;                  ///< per key
  std::vector<double> lock_seconds;            ///< per key, max over ranks
  std::vector<double> redundancy;              ///< per key, task visits / distinct
  std::vector<std::vector<double>> frontier;   ///< per key and level, global
  std::vector<std::vector<double>> messages;   ///< per key and level, sum over ranks
  std::vector<std::vector<double>> bytes;      ///< per key and level, sum over ranks
  std::vector<std::vector<double>> bottom_up;  ///< per key and level: 1 if searched bottom-up
  double rank_bytes = 0;                       ///< bytes this rank sent, all keys
  LevelTimes level_times;                      ///< this rank's time per level, all keys
  int tasks_per_rank = 1;
  /// Kernel 3, per key (empty when it did not run): seconds, the TEPS edge
  /// count (as kernel 2's), validation seconds, buckets and phases taken,
  /// and relaxations and messages summed over the ranks.
  std::vector<double> sssp_seconds, sssp_nedge, sssp_validate_seconds, sssp_buckets, sssp_phases,
      sssp_relaxations, sssp_messages;
  double sssp_max_distance = 0;  ///< the largest distance found, over all keys
  long long vertices = 0;        ///< the graph's vertices
  long long edges = 0;           ///< its input edges (self-loops dropped, for a file)
  int target_bits = 32;          ///< bits per stored target (Csr::targets)
};

/// Kernels 1, 2 and 3 (those the deck asks for) with every tree validated (collective; the searches
/// are trials of HT_Trials.hpp); a tree that fails a check throws ht::Error naming the key and the
/// check.  Rank 0 writes a progress line per phase and per search to \p log (none if null).  SSSP's
/// tasks are recorded in \p sssp_profile (one iteration per phase), if given.
Graph500Outcome run_graph500(const Graph500Config& cfg, Profile& profile, MPI_Comm comm,
                             std::FILE* log, Profile* sssp_profile = nullptr);

/// The reference's output block and the study's columns (rank 0 prints).
void report_graph500(const Graph500Config& cfg, const Graph500Outcome& out, std::FILE* f);

/// The run's attributes and datasets (see README, Results).
void write_graph500(const Graph500Config& cfg, const Graph500Outcome& out, Results& r);

/// The whole driver: configuration, run, report, profile, results.
void graph500_driver(AppContext& ctx);

}  // namespace ht
