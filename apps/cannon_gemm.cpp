// cannon_gemm: C = A * B on a q x q rank grid by Cannon's algorithm, each
// rank's block product run as Kokkos tasks; validated by Freivalds' check.
//   mpirun -np 4 --bind-to none cannon_gemm input/gemm_default.xml
#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <algorithm>
#include <cstdio>

#include "app/HT_App.hpp"
#include "comm/HT_Wait.hpp"
#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Freivalds.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"

namespace {

using Teuchos::EnhancedNumberValidator;
using Teuchos::rcp;

Teuchos::RCP<const Teuchos::ParameterList> valid_parameters() {
  auto p = rcp(new Teuchos::ParameterList("cannon_gemm"));
  auto& g = p->sublist("GEMM", false, "The product C = A * B of N x N doubles");
  g.set("N", 1024, "matrix order; any N >= 1 (blocks are padded internally)",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 20)));
  g.set("tile", 256, "edge of the square tiles; one task per tile product",
        rcp(new EnhancedNumberValidator<int>(1, 1 << 16)));
  g.set("tasks", 0,
        "tasks per rank and step; 0 gives one task per tile, otherwise tiles are dealt "
        "round-robin to this many tasks",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 20)));
  g.set("overlap", true,
        "move the next step's blocks with nonblocking MPI while the current step computes");
  g.set("repetitions", 3, "multiplications timed; the median is reported",
        rcp(new EnhancedNumberValidator<int>(1, 1000)));
  g.set("seed", 2026, "seed of the matrix entries and of the validation vector",
        rcp(new EnhancedNumberValidator<int>(0, 1 << 30)));
  ht::add_common_parameters(*p, "cannon_gemm");
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

void run(ht::AppContext& ctx) {
  const auto& g = ctx.deck.params->sublist("GEMM");
  const long long n = g.get<int>("N");
  ht::CannonOptions opt;
  opt.tile = g.get<int>("tile");
  opt.tasks = g.get<int>("tasks");
  opt.overlap = g.get<bool>("overlap");
  const int reps = g.get<int>("repetitions");
  const auto seed = static_cast<std::uint64_t>(g.get<int>("seed"));

  ht::SquareGrid grid(ctx.env.comm());
  if (opt.overlap) ctx.env.require_thread_level(MPI_THREAD_SERIALIZED, "GEMM/overlap = true");
  const int q = grid.q();
  const long long nb = ht::block_size(n, q);
  if (nb * nb > (1LL << 31) - 1) {
    throw ht::UsageError("GEMM/N = " + std::to_string(n) + " on " + std::to_string(q * q) +
                         " ranks gives blocks of " + std::to_string(nb) + "^2 > 2^31 - 1 " +
                         "doubles, more than one MPI message can carry; use more ranks");
  }
  const bool root = ctx.env.rank() == 0;
  if (root) {
    std::printf(
        "Cannon GEMM: N = %lld on a %d x %d grid, blocks %lld x %lld, tile %lld, %lld "
        "tasks per rank and step, overlap %s\n",
        n, q, q, nb, nb, opt.tile, ht::tile_task_count(nb, opt.tile, opt.tasks),
        opt.overlap ? "on" : "off");
    std::fflush(stdout);
  }

  ht::TaskRuntime rt(ctx.pool_bytes(ht::tile_pool_bytes(nb, opt.tile, opt.tasks)),
                     "Runtime/pool_MiB");
  const auto alloc = [&](const char* name) {
    return ht::Block(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), nb, nb);
  };
  ht::Block a = alloc("A"), b = alloc("B"), c = alloc("C");
  const long long row0 = grid.row() * nb, col0 = grid.col() * nb;

  ht::Profile profile(ctx.deck.params->sublist("Profile").get<bool>("enabled"));
  opt.profile = &profile;
  ht::Cannon cannon(grid, rt, nb, opt);
  std::vector<double> seconds, gflops;
  std::vector<std::vector<double>> phase(5);  // skew, compute, comm, wait, total
  std::vector<double> hidden, step_compute;
  for (int rep = 0; rep < reps; ++rep) {
    ht::fill_block(a, seed, 0, row0, col0, n);
    ht::fill_block(b, seed, 1, row0, col0, n);
    Kokkos::fence();
    ht::barrier(ctx.env.comm());
    const ht::CannonTimes t = cannon.multiply(a, b, c);
    const double s = ht::max_over_ranks(t.total, ctx.env.comm());
    const double hidden_min = -ht::max_over_ranks(-t.hidden(), ctx.env.comm());
    seconds.push_back(s);
    gflops.push_back(2.0 * n * n * n / s * 1e-9);
    for (auto [i, x] :
         {std::pair{0, t.skew}, {1, t.compute}, {2, t.comm}, {3, t.wait}, {4, t.total}})
      phase[i].push_back(x);
    hidden.push_back(t.hidden());
    step_compute = t.step_compute;
    if (root) {
      std::printf("  repetition %d/%d: %.4f s, %.2f GFLOP/s", rep + 1, reps, s, gflops.back());
      if (opt.overlap && q > 1) std::printf(", communication hidden >= %.0f%%", 100 * hidden_min);
      std::printf("\n");
      std::fflush(stdout);
    }
  }

  // Validation on the unskewed blocks (the shifts moved a and b).
  ht::fill_block(a, seed, 0, row0, col0, n);
  ht::fill_block(b, seed, 1, row0, col0, n);
  Kokkos::fence();
  double validate = 0;
  ht::FreivaldsResult check;
  {
    ht::Phase p("GEMM: validation", validate);
    check = ht::freivalds_check(grid, a, b, c, n, seed);
  }

  const double t_med = median(seconds);
  if (root) {
    std::printf("time %.4f s (median of %d), %.2f GFLOP/s (2 N^3 / t)\n", t_med, reps,
                2.0 * n * n * n / t_med * 1e-9);
    std::printf("validation: Freivalds ||Cx - A(Bx)|| / || |A||B||x| || = %.3e, bound %.3e: %s\n",
                check.error, check.bound, check.passed() ? "PASSED" : "FAILED");
    std::fflush(stdout);
  }

  if (profile.enabled()) {
    profile.print(stdout, "step", ctx.env.comm());
    profile.write(ctx.results, "profile", ctx.env.comm());
  }
  auto& r = ctx.results;
  r.attribute("N", n);
  r.attribute("q", static_cast<long long>(q));
  r.attribute("tile", opt.tile);
  r.attribute("tasks_per_step", ht::tile_task_count(nb, opt.tile, opt.tasks));
  r.attribute("overlap", static_cast<long long>(opt.overlap));
  r.global("gemm/seconds", seconds);
  r.global("gemm/gflops", gflops);
  r.global("validation/freivalds_error", {check.error});
  r.global("validation/freivalds_bound", {check.bound});
  const char* names[] = {"skew", "compute", "communication", "wait", "total"};
  for (int i = 0; i < 5; ++i) r.per_rank(std::string("timings/") + names[i], phase[i]);
  r.per_rank("timings/communication_hidden", hidden);
  r.per_rank("timings/step_compute", step_compute);
  r.per_rank("timings/validation", {validate});

  if (!check.passed()) {
    throw ht::Error("validation failed: Freivalds error " + std::to_string(check.error) +
                    " exceeds the bound " + std::to_string(check.bound));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const ht::AppSpec spec{"cannon_gemm",
                         "C = A * B by Cannon's algorithm on a q x q rank grid, one Kokkos "
                         "task per tile product, validated by Freivalds' check",
                         valid_parameters()};
  return ht::run_app(argc, argv, spec, run);
}
