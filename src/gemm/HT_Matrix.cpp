#include "gemm/HT_Matrix.hpp"

namespace ht {

namespace {
// splitmix64: a strong 64-bit mix, enough for test matrices.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

double matrix_entry(std::uint64_t seed, int which, long long i, long long j, long long n) {
  if (i >= n || j >= n) return 0.0;
  const std::uint64_t h =
      mix(mix(mix(seed * 4 + static_cast<std::uint64_t>(which)) ^ static_cast<std::uint64_t>(i)) ^
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
