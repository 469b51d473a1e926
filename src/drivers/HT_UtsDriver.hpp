#pragma once
/// \file HT_UtsDriver.hpp
/// \brief The uts driver: Unbalanced Tree Search (UTS 2.1) on MPI ranks with
/// work stealing between them: deck -> tree and search settings ->
/// repetitions of the search (counts checked against the named tree's) ->
/// summary, per-rank table, imbalance profile -> results.
///
/// Example: tests/drivers/tstUtsDriver.cpp.
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "app/HT_App.hpp"
#include "drivers/HT_CommRecord.hpp"
#include "runtime/HT_MemoryBudget.hpp"
#include "uts/HT_UtsSearch.hpp"

namespace ht {

class Environment;
class Profile;
class Results;

/// Every parameter of uts, with defaults, docs and validators.
Teuchos::RCP<const Teuchos::ParameterList> uts_parameters();
/// The uts application: its name, purpose and parameters.
AppSpec uts_spec();

/// \brief uts_memory of the run \p deck describes under \p env
/// (uts_spec's AppSpec::memory).
MemoryEstimate uts_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                               std::uint64_t budget);

/// A run's settings, read from a validated deck and checked across keys.
struct UtsConfig {
  std::string name = "custom";  ///< a sample tree's name, or "custom"
  UtsTree tree;
  UtsSearchOptions search;
  int repetitions = 1;
  bool profile = true;
  bool tables = false;  ///< Output/tables: print the per-rank and profile tables
};

/// \brief A rank's peak memory for \p cfg on \p ranks ranks of \p threads
/// workers (AppSpec::memory): kBaselineBytes, the task pool, the start's
/// frontier (every rank expands the top of the tree alike: split_nodes a
/// rank, or all the binomial root's floor(b0) children, kUtsFrontierBytes
/// a node) and the workers' depth-first stacks (kUtsStackNodes nodes of 24
/// bytes each: at most 100 children a node, a few thousand levels).  \p fits:
/// the largest Tree/b0 of a binomial tree that fits in \p budget bytes.
MemoryEstimate uts_memory(const UtsConfig& cfg, int ranks, int threads, std::uint64_t budget);

/// \brief Bytes a node of the start's frontier takes: the node (24 bytes),
/// twice for the vector's growth, and the rank's share of it.
inline constexpr std::uint64_t kUtsFrontierBytes = 64;
/// \brief Nodes a worker's stack is allowed (the rank's shared pool as many).
inline constexpr std::uint64_t kUtsStackNodes = std::uint64_t(1) << 16;

/// Reads \p deck (validated against uts_parameters()); UsageError naming
/// the key, the value and what is accepted (an infinite binomial tree, a
/// named tree whose parameters the deck contradicts, ...).
UtsConfig uts_config(const Teuchos::ParameterList& deck, const Environment& env);

/// What a run measured.
struct UtsOutcome {
  UtsCounts counts;                 ///< over all ranks (the same every repetition)
  std::vector<double> seconds;      ///< per repetition, the slowest rank's
  std::vector<UtsRankResult> mine;  ///< this rank's, per repetition
  CommRecord comm;                  ///< this rank's MPI counts per repetition
};

/// The repetitions (collective).  Throws ht::Error when a named tree's
/// counts differ from the published ones, or a repetition's from the first.
/// Rank 0 writes a progress line per repetition to \p log (none if null),
/// and one every few seconds during a search.
UtsOutcome run_uts(const UtsConfig& cfg, Profile& profile, MPI_Comm comm, std::FILE* log);

/// The per-rank table to \p table (if not null), then the summary block to
/// \p f (collective; rank 0 prints).
void report_uts(const UtsConfig& cfg, const UtsOutcome& out, MPI_Comm comm, std::FILE* f,
                std::FILE* table = nullptr);

/// The run's attributes and datasets (docs/results.md).
void write_uts(const UtsConfig& cfg, const UtsOutcome& out, Results& r);

/// The whole driver: configuration, run, report, profile, results.
void uts_driver(AppContext& ctx);

}  // namespace ht
