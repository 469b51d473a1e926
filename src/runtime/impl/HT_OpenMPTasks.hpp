#pragma once
/// \file HT_OpenMPTasks.hpp
/// \brief ht::TaskRuntime on OpenMP tasks (the compiler's OpenMP runtime, the
/// one Kokkos' OpenMP backend runs on), for a Kokkos without the task DAG
/// (5.x).  Include runtime/HT_TaskRuntime.hpp.
///
/// OpenMP schedules every task (its team queue, its idle threads); this file
/// only keeps the futures.  A task, or a when_all, is a reference-counted node
/// that knows its unfinished dependencies and the nodes waiting on it; when
/// its last dependency completes, a task is handed to OpenMP (`omp task`) and
/// a when_all completes.  OpenMP's own `depend` cannot express this: it orders
/// sibling tasks of one parent only, and a future here is waited on by tasks
/// of any parent, and by the host.
///
/// Semantics kept from the Kokkos runtime:
///  - spawn from the host queues the task; wait() opens the parallel region
///    (the host is thread 0, as in Kokkos), shares the host's tasks out among
///    its threads (a dynamic worksharing loop), and returns when every task,
///    respawns included, has completed;
///  - a respawn runs the task again later, after the tasks already queued
///    (OpenMP's team queue is first in, first out), or once a future is ready;
///  - priorities are OpenMP `priority` hints: honoured when the job runs with
///    OMP_MAX_TASK_PRIORITY >= 2 (scripts/run and the tests set it), ignored
///    otherwise, which changes order, never results.
///
/// One trap of libgomp is steered around: with more than 64 x threads tasks
/// pending it runs a new task at once, inside the one creating it.  A polling
/// task that respawns itself there would recurse while its worker never gets
/// to the tasks it waits for.  A respawn made with that many tasks in flight
/// is parked and handed to OpenMP by the next task to finish below the mark.
#include <omp.h>

#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/impl/HT_TaskGuard.hpp"

namespace ht {

class TaskRuntime;
template <class T>
class Future;

/// What a task's operator() receives: spawn(member, ...) and respawn(this,
/// member) take it.
class TaskMember {
  TaskMember() = default;
  friend class TaskRuntime;
};

namespace impl {

/// A task or a when_all: its readiness, its dependencies, its waiters.
class Node {
 public:
  explicit Node(TaskRuntime* rt, TaskPriority p) : rt_(rt), priority_(p) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  bool ready() const { return ready_.load(std::memory_order_acquire); }

  /// Makes this node wait on \p deps (null entries and ready ones count as
  /// done), then on nothing more: it runs or completes once they are.
  void depend_on(Node* const* deps, std::size_t n);
  /// Marks the node ready and tells its waiters.
  void complete();
  /// Runs the task body (tasks only); called on an OpenMP thread.
  virtual void execute(TaskMember&) {}

  TaskRuntime* runtime() const { return rt_; }
  TaskPriority priority() const { return priority_; }

 protected:
  /// The last dependency completed: a task is handed to OpenMP, a when_all
  /// completes.
  virtual void dependencies_done() { complete(); }
  void set_priority(TaskPriority p) { priority_ = p; }

 private:
  void one_done() {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) dependencies_done();
  }
  /// False when already ready (the caller counts \p w's dependency as done).
  bool add_waiter(Node* w);

