#include "graph/impl/HT_TargetDegrees.hpp"

#include <algorithm>
#include <limits>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"

namespace ht::impl {

namespace {

TargetDegrees::Degree clamp_degree(std::int64_t d) {
  return static_cast<TargetDegrees::Degree>(
      std::min<std::int64_t>(d, std::numeric_limits<TargetDegrees::Degree>::max()));
}

}  // namespace

TargetDegrees::TargetDegrees(const Csr& g, MPI_Comm comm, std::int64_t per_round)
    : by_entry_(g.targets.size(), 0) {
  per_round = std::max<std::int64_t>(1, per_round);
  const VertexRange& r = g.range;
  const std::int64_t n = r.local_count();
  std::vector<Degree> local(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) local[i] = clamp_degree(g.degree(i));
  g.targets.visit([&](const auto* t) {
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t k = g.offsets[i]; k < g.local_end(i); ++k)
        by_entry_[k] = local[static_cast<std::size_t>(r.local(t[k]))];
  });
  if (r.size == 1) return;

  const int P = r.size;
  long long remote = 0;
  for (std::int64_t i = 0; i < n; ++i) remote += g.offsets[i + 1] - g.local_end(i);
  long long rounds[2] = {(remote + per_round - 1) / per_round,
                         r.per_rank > std::numeric_limits<std::uint32_t>::max()};
  all_reduce(rounds, 2, MPI_MAX, comm);
  if (rounds[1]) {
    asked_ = false;
    return;
  }
  std::vector<int> count(P), in_count(P), at(P), in_at(P), next(P);
  std::vector<std::uint32_t> ask, answer;
  // The remote entries in row order, a round at a time: from row i, entry k.
  std::int64_t row = 0, entry = n > 0 ? g.local_end(0) : 0;
  g.targets.visit([&](const auto* t) {
    for (long long round = 0; round < rounds[0]; ++round) {
      // This round's entries: from (row, entry) on, up to per_round of them,
      // counted by owner.
      const std::int64_t row0 = row, entry0 = entry;
      std::fill(count.begin(), count.end(), 0);
      std::int64_t taken = 0;
      while (row < n && taken < per_round) {
        if (entry >= g.offsets[row + 1]) {
          if (++row < n) entry = g.local_end(row);
          continue;
        }
        ++count[r.owner(t[entry])];
        ++entry;
        ++taken;
      }
      mpi::Alltoall(count.data(), 1, MPI_INT, in_count.data(), 1, MPI_INT, comm);
      long long incoming = 0;
      for (int p = 0; p < P; ++p) incoming += in_count[p];
      long long too_big = incoming > std::numeric_limits<int>::max();
      all_reduce(&too_big, 1, MPI_MAX, comm);
      if (too_big) {
        asked_ = false;  // remote parts by id alone, as on every rank
        for (std::int64_t i = 0; i < n; ++i)
          std::fill(by_entry_.begin() + g.local_end(i), by_entry_.begin() + g.offsets[i + 1], 0);
        return;
      }
      int sent = 0, received = 0;
      for (int p = 0; p < P; ++p) {
        at[p] = (sent += count[p]) - count[p];
        in_at[p] = (received += in_count[p]) - in_count[p];
      }
      // Offsets in the owners' ranges, grouped by owner in entry order.
      ask.resize(static_cast<std::size_t>(sent));
      answer.resize(static_cast<std::size_t>(received));
      const auto each = [&](auto&& f) {  // this round's entries again
        std::int64_t i = row0, k = entry0;
        for (std::int64_t m = 0; m < taken;) {
          if (k >= g.offsets[i + 1]) {
            ++i;
            k = g.local_end(i);
            continue;
          }
          f(k);
          ++k;
          ++m;
        }
      };
      next = at;
      each([&](std::int64_t k) {
        const std::int64_t v = t[k];
        const int o = r.owner(v);
        ask[static_cast<std::size_t>(next[o]++)] = static_cast<std::uint32_t>(v - o * r.per_rank);
      });
      mpi::Alltoallv(ask.data(), count.data(), at.data(), MPI_UINT32_T, answer.data(),
                     in_count.data(), in_at.data(), MPI_UINT32_T, comm);
      for (auto& a : answer) a = local[a];
      mpi::Alltoallv(answer.data(), in_count.data(), in_at.data(), MPI_UINT32_T, ask.data(),
                     count.data(), at.data(), MPI_UINT32_T, comm);
      next = at;
      each([&](std::int64_t k) {
        by_entry_[k] = ask[static_cast<std::size_t>(next[r.owner(t[k])]++)];
      });
    }
  });
}

}  // namespace ht::impl
