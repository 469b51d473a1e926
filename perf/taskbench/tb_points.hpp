#pragma once
/// \file tb_points.hpp
/// \brief What both modes of our Task Bench implementation share: which rank
/// runs a point (blocks of points, as Task Bench's MPI implementation), a
/// point's producers in the order core validates them, and each worker's
/// scratch.
#include <utility>
#include <vector>

#include "core.h"

namespace tb {

/// The first point of \p rank's block in a graph \p width wide.
inline long first_point(long width, int rank, int ranks) { return rank * width / ranks; }
/// The rank whose block holds point \p p.
inline int owner(long width, long p, int ranks) {
  int r = static_cast<int>(p * ranks / width);
  while (first_point(width, r + 1, ranks) <= p) ++r;  // integer division rounds down
  while (first_point(width, r, ranks) > p) --r;
  return r;
}
/// Whether point \p p runs at \p t.
inline bool active(const TaskGraph& g, long t, long p) {
  return t >= 0 && t < g.timesteps && p >= g.offset_at_timestep(t) &&
         p < g.offset_at_timestep(t) + g.width_at_timestep(t);
}
/// The producers of (t, p), points of t - 1, in the order core's
/// execute_point checks its inputs: the dependence intervals as given, each
/// ascending, those not running at t - 1 left out.
inline std::vector<long> producers(const TaskGraph& g, long t, long p) {
  std::vector<long> out;
  if (t == 0) return out;
  for (const auto& [a, b] : g.dependencies(g.dependence_set_at_timestep(t), p))
    for (long q = a; q <= b; ++q)
      if (active(g, t - 1, q)) out.push_back(q);
  return out;
}

/// Scratch per graph and worker, prepared once: two tasks never run on one
/// worker at once, so a worker's scratch is never shared.
class Scratch {
 public:
  Scratch(const std::vector<TaskGraph>& graphs, int workers) {
    for (const TaskGraph& g : graphs) {
      per_graph_.emplace_back(workers, std::vector<char>(g.scratch_bytes_per_task));
      for (auto& s : per_graph_.back())
        if (!s.empty()) TaskGraph::prepare_scratch(s.data(), s.size());
    }
  }
  std::vector<char>& of(long graph, int worker) { return per_graph_[graph][worker]; }

 private:
  std::vector<std::vector<std::vector<char>>> per_graph_;
};

/// Runs the graphs once; returns nothing, the caller times it.
struct Mode {
  virtual ~Mode() = default;
  virtual void run() = 0;
};

}  // namespace tb
