#pragma once
/// \file HT_MpiInt.hpp
/// \brief The one check where a 64-bit count becomes a narrower one: MPI's
/// `int` counts, displacements and sizes, or another 32-bit size (a Kokkos
/// UnorderedMap's capacity).  A count that does not fit is an ht::Error
/// naming what was counted and its value, never a silent wrap.
///
/// Examples: src/graph/HT_Bitmap.cpp (allgather counts and displacements),
/// tests/runtime/tstMpiInt.cpp.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace ht {

namespace impl {
/// \brief Throws ht::Error: "<what> = <value> does not fit <kind>: 0 to <most>".
[[noreturn]] void count_does_not_fit(const char* what, const std::string& value,
                                     unsigned long long most, const char* kind);
}  // namespace impl

/// \brief \p n as a \p To (an integer type), or ht::Error naming \p what and
/// \p n where it is negative or above To's largest value.
template <class To, class From>
To checked_count(From n, const char* what) {
  static_assert(std::is_same_v<To, int> || std::is_same_v<To, std::uint32_t>,
                "an MPI count (int) or a 32-bit size");
  static_assert(std::is_integral_v<From>, "an integer count");
  constexpr auto most = static_cast<unsigned long long>(std::numeric_limits<To>::max());
  const bool negative = std::is_signed_v<From> && n < From(0);
  if (negative || static_cast<unsigned long long>(n) > most) {
    impl::count_does_not_fit(what, std::to_string(n), most,
                             std::is_same_v<To, int> ? "an MPI count (int)" : "a 32-bit size");
  }
  return static_cast<To>(n);
}

/// \brief \p n as MPI's int (a count, a displacement or a size): \p n when
/// it is in [0, 2^31 - 1], else ht::Error naming \p what and \p n.
template <class From>
int mpi_int(From n, const char* what) {
  return checked_count<int>(n, what);
}

}  // namespace ht
