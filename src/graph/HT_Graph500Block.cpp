#include "graph/HT_Graph500Block.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ht {

Statistics statistics(const std::vector<double>& x) {
  Statistics s;
  const std::size_t n = x.size();
  if (n == 0) return s;
  for (double v : x) s.mean += v;
  s.mean /= n;
  double sq = 0;
  for (double v : x) sq += (v - s.mean) * (v - s.mean);
  s.stddev = n > 1 ? std::sqrt(sq / (n - 1)) : 0;
  std::vector<double> y = x;
  std::sort(y.begin(), y.end());
  s.min = y.front();
  s.firstquartile = 0.5 * (y[(n - 1) / 4] + y[n / 4]);
  s.median = 0.5 * (y[(n - 1) / 2] + y[n / 2]);
  s.thirdquartile = 0.5 * (y[n - 1 - (n - 1) / 4] + y[n - 1 - n / 4]);
  s.max = y.back();
  return s;
}

std::vector<double> teps(const Graph500Block& block) {
  std::vector<double> t;
  for (std::size_t i = 0; i < block.seconds.size(); ++i)
    t.push_back(block.nedge[i] / block.seconds[i]);
  return t;
}

namespace {
std::vector<double> seconds_per_edge(const Graph500Block& block) {
  std::vector<double> s;
  for (std::size_t i = 0; i < block.seconds.size(); ++i)
    s.push_back(block.seconds[i] / block.nedge[i]);
  return s;
}
}  // namespace

void harmonic_teps(const Graph500Block& block, double& mean, double& stddev) {
  const Statistics s = statistics(seconds_per_edge(block));
  const double n = static_cast<double>(block.seconds.size());
  mean = 1.0 / s.mean;
  stddev = n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt(n - 1)) : 0;
}

namespace {

// "<prefix>min_<what>:" ... "<prefix>stddev_<what>:", the reference's order.
void block(std::FILE* out, const char* prefix, const char* what, const Statistics& s) {
  const char* names[] = {"min", "firstquartile", "median", "thirdquartile",
                         "max", "mean",          "stddev"};
  const double values[] = {s.min, s.firstquartile, s.median, s.thirdquartile,
                           s.max, s.mean,          s.stddev};
  char key[64];
  for (int i = 0; i < 7; ++i) {
    std::snprintf(key, sizeof key, "%s%s_%s:", prefix, names[i], what);
    std::fprintf(out, "%-32s%.12g\n", key, values[i]);
  }
}

// TEPS from seconds per edge: the slowest search gives min_TEPS.  The 3.0
// reference marks the harmonic mean, the figure a submission ranks on, with
// "!".
void teps_block(std::FILE* out, const char* prefix, const Graph500Block& block) {
  const Statistics spe = statistics(seconds_per_edge(block));
  double hmean, hstd;
  harmonic_teps(block, hmean, hstd);
  const char* names[] = {
      "min_TEPS", "firstquartile_TEPS", "median_TEPS",         "thirdquartile_TEPS",
      "max_TEPS", "harmonic_mean_TEPS", "harmonic_stddev_TEPS"};
  const double values[] = {1.0 / spe.max,
                           1.0 / spe.thirdquartile,
                           1.0 / spe.median,
                           1.0 / spe.firstquartile,
                           1.0 / spe.min,
                           hmean,
                           hstd};
  char key[64];
  for (int i = 0; i < 7; ++i) {
    std::snprintf(key, sizeof key, "%s%s:", prefix, names[i]);
    if (i == 5)
      std::fprintf(out, "%-29s!  %.12g\n", key, values[i]);
    else
      std::fprintf(out, "%-32s%.12g\n", key, values[i]);
  }
}

}  // namespace

namespace {

void header(const Graph500Block& block, std::size_t searches, std::FILE* out) {
  std::fprintf(out, "%-32s%d\n", "SCALE:", block.scale);
  std::fprintf(out, "%-32s%d\n", "edgefactor:", block.edgefactor);
  std::fprintf(out, "%-32s%zu\n", "NBFS:", searches);
  std::fprintf(out, "%-32s%.12g\n", "graph_generation:", block.generation_seconds);
  std::fprintf(out, "%-32s%d\n", "num_mpi_processes:", block.mpi_processes);
  std::fprintf(out, "%-32s%.12g\n", "construction_time:", block.construction_seconds);
}

}  // namespace

void print_graph500_block(const Graph500Block* bfs, const Graph500Block* sssp, std::FILE* out) {
  const Graph500Block& any = bfs ? *bfs : *sssp;
  header(any, any.seconds.size(), out);
  if (bfs) block(out, "bfs  ", "time", statistics(bfs->seconds));
  if (sssp) block(out, "sssp ", "time", statistics(sssp->seconds));
  block(out, "", "nedge", statistics(any.nedge));
  if (bfs) teps_block(out, "bfs  ", *bfs);
  if (sssp) teps_block(out, "sssp ", *sssp);
  if (bfs) block(out, "bfs  ", "validate", statistics(bfs->validate_seconds));
  if (sssp) block(out, "sssp ", "validate", statistics(sssp->validate_seconds));
  std::fflush(out);
}

}  // namespace ht
