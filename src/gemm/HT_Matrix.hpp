#pragma once
/// \file HT_Matrix.hpp
/// \brief Dense blocks of the distributed N x N matrices and the deterministic
/// generator of their entries.
///
/// Rank (r, c) of a q x q grid owns rows [r*nb, (r+1)*nb) and columns
/// [c*nb, (c+1)*nb) with nb = ceil(N / q); entries past N are zero (padding),
/// so any N >= 1 works on any q.  An entry depends only on (seed, matrix, i, j):
/// the same deck gives the same matrices on any rank count.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace ht {

/// A rank's block: column-major (what BLAS wants), contiguous (what MPI sends).
using Block = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;

/// Entry (i, j) of matrix \p which, uniform in [-1, 1); 0 when i or j >= n.
double matrix_entry(std::uint64_t seed, int which, long long i, long long j, long long n);

/// Fills \p b with the entries of rows row0.., columns col0.. of matrix \p which.
void fill_block(Block b, std::uint64_t seed, int which, long long row0, long long col0,
                long long n);

/// Local block size for N on a q x q grid: ceil(N / q).
inline long long block_size(long long n, int q) { return (n + q - 1) / q; }

}  // namespace ht
