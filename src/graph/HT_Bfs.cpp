#include "graph/HT_Bfs.hpp"

#include "comm/HT_Wait.hpp"
#include "graph/HT_BfsVariant.hpp"
#include "graph/impl/HT_BfsVariants.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

std::unique_ptr<Bfs> make_bfs(const std::string& variant, const Csr& g, const BfsOptions& opt,
                              TaskRuntime& rt, MPI_Comm comm) {
  const BfsVariant& v = bfs_variant(variant);
  return v.make(g, v.resolve(opt, Kokkos::OpenMP().concurrency()), rt, comm);
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

}  // namespace ht
