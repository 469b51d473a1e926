#pragma once
/// \file HT_Graph500Report.hpp
/// \brief The Graph500 result block, in the reference implementation's
/// format ("key: value" lines), so that existing Graph500 tooling reads it.
///
/// Statistics as the reference computes them: quartiles as the mean of the two
/// middle order statistics, sample standard deviation, TEPS statistics over
/// seconds per edge (so min_TEPS comes from the slowest search), and the
/// harmonic mean's standard deviation after N. Norris, Ann. Math. Stat. 11
/// (1940), as the specification cites.
#include <cstdio>
#include <vector>

namespace ht {

struct Statistics {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0, mean = 0, stddev = 0;
};
Statistics statistics(const std::vector<double>& x);

struct Graph500Run {
  int scale = 0, edgefactor = 0, mpi_processes = 1;
  double generation_seconds = 0, construction_seconds = 0;
  std::vector<double> bfs_seconds, nedge, validate_seconds;
};

/// TEPS of each search: nedge / seconds.
std::vector<double> teps(const Graph500Run& run);
/// Harmonic mean of the TEPS and its standard deviation.
void harmonic_teps(const Graph500Run& run, double& mean, double& stddev);

/// Writes the result block to \p out (without the time, TEPS and validate
/// lines when no BFS ran: \p run.bfs_seconds empty, nedge given).
void print_graph500(const Graph500Run& run, std::FILE* out);
/// The 3.0 reference's block (graph500_reference_bfs_sssp), for runs with
/// kernel 3: the header, then "bfs  " and "sssp " lines of time, one nedge
/// block (both kernels count the same component edges), "bfs  " and "sssp "
/// TEPS, "bfs  " and "sssp " validate.  \p sssp holds the SSSP searches'
/// seconds in bfs_seconds, with their nedge and validate seconds; \p bfs is
/// null when kernel 2 did not run (its lines are left out).
void print_graph500_3(const Graph500Run* bfs, const Graph500Run& sssp, std::FILE* out);

}  // namespace ht
