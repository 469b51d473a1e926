#include "runtime/HT_HugePages.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "runtime/HT_Settings.hpp"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1's value; older kernels refuse it (EINVAL)
#endif

namespace ht {

namespace {
constexpr std::uintptr_t kHugePage = std::uintptr_t(1) << 21;
std::atomic<bool> on{true};
}  // namespace

bool huge_pages_on() { return on.load(std::memory_order_relaxed); }

void read_huge_pages_setting(std::string& error) {
  const std::string s = setting("HT_HUGE_PAGES");
  if (s.empty() || s == "1")
    on = true;
  else if (s == "0")
    on = false;
  else if (error.empty())
    error = "HT_HUGE_PAGES = '" + s + "': 1 (huge pages for the graph and search arrays) or 0";
}

std::size_t prefer_huge_pages(const void* p, std::size_t bytes) {
  if (!huge_pages_on() || bytes < kHugePage) return 0;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t lo = (a + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t hi = (a + bytes) & ~(kHugePage - 1);
  if (hi <= lo) return 0;
  void* const first = reinterpret_cast<void*>(lo);
  if (madvise(first, hi - lo, MADV_HUGEPAGE) != 0) return 0;
  // Pages touched already stay small until khugepaged passes (minutes):
  // collapse them now where the kernel can.
  madvise(first, hi - lo, MADV_COLLAPSE);
  return hi - lo;
}

}  // namespace ht
