#include "gemm/HT_TileGemm.hpp"

#include <KokkosBlas3_gemm.hpp>
#include <vector>

namespace ht {

namespace {

#ifdef KOKKOS_ENABLE_SERIAL
using TileSpace = Kokkos::Device<Kokkos::Serial, Kokkos::HostSpace>;
#else
using TileSpace = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;
#endif
// Unmanaged: a task functor is destroyed inside the parallel region, where
// Kokkos does not track View references.
using TileView =
    Kokkos::View<double**, Kokkos::LayoutLeft, TileSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Tiles first, first + stride, ... (< count) of C = beta C + A * B.
struct TileProducts {
  using value_type = void;
  TileView a, b, c;
  double beta = 0;
  long long tile = 0, tiles_per_row = 0, first = 0, stride = 1, count = 0;
  ProgressPump* pump = nullptr;  // moved between tiles, if any
  const Profile* profile = nullptr;
  TaskRecord* record = nullptr;
  int iteration = 0;
  bool lane_is_task = false;  // the profile's lane: the task, or the worker

  void operator()(TaskMember&) const {
    const int task = static_cast<int>(first);
    TaskClock clock(*profile, *record, iteration, lane_is_task ? task : TaskRuntime::worker(),
                    task);
    const long long n = c.extent(0), m = c.extent(1);
    for (long long t = first; t < count; t += stride) {
      const long long i0 = (t % tiles_per_row) * tile, j0 = (t / tiles_per_row) * tile;
      const auto rows = Kokkos::make_pair(i0, i0 + tile < n ? i0 + tile : n);
      const auto cols = Kokkos::make_pair(j0, j0 + tile < m ? j0 + tile : m);
      KokkosBlas::gemm("N", "N", 1.0, Kokkos::subview(a, rows, Kokkos::ALL),
                       Kokkos::subview(b, Kokkos::ALL, cols), beta, Kokkos::subview(c, rows, cols));
      if (pump) pump->pump();
      clock.items(1);
    }
    clock.stop();
  }
};

}  // namespace

long long tile_task_count(long long rows, long long tile, int tasks) {
  const long long per_row = (rows + tile - 1) / tile, tiles = per_row * per_row;
  return tasks > 0 && tasks < tiles ? tasks : tiles;
}

Future<void> spawn_tile_products(TaskRuntime& rt, Block a, Block b, Block c, double beta,
                                 long long tile, int tasks, ProgressPump* pump,
                                 const TileProfile& prof) {
  const long long per_row = (c.extent(0) + tile - 1) / tile, tiles = per_row * per_row;
  const long long n_tasks = tile_task_count(c.extent(0), tile, tasks);
  Profile& p = profile_or_off(prof.profile);
  const bool lane_is_task = tasks > 0;
  const int lanes = lane_is_task ? static_cast<int>(n_tasks) : Kokkos::OpenMP().concurrency();
  const int iteration = p.begin_iteration(prof.group, prof.step, lanes);
  static thread_local std::vector<TaskRecord> unused;
  std::vector<TaskRecord>& records = prof.records ? *prof.records : unused;
  records.resize(static_cast<std::size_t>(n_tasks));
  p.reserve(static_cast<std::size_t>(n_tasks));
  std::vector<Future<void>> futures;
  futures.reserve(n_tasks);
  for (long long k = 0; k < n_tasks; ++k) {
    TileProducts task;
    task.a = a;
    task.b = b;
    task.c = c;
    task.beta = beta;
    task.tile = tile;
    task.tiles_per_row = per_row;
    task.first = k;
    task.stride = n_tasks;
    task.count = tiles;
    task.pump = pump;
    task.profile = &p;
    task.record = &records[k];
    task.iteration = iteration;
    task.lane_is_task = lane_is_task;
    futures.push_back(rt.spawn(task));
    merge_when_done(rt, p, futures.back(), &records[k]);
  }
  return rt.when_all(futures);
}

}  // namespace ht

namespace ht {
std::size_t tile_pool_bytes(long long rows, long long tile, int tasks) {
  // Each task, the merge of its record, and their when_all.
  const auto n = static_cast<std::size_t>(tile_task_count(rows, tile, tasks));
  return TaskRuntime::pool_bytes_for<TileProducts>(n + 1) + profile_pool_bytes(n);
}
}  // namespace ht
