#include "drivers/graph500/HT_SearchKernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <numeric>

#include "comm/HT_Wait.hpp"
#include "graph/bfs/HT_Bfs2D.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"

namespace ht {

namespace {

BfsOptions with_profile(BfsOptions opt, Profile& p) {
  opt.profile = &p;
  return opt;
}

SsspOptions with_profile(SsspOptions opt, Profile* p) {
  opt.profile = p;
  return opt;
}

// printf into a std::string: a kernel's part of the progress line.
std::string text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string text(const char* fmt, ...) {
  char buf[160];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

}  // namespace

BfsKernel::BfsKernel(const Graph500Config& cfg, const Csr& g, TaskRuntime& rt, Profile& profile,
                     MPI_Comm comm, const Csr2D* blocks, const Grid2D* grid)
    : cfg_(cfg),
      g_(g),
      blocks_(blocks && grid ? blocks : nullptr),
      grid_(grid),
      comm_(comm),
      bfs_(blocks && grid
               ? make_bfs_2d(*cfg.variant, *blocks, *grid, with_profile(cfg.bfs, profile), rt)
               : make_bfs(*cfg.variant, g, with_profile(cfg.bfs, profile), rt, comm)) {}

Validation BfsKernel::validate(std::int64_t key) const {
  if (blocks_) return validate_bfs(*blocks_, *grid_, key, result_->pred, comm_);
  return validate_bfs(g_, key, result_->pred, comm_);
}

std::string BfsKernel::record(BfsFigures& f, const Validation& v) const {
  const BfsResult& r = *result_;
  f.levels.push_back(v.depth);
  f.frontier.emplace_back(r.frontier.begin(), r.frontier.end());
  f.bottom_up.emplace_back(r.bottom_up.begin(), r.bottom_up.end());
  f.level_times.add(r.seconds);
  f.comm.add_steps(r.comm);
  for (auto x : r.bytes) f.rank_bytes += static_cast<double>(x);
  // Messages and bytes per level and the visit counts summed over the ranks
  // in one collective; the lock time's slowest rank in another.
  const std::size_t levels = r.messages.size();  // alike on every rank
  const auto at = [](std::size_t i) { return static_cast<std::ptrdiff_t>(i); };
  std::vector<long long> mine(2 * levels + 2), sums(mine.size());
  std::copy(r.messages.begin(), r.messages.end(), mine.begin());
  std::copy(r.bytes.begin(), r.bytes.end(), mine.begin() + at(levels));
  mine[2 * levels] = r.task_visits;
  mine[2 * levels + 1] = r.unique_visits;
  sum_over_ranks(mine.data(), sums.data(), static_cast<int>(mine.size()), comm_);
  f.messages.emplace_back(sums.begin(), sums.begin() + at(levels));
  f.bytes.emplace_back(sums.begin() + at(levels), sums.begin() + at(2 * levels));
  const auto visits = static_cast<double>(sums[2 * levels]);
  const auto unique = static_cast<double>(sums[2 * levels + 1]);
  f.redundancy.push_back(unique > 0 ? visits / unique : 0.0);
  const bool locks = cfg_.variant->reports == BfsReports::lock_time;
  f.lock_seconds.push_back(locks ? max_over_ranks(r.lock_seconds, comm_) : 0.0);

  const auto& m = f.messages.back();
  std::string more =
      text(", %d levels, %.0f messages", v.depth, std::accumulate(m.begin(), m.end(), 0.0));
  if (locks) more += text(", locks %.6f s", f.lock_seconds.back());
  if (cfg_.variant->reports == BfsReports::redundancy)
    more += text(", redundant visits %.3fx", f.redundancy.back());
  if (!r.bottom_up.empty()) {
    more += text(", %d of %zu levels bottom-up",
                 static_cast<int>(std::count(r.bottom_up.begin(), r.bottom_up.end(), 1)),
                 r.bottom_up.size());
  }
  return more;
}

SsspKernel::SsspKernel(const Graph500Config& cfg, const Csr& g, TaskRuntime& rt, Profile* profile,
                       MPI_Comm comm)
    : g_(g), comm_(comm), sssp_(g, with_profile(cfg.sssp_opt, profile), rt, comm) {}

Validation SsspKernel::validate(std::int64_t key) const {
  return validate_sssp(g_, key, result_->pred, result_->dist, comm_);
}

std::string SsspKernel::record(SsspFigures& f, const Validation&) const {
  const SsspResult& r = *result_;
  long long mine[2] = {r.relaxations, r.messages}, sums[2];
  sum_over_ranks(mine, sums, 2, comm_);
  float far = 0;
  for (float d : r.dist)
    if (std::isfinite(d)) far = std::max(far, d);
  f.max_distance = std::max(f.max_distance, max_over_ranks(static_cast<double>(far), comm_));
  f.buckets.push_back(static_cast<double>(r.buckets));
  f.phases.push_back(static_cast<double>(r.phases));
  f.relaxations.push_back(static_cast<double>(sums[0]));
  f.messages.push_back(static_cast<double>(sums[1]));
  f.comm.add_steps(r.comm);
  return text(", %lld buckets, %lld phases, %.0f messages", static_cast<long long>(r.buckets),
              static_cast<long long>(r.phases), f.messages.back());
}

}  // namespace ht
