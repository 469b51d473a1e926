#pragma once
/// \file HT_Phase.hpp
/// \brief Times a scope into a Teuchos timer (summarized min/mean/max over ranks
/// by Teuchos::TimeMonitor::summarize) and into a local accumulator.
///
/// Example:
/// \code
///   double compute = 0;
///   { ht::Phase p("GEMM: compute", compute); run_tasks(); }   // compute += seconds
/// \endcode
#include <Teuchos_TimeMonitor.hpp>
#include <chrono>

namespace ht {

class Phase {
 public:
  Phase(const char* name, double& sink)
      : timer_(Teuchos::TimeMonitor::getNewCounter(name)),
        sink_(sink),
        t0_(std::chrono::steady_clock::now()) {
    if (!timer_->isRunning()) {
      timer_->start();
      timer_->incrementNumCalls();
    }
  }
  ~Phase() {
    if (timer_->isRunning()) timer_->stop();
    sink_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  Teuchos::RCP<Teuchos::Time> timer_;
  double& sink_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace ht
