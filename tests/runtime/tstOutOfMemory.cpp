// Tests of ht::out_of_memory and ht::error_words: an allocation that fails names the phase it
// failed in and the bytes it asked, for Kokkos' allocations (whose failure
// carries the size) and for plain new (whose size the replaced operator new
// records).  The sizes asked exceed any address space: no limit is needed.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <regex>
#include <vector>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_MemoryBudget.hpp"
#include "runtime/HT_Phase.hpp"

namespace {

constexpr std::size_t kExa = std::size_t(1) << 60;

TEST(OutOfMemory, AKokkosViewNamesThePhaseAndTheBytes) {
  std::string got;
  double seconds = 0;
  try {
    ht::Phase outer("Test: construction", seconds);
    ht::Region inner("Test: offsets");
    Kokkos::View<char*, Kokkos::HostSpace> v("too big", kExa);
  } catch (const std::exception& e) {  // Kokkos says it as a std::runtime_error
    got = ht::error_words(e);          // after the phases: from where it left them
  }
  EXPECT_TRUE(std::regex_match(
      got, std::regex("out of memory in Test: offsets \\(in Test: construction\\): asked 1\\.0 "
                      "EiB more for 'too big' with [0-9.]+ [KMG]iB resident; a smaller share per "
                      "rank may fit: .*")))
      << got;
}

TEST(OutOfMemory, PlainNewNamesThePhaseAndTheBytes) {
  std::string got;
  ht::Region region("Test: edges");
  try {
    std::vector<char> v;
    v.reserve(kExa);
  } catch (const std::bad_alloc& e) {
    got = ht::out_of_memory(e);  // inside the phase: the open one
  }
  EXPECT_TRUE(std::regex_match(
      got, std::regex("out of memory in Test: edges: asked 1\\.0 EiB more with [0-9.]+ [KMG]iB "
                      "resident; .*")))
      << got;
  // The nothrow and array forms go through the same operator new.
  EXPECT_EQ(new (std::nothrow) char[kExa], nullptr);
}

TEST(OutOfMemory, OutsideEveryPhaseSaysNoPhase) {
  std::string got;
  try {
    std::vector<double> v(kExa / 8);
  } catch (const std::bad_alloc& e) {
    got = ht::out_of_memory(e);
  }
  EXPECT_EQ(got.rfind("out of memory: asked 1.0 EiB more with ", 0), 0u) << got;
}

TEST(OutOfMemory, OtherErrorsKeepTheirWords) {
  EXPECT_EQ(ht::error_words(std::runtime_error("a peer is gone")), "a peer is gone");
}

TEST(OutOfMemory, BytesForAReader) {
  EXPECT_EQ(ht::bytes_text(512), "512 bytes");
  EXPECT_EQ(ht::bytes_text(3.2 * (1 << 30)), "3.2 GiB");
}

}  // namespace
