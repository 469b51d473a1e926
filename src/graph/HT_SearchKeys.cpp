#include "graph/HT_SearchKeys.hpp"

#include <algorithm>

#include "comm/HT_Wait.hpp"
#include "graph/HT_Kronecker.hpp"

namespace ht {

std::vector<std::int64_t> search_keys(const Csr& g, int count, std::uint64_t seed, MPI_Comm comm) {
  const VertexRange& r = g.range;
  const Permutation order(static_cast<std::uint64_t>(r.n_global), seed ^ 0x6b43a9b5ULL);
  std::vector<std::int64_t> keys;
  // Candidates in batches: each rank marks the ones it owns with an edge.
  constexpr int kBatch = 256;
  std::vector<int> usable(kBatch);
  for (std::int64_t at = 0; at < r.n_global && static_cast<int>(keys.size()) < count;
       at += kBatch) {
    const int n = static_cast<int>(std::min<std::int64_t>(kBatch, r.n_global - at));
    for (int k = 0; k < n; ++k) {
      const auto v = static_cast<std::int64_t>(order(static_cast<std::uint64_t>(at + k)));
      usable[k] = r.mine(v) && g.degree(r.local(v)) > 0;
    }
    all_reduce(usable.data(), n, MPI_MAX, comm);
    for (int k = 0; k < n && static_cast<int>(keys.size()) < count; ++k) {
      if (usable[k])
        keys.push_back(static_cast<std::int64_t>(order(static_cast<std::uint64_t>(at + k))));
    }
  }
  return keys;
}

}  // namespace ht
