#include "drivers/graph500/HT_Graph500Output.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "io/HT_Results.hpp"

namespace ht {

namespace {

// Pads per-key rows of different lengths into one [keys x longest] table.
std::vector<double> table(const std::vector<std::vector<double>>& rows, std::size_t& width) {
  width = 1;
  for (const auto& r : rows) width = std::max(width, r.size());
  std::vector<double> t(rows.size() * width, 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k)
    std::copy(rows[k].begin(), rows[k].end(), t.begin() + static_cast<std::ptrdiff_t>(k * width));
  return t;
}

double mean(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

void line(std::FILE* f, const char* key, double x) { std::fprintf(f, "%-32s%.12g\n", key, x); }

// The figures every kernel has, under "<kernel>/".
void write_searches(const std::string& kernel, const Graph500Outcome& out, const SearchFigures& fig,
                    Results& r) {
  const Graph500Run run = fig.run(out.header);
  double hmean, hstd;
  harmonic_teps(run, hmean, hstd);
  const std::string prefix = kernel == "bfs" ? "" : kernel + "_";
  r.attribute(prefix + "harmonic_mean_TEPS", hmean);
  r.attribute(prefix + "harmonic_stddev_TEPS", hstd);
  r.global(kernel + "/keys", std::vector<double>(out.keys.begin(), out.keys.end()));
  r.global(kernel + "/seconds", fig.seconds);
  r.global(kernel + "/nedge", fig.nedge);
  r.global(kernel + "/teps", teps(run));
  r.global(kernel + "/validate_seconds", fig.validate_seconds);
  fig.comm.write(r, "comm/" + kernel);
}

void write_bfs(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const BfsFigures& b = out.bfs;
  write_searches("bfs", out, b, r);
  r.global("bfs/levels", b.levels);
  std::size_t w = 0;
  r.global("bfs/frontier", table(b.frontier, w));
  r.attribute("bfs_table_width", static_cast<long long>(w));
  r.global("bfs/messages", table(b.messages, w));
  r.global("bfs/bytes", table(b.bytes, w));
  std::size_t w_dir = 0;
  r.global("bfs/bottom_up", table(b.bottom_up, w_dir));
  r.attribute("bfs_direction_width", static_cast<long long>(w_dir));
  r.per_rank("bfs/bytes_sent", {b.rank_bytes});
  r.attribute("tasks_per_rank", static_cast<long long>(out.tasks_per_rank));
  r.attribute("level_end", std::string(Exchange::name(cfg.level_end)));
  r.global("bfs/lock_seconds", b.lock_seconds);
  r.global("bfs/redundant_visits", b.redundancy);
  b.level_times.write(r, "bfs/level", r.comm());
}

void write_sssp(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const SsspFigures& s = out.sssp;
  write_searches("sssp", out, s, r);
  r.attribute("sssp_delta", cfg.sssp_opt.delta);
  r.attribute("sssp_variant", std::string(variant_name(cfg.sssp_opt.variant)));
  r.global("sssp/buckets", s.buckets);
  r.global("sssp/phases", s.phases);
  r.global("sssp/relaxations", s.relaxations);
  r.global("sssp/messages", s.messages);
}

}  // namespace

void report_graph500(const Graph500Config& cfg, const Graph500Outcome& out, std::FILE* f) {
  const Graph500Run bfs = out.bfs.run(out.header), sssp = out.sssp.run(out.header);
  print_graph500(cfg.run_bfs ? &bfs : nullptr, cfg.run_sssp ? &sssp : nullptr, f);
  if (cfg.run_sssp) {
    std::fprintf(f, "%-32s%s\n", "sssp variant:", variant_name(cfg.sssp_opt.variant));
    line(f, "sssp delta:", cfg.sssp_opt.delta);
    line(f, "sssp mean_buckets:", mean(out.sssp.buckets));
    line(f, "sssp mean_phases:", mean(out.sssp.phases));
    line(f, "sssp max_distance:", out.sssp.max_distance);
  }
  if (!cfg.file.empty()) {
    std::fprintf(f, "%-32s%s\n", "graph_file:", cfg.file.c_str());
    std::fprintf(f, "%-32s%lld\n", "graph_vertices:", out.vertices);
    std::fprintf(f, "%-32s%lld\n", "graph_edges:", out.edges);
  }
  std::fprintf(f, "%-32s%d\n", "target_bits:", out.target_bits);
  std::fprintf(f, "%-32s%s\n", "row_order:", kRowOrders.name(cfg.row_order));
  // The study's columns, after the reference block.
  std::fprintf(f, "%-32s%s\n", "variant:", cfg.variant->name);
  std::fprintf(f, "%-32s%d\n", "tasks_per_rank:", out.tasks_per_rank);
  if (cfg.run_bfs && cfg.variant->reports == BfsReports::lock_time)
    line(f, "mean_lock_time:", mean(out.bfs.lock_seconds));
  if (cfg.run_bfs && cfg.variant->reports == BfsReports::redundancy)
    line(f, "mean_redundant_visits:", mean(out.bfs.redundancy));
  std::fflush(f);
}

void write_graph500(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const Graph500Run& h = out.header;
  r.attribute("SCALE", static_cast<long long>(h.scale));
  r.attribute("edgefactor", static_cast<long long>(h.edgefactor));
  r.attribute("variant", std::string(cfg.variant->name));
  r.attribute("graph_generation", h.generation_seconds);
  r.attribute("construction_time", h.construction_seconds);
  r.attribute("target_bits", static_cast<long long>(out.target_bits));
  r.attribute("row_order", std::string(kRowOrders.name(cfg.row_order)));
  r.attribute("graph_vertices", out.vertices);
  r.attribute("graph_edges", out.edges);
  if (!cfg.file.empty()) r.attribute("graph_file", cfg.file);
  r.attribute("kernels", std::string(cfg.kernels()));
  if (cfg.run_sssp) write_sssp(cfg, out, r);
  if (cfg.run_bfs) write_bfs(cfg, out, r);
}

}  // namespace ht
