#pragma once
/// \file HT_Trials.hpp
/// \brief The trial loop of every driver, as gapbs's BenchmarkKernel is for
/// its kernels: per trial an untimed set-up, the kernel timed, its
/// verification timed apart, and the trial's figures handed back; the
/// drivers say only what a trial is.
///
/// "Kernel" has one meaning here and in the drivers: what a benchmark times
/// (Graph500's kernels 1 to 3, a GEMM multiplication, a UTS search).  The
/// object run_trials drives is a *trial*: it says how to set up, run (the
/// kernel), verify and record one trial.
///
/// A trial's seconds are its slowest rank's (the ranks start together after
/// a barrier), taken on the one clock (runtime/HT_Clock.hpp); kernel and
/// verification are Kokkos profiling regions named by the trial, so Kokkos
/// Tools see every trial.
///
/// Examples: drivers/graph500/HT_Search.cpp (a search per key),
/// HT_GemmDriver.cpp (a multiplication per repetition), HT_UtsDriver.cpp.
#include <mpi.h>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

/// \brief The Kokkos profiling regions of a trial: its kernel and the
/// kernel's verification.
struct TrialRegions {
  const char* kernel;
  const char* verify;
};

/// \brief One trial's seconds, each the slowest rank's, and what this rank
/// asked of MPI in each part (comm/HT_CommCounts.hpp).
struct TrialSeconds {
  double kernel = 0;       ///< the kernel alone
  double verify = 0;       ///< its verification (0 when not verified)
  CommCounts kernel_comm;  ///< this rank's messages, collectives, ... in the kernel
  CommCounts verify_comm;  ///< and in the verification
};

/// \brief Runs \p trials trials of \p k (collective): k.setup(t), then k.run(t)
/// (the kernel) timed and counted, then k.verify(t) timed and counted when
/// k.verifies(t), then k.done(t, times).  \p Trial provides those and
/// `static constexpr TrialRegions regions`.
template <class Trial>
void run_trials(Trial& k, int trials, MPI_Comm comm) {
  for (int t = 0; t < trials; ++t) {
    // A set-up that fails on one rank (an allocation) fails on all, in its
    // words; the agreement is also the barrier the ranks start from.
    on_all_ranks(comm, [&] { k.setup(t); });
    double s[2] = {0, 0};
    TrialSeconds out;
    const CommCounts before = comm_counts();
    {
      Phase p(Trial::regions.kernel, s[0]);
      k.run(t);
    }
    const CommCounts after = comm_counts();
    out.kernel_comm = after - before;
    if (k.verifies(t)) {
      Phase p(Trial::regions.verify, s[1]);
      k.verify(t);
    }
    out.verify_comm = comm_counts() - after;
    double slowest[2];
    max_over_ranks(s, slowest, 2, comm);
    out.kernel = slowest[0];
    out.verify = slowest[1];
    k.done(t, out);
  }
}

}  // namespace ht
