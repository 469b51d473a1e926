#include "graph/HT_Csr.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "comm/HT_PeerExchange.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

VertexRange::VertexRange(std::int64_t n, MPI_Comm comm, int owning) : n_global(n) {
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  owners = owning > 0 ? std::min(owning, size) : size;
  per_rank = std::max<std::int64_t>(1, (n + owners - 1) / owners);
  bounds();
}

VertexRange VertexRange::of_rank(int r) const {
  VertexRange other = *this;
  other.rank = r;
  other.bounds();
  return other;
}

void VertexRange::bounds() {
  inverse_ = 1.0 / static_cast<double>(per_rank);
  first_ = rank < owners ? std::min<std::int64_t>(rank * per_rank, n_global) : n_global;
  end_ = std::min<std::int64_t>(first_ + per_rank, n_global);
}

std::pair<std::int64_t, std::int64_t> edge_slice(std::int64_t m, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  return {m * rank / size, m * (rank + 1) / size};
}

namespace {

Edge reversed(const Edge& e) { return {e.v, e.u}; }
WeightedEdge reversed(const WeightedEdge& e) { return {e.v, e.u, e.w}; }

// Moves one piece of input edges (Edge or WeightedEdge) to the owners of
// their ends: edge {u, v} (not a self-loop) goes to u's owner as (u, v) and
// to v's owner as (v, u).  Collective: every rank routes a piece (maybe
// empty) each time.
template <class E>
class Router {
 public:
  Router(const VertexRange& r, MPI_Comm comm) : r_(r), comm_(comm), count_(r.size) {}

  /// Routes \p n edges; \p take(in, m) gets the m directed edges this rank owns.
  template <class Take>
  void route(const E* e, std::size_t n, Take&& take) {
    std::fill(count_.begin(), count_.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (e[i].u == e[i].v) continue;
      ++count_[r_.owner(e[i].u)];
      ++count_[r_.owner(e[i].v)];
    }
    const PeerPlan plan(count_, comm_, sizeof(E));
    out_.resize(static_cast<std::size_t>(plan.sends()));
    in_.resize(static_cast<std::size_t>(plan.receives()));
    std::vector<std::int64_t> fill = plan.send_offsets();
    for (std::size_t i = 0; i < n; ++i) {
      if (e[i].u == e[i].v) continue;
      out_[fill[r_.owner(e[i].u)]++] = e[i];
      out_[fill[r_.owner(e[i].v)]++] = reversed(e[i]);
    }
    peer_exchange(plan, out_.data(), in_.data());
    take(in_.data(), in_.size());
  }

 private:
  const VertexRange& r_;
  MPI_Comm comm_;
  std::vector<std::int64_t> count_;
  std::vector<E> out_, in_;  // one piece each way: the only edges held
};

// A piece's directed edges this rank owns, (row, target, weight) as E's
// (u, v, w), sorted into blocks of rows by all host threads: stably, so that
// each row keeps the input's order; then each block is counted or placed by
// one thread.  A block's rows and their slice of the CSR stay in cache, and
// no two threads touch a row: no atomics, the same CSR at any thread count.
template <class E>
class RowBlocks {
 public:
  RowBlocks(const VertexRange& r, int threads)
      : r_(r),
        threads_(std::max(1, threads)),
        blocks_(static_cast<std::size_t>((r.local_count() >> kShift) + 1)) {}

