#include "uts/HT_UtsSearch.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <vector>

#include "comm/HT_Wait.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Phase.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace {

// One worker's private state, owned by the search (a task only points at
// it, so it survives respawns on either task runtime).
struct WorkerState {
  std::vector<UtsNode> stack;
  std::vector<UtsNode> buf;
  UtsCounts counts;
  bool working = false;  // holds work acquired from the pool (pool.idle() owed)
  double busy = 0, idle = 0, idle_since = -1, first = -1, last = 0;
  std::int64_t runs = 0;
  Backoff backoff;
};

struct Search {
  const UtsTree& tree;
  const UtsSearchOptions& opt;
  const Profile& profile;
  StealPool<UtsNode>& pool;
  std::vector<WorkerState> workers;
  // For the progress lines (opt.progress): each worker's nodes, published
  // once a quantum (a relaxed store), and when worker 0 writes the next line.
  std::unique_ptr<std::atomic<std::int64_t>[]> published;
  double start = 0, next_line = 0;
};

// Expands nodes depth-first for one quantum, then respawns; ends at global
// termination.
struct Worker {
  using value_type = void;
  Search* s;
  int w;

  void operator()(TaskMember& member) {
    WorkerState& st = s->workers[static_cast<std::size_t>(w)];
    const double t0 = s->profile.now();
    if (st.first < 0) st.first = t0;
    ++st.runs;
    if (!refill(st, t0)) {
      if (s->pool.done()) {
        st.last = s->profile.now();
        if (st.idle_since >= 0) st.idle += st.last - st.idle_since;
        return;
      }
      st.backoff.pause();  // gives the core away when idle for long
      respawn(this, member);
      return;
    }
    expand(st);
    const double t1 = s->profile.now();
    st.busy += t1 - t0;
    st.last = t1;
    if (s->opt.progress) {
      s->published[w].store(st.counts.nodes, std::memory_order_relaxed);
      if (w == 0 && t1 >= s->next_line) progress(t1);
    }
    respawn(this, member);
  }

  // Work on the stack, or false (idle; idle time accounted).
  bool refill(WorkerState& st, double now) {
    if (!st.stack.empty()) return true;
    if (st.working) {
      s->pool.idle();
      st.working = false;
    }
    const std::size_t n = s->pool.acquire(st.buf.data(), st.buf.size());
    if (n == 0) {
      s->pool.poll();
      if (st.idle_since < 0) st.idle_since = now;
      return false;
    }
    st.working = true;
    st.backoff = Backoff();
    if (st.idle_since >= 0) {
      st.idle += now - st.idle_since;
      st.idle_since = -1;
    }
    st.stack.insert(st.stack.end(), st.buf.begin(),
                    st.buf.begin() + static_cast<std::ptrdiff_t>(n));
    return true;
  }

  void expand(WorkerState& st) {
    const UtsTree& t = s->tree;
    const int poll = s->opt.poll_interval;
    UtsCounts& c = st.counts;
    for (int done = 0; done < s->opt.quantum && !st.stack.empty(); ++done) {
      const UtsNode n = st.stack.back();
      st.stack.pop_back();
      ++c.nodes;
      c.depth = std::max<std::int64_t>(c.depth, n.height);
      const int k = t.children(n);
      if (k == 0) ++c.leaves;
      for (int i = 0; i < k; ++i) st.stack.push_back(t.child(n, i));
      if ((done + 1) % poll == 0) share(st);
    }
  }

  // Rank 0's nodes so far: the other ranks' would take messages.
  void progress(double now) {
    long long nodes = 0;
    for (std::size_t i = 0; i < s->workers.size(); ++i)
      nodes += s->published[i].load(std::memory_order_relaxed);
    std::fprintf(s->opt.progress, "%s: %.1f s, %lld nodes expanded so far on rank 0\n",
                 s->opt.progress_label.c_str(), now - s->start, nodes);
    std::fflush(s->opt.progress);
    s->next_line = now + s->opt.progress_seconds;
  }