  std::atomic<int> refs_{1};  // the runtime's: dropped when the node completes
  std::atomic<bool> ready_{false};
  std::atomic<int> pending_{0};
  std::mutex mutex_;
  std::vector<Node*> waiters_;  // each retained
  TaskRuntime* rt_;
  TaskPriority priority_;
};

/// A node that holds a value of type \p V (a task's result).
template <class V>
struct Result : Node {
  using Node::Node;
  V value{};
};
template <>
struct Result<void> : Node {
  using Node::Node;
};

void submit(TaskRuntime& rt, Node* task, bool respawned);

/// The node behind a future (for the runtime and respawn_after).
struct FutureAccess {
  template <class T>
  static Node* node(const Future<T>& f) {
    return f.node_;
  }
  template <class T>
  static Future<T> adopt(Node* n) {
    return Future<T>(n);
  }
};

/// Functor \p F as a task: its body, its result, its respawn request.
template <class F>
class Task final : public Result<typename F::value_type>, public Guarded<F> {
 public:
  // Parameter names unlike any functor member's (-Wshadow).
  Task(TaskRuntime* ht_runtime, TaskPriority ht_priority, F ht_functor)
      : Result<typename F::value_type>(ht_runtime, ht_priority),
        Guarded<F>(std::move(ht_functor)) {}

  static Task* of(F* self) { return static_cast<Task*>(static_cast<Guarded<F>*>(self)); }
  void request_respawn(TaskPriority p, Node* after) {
    respawn_ = true;
    Node::set_priority(p);
    if (after != nullptr) after->retain();
    if (after_ != nullptr) after_->release();
    after_ = after;
  }

  void execute(TaskMember& member) override {
    respawn_ = false;
    using V = typename F::value_type;
    if constexpr (std::is_void_v<V>)
      Guarded<F>::operator()(member);
    else
      Guarded<F>::operator()(member, Result<V>::value);
    // From here on, \c this may be run again, or freed, by another thread.
    if (!respawn_) {
      Node::complete();
      return;
    }
    Node* after = after_;
    after_ = nullptr;
    if (after == nullptr) {
      submit(*Node::runtime(), this, true);
    } else {
      Node::depend_on(&after, 1);
      after->release();
    }
  }

 private:
  void dependencies_done() override { submit(*Node::runtime(), this, false); }
  bool respawn_ = false;
  Node* after_ = nullptr;
};

}  // namespace impl

/// The handle to a task's result (or, for \c void, to its completion).
template <class T>
class Future {
 public:
  Future() = default;
  Future(const Future& o) : node_(o.node_) {
    if (node_) node_->retain();
  }
  Future(Future&& o) noexcept : node_(o.node_) { o.node_ = nullptr; }
  /// Any future converts to a future of its completion.
  template <class U, class V = T, class = std::enable_if_t<std::is_void_v<V> && !std::is_void_v<U>>>
  Future(const Future<U>& o) : node_(o.node_) {
    if (node_) node_->retain();
  }
  Future& operator=(Future o) noexcept {
    std::swap(node_, o.node_);
    return *this;
  }
  ~Future() {
    if (node_) node_->release();
  }

  /// No task behind it (default-constructed, or reset).
  bool is_null() const { return node_ == nullptr; }
  bool is_ready() const { return node_ != nullptr && node_->ready(); }
  /// The task's result; the future must be ready.
  template <class V = T, class = std::enable_if_t<!std::is_void_v<V>>>
  const V& get() const {
    return static_cast<impl::Result<V>*>(node_)->value;
  }

 private:
  template <class>
  friend class Future;
  friend struct impl::FutureAccess;
  explicit Future(impl::Node* adopted) : node_(adopted) {}
  impl::Node* node_ = nullptr;
};

/// Runs the calling task again later (a polling task that must not block
/// its worker): \p self is the functor's \c this, \p member its argument.
template <class F>
void respawn(F* self, TaskMember&, TaskPriority p = TaskPriority::regular) {
  impl::Task<F>::of(self)->request_respawn(p, nullptr);
}
/// Runs the calling task again once \p after is ready (a parent joining the
/// children it spawned).
template <class F, class T>
void respawn_after(F* self, const Future<T>& after, TaskPriority p = TaskPriority::regular) {
  impl::Task<F>::of(self)->request_respawn(p, impl::FutureAccess::node(after));
}

