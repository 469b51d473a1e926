#pragma once
/// \file HT_Mix.hpp
/// \brief A 64-bit mixing function (the splitmix64 finaliser, S. Vigna):
/// counter-based randomness, so that any rank can make any element of a
/// generated input and the input does not depend on the rank count.
///
/// Example: src/graph/HT_Kronecker.cpp.
#include <cstdint>

namespace ht {

inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace ht
