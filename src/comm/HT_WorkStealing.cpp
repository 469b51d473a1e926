#include "comm/HT_WorkStealing.hpp"

#include <algorithm>
#include <cstring>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

WorkStealing::WorkStealing(MPI_Comm comm, std::size_t item_bytes, int workers,
                           const StealOptions& opt)
    : item_bytes_(item_bytes), workers_(workers), opt_(opt) {
  if (item_bytes == 0 || workers < 1) throw Error("WorkStealing: items of 0 bytes or no workers");
  if (opt_.chunk < 1) opt_.chunk = 1;
  MPI_Comm_dup(comm, &comm_);  // our tags never meet another layer's
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  rng_.seed(opt_.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(rank_));
  last_victim_ = rank_;
  dog_ = std::make_unique<Watchdog>(comm_, "work stealing");
}

WorkStealing::~WorkStealing() {
  if (thread_.joinable()) {
    // Only when an exception left the search: stop the thread (it never
    // blocks) before its object goes.
    finished_.store(true, std::memory_order_release);
    thread_.join();
  }
  out_.cancel();
  MPI_Comm_free(&comm_);
}

void WorkStealing::seed(const void* items, std::size_t n) {
  std::lock_guard<std::mutex> l(mutex_);
  const auto* b = static_cast<const std::uint8_t*>(items);
  pool_.insert(pool_.end(), b, b + n * item_bytes_);
  pool_items_ += n;
}

void WorkStealing::start() {
  if (opt_.progress == StealProgress::thread) {
    thread_ = std::thread([this] {
      // Errors here end the job like a task's would (no rank waits forever).
      try {
        while (!finished_.load(std::memory_order_acquire)) {
          progress();
          idle_sleep();
        }
      } catch (const std::exception& e) {
        abort_all(std::string("work stealing thread: ") + e.what());
      }
    });
  }
}

std::size_t WorkStealing::acquire(void* out, std::size_t max) {
  std::lock_guard<std::mutex> l(mutex_);
  const std::size_t n = std::min(max, pool_items_.load(std::memory_order_relaxed));
  if (n == 0) return 0;
  // Newest first: what a worker released last, locally; thieves take the oldest.
  const std::size_t bytes = n * item_bytes_;
  std::copy(pool_.end() - static_cast<std::ptrdiff_t>(bytes), pool_.end(),
            static_cast<std::uint8_t*>(out));
  pool_.erase(pool_.end() - static_cast<std::ptrdiff_t>(bytes), pool_.end());
  pool_items_ -= n;
  busy_.fetch_add(1, std::memory_order_relaxed);
  acquired_.fetch_add(1, std::memory_order_relaxed);
  return n;
}

void WorkStealing::release(const void* items, std::size_t n) {
  if (n == 0) return;
  std::lock_guard<std::mutex> l(mutex_);
  const auto* b = static_cast<const std::uint8_t*>(items);
  pool_.insert(pool_.end(), b, b + n * item_bytes_);
  pool_items_ += n;
}

void WorkStealing::idle() { busy_.fetch_sub(1, std::memory_order_relaxed); }

bool WorkStealing::passive() {
  std::lock_guard<std::mutex> l(mutex_);
  return busy_.load(std::memory_order_relaxed) == 0 && pool_items_.load() == 0;
}

void WorkStealing::try_progress() {
  if (finished_.load(std::memory_order_relaxed)) return;
  if (OneCaller::Turn turn{mpi_}) progress();
}

void WorkStealing::progress() {
  if (finished_.load(std::memory_order_relaxed)) return;
  receive();
  if (!done()) {
    send_held(false);
    serve_waiting();
    maybe_steal();
    pass_token();
  } else {
    drain();
  }
  out_.reap();
  watch();
}

void WorkStealing::watch() {
  // Progress is work done here (a worker took some) or termination moving
  // (the token, "done", the shutdown): a reply alone is not, since work can
  // travel without ever being done.  Waiting is asking for work, or shutting
  // down.  (A passive rank that does not ask, stealing off, waits for the
  // others' work: as long as it lasts, no stall.)
  const std::uint64_t acquired = acquired_.load(std::memory_order_relaxed);
  if (acquired != seen_acquired_) {
    seen_acquired_ = acquired;
    dog_->progress();
  }
  if ((asking_ || done()) && !finished_.load(std::memory_order_relaxed))
    dog_->waiting([this] { return state(); });
  else
    dog_->progress();
}

void WorkStealing::send(int dest, Tag tag, std::vector<std::uint8_t> bytes) {
  out_.send(std::move(bytes), dest, tag, comm_);
}

