#include "graph/HT_Bfs.hpp"

#include <algorithm>

#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "profile/HT_Profile.hpp"
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

const std::vector<std::string>& bfs_variants() {
  static const std::vector<std::string> names{"mpi", "locking", "nonlocking", "incremental",
                                              "atomic"};
  return names;
}

std::unique_ptr<Bfs> make_bfs(const std::string& variant, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm) {
  if (variant == "mpi") return impl::make_bfs_mpi(g, opt, comm);
  if (variant == "locking") return impl::make_bfs_locking(g, opt, rt, comm);
  if (variant == "nonlocking") return impl::make_bfs_nonlocking(g, opt, rt, comm);
  if (variant == "incremental") return impl::make_bfs_incremental(g, opt, rt, comm);
  if (variant == "atomic") return impl::make_bfs_atomic(g, opt, rt, comm);
  throw UsageError("BFS variant '" + variant +
                   "': accepted are mpi, locking, nonlocking, incremental, atomic");
}

Profile& impl::profile_of(const BfsOptions& opt) {
  static Profile off(false);
  return opt.profile ? *opt.profile : off;
}

bool impl::next_level(BfsResult& res, const Exchange& ex, std::int64_t found, MPI_Comm comm) {
  res.messages.push_back(ex.stats().messages);
  res.bytes.push_back(ex.stats().bytes);
  const long long next = sum_over_ranks(static_cast<long long>(found), comm);
  if (next == 0) return false;
  res.frontier.push_back(next);
  return true;
}

std::size_t bfs_pool_bytes(const BfsOptions& opt) {
  // Per level: the tasks, a merge task after each, a receive task, a when_all.
  const std::size_t live = static_cast<std::size_t>(std::max(opt.tasks, opt.chunks));
  return TaskRuntime::pool_bytes_for<LargestTask>(2 * live + 2);
}

}  // namespace ht
