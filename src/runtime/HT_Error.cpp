#include "runtime/HT_Error.hpp"

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "runtime/HT_MemoryBudget.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Phase.hpp"
#include "runtime/HT_Settings.hpp"

namespace ht {

namespace {
std::string& name_storage() {
  static std::string name = "hybridtasks";
  return name;
}

// The size of the last operator new that found no memory (any thread).
std::atomic<std::size_t> failed_new_bytes{0};

}  // namespace

void impl::count_does_not_fit(const char* what, const std::string& value, unsigned long long most,
                              const char* kind) {
  throw Error(std::string(what) + " = " + value + " does not fit " + kind + ": 0 to " +
              std::to_string(most));
}

void throw_if_any(const std::string& failure, bool usage, MPI_Comm comm,
                  const std::string& some_only) {
  const std::string msg = first_failure(failure, comm, !some_only.empty(), some_only, &usage);
  if (msg.empty()) return;
  if (usage) throw UsageError(msg);
  throw Error(msg);
}

void impl::test_fault(const char* phase) {
  // "<kind>@<phase>", read once; most runs have none.
  static const std::string fault = [] {
    const char* v = std::getenv("HT_TEST_FAULT");
    return std::string(v ? v : "");
  }();
  if (fault.empty()) return;
  const std::size_t at = fault.find('@');
  if (at == std::string::npos || fault.compare(at + 1, std::string::npos, phase) != 0) return;
  if (fault.compare(0, at, "kill") == 0) std::raise(SIGKILL);
  phase_trail.leave(phase, true);
  throw std::bad_alloc();
}

std::string phase_now() {
  const impl::PhaseTrail& t = impl::phase_trail;
  const char* inner = t.left_inner;
  const char* outer = t.left_outer;
  if (t.depth > 0) {
    const int top = t.depth < impl::PhaseTrail::kDepth ? t.depth : impl::PhaseTrail::kDepth;
    inner = t.open[top - 1];
    outer = t.open[0];
  }
  if (!inner) return "";
  std::string s = inner;
  if (outer && std::string(outer) != s) s += " (in " + std::string(outer) + ")";
  return s;
}

namespace {
// The words of out_of_memory: \p asked bytes (0: not known) for \p what ("": not known).
std::string out_of_memory_words(std::size_t asked, const std::string& what) {
  const std::string where = phase_now();
  const double resident = static_cast<double>(resident_bytes());
  std::string s = "out of memory";
  if (!where.empty()) s += " in " + where;
  if (asked > 0) s += ": asked " + bytes_text(static_cast<double>(asked)) + " more";
  if (!what.empty()) s += (asked > 0 ? " for " : ": for ") + what;
  if (resident > 0)
    s += (asked > 0 || !what.empty() ? " with " : ": with ") + bytes_text(resident) + " resident";
  return s + "; a smaller share per rank may fit: more ranks, or a smaller problem";
}

// Kokkos (3.4 to 4.x) turns its allocation failure into a std::runtime_error
// whose text opens so, then names the view's label and the size ("Allocation
// of size 8.5 G failed").
constexpr const char* kKokkosFailure = "Kokkos failed to allocate memory for label \"";
}  // namespace

std::string out_of_memory(const std::bad_alloc& e) {
  std::size_t asked = 0;
  if (const auto* k = dynamic_cast<const Kokkos::Experimental::RawMemoryAllocationFailure*>(&e))
    asked = k->attempted_size();
  else
    asked = failed_new_bytes.exchange(0);
  return out_of_memory_words(asked, "");
}

std::string error_words(const std::exception& e) {
  if (const auto* b = dynamic_cast<const std::bad_alloc*>(&e)) return out_of_memory(*b);
  const std::string what = e.what();
  if (what.rfind("Kokkos encountered an allocation failure", 0) == 0)
    return out_of_memory_words(0, "");
  if (what.rfind(kKokkosFailure, 0) != 0) return what;
  const std::size_t from = std::string(kKokkosFailure).size();
  const std::string label = what.substr(from, what.find('"', from) - from);
  double asked = 0;
  const std::size_t size_at = what.find("Allocation of size ");
  if (size_at != std::string::npos) {
    const char* p = what.c_str() + size_at + 19;
    char* end = nullptr;
    asked = std::strtod(p, &end);
    const char unit = end && *end == ' ' ? end[1] : 'B';
    asked *= unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0;
  }
  return out_of_memory_words(static_cast<std::size_t>(asked), "'" + label + "'");
}

void set_program_name(const std::string& name) { name_storage() = name; }
const std::string& program_name() { return name_storage(); }

void abort_all(const std::string& what, int code) {
  int initialized = 0, finalized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "%s: rank %d: error: %s\n", program_name().c_str(), rank, what.c_str());
  std::fflush(stderr);
  // Open MPI's mpirun ends the whole job when a rank exits non-zero, in its
  // own plain words; its MPI_Abort can garble them (Open MPI 4.1 prints
  // "ORTE_ERROR_LOG: Data unpack would read past end of buffer" when the
  // aborting rank's notice is cut short).  Other launchers need MPI_Abort.
  const bool orte = std::getenv("OMPI_MCA_orte_hnp_uri") != nullptr;
  if (initialized && !finalized && !orte) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace ht

// The throwing operator new, as the standard library's (malloc, the new
// handler, std::bad_alloc), but recording the size it could not get, which
// std::bad_alloc does not carry.  Only this one is replaced: new[] and the
// nothrow forms call it, the aligned forms keep their own allocator and
// deletes, and the two plain deletes below free what malloc gave.  Not under
// AddressSanitizer, which brings its own.
#if !defined(__SANITIZE_ADDRESS__)
void* operator new(std::size_t n) {
  if (n == 0) n = 1;
  for (;;) {
    if (void* p = std::malloc(n)) return p;
    const std::new_handler handler = std::get_new_handler();
    if (!handler) {
      ht::failed_new_bytes.store(n);
      throw std::bad_alloc();
    }
    handler();
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif
