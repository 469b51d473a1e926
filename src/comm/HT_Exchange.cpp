#include "comm/HT_Exchange.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"
#include "runtime/HT_Settings.hpp"

namespace ht {

namespace {
// The user's choice, for a machine where the crossover is known.
Exchange::Termination from_environment() {
  const std::string s = setting("HT_EXCHANGE_END");
  if (s.empty() || s == "auto") return Exchange::Termination::by_ranks;
  if (s == "markers") return Exchange::Termination::markers;
  if (s == "nbx") return Exchange::Termination::nbx;
  throw UsageError("HT_EXCHANGE_END = '" + s + "': auto, markers or nbx");
}

MPI_Comm duplicate(MPI_Comm comm) {
  MPI_Comm own;
  MPI_Comm_dup(comm, &own);
  return own;
}

// Sends in flight per peer before a sender stops to reap, below the byte
// budget: a bound on the memory held by unsent buffers, not a tuned figure.
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
    : comm_(duplicate(comm)),
      capacity_(capacity < 1 ? 1 : capacity),
      window_(1),
      clock_(time),
      dog_(comm_, "the exchange") {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  try {
    nbx_ = resolve(end, size_) == Termination::nbx;
  } catch (...) {
    MPI_Comm_free(&comm_);
    throw;
  }
  current_.resize(static_cast<std::size_t>(size_));  // no buffers: open() takes them
  touched_.assign(static_cast<std::size_t>(size_), 0);
  heard_.assign(static_cast<std::size_t>(size_), 0);
  const auto buffer = static_cast<std::int64_t>(capacity_ * sizeof(Item));
  window_ = static_cast<std::size_t>(std::max<std::int64_t>(
      1, std::min<std::int64_t>(kBudgetBytes / buffer,
                                static_cast<std::int64_t>(kInFlightPerPeer) * (size_ + 1))));
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
  for (Posted* p = posted_.exchange(nullptr); p;) delete std::exchange(p, p->next);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  out_.cancel();  // normally empty after end_level()
  MPI_Comm_free(&comm_);
}

void Exchange::begin_level(int level) {
  level_ = level;
  tag_ = kTagBase + static_cast<int>(levels_begun_++ & 1);
  ends_ = 0;
  least_ = std::numeric_limits<std::int64_t>::max();  // markers may come before end_level_min()
  barrier_.reset();
  finished_.store(false, std::memory_order_relaxed);
  for (const int p : touched_list_) touched_[static_cast<std::size_t>(p)] = 0;
  touched_list_.clear();
  if (!nbx_) std::fill(heard_.begin(), heard_.end(), 0);  // markers: one from every peer
  stats_ = Stats{};
  dog_.progress();
}

void Exchange::after_finish(const char* call) const {
  throw Error(std::string("exchange: ") + call + "() after finish() of level " +
              std::to_string(level_) + ": its items could arrive in a later level");
}

void Exchange::hold(std::int64_t items) {
  charge_.set(charge_.bytes() + items * static_cast<std::int64_t>(sizeof(Item)));
}

void Exchange::touch(int dest) {
  char& t = touched_[static_cast<std::size_t>(dest)];
  if (t) return;
  t = 1;
  touched_list_.push_back(dest);
}

void Exchange::open(int dest) {
  current_[static_cast<std::size_t>(dest)] = spare();
  touch(dest);
}

std::vector<Exchange::Item> Exchange::spare() {
  if (spare_.empty()) {
    std::vector<Item> b;
    b.reserve(capacity_);
    hold(static_cast<std::int64_t>(b.capacity()));
    return b;
  }
  std::vector<Item> b = std::move(spare_.back());
  spare_.pop_back();
  return b;
}

void Exchange::recycle(std::vector<Item>&& b) {
  // Buffers of the usual size, up to the window: producers of posted
  // buffers and bursts of arrivals allocate anew.
  b.clear();
  if (b.capacity() == capacity_ && spare_.size() < window_) {
    spare_.push_back(std::move(b));
    return;
  }
  hold(-static_cast<std::int64_t>(b.capacity()));
  std::vector<Item>().swap(b);
}

void Exchange::reap() {
  const std::size_t before = out_.size();
  out_.reap([this](std::vector<Item>&& b) { recycle(std::move(b)); });
  if (out_.size() < before) dog_.progress();
}

void Exchange::send(int dest, const Handler& on_receive, bool last) {
  // dest has no buffer until its next item.
  std::vector<Item> items = std::exchange(current_[static_cast<std::size_t>(dest)], {});
  send_items(dest, std::move(items), on_receive, last);
}

void Exchange::send_items(int dest, std::vector<Item>&& items, const Handler& on_receive,
                          bool last) {
  // Bound the memory in flight; while waiting for sends to finish, keep
  // receiving, so that the peers we wait for can finish theirs.
  reap();
  while (out_.size() >= window_) {
    if (!receive(on_receive)) {
      dog_.waiting([this] { return state(); });
      std::this_thread::yield();
    }
    reap();
  }
  const auto bytes = static_cast<std::int64_t>(items.size() * sizeof(Item));
  // nbx: the level's last message to a peer is synchronous, so that its
  // completion says the peer has it, and (MPI keeps a sender's messages to
  // one rank in order) every earlier one too.  Those go as standard sends:
  // all synchronous, tiny buffers on ranks that share cores waited on
  // sleeping peers (a 4-rank test with 1-item buffers ran 9x longer).
  out_.send(std::move(items), dest, tag_, comm_, last ? SendMode::sync : SendMode::standard);
  touch(dest);
  if (bytes == 0) return;  // nbx's closing message: no data
  stats_.messages += 1;
  stats_.bytes += bytes;
}

void Exchange::post(int dest, std::vector<Item>&& items) {
  if (finished_.load(std::memory_order_relaxed)) after_finish("post");
  Posted* p = new Posted{dest, std::move(items), posted_.load(std::memory_order_relaxed)};
  while (!posted_.compare_exchange_weak(p->next, p, std::memory_order_release,
                                        std::memory_order_relaxed)) {
  }
}

void Exchange::send_posted(const Handler& on_receive) {
  Posted* p = posted_.exchange(nullptr, std::memory_order_acquire);
  while (p) {
    std::unique_ptr<Posted> node(std::exchange(p, p->next));
    if (node->items.empty()) continue;
    hold(static_cast<std::int64_t>(node->items.capacity()));  // the exchange's from here
    send_items(node->dest, std::move(node->items), on_receive);
  }
}

bool Exchange::poll(const Handler& on_receive) {
  Timed t(*this, stats_.busy);
  send_posted(on_receive);
  return receive(on_receive);
}

bool Exchange::try_poll(const Handler& on_receive) {
  OneCaller::Turn turn(mpi_);
  return turn && poll(on_receive);
}

bool Exchange::receive(const Handler& on_receive) {
  bool any = false;
  for (;;) {
    std::vector<Item> items = spare();
    MPI_Status status;
    const std::size_t room = items.capacity();
    if (!take_message(comm_, tag_, items, status)) {
      recycle(std::move(items));
      break;
    }
    hold(static_cast<std::int64_t>(items.capacity()) - static_cast<std::int64_t>(room));
    any = true;
    dog_.progress();
    if (items.empty() || (items.size() == 1 && items.front().vertex == kMarkerVertex)) {
      if (!items.empty()) least_ = std::min(least_, items.front().value);
      ++ends_;  // the sender has nothing more for this level
      heard_[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
      recycle(std::move(items));
      continue;
    }
    ++received_;
    arrived_.push_back(std::move(items));
    // A handler that sends may land here again (waiting for room): it only
    // queues; the outermost call hands the queue over.
    if (!applying_) apply_arrived(on_receive);
  }
  return any;
}

void Exchange::apply_arrived(const Handler& on_receive) {
  struct Applying {
    bool& flag;
    explicit Applying(bool& f) : flag(f) { flag = true; }
    ~Applying() { flag = false; }
  } applying(applying_);
  while (!arrived_.empty()) {
    std::vector<Item> items = std::move(arrived_.front());
    arrived_.pop_front();
    on_receive(items.data(), items.size());
    recycle(std::move(items));
  }
}

void Exchange::finish(const Handler& on_receive) {
  Timed t(*this, stats_.busy);
  send_posted(on_receive);
  finished_.store(true, std::memory_order_relaxed);
  // Only the peers addressed this level have anything to flush (by index:
  // a send that waits for room may receive, never touch a new peer now).
  for (std::size_t i = 0; i < touched_list_.size(); ++i) {
    const int p = touched_list_[i];
    if (nbx_) {
      // Each peer sent anything this level gets a synchronous last message:
      // the rest of its buffer, or nothing (read as an end marker, unused here).
      if (!current_[static_cast<std::size_t>(p)].empty())
        send(p, on_receive, true);
      else
        send_items(p, {}, on_receive, true);
    } else if (!current_[static_cast<std::size_t>(p)].empty()) {
      send(p, on_receive);
    }
  }
  if (nbx_) return;
  for (int p = 0; p < size_; ++p) {
    if (p == rank_) continue;
    std::vector<Item> marker;  // the end marker
    if (reduce_) marker.push_back({kMarkerVertex, least_});
    hold(static_cast<std::int64_t>(marker.capacity()));
    out_.send(std::move(marker), p, tag_, comm_);
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
  if (done)
    dog_.progress();
  else
    dog_.waiting([this] { return state(); });
  return done;
}

bool Exchange::drain_step(const Handler& on_receive) {
  if (!finished_.load(std::memory_order_relaxed)) {
    throw Error("exchange: drained() before finish() of level " + std::to_string(level_) +
                ": this rank's buffered items would never be sent");
  }
  if (posted_.load(std::memory_order_acquire)) after_finish("post");
  receive(on_receive);
  reap();
  if (nbx_) {
    // All our sends received: join the barrier.  When it completes every
    // rank has joined, so every message of the level has been received.
    if (!barrier_.joined()) {
      if (!out_.empty()) return false;
      if (reduce_)
        barrier_.join_min(comm_, least_);
      else
        barrier_.join(comm_);
    }
    if (!barrier_.done()) return false;
    if (reduce_) least_ = barrier_.least();
    return true;
  }
  // Our data went out before our end markers and every peer drains until it
  // has our marker, so these sends are being matched: wait to free their
  // buffers.
  return ends_ >= size_ - 1 && out_.empty();
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

std::int64_t Exchange::end_level_min(const Handler& on_receive, std::int64_t value) {
  reduce_ = true;
  least_ = std::min(least_, value);
  struct Off {
    bool& flag;
    ~Off() { flag = false; }
  } off{reduce_};
  end_level(on_receive);
  return least_;
}

std::string Exchange::state() const {
  std::string s = "level " + std::to_string(level_) + ", " + (nbx_ ? "nbx" : "markers") + ", " +
                  (finished_.load() ? "finished" : "not finished") + " here, " +
                  std::to_string(out_.size()) + " sends in flight";
  if (nbx_) {
    s += barrier_.joined() ? ", in the closing barrier" : ", not yet in the closing barrier";
  } else {
    std::string missing;
    int n = 0;
    for (int p = 0; p < size_; ++p) {
      if (p == rank_ || heard_[static_cast<std::size_t>(p)]) continue;
      if (++n <= 16) missing += (missing.empty() ? "" : ", ") + std::to_string(p);
    }
    if (n > 16) missing += ", ...";
    s += ", the level's end heard from " + std::to_string(ends_) + " of " +
         std::to_string(size_ - 1) + " peers" + (n ? " (not from rank " + missing + ")" : "");
  }
  return s;
}

}  // namespace ht
