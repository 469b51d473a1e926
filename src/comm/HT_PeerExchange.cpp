#include "comm/HT_PeerExchange.hpp"

#include <algorithm>
#include <cstring>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"

namespace ht {

PeerPlan::PeerPlan(std::vector<std::int64_t> send_counts, MPI_Comm comm)
    : comm_(comm), send_count_(std::move(send_counts)), recv_count_(send_count_.size()) {
  mpi::Alltoall(send_count_.data(), 1, MPI_INT64_T, recv_count_.data(), 1, MPI_INT64_T, comm);
  place();
  std::int64_t most = std::max(sends_, receives_);
  all_reduce(&most, 1, MPI_MAX, comm);
  most_ = most;
}

void PeerPlan::place() {
  const std::size_t P = send_count_.size();
  send_at_.resize(P);
  recv_at_.resize(P);
  sends_ = receives_ = 0;
  for (std::size_t p = 0; p < P; ++p) {
    send_at_[p] = sends_;
    recv_at_[p] = receives_;
    sends_ += send_count_[p];
    receives_ += recv_count_[p];
  }
}

PeerPlan PeerPlan::reversed() const {
  PeerPlan back;
  back.comm_ = comm_;
  back.send_count_ = recv_count_;
  back.recv_count_ = send_count_;
  back.place();
  back.most_ = most_;
  return back;
}

long long peer_exchange_rounds(const PeerPlan& plan, std::size_t item_bytes, std::int64_t budget) {
  budget = std::clamp<std::int64_t>(budget, 1, kPeerExchangeMaxBudget);
  const std::int64_t bytes = plan.most() * static_cast<std::int64_t>(item_bytes);
  return (bytes + budget - 1) / budget;
}

namespace {

// Round r of R takes items [c r / R, c (r + 1) / R) of a peer's c: at most
// c / R + 1 of them, none where c is 0, so a round's items are at most the
// most() / R the budget allows plus one a peer addressed.
// (128 bits: c r passes 64 where both are large.)
__extension__ using Wide = __int128;
std::int64_t cut(std::int64_t c, long long r, long long R) {
  return static_cast<std::int64_t>(static_cast<Wide>(c) * r / R);
}

}  // namespace

void peer_exchange_bytes(const PeerPlan& plan, const void* send, void* recv, std::size_t item_bytes,
                         std::int64_t budget) {
  const long long R = peer_exchange_rounds(plan, item_bytes, budget);
  const int P = plan.size();
  const auto* from = static_cast<const char*>(send);
  auto* to = static_cast<char*>(recv);
  const auto item = static_cast<std::int64_t>(item_bytes);
#if MPI_VERSION >= 4
  // Large counts: each round straight between the caller's buffers.
  std::vector<MPI_Count> count(P), in_count(P);
  std::vector<MPI_Aint> at(P), in_at(P);
  for (long long r = 0; r < R; ++r) {
    for (int p = 0; p < P; ++p) {
      const std::int64_t c = plan.send_count(p), a = cut(c, r, R);
      count[p] = (cut(c, r + 1, R) - a) * item;
      at[p] = (plan.send_offsets()[p] + a) * item;
      const std::int64_t ic = plan.recv_count(p), ia = cut(ic, r, R);
      in_count[p] = (cut(ic, r + 1, R) - ia) * item;
      in_at[p] = (plan.recv_offsets()[p] + ia) * item;
    }
    mpi::Alltoallv_c(from, count.data(), at.data(), MPI_BYTE, to, in_count.data(), in_at.data(),
                     MPI_BYTE, plan.comm());
  }
#else
  // Int counts: each round through staging buffers of about the budget,
  // so its counts and displacements are small ints.
  std::vector<int> count(P), in_count(P), at(P), in_at(P);
  std::vector<char> out, in;
  for (long long r = 0; r < R; ++r) {
    std::int64_t sent = 0, received = 0;
    for (int p = 0; p < P; ++p) {
      const std::int64_t c = plan.send_count(p), ic = plan.recv_count(p);
      at[p] = static_cast<int>(sent);
      in_at[p] = static_cast<int>(received);
      count[p] = static_cast<int>((cut(c, r + 1, R) - cut(c, r, R)) * item);
      in_count[p] = static_cast<int>((cut(ic, r + 1, R) - cut(ic, r, R)) * item);
      sent += count[p];
      received += in_count[p];
    }
    out.resize(static_cast<std::size_t>(sent));
    in.resize(static_cast<std::size_t>(received));
    for (int p = 0; p < P; ++p)
      if (count[p] > 0)
        std::memcpy(out.data() + at[p],
                    from + (plan.send_offsets()[p] + cut(plan.send_count(p), r, R)) * item,
                    static_cast<std::size_t>(count[p]));
    mpi::Alltoallv(out.data(), count.data(), at.data(), MPI_BYTE, in.data(), in_count.data(),
                   in_at.data(), MPI_BYTE, plan.comm());
    for (int p = 0; p < P; ++p)
      if (in_count[p] > 0)
        std::memcpy(to + (plan.recv_offsets()[p] + cut(plan.recv_count(p), r, R)) * item,
                    in.data() + in_at[p], static_cast<std::size_t>(in_count[p]));
  }
#endif
}

}  // namespace ht
