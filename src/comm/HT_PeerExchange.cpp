#include "comm/HT_PeerExchange.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

namespace {

// Round r of R takes items [c r / R, c (r + 1) / R) of a peer's c: at most
// c / R + 1 of them, none where c is 0, so a round's items are at most the
// most any rank sends or receives / R, which the budget allows, plus one a
// peer addressed.  (128 bits: c r passes 64 where both are large.)
__extension__ using Wide = __int128;
std::int64_t cut(std::int64_t c, long long r, long long R) {
  return static_cast<std::int64_t>(static_cast<Wide>(c) * r / R);
}

// A peer's word in the count exchange: the count in the low 30 bits where
// the sender's sends are not large; whether they are; whether it sends
// nothing at all.
constexpr std::uint32_t kLarge = 1u << 31, kNone = 1u << 30, kCountBits = kNone - 1;

}  // namespace

PeerPlan::PeerPlan(std::vector<std::int64_t> send_counts, MPI_Comm comm, std::size_t item_bytes,
                   std::int64_t budget)
    : comm_(comm),
      send_count_(std::move(send_counts)),
      recv_count_(send_count_.size()),
      budget_(std::clamp<std::int64_t>(budget, 1, kPeerExchangeMaxBudget)),
      item_bytes_(std::max<std::size_t>(item_bytes, 1)) {
  const int P = size();
  const auto item = static_cast<std::int64_t>(item_bytes_);
  std::int64_t sends = 0;
  for (const std::int64_t c : send_count_) sends += c;
  // Sends of at most budget / P bytes on every rank: no rank receives more
  // than the budget, and every count fits its word.
  const std::int64_t small = std::min<std::int64_t>(budget_ / P / item, kCountBits);
  std::vector<std::uint32_t> word(static_cast<std::size_t>(P)), in_word(word.size());
  for (int p = 0; p < P; ++p)
    word[p] = sends > small ? kLarge
              : sends == 0  ? kNone
                            : static_cast<std::uint32_t>(send_count_[p]);
  mpi::Alltoall(word.data(), 1, MPI_UINT32_T, in_word.data(), 1, MPI_UINT32_T, comm);
  bool large = false, none = true;
  for (const std::uint32_t w : in_word) {
    large = large || (w & kLarge) != 0;
    none = none && (w & kNone) != 0;
  }
  if (!large) {  // every rank saw every rank's flags: all take this branch
    for (int p = 0; p < P; ++p) recv_count_[p] = in_word[p] & kCountBits;
    place();
    rounds_ = none ? 0 : 1;
    return;
  }
  mpi::Alltoall(send_count_.data(), 1, MPI_INT64_T, recv_count_.data(), 1, MPI_INT64_T, comm);
  place();
  std::int64_t most = std::max(sends_, receives_);
  all_reduce(&most, 1, MPI_MAX, comm);
  rounds_ = static_cast<long long>((static_cast<Wide>(most) * item + budget_ - 1) / budget_);
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
  // The most any rank sends or receives is the same both ways.
  back.budget_ = budget_;
  back.item_bytes_ = item_bytes_;
  back.rounds_ = rounds_;
  return back;
}

namespace impl {

namespace {
std::int64_t direct_limit = std::numeric_limits<int>::max();
}  // namespace

std::int64_t peer_exchange_direct_limit() { return direct_limit; }
void set_peer_exchange_direct_limit(std::int64_t bytes) { direct_limit = bytes; }

void peer_exchange_wrong_item(std::size_t bytes, std::size_t plan_bytes) {
  throw Error("peer_exchange: items of " + std::to_string(bytes) +
              " bytes by a plan for items of " + std::to_string(plan_bytes) + " bytes");
}

}  // namespace impl

void peer_exchange_bytes(const PeerPlan& plan, const void* send, void* recv) {
  const long long R = plan.rounds();
  const int P = plan.size();
  const auto* from = static_cast<const char*>(send);
  auto* to = static_cast<char*>(recv);
  const auto item = static_cast<std::int64_t>(plan.item_bytes());
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
  // Int counts: each side of a round moves straight from (into) the
  // caller's buffer where its byte displacements fit an int, else through a
  // staging buffer of the round's bytes, whose displacements do.
  const std::int64_t direct = impl::peer_exchange_direct_limit();
  std::vector<std::int64_t> from_at(P), to_at(P);
  std::vector<int> count(P), in_count(P), at(P), in_at(P);
  std::vector<char> out, in;
  for (long long r = 0; r < R; ++r) {
    std::int64_t sent = 0, received = 0, send_end = 0, recv_end = 0;
    for (int p = 0; p < P; ++p) {
      const std::int64_t c = plan.send_count(p), ic = plan.recv_count(p);
      const std::int64_t a = cut(c, r, R), ia = cut(ic, r, R);
      count[p] = mpi_int((cut(c, r + 1, R) - a) * item, "a round's bytes to a peer");
      in_count[p] = mpi_int((cut(ic, r + 1, R) - ia) * item, "a round's bytes from a peer");
      from_at[p] = (plan.send_offsets()[p] + a) * item;
      to_at[p] = (plan.recv_offsets()[p] + ia) * item;
      send_end = std::max(send_end, from_at[p] + count[p]);
      recv_end = std::max(recv_end, to_at[p] + in_count[p]);
      at[p] = mpi_int(sent, "a round's bytes sent");
      in_at[p] = mpi_int(received, "a round's bytes received");
      sent += count[p];
      received += in_count[p];
    }
    const bool stage_out = send_end > direct, stage_in = recv_end > direct;
    if (stage_out) {
      out.resize(static_cast<std::size_t>(sent));
      for (int p = 0; p < P; ++p)
        if (count[p] > 0)
          std::memcpy(out.data() + at[p], from + from_at[p], static_cast<std::size_t>(count[p]));
    } else {
      for (int p = 0; p < P; ++p) at[p] = mpi_int(from_at[p], "a send displacement");
    }
    if (stage_in)
      in.resize(static_cast<std::size_t>(received));
    else
      for (int p = 0; p < P; ++p) in_at[p] = mpi_int(to_at[p], "a receive displacement");
    mpi::Alltoallv(stage_out ? out.data() : from, count.data(), at.data(), MPI_BYTE,
                   stage_in ? in.data() : to, in_count.data(), in_at.data(), MPI_BYTE, plan.comm());
    if (stage_in)
      for (int p = 0; p < P; ++p)
        if (in_count[p] > 0)
          std::memcpy(to + to_at[p], in.data() + in_at[p], static_cast<std::size_t>(in_count[p]));
  }
#endif
}

}  // namespace ht
