#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/HT_HugePages.hpp"
#include "runtime/HT_Settings.hpp"

namespace {

constexpr std::uintptr_t kHuge = std::uintptr_t(1) << 21;

// The whole 2 MiB pages inside [p, p + bytes), computed apart from the code under test.
std::size_t whole_huge_pages(const void* p, std::size_t bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t first = a / kHuge * kHuge;
  if (first < a) first += kHuge;
  const std::uintptr_t end = (a + bytes) / kHuge * kHuge;
  return end > first ? end - first : 0;
}

// Transparent huge pages are built into this kernel: madvise(MADV_HUGEPAGE) must then succeed.
bool kernel_has_thp() {
  return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

TEST(HugePages, AsksForTheWholeHugePagesInsideTheRange) {
  ASSERT_TRUE(ht::huge_pages_on()) << "on unless HT_HUGE_PAGES=0";
  std::vector<char> v(9 << 20, 1);
  for (const std::size_t offset : {std::size_t{0}, std::size_t{4096}, std::size_t{12345}}) {
    const char* p = v.data() + offset;
    const std::size_t bytes = v.size() - offset - 3 * 4096;
    const std::size_t expect = whole_huge_pages(p, bytes);
    ASSERT_GE(expect, std::size_t{3} << 21) << "9 MiB less 3 pages hold 3 whole huge pages";
    if (kernel_has_thp()) {
      EXPECT_EQ(ht::prefer_huge_pages(p, bytes), expect);
    }
  }
  EXPECT_EQ(ht::prefer_huge_pages(v.data(), 4096), 0u) << "a range with no whole huge page";
  EXPECT_EQ(ht::prefer_huge_pages(v.data(), 0), 0u);
  for (const char c : v) ASSERT_EQ(c, 1) << "the contents survive";
}

TEST(HugePages, AssignKeepsVectorSemantics) {
  std::vector<std::int64_t> v{7, 8};
  ht::assign_in_huge_pages(v, std::size_t{3} << 20, std::int64_t{-1});
  ASSERT_EQ(v.size(), std::size_t{3} << 20);
  for (const std::int64_t x : v) ASSERT_EQ(x, -1);
  const std::int64_t* storage = v.data();
  ht::assign_in_huge_pages(v, 5, std::int64_t{4});
  EXPECT_EQ(v, std::vector<std::int64_t>(5, 4));
  EXPECT_EQ(v.data(), storage) << "a smaller reset keeps the storage (a search's parents)";
}

TEST(HugePages, SettingReadFromTheEnvironment) {
  const char* saved = std::getenv("HT_HUGE_PAGES");
  const std::string keep = saved ? saved : "";
  // The setting as the ranks agree it at start (HT_Settings.hpp), anew.
  const auto set = [](const char* value) {
    setenv("HT_HUGE_PAGES", value, 1);
    ASSERT_EQ(ht::agree_settings(MPI_COMM_WORLD), "");
  };
  std::string error;
  set("0");
  ht::read_huge_pages_setting(error);
  EXPECT_TRUE(error.empty());
  EXPECT_FALSE(ht::huge_pages_on());
  std::vector<char> v(8 << 20);
  EXPECT_EQ(ht::prefer_huge_pages(v.data(), v.size()), 0u) << "off asks for nothing";
  set("yes");
  ht::read_huge_pages_setting(error);
  EXPECT_NE(error.find("HT_HUGE_PAGES = 'yes'"), std::string::npos) << error;
  error.clear();
  set("1");
  ht::read_huge_pages_setting(error);
  EXPECT_TRUE(error.empty());
  EXPECT_TRUE(ht::huge_pages_on());
  if (saved)
    setenv("HT_HUGE_PAGES", keep.c_str(), 1);
  else
    unsetenv("HT_HUGE_PAGES");
  ASSERT_EQ(ht::agree_settings(MPI_COMM_WORLD), "");
}

}  // namespace
