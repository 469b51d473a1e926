#pragma once
/// \file HT_CommRecord.hpp
/// \brief A kernel's communication counts for the results file: this rank's
/// (comm/HT_CommCounts.hpp) per trial, for the kernel and its verification
/// apart, and per step of the kernel (a BFS level, an SSSP bucket step, a
/// Cannon step), each step tagged with its trial.
///
/// Written as comm/<kernel>/{kernel,verify,step}/<count>, int64, shape
/// [ranks, n] (row r: rank r), count one of messages, bytes, collectives,
/// collective_bytes, barriers; and comm/<kernel>/step_trial, shape [steps]
/// (docs/results.md).  perf/scaling plots them against the rank count.
///
/// Example: tests/drivers/tstCommRecord.cpp.
#include <string>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "drivers/HT_Trials.hpp"
#include "io/HT_Results.hpp"

namespace ht {

class CommRecord {
 public:
  /// \brief Adds a trial: its kernel's and verification's counts on this rank.
  void add_trial(const TrialSeconds& s) {
    kernel_.push_back(s.kernel_comm);
    verify_.push_back(s.verify_comm);
  }
  /// \brief Adds the steps of the last trial added (their number must be
  /// the same on every rank: the steps are collective).
  void add_steps(const std::vector<CommCounts>& steps) {
    for (const CommCounts& c : steps) {
      step_.push_back(c);
      step_trial_.push_back(static_cast<long long>(kernel_.size()) - 1);
    }
  }
  /// \brief Puts the counts in \p r under \p group (e.g. "comm/bfs").
  void write(Results& r, const std::string& group) const;

  const std::vector<CommCounts>& kernel() const { return kernel_; }
  const std::vector<CommCounts>& steps() const { return step_; }

 private:
  std::vector<CommCounts> kernel_, verify_, step_;
  std::vector<long long> step_trial_;
};

}  // namespace ht
