#pragma once
/// \file HT_Exchange.hpp
/// \brief Coalescing exchange of small items between ranks, level by level:
/// the producer/consumer queues with coalescing of the UPC-queues work
/// (J. Jose, S. Potluri, K. Tomko, D. K. Panda, "Designing scalable Graph500
/// benchmark with hybrid MPI+OpenSHMEM programming models", ISC 2013).
///
/// push() appends to a per-destination buffer of \c capacity items and sends
/// it (MPI_Isend) when full; a peer has a buffer only while items for it
/// wait (taken at its first push, handed on with its send), so a rank holds
/// buffers for the peers it addresses, not for every rank; poll() takes whatever has arrived
/// (MPI_Improbe + MPI_Mrecv, never blocking); end_level() flushes and receives until the level is
/// over on every rank, learnt in one of two ways (Termination):
///  - markers: an empty message to every peer says "no more this level"
///    (MPI keeps messages between two ranks in order, so a marker never
///    overtakes data); P - 1 messages per rank and level;
///  - nbx (T. Hoefler, C. Siebert, A. Lumsdaine, "Scalable communication
///    protocols for dynamic sparse data exchange", PPoPP 2010): the level's
///    last message to each peer is synchronous (MPI_Issend; an empty one if
///    nothing is left), so a rank whose sends have all completed knows every
///    message it sent was received (a sender's messages to one rank are
///    matched in order), and joins an MPI_Ibarrier, receiving until it
///    completes; O(log P) per level.
/// The tag alternates with each level begun (tag()): a rank that finished a
/// level may already send the next, even the next search's first, while a
/// peer still drains it.
/// Nothing here blocks on a send while not receiving, so no cycle of ranks
/// can wait on each other.
///
/// Memory.  Sends in flight and spare buffers are bounded by kBudgetBytes
/// each (at most 4 (P + 1) buffers), not by P: a sender that reaches the
/// bound receives until a send completes.  held_bytes() says what the
/// exchange holds; it is charged as ht::Held::exchange (runtime/HT_HeldBytes.hpp).
/// Besides, it keeps 26 bytes of bookkeeping a peer.  A level's end costs
/// O(peers addressed) under nbx (markers send one to every peer).
///
/// Guards.  Each Exchange duplicates its communicator, so no two users'
/// messages can meet, whatever their tags.  push() or post() after finish()
/// of the level is refused (ht::Error): its message could arrive a level
/// late.  A handler may send (push): when that waits for room and receives,
/// what arrives is kept and handed over once the handler returns, never
/// into the buffer the handler still reads.  A rank that waits for its peers
/// with nothing arriving for Runtime/stall_seconds prints the level's state
/// and ends the job (HT_Watchdog.hpp).
///
/// Threads.  push(), poll(), finish(), drained() and end_level() make MPI
/// calls: one caller at a time.  Tasks that discover remote vertices
/// concurrently fill buffers of their own and hand each full one over with
/// post() (lock-free: a Treiber stack that the MPI caller empties in one
/// exchange), and any of them may try_poll(): whoever finds the MPI role free
/// sends what was posted and applies what arrived; the others go on at once.
/// Calls stay serialized, so MPI_THREAD_SERIALIZED suffices.
///
/// Examples: examples/exchange.cpp, tests/comm/tstExchange.cpp.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "comm/HT_ClosingBarrier.hpp"
#include "comm/HT_Messages.hpp"
#include "comm/HT_OneCaller.hpp"
#include "comm/HT_Watchdog.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_HeldBytes.hpp"

