#include "tb_spawn_mode.hpp"

#include <algorithm>
#include <utility>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"

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

/// A timestep's remote inputs: posts their receives, then tests them,
/// respawning until all have come.  One per rank and timestep, each started
/// after the previous one: several polling tasks would starve one another
/// (Kokkos' ready queue is last in, first out).
struct RecvTask {
  using value_type = void;
  SpawnMode::Shared* sh;
  const SpawnMode::Message* msg;
  MPI_Request* req;
  int n;
  bool posted = false;
  void operator()(ht::TaskMember& m) {
    if (ht::OneCaller::Turn turn{sh->mpi}) {
      if (!posted)
        for (int i = 0; i < n; ++i)
          MPI_Irecv(msg[i].buffer, msg[i].bytes, MPI_BYTE, msg[i].peer, msg[i].tag, sh->comm,
                    &req[i]);
      posted = true;
      int done = 0;
      MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
      if (done) return;
    }
    ht::respawn(this, m, ht::TaskPriority::low);
  }
};

/// One output to another rank, sent once its producer has run; the request is
/// completed by the host at the end of the run.
struct SendTask {
  using value_type = void;
  SpawnMode::Shared* sh;
  char* buffer;
  int bytes, to, tag;
  std::size_t slot;
  void operator()(ht::TaskMember& m) {
    if (ht::OneCaller::Turn turn{sh->mpi})
      MPI_Isend(buffer, bytes, MPI_BYTE, to, tag, sh->comm, &sh->sends[slot]);
    else
      ht::respawn(this, m, ht::TaskPriority::high);
  }
};

}  // namespace

std::size_t SpawnMode::pool_bytes(const App& app, int ranks) {
  // On one rank a graph's tasks are all alive at once: a point, its when_all,
  // and (on several ranks) its messages.
  long most = 0;
  for (const TaskGraph& g : app.graphs)
    most = std::max(most, g.timesteps * ((g.max_width + ranks - 1) / ranks));
  const auto live = static_cast<std::size_t>(4 * most + 64);
  return std::max(ht::TaskRuntime::pool_bytes_for<PointTask>(live),
                  ht::TaskRuntime::pool_bytes_for<RecvTask>(live));
}

SpawnMode::SpawnMode(const App& app, ht::TaskRuntime& rt, MPI_Comm comm, int workers)
    : rt_(rt), scratch_(app.graphs, workers) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &ranks_);
  shared_.comm = comm;
  int* tag_ub = nullptr;
  int has_ub = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &has_ub);
  for (const TaskGraph& g : app.graphs) {
    const long w = g.max_width;
    // A message's tag is its producer's (t, point): every step's messages are
    // in flight at once.
    if (ranks_ > 1 && has_ub && g.timesteps * w > *tag_ub)
      throw ht::UsageError("-mode spawn: -steps x -width = " + std::to_string(g.timesteps * w) +
                           " exceeds MPI's largest tag (" + std::to_string(*tag_ub) + ")");
    plans_.emplace_back();
    Plan& pl = plans_.back();
    pl.g = &g;
    const long first = first_point(w, rank_, ranks_), last = first_point(w, rank_ + 1, ranks_);
    pl.out.assign(static_cast<std::size_t>(g.timesteps * w) * g.output_bytes_per_task, 0);
    pl.in_begin.assign(static_cast<std::size_t>(g.timesteps * w + 1), 0);
    pl.local.resize(static_cast<std::size_t>(g.timesteps * w));
    pl.remote.resize(pl.local.size());
    pl.sends.resize(static_cast<std::size_t>(g.timesteps));
    pl.recvs.resize(static_cast<std::size_t>(g.timesteps));
    pl.recv_msg.resize(pl.recvs.size());
    pl.recv_req.resize(pl.recvs.size());
    for (long t = 0; t < g.timesteps; ++t) {
      for (long p = 0; p < w; ++p) {
        const long k = t * w + p;
        const bool mine = p >= first && p < last;
        if (mine && active(g, t, p))
          for (long q : producers(g, t, p)) {
            pl.in_ptr.push_back(output(pl, t - 1, q));
            pl.in_bytes.push_back(g.output_bytes_per_task);
            const int from = owner(w, q, ranks_);
            (from == rank_ ? pl.local : pl.remote)[k].push_back(q);
            if (from != rank_) pl.recvs[t].emplace_back(q, from);
          }
        pl.in_begin[k + 1] = static_cast<long>(pl.in_ptr.size());
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
      pl.n_sends += pl.sends[t].size();
      for (const auto& [q, from] : pl.recvs[t])
        pl.recv_msg[t].push_back({output(pl, t - 1, q), static_cast<int>(g.output_bytes_per_task),
                                  from, static_cast<int>((t - 1) * w + q)});
      pl.recv_req[t].assign(pl.recv_msg[t].size(), MPI_REQUEST_NULL);
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
  const int bytes = static_cast<int>(g.output_bytes_per_task);
  shared_.sends.assign(pl.n_sends, MPI_REQUEST_NULL);
  std::size_t slot = 0;
  std::vector<ht::Future<void>> prev(static_cast<std::size_t>(w)), cur(prev.size());
  ht::Future<void> last_received;
  std::vector<ht::Future<void>> deps;
  for (long t = 0; t < g.timesteps; ++t) {
    for (const auto& [p, to] : pl.sends[t])  // outputs of t - 1
      rt_.spawn_after(prev[p],
                      SendTask{&shared_, output(pl, t - 1, p), bytes, to,
                               static_cast<int>((t - 1) * w + p), slot++},
                      ht::TaskPriority::high);
    // The receives start polling once this rank has run a point of t - 1
    // (or at once if it ran none), and the previous step's have come.
    ht::Future<void> received;
    if (!pl.recv_msg[t].empty()) {
      std::vector<ht::Future<void>> after;
      for (long p = first; p < last && after.empty(); ++p)
        if (!prev[p].is_null()) after.push_back(prev[p]);
      if (!last_received.is_null()) after.push_back(last_received);
      const RecvTask recv{&shared_, pl.recv_msg[t].data(), pl.recv_req[t].data(),
                          static_cast<int>(pl.recv_msg[t].size())};
      received = after.empty() ? rt_.spawn(recv, ht::TaskPriority::low)
                 : after.size() == 1
                     ? rt_.spawn_after(after[0], recv, ht::TaskPriority::low)
                     : rt_.spawn_after(rt_.when_all(after), recv, ht::TaskPriority::low);
      last_received = received;
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
      if (!pl.remote[k].empty()) deps.push_back(received);
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
  ht::wait_all(shared_.sends);
}

}  // namespace tb
