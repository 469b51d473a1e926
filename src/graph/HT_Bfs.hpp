#pragma once
/// \file HT_Bfs.hpp
/// \brief Graph500 kernel 2: level-synchronous top-down BFS on the
/// distributed CSR, and what every variant reports.
///
/// Variants (one file each, same contract):
///  - HT_BfsMpi.cpp: MPI only, one worker per rank (the baseline).
///
/// Contract: pred[i] is the parent of local vertex i in a BFS tree rooted at
/// the key (the key is its own parent), or -1 if unreached.  Remote
/// discoveries go to their owner through ht::Exchange.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/HT_Csr.hpp"

namespace ht {

struct BfsOptions {
  std::size_t buffer_items = 4096;  ///< coalescing buffer per destination
};

struct BfsResult {
  std::vector<std::int64_t> pred;      ///< parent per local vertex, -1 unreached
  std::vector<std::int64_t> frontier;  ///< global frontier size per level (level 0: 1)
  std::vector<std::int64_t> messages;  ///< messages this rank sent per level
  std::vector<std::int64_t> bytes;     ///< bytes this rank sent per level
};

/// The MPI-only baseline.  Collective.
BfsResult bfs_mpi(const Csr& g, std::int64_t root, const BfsOptions& opt, MPI_Comm comm);

}  // namespace ht