void WorkStealing::receive() {
  before(StealStep::receive, -1);
  std::vector<std::uint8_t> b;
  MPI_Status st;
  while (take_message(comm_, MPI_ANY_TAG, b, st)) {
    switch (st.MPI_TAG) {
      case kRequest:
        if (opt_.hooks && opt_.hooks->drop_request(st.MPI_SOURCE)) break;
        if (done()) {
          before(StealStep::reply, st.MPI_SOURCE);
          send(st.MPI_SOURCE, kReply, {});
          ++stats_.refused;
        } else {
          thieves_.push_back(st.MPI_SOURCE);
        }
        break;
      case kReply: {
        if (!asking_ || st.MPI_SOURCE != asked_)
          throw Error("work stealing: a reply from rank " + std::to_string(st.MPI_SOURCE) +
                      " that rank " + std::to_string(rank_) + " did not ask for");
        asking_ = false;
        const std::size_t items = b.size() / item_bytes_;
        if (items == 0) break;
        if (done()) {
          throw Error("work stealing: " + std::to_string(items) + " items from rank " +
                      std::to_string(st.MPI_SOURCE) +
                      " arrived after termination was detected; they would be lost");
        }
        {
          std::lock_guard<std::mutex> l(mutex_);
          pool_.insert(pool_.end(), b.begin(), b.end());
          pool_items_ += items;
        }
        --count_;
        black_ = true;
        ++stats_.steals;
        stats_.items_received += static_cast<std::int64_t>(items);
        break;
      }
      case kToken:
        std::memcpy(&token_, b.data(), sizeof token_);
        have_token_ = true;
        dog_->progress();
        break;
      case kDone:
        before(StealStep::done, -1);
        done_.store(true, std::memory_order_release);
        dog_->progress();
        break;
      case Watchdog::kNoticeTag:
        dog_->notice_received(state());
      default:
        throw Error("work stealing: unexpected tag " + std::to_string(st.MPI_TAG));
    }
  }
}

void WorkStealing::answer(int thief) {
  std::vector<std::uint8_t> b;
  {
    std::lock_guard<std::mutex> l(mutex_);
    const std::size_t have = pool_items_.load(std::memory_order_relaxed);
    const std::size_t give =
        opt_.amount == StealAmount::half ? (have + 1) / 2 : std::min(opt_.chunk, have);
    b.assign(pool_.begin(), pool_.begin() + static_cast<std::ptrdiff_t>(give * item_bytes_));
    pool_.erase(pool_.begin(), pool_.begin() + static_cast<std::ptrdiff_t>(give * item_bytes_));
    pool_items_ -= give;
  }
  const std::size_t items = b.size() / item_bytes_;
  if (items > 0) {
    ++count_;  // counted before it leaves: it is in flight from now
    ++stats_.served;
    stats_.items_sent += static_cast<std::int64_t>(items);
  } else {
    ++stats_.refused;
  }
  const int hold = opt_.hooks ? opt_.hooks->hold_reply(thief, items) : 0;
  if (hold > 0) {
    held_.push_back({thief, hold, std::move(b)});
    return;
  }
  before(StealStep::reply, thief);
  send(thief, kReply, std::move(b));
}

