#include "gemm/HT_Freivalds.hpp"

#include <KokkosBlas2_gemv.hpp>
#include <cmath>
#include <limits>

#include "comm/HT_Wait.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

namespace {

using Vector = Kokkos::View<double*, Kokkos::HostSpace>;
using Host = Kokkos::DefaultHostExecutionSpace;

// Segment [c*nb, (c+1)*nb) of a global vector of length q*nb.
Vector segment(Vector v, int block, long long nb) {
  return Kokkos::subview(v, Kokkos::make_pair(block * nb, (block + 1) * nb));
}

// y_r += M x_c, and (unless ya is empty) the same with absolute values
// into ya_r from xa_c.
void block_products(Block m, Vector x, Vector xa, Vector y, Vector ya = {}) {
  KokkosBlas::gemv("N", 1.0, m, x, 1.0, y);
  if (ya.extent(0) == 0) return;
  const long long rows = m.extent(0), cols = m.extent(1);
  Kokkos::parallel_for("ht::abs_gemv", Kokkos::RangePolicy<Host>(0, rows), [=](long long i) {
    double s = 0;
    for (long long j = 0; j < cols; ++j) s += std::fabs(m(i, j)) * xa(j);
    ya(i) += s;
  });
  Kokkos::fence();
}

void sum_over_ranks(Vector v, MPI_Comm comm) {
  ht::sum_over_ranks(v.data(), ht::mpi_int(v.extent(0), "a Freivalds vector's length"), comm);
}

}  // namespace

double freivalds_x(std::uint64_t seed, long long j, long long n) {
  return matrix_entry(seed, 3, 0, j, n);  // 0 in the padding
}

FreivaldsResult freivalds_check(const Grid2D& g, Block a, Block b, Block c, long long n,
                                std::uint64_t seed) {
  const long long nb = a.extent(0), len = nb * g.rows();
  const int r = g.row(), col = g.col();
  Vector x("x", len), xa("|x|", len);
  for (long long j = 0; j < len; ++j) {
    x(j) = freivalds_x(seed, j, n);
    xa(j) = std::fabs(x(j));
  }
  // u = B x, ua = |B||x|; then z = A u, za = |A| ua; y = C x.
  Vector u("Bx", len), ua("|B||x|", len), z("ABx", len), za("|A||B||x|", len), y("Cx", len);
  block_products(b, segment(x, col, nb), segment(xa, col, nb), segment(u, r, nb),
                 segment(ua, r, nb));
  sum_over_ranks(u, g.comm());
  sum_over_ranks(ua, g.comm());
  block_products(a, segment(u, col, nb), segment(ua, col, nb), segment(z, r, nb),
                 segment(za, r, nb));
  block_products(c, segment(x, col, nb), {}, segment(y, r, nb));
  sum_over_ranks(z, g.comm());
  sum_over_ranks(za, g.comm());
  sum_over_ranks(y, g.comm());

  double diff = 0, scale = 0;
  for (long long i = 0; i < len; ++i) {
    diff = std::fmax(diff, std::fabs(y(i) - z(i)));
    scale = std::fmax(scale, za(i));
  }
  const double u_round = std::numeric_limits<double>::epsilon() / 2;
  const double gamma = n * u_round / (1 - n * u_round);
  FreivaldsResult res;
  res.error = scale > 0 ? diff / scale : diff;
  res.bound = 5 * gamma;
  res.scale = scale;
  return res;
}

}  // namespace ht
