#include "graph/HT_Graph500Report.hpp"

#include <algorithm>
#include <cmath>

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

std::vector<double> teps(const Graph500Run& run) {
  std::vector<double> t;
  for (std::size_t i = 0; i < run.bfs_seconds.size(); ++i)
    t.push_back(run.nedge[i] / run.bfs_seconds[i]);
  return t;
}

namespace {
std::vector<double> seconds_per_edge(const Graph500Run& run) {
  std::vector<double> s;
  for (std::size_t i = 0; i < run.bfs_seconds.size(); ++i)
    s.push_back(run.bfs_seconds[i] / run.nedge[i]);
  return s;
}
}  // namespace

void harmonic_teps(const Graph500Run& run, double& mean, double& stddev) {
  const Statistics s = statistics(seconds_per_edge(run));
  const double n = static_cast<double>(run.bfs_seconds.size());
  mean = 1.0 / s.mean;
  stddev = n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt(n - 1)) : 0;
}

void print_graph500(const Graph500Run& run, std::FILE* out) {
  auto line = [out](const char* key, double v) { std::fprintf(out, "%-32s%.12g\n", key, v); };
  auto block = [&](const char* what, const Statistics& s) {
    char key[64];
    const char* names[] = {"min", "firstquartile", "median", "thirdquartile",
                           "max", "mean",          "stddev"};
    const double values[] = {s.min, s.firstquartile, s.median, s.thirdquartile,
                             s.max, s.mean,          s.stddev};
    for (int i = 0; i < 7; ++i) {
      std::snprintf(key, sizeof key, "%s_%s:", names[i], what);
      line(key, values[i]);
    }
  };
  std::fprintf(out, "%-32s%d\n", "SCALE:", run.scale);
  std::fprintf(out, "%-32s%d\n", "edgefactor:", run.edgefactor);
  std::fprintf(out, "%-32s%zu\n", "NBFS:", run.bfs_seconds.size());
  line("graph_generation:", run.generation_seconds);
  std::fprintf(out, "%-32s%d\n", "num_mpi_processes:", run.mpi_processes);
  line("construction_time:", run.construction_seconds);
  block("time", statistics(run.bfs_seconds));
  block("nedge", statistics(run.nedge));
  // TEPS from seconds per edge: the slowest search gives min_TEPS.
  const Statistics spe = statistics(seconds_per_edge(run));
  line("min_TEPS:", 1.0 / spe.max);
  line("firstquartile_TEPS:", 1.0 / spe.thirdquartile);
  line("median_TEPS:", 1.0 / spe.median);
  line("thirdquartile_TEPS:", 1.0 / spe.firstquartile);
  line("max_TEPS:", 1.0 / spe.min);
  double hmean, hstd;
  harmonic_teps(run, hmean, hstd);
  line("harmonic_mean_TEPS:", hmean);
  line("harmonic_stddev_TEPS:", hstd);
  block("validate", statistics(run.validate_seconds));
  std::fflush(out);
}

}  // namespace ht
