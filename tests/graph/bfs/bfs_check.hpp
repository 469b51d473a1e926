#pragma once
// A search's answer judged two ways: by the Graph500 validator on the 1D CSR
// and, vertex by vertex, against the serial oracle's levels (bfs_oracle.hpp).
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "assert_all.hpp"
#include "bfs_oracle.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Kronecker.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"

// Validates \p pred, the search from \p key on \p g (collective: every rank
// calls it), and checks this rank's vertices' levels against \p want, the
// oracle's levels of all vertices; a failure on any rank fails every rank.
inline void check_levels(const std::vector<int>& want, const ht::Csr& g, std::int64_t key,
                         const std::vector<std::int64_t>& pred) {
  const ht::Validation v = ht::validate_bfs(g, key, pred, MPI_COMM_WORLD);
  HT_ASSERT_ALL(v.ok()) << v.what;
  std::int64_t bad = -1;  // this rank's first vertex off the oracle's level
  for (std::int64_t i = 0; i < g.range.local_count() && bad < 0; ++i)
    if (v.level[i] != want[g.range.global(i)]) bad = i;
  HT_ASSERT_ALL(bad < 0) << "vertex " << g.range.global(bad) << ": level " << v.level[bad]
                         << ", the oracle's " << want[g.range.global(bad)];
}

// The same against the oracle's levels on the generator's graph; those of
// all vertices go to \p levels if given.
inline void check_levels(const ht::Kronecker& gen, const ht::Csr& g, std::int64_t key,
                         const std::vector<std::int64_t>& pred,
                         std::vector<int>* levels = nullptr) {
  const std::vector<int> want = oracle_levels(gen, key);
  ASSERT_NO_FATAL_FAILURE(check_levels(want, g, key, pred));
  if (levels) *levels = want;
}
