#include "profile/HT_Profile.hpp"

#include <algorithm>
#include <map>

#include "io/HT_Results.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

Profile::Profile(bool enabled, Clock clock) : enabled_(enabled), clock_(clock), origin_(clock()) {}

int Profile::begin_iteration(int group, int step, int lanes) {
  if (!enabled_) return -1;
  iterations_.push_back({group, step, lanes});
  return static_cast<int>(iterations_.size()) - 1;
}

void Profile::reserve(std::size_t n) {
  if (!enabled_) return;
  const std::size_t need = next_.load(std::memory_order_relaxed) + n;
  if (need > slots_.size()) slots_.resize(std::max(need, 2 * slots_.size()));
}

void Profile::merge(const TaskRecord& r) {
  const std::size_t slot = next_.fetch_add(1, std::memory_order_relaxed);
  if (slot < slots_.size()) {
    slots_[slot] = r;
  } else {
    overflow_.store(true, std::memory_order_relaxed);
  }
}

std::vector<TaskRecord> Profile::records() const {
  if (overflow_.load()) {
    throw Error("profile: more task records merged than reserved (Profile::reserve)");
  }
  return {slots_.begin(), slots_.begin() + next_.load()};
}

std::vector<IterationStats> Profile::iterations() const {
  std::vector<std::vector<double>> busy(iterations_.size());
  for (std::size_t i = 0; i < iterations_.size(); ++i) busy[i].assign(iterations_[i].lanes, 0.0);
  for (const TaskRecord& r : records()) {
    if (r.iteration < 0 || r.iteration >= static_cast<int>(busy.size()) || r.lane < 0 ||
        r.lane >= static_cast<int>(busy[r.iteration].size())) {
      throw Error("profile: a record names iteration " + std::to_string(r.iteration) + ", lane " +
                  std::to_string(r.lane) + ", which no begin_iteration opened");
    }
    busy[r.iteration][r.lane] += r.busy;
  }
  std::vector<IterationStats> out(iterations_.size());
  for (std::size_t i = 0; i < iterations_.size(); ++i) {
    IterationStats& s = out[i];
    s.group = iterations_[i].group;
    s.step = iterations_[i].step;
    s.lanes = iterations_[i].lanes;
    if (busy[i].empty()) continue;
    s.slowest = *std::max_element(busy[i].begin(), busy[i].end());
    s.fastest = *std::min_element(busy[i].begin(), busy[i].end());
    for (double b : busy[i]) s.waiting += s.slowest - b;
  }
  return out;
}

ProfileSummary Profile::summarize() const {
  ProfileSummary s;
  double spread = 0, slowest = 0, lane_time = 0;
  for (const IterationStats& it : iterations()) {
    s.max_imbalance = std::max(s.max_imbalance, it.imbalance());
    spread += it.slowest - it.fastest;
    slowest += it.slowest;
    s.waiting += it.waiting;
    lane_time += it.lanes * it.slowest;
  }
  s.mean_imbalance = slowest > 0 ? spread / slowest : 0.0;
  s.waiting = lane_time > 0 ? s.waiting / lane_time : 0.0;
  s.records = static_cast<std::int64_t>(next_.load());
  return s;
}

namespace {
// Across ranks, per iteration: (slowest rank - fastest rank) / slowest rank,
// a rank's time being its slowest lane's; mean weighted like the lanes' one.
struct RankImbalance {
  double mean = 0, max = 0;
};
RankImbalance rank_imbalance(const std::vector<IterationStats>& its, MPI_Comm comm) {
  std::vector<double> hi(its.size()), lo(its.size());
  for (std::size_t i = 0; i < its.size(); ++i) hi[i] = lo[i] = its[i].slowest;
  const int n = static_cast<int>(its.size());
  all_reduce(hi.data(), n, MPI_MAX, comm);
  all_reduce(lo.data(), n, MPI_MIN, comm);
  RankImbalance r;
  double spread = 0, total = 0;
  for (std::size_t i = 0; i < its.size(); ++i) {
    if (hi[i] > 0) r.max = std::max(r.max, (hi[i] - lo[i]) / hi[i]);
    spread += hi[i] - lo[i];
    total += hi[i];
  }
  r.mean = total > 0 ? spread / total : 0.0;
  return r;
}
}  // namespace

namespace {
// The run's summaries reduced over ranks, once for write() and print().
struct Reduced {
  ProfileSummary mine;
  OverRanks mean, max, wait;
  RankImbalance ranks;
};
Reduced reduce(const ProfileSummary& s, const std::vector<IterationStats>& its, MPI_Comm comm) {
  return {s, over_ranks(s.mean_imbalance, comm), over_ranks(s.max_imbalance, comm),
          over_ranks(s.waiting, comm), rank_imbalance(its, comm)};
}
}  // namespace