  /// \brief Sorts \p n entries into the blocks: both directions of each
  /// (self-loops dropped) when \p both (the input itself, on one rank), else
  /// the router's directed edges as they are.
  void sort(const E* in, std::size_t n, bool both) {
    const std::size_t T = static_cast<std::size_t>(threads_), B = blocks_;
    count_.assign(T * B, 0);
    const auto slice = [&](std::size_t t) { return std::pair{n * t / T, n * (t + 1) / T}; };
    const auto each = [&](std::size_t t, auto&& f) {
      const auto [lo, hi] = slice(t);
      for (std::size_t i = lo; i < hi; ++i) {
        if (!both) {
          f(in[i]);
        } else if (in[i].u != in[i].v) {
          f(in[i]);
          f(reversed(in[i]));
        }
      }
    };
    on_threads([&](std::size_t t) {
      std::int64_t* c = count_.data() + t * B;
      each(t, [&](const E& e) { ++c[block(e.u)]; });
    });
    // Block b holds thread 0's entries for it, then thread 1's, ...
    start_.assign(B + 1, 0);
    std::vector<std::int64_t> at(T * B);
    std::int64_t sum = 0;
    for (std::size_t b = 0; b < B; ++b) {
      start_[b] = sum;
      for (std::size_t t = 0; t < T; ++t) at[t * B + b] = sum, sum += count_[t * B + b];
    }
    start_[B] = sum;
    out_.resize(static_cast<std::size_t>(sum));
    on_threads([&](std::size_t t) {
      std::int64_t* a = at.data() + t * B;
      each(t, [&](const E& e) { out_[static_cast<std::size_t>(a[block(e.u)]++)] = e; });
    });
  }

  /// \brief f(e) for every entry sorted last, a block to a thread, in order.
  template <class F>
  void each(F&& f) const {
    Kokkos::parallel_for(
        "ht::build_csr::blocks",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
            0, blocks_),
        [&](std::size_t b) {
          for (std::int64_t i = start_[b]; i < start_[b + 1]; ++i)
            f(out_[static_cast<std::size_t>(i)]);
        });
    Kokkos::fence();
  }

 private:
  std::size_t block(std::int64_t row) const {
    return static_cast<std::size_t>(r_.local(row) >> kShift);
  }
  template <class F>
  void on_threads(F&& f) const {
    Kokkos::parallel_for("ht::build_csr::sort",
                         Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, threads_),
                         [&](int t) { f(static_cast<std::size_t>(t)); });
    Kokkos::fence();
  }

  // 2,048 rows a block: a few hundred KiB of a Kronecker graph's targets.
  static constexpr int kShift = 11;
  const VertexRange& r_;
  int threads_;
  std::size_t blocks_;
  std::vector<std::int64_t> count_, start_;
  std::vector<E> out_;
};

// Kernel 1 from \p pieces pieces of input edges (the same count on every
// rank): piece(k) gives piece k as (first edge, count), twice, once to count
// each local row's degree and once to place its targets (and weights, for
// WeightedEdge), so no rank holds more edges than one piece in flight
// besides the CSR and its input.  One rank takes its pieces as they are (no
// router); each piece's directed edges are sorted into blocks of rows
// (RowBlocks), which the host threads count and place side by side.
template <class E, class Piece>
Csr build_in_pieces(std::int64_t n_global, MPI_Comm comm, TargetBits bits, long long pieces,
                    int owners, Piece&& piece) {
  constexpr bool weighted = std::is_same_v<E, WeightedEdge>;
  Csr g;
  g.range = VertexRange(n_global, comm, owners);
  const VertexRange& r = g.range;
  all_reduce(&pieces, 1, MPI_MAX, comm);
  Router<E> router(r, comm);
  RowBlocks<E> blocks(r, Kokkos::DefaultHostExecutionSpace().concurrency());
  // f(e) for each of piece k's directed edges (row e.u) this rank owns.
  const auto owned = [&](long long k, auto&& f) {
    const auto [e, n] = piece(k);
    if (r.size == 1)
      blocks.sort(e, n, true);
    else
      router.route(e, n, [&](const E* in, std::size_t m) { blocks.sort(in, m, false); });
    blocks.each(f);
  };
  const std::int64_t n_local = r.local_count();
  g.offsets.assign(n_local + 1, 0);
  for (long long k = 0; k < pieces; ++k)
    owned(k, [&](const E& e) { ++g.offsets[r.local(e.u) + 1]; });
  for (std::int64_t i = 0; i < n_local; ++i) g.offsets[i + 1] += g.offsets[i];
  g.targets.assign(static_cast<std::size_t>(g.offsets.back()), Targets::wide_for(n_global, bits));
  if constexpr (weighted) g.weights.resize(g.targets.size());
  // Local targets fill a row from its front, remote ones from its back:
  // where the two cursors meet is the row's split (Csr::split).
  std::vector<std::int64_t> next(g.offsets.begin(), g.offsets.end() - 1), back;
  if (r.size > 1) back.assign(g.offsets.begin() + 1, g.offsets.end());
  for (long long k = 0; k < pieces; ++k) {
    owned(k, [&](const E& e) {
      const std::int64_t row = r.local(e.u);
      const std::int64_t at = back.empty() || r.mine(e.v) ? next[row]++ : --back[row];
      g.targets.set(static_cast<std::size_t>(at), e.v);
      if constexpr (weighted) g.weights[static_cast<std::size_t>(at)] = e.w;
    });
  }
  if (r.size > 1) g.split = std::move(next);
  return g;
}

