#include "drivers/HT_GemmDriver.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <string>

#include "comm/HT_Grid2D.hpp"
#include "comm/HT_Wait.hpp"
#include "drivers/HT_Log.hpp"
#include "drivers/HT_Trials.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "io/HT_Results.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {
using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;
}  // namespace

Teuchos::RCP<const Teuchos::ParameterList> gemm_parameters() {
  const CannonOptions defaults;
  auto p = rcp(new Teuchos::ParameterList("cannon_gemm"));
  auto& g = p->sublist("GEMM", false, "The product C = A * B of N x N doubles");
  g.set("N", 1024, "matrix order; any N >= 1 (blocks are padded internally)",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 20)));
  g.set("tile", static_cast<int>(defaults.tile),
        "edge of the square tiles; one task per tile product",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("tasks", defaults.tasks,
        "tasks per rank and step; 0 gives one task per tile, otherwise tiles are dealt "
        "round-robin to this many tasks",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));
  g.set("overlap", defaults.overlap,
        "move the next step's blocks with nonblocking MPI while the current step computes");
  g.set("repetitions", 3, "multiplications timed; the median is reported",
        rcp(new EnhancedNumberValidator<int>(1, 1000)));
  g.set("seed", 2026, "seed of the matrix entries and of the validation vector",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 30)));
  add_common_parameters(*p, "cannon_gemm");
  return p;
}

AppSpec gemm_spec() {
  return {
      "cannon_gemm",
      "C = A * B by Cannon's algorithm on a q x q rank grid, one Kokkos task per tile "
      "product, validated by Freivalds' check",
      gemm_parameters(),
      {},
      [](const Teuchos::ParameterList& deck, const Environment& env) { gemm_config(deck, env); },
      {},
      gemm_deck_memory};
}

namespace {

// The model of gemm_memory for blocks of nb rows on a q x q grid.
double gemm_bytes(long long nb, int q, double pool) {
  const double blocks = q > 1 ? 5 : 3, b = static_cast<double>(nb);
  return static_cast<double>(kBaselineBytes) + pool + 8 * blocks * b * b + 7 * 8 * b * q;
}

}  // namespace

MemoryEstimate gemm_deck_memory(const Teuchos::ParameterList& deck, const Environment& env,
                                std::uint64_t budget) {
  return gemm_memory(gemm_config(deck, env), budget);
}

MemoryEstimate gemm_memory(const GemmConfig& cfg, std::uint64_t budget) {
  const double pool = static_cast<double>(cfg.pool_bytes), b = static_cast<double>(cfg.block);
  MemoryEstimate e;
  e.bytes = static_cast<std::uint64_t>(gemm_bytes(cfg.block, cfg.q, pool));
  e.parts = "GEMM/N = " + std::to_string(cfg.n) + ": " + (cfg.q > 1 ? "5" : "3") + " blocks of " +
            std::to_string(cfg.block) + "^2 doubles, " + bytes_text(8 * b * b) + " each";
  if (static_cast<double>(e.bytes) <= static_cast<double>(budget)) return e;
  long long lo = 0, hi = cfg.block;  // the largest block that fits, by bisection
  while (lo < hi) {
    const long long mid = (lo + hi + 1) / 2;
    if (gemm_bytes(mid, cfg.q, pool) <= static_cast<double>(budget))
      lo = mid;
    else
      hi = mid - 1;
  }
  const int ranks = cfg.q * cfg.q;
  e.fits = lo > 0 ? "GEMM/N = " + std::to_string(lo * cfg.q) + " fits on " + std::to_string(ranks) +
                        (ranks == 1 ? " rank" : " ranks")
                  : "no GEMM/N fits";
  for (int q = cfg.q + 1; q <= 4096; ++q) {
    if (gemm_bytes(block_size(cfg.n, q), q, pool) <= static_cast<double>(budget)) {
      e.fits += "; N = " + std::to_string(cfg.n) + " would need " + std::to_string(q * q) +
                " ranks (" + std::to_string(q) + " x " + std::to_string(q) +
                ") with this much memory each";
      break;
    }
  }
  return e;
}