class TaskRuntime {
 public:
  /// There is no pool: tasks live on the heap (std::bad_alloc is the error
  /// policy's "out of memory in a task").  The arguments keep the Kokkos
  /// runtime's signature.
  TaskRuntime(std::size_t pool_bytes, std::string pool_key);
  TaskRuntime(const TaskRuntime&) = delete;
  TaskRuntime& operator=(const TaskRuntime&) = delete;
  ~TaskRuntime();

  /// The task system behind this runtime, as every results file
  /// (attribute task_runtime) and every run's first line name it.
  static const char* name() { return "openmp-tasks"; }
  /// Whether tasks live in a fixed pool (whose exhaustion is an error).
  static constexpr bool has_pool = false;

  /// Bytes one task of functor \p F occupies.
  template <class F>
  static constexpr std::size_t task_bytes() {
    return sizeof(impl::Task<F>);
  }
  /// The pool Kokkos' runtime would need for \p live tasks of \p F; nothing
  /// is allocated, but a deck's Runtime/pool_MiB is checked against it.
  template <class F>
  static std::size_t pool_bytes_for(std::size_t live) {
    return impl::pool_bytes_for(task_bytes<F>(), live);
  }

  /// Spawns a task from the host (outside any task).
  template <class F>
  Future<typename F::value_type> spawn(F f, TaskPriority p = TaskPriority::regular) {
    return start(new impl::Task<F>(this, p, std::move(f)), nullptr);
  }
  /// Spawns a task from the host that runs after \p dep is ready.
  template <class F, class T>
  Future<typename F::value_type> spawn_after(const Future<T>& dep, F f,
                                             TaskPriority p = TaskPriority::regular) {
    return start(new impl::Task<F>(this, p, std::move(f)), impl::FutureAccess::node(dep));
  }
  /// Spawns a task from inside a running task.
  template <class F>
  Future<typename F::value_type> spawn(TaskMember&, F f, TaskPriority p = TaskPriority::regular) {
    return start(new impl::Task<F>(this, p, std::move(f)), nullptr);
  }

  /// The worker thread running the calling task, in [0, threads): an index
  /// for per-worker scratch, since a worker runs one task at a time.  On the
  /// host outside tasks: 0.
  static int worker() { return omp_get_thread_num(); }

  /// A future ready when all of \p fs are; from the host.
  template <class T>
  Future<void> when_all(const std::vector<Future<T>>& fs) {
    std::vector<impl::Node*> deps(fs.size());
    for (std::size_t i = 0; i < fs.size(); ++i) deps[i] = impl::FutureAccess::node(fs[i]);
    return join(deps);
  }
  /// A future ready when all of \p fs are; from inside a task.
  template <class T>
  Future<void> when_all(TaskMember&, const std::vector<Future<T>>& fs) {
    return when_all(fs);
  }

  /// Runs every spawned task to completion; the calling thread works too.
  void wait();

 private:
  friend void impl::submit(TaskRuntime&, impl::Node*, bool);
  template <class V>
  Future<V> start(impl::Result<V>* task, impl::Node* dep) {
    Future<V> f = impl::FutureAccess::adopt<V>(task);
    task->retain();  // the future's reference; the runtime keeps the first
    task->depend_on(&dep, 1);
    return f;
  }
  Future<void> join(const std::vector<impl::Node*>& deps);
  void submit(impl::Node* task, bool respawned);
  void run(impl::Node* task);
  void hand_to_openmp(impl::Node* task);
  /// Hands the oldest parked respawn, if any, to OpenMP.
  void unpark_one();

  int threads_;
  std::size_t parking_mark_;               // tasks in flight above which a respawn parks
  std::atomic<std::size_t> in_flight_{0};  // handed to OpenMP, not finished
  std::mutex mutex_;                       // guards roots_ and parked_
  std::vector<impl::Node*> roots_;         // spawned from the host, run by wait()
  std::deque<impl::Node*> parked_;         // respawns waiting for in_flight_ to fall
  std::atomic<std::size_t> parked_count_{0};
};

}  // namespace ht