template <class E>
Csr from_list(const E* edges, std::size_t count, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk, TargetBits bits, int owners) {
  chunk = std::max<std::int64_t>(1, chunk);
  const auto m = static_cast<std::int64_t>(count);
  const long long pieces = (m + chunk - 1) / chunk;
  return build_in_pieces<E>(n_global, comm, bits, pieces, owners, [&](long long k) {
    const std::int64_t lo = std::min<std::int64_t>(m, k * chunk);
    return std::pair{edges + lo, static_cast<std::size_t>(std::min(m, lo + chunk) - lo)};
  });
}

// Edges [lo, hi) of \p gen (any generator with edge(e) and weighted_edge(e)),
// made on the host threads.
template <class E, class Gen>
void generate(const Gen& gen, std::int64_t lo, std::int64_t hi, std::vector<E>& out) {
  out.resize(static_cast<std::size_t>(std::max<std::int64_t>(0, hi - lo)));
  E* data = out.data();
  Kokkos::parallel_for("ht::generate",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(
                           0, static_cast<std::int64_t>(out.size())),
                       [=](std::int64_t i) {
                         if constexpr (std::is_same_v<E, WeightedEdge>)
                           data[i] = gen.weighted_edge(lo + i);
                         else
                           data[i] = gen.edge(lo + i);
                       });
  Kokkos::fence();
}

template <class E, class Gen>
Csr from_generator(const Gen& gen, MPI_Comm comm, double* generation_seconds, TargetBits bits,
                   std::int64_t chunk, int owners) {
  chunk = std::max<std::int64_t>(1, chunk);
  const auto [first, last] = edge_slice(gen.edge_count(), comm);
  double generating = 0;
  std::vector<E> piece;
  const long long pieces = (last - first + chunk - 1) / chunk;
  Csr g = build_in_pieces<E>(gen.vertex_count(), comm, bits, pieces, owners, [&](long long k) {
    Phase p("Graph500: generation", generating);
    const std::int64_t lo = std::min<std::int64_t>(last, first + k * chunk);
    generate(gen, lo, std::min(last, lo + chunk), piece);
    return std::pair{static_cast<const E*>(piece.data()), piece.size()};
  });
  if (generation_seconds) *generation_seconds += generating;
  return g;
}

}  // namespace

std::vector<std::int64_t> Csr::neighbours(std::int64_t local_index) const {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(degree(local_index)));
  for (std::int64_t k = offsets[local_index]; k < offsets[local_index + 1]; ++k)
    out.push_back(targets[k]);
  return out;
}

Csr build_csr(const std::vector<Edge>& edges, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk, TargetBits bits, int owners) {
  return from_list(edges.data(), edges.size(), n_global, comm, chunk, bits, owners);
}

Csr build_csr(const std::vector<WeightedEdge>& edges, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk, TargetBits bits, int owners) {
  return from_list(edges.data(), edges.size(), n_global, comm, chunk, bits, owners);
}

Csr build_csr(const Edge* edges, std::size_t m, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk, TargetBits bits, int owners) {
  return from_list(edges, m, n_global, comm, chunk, bits, owners);
}

Csr build_csr(const WeightedEdge* edges, std::size_t m, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk, TargetBits bits, int owners) {
  return from_list(edges, m, n_global, comm, chunk, bits, owners);
}

