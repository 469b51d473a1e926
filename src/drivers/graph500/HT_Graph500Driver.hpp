#pragma once
/// \file HT_Graph500Driver.hpp
/// \brief The graph500_bfs driver, Graph500 specification 3.0 kernels 1, 2
/// and 3, one file per step of the run:
///  - HT_Graph500Config: the deck and every usage error;
///  - HT_ConstructGraph: kernel 1, from the generator or a file;
///  - HT_Search: kernels 2 (BFS) and 3 (SSSP) as trials, one search per
///    key, every tree validated;
///  - HT_Graph500Outcome: the reference's block and the results file.
/// apps/graph500_bfs.cpp is only main(); a test or a benchmark drives a run
/// in-process with run_graph500.
///
/// Example: tests/drivers/graph500/tstGraph500Driver.cpp.
#include <mpi.h>

#include <cstdio>

#include "app/HT_App.hpp"
#include "drivers/graph500/HT_Graph500Config.hpp"
#include "drivers/graph500/HT_Graph500Outcome.hpp"

namespace ht {

class Profile;

/// \brief Kernels 1, 2 and 3 (those the deck asks for), every tree validated
/// (collective); a tree that fails a check throws ht::Error naming the key
/// and the check.  Rank 0 writes progress lines to \p log (none if null):
/// kernel 1's phases, and a few per kernel (HT_Log.hpp's Ticker).  SSSP's
/// tasks go to \p sssp_profile, if given.
Graph500Outcome run_graph500(const Graph500Config& cfg, Profile& profile, MPI_Comm comm,
                             std::FILE* log, Profile* sssp_profile = nullptr);

/// \brief The whole driver: configuration, run, tables (Output/tables),
/// profile, the report last, results.
void graph500_driver(AppContext& ctx);

}  // namespace ht
