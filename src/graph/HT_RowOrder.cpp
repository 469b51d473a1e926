#include "graph/HT_RowOrder.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <limits>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Bitmap.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

using Degree = std::uint32_t;

Degree clamp_degree(std::int64_t d) {
  return static_cast<Degree>(std::min<std::int64_t>(d, std::numeric_limits<Degree>::max()));
}

// The degree of every target a row may hold: local ones from a copy of the
// degrees, remote ones asked of their owners once each (a bitmap of the remote
// targets, its set bits sent to their owners as offsets in their ranges,
// degrees back in the same order).  Lookups by rank in that bitmap.
class Degrees {
 public:
  Degrees(const Csr& g, MPI_Comm comm) : g_(g), r_(g.range), local_(r_.local_count()) {
    // Half the bytes of offsets, one load: the lookups are random.
    for (std::int64_t i = 0; i < r_.local_count(); ++i) local_[i] = clamp_degree(g.degree(i));
    if (r_.size == 1) return;
    wanted_.resize(r_.n_global);
    g.targets.visit([&](const auto* t) {
      for (std::int64_t i = 0; i < r_.local_count(); ++i)
        for (std::int64_t k = g.local_end(i); k < g.offsets[i + 1]; ++k) wanted_.set(t[k]);
    });
    rank_.resize(wanted_.words() + 1, 0);
    for (std::size_t w = 0; w < wanted_.words(); ++w)
      rank_[w + 1] = rank_[w] + Bitmap::count(wanted_.word(w));
    remote_.resize(static_cast<std::size_t>(rank_.back()));
    asked_ = ask(comm);
  }

  Degree operator()(std::int64_t v) const {
    if (r_.mine(v)) return local_[r_.local(v)];
    if (!asked_) return 0;  // remote parts then by id alone
    const std::size_t w = Bitmap::word_of(v);
    const Bitmap::Word below = Bitmap::bit_of(v) - 1;
    return remote_[static_cast<std::size_t>(rank_[w] + Bitmap::count(wanted_.word(w) & below))];
  }

 private:
  // Fills remote_ from the owners; false, on every rank, where MPI's int
  // counts or the 32-bit offsets in a range would not hold the exchange.
  bool ask(MPI_Comm comm) {
    const int P = r_.size;
    std::vector<long long> wide(P, 0), in_wide(P);
    std::vector<std::uint32_t> ask;  // offsets in the owner's range, by owner
    ask.reserve(remote_.size());
    for (int p = 0; p < P; ++p) {
      const VertexRange o = r_.of_rank(p);
      const std::size_t before = ask.size();
      // Words at the ends of a range may hold the neighbours' vertices.
      wanted_.for_each(
          [&](std::int64_t v) {
            if (o.mine(v)) ask.push_back(static_cast<std::uint32_t>(v - o.first()));
          },
          Bitmap::word_of(o.first()), Bitmap::words_for(o.first() + o.local_count()));
      wide[p] = static_cast<long long>(ask.size() - before);
    }
    mpi::Alltoall(wide.data(), 1, MPI_LONG_LONG, in_wide.data(), 1, MPI_LONG_LONG, comm);
    long long total = 0, incoming = 0;
    for (int p = 0; p < P; ++p) {
      total += wide[p];
      incoming += in_wide[p];
    }
    const long long limit = std::numeric_limits<int>::max();
    long long too_big = total > limit || incoming > limit ||
                        r_.per_rank > std::numeric_limits<std::uint32_t>::max();
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
    std::vector<std::uint32_t> asked(static_cast<std::size_t>(received));
    mpi::Alltoallv(ask.data(), count.data(), at.data(), MPI_UINT32_T, asked.data(), in_count.data(),
                   in_at.data(), MPI_UINT32_T, comm);
    for (auto& a : asked) a = local_[a];
    mpi::Alltoallv(asked.data(), in_count.data(), in_at.data(), MPI_UINT32_T, remote_.data(),
                   count.data(), at.data(), MPI_UINT32_T, comm);
    return true;
  }

  const Csr& g_;
  const VertexRange& r_;
  std::vector<Degree> local_;       // this rank's vertices' degrees
  Bitmap wanted_;                   // remote targets of this rank's rows
  std::vector<std::int64_t> rank_;  // set bits before each word of wanted_
  std::vector<Degree> remote_;      // their degrees, in id order
  bool asked_ = false;
};

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
std::int64_t order_part(Id* t, float* w, std::int64_t a, std::int64_t e, const Degrees& degree,
                        Scratch& s) {
  std::int64_t out = a;
  if constexpr (sizeof(Id) == 4) {
    if (!w) {  // one 64-bit key a target: the degree's complement above the id
      s.keys.clear();
      for (std::int64_t k = a; k < e; ++k)
        s.keys.push_back(std::uint64_t(~degree(t[k])) << 32 | t[k]);
      std::sort(s.keys.begin(), s.keys.end());
      const auto last = std::unique(s.keys.begin(), s.keys.end());
      for (auto it = s.keys.begin(); it != last; ++it) t[out++] = static_cast<Id>(*it);
      return out - a;
    }
  }
  s.entries.clear();
  for (std::int64_t k = a; k < e; ++k)
    s.entries.push_back({degree(std::int64_t(t[k])), w ? w[k] : 0.0f, std::int64_t(t[k])});
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
  if (!g.split_rows())
    throw UsageError("order_rows: rows not split into local and remote targets on " +
                     std::to_string(g.range.size) + " ranks (build the CSR with build_csr)");
  const std::int64_t n = g.range.local_count();
  float* const w = g.weights.empty() ? nullptr : g.weights.data();
  const Degrees degree(g, comm);
  // next[i + 1]: the targets row i keeps, then the new offsets; kept_local:
  // how many of them are local.  12 bytes a vertex beside the CSR.
  std::vector<std::int64_t> next(n + 1, 0);
  std::vector<std::uint32_t> kept_local(n);
  g.targets.visit_mutable([&](auto* t) {
    Kokkos::parallel_for(
        "ht::order_rows",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
            0, n),
        [&](std::int64_t i) {
          thread_local Scratch s;
          const std::int64_t split = g.local_end(i);
          const std::int64_t local = order_part(t, w, g.offsets[i], split, degree, s);
          kept_local[i] = static_cast<std::uint32_t>(local);
          next[i + 1] = local + order_part(t, w, split, g.offsets[i + 1], degree, s);
        });
    Kokkos::fence();
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
