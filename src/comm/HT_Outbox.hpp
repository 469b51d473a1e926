#pragma once
/// \file HT_Outbox.hpp
/// \brief One worker's outgoing items for an ht::Exchange (BFS's chunked
/// searches, delta-stepping): a buffer for each peer the worker addressed,
/// handed to the exchange whole (Exchange::post, lock-free) when full, and
/// the partial ones at flush().  It remembers the peers it touched, so a
/// flush costs O(peers touched), never O(P); besides the buffers it keeps 4
/// bytes a peer.  Only the tasks of one worker touch an outbox (no locks).
///
/// It also keeps the workers' shared cadence of taking arrivals: a worker
/// that sends must receive now and then too, or its peers' sends stall
/// (pump_now_and_then()).
///
/// A worker attach()es its outbox to the exchange once, send()s each remote
/// item, calls pump_now_and_then() as it goes, and flush()es at the step's
/// end, before Exchange::end_level().
///
/// Example: src/graph/sssp/HT_DeltaStepping.cpp.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "comm/HT_Exchange.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

class Outbox {
 public:
  /// \brief Edges a worker expands between two takes of arrivals.
  static constexpr std::int64_t kPumpEdges = 4096;
  /// \brief Items a peer's first buffer of a step has room for; it grows
  /// to the exchange's capacity as it fills.
  static constexpr std::size_t kFirstItems = 256;

  /// \brief An outbox of no exchange yet (attach() before the first send).
  Outbox() = default;

  /// \brief Sends to \p ex's ranks from now on (sizes the peer table: 4
  /// bytes a peer, no buffer).
  void attach(Exchange& ex) {
    ex_ = &ex;
    int size = 1;
    MPI_Comm_size(ex.comm(), &size);
    slot_.assign(static_cast<std::size_t>(size), -1);
  }

  /// \brief Queues \p item for rank \p dest (not this rank); a full buffer
  /// goes to the exchange at once.
  void send(int dest, Exchange::Item item) {
    std::int32_t s = slot_[static_cast<std::size_t>(dest)];
    if (__builtin_expect(s < 0, 0)) s = open(dest);
    std::vector<Exchange::Item>& b = open_[static_cast<std::size_t>(s)].items;
    b.push_back(item);
    if (__builtin_expect(b.size() >= ex_->capacity(), 0)) post(dest, b);
  }

  /// \brief Hands every partial buffer to the exchange and forgets the
  /// peers touched: O(peers touched).
  void flush() {
    for (Open& o : open_) {
      if (!o.items.empty()) ex_->post(o.dest, std::move(o.items));
      slot_[static_cast<std::size_t>(o.dest)] = -1;
    }
    open_.clear();
    charge_.set(0);
  }

  /// \brief Counts \p edges done by this worker; every kPumpEdges of them,
  /// takes arrivals (Exchange::try_poll with \p apply), unless another
  /// thread already is.
  void pump_now_and_then(std::int64_t edges, const Exchange::Handler& apply) {
    if ((since_ += edges) < kPumpEdges) return;
    since_ = 0;
    ex_->try_poll(apply);
  }

  /// \brief Peers with a buffer here now (touched since the last flush).
  std::size_t peers_touched() const { return open_.size(); }
  /// \brief Bytes the buffers held now may grow to, a capacity each
  /// (charged as ht::Held::exchange).
  std::int64_t held_bytes() const { return charge_.bytes(); }

 private:
  struct Open {
    int dest;
    std::vector<Exchange::Item> items;
  };
  // The rare paths out of line, so that send() inlined into an edge loop stays small.
  [[gnu::noinline]] void post(int dest, std::vector<Exchange::Item>& b) {
    ex_->post(dest, std::move(b));
    b = {};
    b.reserve(ex_->capacity());
  }
  [[gnu::noinline]] std::int32_t open(int dest) {
    const auto s = static_cast<std::int32_t>(open_.size());
    slot_[static_cast<std::size_t>(dest)] = s;
    open_.push_back({dest, {}});
    // Small first: most phases send a peer a few items (delta-stepping's,
    // thousands a search), and a fresh 64 KiB each cost its page faults.
    open_.back().items.reserve(std::min<std::size_t>(ex_->capacity(), kFirstItems));
    charge_.set(static_cast<std::int64_t>(open_.size() * ex_->capacity() * sizeof(Exchange::Item)));
    return s;
  }

  Exchange* ex_ = nullptr;
  std::vector<std::int32_t> slot_;  // per peer: its place in open_, or -1
  std::vector<Open> open_;          // the peers touched, with their buffers
  std::int64_t since_ = 0;          // edges since the last take of arrivals
  HeldCharge charge_{Held::exchange};
};

}  // namespace ht
