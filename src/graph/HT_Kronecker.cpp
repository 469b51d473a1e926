#include "graph/HT_Kronecker.hpp"

#include "runtime/HT_Mix.hpp"

#include <Kokkos_Core.hpp>

namespace ht {

namespace {

double unit(std::uint32_t bits) { return bits * 0x1.0p-32; }  // [0, 1)

}  // namespace

Permutation::Permutation(std::uint64_t n, std::uint64_t key) : n_(n), key_(mix64(key)), half_(1) {
  while ((std::uint64_t(1) << (2 * half_)) < n_) ++half_;
}

std::uint64_t Permutation::operator()(std::uint64_t x) const {
  const std::uint64_t mask = (std::uint64_t(1) << half_) - 1;
  // Cycle walking: a bijection of [0, 4^half) restricted to [0, n) by
  // re-applying it until the value lands inside; ends since x < n is a start.
  do {
    std::uint64_t l = x >> half_, r = x & mask;
    for (int round = 0; round < 4; ++round) {
      const std::uint64_t f = mix64(r ^ (key_ + round * 0x632be59bd9b4e019ULL)) & mask;
      const std::uint64_t next = l ^ f;
      l = r;
      r = next;
    }
    x = (l << half_) | r;
  } while (x >= n_);
  return x;
}

std::uint64_t Kronecker::shuffled(std::int64_t e) const {
  // The shuffle and the label permutation are fixed by the seed alone.
  const Permutation shuffle(static_cast<std::uint64_t>(edge_count()), seed ^ 0x5bd1e995ULL);
  return shuffle(static_cast<std::uint64_t>(e));
}

Edge Kronecker::edge(std::int64_t e) const { return endpoints(shuffled(e)); }

WeightedEdge Kronecker::weighted_edge(std::int64_t e) const {
  const std::uint64_t k = shuffled(e);
  const Edge uv = endpoints(k);
  return {uv.u, uv.v, edge_weight(edge_draw(seed, k, scale))};
}

Edge Kronecker::endpoints(std::uint64_t k) const {
  const Permutation label(static_cast<std::uint64_t>(vertex_count()), seed ^ 0x27d4eb2dULL);
  const double ab = a + b, a_norm = a / ab, c_norm = c / (1.0 - ab);
  std::uint64_t u = 0, v = 0;
  for (int bit = 0; bit < scale; ++bit) {
    // Unshuffled edge k's draws 0 .. SCALE-1 pick its quadrants, draw SCALE its weight.
    const std::uint64_t r = edge_draw(seed, k, bit);
    const bool ii = unit(static_cast<std::uint32_t>(r >> 32)) > ab;
    const bool jj = unit(static_cast<std::uint32_t>(r)) > (ii ? c_norm : a_norm);
    u |= std::uint64_t(ii) << bit;
    v |= std::uint64_t(jj) << bit;
  }
  return {static_cast<std::int64_t>(label(u)), static_cast<std::int64_t>(label(v))};
}

std::vector<Edge> Kronecker::edges(std::int64_t first, std::int64_t last) const {
  std::vector<Edge> out(last > first ? last - first : 0);
  Edge* data = out.data();
  const Kronecker gen = *this;
  Kokkos::parallel_for("ht::Kronecker::edges",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(
                           0, static_cast<std::int64_t>(out.size())),
                       [=](std::int64_t i) { data[i] = gen.edge(first + i); });
  Kokkos::fence();
  return out;
}

std::vector<WeightedEdge> Kronecker::weighted_edges(std::int64_t first, std::int64_t last) const {
  std::vector<WeightedEdge> out(last > first ? last - first : 0);
  WeightedEdge* data = out.data();
  const Kronecker gen = *this;
  Kokkos::parallel_for("ht::Kronecker::weighted_edges",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(
                           0, static_cast<std::int64_t>(out.size())),
                       [=](std::int64_t i) { data[i] = gen.weighted_edge(first + i); });
  Kokkos::fence();
  return out;
}

}  // namespace ht
