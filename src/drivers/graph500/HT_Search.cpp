#include "drivers/graph500/HT_Search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <memory>
#include <numeric>
#include <string>

#include "comm/HT_Wait.hpp"
#include "drivers/HT_Log.hpp"
#include "drivers/HT_Trials.hpp"
#include "graph/HT_TepsEdges.hpp"
#include "graph/HT_Validate.hpp"
#include "graph/bfs/HT_Bfs.hpp"
#include "graph/bfs/HT_Bfs2D.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "graph/sssp/HT_DeltaStepping2D.hpp"
#include "graph/sssp/HT_SsspValidate.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

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

// One search per key of kernel K, as trials of run_trials.  A kernel K
// provides: `name`, `regions` (TrialRegions), a `Figures` type derived from
// SearchFigures, `search(key)`, `validate(key)` (a Validation), `pred()` (the
// last search's parents), and `record(figures, validation)` (collective; its
// part of the progress line).
template <class K>
class Search {
 public:
  static constexpr TrialRegions regions = K::regions;

  Search(K& kernel, const Csr& g, const std::vector<std::int64_t>& keys,
         typename K::Figures& figures, MPI_Comm comm, std::FILE* log)
      : k_(kernel), g_(g), keys_(keys), fig_(figures), comm_(comm), log_(log) {}

  // Each search's and each validation's own high-water marks (SearchHeld).
  void setup(int) { held_reset_high(); }
  void run(int t) {
    k_.search(keys_[t]);
    fold_held_highs(held_.searching);
  }
  bool verifies(int) const { return true; }
  void verify(int t) {
    held_reset_high();
    v_ = k_.validate(keys_[t]);
    fold_held_highs(held_.validating);
    if (!v_.ok()) {
      throw Error(std::string("validation of ") + K::name + " " + std::to_string(t + 1) +
                  " from key " + std::to_string(k_.graph().file_id(keys_[t])) +
                  " failed: " + v_.what);
    }
  }
  void done(int t, const TrialSeconds& s) {
    const double nedge = static_cast<double>(component_edges(g_, k_.pred(), comm_));
    fig_.seconds.push_back(s.kernel);
    fig_.nedge.push_back(nedge);
    fig_.validate_seconds.push_back(s.verify);
    fig_.comm.add_trial(s);
    const std::string more = k_.record(fig_, v_);
    if (tick_.due(t + 1, static_cast<int>(keys_.size())))
      say(log_, "%s %2d/%zu: key %lld, %.6f s, %.4g TEPS%s, valid\n", K::name, t + 1, keys_.size(),
          k_.graph().file_id(keys_[t]), s.kernel, nedge / s.kernel, more.c_str());
  }
  // The most this rank held, over the trials so far.
  const SearchHeld& held() const { return held_; }

 private:
  K& k_;
  const Csr& g_;
  const std::vector<std::int64_t>& keys_;
  typename K::Figures& fig_;
  MPI_Comm comm_;
  std::FILE* log_;
  Ticker tick_;
  Validation v_;
  SearchHeld held_;
};

// What Search reads of a kernel besides its calls: its name, its profiling
// regions and its types.
struct BfsTraits {
  using Result = BfsResult;
  using Figures = BfsFigures;
  static constexpr const char* name = "BFS";
  static constexpr TrialRegions regions{"Graph500: BFS", "Graph500: validation"};
};
struct SsspTraits {
  using Result = SsspResult;
  using Figures = SsspFigures;
  static constexpr const char* name = "SSSP";
  static constexpr TrialRegions regions{"Graph500: SSSP", "Graph500: SSSP validation"};
};

// What both kernels hold: their traits, the graph, the communicator and the
// last search's answer, whose parents the trials read.
template <class Traits>
class KernelBase {
 public:
  using Figures = typename Traits::Figures;
  static constexpr const char* name = Traits::name;
  static constexpr TrialRegions regions = Traits::regions;

  KernelBase(const Graph500Graph& graph, MPI_Comm comm) : graph_(graph), comm_(comm) {}
  const std::vector<std::int64_t>& pred() const { return result_->pred; }
  const Graph500Graph& graph() const { return graph_; }

 protected:
  const Graph500Graph& graph_;
  MPI_Comm comm_;
  const typename Traits::Result* result_ = nullptr;
};

