#include "drivers/HT_UtsDriver.hpp"

#include <Kokkos_Core.hpp>
#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "drivers/HT_Log.hpp"
#include "drivers/HT_Trials.hpp"
#include "io/HT_Results.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "uts/HT_UtsVerify.hpp"

namespace ht {

using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;

Teuchos::RCP<const Teuchos::ParameterList> uts_parameters() {
  const UtsTree t1 = uts_named_tree("T1").tree;
  const UtsSearchOptions so;
  auto p = rcp(new Teuchos::ParameterList("uts"));
  auto& t = p->sublist("Tree", false, "The tree (UTS 2.1 options in brackets); defaults: T1");
  std::vector<std::string> names{"custom"};
  for (const auto& n : uts_named_trees()) names.push_back(n.name);
  t.set("name", std::string("T1"),
        "a UTS 2.1 sample tree, whose published counts every run must reproduce (the other "
        "Tree keys must be its parameters), or custom",
        one_of(names));
  t.set("type", std::string(type_name(t1.type)), "[-t] binomial, geometric or hybrid",
        one_of(kUtsTypes.names()));
  t.set("b0", t1.b0, "[-b] branching factor of the root (> 0)");
  t.set("shape", std::string(shape_name(t1.shape)),
        "[-a] geometric and hybrid: how the mean branching factor falls with depth",
        one_of(kUtsShapes.names()));
  t.set("depth", t1.depth, "[-d] geometric and hybrid: the depth parameter gen_mx (>= 1)");
  t.set("q", t1.q, "[-q] binomial and hybrid: probability that a node has m children");
  t.set("m", t1.m, "[-m] binomial and hybrid: children of a non-leaf (q * m < 1)");
  t.set("seed", t1.seed, "[-r] seed of the root's random state");
  t.set("shift", t1.shift, "[-f] hybrid: geometric above shift * depth, binomial below");
  t.set("granularity", t1.granularity, "[-g] SHA-1 evaluations per child: work per node (>= 1)");

  auto& s = p->sublist("Search", false, "The search on each rank");
  s.set("repetitions", 1, "searches of the same tree; each is timed and checked",
        rcp(new EnhancedNumberValidator<int>(1, 1000)));
  s.set("quantum", so.quantum, "nodes a worker task expands before it respawns",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 30)));
  s.set("poll_interval", so.poll_interval,
        "nodes between two polls of the stealing layer (and checks whether work is wanted)",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 30)));
  s.set("split_nodes", so.split_nodes,
        "initial frontier nodes per rank (every rank expands the top of the tree alike and "
        "takes every p-th node); 0: all work starts at rank 0's root",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));

  auto& w = p->sublist("Stealing", false, "Work stealing between ranks (comm/HT_WorkStealing)");
  w.set("enabled", so.steal.enabled,
        "idle ranks steal work; false keeps the initial split (termination is still detected)");
  w.set("victim", std::string(victim_name(so.steal.victim)),
        "whom an idle rank asks: round_robin (from the next rank on, as uts-mpi-ws) or random",
        one_of(kStealVictims.names()));
  w.set("amount", std::string(amount_name(so.steal.amount)),
        "what a victim gives: half of its shared pool, or one chunk",
        one_of(kStealAmounts.names()));
  w.set("chunk", static_cast<int>(so.steal.chunk), "nodes per reply with amount = chunk",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 20)));
  w.set("progress", std::string(progress_name(so.steal.progress)),
        "who makes the MPI calls: polling (worker tasks, between nodes) or thread (a messaging "
        "thread per rank; needs MPI_THREAD_MULTIPLE)",
        one_of(kStealProgress.names()));
  add_common_parameters(*p, "uts");
  return p;
}

AppSpec uts_spec() {
  return {"uts",
          "Unbalanced Tree Search (UTS 2.1 trees, SHA-1 splittable random stream) with work "
          "stealing between MPI ranks",
          uts_parameters(),
          {},
          [](const Teuchos::ParameterList& deck, const Environment& env) { uts_config(deck, env); },
          {},
          uts_deck_memory};
}