template <class Generator>
Csr build_csr(const Generator& gen, MPI_Comm comm, double* generation_seconds, TargetBits bits,
              std::int64_t chunk, int owners) {
  return from_generator<Edge>(gen, comm, generation_seconds, bits, chunk, owners);
}

template <class Generator>
Csr build_weighted_csr(const Generator& gen, MPI_Comm comm, double* generation_seconds,
                       TargetBits bits, std::int64_t chunk, int owners) {
  return from_generator<WeightedEdge>(gen, comm, generation_seconds, bits, chunk, owners);
}

// The generators kernel 1 builds from (HT_Csr.hpp).
#define HT_CSR_FROM(Generator)                                                                   \
  template Csr build_csr(const Generator&, MPI_Comm, double*, TargetBits, std::int64_t, int);    \
  template Csr build_weighted_csr(const Generator&, MPI_Comm, double*, TargetBits, std::int64_t, \
                                  int);
HT_CSR_FROM(Kronecker)
HT_CSR_FROM(UniformRandom)
HT_CSR_FROM(GridGraph)
#undef HT_CSR_FROM

void drop_duplicates(Csr& g) {
  const std::int64_t n = g.range.local_count();
  float* const w = g.weights.empty() ? nullptr : g.weights.data();
  // kept[i + 1]: the targets row i keeps (then the new offsets); local: how
  // many of them are local (rows keep their split).
  std::vector<std::int64_t> kept(n + 1, 0), local(n, 0);
  g.targets.visit_mutable([&](auto* t) {
    Kokkos::parallel_for(
        "ht::drop_duplicates",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
            0, n),
        [&](std::int64_t i) {
          // (target, weight, position): the lightest of each target sorts
          // first; it keeps the place of the target's first appearance.
          thread_local std::vector<std::tuple<std::int64_t, float, std::int64_t>> s;
          thread_local std::vector<char> keep;
          const std::int64_t a = g.offsets[i], e = g.offsets[i + 1], split = g.local_end(i);
          s.clear();
          for (std::int64_t k = a; k < e; ++k)
            s.emplace_back(std::int64_t(t[k]), w ? w[k] : 0.0f, k);
          std::sort(s.begin(), s.end());
          keep.assign(static_cast<std::size_t>(e - a), 0);
          for (std::size_t j = 0; j < s.size(); ++j) {
            if (j > 0 && std::get<0>(s[j]) == std::get<0>(s[j - 1])) continue;
            std::int64_t first = std::get<2>(s[j]);  // the target's first place
            for (std::size_t q = j + 1; q < s.size() && std::get<0>(s[q]) == std::get<0>(s[j]); ++q)
              first = std::min(first, std::get<2>(s[q]));
            keep[static_cast<std::size_t>(first - a)] = 1;
            if (w) w[first] = std::get<1>(s[j]);
          }
          std::int64_t out = a;
          for (std::int64_t k = a; k < e; ++k) {
            if (!keep[static_cast<std::size_t>(k - a)]) continue;
            if (k < split) ++local[i];
            t[out] = t[k];
            if (w) w[out] = w[k];
            ++out;
          }
          kept[i + 1] = out - a;
        });
    Kokkos::fence();
    // Close the gaps in row order: no row moves up.
    if (g.dropped.size() != static_cast<std::size_t>(n)) g.dropped.assign(n, 0);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t a = g.offsets[i], to = kept[i], count = kept[i + 1];
      if (to != a && count > 0) {
        std::memmove(t + to, t + a, sizeof(*t) * static_cast<std::size_t>(count));
        if (w) std::memmove(w + to, w + a, sizeof(float) * static_cast<std::size_t>(count));
      }
      if (!g.split.empty()) g.split[i] = to + local[i];
      g.dropped[i] += static_cast<std::uint32_t>(g.degree(i) - count);
      kept[i + 1] = to + count;
    }
  });
  g.offsets = std::move(kept);
  g.targets.resize(static_cast<std::size_t>(g.offsets.back()));
  if (w) g.weights.resize(g.targets.size());
}

}  // namespace ht
