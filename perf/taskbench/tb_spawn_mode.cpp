#include "tb_spawn_mode.hpp"

#include <algorithm>
#include <utility>

#include "comm/HT_Wait.hpp"

namespace tb {

namespace {
struct PointTask {
  using value_type = void;
  const TaskGraph* g;
  Scratch* scratch;
  long t, p;
  char* out;
  const char** in;
  const std::size_t* in_bytes;
  std::size_t n;
  void operator()(ht::TaskMember&) const {
    std::vector<char>& s = scratch->of(g->graph_index, ht::TaskRuntime::worker());
    g->execute_point(t, p, out, g->output_bytes_per_task, in, in_bytes, n, s.data(), s.size());
  }
};
}  // namespace

std::size_t SpawnMode::pool_bytes(const App& app, int ranks) {
  long most = 0;  // on one rank every task of a graph is alive at once
  for (const TaskGraph& g : app.graphs)
    most = std::max(most, g.timesteps * ((g.max_width + ranks - 1) / ranks));
  return ht::TaskRuntime::pool_bytes_for<PointTask>(static_cast<std::size_t>(2 * most + 64));
}

SpawnMode::SpawnMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers)
    : rt_(rt), comm_(comm), scratch_(app.graphs, workers) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &ranks_);
  for (const TaskGraph& g : app.graphs) {
    Plan plan;
    plan.g = &g;
    const long w = g.max_width, first = first_point(w, rank_, ranks_),
               last = first_point(w, rank_ + 1, ranks_);
    plan.out.assign(static_cast<std::size_t>(g.timesteps * w) * g.output_bytes_per_task, 0);
    plans_.push_back(std::move(plan));
    Plan& pl = plans_.back();
    pl.in_begin.assign(static_cast<std::size_t>(g.timesteps * w + 1), 0);
    pl.local.resize(static_cast<std::size_t>(g.timesteps * w));
    pl.sends.resize(static_cast<std::size_t>(g.timesteps));
    pl.recvs.resize(static_cast<std::size_t>(g.timesteps));
    for (long t = 0; t < g.timesteps; ++t) {
      for (long p = 0; p < w; ++p) {
        const long k = t * w + p;
        const bool mine = p >= first && p < last;
        if (mine && active(g, t, p))
          for (long q : producers(g, t, p)) {
            pl.in_ptr.push_back(output(pl, t - 1, q));
            pl.in_bytes.push_back(g.output_bytes_per_task);
            const int from = owner(w, q, ranks_);
            if (from == rank_)
              pl.local[k].push_back(q);
            else
              pl.recvs[t].emplace_back(q, from);
          }
        pl.in_begin[k + 1] = static_cast<long>(pl.in_ptr.size());
        // Outputs of t - 1 that another rank reads at t.
        if (mine && t > 0 && active(g, t - 1, p))
          for (const auto& [a, b] : g.reverse_dependencies(g.dependence_set_at_timestep(t), p))
            for (long c = a; c <= b; ++c)
              if (active(g, t, c) && owner(w, c, ranks_) != rank_)
                pl.sends[t].emplace_back(p, owner(w, c, ranks_));
      }
      for (auto* m : {&pl.sends[t], &pl.recvs[t]}) {
        std::sort(m->begin(), m->end());
        m->erase(std::unique(m->begin(), m->end()), m->end());
      }
    }
  }
}

void SpawnMode::run() {
  for (Plan& plan : plans_) run_graph(plan);
}

void SpawnMode::run_graph(Plan& pl) {
  const TaskGraph& g = *pl.g;
  const long w = g.max_width, first = first_point(w, rank_, ranks_),
             last = first_point(w, rank_ + 1, ranks_);
  std::vector<ht::Future<void>> prev(static_cast<std::size_t>(w)), cur(prev.size());
  std::vector<ht::Future<void>> deps;
  std::vector<MPI_Request> reqs;
  for (long t = 0; t < g.timesteps; ++t) {
    if (!pl.sends[t].empty() || !pl.recvs[t].empty()) {
      rt_.wait();  // the outputs to send are written
      reqs.clear();
      const int bytes = static_cast<int>(g.output_bytes_per_task);
      for (const auto& [q, from] : pl.recvs[t]) {
        reqs.emplace_back();
        MPI_Irecv(output(pl, t - 1, q), bytes, MPI_BYTE, from, static_cast<int>(q), comm_,
                  &reqs.back());
      }
      for (const auto& [p, to] : pl.sends[t]) {
        reqs.emplace_back();
        MPI_Isend(output(pl, t - 1, p), bytes, MPI_BYTE, to, static_cast<int>(p), comm_,
                  &reqs.back());
      }
      ht::wait_all(reqs);
    }
    for (long p = first; p < last; ++p) {
      cur[p] = ht::Future<void>();
      if (!active(g, t, p)) continue;
      const long k = t * w + p;
      const PointTask task{&g,
                           &scratch_,
                           t,
                           p,
                           output(pl, t, p),
                           pl.in_ptr.data() + pl.in_begin[k],
                           pl.in_bytes.data() + pl.in_begin[k],
                           static_cast<std::size_t>(pl.in_begin[k + 1] - pl.in_begin[k])};
      deps.clear();
      for (long q : pl.local[k])
        if (!prev[q].is_null()) deps.push_back(prev[q]);
      if (deps.empty())
        cur[p] = rt_.spawn(task);
      else if (deps.size() == 1)
        cur[p] = rt_.spawn_after(deps[0], task);
      else
        cur[p] = rt_.spawn_after(rt_.when_all(deps), task);
    }
    std::swap(prev, cur);
  }
  rt_.wait();
}

}  // namespace tb
