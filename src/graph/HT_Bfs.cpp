#include "graph/HT_Bfs.hpp"

#include <algorithm>

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

void impl::record_level(BfsResult& res, const Exchange& ex, long long next, double sync_start,
                        double sync_seconds) {
  const Exchange::Stats st = ex.stats();
  res.messages.push_back(st.messages);
  res.bytes.push_back(st.bytes);
  LevelSeconds s;
  s.communicate = st.busy;
  s.wait = st.waiting;
  s.sync = sync_seconds;
  s.expand = std::max(0.0, sync_start - ex.level_start() - st.busy - st.waiting);
  res.seconds.push_back(s);
  if (next > 0) res.frontier.push_back(next);
}

bool impl::next_level(BfsResult& res, const Exchange& ex, std::int64_t found, MPI_Comm comm) {
  const double start = steady_seconds();
  const long long next = sum_over_ranks(static_cast<long long>(found), comm);
  record_level(res, ex, next, start, steady_seconds() - start);
  return next > 0;
}

}  // namespace ht
