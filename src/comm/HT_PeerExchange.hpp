#pragma once
/// \file HT_PeerExchange.hpp
/// \brief The one all-to-all exchange of the library: count per peer ->
/// exchange the counts -> pack -> move.  A PeerPlan is built once from this
/// rank's 64-bit counts per peer (in one all-to-all of a 32-bit word a
/// peer unless some rank's sends are large); peer_exchange() then moves
/// items by a plan, as often as wanted (and back, by reversed()).
///
/// One overflow rule: counts are 64-bit, and items move in rounds whose
/// bytes each way stay within a budget that does not grow with the number
/// of ranks P (plus at most one item per peer addressed), so no MPI count is
/// ever near int's range.  Where MPI has the MPI-4 large-count calls
/// (MPI_Alltoallv_c), a round moves between the caller's buffers directly;
/// elsewhere too, while its byte displacements fit an int, and beyond that
/// through a staging buffer of the round's bytes (small int displacements).
/// Every call is counted (comm/HT_CommCounts.hpp).
///
/// A caller counts its items per peer, packs them at the plan's
/// send_offsets(), and receives them by source rank, each source's in
/// its order.
///
/// Examples: src/graph/impl/HT_TargetDegrees.cpp, tests/comm/tstPeerExchange.cpp.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace ht {

/// \brief Bytes a round of peer_exchange() moves each way, at most (plus one
/// item per peer addressed): 64 MiB, whatever the number of ranks.
inline constexpr std::int64_t kPeerExchangeBudget = std::int64_t(64) << 20;
/// \brief The largest budget taken (a larger one counts as this): 1 GiB,
/// so a round's byte counts stay ints.
inline constexpr std::int64_t kPeerExchangeMaxBudget = std::int64_t(1) << 30;

namespace impl {
/// \brief Throws ht::Error: peer_exchange() of items of \p bytes bytes by a
/// plan built for items of \p plan_bytes.
[[noreturn]] void peer_exchange_wrong_item(std::size_t bytes, std::size_t plan_bytes);
}  // namespace impl

/// \brief Who sends how many items to whom: this rank's counts to each peer
/// and from each, where each peer's items start in the packed buffers, and
/// the rounds peer_exchange() takes for items of item_bytes() bytes.
/// Built once (collective); used by any number of peer_exchange() calls.
class PeerPlan {
 public:
  /// \brief Collective over \p comm: \p send_counts[p] is the number of items
  /// of \p item_bytes bytes this rank sends to rank p (size: the ranks of
  /// \p comm), moved in rounds of at most \p budget bytes each way (see
  /// rounds()).  Every rank passes the same \p item_bytes and \p budget.
  ///
  /// The counts cross in one all-to-all of a 32-bit word a peer, which also
  /// tells every rank whether any rank's sends are large (more than
  /// budget / P bytes) and whether no rank sends anything.  Where none are
  /// large no rank receives more than the budget: one round (none where
  /// nothing is sent), agreed without another collective.  Otherwise the
  /// 64-bit counts cross too and an allreduce gives every rank the most items
  /// any rank sends or receives, which sets the rounds.
  PeerPlan(std::vector<std::int64_t> send_counts, MPI_Comm comm, std::size_t item_bytes,
           std::int64_t budget = kPeerExchangeBudget);

  /// \brief The plan of the way back: it receives what this one sends and
  /// sends what this one receives (answers to requests), items of the same
  /// size, in as many rounds.  No communication.
  PeerPlan reversed() const;

  /// \brief The ranks of the plan's communicator.
  int size() const { return static_cast<int>(send_count_.size()); }
  /// \brief The communicator.
  MPI_Comm comm() const { return comm_; }

  /// \brief Items this rank sends to rank \p p.
  std::int64_t send_count(int p) const { return send_count_[static_cast<std::size_t>(p)]; }
  /// \brief Items this rank receives from rank \p p.
  std::int64_t recv_count(int p) const { return recv_count_[static_cast<std::size_t>(p)]; }
  /// \brief Where rank \p p's items start in the packed send buffer (items
  /// for ranks 0, 1, ... in turn): one cursor a peer for packing.
  const std::vector<std::int64_t>& send_offsets() const { return send_at_; }
  /// \brief Where rank \p p's items start in the receive buffer.
  const std::vector<std::int64_t>& recv_offsets() const { return recv_at_; }
  /// \brief Items this rank sends, in all.
  std::int64_t sends() const { return sends_; }
  /// \brief Items this rank receives, in all.
  std::int64_t receives() const { return receives_; }
  /// \brief The bytes of an item.
  std::size_t item_bytes() const { return item_bytes_; }
  /// \brief The bytes a round moves each way, at most (plus one item per
  /// peer addressed): the constructor's budget, within [1,
  /// kPeerExchangeMaxBudget].
  std::int64_t budget() const { return budget_; }
  /// \brief The rounds peer_exchange() takes: M item_bytes() / budget(),
  /// rounded up, where M is the most items any rank of the plan sends or
  /// receives (0 when no rank sends anything); the same on every rank.
  long long rounds() const { return rounds_; }

 private:
  PeerPlan() = default;
  void place();

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<std::int64_t> send_count_, recv_count_, send_at_, recv_at_;
  std::int64_t sends_ = 0, receives_ = 0, budget_ = 0;
  std::size_t item_bytes_ = 0;
  long long rounds_ = 0;
};

/// \brief Collective over the plan's ranks: moves plan.sends() items of
/// plan.item_bytes() bytes from \p send (packed by destination:
/// send_offsets()) to \p recv (plan.receives() items, by source:
/// recv_offsets(); each source's items in the order it packed them), in
/// plan.rounds() rounds.
void peer_exchange_bytes(const PeerPlan& plan, const void* send, void* recv);

/// \brief peer_exchange_bytes() for items of a trivially copyable type \p T,
/// the plan's items (throws ht::Error where sizeof(T) is not
/// plan.item_bytes()).
template <class T>
void peer_exchange(const PeerPlan& plan, const T* send, T* recv) {
  static_assert(std::is_trivially_copyable_v<T>, "peer_exchange moves items as bytes");
  if (sizeof(T) != plan.item_bytes()) impl::peer_exchange_wrong_item(sizeof(T), plan.item_bytes());
  peer_exchange_bytes(plan, send, recv);
}

namespace impl {
/// \brief Where MPI has no large counts: the byte offset in a caller's
/// buffer up to which a round moves straight from or into it (beyond, the
/// side is staged); INT_MAX, tests lower it to stage everything.
std::int64_t peer_exchange_direct_limit();
/// \brief Sets peer_exchange_direct_limit() (tests).
void set_peer_exchange_direct_limit(std::int64_t bytes);
}  // namespace impl

}  // namespace ht
