#pragma once
/// \file HT_TileGemm.hpp
/// \brief C = beta C + A * B on one rank's blocks as a Kokkos task graph.
///
/// C is cut into tile x tile tiles; the task for tile (i, j) computes
/// C_ij += A_i: * B_:j (the full-depth panel product), so no two tasks write the
/// same memory and no lock is needed.  With \c tasks > 0 the tiles are dealt
/// round-robin to that many tasks (the seed study ran 40 per rank).
///
/// Kernel: KokkosBlas::gemm on column-major host views, which Kokkos Kernels
/// hands to the BLAS TPL (OpenBLAS dgemm, held to one thread by the
/// Environment, so a task is one core): ~50 GFLOP/s per core here, against
/// ~9 for KokkosBatched::SerialGemm (`bench_gemm --kernels` in perf/gemm
/// measures both).  The views are in the Serial execution space where it is
/// built, so that where Kokkos Kernels uses its own kernel instead of the TPL
/// that kernel runs serially too, not as a nested parallel region of the
/// task's OpenMP worker.
#include "comm/HT_ProgressPump.hpp"
#include "gemm/HT_Matrix.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

/// Where the tile tasks of one step record their timings (see HT_Profile.hpp):
/// one record per task; the lane is the task (tasks > 0) or the worker thread.
struct TileProfile {
  Profile* profile = nullptr;
  std::vector<TaskRecord>* records = nullptr;  ///< resized to the task count
  int group = 0, step = 0;
};

/// Spawns the tile products of C = beta C + A * B; returns their when_all.
/// After each tile a task calls \p pump (may be null) to move MPI transfers.
Future<void> spawn_tile_products(TaskRuntime& rt, Block a, Block b, Block c, double beta,
                                 long long tile, int tasks, ProgressPump* pump,
                                 const TileProfile& prof = {});

/// Number of tasks spawn_tile_products() creates.
long long tile_task_count(long long rows, long long tile, int tasks);

}  // namespace ht

namespace ht {
/// Task pool bytes one step of spawn_tile_products() needs.
std::size_t tile_pool_bytes(long long rows, long long tile, int tasks);
}  // namespace ht
