#include "graph/HT_BfsVariant.hpp"

#include <algorithm>

#include "graph/impl/HT_BfsVariants.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace {
// A bound on the variants' task functors (a few pointers each; each variant
// static_asserts that its functors fit).
struct LargestTask {
  using value_type = void;
  char bytes[impl::kLargestTaskBytes];
  void operator()(TaskMember&) const {}
};
}  // namespace

const std::vector<BfsVariant>& bfs_variants() {
  // MPI from inside tasks (the receive task, or whichever chunk task finds
  // the MPI role free) needs MPI_THREAD_SERIALIZED; the others call MPI from
  // the host thread only.
  static const std::vector<BfsVariant> table{
      {"mpi", "MPI only, one worker per rank (the study's baseline)", BfsWork::single,
       MPI_THREAD_FUNNELED, false, false, impl::make_bfs_mpi},
      {"locking",
       "NT-1 processing tasks + 1 receive task that polls MPI, one lock around "
       "visited/pred/newq (the study's first variant)",
       BfsWork::tasks_and_io, MPI_THREAD_SERIALIZED, true, false, impl::make_bfs_locking},
      {"nonlocking",
       "NT tasks with task-local visited/pred/newq, merged after all have finished "
       "(the study's second variant)",
       BfsWork::tasks, MPI_THREAD_FUNNELED, false, true, impl::make_bfs_nonlocking},
      {"incremental", "chunk tasks with task-local finds, each task's merged as soon as it is done",
       BfsWork::chunks, MPI_THREAD_SERIALIZED, false, true, impl::make_bfs_incremental},
      {"atomic", "chunk tasks claiming each vertex with one atomic operation on its visited bit",
       BfsWork::chunks, MPI_THREAD_SERIALIZED, false, true, impl::make_bfs_atomic},
      {"hybrid",
       "direction-optimizing: atomic's top-down levels, and bottom-up levels against a frontier "
       "bitmap gathered on every rank (Beamer et al., SC 2012 / IPDPS-W 2013); see "
       "Graph500/direction, alpha, beta",
       BfsWork::chunks, MPI_THREAD_SERIALIZED, false, true, impl::make_bfs_hybrid},
  };
  return table;
}

const BfsVariant& bfs_variant(const std::string& name) {
  std::string names;
  for (const BfsVariant& v : bfs_variants()) {
    if (name == v.name) return v;
    names += std::string(names.empty() ? "" : ", ") + v.name;
  }
  throw UsageError("Graph500/variant = '" + name + "': accepted are " + names);
}

std::string bfs_variants_doc() {
  std::string doc;
  for (const BfsVariant& v : bfs_variants())
    doc += std::string(doc.empty() ? "" : "; ") + v.name + ": " + v.doc;
  return doc;
}

BfsOptions BfsVariant::resolve(BfsOptions opt, int threads) const {
  switch (work) {
    case BfsWork::single:
    case BfsWork::chunks:
      break;
    case BfsWork::tasks:
      if (opt.tasks == 0) opt.tasks = std::max(1, threads);
      break;
    case BfsWork::tasks_and_io:
      // Every thread processes, plus the receive task (which mostly sleeps).
      if (opt.tasks == 0) opt.tasks = std::max(2, threads + 1);
      if (opt.tasks < 2) {
        throw UsageError("Graph500/tasks = " + std::to_string(opt.tasks) + ": the " + name +
                         " variant needs at least 2 tasks (one receives), or 0 for the Kokkos "
                         "threads + 1");
      }
      break;
  }
  return opt;
}

int BfsVariant::tasks_per_rank(const BfsOptions& opt) const {
  switch (work) {
    case BfsWork::single:
      return 1;
    case BfsWork::chunks:
      return opt.chunks;
    default:
      return opt.tasks;
  }
}

std::size_t BfsVariant::pool_bytes(const BfsOptions& opt) const {
  if (work == BfsWork::single) return 0;
  // Per level: the tasks, a merge task after each, a receive task, a when_all.
  const std::size_t live = static_cast<std::size_t>(tasks_per_rank(opt));
  return TaskRuntime::pool_bytes_for<LargestTask>(2 * live + 2);
}

}  // namespace ht