void Profile::write(Results& out, const std::string& prefix, MPI_Comm comm) const {
  const std::vector<TaskRecord> recs = records();
  long long longest = static_cast<long long>(recs.size());
  all_reduce(&longest, 1, MPI_MAX, comm);
  const std::size_t n = static_cast<std::size_t>(longest);
  // One dataset per field: records padded to the longest rank (iteration -1).
  const auto counts_of = [&](const char* name, long long pad, auto field) {
    std::vector<long long> column(n, pad);
    for (std::size_t k = 0; k < recs.size(); ++k) column[k] = field(recs[k]);
    out.per_rank_row(prefix + "/record_" + name, column, "1");
  };
  const auto seconds_of = [&](const char* name, auto field) {
    std::vector<double> column(n, 0.0);
    for (std::size_t k = 0; k < recs.size(); ++k) column[k] = field(recs[k]);
    out.per_rank_row(prefix + "/record_" + name + "_seconds", column, "s");
  };
  counts_of("iteration", -1, [](const TaskRecord& r) { return r.iteration; });
  counts_of("lane", 0, [](const TaskRecord& r) { return r.lane; });
  counts_of("task", 0, [](const TaskRecord& r) { return r.task; });
  seconds_of("start", [](const TaskRecord& r) { return r.start; });
  seconds_of("end", [](const TaskRecord& r) { return r.end; });
  seconds_of("busy", [](const TaskRecord& r) { return r.busy; });
  counts_of("items", 0, [](const TaskRecord& r) { return static_cast<long long>(r.items); });
  out.per_rank(prefix + "/record_count", static_cast<long long>(recs.size()), "1");

  const std::vector<IterationStats> its = iterations();
  const auto iteration_counts = [&](const char* name, auto field) {
    std::vector<long long> column;
    for (const IterationStats& it : its) column.push_back(field(it));
    out.per_rank_row(prefix + "/iteration_" + name, column, "1");
  };
  const auto iteration_reals = [&](const std::string& name, const char* units, auto field) {
    std::vector<double> column;
    for (const IterationStats& it : its) column.push_back(field(it));
    out.per_rank_row(prefix + "/iteration_" + name, column, units);
  };
  iteration_counts("group", [](const IterationStats& it) { return it.group; });
  iteration_counts("step", [](const IterationStats& it) { return it.step; });
  iteration_counts("lanes", [](const IterationStats& it) { return it.lanes; });
  iteration_reals("slowest_seconds", "s", [](const IterationStats& it) { return it.slowest; });
  iteration_reals("fastest_seconds", "s", [](const IterationStats& it) { return it.fastest; });
  iteration_reals("waiting_seconds", "s", [](const IterationStats& it) { return it.waiting; });
  iteration_reals("imbalance", "1", [](const IterationStats& it) { return it.imbalance(); });

  const Reduced r = reduce(summarize(), its, comm);
  out.per_rank(prefix + "/max_imbalance", r.mine.max_imbalance, "1");
  out.per_rank(prefix + "/mean_imbalance", r.mine.mean_imbalance, "1");
  out.per_rank(prefix + "/waiting_fraction", r.mine.waiting, "1");
  for (const auto& [name, x] : {std::pair{"mean_imbalance", r.mean},
                                {"max_imbalance", r.max},
                                {"waiting_fraction", r.wait}}) {
    out.global(prefix + "/" + name + "_over_ranks", std::vector<double>{x.min, x.mean, x.max}, "1");
  }
  out.global(prefix + "/rank_imbalance", std::vector<double>{r.ranks.mean, r.ranks.max}, "1");
}

void Profile::print(std::FILE* f, const char* step_name, MPI_Comm comm, bool table,
                    const char* prefix) const {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::vector<IterationStats> its = iterations();
  const Reduced red = reduce(summarize(), its, comm);
  const OverRanks &mean = red.mean, &max = red.max, &wait = red.wait;
  const RankImbalance& ranks = red.ranks;
  if (rank != 0) return;
  if (table) {
    // Per step over all groups (rank 0's view): where the imbalance is.
    struct Row {
      int n = 0, lanes = 0;
      double slowest = 0, spread = 0, waiting = 0, lane_time = 0;
    };
    std::map<int, Row> rows;
    for (const IterationStats& it : its) {
      Row& r = rows[it.step];
      r.n += 1;
      r.lanes = std::max(r.lanes, it.lanes);
      r.slowest += it.slowest;
      r.spread += it.slowest - it.fastest;
      r.waiting += it.waiting;
      r.lane_time += it.lanes * it.slowest;
    }
    std::fprintf(
        f, "%sImbalance profile per %s, rank 0 (lanes: tasks, or threads for chunked tasks)\n",
        prefix, step_name);
    std::fprintf(f, "%6s %6s %6s %12s %10s %8s\n", step_name, "count", "lanes", "slowest_ms",
                 "imbalance", "waiting");
    for (const auto& [step, r] : rows) {
      std::fprintf(f, "%6d %6d %6d %12.3f %10.3f %8.3f\n", step, r.n, r.lanes,
                   1e3 * r.slowest / r.n, r.slowest > 0 ? r.spread / r.slowest : 0.0,
                   r.lane_time > 0 ? r.waiting / r.lane_time : 0.0);
    }
  }
  const auto line = [&](const char* key, const double* x, int n) {
    const std::string k = std::string(prefix) + key;
    std::fprintf(f, "%-31s ", k.c_str());
    for (int i = 0; i < n; ++i) std::fprintf(f, i ? " %.6f" : "%.6f", x[i]);
    std::fprintf(f, "\n");
  };
  const double m[3] = {mean.min, mean.mean, mean.max}, x[3] = {max.min, max.mean, max.max},
               w[3] = {wait.min, wait.mean, wait.max}, ri[2] = {ranks.mean, ranks.max};
  line("mean_imbalance (min mean max):", m, 3);
  line("max_imbalance (min mean max):", x, 3);
  line("waiting (min mean max):", w, 3);
  line("rank_imbalance (mean max):", ri, 2);
  std::fflush(f);
}

Profile& profile_or_off(Profile* p) {
  static Profile off(false);
  return p ? *p : off;
}

std::size_t profile_pool_bytes(std::size_t n) {
  return TaskRuntime::pool_bytes_for<impl::MergeRecord>(n);
}

}  // namespace ht