namespace ht {

class Exchange {
 public:
  /// One item: \c vertex (its owner receives it) and a 64-bit \c value whose
  /// meaning is the user's (a BFS parent, an SSSP distance and parent packed,
  /// a level, a rank...): each user names it where it packs and unpacks it.
  struct Item {
    std::int64_t vertex, value;
  };
  using Handler = std::function<void(const Item*, std::size_t)>;
  /// How a level's end is learnt (see above).
  enum class Termination {
    automatic,  ///< HT_EXCHANGE_END if set (auto, markers or nbx), else by_ranks
    by_ranks,   ///< markers up to kMarkerRanks ranks, nbx beyond
    markers,
    nbx
  };
  /// Markers up to this many ranks, nbx beyond: where P - 1 markers
  /// outnumber a barrier's log2(P) rounds 4 to 1 (docs/performance/sssp.md has
  /// the measurements; HT_EXCHANGE_END overrides).
  static constexpr int kMarkerRanks = 16;
  /// \brief Bytes of sends in flight, and of spare buffers, an exchange
  /// keeps at most, whatever the number of ranks: 16 MiB each (at least one
  /// buffer).
  static constexpr std::int64_t kBudgetBytes = std::int64_t(16) << 20;
  static constexpr int kTagBase = 7100;
  /// An end marker's item, when it carries end_level_min()'s value: no vertex.
  static constexpr std::int64_t kMarkerVertex = -1;
  /// What this level cost.  Seconds are wall-clock, on whichever thread
  /// made the call: \c busy in sends and receives (applying arrivals
  /// included), \c waiting in end_level() or drained() while nothing arrived
  /// and peers had not ended the level.  Each second is counted once: only
  /// the outermost exchange call on the stack is timed (finish() sends, and
  /// a send that waits for room receives, inside one timed call).  The
  /// calls are serialized (one MPI caller at a time), so the timed intervals
  /// never overlap: busy + waiting <= the level's wall clock.
  struct Stats {
    std::int64_t messages = 0, bytes = 0;
    double busy = 0, waiting = 0;
  };

  /// Collective over \p comm (duplicates it).  \p clock times the level
  /// (Stats); tests inject one they control.  \p end: how levels end
  /// (resolve()).
  Exchange(MPI_Comm comm, std::size_t capacity, Clock clock = steady_seconds,
           Termination end = Termination::automatic);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  void begin_level(int level);
  /// Queues \p item for rank \p dest (not this rank).  ht::Error after finish().
  void push(int dest, Item item, const Handler& on_receive) {
    if (finished_.load(std::memory_order_relaxed)) after_finish("push");
    auto& b = current_[dest];
    if (b.capacity() == 0) open(dest);  // its first item since its last send
    b.push_back(item);
    if (b.size() >= capacity_) {
      Timed t(*this, stats_.busy);
      send(dest, on_receive);
    }
  }
  /// Any thread, lock-free: queues a buffer of items for \p dest (not this
  /// rank); the next poll(), try_poll() or finish() sends it.  ht::Error
  /// after finish().
  void post(int dest, std::vector<Item>&& items);
  /// Sends what was posted, hands arrived items to \p on_receive; true if any arrived.
  bool poll(const Handler& on_receive);
  /// Any thread: poll() unless another thread is in the exchange (then
  /// returns false at once, never waits).  Not concurrently with the other
  /// MPI calls above, except other try_poll()s.
  bool try_poll(const Handler& on_receive);
  /// Items per buffer (what a full post() carries).
  std::size_t capacity() const { return capacity_; }
  /// \brief Bytes of item buffers held now: one per peer with items
  /// waiting, sends in flight, spares and arrivals not yet handed over.
  std::int64_t held_bytes() const { return charge_.bytes(); }
  /// \brief Sends in flight before a sender waits for room: 4 (P + 1), and
  /// at most kBudgetBytes of buffers (at least one); spares are kept up to
  /// as many.
  std::size_t max_in_flight() const { return window_; }
  /// Flush and drain: on return every item of this level has been handed
  /// over, on every rank.  Host thread only (a Kokkos profiling region).
  void end_level(const Handler& on_receive);
  /// end_level(), and the least over the ranks of their \p value (given at
  /// the flush): each end marker carries it (one item, 16 bytes), or nbx
  /// closes the level with an MPI_Iallreduce of it instead of the
  /// MPI_Ibarrier.  All ranks end a level the same way, this or end_level().
  std::int64_t end_level_min(const Handler& on_receive, std::int64_t value);
  /// end_level() in steps, for a caller that must not block (a task that
  /// respawns): finish() flushes (and posts the end markers), once;
  /// drained() polls and says whether the level is complete (ht::Error
  /// before finish()).
  void finish(const Handler& on_receive);
  bool drained(const Handler& on_receive);
  /// Data messages and bytes sent this level (end markers not counted), and
  /// the seconds spent in the exchange.
  Stats stats() const { return stats_; }
  /// The exchange's clock (the one its Stats are in).
  Clock clock() const { return clock_; }
  /// The termination in use: markers or nbx.
  Termination termination() const { return nbx_ ? Termination::nbx : Termination::markers; }
  /// The exchange's own communicator (a duplicate of the one it was given).
  MPI_Comm comm() const { return comm_; }
  /// The tag of this level's messages on comm().  It alternates with each
  /// begin_level(), not with the level's number: a peer is at most one level
  /// ahead (it cannot end a level without this rank's end), but the level
  /// it is ahead in may be the next search's first, and without agreeing
  /// collectives between searches (SSSP) its messages must not match the
  /// last level's receives here.
  int tag() const { return tag_; }
  /// Where this rank stands in the level (what the watchdog prints).
  std::string state() const;
  /// What \p end becomes on \p ranks ranks: markers or nbx.  Throws
  /// ht::UsageError naming HT_EXCHANGE_END when automatic meets a value of
  /// it that is none of auto, markers, nbx (so do the constructors).
  static Termination resolve(Termination end, int ranks);
  /// "markers" or "nbx".
  static const char* name(Termination end);