namespace {

// The model of uts_memory for a start frontier of \p frontier nodes.
double uts_bytes(double frontier, int threads, double pool) {
  return static_cast<double>(kBaselineBytes) + pool + kUtsFrontierBytes * frontier +
         24.0 * kUtsStackNodes * (threads + 1);
}

}  // namespace

MemoryEstimate uts_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                               std::uint64_t budget) {
  return uts_memory(uts_config(deck, env), env.size(), env.threads(), budget);
}

MemoryEstimate uts_memory(const UtsConfig& cfg, int ranks, int threads, std::uint64_t budget) {
  const double pool = static_cast<double>(cfg.search.pool_bytes);
  const bool binomial_root = cfg.tree.type == UtsTree::Type::binomial;
  const double root = binomial_root ? std::floor(cfg.tree.b0) : 100;
  const double frontier = std::max(root, static_cast<double>(cfg.search.split_nodes) * ranks + 100);
  MemoryEstimate e;
  e.bytes = static_cast<std::uint64_t>(uts_bytes(frontier, threads, pool));
  std::ostringstream b0;
  b0 << cfg.tree.b0;
  e.parts = "the start's frontier of " + std::to_string(static_cast<long long>(frontier)) +
            " nodes " + bytes_text(kUtsFrontierBytes * frontier) + " (Tree/b0 = " + b0.str() +
            ", Search/split_nodes = " + std::to_string(cfg.search.split_nodes) + "), " +
            (threads == 1 ? std::string("1 worker's stack")
                          : std::to_string(threads) + " workers' stacks");
  if (static_cast<double>(e.bytes) > static_cast<double>(budget) && binomial_root) {
    const double room = static_cast<double>(budget) - uts_bytes(0, threads, pool);
    const long long most = static_cast<long long>(room / kUtsFrontierBytes);
    if (most >= 1) e.fits = "A binomial Tree/b0 up to " + std::to_string(most) + " fits";
  }
  return e;
}

namespace {

// The parameters that shape a tree of a's type.
bool same_tree(const UtsTree& a, const UtsTree& b) {
  if (a.type != b.type || a.b0 != b.b0 || a.seed != b.seed || a.granularity != b.granularity)
    return false;
  const bool geo = a.type != UtsTree::Type::binomial, bin = a.type != UtsTree::Type::geometric;
  if (geo && (a.shape != b.shape || a.depth != b.depth)) return false;
  if (bin && (a.q != b.q || a.m != b.m)) return false;
  return a.type != UtsTree::Type::hybrid || a.shift == b.shift;
}

}  // namespace

