#include "runtime/HT_Environment.hpp"

#include <sched.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/HT_Error.hpp"
#include "runtime/HT_HugePages.hpp"
#include "runtime/HT_OpenBlas.hpp"
#include "runtime/HT_Settings.hpp"

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
// sets \p error to the message for the user; \p asked gets the count given
// (0: none).
std::vector<std::string> rewrite_kokkos_flags(int argc, char** argv, std::string& error,
                                              int& asked) {
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
      if (positive_count(value)) asked = std::stoi(value);
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
  const std::string s = setting("HT_MPI_THREAD_LEVEL");  // this rank's: before MPI_Init
  if (s.empty() || s == "multiple") return MPI_THREAD_MULTIPLE;
  if (s == "serialized") return MPI_THREAD_SERIALIZED;
  if (s == "funneled") return MPI_THREAD_FUNNELED;
  if (s == "single") return MPI_THREAD_SINGLE;
  error = "HT_MPI_THREAD_LEVEL = '" + s + "': single, funneled, serialized or multiple";
  return MPI_THREAD_MULTIPLE;
}

// The thread count the environment asks: Kokkos reads KOKKOS_NUM_THREADS,
// OpenMP OMP_NUM_THREADS (its first entry: it may list one per nesting
// level); 0 when neither is set.
int environment_threads(const char*& variable) {
  for (const char* name : {"KOKKOS_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* v = std::getenv(name);
    if (!v || !*v) continue;
    const long n = std::strtol(v, nullptr, 10);
    if (n > 0 && n < INT_MAX) {
      variable = name;
      return static_cast<int>(n);
    }
  }
  return 0;
}

// A rank's share of the cores: its affinity mask divided among the ranks of
// its node whose masks overlap it.  With `--bind-to none` every rank of a node
// sees all its cores: OpenMP's default, the whole mask, would put ranks x
// cores threads on them.
struct CoreShare {
  int cores = 1;       // in this rank's affinity mask
  int sharers = 1;     // ranks of this node whose masks overlap it, itself too
  int node_ranks = 1;  // ranks of this node
  int share() const { return std::max(1, cores / sharers); }
};

CoreShare core_share() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof(mine), &mine) != 0) CPU_SET(0, &mine);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  CoreShare s;
  MPI_Comm_size(node, &s.node_ranks);
  std::vector<cpu_set_t> masks(static_cast<std::size_t>(s.node_ranks));
  MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, masks.data(), sizeof(mine), MPI_BYTE, node);
  MPI_Comm_free(&node);
  s.cores = std::max(1, CPU_COUNT(&mine));
  s.sharers = 0;
  for (cpu_set_t& m : masks) {
    cpu_set_t both;
    CPU_AND(&both, &m, &mine);
    s.sharers += CPU_COUNT(&both) > 0;
  }
  s.sharers = std::max(1, s.sharers);
  return s;
}

// The one warning, from rank 0, when some rank runs more threads than its
// share (or its node more ranks than cores): the first such rank's figures.
// Kokkos' own warning (once per rank) is then switched off.  Collective.
bool warn_oversubscribed(const CoreShare& s, int threads, const std::string& source, int rank) {
  const bool over = threads > s.share() || s.sharers > s.cores;
  int first = INT_MAX;
  const int me = over ? rank : INT_MAX;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX) return false;
  int f[4] = {threads, s.cores, s.sharers, s.share()};
  MPI_Bcast(f, 4, MPI_INT, first, MPI_COMM_WORLD);
  if (rank == 0) {
    const int t = f[0], cores = f[1], sharers = f[2], share = f[3];
    std::string why;
    if (sharers > cores) {
      why = std::to_string(sharers) + " ranks share " + std::to_string(cores) + " core" +
            (cores == 1 ? "" : "s") + " (rank " + std::to_string(first) +
            "'s affinity mask): oversubscribed at any thread count; run fewer ranks a node";
    } else {
      why = std::to_string(t) + " threads a rank (" + source + ") where rank " +
            std::to_string(first) + "'s share is " + std::to_string(share) + " (" +
            std::to_string(cores) + " core" + (cores == 1 ? "" : "s") + " in its affinity mask" +
            (sharers > 1 ? ", shared by " + std::to_string(sharers) + " ranks" : "") +
            "): oversubscribed";
      why += cores < t ? "; bind each rank to " + std::to_string(t) +
                             " cores (mpirun --map-by slot:PE=" + std::to_string(t) +
                             ", srun --cpus-per-task=" + std::to_string(t) +
                             ") or leave the thread count to the default"
                       : "; leave the thread count to the default to take the share";
    }
    std::fprintf(stderr, "%s: warning: %s\n", program_name().c_str(), why.c_str());
  }
  return true;
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

  // Settings read by every rank alike, bad flags: one message, exit 2 on
  // every rank (the first rank that found one), before any rank goes on.
  const std::string mismatch = agree_settings(MPI_COMM_WORLD);
  std::string bad_flag = bad_level;
  int asked_threads = 0;
  args_ = rewrite_kokkos_flags(argc, argv, bad_flag, asked_threads);
  read_huge_pages_setting(bad_flag);
  const std::string failure = first_failure(mismatch.empty() ? bad_flag : mismatch, MPI_COMM_WORLD);
  if (!failure.empty()) {
    if (rank_ == 0)
      std::fprintf(stderr, "%s: error: %s\n", program_name().c_str(), failure.c_str());
    MPI_Finalize();
    std::exit(2);
  }
  // Kokkos prints its help on every rank that sees --kokkos-help: once is enough.
  if (rank_ != 0)
    args_.erase(std::remove(args_.begin(), args_.end(), "--kokkos-help"), args_.end());
  // Threads: the flag, else the OpenMP/Kokkos environment, else the share.
  const CoreShare share = core_share();
  cores_ = share.cores;
  node_ranks_ = share.node_ranks;
  sharers_ = share.sharers;
  thread_share_ = share.share();
  const char* variable = nullptr;
  const int env_threads = environment_threads(variable);
  int threads = asked_threads;
  if (asked_threads > 0) {
    threads_source_ = "--kokkos-num-threads";
  } else if (env_threads > 0) {
    threads = env_threads;
    threads_source_ = variable;
  } else {
    threads = thread_share_;
    threads_source_ = "share";
#if KOKKOS_VERSION >= 40000
    args_.push_back("--kokkos-num-threads=" + std::to_string(threads));
#else
    args_.push_back("--kokkos-threads=" + std::to_string(threads));
#endif
  }
  // Kokkos refuses the flag when KOKKOS_DISABLE_WARNINGS says otherwise.
  if (warn_oversubscribed(share, threads, threads_source_, rank_) &&
      !std::getenv("KOKKOS_DISABLE_WARNINGS"))
    args_.push_back("--kokkos-disable-warnings");
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
  // Inside tasks OpenBLAS must not start threads of its own.
  set_blas_threads(1);
}

std::string Environment::threads_reason() const {
  if (threads_source_ != "share") return threads_source_;
  return "the share of " + std::to_string(cores_) + " core" + (cores_ == 1 ? "" : "s") +
         (sharers_ > 1 ? " among " + std::to_string(sharers_) + " ranks" : "");
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
