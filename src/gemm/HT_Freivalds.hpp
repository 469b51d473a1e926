#pragma once
/// \file HT_Freivalds.hpp
/// \brief Independent check of a distributed product C = A * B by Freivalds'
/// method (R. Freivalds, "Probabilistic machines can use less running time",
/// 1977): compare C x with A (B x) for a random x, in O(N^2) work.
///
/// Invariant checked, with u the unit roundoff and g = N u / (1 - N u):
///   || C x - A (B x) ||_inf  <=  5 g || |A| (|B| |x|) ||_inf
/// A correct product in floating point stays within 2 g (the product's own
/// error plus that of the three products); a wrong tile misses it by orders of
/// magnitude.  Broken by tstFreivalds' mutants (an entry off by 1.25 bounds,
/// A and B swapped, a tile missing) and by its generated products, judged by
/// the rule evaluated on an exact product (AgreesWithTheOracle).  An error
/// that x happens to miss passes: the check is probabilistic by design.
#include <cstdint>

#include "comm/HT_Grid2D.hpp"
#include "gemm/HT_Matrix.hpp"

namespace ht {

/// \brief The check's error against its bound.
struct FreivaldsResult {
  double error = 0;  ///< || C x - A (B x) ||_inf / scale
  double bound = 0;  ///< 5 g
  double scale = 0;  ///< || |A| (|B| |x|) ||_inf, what the error is relative to
  /// \brief Whether the error is within the bound.
  bool passed() const { return error <= bound; }
};

/// \brief Entry \p j of the vector x that freivalds_check(..., \p n, \p seed) multiplies by.
double freivalds_x(std::uint64_t seed, long long j, long long n);

/// \brief Checks this grid's blocks (\p a = A_rc, \p b = B_rc, \p c = C_rc, unskewed)
/// of N x N matrices.  Collective; every rank gets the same result.
FreivaldsResult freivalds_check(const Grid2D& grid, Block a, Block b, Block c, long long n,
                                std::uint64_t seed);

}  // namespace ht
