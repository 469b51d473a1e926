#pragma once
/// \file HT_WorkStealing.hpp
/// \brief Work that moves between ranks: a rank's shared work pool, stealing
/// between ranks, and global termination detection.
///
/// The model is UTS's (Dinan et al., "Scalable work stealing", SC 2009) on a
/// task runtime.  Each worker (a task) keeps private work; it moves part of
/// it to the rank's shared pool only when wanted() (a local worker is idle,
/// or a thief is waiting), as in Tascell's lazy task creation.  A rank whose
/// workers and pool are all empty is *passive*: it sends one steal request at
/// a time to a victim (round robin from the next rank, as the reference, or
/// uniformly random); the victim answers from its pool with half of it or one
/// chunk, or with nothing when it is passive too.  A request that arrives
/// while the victim's workers are busy but its pool is empty waits until work
/// is released (wanted() tells the workers) or the victim turns passive; so
/// does one that arrives while the pool holds work but no worker is busy
/// (work that just came in goes to the rank's own workers first: served at
/// once, one item could bounce between two idle ranks for ever).
///
/// Termination: Safra's token algorithm (E. W. Dijkstra, "Shmuel Safra's
/// version of termination detection", EWD998, 1987), the token ring with
/// message counts that uts-mpi-ws uses.  Only replies that carry work are
/// counted (a request or an empty reply activates nobody).  Each rank keeps
/// c = work messages sent - received and a colour, black once it received
/// work since it last passed the token.  Rank 0, when passive, sends a white
/// token with q = 0 around the ring; a rank passes it on only while passive,
/// adding its c and blackening it if the rank is black, then turns white.
/// Back at rank 0 (passive): white token, white rank 0 and q + c0 = 0 mean
/// that every rank was passive when the token passed and nothing it counted
/// was in flight, and a rank passive with no work in flight never becomes
/// active again; so rank 0 sends "done" to every rank.  Otherwise it starts a
/// new round.  After "done" a rank answers every request with nothing, waits
/// for the reply to its own request, then joins a nonblocking barrier and
/// keeps answering until it completes: no message is left unreceived.
///
/// Progress (StealProgress): \c polling, one caller at a time through poll()
/// (a try-lock: workers call it between nodes, idle workers in a loop, as the
/// BFS exchange is driven from inside the task scheduler); or \c thread, a
/// messaging thread of its own that makes every MPI call while the workers
/// never do (needs MPI_THREAD_MULTIPLE: it runs beside the host thread).
///
/// Guarantees, checked.  finish() verifies what termination promises: no item
/// left in this rank's pool, no worker busy, no request or reply pending, and
/// over all ranks no work message unaccounted for (Safra's counts sum to 0,
/// items sent equal items received); otherwise ht::Error.  A work reply that
/// arrives after "done" is an ht::Error too (its items would be lost).  A
/// rank whose steal request goes unanswered, or whose shutdown does not
/// close, for Runtime/stall_seconds prints its protocol state and ends the
/// job (HT_Watchdog.hpp).
///
/// Items are fixed-size and trivially copyable; they travel as bytes.  A
/// driver uses StealPool<T> (below) for its own item type.
///
/// Example: examples/steal_pool.cpp (one worker a rank; UTS runs one a task,
/// src/uts/HT_UtsSearch.cpp).
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "comm/HT_ClosingBarrier.hpp"
#include "comm/HT_Messages.hpp"
#include "comm/HT_OneCaller.hpp"
#include "comm/HT_StealHooks.hpp"
#include "comm/HT_Watchdog.hpp"
#include "runtime/HT_Choices.hpp"
#include "runtime/HT_Clock.hpp"

namespace ht {

/// Whom an idle rank asks.
enum class StealVictim { round_robin, random };
/// What a victim gives: half of its pool, or one chunk.
enum class StealAmount { half, chunk };
/// Who makes the MPI calls.
enum class StealProgress { polling, thread };

/// The names decks, --help and the output use (runtime/HT_Choices.hpp).
inline constexpr Choices<StealVictim, 2> kStealVictims{
    {{StealVictim::round_robin, "round_robin"}, {StealVictim::random, "random"}}};
inline constexpr Choices<StealAmount, 2> kStealAmounts{
    {{StealAmount::half, "half"}, {StealAmount::chunk, "chunk"}}};
inline constexpr Choices<StealProgress, 2> kStealProgress{
    {{StealProgress::polling, "polling"}, {StealProgress::thread, "thread"}}};
inline const char* victim_name(StealVictim v) { return kStealVictims.name(v); }
inline const char* amount_name(StealAmount a) { return kStealAmounts.name(a); }
inline const char* progress_name(StealProgress p) { return kStealProgress.name(p); }

struct StealOptions {
  bool enabled = true;  ///< false: no rank asks; termination is still detected
  StealVictim victim = StealVictim::round_robin;
  StealAmount amount = StealAmount::half;
  std::size_t chunk = 20;  ///< items per reply for StealAmount::chunk (the reference's -c)
  StealProgress progress = StealProgress::polling;
  std::uint64_t seed = 1;       ///< random victims: the stream (mixed with the rank)
  StealHooks* hooks = nullptr;  ///< tests only: delays, held replies (HT_StealHooks.hpp)
};

/// What one rank did (counts of its own side).
struct StealStats {
  std::int64_t requests = 0;        ///< steal requests sent
  std::int64_t steals = 0;          ///< requests answered with work
  std::int64_t served = 0;          ///< requests this rank answered with work
  std::int64_t refused = 0;         ///< requests this rank answered with nothing
  std::int64_t items_sent = 0;      ///< items given to thieves
  std::int64_t items_received = 0;  ///< items stolen
  std::int64_t token_rounds = 0;    ///< termination rounds rank 0 started (0 elsewhere)
};

/// The byte-level engine; see StealPool<T>.
class WorkStealing {
 public:
  /// Collective over \p comm (duplicates it).  \p workers: the consumers on
  /// this rank that call acquire()/idle().
  WorkStealing(MPI_Comm comm, std::size_t item_bytes, int workers, const StealOptions& opt);
  ~WorkStealing();
  WorkStealing(const WorkStealing&) = delete;
  WorkStealing& operator=(const WorkStealing&) = delete;

