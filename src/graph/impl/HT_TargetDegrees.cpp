#include "graph/impl/HT_TargetDegrees.hpp"

#include <algorithm>
#include <limits>

#include "comm/HT_PeerExchange.hpp"
#include "comm/HT_Wait.hpp"

namespace ht::impl {

namespace {

TargetDegrees::Degree clamp_degree(std::int64_t d) {
  return static_cast<TargetDegrees::Degree>(
      std::min<std::int64_t>(d, std::numeric_limits<TargetDegrees::Degree>::max()));
}

}  // namespace

TargetDegrees::TargetDegrees(const Csr& g, MPI_Comm comm, std::int64_t per_round)
    : g_(g),
      comm_(comm),
      per_round_(std::max<std::int64_t>(1, per_round)),
      local_(static_cast<std::size_t>(g.range.local_count())) {
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count();
  for (std::int64_t i = 0; i < n; ++i) local_[i] = clamp_degree(g.degree(i));
  // This rank's rounds (as next() cuts them), the most of any rank's.
  long long most[2] = {0, r.size > 1 && r.per_rank > std::numeric_limits<std::uint32_t>::max()};
  for (std::int64_t i = 0; i < n;) {
    const std::int64_t a = g.offsets[i];
    for (++i; i < n && g.offsets[i + 1] - a <= per_round_;) ++i;
    ++most[0];
  }
  all_reduce(most, 2, MPI_MAX, comm);
  rounds_ = most[0];
  asked_ = most[1] == 0;
  count_.resize(static_cast<std::size_t>(r.size));
}

bool TargetDegrees::next() {
  if (round_++ == rounds_) return false;
  const std::int64_t n = g_.range.local_count();
  row_begin_ = row_end_;
  if (row_end_ < n) {
    const std::int64_t a = g_.offsets[row_end_];
    for (++row_end_; row_end_ < n && g_.offsets[row_end_ + 1] - a <= per_round_;) ++row_end_;
  }
  base_ = g_.offsets[row_begin_];
  by_entry_.assign(static_cast<std::size_t>(g_.offsets[row_end_] - base_), 0);
  g_.targets.visit([&](const auto* t) { fill(t); });
  return true;
}

template <class Id>
void TargetDegrees::fill(const Id* t) {
  const VertexRange& r = g_.range;
  for (std::int64_t i = row_begin_; i < row_end_; ++i)
    for (std::int64_t k = g_.offsets[i]; k < g_.local_end(i); ++k)
      by_entry_[k - base_] = local_[static_cast<std::size_t>(r.local(t[k]))];
  if (r.size == 1 || !asked_) return;  // remote parts then by id alone

  std::fill(count_.begin(), count_.end(), 0);
  for (std::int64_t i = row_begin_; i < row_end_; ++i)
    for (std::int64_t k = g_.local_end(i); k < g_.offsets[i + 1]; ++k) ++count_[r.owner(t[k])];
  const PeerPlan plan(count_, comm_, sizeof(ask_[0]));
  // Offsets in the owners' ranges, grouped by owner in entry order; the
  // answers come back in the same places.
  ask_.resize(static_cast<std::size_t>(plan.sends()));
  answer_.resize(static_cast<std::size_t>(plan.receives()));
  next_ = plan.send_offsets();
  for (std::int64_t i = row_begin_; i < row_end_; ++i) {
    for (std::int64_t k = g_.local_end(i); k < g_.offsets[i + 1]; ++k) {
      const std::int64_t v = t[k];
      const int o = r.owner(v);
      ask_[static_cast<std::size_t>(next_[o]++)] = static_cast<std::uint32_t>(v - o * r.per_rank);
    }
  }
  peer_exchange(plan, ask_.data(), answer_.data());
  for (auto& a : answer_) a = local_[a];
  peer_exchange(plan.reversed(), answer_.data(), ask_.data());
  next_ = plan.send_offsets();
  for (std::int64_t i = row_begin_; i < row_end_; ++i)
    for (std::int64_t k = g_.local_end(i); k < g_.offsets[i + 1]; ++k)
      by_entry_[k - base_] = ask_[static_cast<std::size_t>(next_[r.owner(t[k])]++)];
}

}  // namespace ht::impl
