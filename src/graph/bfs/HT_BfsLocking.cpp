// Level-synchronous top-down BFS with locking Kokkos tasks, as in the hybrid
// MPI+Kokkos-tasks study: per level, NT-1 processing tasks each expand a
// share of the frontier, and one receive task applies remote discoveries as
// they arrive.  Updates of visited, pred and newq take one lock; the slot in
// newq comes from an atomic counter.  The time spent waiting for locks is
// the study's "Locks" column.
//
// The receive task never blocks a worker in MPI: it polls the exchange once
// per run and respawns itself at low priority, so with one thread per rank
// the processing tasks still run; when they are all done it ends its part
// of the level (finish) and keeps polling until the level is drained.
#include <algorithm>
#include <atomic>
#include <mutex>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/bfs/impl/HT_Level.hpp"
#include "graph/impl/HT_ChunkTask.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht::impl {

namespace {

// One rank's BFS state, shared by its tasks.
struct Shared {
  const Csr* g = nullptr;
  std::vector<std::int64_t>* pred = nullptr;
  Bitmap seen;  // visited
  std::vector<std::int64_t> oldq, newq;
  HeldCharge queues_held{Held::search};  // oldq's and newq's bytes
  std::atomic<std::int64_t> newq_count{0};
  std::mutex visit_lock;             // visited, pred, newq: the study's locks
  std::mutex comm_lock;              // the exchange: one MPI caller at a time
  std::atomic<double> lock_wait{0};  // seconds
  std::atomic<int> processing_left{0};
  Exchange* ex = nullptr;
  Exchange::Handler apply;
  Profile* prof = nullptr;
  std::vector<TaskRecord> records;  // one per processing task
};

// Locks \p m, adding the time spent waiting (only when contended) to the total.
class TimedLock {
 public:
  TimedLock(std::mutex& m, std::atomic<double>& total) : m_(m) {
    if (m_.try_lock()) return;
    const double t0 = steady_seconds();
    m_.lock();
    const double waited = steady_seconds() - t0;
    for (double t = total.load(std::memory_order_relaxed);
         !total.compare_exchange_weak(t, t + waited, std::memory_order_relaxed);) {
    }
  }
  ~TimedLock() { m_.unlock(); }
  TimedLock(const TimedLock&) = delete;
  TimedLock& operator=(const TimedLock&) = delete;

 private:
  std::mutex& m_;
};

// Marks local vertex j reached from u, unless it was; caller holds visit_lock.
void visit(Shared& s, std::int64_t j, std::int64_t u) {
  if (!s.seen.set_new(j)) return;
  (*s.pred)[j] = u;
  s.newq[s.newq_count.fetch_add(1, std::memory_order_relaxed)] = j;
}

// Processing task t of n: share t of oldq, on a profile lane of its own.
struct ProcessTask {
  using value_type = void;
  Shared* s;
  std::size_t share, shares;
  int iteration;

  void operator()(TaskMember&) const {
    static_assert(sizeof(ProcessTask) <= kLargestTaskBytes, "BfsVariant::pool_bytes() assumes it");
    const int t = static_cast<int>(share);
    TaskClock clock(*s->prof, s->records[share], iteration, t, t);
    const Csr& g = *s->g;
    const VertexRange& r = g.range;
    const std::size_t q0 = s->oldq.size() * share / shares;
    const std::size_t q1 = s->oldq.size() * (share + 1) / shares;
    for (std::size_t q = q0; q < q1; ++q) {
      const std::int64_t i = s->oldq[q], u = r.global(i);
      for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t v = g.targets[k];
        if (r.mine(v)) {
          TimedLock l(s->visit_lock, s->lock_wait);
          visit(*s, r.local(v), u);
        } else {
          TimedLock l(s->comm_lock, s->lock_wait);
          s->ex->push(r.owner(v), {v, u}, s->apply);
        }
      }
    }
    s->processing_left.fetch_sub(1, std::memory_order_release);
    clock.items(static_cast<std::int64_t>(q1 - q0));
    clock.stop();
  }
};

struct Receive {
  using value_type = void;
  Shared* s;
  bool ended = false;

  void operator()(TaskMember& member) {
    bool idle = true;
    {
      TimedLock l(s->comm_lock, s->lock_wait);
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
    ht::respawn(this, member, TaskPriority::low);
  }
};

class BfsLocking final : public Bfs {
 public:
  BfsLocking(const Csr& g, const BfsOptions& opt, TaskRuntime& rt, MPI_Comm comm)
      : rt_(rt), tasks_(opt.tasks), ex_(comm, opt.buffer_items), level_(ex_, res_, comm) {
    const VertexRange& r = g.range;
    s_.g = &g;
    s_.pred = &res_.pred;
    s_.prof = &profile_or_off(opt.profile);
    s_.records.resize(std::max(1, opt.tasks - 1));
    s_.seen.resize(r.local_count());
    s_.newq.resize(r.local_count());
    s_.oldq.reserve(r.local_count());
    s_.queues_held.set(static_cast<std::int64_t>((s_.oldq.capacity() + s_.newq.capacity()) *
                                                 sizeof(std::int64_t)));
    s_.ex = &ex_;
    s_.apply = [this](const Exchange::Item* items, std::size_t n) {
      TimedLock l(s_.visit_lock, s_.lock_wait);
      for (std::size_t k = 0; k < n; ++k)
        visit(s_, s_.g->range.local(items[k].vertex), items[k].value);
    };
  }

  const BfsResult& search(std::int64_t root) override {
    const VertexRange& r = s_.g->range;
    res_.reset(r.local_count());
    s_.seen.clear();
    s_.lock_wait = 0;
    s_.newq_count = 0;
    if (r.mine(root)) visit(s_, r.local(root), root);
    s_.oldq.assign(s_.newq.begin(), s_.newq.begin() + s_.newq_count.load());

    const int processing = tasks_ - 1;
    const int group = searches_++;
    for (int level = 0;; ++level) {
      level_.begin(level);
      s_.newq_count = 0;
      s_.processing_left = processing;
      const int iteration = s_.prof->begin_iteration(group, level, processing);
      const auto shares = static_cast<std::size_t>(processing);
      s_.prof->reserve(shares);
      for (std::size_t t = 0; t < shares; ++t) {
        merge_when_done(rt_, *s_.prof, rt_.spawn(ProcessTask{&s_, t, shares, iteration}),
                        &s_.records[t]);
      }
      rt_.spawn(Receive{&s_}, TaskPriority::low);
      rt_.wait();
      const std::int64_t found = s_.newq_count.load();
      if (!level_.end(found)) break;
      s_.oldq.assign(s_.newq.begin(), s_.newq.begin() + found);
    }
    res_.lock_seconds = s_.lock_wait.load();
    return res_;
  }

 private:
  TaskRuntime& rt_;
  int tasks_;
  int searches_ = 0;
  Exchange ex_;
  BfsResult res_;
  Level level_;
  Shared s_;
};

}  // namespace

extern const BfsVariant bfs_locking{
    "locking",
    "NT-1 processing tasks + 1 receive task that polls MPI, one lock around visited/pred/newq "
    "(the study's first variant)",
    BfsWork::tasks_and_io,
    MPI_THREAD_SERIALIZED,
    BfsReports::lock_time,
    /*visits_once=*/false,
    /*bottom_up=*/false,
    make_variant<BfsLocking>};

}  // namespace ht::impl
