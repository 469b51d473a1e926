#pragma once
/// \file HT_UtsSearch.hpp
/// \brief One UTS search on every rank: worker tasks expand nodes depth-first
/// and the stealing layer (comm/HT_WorkStealing.hpp) moves work between ranks.
///
/// Inside a rank: one worker task per Kokkos thread.  A worker keeps its
/// nodes on a private stack and expands up to \c quantum of them per run,
/// then respawns, so the task scheduler sees it yield and the profiler a
/// task per run.  Every \c poll_interval nodes it polls the stealing layer
/// and, only when work is wanted (a local worker idle or a thief waiting),
/// moves the bottom half of its stack (the nodes nearest the root, the
/// largest subtrees) to the rank's shared pool: work is split off lazily, as
/// in Tascell, so a busy rank pays one check per interval and nothing else.
///
/// Start: every rank expands the tree breadth-first, alike, until the
/// frontier holds \c split_nodes per rank, and takes every p-th frontier
/// node (rank 0 counts the expanded prefix).  With split_nodes = 0 all work
/// starts at rank 0's root and the other ranks must steal.  With stealing
/// off, the start is the static partition that stealing then corrects.
///
/// Example: tests/uts/tstUtsSearch.cpp.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "comm/HT_WorkStealing.hpp"
#include "uts/HT_UtsTree.hpp"

namespace ht {

class Profile;

struct UtsSearchOptions {
  int quantum = 4096;          ///< nodes a worker expands per task run
  int poll_interval = 256;     ///< nodes between two polls of the stealing layer
  int split_nodes = 16;        ///< initial frontier nodes per rank; 0: all on rank 0
  std::size_t acquire = 20;    ///< most nodes a worker takes from its rank's pool at once
  std::size_t pool_bytes = 0;  ///< the task pool (Runtime/pool_MiB); 0: uts_pool_bytes
  StealOptions steal;
  /// Where worker 0 writes a progress line every few seconds (rank 0's
  /// stdout; null: none), led by progress_label.  Between two quanta it
  /// reads a clock, nothing more: no MPI, no shared counter.
  std::FILE* progress = nullptr;
  std::string progress_label;
  double progress_seconds = 3;  ///< seconds between two progress lines
};

/// The task pool \p workers worker tasks need (one live task each).
std::size_t uts_pool_bytes(int workers);

/// What one rank found and did in one search.
struct UtsRankResult {
  UtsCounts counts;            ///< this rank's nodes and leaves; depth: the deepest it saw
  double seconds = 0;          ///< from the start barrier to global termination, this rank
  double busy = 0;             ///< mean over its workers of seconds expanding nodes
  double idle = 0;             ///< mean over its workers of seconds without work
  std::int64_t task_runs = 0;  ///< worker task runs (respawns + 1 per worker)
  StealStats steal;
};

/// The search (collective over \p comm): workers as tasks on this rank's
/// Kokkos threads, a worker's runs recorded in \p profile as one record per
/// worker under \p iteration (from Profile::begin_iteration).
UtsRankResult uts_search(const UtsTree& tree, const UtsSearchOptions& opt, Profile& profile,
                         int iteration, MPI_Comm comm);

/// The tree's counts over all ranks (collective).
UtsCounts uts_reduce(const UtsCounts& mine, MPI_Comm comm);

}  // namespace ht
