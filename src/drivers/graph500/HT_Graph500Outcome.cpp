#include "drivers/graph500/HT_Graph500Outcome.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "io/HT_Results.hpp"

namespace ht {

namespace {

using Kind = Results::Kind;

double mean(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

void line(std::FILE* f, const char* key, double x) { std::fprintf(f, "%-32s%.12g\n", key, x); }

// \p rows, each as long as the longest of \p like (a per-level table's levels).
std::vector<std::vector<double>> as_wide_as(std::vector<std::vector<double>> rows,
                                            const std::vector<std::vector<double>>& like) {
  std::size_t width = 0;
  for (const auto& r : like) width = std::max(width, r.size());
  rows.resize(like.size());
  for (auto& r : rows) r.resize(width, 0.0);
  return rows;
}

// The figures every kernel has, under "<kernel>/".
void write_searches(const std::string& kernel, const Graph500Outcome& out, const SearchFigures& fig,
                    Results& r) {
  const Graph500Block block = fig.block(out.header);
  double hmean, hstd;
  harmonic_teps(block, hmean, hstd);
  r.global(kernel + "/harmonic_mean_TEPS", hmean, "TEPS");
  r.global(kernel + "/harmonic_stddev_TEPS", hstd, "TEPS");
  r.global(kernel + "/keys", std::vector<long long>(out.file_keys.begin(), out.file_keys.end()),
           "1");
  r.global(kernel + "/seconds", fig.seconds, "s");
  r.global(kernel + "/nedge", counts(fig.nedge), "1");
  r.global(kernel + "/teps", teps(block), "TEPS");
  r.global(kernel + "/validate_seconds", fig.validate_seconds, "s");
  fig.comm.write(r, "comm/" + kernel);
}

void write_bfs(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const BfsFigures& b = out.bfs;
  write_searches("bfs", out, b, r);
  r.global("bfs/levels", counts(b.levels), "1");
  // [keys, levels] tables, a row per key padded with zeros past its depth.
  r.table("bfs/frontier", as_wide_as(b.frontier, b.frontier), Kind::integer, "1");
  r.table("bfs/messages", as_wide_as(b.messages, b.frontier), Kind::integer, "1");
  r.table("bfs/bytes", as_wide_as(b.bytes, b.frontier), Kind::integer, "bytes");
  r.table("bfs/bottom_up", as_wide_as(b.bottom_up, b.frontier), Kind::boolean, "1");
  r.per_rank("bfs/bytes_sent", std::llround(b.rank_bytes), "bytes");
  r.attribute("tasks_per_rank", static_cast<long long>(out.tasks_per_rank));
  r.attribute("level_end", std::string(Exchange::name(cfg.level_end)));
  r.global("bfs/lock_seconds", b.lock_seconds, "s");
  r.global("bfs/redundant_visits", b.redundancy, "1");
  b.level_times.write(r, "bfs/level", r.comm());
}

void write_sssp(const Graph500Config& cfg, const Graph500Outcome& out, Results& r) {
  const SsspFigures& s = out.sssp;
  write_searches("sssp", out, s, r);
  r.attribute("delta", s.delta);
  r.attribute("sssp_variant", std::string(variant_name(cfg.sssp_opt.variant)));
  r.global("sssp/buckets", counts(s.buckets), "1");
  r.global("sssp/phases", counts(s.phases), "1");
  r.global("sssp/relaxations", counts(s.relaxations), "1");
  r.global("sssp/messages", counts(s.messages), "1");
  r.global("sssp/max_distance", s.max_distance, "1");
}

}  // namespace

void report_graph500(const Graph500Config& cfg, const Graph500Outcome& out, std::FILE* f) {
  const Graph500Block bfs = out.bfs.block(out.header), sssp = out.sssp.block(out.header);
  print_graph500_block(cfg.run_bfs ? &bfs : nullptr, cfg.run_sssp ? &sssp : nullptr, f);
  if (cfg.run_sssp) {
    std::fprintf(f, "%-32s%s\n", "sssp variant:", variant_name(cfg.sssp_opt.variant));
    line(f, "sssp delta:", out.sssp.delta);
    line(f, "sssp mean_buckets:", mean(out.sssp.buckets));
    line(f, "sssp mean_phases:", mean(out.sssp.phases));
    line(f, "sssp max_distance:", out.sssp.max_distance);
  }
  if (!cfg.file.empty()) {
    std::fprintf(f, "%-32s%s\n", "graph_file:", cfg.file.c_str());
    std::fprintf(f, "%-32s%lld\n", "graph_vertices:", out.vertices);
    std::fprintf(f, "%-32s%lld\n", "graph_edges:", out.edges);
  } else {
    std::fprintf(f, "%-32s%s\n", "generator:", kGenerators.name(cfg.generator));
  }
  std::fprintf(f, "%-32s%lld\n", "stored_edges:", out.stored_edges);
  std::fprintf(f, "%-32s%d\n", "target_bits:", out.target_bits);
  std::fprintf(f, "%-32s%s\n", "row_order:", kRowOrders.name(cfg.row_order));
  std::fprintf(f, "%-32s%s\n", "partition:", kPartitions.name(cfg.partition));
  if (cfg.partition == Partition::two_d)
    std::fprintf(f, "%-32s%s\n", "grid:", cfg.grid.name().c_str());
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
  const Graph500Block& h = out.header;
  const std::pair<const char*, long long> counts[] = {
      {"SCALE", h.scale},
      {"edgefactor", h.edgefactor},
      {"NBFS", static_cast<long long>(out.keys.size())},
      {"target_bits", out.target_bits}};
  for (const auto& [name, value] : counts) r.attribute(name, value);
  r.attribute("variant", std::string(cfg.variant->name));
  r.attribute("row_order", std::string(kRowOrders.name(cfg.row_order)));
  r.attribute("partition", std::string(kPartitions.name(cfg.partition)));
  if (cfg.partition == Partition::two_d) r.attribute("grid", cfg.grid.name());
  r.global("graph/generation_seconds", h.generation_seconds, "s");
  r.global("graph/construction_seconds", h.construction_seconds, "s");
  const std::pair<const char*, long long> graph_counts[] = {
      {"graph/vertices", out.vertices},
      {"graph/edges", out.edges},
      {"graph/stored_edges", out.stored_edges}};
  for (const auto& [name, value] : graph_counts) r.global(name, value, "1");
  r.per_rank("graph/bytes", out.graph_bytes, "bytes");
  for (int k = 0; k < kHeldKinds; ++k) {
    const std::string kind = held_name(static_cast<Held>(k));
    r.per_rank("held/kernel1/" + kind, out.held_kernel1[k], "bytes");
    r.per_rank("held/searches/" + kind, out.held_searches[k], "bytes");
    r.per_rank("held/validation/" + kind, out.held_validation[k], "bytes");
  }
  if (!cfg.file.empty())
    r.attribute("graph_file", cfg.file);
  else
    r.attribute("generator", std::string(kGenerators.name(cfg.generator)));
  r.attribute("kernels", std::string(cfg.kernels()));
  if (cfg.run_sssp) write_sssp(cfg, out, r);
  if (cfg.run_bfs) write_bfs(cfg, out, r);
}

}  // namespace ht
