#include "comm/impl/HT_GraphPlan.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht::impl {

namespace {
/// A worker with nothing to do spins, then yields its core for up to 2 ms,
/// then sleeps between polls (ht::Backoff): a remote input arrives within
/// microseconds when the ranks have cores, and a rank that sleeps as soon as
/// its peer is late makes the peer wait for its wake-up in turn (two ranks
/// sleeping alternately cost ~90 us a step).  Yielding still gives the core
/// to a peer that shares it.
Backoff idle() { return Backoff(256, 2e-3); }
}  // namespace

void OnceQueue::resize(std::size_t n) {
  capacity_ = n;
  slot_ = std::make_unique<std::atomic<int>[]>(n == 0 ? 1 : n);
  for (std::size_t i = 0; i < n; ++i) slot_[i].store(-1, std::memory_order_relaxed);
}

void OnceQueue::reset() {
  const long t = std::min<long>(tail_.load(), static_cast<long>(capacity_));
  for (long i = 0; i < t; ++i) slot_[i].store(-1, std::memory_order_relaxed);
  head_.store(0, std::memory_order_relaxed);
  tail_.store(0, std::memory_order_release);
}

int OnceQueue::pop() {
  long h = head_.load(std::memory_order_acquire);
  for (;;) {
    if (h >= tail_.load(std::memory_order_acquire)) return -1;
    // The slot is claimed by a pusher but not yet written: try again later.
    const int v = slot_[h].load(std::memory_order_acquire);
    if (v < 0) return -1;
    if (head_.compare_exchange_weak(h, h + 1, std::memory_order_acq_rel)) return v;
  }
}

GraphPlan::~GraphPlan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || how != RemoteEdges::persistent) return;
  for (auto* list : {&sends, &recvs})
    for (MPI_Request& r : *list)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void GraphPlan::init_persistent() {
  for (std::size_t r = 0; r < send_msg.size(); ++r) {
    const Message& m = send_msg[r];
    MPI_Send_init(m.buffer, m.bytes, MPI_BYTE, m.peer, m.tag, comm, &sends[r]);
  }
  for (std::size_t r = 0; r < recv_msg.size(); ++r) {
    const Message& m = recv_msg[r];
    MPI_Recv_init(m.buffer, m.bytes, MPI_BYTE, m.peer, m.tag, comm, &recvs[r]);
  }
}

void GraphPlan::start_send(int r) {
  const Message& m = send_msg[r];
  if (how == RemoteEdges::persistent) return (void)mpi::Start(&sends[r], m.bytes);
  mpi::Isend(m.buffer, m.bytes, MPI_BYTE, m.peer, m.tag, comm, &sends[r]);
}

void GraphPlan::start_recvs(std::size_t upto) {
  if (upto <= posted) return;
  if (how == RemoteEdges::persistent) {
    const int n = mpi_int(upto - posted, "receives started");
    MPI_Startall(n, recvs.data() + posted);  // receives: uncounted
  } else {
    for (std::size_t r = posted; r < upto; ++r) {
      const Message& m = recv_msg[r];
      MPI_Irecv(m.buffer, m.bytes, MPI_BYTE, m.peer, m.tag, comm, &recvs[r]);
    }
  }
  posted = upto;
}

void GraphPlan::begin(long replay_index) {
  replay = replay_index;
  ready.reset();
  started.reset();
  std::fill(received.begin(), received.end(), 0);
  window = 0;
  remaining.store(static_cast<long>(id.size() + recvs.size()), std::memory_order_relaxed);
  messages_ = !sends.empty() || !recvs.empty();
  posted = 0;
  start_recvs(std::min(kPosted, recvs.size()));
  for (int v : sources) ready.push(v);
}

void GraphPlan::work(int worker) {
  Backoff backoff = idle();
  int next = -1;
  while (remaining.load(std::memory_order_acquire) > 0) {
    const int v = next >= 0 ? next : ready.pop();
    if (v >= 0) {
      next = run(v, worker);
      backoff = idle();
      // A send queued while another thread held the turn, and missed by it.
      if (messages_ && !started.empty()) poll();
    } else if (!messages_ || !poll()) {
      backoff.pause();
    }
  }
}

int GraphPlan::run(int v, int worker) {
  NodeArgs a;
  a.node = id[v];
  a.replay = replay;
  a.worker = worker;
  a.n_inputs = in_begin[v + 1] - in_begin[v];
  a.input = in_ptr.data() + in_begin[v];
  a.input_bytes = in_bytes.data() + in_begin[v];
  a.output = output[v];
  a.output_bytes = output_bytes[v];
  try {
    body[v](a);
  } catch (const std::exception& e) {
    abort_all("TaskGraph node " + std::to_string(a.node) + ", replay " + std::to_string(replay) +
              ": " + e.what());
  } catch (...) {
    abort_all("TaskGraph node " + std::to_string(a.node) + ", replay " + std::to_string(replay) +
              ": an exception that is not a std::exception");
  }
  if (send_begin[v] != send_begin[v + 1]) {
    for (int s = send_begin[v]; s < send_begin[v + 1]; ++s) started.push(send_of[s]);
    poll();
  }
  int next = -1;
  for (int i = succ_begin[v]; i < succ_begin[v + 1]; ++i) {
    const int s = succ[i];
    if (!count_down(s)) continue;
    if (next < 0)
      next = s;
    else
      ready.push(s);
  }
  remaining.fetch_sub(1, std::memory_order_acq_rel);
  return next;
}

bool GraphPlan::poll() {
  OneCaller::Turn turn(mpi);
  if (!turn) return false;
  bool found = false;
  for (int r; (r = started.pop()) >= 0; found = true) start_send(r);
  if (window >= recvs.size()) return found;
  int idx[kWindow];
  int count = 0;
  const int n = static_cast<int>(std::min(kWindow, posted - window));
  MPI_Testsome(n, recvs.data() + window, &count, idx, MPI_STATUSES_IGNORE);
  if (count == MPI_UNDEFINED || count == 0) return found;
  for (int k = 0; k < count; ++k) {
    const std::size_t r = window + static_cast<std::size_t>(idx[k]);
    received[r] = 1;
    for (int i = recv_begin[r]; i < recv_begin[r + 1]; ++i)
      if (count_down(recv_succ[i])) ready.push(recv_succ[i]);
    remaining.fetch_sub(1, std::memory_order_acq_rel);
  }
  while (window < recvs.size() && received[window]) ++window;
  start_recvs(std::min(window + kPosted, recvs.size()));
  return true;
}

void GraphPlan::end() {
  for (int r; (r = started.pop()) >= 0;) start_send(r);
  if (!sends.empty()) wait_all(sends);
}

}  // namespace ht::impl
