// bench_gemm: the task GEMM (Cannon + one Kokkos task per tile) against one
// OpenBLAS dgemm of the same size on the same cores, in one run, alternating
// the two so that both see the same machine; reports GFLOP/s and the ratio.
// The task GEMM is timed through the cannon_gemm driver's own run_gemm(), on
// a deck with the driver's defaults (profile on): what it measures is what a
// user running cannon_gemm gets.
//
//   mpirun -np 1 --bind-to none bench_gemm --n=2048 --tiles=256,512 --kokkos-num-threads=2
//   mpirun -np 4 --oversubscribe --bind-to none bench_gemm --n=2048 --ref-threads=2
//
// --kernels also times one tile product with each candidate tile kernel
// (KokkosBlas::gemm -> BLAS TPL, and KokkosBatched::SerialGemm) on one core.
#include <KokkosBatched_Gemm_Decl.hpp>
#include <KokkosBatched_Gemm_Serial_Impl.hpp>
#include <KokkosBlas3_gemm.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "common/bench_util.hpp"
#include "drivers/HT_GemmDriver.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_OpenBlas.hpp"

namespace {

using ht::bench::median;
using ht::bench::now;

// Ranks other than 0 wait here without spinning, leaving the cores to rank 0.
void idle_until_rank0_done(MPI_Comm comm, bool root) {
  MPI_Request r;
  MPI_Ibarrier(comm, &r);
  int done = 0;
  while (!done) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done && !root) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// One dgemm of n x n on rank 0 with `threads` OpenBLAS threads; seconds.
double reference_dgemm(ht::Block a, ht::Block b, ht::Block c, int threads) {
  ht::set_blas_threads(threads);
  const double t0 = now();
  KokkosBlas::gemm("N", "N", 1.0, a, b, 0.0, c);
  const double t = now() - t0;
  ht::set_blas_threads(1);
  return t;
}

void tile_kernels(long long tile) {
  using Serial =
      Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>>;
  Serial a("a", tile, tile), b("b", tile, tile), c("c", tile, tile);
  Kokkos::deep_copy(a, 0.5);
  Kokkos::deep_copy(b, 0.25);
  const double flop = 2.0 * tile * tile * tile;
  auto rate = [&](auto&& kernel) {
    kernel();  // warm up
    std::vector<double> t;
    for (int i = 0; i < 7; ++i) {
      const double t0 = now();
      kernel();
      t.push_back(now() - t0);
    }
    return flop / median(t) * 1e-9;
  };
  const double blas = rate([&] { KokkosBlas::gemm("N", "N", 1.0, a, b, 1.0, c); });
  const double batched = rate([&] {
    KokkosBatched::SerialGemm<KokkosBatched::Trans::NoTranspose, KokkosBatched::Trans::NoTranspose,
                              KokkosBatched::Algo::Gemm::Blocked>::invoke(1.0, a, b, 1.0, c);
  });
  std::printf(
      "tile kernel, %lld^3 on one core: KokkosBlas::gemm (BLAS TPL) %.1f GFLOP/s, "
      "KokkosBatched::SerialGemm %.1f GFLOP/s, ratio %.2f\n",
      tile, blas, batched, blas / batched);
}

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  long long n = 2048;
  std::vector<long long> tiles{256};
  int reps = 5, ref_threads = env.cores();
  bool kernels = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--n=", 0) == 0)
      n = std::stoll(a.substr(4));
    else if (a.rfind("--tiles=", 0) == 0) {
      tiles.clear();
      for (std::size_t p = 8; p < a.size() + 1;) {
        const std::size_t e = std::min(a.find(',', p), a.size());
        tiles.push_back(std::stoll(a.substr(p, e - p)));
        p = e + 1;
      }
    } else if (a.rfind("--reps=", 0) == 0)
      reps = std::stoi(a.substr(7));
    else if (a.rfind("--ref-threads=", 0) == 0)
      ref_threads = std::stoi(a.substr(14));
    else if (a == "--kernels")
      kernels = true;
    else {
      if (env.rank() == 0) std::fprintf(stderr, "bench_gemm: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  const bool root = env.rank() == 0;
  ht::Block ra, rb, rc;
  if (root) {
    ra = ht::Block("refA", n, n);
    rb = ht::Block("refB", n, n);
    rc = ht::Block("refC", n, n);
    ht::fill_block(ra, 1, 0, 0, 0, n);
    ht::fill_block(rb, 1, 1, 0, 0, n);
  }
  for (const long long tile : tiles) {
    auto deck = Teuchos::rcp(new Teuchos::ParameterList(*ht::gemm_parameters()));
    deck->sublist("GEMM").set("N", static_cast<int>(n));
    deck->sublist("GEMM").set("tile", static_cast<int>(tile));
    deck->sublist("GEMM").set("repetitions", 1);
    const ht::GemmConfig cfg = ht::gemm_config(*deck, env);
    std::vector<double> t_task, t_ref;
    for (int rep = 0; rep < reps; ++rep) {
      // reference first: one dgemm on rank 0's cores while the others sleep
      if (root) t_ref.push_back(reference_dgemm(ra, rb, rc, ref_threads));
      idle_until_rank0_done(env.comm(), root);
      // OpenBLAS' idle workers spin for a while after a call; let them settle
      // before timing the tasks, or they take a core from them.
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      ht::Profile profile(cfg.profile);
      const ht::GemmOutcome out = ht::run_gemm(cfg, profile, env.comm(), nullptr);
      if (!out.check.passed()) {
        if (root) std::fprintf(stderr, "bench_gemm: the task GEMM failed Freivalds' check\n");
        return 1;
      }
      t_task.push_back(out.seconds.front());
    }
    if (root) {
      const double flop = 2.0 * n * n * n;
      const double task = flop / median(t_task) * 1e-9, ref = flop / median(t_ref) * 1e-9;
      std::printf(
          "N = %lld, %d rank%s x %d thread%s, tile %lld: task GEMM %.1f GFLOP/s, "
          "OpenBLAS dgemm (%d threads) %.1f GFLOP/s, ratio %.3f (medians of %d "
          "alternating runs)\n",
          n, env.size(), env.size() > 1 ? "s" : "", env.threads(), env.threads() > 1 ? "s" : "",
          tile, task, ref_threads, ref, task / ref, reps);
      const std::string id = "gemm_" + std::to_string(env.size()) + "x" +
                             std::to_string(env.threads()) + "_tile" + std::to_string(tile);
      const char* m =
          "<CTestMeasurement type=\"numeric/double\" name=\"%s_%s\">%.4g</CTestMeasurement>\n";
      std::printf(m, id.c_str(), "gflops", task);
      std::printf(m, id.c_str(), "ratio_to_dgemm", task / ref);
      std::fflush(stdout);
    }
  }
  if (root && kernels) tile_kernels(tiles.front());
  return 0;
}
