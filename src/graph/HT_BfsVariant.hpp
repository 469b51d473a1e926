#pragma once
/// \file HT_BfsVariant.hpp
/// \brief The table of BFS variants: the one place that names them and says
/// how each splits a level into tasks, which MPI thread level it needs and
/// what it reports.  The deck's validator and --help, make_bfs() and the
/// graph500_bfs driver all read it; a new variant is one row here plus its
/// own file.
///
/// Example:
/// \code
///   const ht::BfsVariant& v = ht::bfs_variant("locking");
///   ht::BfsOptions opt = v.resolve(ht::BfsOptions{}, 2);   // opt.tasks == 3
///   ht::TaskRuntime rt(v.pool_bytes(opt), "Runtime/pool_MiB");
///   auto bfs = v.make(g, opt, rt, comm);
/// \endcode
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "graph/HT_Bfs.hpp"

namespace ht {

/// How a variant splits each level among a rank's workers.
enum class BfsWork {
  single,        ///< one worker per rank, no tasks (Graph500/tasks, chunks unused)
  tasks,         ///< Graph500/tasks tasks (0: one per Kokkos thread)
  tasks_and_io,  ///< Graph500/tasks tasks, one of which receives (0: threads + 1, >= 2)
  chunks,        ///< up to Graph500/chunks chunk tasks per level
};

struct BfsVariant {
  using Factory = std::unique_ptr<Bfs> (*)(const Csr&, const BfsOptions&, TaskRuntime&, MPI_Comm);

  const char* name;
  const char* doc;  ///< one line for the deck's documentation and --help
  BfsWork work;
  int mpi_thread_level;     ///< the least MPI_THREAD_* it runs with
  bool reports_lock_time;   ///< BfsResult::lock_seconds is its measure
  bool reports_redundancy;  ///< task_visits / unique_visits is its measure
  Factory factory;

  /// \p opt with its task count settled for \p threads Kokkos threads
  /// (Graph500/tasks = 0 derives it); UsageError naming the key when the
  /// variant cannot run with it.
  BfsOptions resolve(BfsOptions opt, int threads) const;
  /// Tasks a rank runs per level with resolved \p opt (1 for single).
  int tasks_per_rank(const BfsOptions& opt) const;
  /// Task pool bytes it needs with resolved \p opt (0 for single).
  std::size_t pool_bytes(const BfsOptions& opt) const;
  /// The variant on \p g; \p opt must be resolved.
  std::unique_ptr<Bfs> make(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                            MPI_Comm comm) const {
    return factory(g, opt, rt, comm);
  }
};

/// Every variant, the baseline first.
const std::vector<BfsVariant>& bfs_variants();
/// The variant named \p name; UsageError listing the names when none is.
const BfsVariant& bfs_variant(const std::string& name);
/// "name: doc" lines of every variant, for the deck's documentation.
std::string bfs_variants_doc();

}  // namespace ht
