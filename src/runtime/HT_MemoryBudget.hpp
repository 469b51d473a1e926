#pragma once
/// \file HT_MemoryBudget.hpp
/// \brief Memory known up front: what a rank may hold (the tightest of the
/// limits the machine sets), what a run will need (its driver's estimate,
/// AppSpec::memory); run_app compares them before any large allocation
/// (app/HT_MemoryCheck.hpp).
///
/// The limits, each turned into bytes for one rank:
///  - the cgroup's memory limit (v2 memory.max, v1 memory.limit_in_bytes,
///    of the process's own cgroup and those above it), less what the cgroup
///    holds now other than page cache, shared by the ranks of this node;
///  - MemAvailable of /proc/meminfo, shared by the ranks of this node;
///  - RLIMIT_AS (`ulimit -v`), a process's own, less its address space now.
/// A rank's budget is its share of the headroom plus what it holds now
/// (VmRSS): an estimate counts the whole resident memory of the rank, the
/// ~30 MiB of MPI and Kokkos it holds already included.
///
/// Example: tests/runtime/tstMemoryBudget.cpp.

#include <cstdint>
#include <limits>
#include <string>

namespace ht {

/// \brief What a driver expects one rank to hold at its peak (AppSpec::memory).
struct MemoryEstimate {
  /// \brief Resident bytes at the rank's peak, kBaselineBytes included.
  std::uint64_t bytes = 0;
  /// \brief What dominates, for the message: "Graph500/SCALE = 30: the graph 96 GiB, ...".
  std::string parts;
  /// \brief What would fit in the budget the estimator was given:
  /// "SCALE 27 fits on 1 rank" (empty: nothing to say).
  std::string fits;
};

/// \brief Resident bytes of a rank before its work: MPI, Kokkos, the deck
/// (graph/rss_before_bytes: 29 to 30 MiB on Open MPI 4.1 and Kokkos 3.4, 1 to 4
/// ranks; rounded up).
inline constexpr std::uint64_t kBaselineBytes = std::uint64_t(32) << 20;

/// \brief Above this fraction of its budget a run is warned about.
inline constexpr double kWarnFraction = 0.8;

/// \brief What one rank may hold, and which limit says so.
struct MemoryBudget {
  /// \brief Bytes for this rank; the largest value when no limit was found.
  std::uint64_t bytes = std::numeric_limits<std::uint64_t>::max();
  /// \brief The limit, in words: "the cgroup limit /sys/fs/cgroup/memory.max
  /// (4.0 GiB, 120 MiB in use) for this node's 1 rank".
  std::string source;
  /// \brief Whether any limit was found.
  bool limited() const { return bytes != std::numeric_limits<std::uint64_t>::max(); }
};

/// \brief Where the limits are read: the real files, or a test's copies
/// under \c root ("" : the machine's).
struct MemorySources {
  std::string root;           ///< prefix of /sys/fs/cgroup and /proc
  bool address_limit = true;  ///< read RLIMIT_AS (tests turn it off)
};

/// \brief The tightest budget of the limits above for one of \p node_ranks
/// ranks of a node, a rank that holds \p resident bytes now.
MemoryBudget memory_budget(int node_ranks, std::uint64_t resident,
                           const MemorySources& sources = {});

/// \brief This process's resident bytes now (VmRSS of /proc/self/status).
std::uint64_t resident_bytes();

/// \brief \p bytes for people: "812 MiB", "3.7 GiB", "8.0 TiB".
std::string bytes_text(double bytes);

/// \brief How HT_MEMORY_CHECK asks the check to act.
enum class MemoryCheck { on, warn, off };

/// \brief HT_MEMORY_CHECK read from \p value (null: unset, on); UsageError
/// naming the value and what is accepted.
MemoryCheck memory_check_mode(const char* value);

}  // namespace ht
