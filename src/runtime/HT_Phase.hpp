#pragma once
/// \file HT_Phase.hpp
/// \brief A named phase of a run: a Kokkos profiling region (so Kokkos Tools,
/// e.g. kokkos-tools' space-time-stack, see it and its nesting) timed on the
/// one clock (HT_Clock.hpp) into a local accumulator.
///
/// Each thread also keeps the names of its open phases (phase_trail), and of
/// the innermost and outermost ones an exception left by, so that an error
/// caught after them can say where it happened ("out of memory in ...").
///
/// Example: src/drivers/HT_Trials.hpp.
#include <Kokkos_Core.hpp>
#include <exception>
#include <string>

#include "runtime/HT_Clock.hpp"

namespace ht {

namespace impl {
/// \brief A thread's open phases (names are string literals), and the
/// innermost and outermost phases the last exception unwound.
struct PhaseTrail {
  static constexpr int kDepth = 16;  ///< deeper phases are counted, not named
  const char* open[kDepth] = {};
  int depth = 0;
  const char* left_inner = nullptr;
  const char* left_outer = nullptr;

  void enter(const char* name) {
    if (depth == 0) left_inner = left_outer = nullptr;  // an earlier exception was handled
    if (depth < kDepth) open[depth] = name;
    ++depth;
  }
  void leave(const char* name, bool unwinding) {
    --depth;
    if (!unwinding) return;
    if (!left_inner) left_inner = name;
    left_outer = name;
  }
};
/// \brief This thread's trail.
inline thread_local PhaseTrail phase_trail;

/// \brief The fault suite's switch (tests/apps/faults.py): with
/// HT_TEST_FAULT=`alloc@<phase>` in a rank's environment, entering the phase
/// named <phase> throws std::bad_alloc there (the phase entered and left, so
/// the error names it), as an allocation that found no memory would;
/// `kill@<phase>` ends the rank by SIGKILL.  Read per rank, on purpose: it is
/// one rank's fault.
void test_fault(const char* phase);
}  // namespace impl

/// \brief Where this thread is: "<innermost open phase> (in <outermost>)",
/// or else the phases the last exception left; "" outside every phase.
std::string phase_now();

class Phase {
 public:
  Phase(const char* name, double& sink)
      : sink_(sink), name_(name), uncaught_(std::uncaught_exceptions()) {
    impl::phase_trail.enter(name);
    impl::test_fault(name);
    Kokkos::Profiling::pushRegion(name);
    t0_ = steady_seconds();
  }
  ~Phase() {
    sink_ += steady_seconds() - t0_;
    Kokkos::Profiling::popRegion();
    impl::phase_trail.leave(name_, std::uncaught_exceptions() > uncaught_);
  }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  double& sink_;
  const char* name_;
  int uncaught_;
  double t0_ = 0;
};

/// A Kokkos profiling region for a scope that reports no time of its own.
class Region {
 public:
  explicit Region(const char* name) : name_(name), uncaught_(std::uncaught_exceptions()) {
    impl::phase_trail.enter(name);
    impl::test_fault(name);
    Kokkos::Profiling::pushRegion(name);
  }
  ~Region() {
    Kokkos::Profiling::popRegion();
    impl::phase_trail.leave(name_, std::uncaught_exceptions() > uncaught_);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

 private:
  const char* name_;
  int uncaught_;
};

}  // namespace ht