  // Lazy splitting: the bottom half of the stack, only when wanted.
  void share(WorkerState& st) {
    s->pool.poll();
    if (!s->pool.wanted() || st.stack.size() < 2) return;
    const std::size_t k = st.stack.size() / 2;
    s->pool.release(st.stack.data(), k);
    st.stack.erase(st.stack.begin(), st.stack.begin() + static_cast<std::ptrdiff_t>(k));
  }
};

// The breadth-first prefix every rank expands alike; rank 0 counts it.
std::vector<UtsNode> start_frontier(const UtsTree& t, std::size_t want, UtsCounts& prefix) {
  std::vector<UtsNode> frontier{t.root()}, next;
  while (!frontier.empty() && frontier.size() < want) {
    next.clear();
    for (const UtsNode& n : frontier) {
      ++prefix.nodes;
      prefix.depth = std::max<std::int64_t>(prefix.depth, n.height);
      const int k = t.children(n);
      if (k == 0) ++prefix.leaves;
      for (int i = 0; i < k; ++i) next.push_back(t.child(n, i));
    }
    frontier.swap(next);
  }
  return frontier;
}

}  // namespace

std::size_t uts_pool_bytes(int workers) {
  return TaskRuntime::pool_bytes_for<Worker>(static_cast<std::size_t>(workers));
}

UtsRankResult uts_search(const UtsTree& tree, const UtsSearchOptions& opt, Profile& profile,
                         int iteration, MPI_Comm comm) {
  Region region("UTS: search");
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int nw = Kokkos::DefaultHostExecutionSpace().concurrency();

  StealPool<UtsNode> pool(comm, nw, opt.steal);
  Search s{tree,
           opt,
           profile,
           pool,
           std::vector<WorkerState>(static_cast<std::size_t>(nw)),
           std::unique_ptr<std::atomic<std::int64_t>[]>(new std::atomic<std::int64_t>[nw]()),
           0,
           0};
  for (auto& w : s.workers) w.buf.resize(std::max<std::size_t>(1, opt.acquire));

  UtsRankResult r;
  UtsCounts prefix;
  if (opt.split_nodes > 0) {
    const auto f = start_frontier(tree, static_cast<std::size_t>(opt.split_nodes) * size, prefix);
    std::vector<UtsNode> mine;
    for (std::size_t i = static_cast<std::size_t>(rank); i < f.size(); i += size)
      mine.push_back(f[i]);
    pool.seed(mine.data(), mine.size());
    if (rank != 0) prefix = UtsCounts{};
  } else if (rank == 0) {
    const UtsNode root = tree.root();
    pool.seed(&root, 1);
  }

  TaskRuntime rt(opt.pool_bytes > 0 ? opt.pool_bytes : uts_pool_bytes(nw), "Runtime/pool_MiB");
  profile.reserve(static_cast<std::size_t>(nw));
  barrier(comm);
  const double t0 = profile.now();
  s.start = t0;
  s.next_line = t0 + s.opt.progress_seconds;
  pool.start();
  for (int w = 0; w < nw; ++w) rt.spawn(Worker{&s, w});
  rt.wait();
  pool.finish();
  r.seconds = profile.now() - t0;

  r.counts = prefix;
  for (std::size_t w = 0; w < s.workers.size(); ++w) {
    const WorkerState& st = s.workers[w];
    r.counts.nodes += st.counts.nodes;
    r.counts.leaves += st.counts.leaves;
    r.counts.depth = std::max(r.counts.depth, st.counts.depth);
    r.busy += st.busy / nw;
    r.idle += st.idle / nw;
    r.task_runs += st.runs;
    // One record per worker: its runs merged, busy = time expanding nodes.
    TaskRecord rec{iteration, static_cast<int>(w), static_cast<int>(w), st.first, st.last,
                   st.busy,   st.counts.nodes};
    if (profile.enabled()) profile.merge(rec);
  }
  r.steal = pool.stats();
  return r;
}

UtsCounts uts_reduce(const UtsCounts& mine, MPI_Comm comm) {
  long long in[2] = {mine.nodes, mine.leaves}, sum[2];
  sum_over_ranks(in, sum, 2, comm);
  UtsCounts all;
  all.nodes = sum[0];
  all.leaves = sum[1];
  all.depth = static_cast<std::int64_t>(max_over_ranks(static_cast<double>(mine.depth), comm));
  return all;
}

}  // namespace ht
