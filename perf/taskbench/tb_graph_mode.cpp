#include "tb_graph_mode.hpp"

#include <vector>

namespace tb {

GraphMode::GraphMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers,
                     ht::RemoteEdges edges)
    : rt_(rt), scratch_(app.graphs, workers), graph_(comm, edges) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  for (const TaskGraph& g : app.graphs) {
    // Node of (t, p): ids are given in call order, so remember them.
    std::vector<long> id(static_cast<std::size_t>(g.timesteps * g.max_width), -1);
    for (long t = 0; t < g.timesteps; ++t)
      for (long p = g.offset_at_timestep(t); p < g.offset_at_timestep(t) + g.width_at_timestep(t);
           ++p) {
        const TaskGraph* graph = &g;
        Scratch* scratch = &scratch_;
        id[t * g.max_width + p] = graph_.add_node(
            owner(g.max_width, p, ranks), g.output_bytes_per_task,
            [graph, scratch, t, p](const ht::NodeArgs& a) {
              std::vector<char>& s = scratch->of(graph->graph_index, a.worker);
              graph->execute_point(
                  t, p, reinterpret_cast<char*>(a.output), a.output_bytes,
                  const_cast<const char**>(reinterpret_cast<const char* const*>(a.input)),
                  a.input_bytes, static_cast<std::size_t>(a.n_inputs), s.data(), s.size());
            });
        for (long q : producers(g, t, p))
          graph_.add_edge(id[(t - 1) * g.max_width + q], id[t * g.max_width + p]);
      }
  }
  graph_.instantiate();
}

}  // namespace tb
