#pragma once
/// \file tb_spawn_mode.hpp
/// \brief Task Bench with a task spawned per point and timestep, every run:
/// a point waits on its local producers through futures (when_all); where a
/// timestep needs another rank's outputs, the host finishes the tasks so far
/// and exchanges those outputs (MPI_Isend / MPI_Irecv) before spawning it.
/// On one rank the whole run is one graph of futures.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "runtime/HT_TaskRuntime.hpp"
#include "tb_points.hpp"

namespace tb {

class SpawnMode : public Mode {
 public:
  SpawnMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers);
  void run() override;
  /// The task pool one rank needs for \p app.
  static std::size_t pool_bytes(const App& app, int ranks);

 private:
  /// What one rank does for one graph, computed once.
  struct Plan {
    const TaskGraph* g;
    std::vector<char> out;       // timesteps x max_width outputs
    std::vector<long> in_begin;  // per (t, p): its inputs in in_ptr
    std::vector<const char*> in_ptr;
    std::vector<std::size_t> in_bytes;
    std::vector<std::vector<long>> local;  // per (t, p): local producers
    // Per timestep: the messages before it (point, peer), or none.
    std::vector<std::vector<std::pair<long, int>>> sends, recvs;
  };
  void run_graph(Plan& plan);
  char* output(Plan& plan, long t, long p) {
    return plan.out.data() + (t * plan.g->max_width + p) * plan.g->output_bytes_per_task;
  }

  ht::TaskRuntime& rt_;
  MPI_Comm comm_;
  int rank_ = 0, ranks_ = 1;
  Scratch scratch_;
  std::vector<Plan> plans_;
};

}  // namespace tb
