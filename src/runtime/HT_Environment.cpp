#include "runtime/HT_Environment.hpp"

#include <sched.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_OpenBlas.hpp"

namespace ht {

namespace {

// A thread count as Kokkos reads it, but refused here when it is not a
// positive whole number: Kokkos 3.4 would end in std::stoi's uncaught
// std::invalid_argument (signal 6, no word of which flag).
bool positive_count(const std::string& v) {
  if (v.empty() || v.size() > 6) return false;
  for (char c : v)
    if (c < '0' || c > '9') return false;
  return std::stoi(v) > 0;
}

// Rewrites both thread-flag spellings (with '=' or a separate value) to the
// one this Kokkos understands, without a deprecation warning.  A bad value
// sets \p error to the message for the user.
std::vector<std::string> rewrite_kokkos_flags(int argc, char** argv, std::string& error) {
#if KOKKOS_VERSION >= 40000
  const std::string want = "--kokkos-num-threads", other = "--kokkos-threads";
#else
  const std::string want = "--kokkos-threads", other = "--kokkos-num-threads";
#endif
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    for (const std::string& flag : {want, other}) {
      std::string given, value;
      if (a == flag) {
        given = flag;
        if (i + 1 < argc) value = argv[++i];
      } else if (a.rfind(flag + "=", 0) == 0) {
        given = a;
        value = a.substr(flag.size() + 1);
      } else {
        continue;
      }
      if (!positive_count(value) && error.empty()) {
        error = (a == flag ? flag + " '" + value + "'" : given) +
                ": the Kokkos threads per rank must be a whole number from 1 to 999999 "
                "(--kokkos-num-threads=N or --kokkos-threads=N)";
      }
      a = want + "=" + value;
    }
    out.push_back(a);
  }
  return out;
}

// The one answer to an MPI call's error code, so that no call site checks
// its own: every communicator of the run descends from MPI_COMM_WORLD and
// inherits this handler, which ends the job as any other failure does
// (one line naming the rank and MPI's own message, exit 1 on every rank).
void mpi_failed(MPI_Comm*, int* code, ...) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(*code, text, &len);
  abort_all("MPI: " + std::string(text, static_cast<std::size_t>(len)));
}

// The level asked of MPI: MPI_THREAD_MULTIPLE, unless HT_MPI_THREAD_LEVEL
// asks less (some MPIs take slower paths under MULTIPLE).  A bad value sets
// \p error to the message for the user.
int asked_thread_level(std::string& error) {
  const char* v = std::getenv("HT_MPI_THREAD_LEVEL");
  const std::string s = v ? v : "";
  if (s.empty() || s == "multiple") return MPI_THREAD_MULTIPLE;
  if (s == "serialized") return MPI_THREAD_SERIALIZED;
  if (s == "funneled") return MPI_THREAD_FUNNELED;
  if (s == "single") return MPI_THREAD_SINGLE;
  error = "HT_MPI_THREAD_LEVEL = '" + s + "': single, funneled, serialized or multiple";
  return MPI_THREAD_MULTIPLE;
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
  std::string bad_level;
  asked_level_ = asked_thread_level(bad_level);
  MPI_Init_thread(&argc, &argv, asked_level_, &thread_level_);
  MPI_Errhandler on_error;
  MPI_Comm_create_errhandler(mpi_failed, &on_error);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, on_error);
  MPI_Errhandler_free(&on_error);  // the communicator keeps its reference
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);

  std::string bad_flag = bad_level;
  args_ = rewrite_kokkos_flags(argc, argv, bad_flag);
  if (!bad_flag.empty()) {
    // A usage error every rank sees alike: said once, exit 2 everywhere.
    if (rank_ == 0)
      std::fprintf(stderr, "%s: error: %s\n", program_name().c_str(), bad_flag.c_str());
    MPI_Finalize();
    std::exit(2);
  }
  // Kokkos prints its help on every rank that sees --kokkos-help: once is enough.
  if (rank_ != 0)
    args_.erase(std::remove(args_.begin(), args_.end(), "--kokkos-help"), args_.end());
  for (auto& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
  argc = static_cast<int>(args_.size());
  argv = argv_.data();
  // Kokkos 4 loads Kokkos Tools from KOKKOS_TOOLS_LIBS; Kokkos 3 reads
  // KOKKOS_PROFILE_LIBRARY: one variable for users on either.
  if (KOKKOS_VERSION < 40000 && std::getenv("KOKKOS_TOOLS_LIBS") &&
      !std::getenv("KOKKOS_PROFILE_LIBRARY"))
    setenv("KOKKOS_PROFILE_LIBRARY", std::getenv("KOKKOS_TOOLS_LIBS"), 0);
  // libgomp read its environment when it loaded: with OMP_PROC_BIND unset it
  // binds threads only if OMP_PLACES is given.  Naming that choice in the
  // variable Kokkos reads keeps it from warning once per rank (even on
  // --help) about a default the user did not contradict.  Any binding the
  // user asked for (LLVM's libomp reads its environment later) is left alone.
  if (!std::getenv("OMP_PROC_BIND") && !std::getenv("KMP_AFFINITY") &&
      !std::getenv("GOMP_CPU_AFFINITY"))
    setenv("OMP_PROC_BIND", std::getenv("OMP_PLACES") ? "true" : "false", 0);
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
  if (thread_level_ >= level) return;
  if (asked_level_ < level) {
    throw UsageError(who + " needs " + thread_level_name(level) +
                     " but HT_MPI_THREAD_LEVEL asked " + "MPI for " +
                     thread_level_name(asked_level_) + " only");
  }
  throw UsageError(who + " needs " + thread_level_name(level) + " but this MPI granted only " +
                   thread_level_name(thread_level_) + "; use an MPI built with thread support");
}

std::string Environment::kokkos_description() {
  const int v = KOKKOS_VERSION;
  return "Kokkos " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100) + " (" + Kokkos::DefaultHostExecutionSpace::name() + ")";
}

}  // namespace ht
