#include <Kokkos_Core.hpp>

#include "runtime/HT_TaskRuntime.hpp"
// This runtime provides every name the library calls, as the other does.
#include "runtime/impl/HT_TaskRuntimeInterface.hpp"

namespace ht {

namespace {
// The runtime whose parallel region the calling thread is in (a team of one
// thread is an inactive region, so omp_in_parallel() cannot tell).
thread_local const TaskRuntime* tl_running = nullptr;

int openmp_priority(TaskPriority p) {
  return p == TaskPriority::high ? 2 : p == TaskPriority::regular ? 1 : 0;
}
}  // namespace

namespace impl {

void Node::depend_on(Node* const* deps, std::size_t n) {
  pending_.store(static_cast<int>(n) + 1, std::memory_order_relaxed);  // + 1: this call
  for (std::size_t i = 0; i < n; ++i)
    if (deps[i] == nullptr || !deps[i]->add_waiter(this))
      pending_.fetch_sub(1, std::memory_order_relaxed);
  one_done();
}

bool Node::add_waiter(Node* w) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ready_.load(std::memory_order_relaxed)) return false;
  w->retain();
  waiters_.push_back(w);
  return true;
}

void Node::complete() {
  std::vector<Node*> waiters;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_.store(true, std::memory_order_release);
    waiters.swap(waiters_);
  }
  for (Node* w : waiters) {
    w->one_done();
    w->release();
  }
  release();  // the runtime's reference
}

void submit(TaskRuntime& rt, Node* task, bool respawned) { rt.submit(task, respawned); }

}  // namespace impl

TaskRuntime::TaskRuntime(std::size_t, std::string)
    : threads_(Kokkos::OpenMP().concurrency()),
      parking_mark_(32 * static_cast<std::size_t>(threads_)) {}

TaskRuntime::~TaskRuntime() {
  for (impl::Node* r : roots_) r->release();  // spawned, never waited for
}

Future<void> TaskRuntime::join(const std::vector<impl::Node*>& deps) {
  auto* node = new impl::Result<void>(this, TaskPriority::regular);
  Future<void> f = impl::FutureAccess::adopt<void>(node);
  node->retain();
  node->depend_on(deps.data(), deps.size());
  return f;
}

void TaskRuntime::submit(impl::Node* task, bool respawned) {
  if (tl_running != this) {  // the host, before wait()
    std::lock_guard<std::mutex> lock(mutex_);
    roots_.push_back(task);
    return;
  }
  if (respawned && in_flight_.load() >= parking_mark_) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      parked_.push_back(task);
      parked_count_.fetch_add(1);
    }
    // Tasks may have finished between the test and the push, none seeing it.
    if (in_flight_.load() < parking_mark_) unpark_one();
    return;
  }
  hand_to_openmp(task);
}

void TaskRuntime::unpark_one() {
  impl::Node* task = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (parked_.empty()) return;
    task = parked_.front();
    parked_.pop_front();
    parked_count_.fetch_sub(1);
  }
  hand_to_openmp(task);
}

void TaskRuntime::hand_to_openmp(impl::Node* task) {
  in_flight_.fetch_add(1);
  TaskRuntime* rt = this;
  const int priority = openmp_priority(task->priority());
#pragma omp task firstprivate(rt, task) priority(priority)
  rt->run(task);
}

void TaskRuntime::run(impl::Node* task) {
  TaskMember member;
  task->execute(member);
  if (in_flight_.fetch_sub(1) - 1 < parking_mark_ && parked_count_.load() > 0) unpark_one();
}

void TaskRuntime::wait() {
  std::vector<impl::Node*> roots;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    roots.swap(roots_);
  }
  if (roots.empty()) return;
  const long n = static_cast<long>(roots.size());
  in_flight_.fetch_add(roots.size());
  // The host's spawns are shared out by a dynamic worksharing loop, each run
  // where it is taken: handing them to OpenMP one by one from one thread
  // would have every other thread contend for libgomp's one task queue lock
  // (5 us a task on 16 threads).  What they spawn goes to OpenMP's queue.
#pragma omp parallel num_threads(threads_)
  {
    const TaskRuntime* outer = tl_running;
    tl_running = this;
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < n; ++i) run(roots[static_cast<std::size_t>(i)]);
    // The loop's barrier: every task of the region, and its descendants, is done.
    tl_running = outer;
  }
}
}  // namespace ht
