#pragma once
// What the queue-based variants (mpi, nonlocking) share: a plain visited
// bitmap, the frontier being expanded (oldq) and the next one (newq), filled
// in discovery order as the Graph500 reference does, remote finds applied as
// they arrive, and the level loop.  A variant says how one level expands.
#include <cstdint>
#include <vector>

#include "comm/HT_Exchange.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/bfs/impl/HT_Level.hpp"
#include "profile/HT_Profile.hpp"

namespace ht::impl {

class QueueBfs : public Bfs {
 public:
  QueueBfs(const Csr& g, const BfsOptions& opt, MPI_Comm comm);
  /// Levels until no rank finds a vertex.
  const BfsResult& search(std::int64_t root) override;
  Profile& profile() { return profile_; }

 protected:
  /// Expands oldq_: local finds through visit(), remote ones into the
  /// exchange, whose level end_level() then completes.  \p group: the search.
  virtual void expand_level(int group, int level) = 0;
  /// Marks local vertex j reached from u unless it was; true if it was not.
  bool visit(std::int64_t j, std::int64_t u) {
    if (!seen_.set_new(j)) return false;
    res_.pred[j] = u;
    newq_.push_back(j);
    return true;
  }

  const Csr& g_;
  MPI_Comm comm_;
  Profile& profile_;
  Exchange ex_;
  Exchange::Handler apply_;  // remote finds arriving: visit()
  BfsResult res_;
  Level level_;
  Bitmap seen_;
  std::vector<std::int64_t> oldq_, newq_;
  int searches_ = 0;
};

}  // namespace ht::impl
