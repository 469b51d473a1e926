#include "comm/HT_WorkStealing.hpp"

#include <algorithm>
#include <cstring>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

const char* victim_name(StealVictim v) {
  return v == StealVictim::round_robin ? "round_robin" : "random";
}
const char* amount_name(StealAmount a) { return a == StealAmount::half ? "half" : "chunk"; }
const char* progress_name(StealProgress p) {
  return p == StealProgress::polling ? "polling" : "thread";
}
StealVictim victim_named(const std::string& s) {
  if (s == "round_robin") return StealVictim::round_robin;
  if (s == "random") return StealVictim::random;
  throw UsageError("victim '" + s + "': round_robin or random");
}
StealAmount amount_named(const std::string& s) {
  if (s == "half") return StealAmount::half;
  if (s == "chunk") return StealAmount::chunk;
  throw UsageError("amount '" + s + "': half or chunk");
}
StealProgress progress_named(const std::string& s) {
  if (s == "polling") return StealProgress::polling;
  if (s == "thread") return StealProgress::thread;
  throw UsageError("progress '" + s + "': polling or thread");
}

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
}

WorkStealing::~WorkStealing() {
  if (thread_.joinable()) {
    // Only when an exception left the search: stop the thread (it never
    // blocks) before its object goes.
    finished_.store(true, std::memory_order_release);
    thread_.join();
  }
  for (auto& s : sends_) MPI_Request_free(&s.request);
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
  if (progressing_.test_and_set(std::memory_order_acquire)) return;
  try {
    progress();
  } catch (...) {
    progressing_.clear(std::memory_order_release);
    throw;
  }
  progressing_.clear(std::memory_order_release);
}

void WorkStealing::progress() {
  if (finished_.load(std::memory_order_relaxed)) return;
  receive();
  if (!done()) {
    serve_waiting();
    maybe_steal();
    pass_token();
  } else {
    drain();
  }
  test_sends();
}

void WorkStealing::send(int dest, Tag tag, std::vector<std::uint8_t> bytes) {
  Out o{MPI_REQUEST_NULL, std::make_unique<std::vector<std::uint8_t>>(std::move(bytes))};
  MPI_Isend(o.bytes->data(), static_cast<int>(o.bytes->size()), MPI_BYTE, dest, tag, comm_,
            &o.request);
  sends_.push_back(std::move(o));
}

void WorkStealing::test_sends() {
  sends_.erase(std::remove_if(sends_.begin(), sends_.end(),
                              [](Out& o) {
                                int flag = 0;
                                MPI_Test(&o.request, &flag, MPI_STATUS_IGNORE);
                                return flag != 0;
                              }),
               sends_.end());
}

void WorkStealing::receive() {
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &msg, &st);
    if (!flag) return;
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    std::vector<std::uint8_t> b(static_cast<std::size_t>(n));
    MPI_Mrecv(b.data(), n, MPI_BYTE, &msg, &st);
    switch (st.MPI_TAG) {
      case kRequest:
        if (done()) {
          send(st.MPI_SOURCE, kReply, {});
          ++stats_.refused;
        } else {
          thieves_.push_back(st.MPI_SOURCE);
        }
        break;
      case kReply: {
        asking_ = false;
        const std::size_t items = b.size() / item_bytes_;
        if (items == 0) break;
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
        break;
      case kDone:
        done_.store(true, std::memory_order_release);
        break;
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
  const std::int64_t items = static_cast<std::int64_t>(b.size() / item_bytes_);
  if (items > 0) {
    ++count_;  // counted before it leaves: it is in flight from now
    ++stats_.served;
    stats_.items_sent += items;
  } else {
    ++stats_.refused;
  }
  send(thief, kReply, std::move(b));
}

void WorkStealing::serve_waiting() {
  if (thieves_.empty()) return;
  // Work to give, or nothing coming: answer now.  Otherwise the request waits
  // and wanted() asks the busy workers to release some.
  if (pool_items_.load() > 0 || passive()) {
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
  send(next_victim(), kRequest, {});
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
      for (int r = 1; r < size_; ++r) send(r, kDone, {});
      done_.store(true, std::memory_order_release);
      have_token_ = false;
      return;
    }
    token_ = Token{0, 0, 0};
    black_ = false;
    probing_ = true;
    have_token_ = false;
    ++stats_.token_rounds;
    send(1, kToken, bytes(token_));
    return;
  }
  token_.q += count_;
  if (black_) token_.black = 1;
  black_ = false;
  have_token_ = false;
  send((rank_ + 1) % size_, kToken, bytes(token_));
}

void WorkStealing::drain() {
  for (int t : thieves_) {
    send(t, kReply, {});
    ++stats_.refused;
  }
  thieves_.clear();
  waiting_.store(false, std::memory_order_relaxed);
  if (!barrier_posted_ && !asking_) {
    MPI_Ibarrier(comm_, &barrier_);
    barrier_posted_ = true;
  }
  if (barrier_posted_) {
    int flag = 0;
    MPI_Test(&barrier_, &flag, MPI_STATUS_IGNORE);
    if (flag) finished_.store(true, std::memory_order_release);
  }
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
  for (auto& s : sends_) MPI_Wait(&s.request, MPI_STATUS_IGNORE);
  sends_.clear();
}

}  // namespace ht
