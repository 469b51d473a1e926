// A Kokkos Tools library of the tests' own (loaded through KOKKOS_TOOLS_LIBS,
// as kokkos-tools' libraries are): records every profiling region a rank
// opens, with its depth, to "$HT_REGIONS.<rank>", one line per region:
//   host <depth> <name>     opened on the thread that initialized Kokkos
//   worker <depth> <name>   opened inside a task (Kokkos Kernels does), depth
//                           counted on that worker's own stack
// and "error: ..." for a pop with nothing open or regions left open at the end.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
std::FILE* out = nullptr;
std::mutex lock;
std::thread::id host;
thread_local std::vector<std::string> stack;
std::size_t open_regions = 0;  // over all threads, under lock

std::string rank() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* r = std::getenv(v)) return r;
  return "0";
}
}  // namespace

extern "C" void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {
  host = std::this_thread::get_id();
  const char* base = std::getenv("HT_REGIONS");
  out = std::fopen((std::string(base ? base : "regions") + "." + rank()).c_str(), "w");
}

extern "C" void kokkosp_finalize_library() {
  if (!out) return;
  if (open_regions) std::fprintf(out, "error: %zu regions left open\n", open_regions);
  std::fclose(out);
  out = nullptr;
}

extern "C" void kokkosp_push_profile_region(const char* name) {
  std::lock_guard<std::mutex> g(lock);
  if (out) {
    std::fprintf(out, "%s %zu %s\n", std::this_thread::get_id() == host ? "host" : "worker",
                 stack.size(), name);
  }
  stack.emplace_back(name);
  ++open_regions;
}

extern "C" void kokkosp_pop_profile_region() {
  std::lock_guard<std::mutex> g(lock);
  if (stack.empty()) {
    if (out) std::fprintf(out, "error: a region closed with none open on this thread\n");
    return;
  }
  stack.pop_back();
  --open_regions;
}
