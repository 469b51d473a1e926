// Level-synchronous top-down BFS with locking Kokkos tasks, as in the hybrid
// MPI+Kokkos-tasks study: per level, NT-1 processing tasks each expand a
// share of the frontier, and one receive task applies remote discoveries as
// they arrive.  Updates of visited, pred and newq take one lock; the slot in
// newq comes from an atomic counter.  The time spent waiting for locks is
// the study's "Locks" column.
//
// The receive task never blocks a worker in MPI: it polls the exchange once
// per run and respawns itself at low priority, so with one thread per rank
// the processing tasks still run; when they are all done it sends the end
// markers and keeps polling until the level is drained.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht::impl {

namespace {

// One rank's BFS state, shared by its tasks.
struct Shared {
  const Csr* g = nullptr;
  std::vector<std::int64_t>* pred = nullptr;
  std::vector<std::uint64_t> seen;  // visited bitmap
  std::vector<std::int64_t> oldq, newq;
  std::atomic<std::int64_t> newq_count{0};
  std::mutex visit_lock;  // visited, pred, newq: the study's locks
  std::mutex comm_lock;   // the exchange: one MPI caller at a time
  std::atomic<std::int64_t> lock_wait_ns{0};
  std::atomic<int> processing_left{0};
  Exchange* ex = nullptr;
  Exchange::Handler apply;
  Profile* profile = nullptr;
  std::vector<TaskRecord> records;  // one per processing task
};

// Locks \p m, adding the time spent waiting (only when contended) to the total.
class TimedLock {
 public:
  TimedLock(std::mutex& m, std::atomic<std::int64_t>& total) : m_(m) {
    if (m_.try_lock()) return;
    const auto t0 = std::chrono::steady_clock::now();
    m_.lock();
    total.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count(),
        std::memory_order_relaxed);
  }
  ~TimedLock() { m_.unlock(); }
  TimedLock(const TimedLock&) = delete;
  TimedLock& operator=(const TimedLock&) = delete;

 private:
  std::mutex& m_;
};

// Marks local vertex j reached from u, unless it was; caller holds visit_lock.
void visit(Shared& s, std::int64_t j, std::int64_t u) {
  std::uint64_t& word = s.seen[j >> 6];
  const std::uint64_t bit = std::uint64_t(1) << (j & 63);
  if (word & bit) return;
  word |= bit;
  (*s.pred)[j] = u;
  s.newq[s.newq_count.fetch_add(1, std::memory_order_relaxed)] = j;
}

struct Process {
  using value_type = void;
  Shared* s;
  std::size_t begin, end;  // share of oldq
  int iteration, task;

  void operator()(TaskMember&) const {
    TaskClock clock(*s->profile, s->records[task], iteration, task, task);
    const Csr& g = *s->g;
    const VertexRange& r = g.range;
    for (std::size_t q = begin; q < end; ++q) {
      const std::int64_t i = s->oldq[q], u = r.global(i);
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t v = g.targets[k];
        if (r.mine(v)) {
          TimedLock l(s->visit_lock, s->lock_wait_ns);
          visit(*s, r.local(v), u);
        } else {
          TimedLock l(s->comm_lock, s->lock_wait_ns);
          s->ex->push(r.owner(v), {v, u}, s->apply);
        }
      }
    }
    clock.items(static_cast<std::int64_t>(end - begin));
    clock.stop();
    s->processing_left.fetch_sub(1, std::memory_order_release);
  }
};
static_assert(sizeof(Process) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes this bound");

struct Receive {
  using value_type = void;
  Shared* s;
  bool ended = false;

  void operator()(TaskMember& member) {
    bool idle = true;
    {
      TimedLock l(s->comm_lock, s->lock_wait_ns);
      if (!ended && s->processing_left.load(std::memory_order_acquire) == 0) {
        s->ex->finish(s->apply);
        ended = true;
      }
      if (ended) {
        if (s->ex->drained(s->apply)) return;  // the level is complete
      } else {
        idle = !s->ex->poll(s->apply);
      }
    }
    // Nothing to do but wait for peers: let the core go for a moment.
    if (ended && idle) idle_sleep();
    ht::respawn(this, member.scheduler(), Kokkos::TaskPriority::Low);
  }
};

class BfsLocking final : public Bfs {
 public:
  BfsLocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt), comm_(comm), tasks_(opt.tasks), ex_(comm, opt.buffer_items) {
    const VertexRange& r = g.range;
    s_.g = &g;
    s_.pred = &res_.pred;
    s_.profile = &profile_of(opt);
    s_.records.resize(std::max(1, opt.tasks - 1));
    s_.seen.resize((r.local_count() + 63) / 64);
    s_.newq.resize(r.local_count());
    s_.oldq.reserve(r.local_count());
    s_.ex = &ex_;
    s_.apply = [this](const Exchange::Item* items, std::size_t n) {
      TimedLock l(s_.visit_lock, s_.lock_wait_ns);
      for (std::size_t k = 0; k < n; ++k)
        visit(s_, s_.g->range.local(items[k].vertex), items[k].parent);
    };
  }

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = s_.g->range;
    res_.reset(r.local_count());
    std::fill(s_.seen.begin(), s_.seen.end(), 0);
    s_.lock_wait_ns = 0;
    s_.newq_count = 0;
    if (r.mine(root)) visit(s_, r.local(root), root);
    s_.oldq.assign(s_.newq.begin(), s_.newq.begin() + s_.newq_count.load());

    const int processing = tasks_ - 1;
    const int group = searches_++;
    for (int level = 0;; ++level) {
      ex_.begin_level(level);
      s_.newq_count = 0;
      s_.processing_left = processing;
      const int iteration = s_.profile->begin_iteration(group, level, processing);
      s_.profile->reserve(processing);
      std::vector<Future<void>> all;
      const std::size_t n = s_.oldq.size();
      for (int t = 0; t < processing; ++t) {
        all.push_back(
            rt_.spawn(Process{&s_, n * t / processing, n * (t + 1) / processing, iteration, t}));
        merge_when_done(rt_, *s_.profile, all.back(), &s_.records[t]);
      }
      all.push_back(rt_.spawn(Receive{&s_}, Kokkos::TaskPriority::Low));
      Future<void> level_done = rt_.when_all(all);
      rt_.wait();
      const std::int64_t found = s_.newq_count.load();
      if (!next_level(res_, ex_, found, comm_)) break;
      s_.oldq.assign(s_.newq.begin(), s_.newq.begin() + found);
    }
    res_.lock_seconds = s_.lock_wait_ns.load() * 1e-9;
    return res_;
  }

 private:
  TaskRuntime& rt_;
  MPI_Comm comm_;
  int tasks_;
  int searches_ = 0;
  Exchange ex_;
  BfsResult res_;
  Shared s_;
};

}  // namespace

std::unique_ptr<Bfs> make_bfs_locking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                      MPI_Comm comm) {
  return std::make_unique<BfsLocking>(g, opt, rt, comm);
}

}  // namespace ht::impl
