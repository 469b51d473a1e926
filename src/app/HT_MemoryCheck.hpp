#pragma once
/// \file HT_MemoryCheck.hpp
/// \brief The check run_app makes before a driver allocates anything large:
/// a driver's estimate of a rank's peak memory (AppSpec::memory) against the
/// rank's budget (runtime/HT_MemoryBudget.hpp).
///
/// Over the budget on any rank, every rank throws the same UsageError (exit
/// 2): the worst rank's estimate and what dominates it, its budget and the
/// limit behind it, and what would fit.  Above kWarnFraction of it, rank 0
/// warns on stderr and the run goes on.  HT_MEMORY_CHECK (rank 0's, for
/// every rank) changes that: `on` (the default), `warn` (over the budget
/// only warns) or `off` (no comparison; the estimate is still recorded as
/// run/estimated_bytes).
///
/// Example: src/app/HT_App.cpp (run_app, for an AppSpec's memory).
#include <cstdint>
#include <functional>
#include <string>

#include "runtime/HT_MemoryBudget.hpp"

namespace ht {

class Environment;

/// \brief The check above for the app \p app: \p estimate gets this rank's
/// budget in bytes and returns its estimate.  Collective over \p env's
/// ranks.  Returns this rank's estimate in bytes.
std::uint64_t check_memory(const std::string& app, const Environment& env,
                           const std::function<MemoryEstimate(std::uint64_t budget)>& estimate);

}  // namespace ht
