// Task Bench (Slaughter et al., SC20) on HybridTasks: Task Bench's core
// library defines the graphs (-steps, -width, -type, -kernel, -and, ...),
// runs each task's kernel and checks each task's inputs; this program runs
// them on every rank's task runtime, in one of two modes:
//   -mode graph   one ht::TaskGraph, defined and instantiated once, replayed
//                 (-edges messages|persistent: how its remote edges travel)
//   -mode spawn   a task spawned per point and timestep, futures, when_all
// Like Task Bench's MPI implementations it runs the graphs twice and reports
// the second run (core's report: elapsed time, FLOP/s).
//   mpirun -np 2 --bind-to none ht_taskbench -mode graph -steps 1000 \
//          -width 2 -type stencil_1d -kernel compute_bound -iter 4096 \
//          --kokkos-num-threads=1
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "comm/HT_TaskGraph.hpp"
#include "core.h"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "tb_graph_mode.hpp"
#include "tb_spawn_mode.hpp"

namespace {

/// The value of option \p key (its last one), \p fallback if absent; it
/// must be one of \p accepted ("a, b").
std::string choice(int argc, char** argv, const char* key, const std::string& fallback,
                   const std::string& accepted) {
  std::string v = fallback;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], key) == 0) {
      if (i + 1 == argc) throw ht::UsageError(std::string(key) + " needs a value: " + accepted);
      v = argv[i + 1];
    }
  if ((", " + accepted + ",").find(", " + v + ",") == std::string::npos)
    throw ht::UsageError(std::string(key) + " = " + v + ": accepted: " + accepted);
  return v;
}

int run(ht::Environment& env, int argc, char** argv) {
  const std::string mode = choice(argc, argv, "-mode", "graph", "graph, spawn");
  const ht::RemoteEdges edges =
      choice(argc, argv, "-edges", "messages", "messages, persistent") == "persistent"
          ? ht::RemoteEdges::persistent
          : ht::RemoteEdges::messages;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "-h") == 0 && env.rank() == 0)
      std::printf(
          "HybridTasks options:\n  %-18s graph (replayed ht::TaskGraph, default) or spawn "
          "(tasks spawned per timestep)\n  %-18s messages (MPI_Isend/Irecv, default) or "
          "persistent (MPI_Send_init/Recv_init): how the graph's remote edges travel\n"
          "  %-18s threads per rank\n",
          "-mode MODE", "-edges HOW", "--kokkos-num-threads=N");
  App app(argc, argv);  // core's options; -h prints them and exits
  if (env.rank() == 0) {
    app.display();
    std::printf("HybridTasks %s mode, %s, %d ranks x %d threads\n", mode.c_str(),
                ht::TaskRuntime::name(), env.size(), env.threads());
  }
  const std::size_t pool =
      std::max(ht::TaskGraph::pool_bytes(), tb::SpawnMode::pool_bytes(app, env.size()));
  ht::TaskRuntime rt(pool, "the task pool (sized from the graphs)");
  std::unique_ptr<tb::Mode> m;
  if (mode == "graph")
    m = std::make_unique<tb::GraphMode>(app, rt, env.comm(), env.threads(), edges);
  else
    m = std::make_unique<tb::SpawnMode>(app, rt, env.comm(), env.threads());
  double elapsed = 0;
  for (int iter = 0; iter < 2; ++iter) {
    MPI_Barrier(env.comm());
    const double start = MPI_Wtime();
    m->run();
    MPI_Barrier(env.comm());
    elapsed = MPI_Wtime() - start;
  }
  if (env.rank() == 0) app.report_timing(elapsed);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  try {
    return run(env, argc, argv);
  } catch (const ht::UsageError& e) {
    if (env.rank() == 0) std::fprintf(stderr, "ht_taskbench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    ht::abort_all(std::string("error: ") + e.what());
  }
}
