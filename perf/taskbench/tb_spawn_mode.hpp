#pragma once
/// \file tb_spawn_mode.hpp
/// \brief Task Bench with a task spawned per point and timestep, every run,
/// all of them up front: a point waits on its producers through futures
/// (when_all).  Remote outputs travel in tasks too: a send task (MPI_Isend)
/// after each producer with a remote consumer, and per timestep one receive
/// task (MPI_Irecv, then MPI_Testall, respawning until all have come) that
/// the step's consumers wait on; MPI calls are made one thread at a time
/// (ht::OneCaller).  No rank waits for another between steps.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "comm/HT_OneCaller.hpp"
#include "runtime/HT_TaskRuntime.hpp"
#include "tb_points.hpp"

namespace tb {

class SpawnMode : public Mode {
 public:
  SpawnMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers);
  void run() override;
  /// The task pool one rank needs for \p app.
  static std::size_t pool_bytes(const App& app, int ranks);

  /// One message: its buffer, size, peer and tag.
  struct Message {
    char* buffer;
    int bytes, peer, tag;
  };
  /// What the message tasks share.
  struct Shared {
    MPI_Comm comm;
    ht::OneCaller mpi;
    std::vector<MPI_Request> sends;  // one per send task of a run
  };

 private:
  /// What one rank does for one graph, computed once.
  struct Plan {
    const TaskGraph* g;
    std::vector<char> out;       // timesteps x max_width outputs
    std::vector<long> in_begin;  // per (t, p): its inputs in in_ptr
    std::vector<const char*> in_ptr;
    std::vector<std::size_t> in_bytes;
    std::vector<std::vector<long>> local, remote;  // per (t, p): producers
    // Per timestep t: the outputs of t - 1 received (point, rank) and sent.
    std::vector<std::vector<std::pair<long, int>>> sends, recvs;
    std::vector<std::vector<Message>> recv_msg;  // per timestep
    std::vector<std::vector<MPI_Request>> recv_req;
    std::size_t n_sends = 0;
  };
  void run_graph(Plan& plan);
  char* output(Plan& plan, long t, long p) {
    return plan.out.data() + (t * plan.g->max_width + p) * plan.g->output_bytes_per_task;
  }

  ht::TaskRuntime& rt_;
  int rank_ = 0, ranks_ = 1;
  Scratch scratch_;
  Shared shared_;
  std::vector<Plan> plans_;
};

}  // namespace tb
