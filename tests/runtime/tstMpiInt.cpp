// Tests of ht::mpi_int and ht::checked_count (runtime/HT_MpiInt.hpp): the
// largest value of the narrower type passes unchanged, one more (and any
// negative count) is an ht::Error naming what was counted and its value.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ht::Error& e) {
    return e.what();
  }
  return "";
}

TEST(MpiInt, AcceptsUpToTheLargestInt) {
  const std::int64_t most = (std::int64_t(1) << 31) - 1;
  EXPECT_EQ(ht::mpi_int(most, "items"), 2147483647);
  EXPECT_EQ(ht::mpi_int(std::size_t{0}, "items"), 0);
  EXPECT_EQ(ht::mpi_int(std::uint64_t(most), "items"), 2147483647);
  EXPECT_EQ(ht::mpi_int(7, "items"), 7);
}

TEST(MpiInt, RefusesTwoToThe31AndNegativeCountsNamingWhatAndTheValue) {
  EXPECT_EQ(error_of([] { ht::mpi_int(std::int64_t(1) << 31, "a piece's vertices"); }),
            "a piece's vertices = 2147483648 does not fit an MPI count (int): 0 to 2147483647");
  EXPECT_EQ(error_of([] { ht::mpi_int(std::size_t{1} << 40, "a message's bytes"); }),
            "a message's bytes = 1099511627776 does not fit an MPI count (int): 0 to 2147483647");
  EXPECT_EQ(error_of([] { ht::mpi_int(std::int64_t{-1}, "a displacement"); }),
            "a displacement = -1 does not fit an MPI count (int): 0 to 2147483647");
}

TEST(MpiInt, ThirtyTwoBitSizesStopAtTwoToThe32) {
  const std::uint64_t most = (std::uint64_t(1) << 32) - 1;
  EXPECT_EQ(ht::checked_count<std::uint32_t>(most, "a capacity"), 4294967295u);
  EXPECT_EQ(error_of([&] { ht::checked_count<std::uint32_t>(2 * (most / 2 + 1), "a capacity"); }),
            "a capacity = 4294967296 does not fit a 32-bit size: 0 to 4294967295");
}

}  // namespace