UtsConfig uts_config(const Teuchos::ParameterList& deck, const Environment& env) {
  const auto& t = deck.sublist("Tree");
  UtsConfig c;
  c.name = t.get<std::string>("name");
  c.tree.type = kUtsTypes.named(t.get<std::string>("type"), "Tree/type");
  c.tree.b0 = t.get<double>("b0");
  c.tree.shape = kUtsShapes.named(t.get<std::string>("shape"), "Tree/shape");
  c.tree.depth = t.get<int>("depth");
  c.tree.q = t.get<double>("q");
  c.tree.m = t.get<int>("m");
  c.tree.seed = t.get<int>("seed");
  c.tree.shift = t.get<double>("shift");
  c.tree.granularity = t.get<int>("granularity");
  if (c.name != "custom") {
    const UtsNamedTree& n = uts_named_tree(c.name);
    if (!same_tree(n.tree, c.tree))
      throw UsageError("Tree/name = " + c.name + " is the sample tree " + n.tree.describe() +
                       ", but the deck's Tree is " + c.tree.describe() +
                       "; give its parameters, or Tree/name = custom for another tree");
  }
  c.tree.check("Tree", c.name != "custom");
  const auto& s = deck.sublist("Search");
  c.repetitions = s.get<int>("repetitions");
  c.search.quantum = s.get<int>("quantum");
  c.search.poll_interval = s.get<int>("poll_interval");
  c.search.split_nodes = s.get<int>("split_nodes");
  const auto& w = deck.sublist("Stealing");
  c.search.steal.enabled = w.get<bool>("enabled");
  c.search.steal.victim = kStealVictims.named(w.get<std::string>("victim"), "Stealing/victim");
  c.search.steal.amount = kStealAmounts.named(w.get<std::string>("amount"), "Stealing/amount");
  c.search.steal.chunk = static_cast<std::size_t>(w.get<int>("chunk"));
  c.search.steal.progress =
      kStealProgress.named(w.get<std::string>("progress"), "Stealing/progress");
  c.search.acquire = c.search.steal.chunk;
  if (c.search.steal.progress == StealProgress::thread)
    env.require_thread_level(MPI_THREAD_MULTIPLE, "Stealing/progress = thread");
  else
    env.require_thread_level(MPI_THREAD_SERIALIZED, "Stealing/progress = polling");
  const std::size_t need = uts_pool_bytes(env.threads());
  c.search.pool_bytes = task_pool_bytes(deck, need);
  if (c.search.pool_bytes < need)
    throw UsageError("Runtime/pool_MiB = " + std::to_string(c.search.pool_bytes >> 20) +
                     " is too small for " + std::to_string(env.threads()) +
                     " worker tasks (0 sizes it from the work)");
  c.profile = deck.sublist("Profile").get<bool>("enabled");
  c.tables = deck.sublist("Output").get<bool>("tables");
  return c;
}

namespace {

// The repetitions as trials (HT_Trials.hpp): a search of the whole tree
// each, its counts checked against the published ones (a sample tree) or the
// first repetition's.
struct Searches {
  static constexpr TrialRegions regions{"UTS: repetition", "UTS: verification"};
  const UtsConfig& cfg;
  Profile& profile;
  MPI_Comm comm;
  UtsOutcome& out;
  std::FILE* log;
  int lanes;
  UtsRankResult r{};
  UtsCounts all{};

  void setup(int) {}
  void run(int rep) {
    const int it = profile.begin_iteration(rep, 0, lanes);
    UtsSearchOptions opt = cfg.search;
    opt.progress = log;  // rank 0's: a line every few seconds
    opt.progress_seconds = progress_seconds();
    opt.progress_label =
        "search " + std::to_string(rep + 1) + "/" + std::to_string(cfg.repetitions);
    r = uts_search(cfg.tree, opt, profile, it, comm);
  }
  bool verifies(int) const { return true; }
  void verify(int rep) {
    all = uts_reduce(r.counts, comm);
    if (rep == 0) {
      out.counts = all;
      const std::string wrong = uts_verify(cfg.name, all);
      if (!wrong.empty()) throw Error(wrong);
    } else if (!(all == out.counts)) {
      throw Error("repetition " + std::to_string(rep + 1) + " counted " + counts_text(all) +
                  ", the first " + counts_text(out.counts));
    }
  }
  void done(int rep, const TrialSeconds& s) {
    // The search's own clock, from the start of its pool to the finish of
    // the last steal: the pool's allocation and the seeding, set-up that
    // uts_search does before it, stay untimed as every driver's set-up is.
    const double secs = max_over_ranks(r.seconds, comm);
    out.seconds.push_back(secs);
    out.mine.push_back(r);
    out.comm.add_trial(s);
    say(log, "search %d/%d: %.3f s, %.4g nodes/s\n", rep + 1, cfg.repetitions, secs,
        static_cast<double>(all.nodes) / secs);
  }
};

}  // namespace

