#include "comm/HT_Exchange.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {
// The user's choice, for a machine where the crossover is known.
Exchange::Termination from_environment() {
  const char* v = std::getenv("HT_EXCHANGE_END");
  const std::string s = v ? v : "";
  if (s.empty() || s == "auto") return Exchange::Termination::by_ranks;
  if (s == "markers") return Exchange::Termination::markers;
  if (s == "nbx") return Exchange::Termination::nbx;
  throw UsageError("HT_EXCHANGE_END = '" + s + "': auto, markers or nbx");
}

constexpr int kTagBase = 7100;  // + level parity; clear of the other tags in use (Cannon: 1, 2)
// Sends in flight per peer before a sender stops to reap: a bound on the
// memory held by unsent buffers (buffer_items pairs each), not a tuned figure.
constexpr std::size_t kInFlightPerPeer = 4;
}  // namespace

Exchange::Timed::Timed(Exchange& ex, double& sum) : ex_(ex), sum_(ex.timing_ ? nullptr : &sum) {
  if (!sum_) return;
  ex_.timing_ = true;
  start_ = ex_.clock_();
}

Exchange::Timed::~Timed() {
  if (!sum_) return;
  *sum_ += ex_.clock_() - start_;
  ex_.timing_ = false;
}

Exchange::Exchange(MPI_Comm comm, std::size_t capacity, Clock time, Termination end)
    : comm_(comm), capacity_(capacity < 1 ? 1 : capacity), clock_(time) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  nbx_ = resolve(end, size_) == Termination::nbx;
  current_.resize(size_);
  sent_to_.assign(static_cast<std::size_t>(size_), 0);
  for (auto& b : current_) b.reserve(capacity_);
}

Exchange::Termination Exchange::resolve(Termination end, int ranks) {
  if (end == Termination::automatic) end = from_environment();
  if (end == Termination::by_ranks)
    end = ranks > kMarkerRanks ? Termination::nbx : Termination::markers;
  return end;
}

const char* Exchange::name(Termination end) {
  return end == Termination::nbx ? "nbx" : end == Termination::markers ? "markers" : "automatic";
}

Exchange::~Exchange() {
  // Normally empty after end_level(); never leave requests dangling.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& f : in_flight_) {
    MPI_Cancel(&f.request);
    MPI_Request_free(&f.request);
  }
  // A barrier left open (an error unwound the level) is left alone: MPI
  // allows neither cancelling nor freeing one, and waiting could hang.
  for (Posted* p = posted_.exchange(nullptr); p;) delete std::exchange(p, p->next);
}

void Exchange::begin_level(int level) {
  tag_ = kTagBase + (level & 1);
  ends_ = 0;
  joined_ = false;
  std::fill(sent_to_.begin(), sent_to_.end(), 0);
  stats_ = Stats{};
}

void Exchange::reap() {
  for (std::size_t i = 0; i < in_flight_.size();) {
    int done = 0;
    MPI_Test(&in_flight_[i].request, &done, MPI_STATUS_IGNORE);
    if (done) {
      in_flight_[i].items.clear();
      // Posted buffers join the spares only up to a bound: their producers allocate anew.
      if (spare_.size() < static_cast<std::size_t>(size_) + 4)
        spare_.push_back(std::move(in_flight_[i].items));
      in_flight_[i] = std::move(in_flight_.back());
      in_flight_.pop_back();
    } else {
      ++i;
    }
  }
}

void Exchange::send(int dest, const Handler& on_receive, bool last) {
  std::vector<Item> items = std::move(current_[dest]);
  if (spare_.empty()) {
    current_[dest] = {};
    current_[dest].reserve(capacity_);
  } else {
    current_[dest] = std::move(spare_.back());
    spare_.pop_back();
  }
  send_items(dest, std::move(items), on_receive, last);
}

void Exchange::send_items(int dest, std::vector<Item>&& items, const Handler& on_receive,
                          bool last) {
  // Bound the memory in flight; while waiting for sends to finish, keep
  // receiving, so that the peers we wait for can finish theirs.
  const std::size_t limit = kInFlightPerPeer * static_cast<std::size_t>(size_) + kInFlightPerPeer;
  reap();
  while (in_flight_.size() >= limit) {
    if (!receive(on_receive)) std::this_thread::yield();
    reap();
  }
  in_flight_.push_back({MPI_REQUEST_NULL, std::move(items)});
  InFlight& f = in_flight_.back();
  const int bytes = static_cast<int>(f.items.size() * sizeof(Item));
  // nbx: the level's last message to a peer is synchronous, so that its
  // completion says the peer has it, and (MPI keeps a sender's messages to
  // one rank in order) every earlier one too.  Those go as standard sends:
  // all synchronous, tiny buffers on ranks that share cores waited on
  // sleeping peers (a test on 4 ranks, 1-item buffers: 154 s against 17 s).
  (last ? MPI_Issend : MPI_Isend)(f.items.data(), bytes, MPI_BYTE, dest, tag_, comm_, &f.request);
  sent_to_[static_cast<std::size_t>(dest)] = 1;
  if (bytes == 0) return;  // nbx's closing message: no data
  stats_.messages += 1;
  stats_.bytes += bytes;
}

