#pragma once
/// \file HT_PeerExchange.hpp
/// \brief The one all-to-all exchange of the library: count per peer ->
/// exchange the counts -> pack -> move.  A PeerPlan is built once from this
/// rank's 64-bit counts per peer (the counts cross once); peer_exchange()
/// then moves items by a plan, as often as wanted (and back, by reversed()).
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

/// \brief Who sends how many items to whom: this rank's counts to each peer
/// and from each, and where each peer's items start in the packed buffers.
/// Built once (collective); used by any number of peer_exchange() calls.
class PeerPlan {
 public:
  /// \brief Collective over \p comm: \p send_counts[p] is the number of items
  /// this rank sends to rank p (size: the ranks of \p comm).  The counts
  /// cross once (an all-to-all of one 64-bit count a peer), and the ranks
  /// agree on the largest count of items any rank sends or receives.
  PeerPlan(std::vector<std::int64_t> send_counts, MPI_Comm comm);

  /// \brief The plan of the way back: it receives what this one sends and
  /// sends what this one receives (answers to requests).  No communication.
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
  /// \brief The most items any rank of the plan sends or receives (the
  /// same on every rank: it sets the rounds).
  std::int64_t most() const { return most_; }

 private:
  PeerPlan() = default;
  void place();

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<std::int64_t> send_count_, recv_count_, send_at_, recv_at_;
  std::int64_t sends_ = 0, receives_ = 0, most_ = 0;
};

/// \brief The rounds peer_exchange() takes for items of \p item_bytes bytes
/// under \p budget bytes a round (the same on every rank; 0 when no rank
/// sends anything).
long long peer_exchange_rounds(const PeerPlan& plan, std::size_t item_bytes,
                               std::int64_t budget = kPeerExchangeBudget);

/// \brief Collective over the plan's ranks: moves plan.sends() items of
/// \p item_bytes bytes from \p send (packed by destination: send_offsets())
/// to \p recv (plan.receives() items, by source: recv_offsets(); each
/// source's items in the order it packed them), in
/// peer_exchange_rounds() rounds.  Every rank passes the same \p item_bytes
/// and \p budget.
void peer_exchange_bytes(const PeerPlan& plan, const void* send, void* recv, std::size_t item_bytes,
                         std::int64_t budget = kPeerExchangeBudget);

/// \brief peer_exchange_bytes() for items of a trivially copyable type \p T.
template <class T>
void peer_exchange(const PeerPlan& plan, const T* send, T* recv,
                   std::int64_t budget = kPeerExchangeBudget) {
  static_assert(std::is_trivially_copyable_v<T>, "peer_exchange moves items as bytes");
  peer_exchange_bytes(plan, send, recv, sizeof(T), budget);
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
