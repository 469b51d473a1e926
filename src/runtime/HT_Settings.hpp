#pragma once
/// \file HT_Settings.hpp
/// \brief The environment variables HybridTasks reads, the same on every
/// rank.  Modules, `srun --export` and MPMD launches can give nodes different
/// environments; a setting read per rank would then split the job (one rank
/// refusing a value the others accept, or two ranks speaking different
/// exchange protocols) and leave ranks waiting in a collective.  So every
/// variable of kSettings is read once, at start (ht::Environment), on every
/// rank, and compared with rank 0's; a difference is refused on every rank,
/// naming the variable, both ranks, their nodes and both values.  Code reads
/// the agreed value with setting(), never getenv (tests/runtime/tstSettings
/// greps src/ for that).
///
/// Per-rank variables that are meant to differ stay out of the list: the
/// thread counts (KOKKOS_NUM_THREADS, OMP_NUM_THREADS) and the tests' fault
/// switches (HT_TEST_*).
///
/// Example: src/comm/HT_Exchange.cpp (HT_EXCHANGE_END).
#include <mpi.h>

#include <array>
#include <string>

namespace ht {

/// \brief Every environment variable setting() answers for.
inline constexpr std::array<const char*, 5> kSettings = {"HT_EXCHANGE_END", "HT_HUGE_PAGES",
                                                         "HT_MEMORY_CHECK", "HT_MPI_THREAD_LEVEL",
                                                         "HT_PROGRESS_SECONDS"};

/// \brief The value of \p name (one of kSettings) as every rank agreed it at
/// start ("" when unset); before agree_settings(), this rank's own.  An
/// unlisted name is a programming error (std::logic_error).
std::string setting(const char* name);

/// \brief Collective over \p comm: compares every rank's kSettings with rank
/// 0's.  Returns "" when all agree (setting() then answers rank 0's values),
/// else the message for the first rank (lowest) that differs, the same on
/// every rank.
std::string agree_settings(MPI_Comm comm);

/// \brief The lowest rank's non-empty \p failure, on every rank of \p comm
/// ("" when no rank failed); collective.  Where some ranks failed and not
/// all (a fault of theirs alone) and \p name_rank, it opens with that rank's
/// rank_and_node() and ends with \p suffix.  \p usage, if given: this
/// rank's kind of failure in, the lowest failing rank's out.  For checks
/// made before anything can throw (the Environment's start); later ones use
/// throw_if_any (HT_Error.hpp), which calls it.
std::string first_failure(const std::string& failure, MPI_Comm comm, bool name_rank = true,
                          const std::string& suffix = "", bool* usage = nullptr);

/// \brief "rank R (node N)", this rank's words for itself in a message.
std::string rank_and_node(MPI_Comm comm);

}  // namespace ht
