#pragma once
/// \file HT_Phase.hpp
/// \brief A named phase of a run: a Kokkos profiling region (so Kokkos Tools,
/// e.g. kokkos-tools' space-time-stack, see it and its nesting) timed on the
/// one clock (HT_Clock.hpp) into a local accumulator.
///
/// Example:
/// \code
///   double compute = 0;
///   { ht::Phase p("GEMM: compute", compute); run_tasks(); }   // compute += seconds
/// \endcode
#include <Kokkos_Core.hpp>
#include <string>

#include "runtime/HT_Clock.hpp"

namespace ht {

class Phase {
 public:
  Phase(const char* name, double& sink) : sink_(sink) {
    Kokkos::Profiling::pushRegion(name);
    t0_ = steady_seconds();
  }
  ~Phase() {
    sink_ += steady_seconds() - t0_;
    Kokkos::Profiling::popRegion();
  }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  double& sink_;
  double t0_ = 0;
};

/// A Kokkos profiling region for a scope that reports no time of its own.
class Region {
 public:
  explicit Region(const char* name) { Kokkos::Profiling::pushRegion(name); }
  ~Region() { Kokkos::Profiling::popRegion(); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
};

}  // namespace ht