GemmConfig gemm_config(const Teuchos::ParameterList& deck, const Environment& env) {
  const auto& g = deck.sublist("GEMM");
  GemmConfig c;
  c.n = g.get<int>("N");
  c.cannon.tile = g.get<int>("tile");
  c.cannon.tasks = g.get<int>("tasks");
  c.cannon.overlap = g.get<bool>("overlap");
  c.repetitions = g.get<int>("repetitions");
  c.seed = static_cast<std::uint64_t>(g.get<int>("seed"));
  c.profile = deck.sublist("Profile").get<bool>("enabled");
  c.tables = deck.sublist("Output").get<bool>("tables");
  c.q = cannon_grid(env.size()).rows;  // UsageError naming usable rank counts
  if (c.cannon.overlap) env.require_thread_level(MPI_THREAD_SERIALIZED, "GEMM/overlap = true");
  c.block = block_size(c.n, c.q);
  if (c.block * c.block > (1LL << 31) - 1) {
    throw UsageError("GEMM/N = " + std::to_string(c.n) + " on " + std::to_string(c.q * c.q) +
                     " ranks gives blocks of " + std::to_string(c.block) + "^2 > 2^31 - 1 " +
                     "doubles, more than one MPI message can carry; use more ranks");
  }
  c.pool_bytes = task_pool_bytes(deck, tile_pool_bytes(c.block, c.cannon.tile, c.cannon.tasks));
  return c;
}

double GemmOutcome::median_seconds() const {
  std::vector<double> v = seconds;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

namespace {

// Cannon's multiplication as trials (HT_Trials.hpp): fresh operands each
// time (the shifts move them), the last product checked by Freivalds.
struct Multiplications {
  static constexpr TrialRegions regions{"GEMM: multiplication", "GEMM: validation"};
  const GemmConfig& cfg;
  const Grid2D& grid;
  Cannon& cannon;
  GemmOutcome& out;
  Block a, b, c;
  long long row0, col0;
  std::FILE* log;
  CannonTimes t;

  void fill() {
    fill_block(a, cfg.seed, 0, row0, col0, cfg.n);
    fill_block(b, cfg.seed, 1, row0, col0, cfg.n);
    Kokkos::fence();
  }
  void setup(int) { fill(); }
  void run(int) { t = cannon.multiply(a, b, c); }
  // The check is O(N^2) but needs the operands again: the last product only.
  bool verifies(int rep) const { return rep == cfg.repetitions - 1; }
  void verify(int) {
    fill();  // the unskewed blocks (the shifts moved a and b)
    out.check = freivalds_check(grid, a, b, c, cfg.n, cfg.seed);
  }
  void done(int rep, const TrialSeconds& s) {
    const double n = static_cast<double>(cfg.n);
    const double hidden_min = -max_over_ranks(-t.hidden(), grid.comm());
    out.seconds.push_back(s.kernel);
    out.gflops.push_back(2.0 * n * n * n / s.kernel * 1e-9);
    const double phase[5] = {t.skew, t.compute, t.comm, t.wait, t.total};
    for (int i = 0; i < 5; ++i) out.phases[i].push_back(phase[i]);
    out.hidden.push_back(t.hidden());
    out.step_compute = t.step_compute;
    out.comm.add_trial(s);
    out.comm.add_steps(t.step_comm);
    if (verifies(rep)) out.validate_seconds = s.verify;
    say(log, "  repetition %d/%d: %.4f s, %.2f GFLOP/s", rep + 1, cfg.repetitions, s.kernel,
        out.gflops.back());
    if (cfg.cannon.overlap && cfg.q > 1)
      say(log, ", communication hidden >= %.0f%%", 100 * hidden_min);
    say(log, "\n");
  }
};

}  // namespace

GemmOutcome run_gemm(const GemmConfig& cfg, Profile& profile, MPI_Comm comm, std::FILE* log) {
  Grid2D grid(comm, {cfg.q, cfg.q});
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) log = nullptr;
  const long long n = cfg.n, nb = cfg.block;
  say(log,
      "Cannon GEMM: N = %lld on a %d x %d grid, blocks %lld x %lld, tile %lld, %lld tasks per "
      "rank and step, overlap %s\n",
      n, cfg.q, cfg.q, nb, nb, cfg.cannon.tile,
      tile_task_count(nb, cfg.cannon.tile, cfg.cannon.tasks), cfg.cannon.overlap ? "on" : "off");

  TaskRuntime rt(cfg.pool_bytes, "Runtime/pool_MiB");
  // All three first touched here, outside the timed multiplications: a
  // fresh page costs a fault (gemm/HT_Cannon.hpp), which would be timed.
  const auto fresh = [&](const char* name) { return Block(std::string(name), nb, nb); };
  Block a = fresh("A"), b = fresh("B"), c = fresh("C");
  const long long row0 = grid.row() * nb, col0 = grid.col() * nb;

  CannonOptions opt = cfg.cannon;
  opt.profile = &profile;
  Cannon cannon(grid, rt, nb, opt);
  GemmOutcome out;
  Multiplications k{cfg, grid, cannon, out, a, b, c, row0, col0, log, {}};
  run_trials(k, cfg.repetitions, grid.comm());
  return out;
}

