#pragma once
/// \file HT_Search.hpp
/// \brief Graph500 kernels 2 and 3 as trials (drivers/HT_Trials.hpp; a
/// kernel, there and here, is what a benchmark times): one
/// search per key, every tree validated (a failed check throws ht::Error
/// naming the search, the key and the check), the figures of each recorded,
/// a progress line for the first and last search and one every few seconds
/// between (HT_Log.hpp's Ticker).  One type for both kernels; a kernel says
/// only how it searches, validates and what else it records.
///
/// A kernel K provides: `name`, `regions` (TrialRegions), a
/// `Figures` type derived from SearchFigures, `search(key)`,
/// `validate(key)` (a Validation), `pred()` (the last search's parents), and
/// `record(figures, validation)` (collective; its part of the progress line).
///
/// Example: drivers/graph500/HT_Graph500Driver.cpp runs Search<BfsKernel> and
/// Search<SsspKernel>.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "drivers/HT_CommRecord.hpp"
#include "drivers/HT_Log.hpp"
#include "drivers/HT_Trials.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Graph500Block.hpp"
#include "graph/HT_TepsEdges.hpp"
#include "graph/HT_Validate.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

/// \brief What every search kernel records per key: the reference block's inputs.
struct SearchFigures {
  std::vector<double> seconds;           ///< the search, slowest rank
  std::vector<double> nedge;             ///< edges of the key's component (TEPS)
  std::vector<double> validate_seconds;  ///< its validation, slowest rank
  CommRecord comm;                       ///< this rank's MPI counts per key and step
  /// \brief \p header (kernel 1's) with these searches: one kernel's block.
  Graph500Block block(const Graph500Block& header) const {
    Graph500Block r = header;
    r.seconds = seconds;
    r.nedge = nedge;
    r.validate_seconds = validate_seconds;
    return r;
  }
};

/// \brief One search per key of kernel \p K, as trials of run_trials.
template <class K>
class Search {
 public:
  static constexpr TrialRegions regions = K::regions;

  Search(K& kernel, const Csr& g, const std::vector<std::int64_t>& keys,
         typename K::Figures& figures, MPI_Comm comm, std::FILE* log)
      : k_(kernel), g_(g), keys_(keys), fig_(figures), comm_(comm), log_(log) {}

  // Each search's and each validation's own high-water marks: the
  // validator's exchange may address every rank where the search does not.
  void setup(int) { held_reset_high(); }
  void run(int t) {
    k_.search(keys_[t]);
    fold_held_highs(searching_);
  }
  bool verifies(int) const { return true; }
  void verify(int t) {
    held_reset_high();
    v_ = k_.validate(keys_[t]);
    fold_held_highs(validating_);
    if (!v_.ok()) {
      throw Error(std::string("validation of ") + K::name + " " + std::to_string(t + 1) +
                  " from key " + std::to_string(keys_[t]) + " failed: " + v_.what);
    }
  }
  void done(int t, const TrialSeconds& s) {
    const double nedge = static_cast<double>(component_edges(g_, k_.pred(), comm_));
    fig_.seconds.push_back(s.kernel);
    fig_.nedge.push_back(nedge);
    fig_.validate_seconds.push_back(s.verify);
    fig_.comm.add_trial(s);
    const std::string more = k_.record(fig_, v_);
    if (tick_.due(t + 1, static_cast<int>(keys_.size())))
      say(log_, "%s %2d/%zu: key %lld, %.6f s, %.4g TEPS%s, valid\n", K::name, t + 1, keys_.size(),
          static_cast<long long>(keys_[t]), s.kernel, nedge / s.kernel, more.c_str());
  }
  /// \brief The most this rank held while searching, over the trials so far.
  const HeldHighs& searching() const { return searching_; }
  /// \brief The most this rank held while validating, over the trials so far.
  const HeldHighs& validating() const { return validating_; }

 private:
  K& k_;
  const Csr& g_;
  const std::vector<std::int64_t>& keys_;
  typename K::Figures& fig_;
  MPI_Comm comm_;
  std::FILE* log_;
  Ticker tick_;
  Validation v_;
  HeldHighs searching_{}, validating_{};
};

}  // namespace ht
