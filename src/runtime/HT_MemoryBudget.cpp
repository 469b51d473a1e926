#include "runtime/HT_MemoryBudget.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

// The first number in file \p path, or kNone ("max", missing, unreadable).
std::uint64_t number_in(const std::string& path) {
  std::ifstream f(path);
  unsigned long long v = 0;
  if (!(f >> v)) return kNone;
  return v;
}

// The value of "key value" line \p key of \p path (memory.stat), or 0.
std::uint64_t stat_value(const std::string& path, const std::string& key) {
  std::ifstream f(path);
  std::string k;
  unsigned long long v = 0;
  while (f >> k >> v)
    if (k == key) return v;
  return 0;
}

// "key:   123 kB" of a /proc file, in bytes, or kNone.
std::uint64_t proc_kib(const std::string& path, const std::string& key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.compare(0, key.size() + 1, key + ":") != 0) continue;
    std::istringstream in(line.substr(key.size() + 1));
    unsigned long long kib = 0;
    if (in >> kib) return kib * 1024;
  }
  return kNone;
}

// The cgroup paths of this process: v2's ("0::/a/b"), and v1's memory
// controller's ("4:memory:/a/b").
void own_cgroups(const std::string& file, std::string& v2, std::string& v1) {
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (line.compare(0, a, "0") == 0 && controllers.empty()) v2 = path;
    std::istringstream c(controllers);
    for (std::string one; std::getline(c, one, ',');)
      if (one == "memory") v1 = path;
  }
}

struct CgroupLimit {
  std::uint64_t limit = kNone, held = 0;
  std::string file;
};

// The tightest limit (by headroom) of \p dir + \p path and the folders above
// it up to \p dir.  A container sees its own cgroup at \p dir itself, its
// path from /proc/self/cgroup absent there: only folders that exist count.
CgroupLimit tightest(const std::string& dir, std::string path, const char* limit_file,
                     const char* usage_file, const char* cache_key) {
  CgroupLimit best;
  for (;;) {
    while (!path.empty() && path.back() == '/') path.pop_back();
    const std::string at = dir + path + "/";
    const std::uint64_t limit = number_in(at + limit_file);
    // v1 says "no limit" with a page-rounded 2^63 - 1.
    if (limit != kNone && limit < (std::uint64_t(1) << 62)) {
      const std::uint64_t usage = number_in(at + usage_file);
      const std::uint64_t cache = stat_value(at + "memory.stat", cache_key);
      const std::uint64_t held = usage == kNone ? 0 : usage > cache ? usage - cache : 0;
      const std::uint64_t room = limit > held ? limit - held : 0;
      const std::uint64_t best_room = best.limit == kNone      ? kNone
                                      : best.limit > best.held ? best.limit - best.held
                                                               : 0;
      if (room < best_room) best = {limit, held, at + limit_file};
    }
    if (path.empty()) return best;
    path.resize(path.rfind('/'));
  }
}

std::string shared_by(int node_ranks) {
  return node_ranks == 1 ? " for this node's 1 rank"
                         : " shared by this node's " + std::to_string(node_ranks) + " ranks";
}

}  // namespace

std::string bytes_text(double bytes) {
  const char* unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf,
                u == 0        ? "%.0f %s"
                : bytes < 100 ? "%.1f %s"
                              : "%.0f %s",
                bytes, unit[u]);
  return buf;
}

std::uint64_t resident_bytes() {
  const std::uint64_t b = proc_kib("/proc/self/status", "VmRSS");
  return b == kNone ? 0 : b;
}

MemoryBudget memory_budget(int node_ranks, std::uint64_t resident, const MemorySources& src) {
  MemoryBudget out;
  const std::uint64_t ranks = node_ranks > 0 ? static_cast<std::uint64_t>(node_ranks) : 1;
  const auto consider = [&](std::uint64_t bytes, const std::string& source) {
    if (bytes < out.bytes) out = {bytes, source};
  };
  std::string v2, v1;
  own_cgroups(src.root + "/proc/self/cgroup", v2, v1);
  const CgroupLimit c2 =
      tightest(src.root + "/sys/fs/cgroup", v2, "memory.max", "memory.current", "file");
  const CgroupLimit c1 = tightest(src.root + "/sys/fs/cgroup/memory", v1, "memory.limit_in_bytes",
                                  "memory.usage_in_bytes", "total_cache");
  for (const CgroupLimit& c : {c2, c1}) {
    if (c.limit == kNone) continue;
    const std::uint64_t room = c.limit > c.held ? c.limit - c.held : 0;
    consider(room / ranks + resident, "the cgroup limit " + c.file + " (" + bytes_text(c.limit) +
                                          ", " + bytes_text(c.held) + " in use)" +
                                          shared_by(node_ranks));
  }
  const std::uint64_t avail = proc_kib(src.root + "/proc/meminfo", "MemAvailable");
  if (avail != kNone)
    consider(avail / ranks + resident,
             "MemAvailable in /proc/meminfo (" + bytes_text(avail) + ")" + shared_by(node_ranks));
  if (src.address_limit) {
    rlimit r{};
    if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
      std::uint64_t mapped = proc_kib("/proc/self/status", "VmSize");
      if (mapped == kNone) mapped = 0;
      const std::uint64_t most = r.rlim_cur;
      consider((most > mapped ? most - mapped : 0) + resident,
               "ulimit -v (RLIMIT_AS: " + bytes_text(static_cast<double>(most)) + " a process, " +
                   bytes_text(static_cast<double>(mapped)) + " mapped now)");
    }
  }
  return out;
}

MemoryCheck memory_check_mode(const char* value) {
  const std::string v = value ? value : "";
  if (v.empty() || v == "on") return MemoryCheck::on;
  if (v == "warn") return MemoryCheck::warn;
  if (v == "off") return MemoryCheck::off;
  throw UsageError("HT_MEMORY_CHECK=" + v + ": accepted: on (the default), warn, off");
}

}  // namespace ht
