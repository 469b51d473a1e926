#pragma once
/// \file tb_graph_mode.hpp
/// \brief Task Bench as one ht::TaskGraph, defined and instantiated once
/// (untimed), then replayed: every point of every timestep of every graph
/// (-and) is a node, its producers are its edges, remote ones persistent MPI
/// requests.
#include <mpi.h>

#include <memory>

#include "comm/HT_TaskGraph.hpp"
#include "tb_points.hpp"

namespace tb {

class GraphMode : public Mode {
 public:
  GraphMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers, ht::RemoteEdges edges);
  void run() override { graph_.replay(rt_); }

 private:
  ht::TaskRuntime& rt_;
  Scratch scratch_;
  ht::TaskGraph graph_;
};

}  // namespace tb
