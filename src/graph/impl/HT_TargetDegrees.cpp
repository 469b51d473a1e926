#include "graph/impl/HT_TargetDegrees.hpp"

#include <limits>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"

namespace ht::impl {

namespace {

TargetDegrees::Degree clamp_degree(std::int64_t d) {
  return static_cast<TargetDegrees::Degree>(
      std::min<std::int64_t>(d, std::numeric_limits<TargetDegrees::Degree>::max()));
}

// Sorts ids[from, end) and merges it, without repeats, into the sorted,
// repeat-free ids[0, from); returns the new end.
std::size_t merge_slice(std::vector<std::int64_t>& ids, std::size_t from) {
  const auto begin = ids.begin(), mid = begin + static_cast<std::ptrdiff_t>(from);
  std::sort(mid, ids.end());
  const auto slice_end = std::unique(mid, ids.end());
  std::inplace_merge(begin, mid, slice_end);
  return static_cast<std::size_t>(std::unique(begin, slice_end) - begin);
}

}  // namespace

TargetDegrees::TargetDegrees(const Csr& g, MPI_Comm comm)
    : r_(g.range), local_(static_cast<std::size_t>(g.range.local_count())) {
  const std::int64_t n = r_.local_count();
  for (std::int64_t i = 0; i < n; ++i) local_[i] = clamp_degree(g.degree(i));
  if (r_.size == 1) return;
  // The distinct remote targets, gathered in slices of a sixteenth of the
  // remote entries (at least 2^16), each sorted and merged in: the ids never
  // take 8 bytes for every remote entry at once.
  std::int64_t entries = 0;
  for (std::int64_t i = 0; i < n; ++i) entries += g.offsets[i + 1] - g.local_end(i);
  const auto slice = static_cast<std::size_t>(std::max<std::int64_t>(entries / 16, 1 << 16));
  std::size_t kept = 0;
  g.targets.visit([&](const auto* t) {
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t k = g.local_end(i); k < g.offsets[i + 1]; ++k) {
        if (ids_.size() == kept + slice) {
          kept = merge_slice(ids_, kept);
          ids_.resize(kept);
        }
        ids_.push_back(static_cast<std::int64_t>(t[k]));
      }
    }
  });
  ids_.resize(merge_slice(ids_, kept));
  ids_.shrink_to_fit();
  // Buckets by the ids' high bits, about four ids each.
  const auto want = static_cast<std::int64_t>(std::max<std::size_t>(1, ids_.size() / 4));
  while ((r_.n_global >> shift_) > want) ++shift_;
  const std::int64_t buckets = (r_.n_global >> shift_) + 1;
  start_.assign(static_cast<std::size_t>(buckets + 1), 0);
  for (const std::int64_t v : ids_) ++start_[static_cast<std::size_t>((v >> shift_) + 1)];
  for (std::size_t b = 1; b < start_.size(); ++b) start_[b] += start_[b - 1];
  remote_.resize(ids_.size());
  asked_ = ask(comm);
}

std::size_t TargetDegrees::bytes() const {
  return local_.capacity() * sizeof(Degree) + ids_.capacity() * sizeof(std::int64_t) +
         remote_.capacity() * sizeof(Degree) + start_.capacity() * sizeof(std::int64_t);
}

// Fills remote_ from the owners; false, on every rank, where MPI's int
// counts or the 32-bit offsets in a range would not hold the exchange.
bool TargetDegrees::ask(MPI_Comm comm) {
  const int P = r_.size;
  std::vector<long long> wide(P, 0), in_wide(P);
  // ids_ rise, and owners' ranges with them: each owner's ids are one run.
  for (const std::int64_t v : ids_) ++wide[r_.owner(v)];
  mpi::Alltoall(wide.data(), 1, MPI_LONG_LONG, in_wide.data(), 1, MPI_LONG_LONG, comm);
  long long total = 0, incoming = 0;
  for (int p = 0; p < P; ++p) {
    total += wide[p];
    incoming += in_wide[p];
  }
  const long long limit = std::numeric_limits<int>::max();
  long long too_big =
      total > limit || incoming > limit || r_.per_rank > std::numeric_limits<std::uint32_t>::max();
  all_reduce(&too_big, 1, MPI_MAX, comm);
  if (too_big) return false;
  std::vector<int> count(P), in_count(P), at(P), in_at(P);
  int sent = 0, received = 0;
  for (int p = 0; p < P; ++p) {
    count[p] = static_cast<int>(wide[p]);
    in_count[p] = static_cast<int>(in_wide[p]);
    at[p] = (sent += count[p]) - count[p];
    in_at[p] = (received += in_count[p]) - in_count[p];
  }
  // Offsets in the owners' ranges, in place of the degrees to come.
  for (std::size_t q = 0; q < ids_.size(); ++q)
    remote_[q] = static_cast<Degree>(ids_[q] - r_.owner(ids_[q]) * r_.per_rank);
  std::vector<std::uint32_t> asked(static_cast<std::size_t>(received));
  mpi::Alltoallv(remote_.data(), count.data(), at.data(), MPI_UINT32_T, asked.data(),
                 in_count.data(), in_at.data(), MPI_UINT32_T, comm);
  for (auto& a : asked) a = local_[a];
  mpi::Alltoallv(asked.data(), in_count.data(), in_at.data(), MPI_UINT32_T, remote_.data(),
                 count.data(), at.data(), MPI_UINT32_T, comm);
  return true;
}

}  // namespace ht::impl