void report_gemm(const GemmConfig& cfg, const GemmOutcome& out, std::FILE* f) {
  const double n = static_cast<double>(cfg.n), t = out.median_seconds();
  say(f, "time %.4f s (median of %d), %.2f GFLOP/s (2 N^3 / t)\n", t, cfg.repetitions,
      2.0 * n * n * n / t * 1e-9);
  say(f, "validation: Freivalds ||Cx - A(Bx)|| / || |A||B||x| || = %.3e, bound %.3e: %s\n",
      out.check.error, out.check.bound, out.check.passed() ? "PASSED" : "FAILED");
}

void write_gemm(const GemmConfig& cfg, const GemmOutcome& out, Results& r) {
  r.attribute("N", cfg.n);
  r.attribute("q", static_cast<long long>(cfg.q));
  r.attribute("tile", cfg.cannon.tile);
  r.attribute("tasks_per_step", tile_task_count(cfg.block, cfg.cannon.tile, cfg.cannon.tasks));
  r.attribute("overlap", static_cast<long long>(cfg.cannon.overlap));
  const double n = static_cast<double>(cfg.n), t = out.median_seconds();
  r.global("gemm/seconds", out.seconds, "s");
  r.global("gemm/gflops", out.gflops, "GFLOP/s");
  r.global("gemm/median_seconds", t, "s");
  r.global("gemm/median_gflops", 2.0 * n * n * n / t * 1e-9, "GFLOP/s");
  r.global("gemm/freivalds_error", out.check.error, "1");
  r.global("gemm/freivalds_bound", out.check.bound, "1");
  r.global("gemm/valid", out.check.passed());
  const char* names[] = {"skew", "compute", "communication", "wait", "total"};
  for (int i = 0; i < 5; ++i)
    r.per_rank_row(std::string("gemm/") + names[i] + "_seconds", out.phases[i], "s");
  r.per_rank_row("gemm/communication_hidden", out.hidden, "1");
  r.per_rank_row("gemm/step_compute_seconds", out.step_compute, "s");
  r.per_rank("gemm/validate_seconds", out.validate_seconds, "s");
  out.comm.write(r, "comm/gemm");
}

void gemm_driver(AppContext& ctx) {
  const GemmConfig cfg = gemm_config(*ctx.deck.params, ctx.env);
  Profile profile(cfg.profile);
  const GemmOutcome out = run_gemm(cfg, profile, ctx.env.comm(), stdout);
  // The table only when asked; the run ends on the summary.
  if (profile.enabled()) {
    if (cfg.tables) profile.print(stdout, "step", ctx.env.comm(), true);
    profile.write(ctx.results, "profile/gemm", ctx.env.comm());
  }
  if (ctx.env.rank() == 0) report_gemm(cfg, out, stdout);
  write_gemm(cfg, out, ctx.results);
  if (!out.check.passed()) {
    throw Error("validation failed: Freivalds error " + std::to_string(out.check.error) +
                " exceeds the bound " + std::to_string(out.check.bound));
  }
}

}  // namespace ht
