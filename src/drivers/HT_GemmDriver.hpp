#pragma once
/// \file HT_GemmDriver.hpp
/// \brief The cannon_gemm driver: deck -> configuration -> C = A * B by
/// Cannon's algorithm with one Kokkos task per tile product, timed over
/// repetitions and checked by Freivalds' method -> report -> results.
///
/// Each step is a function of its own, so a test or a benchmark (perf/gemm)
/// drives the same code a user runs; apps/cannon_gemm.cpp is only main().
///
/// Example: tests/drivers/tstGemmDriver.cpp.
#include <mpi.h>

#include <Teuchos_ParameterList.hpp>
#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "app/HT_App.hpp"
#include "drivers/HT_CommRecord.hpp"
#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "runtime/HT_MemoryBudget.hpp"

namespace ht {

class Environment;
class Profile;
class Results;

/// Every parameter of cannon_gemm, with defaults, docs and validators.
Teuchos::RCP<const Teuchos::ParameterList> gemm_parameters();
/// The cannon_gemm application: its name, purpose and parameters.
AppSpec gemm_spec();

/// \brief gemm_memory of the run \p deck describes under \p env
/// (gemm_spec's AppSpec::memory).
MemoryEstimate gemm_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                                std::uint64_t budget);

/// A run's settings, read from a validated deck and checked across keys.
struct GemmConfig;

/// \brief A rank's peak memory for \p cfg (AppSpec::memory): kBaselineBytes,
/// the task pool, and the blocks (A, B, C, and with more than one rank the
/// shifts' two receive buffers: nb^2 doubles each); the Freivalds vectors
/// (7 N doubles) beside them.  \p fits: the largest N that fits in
/// \p budget bytes a rank on these ranks, or the ranks this N needs.
MemoryEstimate gemm_memory(const GemmConfig& cfg, std::uint64_t budget);

/// A run's settings, read from a validated deck and checked across keys.
struct GemmConfig {
  long long n = 0;       ///< matrix order
  int q = 1;             ///< the rank grid is q x q
  long long block = 0;   ///< rows of a rank's block (padded)
  CannonOptions cannon;  ///< tile, tasks, overlap (profile set by run_gemm)
  int repetitions = 1;
  std::uint64_t seed = 0;
  std::size_t pool_bytes = 0;  ///< the task pool (Runtime/pool_MiB, or derived)
  bool profile = true;
  bool tables = false;  ///< Output/tables: print the profile table
};

/// Reads \p deck (validated against gemm_parameters()) for a run under \p env;
/// UsageError naming the key, the value and what is accepted.
GemmConfig gemm_config(const Teuchos::ParameterList& deck, const Environment& env);

/// What a run measured.  seconds, gflops: max over ranks; the phases: this rank's.
struct GemmOutcome {
  std::vector<double> seconds, gflops;        ///< per repetition
  std::array<std::vector<double>, 5> phases;  ///< skew, compute, communication, wait, total
  std::vector<double> hidden;                 ///< per repetition: shift time hidden
  std::vector<double> step_compute;           ///< per step, last repetition
  double validate_seconds = 0;
  CommRecord comm;  ///< this rank's MPI counts per repetition and step (skew, then q)
  FreivaldsResult check;
  double median_seconds() const;
};

/// The multiplications and their check (collective).  Rank 0 writes a line
/// per repetition and the verdict to \p log (none if null).
GemmOutcome run_gemm(const GemmConfig& cfg, Profile& profile, MPI_Comm comm, std::FILE* log);

/// The summary: the median time and rate, and the validation (rank 0 calls it).
void report_gemm(const GemmConfig& cfg, const GemmOutcome& out, std::FILE* f);

/// The run's attributes and datasets (docs/results.md).
void write_gemm(const GemmConfig& cfg, const GemmOutcome& out, Results& r);

/// The whole driver: configuration, run, profile, results; ht::Error when the
/// product fails Freivalds' check (exit 1, no results file).
void gemm_driver(AppContext& ctx);

}  // namespace ht
