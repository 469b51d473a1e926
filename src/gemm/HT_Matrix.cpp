#include "gemm/HT_Matrix.hpp"

#include "runtime/HT_Mix.hpp"

namespace ht {

double matrix_entry(std::uint64_t seed, int which, long long i, long long j, long long n) {
  if (i >= n || j >= n) return 0.0;
  const std::uint64_t h = mix64(
      mix64(mix64(seed * 4 + static_cast<std::uint64_t>(which)) ^ static_cast<std::uint64_t>(i)) ^
      static_cast<std::uint64_t>(j));
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

void fill_block(Block b, std::uint64_t seed, int which, long long row0, long long col0,
                long long n) {
  const long long rows = b.extent(0), cols = b.extent(1);
  Kokkos::parallel_for("ht::fill_block",
                       Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, cols),
                       [=](long long j) {
                         for (long long i = 0; i < rows; ++i)
                           b(i, j) = matrix_entry(seed, which, row0 + i, col0 + j, n);
                       });
}

}  // namespace ht
