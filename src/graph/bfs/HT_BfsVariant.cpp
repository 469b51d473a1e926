#include "graph/bfs/HT_BfsVariant.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>

#include "graph/impl/HT_ChunkTask.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace impl {
// The rows, each defined beside its kernel.
#define HT_BFS_VARIANT(name) extern const BfsVariant bfs_##name;
#include "graph/bfs/HT_BfsVariant.def"
#undef HT_BFS_VARIANT
}  // namespace impl

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
  static const std::vector<BfsVariant> table{
#define HT_BFS_VARIANT(name) impl::bfs_##name,
#include "graph/bfs/HT_BfsVariant.def"
#undef HT_BFS_VARIANT
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

std::string bfs_variant_names(bool (*keep)(const BfsVariant&)) {
  std::string names;
  for (const BfsVariant& v : bfs_variants())
    if (keep(v)) names += std::string(names.empty() ? "" : ", ") + v.name;
  return names;
}

std::string bfs_variants_list() {
  static constexpr const char* kWork[] = {"single", "tasks", "tasks_and_io", "chunks"};
  static constexpr const char* kReports[] = {"time_only", "lock_time", "redundancy"};
  std::string list;
  for (const BfsVariant& v : bfs_variants()) {
    list += std::string(v.name) + " " + kWork[static_cast<int>(v.work)] + " " +
            kReports[static_cast<int>(v.reports)] + " " + std::to_string(v.min_tasks());
    if (v.visits_once) list += " visits_once";
    if (v.bottom_up) list += " bottom_up";
    if (v.make_2d) list += " partition_2d";
    list += "\n";
  }
  return list;
}

std::unique_ptr<Bfs> make_bfs(const BfsVariant& v, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm) {
  return v.make(g, v.resolve(opt, Kokkos::OpenMP().concurrency()), rt, comm);
}

std::unique_ptr<Bfs> make_bfs(const std::string& variant, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm) {
  return make_bfs(bfs_variant(variant), g, opt, rt, comm);
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
      if (opt.tasks == 0) opt.tasks = std::max(min_tasks(), threads + 1);
      if (opt.tasks < min_tasks()) {
        throw UsageError("Graph500/tasks = " + std::to_string(opt.tasks) + ": the " + name +
                         " variant needs at least " + std::to_string(min_tasks()) +
                         " tasks (one receives), or 0 for the Kokkos threads + 1");
      }
      break;
  }
  return opt;
}

int BfsVariant::min_tasks() const { return work == BfsWork::tasks_and_io ? 2 : 1; }

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
  // Per level: the tasks, a merge task after each, and the receive task.
  const std::size_t live = static_cast<std::size_t>(tasks_per_rank(opt));
  return TaskRuntime::pool_bytes_for<LargestTask>(2 * live + 1);
}

}  // namespace ht