// Kernel 2: the deck's BFS variant.
class BfsKernel : public KernelBase<BfsTraits> {
 public:
  // With a 2D block in the graph, the variant's 2D kernel searches it and the
  // validator reads it; else the 1D CSR serves both.
  BfsKernel(const Graph500Config& cfg, const Graph500Graph& graph, TaskRuntime& rt,
            Profile& profile, MPI_Comm comm);
  void search(std::int64_t key) { result_ = &bfs_->search(key); }
  Validation validate(std::int64_t key) const;
  // Levels, messages, bytes and visits summed over ranks (collective).
  std::string record(BfsFigures& f, const Validation& v) const;

 private:
  const Graph500Config& cfg_;
  std::unique_ptr<Bfs> bfs_;
};

// Kernel 3: delta-stepping on the 2D block where the graph has one, else
// on the 1D CSR; its validator reads the same.
class SsspKernel : public KernelBase<SsspTraits> {
 public:
  SsspKernel(const Graph500Config& cfg, const Graph500Graph& graph, TaskRuntime& rt,
             Profile* profile, MPI_Comm comm);
  void search(std::int64_t key) { result_ = sssp_ ? &sssp_->search(key) : &sssp_2d_->search(key); }
  Validation validate(std::int64_t key) const;
  // The bucket width: Graph500/delta's, or the one auto chose.
  double delta() const { return sssp_ ? sssp_->delta() : sssp_2d_->delta(); }
  // Steps, relaxations, messages and the farthest distance (collective).
  std::string record(SsspFigures& f, const Validation& v) const;

 private:
  std::unique_ptr<DeltaStepping> sssp_;       // 1D
  std::unique_ptr<DeltaStepping2D> sssp_2d_;  // 2D
};

BfsKernel::BfsKernel(const Graph500Config& cfg, const Graph500Graph& graph, TaskRuntime& rt,
                     Profile& profile, MPI_Comm comm)
    : KernelBase(graph, comm),
      cfg_(cfg),
      bfs_(graph.grid
               ? make_bfs_2d(*cfg.variant, graph.blocks, *graph.grid,
                             with_profile(cfg.bfs, profile), rt)
               : make_bfs(*cfg.variant, graph.csr, with_profile(cfg.bfs, profile), rt, comm)) {}

Validation BfsKernel::validate(std::int64_t key) const {
  if (graph_.grid) return validate_bfs(graph_.blocks, *graph_.grid, key, result_->pred, comm_);
  return validate_bfs(graph_.csr, key, result_->pred, comm_);
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
  sum_over_ranks(mine.data(), sums.data(), mpi_int(mine.size(), "a BFS's per-level figures"),
                 comm_);
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

SsspKernel::SsspKernel(const Graph500Config& cfg, const Graph500Graph& graph, TaskRuntime& rt,
                       Profile* profile, MPI_Comm comm)
    : KernelBase(graph, comm) {
  const SsspOptions opt = with_profile(cfg.sssp_opt, profile);
  if (graph.grid)
    sssp_2d_ = std::make_unique<DeltaStepping2D>(graph.blocks, *graph.grid, opt);
  else
    sssp_ = std::make_unique<DeltaStepping>(graph.csr, opt, rt, comm);
}

Validation SsspKernel::validate(std::int64_t key) const {
  if (graph_.grid)
    return validate_sssp(graph_.blocks, *graph_.grid, key, result_->pred, result_->dist, comm_);
  return validate_sssp(graph_.csr, key, result_->pred, result_->dist, comm_);
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

}  // namespace

SearchHeld search_bfs(const Graph500Config& cfg, const Graph500Graph& graph,
                      const std::vector<std::int64_t>& keys, TaskRuntime& rt, Profile& profile,
                      BfsFigures& figures, MPI_Comm comm, std::FILE* log) {
  BfsKernel bfs(cfg, graph, rt, profile, comm);
  Search<BfsKernel> s(bfs, graph.csr, keys, figures, comm, log);
  run_trials(s, static_cast<int>(keys.size()), comm);
  return s.held();
}

SearchHeld search_sssp(const Graph500Config& cfg, const Graph500Graph& graph,
                       const std::vector<std::int64_t>& keys, TaskRuntime& rt, Profile* profile,
                       SsspFigures& figures, MPI_Comm comm, std::FILE* log) {
  SsspKernel sssp(cfg, graph, rt, profile, comm);
  figures.delta = sssp.delta();
  if (cfg.sssp_opt.delta == 0) say(log, "kernel 3: delta %g (auto)\n", figures.delta);
  Search<SsspKernel> s(sssp, graph.csr, keys, figures, comm, log);
  run_trials(s, static_cast<int>(keys.size()), comm);
  return s.held();
}

}  // namespace ht
