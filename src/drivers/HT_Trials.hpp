#pragma once
/// \file HT_Trials.hpp
/// \brief The trial loop of every driver, as gapbs's BenchmarkKernel is for
/// its kernels: per trial an untimed set-up, the kernel timed, its
/// verification timed apart, and the trial's figures handed back; the
/// drivers say only what a trial is.
///
/// A trial's seconds are its slowest rank's (the ranks start together after
/// a barrier), taken on the one clock (runtime/HT_Clock.hpp); kernel and
/// verification are Kokkos profiling regions named by the kernel, so Kokkos
/// Tools see every trial.
///
/// Example:
/// \code
///   struct Search {
///     static constexpr ht::TrialRegions regions{"Graph500: BFS", "Graph500: validation"};
///     void setup(int) {}
///     void run(int t) { result = bfs->search(keys[t]); }
///     bool verifies(int) const { return true; }
///     void verify(int t) { check(result); }                 // throws ht::Error
///     void done(int t, const ht::TrialSeconds& s) { log(t, s.kernel); }
///   } k;
///   ht::run_trials(k, 64, comm);
/// \endcode
#include <mpi.h>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

/// \brief The Kokkos profiling regions of a kernel's trials: the kernel and
/// its verification.
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
/// timed and counted, then k.verify(t) timed and counted when k.verifies(t),
/// then k.done(t, times).
template <class Kernel>
void run_trials(Kernel& k, int trials, MPI_Comm comm) {
  for (int t = 0; t < trials; ++t) {
    k.setup(t);
    barrier(comm);
    double s[2] = {0, 0};
    TrialSeconds out;
    const CommCounts before = comm_counts();
    {
      Phase p(Kernel::regions.kernel, s[0]);
      k.run(t);
    }
    const CommCounts after = comm_counts();
    out.kernel_comm = after - before;
    if (k.verifies(t)) {
      Phase p(Kernel::regions.verify, s[1]);
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