  /// Host, before start(): work this rank begins with.
  void seed(const void* items, std::size_t n);
  /// Host: opens the search (starts the messaging thread in thread mode).
  void start();
  /// Worker: up to \p max items from the pool into \p out; with n > 0 the
  /// caller counts as busy until idle().
  std::size_t acquire(void* out, std::size_t max);
  /// Worker (busy): gives \p n items to the pool.
  void release(const void* items, std::size_t n);
  /// Worker: its private work ran out (after an acquire() that gave work).
  void idle();
  /// Someone waits for work here and the pool is empty: a busy worker should
  /// release part of its work.
  bool wanted() const {
    return pool_items_.load(std::memory_order_relaxed) == 0 &&
           (busy_.load(std::memory_order_relaxed) < workers_ ||
            waiting_.load(std::memory_order_relaxed));
  }
  /// Polling mode: drives stealing and termination unless another thread is
  /// doing so (never blocks).  Thread mode: nothing.
  void poll() {
    if (opt_.progress == StealProgress::polling) try_progress();
  }
  /// Global termination was detected: every rank's work is done.
  bool done() const { return done_.load(std::memory_order_acquire); }
  /// Host, after the workers ended: completes the shutdown protocol
  /// (collective) and joins the messaging thread.
  void finish();

  StealStats stats() const { return stats_; }
  const StealOptions& options() const { return opt_; }
  std::size_t item_bytes() const { return item_bytes_; }
  /// Where this rank stands in the protocol (what the watchdog prints): the
  /// progress caller's view (polling mode, or after finish()).
  std::string state();

 private:
  enum Tag { kRequest = 1, kReply, kToken, kDone };
  struct Held {  // a reply a test hook holds back
    int thief;
    int calls;
    std::vector<std::uint8_t> bytes;
  };
  struct Token {
    std::int64_t q;
    std::int32_t black;
    std::int32_t pad;
  };
  void try_progress();
  void progress();  // one caller at a time
  void receive();
  void serve_waiting();
  void answer(int thief);
  void send_held(bool all);
  void maybe_steal();
  void pass_token();
  void drain();
  void watch();
  void verify_finish();
  bool passive();
  int next_victim();
  void send(int dest, Tag tag, std::vector<std::uint8_t> bytes);
  void before(StealStep step, int peer) {
    if (opt_.hooks) opt_.hooks->before(step, peer);
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::size_t item_bytes_;
  int workers_;
  StealOptions opt_;

  // The shared pool.
  std::mutex mutex_;
  std::deque<std::uint8_t> pool_;  // items back to back
  std::atomic<std::size_t> pool_items_{0};
  std::atomic<int> busy_{0};
  std::atomic<bool> waiting_{false};        // a thief's request waits here
  std::atomic<std::uint64_t> acquired_{0};  // acquire()s that took work, ever

  // Progress state: touched by the one progress caller only.
  OneCaller mpi_;                    // polling: whoever finds it free progresses
  std::vector<int> thieves_;         // requests not yet answered
  bool asking_ = false;              // our request is out
  std::uint64_t seen_acquired_ = 0;  // acquired_ at the last watch()
  int asked_ = -1;                   // whom
  int last_victim_ = -1;
  std::mt19937_64 rng_;
  std::int64_t count_ = 0;  // Safra: work messages sent - received
  bool black_ = false;
  bool have_token_ = false;
  bool probing_ = false;  // rank 0: a token is out
  Token token_{0, 0, 0};
  SendList<std::uint8_t> out_;
  std::vector<Held> held_;
  ClosingBarrier barrier_;  // the shutdown's
  std::unique_ptr<Watchdog> dog_;
  std::atomic<bool> done_{false};
  std::atomic<bool> finished_{false};
  StealStats stats_;
  std::thread thread_;
};

/// Typed front of WorkStealing for items of type \p T.
template <class T>
class StealPool {
  static_assert(std::is_trivially_copyable_v<T>, "stolen items travel as bytes");

 public:
  StealPool(MPI_Comm comm, int workers, const StealOptions& opt)
      : ws_(comm, sizeof(T), workers, opt) {}
  void seed(const T* items, std::size_t n) { ws_.seed(items, n); }
  void start() { ws_.start(); }
  std::size_t acquire(T* out, std::size_t max) { return ws_.acquire(out, max); }
  void release(const T* items, std::size_t n) { ws_.release(items, n); }
  void idle() { ws_.idle(); }
  bool wanted() const { return ws_.wanted(); }
  void poll() { ws_.poll(); }
  bool done() const { return ws_.done(); }
  void finish() { ws_.finish(); }
  StealStats stats() const { return ws_.stats(); }
  const StealOptions& options() const { return ws_.options(); }
  /// The protocol state (polling mode, or after finish()).
  std::string state() { return ws_.state(); }

 private:
  WorkStealing ws_;
};

}  // namespace ht