UtsOutcome run_uts(const UtsConfig& cfg, Profile& profile, MPI_Comm comm, std::FILE* log) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  UtsOutcome out;
  Searches k{cfg,
             profile,
             comm,
             out,
             rank == 0 ? log : nullptr,
             Kokkos::DefaultHostExecutionSpace().concurrency()};
  run_trials(k, cfg.repetitions, comm);
  return out;
}

namespace {

// This rank's figures summed over the repetitions, in table order.
std::vector<double> rank_row(const UtsOutcome& out) {
  std::vector<double> v(10, 0.0);
  for (const UtsRankResult& r : out.mine) {
    v[0] += static_cast<double>(r.counts.nodes);
    v[1] += r.busy;
    v[2] += r.idle;
    v[3] += static_cast<double>(r.steal.requests);
    v[4] += static_cast<double>(r.steal.steals);
    v[5] += static_cast<double>(r.steal.served);
    v[6] += static_cast<double>(r.steal.items_sent);
    v[7] += static_cast<double>(r.steal.items_received);
    v[8] += static_cast<double>(r.task_runs);
    v[9] += static_cast<double>(r.steal.token_rounds);
  }
  return v;
}

const char* const kRankColumns[] = {"nodes",     "busy_seconds", "idle_seconds", "steal_requests",
                                    "steals",    "served",       "items_sent",   "items_received",
                                    "task_runs", "token_rounds"};

}  // namespace

void report_uts(const UtsConfig& cfg, const UtsOutcome& out, MPI_Comm comm, std::FILE* f,
                std::FILE* table) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<double> row = rank_row(out);
  std::vector<double> rows(rank == 0 ? row.size() * static_cast<std::size_t>(size) : 0);
  const int n = mpi_int(row.size(), "a rank's row of figures");
  mpi::Gather(row.data(), n, MPI_DOUBLE, rows.data(), n, MPI_DOUBLE, 0, comm);
  if (rank != 0) return;
  const auto& s = out.seconds;
  const std::size_t nc = row.size();
  if (table) {
    std::fprintf(table, "\nper rank, over %d repetition%s:\n%6s", static_cast<int>(s.size()),
                 s.size() == 1 ? "" : "s", "rank");
    for (const char* c : kRankColumns) std::fprintf(table, " %14s", c);
    std::fprintf(table, "\n");
    for (int r = 0; r < size; ++r) {
      std::fprintf(table, "%6d", r);
      for (std::size_t k = 0; k < nc; ++k) {
        const double x = rows[r * nc + k];
        if (k == 1 || k == 2)
          std::fprintf(table, " %14.4f", x);
        else
          std::fprintf(table, " %14.0f", x);
      }
      std::fprintf(table, "\n");
    }
  }
  const double mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  const double best = *std::min_element(s.begin(), s.end());
  const double nodes = static_cast<double>(out.counts.nodes);
  const StealOptions& w = cfg.search.steal;
  std::fprintf(f, "\n%-32s%s\n", "tree:", (cfg.name + ": " + cfg.tree.describe()).c_str());
  std::fprintf(f, "%-32s%s", "stealing:", w.enabled ? "on" : "off");
  if (w.enabled)
    std::fprintf(f, " (victim %s, amount %s%s, progress %s)", victim_name(w.victim),
                 amount_name(w.amount),
                 w.amount == StealAmount::chunk ? (" " + std::to_string(w.chunk)).c_str() : "",
                 progress_name(w.progress));
  std::fprintf(f, ", split %d nodes per rank, quantum %d, poll every %d nodes\n",
               cfg.search.split_nodes, cfg.search.quantum, cfg.search.poll_interval);
  std::fprintf(f, "%-32s%lld\n", "tree_size:", static_cast<long long>(out.counts.nodes));
  std::fprintf(f, "%-32s%lld\n", "tree_depth:", static_cast<long long>(out.counts.depth));
  std::fprintf(f, "%-32s%lld\n", "num_leaves:", static_cast<long long>(out.counts.leaves));
  if (cfg.name != "custom") std::fprintf(f, "%-32s%s\n", "counts:", ("match " + cfg.name).c_str());
  std::fprintf(f, "%-32s%d\n", "repetitions:", static_cast<int>(s.size()));
  std::fprintf(f, "%-32s%.6g\n", "min_time:", best);
  std::fprintf(f, "%-32s%.6g\n", "mean_time:", mean);
  std::fprintf(f, "%-32s%.6g\n", "max_time:", *std::max_element(s.begin(), s.end()));
  std::fprintf(f, "%-32s%.6g\n", "nodes_per_second:", nodes / mean);
  std::fprintf(f, "%-32s%.6g\n", "best_nodes_per_second:", nodes / best);
  // The ranks' share of the work and of the idle time.
  double most = 0, sum = 0, idle = 0;
  for (int r = 0; r < size; ++r) {
    most = std::max(most, rows[r * nc + 1]);
    sum += rows[r * nc + 1];
    idle += rows[r * nc + 2];
  }
  std::fprintf(f, "%-32s%.4f\n", "rank_busy_imbalance:", most > 0 ? 1 - sum / size / most : 0.0);
  std::fprintf(f, "%-32s%.4f\n",
               "rank_idle_fraction:", (sum + idle) > 0 ? idle / (sum + idle) : 0.0);
  std::fflush(f);
}

