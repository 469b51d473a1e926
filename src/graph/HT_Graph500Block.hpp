#pragma once
/// \file HT_Graph500Block.hpp
/// \brief The Graph500 result block, in the 3.0 reference implementation's
/// format ("key: value" lines, each kernel's prefixed "bfs  " or "sssp "),
/// so that existing Graph500 tooling reads it, whichever kernels ran.
///
/// Statistics as the reference computes them: quartiles as the mean of the two
/// middle order statistics, sample standard deviation, TEPS statistics over
/// seconds per edge (so min_TEPS comes from the slowest search), and the
/// harmonic mean's standard deviation after N. Norris, Ann. Math. Stat. 11
/// (1940), as the specification cites.
#include <cstdio>
#include <vector>

namespace ht {

/// \brief The reference's statistics of one column of figures.
struct Statistics {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0, mean = 0, stddev = 0;
};
/// \brief \p x's statistics, computed as the reference does.
Statistics statistics(const std::vector<double>& x);

/// \brief One kernel's searches with the graph's header: the reference block's inputs.
struct Graph500Block {
  int scale = 0, edgefactor = 0, mpi_processes = 1;
  double generation_seconds = 0, construction_seconds = 0;
  std::vector<double> seconds, nedge, validate_seconds;  ///< per search
};

/// \brief TEPS of each search: nedge / seconds.
std::vector<double> teps(const Graph500Block& block);
/// \brief Harmonic mean of the TEPS and its standard deviation.
void harmonic_teps(const Graph500Block& block, double& mean, double& stddev);

/// \brief The 3.0 reference's block (graph500_reference_bfs_sssp), whichever
/// kernels ran: the header, then "bfs  " and "sssp " lines of time, one nedge
/// block (both kernels count the same component edges), "bfs  " and "sssp "
/// TEPS, "bfs  " and "sssp " validate.  A kernel that did not run (null) has
/// no lines; one of the two must be given.
void print_graph500_block(const Graph500Block* bfs, const Graph500Block* sssp, std::FILE* out);

}  // namespace ht
