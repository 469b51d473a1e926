#pragma once
/// \file HT_Exchange.hpp
/// \brief Coalescing exchange of small items between ranks, level by level:
/// the producer/consumer queues with coalescing of the UPC-queues work
/// (J. Jose, S. Potluri, K. Tomko, D. K. Panda, "Designing scalable Graph500
/// benchmark with hybrid MPI+OpenSHMEM programming models", ISC 2013).
///
/// push() appends to a per-destination buffer of \c capacity items and sends
/// it (MPI_Isend) when full; poll() takes whatever has arrived (MPI_Improbe +
/// MPI_Mrecv, never blocking); end_level() flushes and receives until the
/// level is over on every rank, learnt in one of two ways (Termination):
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
/// The level's parity is in the tag: a rank that finished level L may
/// already send level L+1 while a peer still drains level L.
/// Nothing here blocks on a send while not receiving, so no cycle of ranks
/// can wait on each other.
///
/// Threads.  push(), poll(), finish(), drained() and end_level() make MPI
/// calls: one caller at a time.  Tasks that discover remote vertices
/// concurrently fill buffers of their own and hand each full one over with
/// post() (lock-free: a Treiber stack that the MPI caller empties in one
/// exchange), and any of them may try_poll(): whoever finds the MPI role free
/// sends what was posted and applies what arrived; the others go on at once.
/// Calls stay serialized, so MPI_THREAD_SERIALIZED suffices.
///
/// Example:
/// \code
///   ht::Exchange ex(comm, 4096);
///   ex.begin_level(level);
///   ex.push(owner, {v, u}, apply);      // apply(const Item*, n) on arrivals
///   ex.end_level(apply);
///   auto sent = ex.stats();             // messages and bytes this level
/// \endcode
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/HT_Clock.hpp"

namespace ht {

class Exchange {
 public:
  /// A discovery: \c vertex reached from \c parent.
  struct Item {
    std::int64_t vertex, parent;
  };
  using Handler = std::function<void(const Item*, std::size_t)>;
  /// How a level's end is learnt (see above).
  enum class Termination {
    automatic,  ///< HT_EXCHANGE_END if set (auto, markers or nbx), else by_ranks
    by_ranks,   ///< markers up to kMarkerRanks ranks, nbx beyond
    markers,
    nbx
  };
  /// Measured (SSSP, SCALE 18, ~725 levels a search, 3 runs alternated):
  /// nbx 4-12% slower on 2 ranks; on 4 ranks sharing 2 cores 12-38% slower
  /// (a barrier's rounds wait on ranks that are not running).  The crossover
  /// needs more cores than were at hand: 16, where P - 1 markers outnumber
  /// a barrier's log2(P) rounds 4 to 1, is a guess, and HT_EXCHANGE_END
  /// overrides it.
  static constexpr int kMarkerRanks = 16;
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

  /// \p clock times the level (Stats); tests inject one they control.
  /// \p end: how levels end (resolve()).
  Exchange(MPI_Comm comm, std::size_t capacity, Clock clock = steady_seconds,
           Termination end = Termination::automatic);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  void begin_level(int level);
  /// Queues \p item for rank \p dest (not this rank).
  void push(int dest, Item item, const Handler& on_receive) {
    auto& b = current_[dest];
    b.push_back(item);
    if (b.size() >= capacity_) {
      Timed t(*this, stats_.busy);
      send(dest, on_receive);
    }
  }
  /// Any thread, lock-free: queues a buffer of items for \p dest (not this
  /// rank); the next poll(), try_poll() or finish() sends it.
  void post(int dest, std::vector<Item>&& items);
  /// Sends what was posted, hands arrived items to \p on_receive; true if any arrived.
  bool poll(const Handler& on_receive);
  /// Any thread: poll() unless another thread is in the exchange (then
  /// returns false at once, never waits).  Not concurrently with the other
  /// MPI calls above, except other try_poll()s.
  bool try_poll(const Handler& on_receive);
  /// Items per buffer (what a full post() carries).
  std::size_t capacity() const { return capacity_; }
  /// Flush and drain: on return every item of this level has been handed
  /// over, on every rank.  Host thread only (a Kokkos profiling region).
  void end_level(const Handler& on_receive);
  /// end_level() in steps, for a caller that must not block (a task that
  /// respawns): finish() flushes (and posts the end markers), once;
  /// drained() polls and says whether the level is complete.
  void finish(const Handler& on_receive);
  bool drained(const Handler& on_receive);
  /// Data messages and bytes sent this level (end markers not counted), and
  /// the seconds spent in the exchange.
  Stats stats() const { return stats_; }
  /// The exchange's clock (the one its Stats are in).
  Clock clock() const { return clock_; }
  /// The termination in use: markers or nbx.
  Termination termination() const { return nbx_ ? Termination::nbx : Termination::markers; }
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
  struct InFlight {
    MPI_Request request;
    std::vector<Item> items;
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
  bool receive(const Handler& on_receive);     // arrivals only
  bool drain_step(const Handler& on_receive);  // drained(), untimed
  void reap();                                 // frees completed sends

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1, tag_ = 0, ends_ = 0;
  std::int64_t received_ = 0;  // data messages, ever
  std::size_t capacity_;
  std::vector<std::vector<Item>> current_;
  std::vector<InFlight> in_flight_;
  std::vector<std::vector<Item>> spare_;
  std::vector<Item> inbox_;
  std::vector<MPI_Request> ends_out_;  // markers
  std::vector<char> sent_to_;          // per peer: sent anything this level
  bool nbx_ = false;
  bool joined_ = false;                     // nbx: in the level's barrier
  MPI_Request barrier_ = MPI_REQUEST_NULL;  // nbx
  Stats stats_;
  Clock clock_;
  bool timing_ = false;  // a Timed scope is open (calls are serialized)
  std::atomic<Posted*> posted_{nullptr};
  std::atomic<bool> polling_{false};
};

}  // namespace ht
