#include "graph/HT_RowOrder.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>

#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_TargetDegrees.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

using Degree = impl::TargetDegrees::Degree;

// One row part's entries while it is ordered (weights or 64-bit ids).
struct Entry {
  Degree degree;
  float weight;
  std::int64_t id;
  bool operator<(const Entry& o) const {
    if (degree != o.degree) return degree > o.degree;
    if (id != o.id) return id < o.id;
    return weight < o.weight;
  }
};

struct Scratch {
  std::vector<Entry> entries;
  std::vector<std::uint64_t> keys;
};

// Orders t[a, e), and w[a, e) if given, by degree, highest first, ties by
// id, keeping each id once (its lightest weight) at the front.  Returns how
// many were kept.
template <class Id>
std::int64_t order_part(Id* t, float* w, std::int64_t a, std::int64_t e,
                        const impl::TargetDegrees& degree, Scratch& s) {
  std::int64_t out = a;
  if constexpr (sizeof(Id) == 4) {
    if (!w) {  // one 64-bit key a target: the degree's complement above the id
      s.keys.clear();
      for (std::int64_t k = a; k < e; ++k) s.keys.push_back(std::uint64_t(~degree[k]) << 32 | t[k]);
      std::sort(s.keys.begin(), s.keys.end());
      const auto last = std::unique(s.keys.begin(), s.keys.end());
      for (auto it = s.keys.begin(); it != last; ++it) t[out++] = static_cast<Id>(*it);
      return out - a;
    }
  }
  s.entries.clear();
  for (std::int64_t k = a; k < e; ++k)
    s.entries.push_back({degree[k], w ? w[k] : 0.0f, std::int64_t(t[k])});
  std::sort(s.entries.begin(), s.entries.end());
  for (std::size_t j = 0; j < s.entries.size(); ++j) {
    if (j > 0 && s.entries[j].id == s.entries[j - 1].id) continue;  // heavier
    t[out] = static_cast<Id>(s.entries[j].id);
    if (w) w[out] = s.entries[j].weight;
    ++out;
  }
  return out - a;
}

// Moves [from, from + n) of \p a to \p to (to <= from).
template <class T>
void move_down(T* a, std::int64_t to, std::int64_t from, std::int64_t n) {
  if (to != from && n > 0) std::memmove(a + to, a + from, sizeof(T) * static_cast<std::size_t>(n));
}

}  // namespace

void order_rows(Csr& g, MPI_Comm comm) {
  if (!on_every_rank(g.split_rows(), comm))
    throw UsageError("order_rows: rows not split into local and remote targets on " +
                     std::to_string(g.range.size) + " ranks (build the CSR with build_csr)");
  const std::int64_t n = g.range.local_count();
  float* const w = g.weights.empty() ? nullptr : g.weights.data();
  impl::TargetDegrees degree(g, comm);
  // next[i + 1]: the targets row i keeps, then the new offsets; kept_local:
  // how many of them are local.  12 bytes a vertex beside the CSR.
  std::vector<std::int64_t> next(n + 1, 0);
  std::vector<std::uint32_t> kept_local(n);
  g.targets.visit_mutable([&](auto* t) {
    // A round's rows change only their own entries: the next round's
    // targets are still as the degrees' owners are asked about them.
    while (degree.next()) {
      Kokkos::parallel_for(
          "ht::order_rows",
          Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
              degree.row_begin(), degree.row_end()),
          [&](std::int64_t i) {
            thread_local Scratch s;
            const std::int64_t split = g.local_end(i);
            const std::int64_t local = order_part(t, w, g.offsets[i], split, degree, s);
            kept_local[i] = static_cast<std::uint32_t>(local);
            next[i + 1] = local + order_part(t, w, split, g.offsets[i + 1], degree, s);
          });
      Kokkos::fence();
    }
    // Close the gaps in place, in row order: no row moves up.
    if (g.dropped.size() != static_cast<std::size_t>(n)) g.dropped.assign(n, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t a = g.offsets[i], split = g.local_end(i), to = next[i];
      const std::int64_t kept = next[i + 1], local = kept_local[i], remote = kept - local;
      move_down(t, to, a, local);
      move_down(t, to + local, split, remote);
      if (w) {
        move_down(w, to, a, local);
        move_down(w, to + local, split, remote);
      }
      if (!g.split.empty()) g.split[i] = to + local;
      g.dropped[i] += static_cast<std::uint32_t>(g.degree(i) - kept);  // a second call adds
      next[i + 1] = to + kept;
    }
  });
  g.offsets = std::move(next);
  g.targets.resize(static_cast<std::size_t>(g.offsets.back()));
  if (w) g.weights.resize(g.targets.size());
}

}  // namespace ht