void Exchange::post(int dest, std::vector<Item>&& items) {
  Posted* p = new Posted{dest, std::move(items), posted_.load(std::memory_order_relaxed)};
  while (!posted_.compare_exchange_weak(p->next, p, std::memory_order_release,
                                        std::memory_order_relaxed)) {
  }
}

void Exchange::send_posted(const Handler& on_receive) {
  Posted* p = posted_.exchange(nullptr, std::memory_order_acquire);
  while (p) {
    std::unique_ptr<Posted> node(std::exchange(p, p->next));
    if (!node->items.empty()) send_items(node->dest, std::move(node->items), on_receive);
  }
}

bool Exchange::poll(const Handler& on_receive) {
  Timed t(*this, stats_.busy);
  send_posted(on_receive);
  return receive(on_receive);
}

bool Exchange::try_poll(const Handler& on_receive) {
  if (polling_.exchange(true, std::memory_order_acquire)) return false;
  struct Release {
    std::atomic<bool>& flag;
    ~Release() { flag.store(false, std::memory_order_release); }
  } release{polling_};
  return poll(on_receive);
}

bool Exchange::receive(const Handler& on_receive) {
  bool any = false;
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, tag_, comm_, &flag, &msg, &status);
    if (!flag) return any;
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if (bytes % static_cast<int>(sizeof(Item)) != 0) {
      throw Error("exchange: a message of " + std::to_string(bytes) + " bytes from rank " +
                  std::to_string(status.MPI_SOURCE) + " is no whole number of items");
    }
    inbox_.resize(bytes / sizeof(Item));
    MPI_Mrecv(inbox_.data(), bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    if (bytes == 0) {
      ++ends_;  // the sender has nothing more for this level
    } else {
      on_receive(inbox_.data(), inbox_.size());
      ++received_;
    }
    any = true;
  }
}

void Exchange::finish(const Handler& on_receive) {
  Timed t(*this, stats_.busy);
  send_posted(on_receive);
  ends_out_.clear();
  if (nbx_) {
    // Each peer sent anything this level gets a synchronous last message:
    // the rest of its buffer, or nothing (read as an end marker, unused here).
    for (int p = 0; p < size_; ++p) {
      if (p == rank_) continue;
      if (!current_[p].empty())
        send(p, on_receive, true);
      else if (sent_to_[static_cast<std::size_t>(p)])
        send_items(p, {}, on_receive, true);
    }
    return;
  }
  for (int p = 0; p < size_; ++p) {
    if (p != rank_ && !current_[p].empty()) send(p, on_receive);
  }
  for (int p = 0; p < size_; ++p) {
    if (p == rank_) continue;
    ends_out_.emplace_back();
    MPI_Isend(nullptr, 0, MPI_BYTE, p, tag_, comm_, &ends_out_.back());
  }
}

bool Exchange::drained(const Handler& on_receive) {
  // Busy if data arrived, waiting if not: known only at the end.
  double seconds = 0;
  const std::int64_t before = received_;
  bool done = false;
  {
    Timed t(*this, seconds);
    done = drain_step(on_receive);
  }
  (received_ != before ? stats_.busy : stats_.waiting) += seconds;
  return done;
}

bool Exchange::drain_step(const Handler& on_receive) {
  if (posted_.load(std::memory_order_acquire)) {
    throw Error("exchange: items posted after finish() of the level");
  }
  receive(on_receive);
  if (nbx_) {
    // All our sends received: join the barrier.  When it completes every
    // rank has joined, so every message of the level has been received.
    reap();
    if (!joined_) {
      if (!in_flight_.empty()) return false;
      MPI_Ibarrier(comm_, &barrier_);
      joined_ = true;
    }
    int done = 0;
    MPI_Test(&barrier_, &done, MPI_STATUS_IGNORE);
    return done;
  }
  if (ends_ < size_ - 1) return false;
  // Our data went out before our end markers and every peer drains until it
  // has our marker, so these sends are being matched: wait to free their buffers.
  reap();
  if (!in_flight_.empty()) return false;
  int done = 0;
  MPI_Testall(static_cast<int>(ends_out_.size()), ends_out_.data(), &done, MPI_STATUSES_IGNORE);
  return done;
}

void Exchange::end_level(const Handler& on_receive) {
  Region region("Exchange: end of level");  // host only: Kokkos Tools' regions nest per process
  finish(on_receive);
  Backoff backoff;
  while (!drained(on_receive)) {
    Timed t(*this, stats_.waiting);
    backoff.pause();
  }
}

}  // namespace ht