void WorkStealing::send_held(bool all) {
  for (std::size_t i = 0; i < held_.size();) {
    if (!all && --held_[i].calls > 0) {
      ++i;
      continue;
    }
    before(StealStep::reply, held_[i].thief);
    send(held_[i].thief, kReply, std::move(held_[i].bytes));
    held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void WorkStealing::serve_waiting() {
  if (thieves_.empty()) return;
  // Answer with work only while a worker of this rank is busy: work that
  // just arrived at an idle rank goes to its own workers first.  Served at
  // once, it bounced: two idle ranks each gave the other the one item it had
  // just received, before their workers looked, for ever (a livelock, not
  // lost work: Safra rightly never ended it).  Nothing coming (passive):
  // answer now, with nothing.  Otherwise the request waits, and wanted()
  // asks the busy workers to release some.
  const bool busy = busy_.load(std::memory_order_relaxed) > 0;
  if ((busy && pool_items_.load() > 0) || passive()) {
    for (int t : thieves_) answer(t);
    thieves_.clear();
  }
  waiting_.store(!thieves_.empty(), std::memory_order_relaxed);
}

int WorkStealing::next_victim() {
  if (opt_.victim == StealVictim::random) {
    std::uniform_int_distribution<int> d(0, size_ - 2);
    const int v = d(rng_);
    return v >= rank_ ? v + 1 : v;
  }
  int v = (last_victim_ + 1) % size_;
  if (v == rank_) v = (v + 1) % size_;
  last_victim_ = v;
  return v;
}

void WorkStealing::maybe_steal() {
  if (!opt_.enabled || size_ == 1 || asking_ || !passive()) return;
  asked_ = next_victim();
  before(StealStep::request, asked_);
  send(asked_, kRequest, {});
  asking_ = true;
  ++stats_.requests;
}

void WorkStealing::pass_token() {
  const bool initiator_free = rank_ == 0 && !probing_;
  if (!have_token_ && !initiator_free) return;
  if (!passive()) return;
  if (size_ == 1) {
    done_.store(true, std::memory_order_release);
    return;
  }
  auto bytes = [](const Token& t) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&t);
    return std::vector<std::uint8_t>(p, p + sizeof t);
  };
  if (rank_ == 0) {
    if (probing_ && !token_.black && !black_ && token_.q + count_ == 0) {
      for (int r = 1; r < size_; ++r) {
        before(StealStep::done, r);
        send(r, kDone, {});
      }
      done_.store(true, std::memory_order_release);
      have_token_ = false;
      return;
    }
    token_ = Token{0, 0, 0};
    black_ = false;
    probing_ = true;
    have_token_ = false;
    ++stats_.token_rounds;
    before(StealStep::token, 1);
    send(1, kToken, bytes(token_));
    return;
  }
  token_.q += count_;
  if (black_) token_.black = 1;
  black_ = false;
  have_token_ = false;
  before(StealStep::token, (rank_ + 1) % size_);
  send((rank_ + 1) % size_, kToken, bytes(token_));
}

void WorkStealing::drain() {
  send_held(true);  // none, unless termination was wrong: then the thief says so
  for (int t : thieves_) {
    before(StealStep::reply, t);
    send(t, kReply, {});
    ++stats_.refused;
  }
  thieves_.clear();
  waiting_.store(false, std::memory_order_relaxed);
  if (!barrier_.joined() && !asking_) {
    before(StealStep::barrier, -1);
    barrier_.join(comm_);
  }
  if (barrier_.done()) finished_.store(true, std::memory_order_release);
}

void WorkStealing::finish() {
  if (thread_.joinable()) {
    thread_.join();
  } else {
    while (!finished_.load(std::memory_order_acquire)) {
      try_progress();
      if (!finished_.load(std::memory_order_acquire)) idle_sleep();
    }
  }
  out_.wait();
  verify_finish();
}

void WorkStealing::verify_finish() {
  // Over all ranks: every work message counted on both sides.
  const long long mine[2] = {count_, stats_.items_sent - stats_.items_received};
  long long sums[2] = {0, 0};
  sum_over_ranks(mine, sums, 2, comm_);
  if (sums[0] != 0 || sums[1] != 0) {
    throw Error("work stealing: finished with " + std::to_string(sums[0]) + " work messages and " +
                std::to_string(sums[1]) + " items sent but never received, over all ranks");
  }
  // Here: nothing left, nobody working, nothing pending.
  std::string left;
  if (pool_items_.load() > 0)
    left += ", " + std::to_string(pool_items_.load()) + " items in the pool";
  if (busy_.load() > 0) left += ", " + std::to_string(busy_.load()) + " workers busy";
  if (asking_) left += ", a request to rank " + std::to_string(asked_) + " unanswered";
  if (!thieves_.empty() || !held_.empty()) left += ", requests unanswered";
  if (!left.empty())
    throw Error("work stealing: rank " + std::to_string(rank_) + " finished with " +
                left.substr(2));
}

std::string WorkStealing::state() {
  std::string s;
  if (asking_) s += "request to rank " + std::to_string(asked_) + " outstanding, ";
  s += "token " + std::string(have_token_ ? "here" : "elsewhere") + " (colour " +
       (token_.black ? "black" : "white") + ", count " + std::to_string(token_.q) + ")";
  s += ", this rank " + std::string(black_ ? "black" : "white") + " with count " +
       std::to_string(count_);
  s += ", pool " + std::to_string(pool_items_.load()) + " items, " + std::to_string(busy_.load()) +
       " of " + std::to_string(workers_) + " workers busy";
  s += ", " + std::to_string(thieves_.size()) + " thieves waiting";
  if (!held_.empty()) s += ", " + std::to_string(held_.size()) + " replies held";
  s += done() ? ", done" : ", not done";
  if (done())
    s += barrier_.joined() ? ", in the closing barrier" : ", not yet in the closing barrier";
  return s;
}

}  // namespace ht
