#pragma once
/// \file HT_TaskRuntimeInterface.hpp
/// \brief The names every task runtime provides, checked at compile time:
/// included by each runtime's own .cpp (HT_KokkosTasks.cpp,
/// HT_OpenMPTasks.cpp; one translation unit, not every file), so a runtime
/// that lacks one, or gives it another signature, fails to build with the
/// name in the message.  The list is what the rest of src/ calls
/// (HT_TaskRuntime.hpp's brief); a new runtime includes it too.
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ht::impl::interface {

template <class...>
using void_t = void;

// Probe task bodies: one with a value, one without.
struct ValueTask {
  using value_type = long;
  void operator()(TaskMember&, long&) {}
};
struct VoidTask {
  using value_type = void;
  void operator()(TaskMember&) {}
};

#define HT_PROVIDES(trait, ...)      \
  template <class R, class = void>   \
  struct trait : std::false_type {}; \
  template <class R>                 \
  struct trait<R, void_t<decltype(__VA_ARGS__)>> : std::true_type {}

// std::declval<R&>(): a runtime; M: a task's member; F: a long future.
#define HT_RT std::declval<R&>()
#define HT_MEMBER std::declval<TaskMember&>()
#define HT_FUTURE std::declval<const Future<long>&>()
#define HT_FUTURES std::declval<const std::vector<Future<long>>&>()
HT_PROVIDES(has_spawn, HT_RT.spawn(ValueTask{}), HT_RT.spawn(VoidTask{}, TaskPriority::low));
HT_PROVIDES(has_spawn_in_task, HT_RT.spawn(HT_MEMBER, ValueTask{}, TaskPriority::high));
HT_PROVIDES(has_spawn_after, HT_RT.spawn_after(HT_FUTURE, VoidTask{}, TaskPriority::low));
HT_PROVIDES(has_when_all, HT_RT.when_all(HT_FUTURES), HT_RT.when_all(HT_MEMBER, HT_FUTURES));
HT_PROVIDES(has_wait, HT_RT.wait());
HT_PROVIDES(has_respawn, respawn(std::declval<ValueTask*>(), HT_MEMBER, TaskPriority::low),
            respawn_after(std::declval<ValueTask*>(), HT_FUTURE, TaskPriority::low));
#undef HT_RT
#undef HT_MEMBER
#undef HT_FUTURE
#undef HT_FUTURES
#undef HT_PROVIDES

static_assert(std::is_constructible_v<TaskRuntime, std::size_t, std::string>,
              "a task runtime is made from (pool bytes, the deck key that sizes the pool)");
static_assert(!std::is_copy_constructible_v<TaskRuntime>, "a task runtime is not copied");
static_assert(std::is_same_v<decltype(TaskRuntime::name()), const char*>,
              "TaskRuntime::name(): the runtime's name, for the run's first line");
static_assert(std::is_same_v<decltype(TaskRuntime::has_pool), const bool>,
              "TaskRuntime::has_pool: whether Runtime/pool_MiB bounds the tasks");
static_assert(std::is_same_v<decltype(TaskRuntime::pool_bytes_for<ValueTask>(1)), std::size_t>,
              "TaskRuntime::pool_bytes_for<F>(live): the pool for that many live tasks");
static_assert(std::is_same_v<decltype(TaskRuntime::worker()), int>,
              "TaskRuntime::worker(): the calling thread's index");
static_assert(has_spawn<TaskRuntime>::value, "TaskRuntime::spawn(f[, priority]) from the host");
static_assert(has_spawn_in_task<TaskRuntime>::value,
              "TaskRuntime::spawn(member, f[, priority]) from a task");
static_assert(has_spawn_after<TaskRuntime>::value,
              "TaskRuntime::spawn_after(future, f[, priority])");
static_assert(has_when_all<TaskRuntime>::value, "TaskRuntime::when_all([member,] futures)");
static_assert(has_wait<TaskRuntime>::value, "TaskRuntime::wait()");
static_assert(has_respawn<TaskRuntime>::value,
              "ht::respawn(this, member, priority) and ht::respawn_after(this, future, priority)");
static_assert(
    std::is_same_v<decltype(std::declval<TaskRuntime&>().spawn(ValueTask{})), Future<long>>,
    "spawn returns a Future of the task's value_type");
static_assert(std::is_same_v<decltype(std::declval<TaskRuntime&>().when_all(
                                 std::declval<const std::vector<Future<long>>&>())),
                             Future<void>>,
              "when_all returns a Future<void>");
static_assert(std::is_default_constructible_v<Future<long>> &&
                  std::is_copy_constructible_v<Future<long>> &&
                  std::is_convertible_v<Future<long>, Future<void>>,
              "a Future is null by default, copied, and converts to Future<void>");
static_assert(std::is_convertible_v<decltype(std::declval<const Future<long>&>().get()), long>,
              "Future<T>::get(): the value of a ready future");
static_assert(std::is_same_v<decltype(std::declval<const Future<long>&>().is_ready()), bool> &&
                  std::is_same_v<decltype(std::declval<const Future<long>&>().is_null()), bool>,
              "Future::is_ready() and Future::is_null()");

}  // namespace ht::impl::interface
