// Tests of ht::memory_budget and its helpers on a machine of our making:
// cgroup and /proc files under a folder (MemorySources::root), so each limit
// is seen, read as the kernel writes it, and the tightest one wins.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_MemoryBudget.hpp"
#include "test_environment.hpp"

namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t GiB = std::uint64_t(1) << 30, MiB = std::uint64_t(1) << 20;

// A fake root with \p files ("path" -> text); removed when the test ends.
class FakeMachine {
 public:
  explicit FakeMachine(const std::string& name) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    root_ = (fs::temp_directory_path() / ("tstMemoryBudget_" + name + "_" + std::to_string(rank) +
                                          "_" + std::to_string(::getpid())))
                .string();
    fs::remove_all(root_);
  }
  ~FakeMachine() { fs::remove_all(root_); }
  void file(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(root_ + path).parent_path());
    std::ofstream(root_ + path) << text;
  }
  ht::MemorySources sources() const { return {root_, false}; }

 private:
  std::string root_;
};

std::string meminfo(std::uint64_t available) {
  return "MemTotal:       99999999 kB\nMemFree:         1000 kB\nMemAvailable:   " +
         std::to_string(available / 1024) + " kB\n";
}

TEST(MemoryBudget, NoLimitFoundIsUnlimited) {
  FakeMachine m("none");
  m.file("/proc/self/cgroup", "0::/\n");
  const ht::MemoryBudget b = ht::memory_budget(1, 30 * MiB, m.sources());
  EXPECT_FALSE(b.limited());
  EXPECT_TRUE(b.source.empty());
}

TEST(MemoryBudget, MemAvailableIsSharedByTheNodesRanks) {
  FakeMachine m("meminfo");
  m.file("/proc/self/cgroup", "0::/\n");
  m.file("/proc/meminfo", meminfo(8 * GiB));
  m.file("/sys/fs/cgroup/memory.max", "max\n");  // no limit
  const ht::MemoryBudget b = ht::memory_budget(4, 30 * MiB, m.sources());
  ASSERT_TRUE(b.limited());
  EXPECT_EQ(b.bytes, 2 * GiB + 30 * MiB);  // a quarter, and what the rank holds
  EXPECT_NE(b.source.find("MemAvailable in /proc/meminfo (8.0 GiB) shared by this node's 4 ranks"),
            std::string::npos)
      << b.source;
}

TEST(MemoryBudget, CgroupV2LimitLessWhatItHoldsButNotItsPageCache) {
  FakeMachine m("v2");
  m.file("/proc/self/cgroup", "0::/job/step\n");
  m.file("/proc/meminfo", meminfo(100 * GiB));
  m.file("/sys/fs/cgroup/job/memory.max", std::to_string(4 * GiB) + "\n");
  m.file("/sys/fs/cgroup/job/memory.current", std::to_string(GiB) + "\n");
  m.file("/sys/fs/cgroup/job/memory.stat", "anon 1234\nfile " + std::to_string(GiB / 2) + "\n");
  m.file("/sys/fs/cgroup/job/step/memory.max", "max\n");  // the tighter is above
  const ht::MemoryBudget b = ht::memory_budget(1, 30 * MiB, m.sources());
  EXPECT_EQ(b.bytes, 4 * GiB - GiB / 2 + 30 * MiB);
  EXPECT_NE(b.source.find("job/memory.max (4.0 GiB, 512 MiB in use) for this node's 1 rank"),
            std::string::npos)
      << b.source;
}

TEST(MemoryBudget, CgroupV1UnlimitedIsNoLimitAndALimitCounts) {
  FakeMachine m("v1");
  m.file("/proc/self/cgroup", "4:memory:/\n0::/\n");
  m.file("/proc/meminfo", meminfo(100 * GiB));
  m.file("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_NE(ht::memory_budget(1, 0, m.sources()).source.find("MemAvailable"), std::string::npos);
  m.file("/sys/fs/cgroup/memory/memory.limit_in_bytes", std::to_string(2 * GiB) + "\n");
  m.file("/sys/fs/cgroup/memory/memory.usage_in_bytes", "0\n");
  const ht::MemoryBudget b = ht::memory_budget(2, 0, m.sources());
  EXPECT_EQ(b.bytes, GiB);
  EXPECT_NE(b.source.find("memory.limit_in_bytes (2.0 GiB, 0 bytes in use)"), std::string::npos)
      << b.source;
}

TEST(MemoryBudget, AContainersOwnCgroupIsItsRoot) {
  // /proc/self/cgroup names the host's path, absent inside the container.
  FakeMachine m("container");
  m.file("/proc/self/cgroup", "4:memory:/docker/abc\n");
  m.file("/sys/fs/cgroup/memory/memory.limit_in_bytes", std::to_string(3 * GiB) + "\n");
  EXPECT_EQ(ht::memory_budget(1, 0, m.sources()).bytes, 3 * GiB);
}

TEST(MemoryBudget, TheProcessIsMeasured) {
  EXPECT_GT(ht::resident_bytes(), MiB);
  // This machine's budget, whatever it is, leaves the test room to run.
  EXPECT_GT(ht::memory_budget(1, ht::resident_bytes()).bytes, ht::resident_bytes());
}

TEST(MemoryBudget, NodeRanksAreThisMachinesRanks) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(test_environment().node_ranks(), size);  // tests run on one node
}

TEST(MemoryBudget, BytesForPeople) {
  EXPECT_EQ(ht::bytes_text(0), "0 bytes");
  EXPECT_EQ(ht::bytes_text(1536), "1.5 KiB");
  EXPECT_EQ(ht::bytes_text(300.0 * MiB), "300 MiB");
  EXPECT_EQ(ht::bytes_text(8.0 * 1024 * GiB), "8.0 TiB");
}

TEST(MemoryBudget, CheckModes) {
  EXPECT_EQ(ht::memory_check_mode(nullptr), ht::MemoryCheck::on);
  EXPECT_EQ(ht::memory_check_mode(""), ht::MemoryCheck::on);
  EXPECT_EQ(ht::memory_check_mode("warn"), ht::MemoryCheck::warn);
  EXPECT_EQ(ht::memory_check_mode("off"), ht::MemoryCheck::off);
  try {
    ht::memory_check_mode("no");
    FAIL() << "no error";
  } catch (const ht::UsageError& e) {
    EXPECT_STREQ(e.what(), "HT_MEMORY_CHECK=no: accepted: on (the default), warn, off");
  }
}

}  // namespace
