#include "runtime/HT_Environment.hpp"

#include <sched.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_OpenBlas.hpp"

namespace ht {

namespace {

// Rewrites both thread-flag spellings (with '=' or a separate value) to the
// one this Kokkos understands, without a deprecation warning.
std::vector<std::string> rewrite_kokkos_flags(int argc, char** argv) {
#if KOKKOS_VERSION >= 40000
  const std::string want = "--kokkos-num-threads", other = "--kokkos-threads";
#else
  const std::string want = "--kokkos-threads", other = "--kokkos-num-threads";
#endif
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    for (const std::string& flag : {want, other}) {
      if (a == flag && i + 1 < argc) {
        a = want + "=" + argv[++i];
      } else if (a.rfind(flag + "=", 0) == 0) {
        a = want + a.substr(flag.size());
      }
    }
    out.push_back(a);
  }
  return out;
}

int affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  if (argc > 0) {
    std::string p = argv[0];
    set_program_name(p.substr(p.find_last_of('/') + 1));
  }
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &thread_level_);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);

  args_ = rewrite_kokkos_flags(argc, argv);
  for (auto& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
  argc = static_cast<int>(args_.size());
  argv = argv_.data();
  Kokkos::initialize(argc, argv);  // removes the --kokkos-* flags it used

  threads_ = Kokkos::DefaultHostExecutionSpace().concurrency();
  cores_ = affinity_cores();
  // Inside tasks OpenBLAS must not start threads of its own.
  set_blas_threads(1);
  if (threads_ > cores_) {
    std::fprintf(stderr,
                 "%s: rank %d: warning: %d Kokkos threads share %d core%s: the launcher bound "
                 "this rank too tightly (mpirun: --bind-to none or --map-by slot:PE=%d)\n",
                 program_name().c_str(), rank_, threads_, cores_, cores_ == 1 ? "" : "s", threads_);
  }
}

Environment::~Environment() {
  if (Kokkos::is_initialized()) Kokkos::finalize();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

const char* Environment::thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
  }
  return "unknown";
}

void Environment::require_thread_level(int level, const std::string& who) const {
  if (thread_level_ < level) {
    throw UsageError(who + " needs " + thread_level_name(level) + " but this MPI granted only " +
                     thread_level_name(thread_level_) + "; use an MPI built with thread support");
  }
}

std::string Environment::kokkos_description() {
  const int v = KOKKOS_VERSION;
  return "Kokkos " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100) + " (" + Kokkos::DefaultHostExecutionSpace::name() + ")";
}

}  // namespace ht
