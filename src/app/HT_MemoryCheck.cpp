#include "app/HT_MemoryCheck.hpp"

#include <cstdio>
#include <cstdlib>

#include "comm/HT_CommCounts.hpp"
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Settings.hpp"

namespace ht {

std::uint64_t check_memory(const std::string& app, const Environment& env,
                           const std::function<MemoryEstimate(std::uint64_t budget)>& estimate) {
  const MPI_Comm comm = env.comm();
  // HT_MEMORY_CHECK is the same on every rank (HT_Settings.hpp): a bad value
  // is refused by every rank alike.
  const MemoryCheck mode = memory_check_mode(setting("HT_MEMORY_CHECK").c_str());
  const MemoryBudget budget = memory_budget(env.node_ranks(), resident_bytes());
  const MemoryEstimate e = estimate(budget.bytes);
  struct {
    double share;
    int rank;
  } mine{budget.limited() ? static_cast<double>(e.bytes) / static_cast<double>(budget.bytes) : 0,
         env.rank()},
      worst{};
  mpi::Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  if (mode == MemoryCheck::off || worst.share <= kWarnFraction) return e.bytes;

  // The worst rank's figures, in its words, for every rank.
  std::string text;
  if (env.rank() == worst.rank) {
    const std::string who = env.size() == 1 ? "the rank" : "rank " + std::to_string(env.rank());
    text = who + " needs about " + bytes_text(static_cast<double>(e.bytes)) + " (" + e.parts + ")";
    if (worst.share > 1)
      text += ", more than the " + bytes_text(static_cast<double>(budget.bytes)) + " it can have";
    else
      text += ", " + std::to_string(static_cast<int>(worst.share * 100)) + "% of the " +
              bytes_text(static_cast<double>(budget.bytes)) + " it can have";
    text += ": " + budget.source + ".";
    if (!e.fits.empty()) text += " " + e.fits + ".";
  }
  unsigned long long size = text.size();
  mpi::Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, worst.rank, comm);
  text.resize(size);
  mpi::Bcast(text.data(), mpi_int(size, "the memory check's message bytes"), MPI_CHAR, worst.rank,
             comm);
  if (worst.share > 1 && mode == MemoryCheck::on)
    throw UsageError(
        "memory: " + text +
        " HT_MEMORY_CHECK=warn runs it anyway (docs/running.md#errors-and-exit-codes)");
  if (env.rank() == 0) {
    std::fprintf(stderr, "%s: warning: memory: %s%s\n", app.c_str(), text.c_str(),
                 worst.share > 1 ? " Running anyway (HT_MEMORY_CHECK=warn)." : "");
    std::fflush(stderr);
  }
  return e.bytes;
}

}  // namespace ht
