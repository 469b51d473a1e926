#include "graph/HT_Bfs.hpp"

#include "comm/HT_Wait.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

namespace {
// A bound on the variants' task functors (a few pointers each).
struct LargestTask {
  using value_type = void;
  char bytes[64];
  void operator()(TaskMember&) const {}
};
}  // namespace

std::unique_ptr<Bfs> make_bfs(const std::string& variant, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm) {
  if (variant == "mpi") return impl::make_bfs_mpi(g, opt, comm);
  if (variant == "locking") return impl::make_bfs_locking(g, opt, rt, comm);
  if (variant == "nonlocking") return impl::make_bfs_nonlocking(g, opt, rt, comm);
  throw UsageError("BFS variant '" + variant + "': accepted are mpi, locking, nonlocking");
}

bool impl::next_level(BfsResult& res, const Exchange& ex, std::int64_t found, MPI_Comm comm) {
  res.messages.push_back(ex.stats().messages);
  res.bytes.push_back(ex.stats().bytes);
  const long long next = sum_over_ranks(static_cast<long long>(found), comm);
  if (next == 0) return false;
  res.frontier.push_back(next);
  return true;
}

std::size_t bfs_pool_bytes(int tasks) {
  // Room for tasks + 2 live tasks and their when_all.
  return TaskRuntime::pool_bytes_for<LargestTask>(static_cast<std::size_t>(tasks) + 2);
}

}  // namespace ht
