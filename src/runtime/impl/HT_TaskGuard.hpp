#pragma once
/// \file HT_TaskGuard.hpp
/// \brief What both task runtimes share: task priorities and the error policy
/// around every task body.
///
/// An exception escaping a task body (ht::Error from the exchange,
/// std::bad_alloc from a push_back) would reach the OpenMP region the task
/// runs in and end in std::terminate with no word of which rank failed or why;
/// instead the rank prints "<app>: rank R: error: <what>" and the whole job
/// aborts (exit 1).
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace ht {

/// Which ready task a worker takes first.
enum class TaskPriority { high, regular, low };

namespace impl {
/// Ends the job for an exception that escaped a task body (see above).
[[noreturn]] void task_failed(const std::string& what);

/// Functor \p F's body under the error policy.  Derived, not wrapping, so
/// that F keeps its layout and value_type, and a runtime can find its task
/// record from F's \c this (respawn).
template <class F>
struct Guarded : F {
  explicit Guarded(F f) : F(std::move(f)) {}
  template <class Member, class... Result>
  void operator()(Member& member, Result&... result) {
    try {
      F::operator()(member, result...);
    } catch (const std::bad_alloc&) {
      task_failed("out of memory in a task (std::bad_alloc)");
    } catch (const std::exception& e) {
      task_failed(e.what());
    } catch (...) {
      task_failed("a task threw an exception that is not a std::exception");
    }
  }
};
}  // namespace impl

}  // namespace ht
