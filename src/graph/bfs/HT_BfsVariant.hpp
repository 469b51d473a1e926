#pragma once
/// \file HT_BfsVariant.hpp
/// \brief What a BFS variant is (its name, a line of doc, how it splits a
/// level into tasks, the MPI thread level it needs, what it reports, how to
/// make one on the 1D and, where it has one, the 2D partition), and the
/// table of them.  The one list of the variants is HT_BfsVariant.def, a row
/// each; each variant's BfsVariant row is defined in its own file,
/// HT_Bfs<Name>.cpp, beside the kernel.  A new variant is that file plus one
/// row in HT_BfsVariant.def (which also makes CMake build the file and define
/// its tests).  The deck's validator and --help (every key's doc that names
/// variants: bfs_variant_names()), make_bfs() and the graph500_bfs driver read
/// the table; scripts and the results checker read `graph500_bfs --list
/// variants` (bfs_variants_list()).  tests/docs/check_claims.py checks that
/// no other file lists variants.
///
/// Layers, each using only those before it: HT_Bfs.hpp (the interface),
/// impl/ (what variants share), the variant files, this table.
///
/// Examples: src/drivers/graph500/HT_Search.cpp, tests/graph/bfs/tstBfsTasks.cpp.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "graph/bfs/HT_Bfs.hpp"

namespace ht {

class TaskRuntime;
class Grid2D;
struct Csr2D;

/// How a variant splits each level among a rank's workers.
enum class BfsWork {
  single,        ///< one worker per rank, no tasks (Graph500/tasks, chunks unused)
  tasks,         ///< Graph500/tasks tasks (0: one per Kokkos thread)
  tasks_and_io,  ///< Graph500/tasks tasks, one of which receives (0: threads + 1, >= 2)
  chunks,        ///< up to Graph500/chunks chunk tasks per level
};

/// The study's column a variant is measured by, besides time.
enum class BfsReports {
  time_only,   ///< nothing more
  lock_time,   ///< BfsResult::lock_seconds
  redundancy,  ///< BfsResult::task_visits / unique_visits
};

struct BfsVariant {
  using Make = std::unique_ptr<Bfs> (*)(const Csr&, const BfsOptions&, TaskRuntime&, MPI_Comm);
  using Make2D = std::unique_ptr<Bfs> (*)(const Csr2D&, const Grid2D&, const BfsOptions&,
                                          TaskRuntime&);

  const char* name;
  const char* doc;  ///< one line for the deck's documentation and --help
  BfsWork work;
  int mpi_thread_level;  ///< the least MPI_THREAD_* it runs with
  BfsReports reports;
  bool visits_once;          ///< no vertex is visited by two tasks: redundancy 1 by construction
  bool bottom_up;            ///< searches levels bottom-up too (Graph500/direction)
  Make make;                 ///< the variant on a graph, with resolved options
  Make2D make_2d = nullptr;  ///< its 2D kernel on a block of a grid (HT_Bfs2D.hpp), if any

  /// The fewest tasks a rank runs it with: 2 for tasks_and_io (one
  /// receives), else 1; a sweep gives it at least that many threads.
  int min_tasks() const;

  /// \p opt with its task count settled for \p threads Kokkos threads
  /// (Graph500/tasks = 0 derives it); UsageError naming the key when the
  /// variant cannot run with it.
  BfsOptions resolve(BfsOptions opt, int threads) const;
  /// Tasks a rank runs per level with resolved \p opt (1 for single).
  int tasks_per_rank(const BfsOptions& opt) const;
  /// Task pool bytes it needs with resolved \p opt (0 for single).
  std::size_t pool_bytes(const BfsOptions& opt) const;
};

/// BfsVariant::make for a variant class \p T constructed as T(g, opt, rt, comm).
template <class T>
std::unique_ptr<Bfs> make_variant(const Csr& g, const BfsOptions& opt, TaskRuntime& rt,
                                  MPI_Comm comm) {
  return std::make_unique<T>(g, opt, rt, comm);
}

/// Every variant, the baseline first.
const std::vector<BfsVariant>& bfs_variants();
/// The variant named \p name; UsageError listing the names when none is.
const BfsVariant& bfs_variant(const std::string& name);
/// "name: doc" lines of every variant, for the deck's documentation.
std::string bfs_variants_doc();
/// \brief The names of the variants \p keep holds for, in the table's order,
/// comma-separated: what a key's doc names instead of a list of its own.
std::string bfs_variant_names(bool (*keep)(const BfsVariant&));
/// \brief `graph500_bfs --list variants`: a line per variant, the baseline
/// first, of words a script selects by: its name, its BfsWork and BfsReports
/// (as spelled in the enums), its min_tasks(), then `visits_once` and
/// `bottom_up` where true and `partition_2d` where it has a make_2d.
/// Example line: `hybrid chunks redundancy 1 visits_once bottom_up partition_2d`.
std::string bfs_variants_list();

/// Variant \p v on \p g, with \p opt resolved for this rank's Kokkos threads;
/// the task variants spawn into \p rt.  UsageError for options it cannot run with.
std::unique_ptr<Bfs> make_bfs(const BfsVariant& v, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm);
/// The same, by name.
std::unique_ptr<Bfs> make_bfs(const std::string& variant, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm);

}  // namespace ht
