#pragma once
// What the queue-based variants share: a plain visited
// bitmap, the frontier being expanded (oldq) and the next one (newq), filled
// in discovery order as the Graph500 reference does, remote finds applied as
// they arrive, and the steps of a level.  A variant holds one QueueSearch and
// writes its own level loop (HT_BfsMpi.cpp):
//
//   const int group = s.start(root);
//   for (int level = 0;; ++level) {
//     s.begin_level(level);
//     ...expand s.frontier(): s.visit() local finds, s.push() remote ones...
//     if (!s.end_level()) break;
//   }
//   return s.result();
#include <cstdint>
#include <vector>

#include "comm/HT_Exchange.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/bfs/impl/HT_Level.hpp"
#include "profile/HT_Profile.hpp"

namespace ht::impl {

/// \brief The state and steps of a queue-based search on one rank (host only).
class QueueSearch {
 public:
  /// \brief For searches of \p g with \p opt (buffer_items, profile).
  QueueSearch(const Csr& g, const BfsOptions& opt, MPI_Comm comm);

  /// \brief Clears the search state and visits \p root if this rank owns it.
  /// Returns the search's profile group.
  int start(std::int64_t root);
  /// \brief Begins level \p level: the last level's finds become the frontier.
  void begin_level(int level);
  /// \brief Completes the exchange's level (remote finds visited) and sums
  /// the next frontier over the ranks: true while any rank has one (collective).
  bool end_level();
  /// \brief The search's result so far.
  BfsResult& result() { return res_; }

  /// \brief The frontier being expanded, local vertices in discovery order.
  const std::vector<std::int64_t>& frontier() const { return oldq_; }
  /// \brief Marks local vertex \p j reached from \p u unless it was; true if it was not.
  bool visit(std::int64_t j, std::int64_t u) {
    if (!seen_.set_new(j)) return false;
    res_.pred[j] = u;
    newq_.push_back(j);
    return true;
  }
  /// \brief The visited bitmap (read-only: visit() writes it).
  const Bitmap& seen() const { return seen_; }
  /// \brief Queues remote find \p item for rank \p owner (a full buffer is sent).
  void push(int owner, Exchange::Item item) { ex_.push(owner, item, apply_); }
  /// \brief Takes the arrivals there are, visiting them.
  void poll() { ex_.poll(apply_); }
  const Csr& graph() const { return g_; }
  Profile& profile() { return profile_; }

 private:
  const Csr& g_;
  Profile& profile_;
  Exchange ex_;
  Exchange::Handler apply_;  // remote finds arriving: visit()
  BfsResult res_;
  Level level_;
  Bitmap seen_;
  std::vector<std::int64_t> oldq_, newq_;
  HeldCharge queues_held_{Held::search};  // oldq_'s and newq_'s bytes
  int searches_ = 0;
};

}  // namespace ht::impl