 private:
  /// Adds the seconds of its scope to \p sum, unless an enclosing exchange
  /// call is already being timed (then that one counts them).
  class Timed {
   public:
    Timed(Exchange& ex, double& sum);
    ~Timed();
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

   private:
    Exchange& ex_;
    double* sum_;
    double start_ = 0;
  };
  struct Posted {
    int dest;
    std::vector<Item> items;
    Posted* next;
  };
  // Untimed (callers time).  \p last: nbx's synchronous last message of the
  // level to \p dest.
  void send(int dest, const Handler& on_receive, bool last = false);
  void send_items(int dest, std::vector<Item>&& items, const Handler& on_receive,
                  bool last = false);
  void send_posted(const Handler& on_receive);
  bool receive(const Handler& on_receive);  // arrivals only
  void apply_arrived(const Handler& on_receive);
  bool drain_step(const Handler& on_receive);  // drained(), untimed
  void reap();                                 // frees completed sends
  void open(int dest);                         // a buffer for dest's items
  void touch(int dest);                        // dest addressed this level
  std::vector<Item> spare();                   // an empty buffer of capacity_
  void recycle(std::vector<Item>&& b);         // back among the spares, or freed
  void hold(std::int64_t items);               // held_bytes() += items' bytes
  [[noreturn]] void after_finish(const char* call) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, tag_ = 0, level_ = 0, ends_ = 0;
  long long levels_begun_ = 0;  // begin_level() calls: the tag's parity
  std::int64_t received_ = 0;   // data messages, ever
  std::size_t capacity_;
  std::size_t window_;                      // sends in flight, and spares, at most
  std::vector<std::vector<Item>> current_;  // per peer: empty (no buffer) unless items wait
  SendList<Item> out_;                      // data, and markers (empty)
  std::vector<std::vector<Item>> spare_;
  std::deque<std::vector<Item>> arrived_;  // received, not yet handed over
  bool applying_ = false;                  // a handler runs: arrivals wait in arrived_
  std::vector<char> touched_;              // per peer: pushed or sent to this level
  std::vector<int> touched_list_;          // those peers
  std::vector<char> heard_;                // per peer: its end (markers) or anything (nbx)
  bool nbx_ = false;
  bool reduce_ = false;     // end_level_min(): the level's end carries least_
  std::int64_t least_ = 0;  // this rank's value, then the least heard
  ClosingBarrier barrier_;  // nbx
  Stats stats_;
  Clock clock_;
  bool timing_ = false;  // a Timed scope is open (calls are serialized)
  std::atomic<bool> finished_{false};
  std::atomic<Posted*> posted_{nullptr};
  OneCaller mpi_;
  Watchdog dog_;
  HeldCharge charge_{Held::exchange};
};

}  // namespace ht