void write_uts(const UtsConfig& cfg, const UtsOutcome& out, Results& r) {
  r.attribute("uts_tree", cfg.name);
  r.attribute("uts_tree_parameters", cfg.tree.describe());
  const StealOptions& w = cfg.search.steal;
  r.attribute("stealing", std::string(w.enabled ? "on" : "off"));
  r.attribute("steal_victim", std::string(victim_name(w.victim)));
  r.attribute("steal_amount", std::string(amount_name(w.amount)));
  r.attribute("steal_progress", std::string(progress_name(w.progress)));
  r.global("uts/nodes", static_cast<long long>(out.counts.nodes), "1");
  r.global("uts/leaves", static_cast<long long>(out.counts.leaves), "1");
  r.global("uts/depth", static_cast<long long>(out.counts.depth), "1");
  r.global("uts/verified", cfg.name != "custom");
  r.global("uts/seconds", out.seconds, "s");
  std::vector<double> rate;
  for (double s : out.seconds) rate.push_back(static_cast<double>(out.counts.nodes) / s);
  r.global("uts/nodes_per_second", rate, "nodes/s");
  const double mean = std::accumulate(out.seconds.begin(), out.seconds.end(), 0.0) /
                      static_cast<double>(out.seconds.size());
  r.global("uts/mean_nodes_per_second", static_cast<double>(out.counts.nodes) / mean, "nodes/s");
  out.comm.write(r, "comm/uts");
  const std::vector<double> row = rank_row(out);
  for (std::size_t k = 0; k < row.size(); ++k) {
    const std::string name = std::string("uts/rank_") + kRankColumns[k];
    if (k == 1 || k == 2)
      r.per_rank(name, row[k], "s");
    else
      r.per_rank(name, std::llround(row[k]), "1");
  }
}

void uts_driver(AppContext& ctx) {
  const UtsConfig cfg = uts_config(*ctx.deck.params, ctx.env);
  Profile profile(cfg.profile);
  const UtsOutcome out = run_uts(cfg, profile, ctx.env.comm(), stdout);
  // The tables only when asked; the run ends on the summary.
  std::FILE* tables = cfg.tables ? stdout : nullptr;
  if (profile.enabled()) {
    if (tables) profile.print(tables, "search", ctx.env.comm(), true);
    profile.write(ctx.results, "profile/uts", ctx.env.comm());
  }
  report_uts(cfg, out, ctx.env.comm(), stdout, tables);
  write_uts(cfg, out, ctx.results);
}

}  // namespace ht
