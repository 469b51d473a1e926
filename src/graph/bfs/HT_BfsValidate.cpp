#include "graph/bfs/HT_BfsValidate.hpp"

#include <algorithm>
#include <cstdlib>

#include "comm/HT_CommCounts.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/impl/HT_TreeCheck.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

using namespace impl;

namespace {

// A vertex id (< 2^43: SCALE <= 42) and a level in one exchange field, so
// that an edge's remote end learns both the near end and its level.
constexpr int kLevelShift = 43;
constexpr std::int64_t kLevelBias = 8;  // levels >= kBroken - 1 become >= 0
std::int64_t pack(std::int64_t v, std::int32_t level) {
  return v | ((static_cast<std::int64_t>(level) + kLevelBias) << kLevelShift);
}
std::int64_t vertex_of(std::int64_t packed) {
  return packed & ((std::int64_t(1) << kLevelShift) - 1);
}
std::int32_t level_of(std::int64_t packed) {
  return static_cast<std::int32_t>((packed >> kLevelShift) - kLevelBias);
}

// Checks 4 and 5 on edge {v, w}, its ends at levels lv and lw.
template <class Fail>
void check_edge(std::int64_t v, std::int32_t lv, std::int64_t w, std::int32_t lw,
                const Fail& fail) {
  if ((lv >= 0) != (lw >= 0) && lv != kBroken && lw != kBroken) {
    fail(Validation::reach, "check 4 (reach): edge {" + std::to_string(v) + ", " +
                                std::to_string(w) + "} has one end in the tree and one out");
  } else if (lv >= 0 && lw >= 0 && std::abs(lv - lw) > 1) {
    fail(Validation::levels, "check 5 (levels): edge {" + std::to_string(v) + ", " +
                                 std::to_string(w) + "} joins levels " + std::to_string(lv) +
                                 " and " + std::to_string(lw));
  }
}

// Check 1, and checks 2, 3 and 4 on each vertex of this rank;
// \p joined(i, p): whether local vertex i has an edge to p.
template <class Joined>
void check_vertices(const VertexRange& r, std::int64_t key, const std::vector<std::int64_t>& pred,
                    const std::vector<std::int32_t>& level, Validation& res, std::string& first,
                    Joined&& joined) {
  if (r.mine(key) && pred[r.local(key)] != key) {
    failure_recorder(res, first)(Validation::root, "check 1 (root): the parent of key " +
                                                       std::to_string(key) + " is " +
                                                       std::to_string(pred[r.local(key)]));
  }
  const std::int64_t n = r.local_count();
  res.level.assign(n, kUnreached);
  check_rows("ht::validate_bfs::vertices", n, res, first, [&](std::int64_t i, const auto& fail) {
    const std::int64_t v = r.global(i);
    const std::int32_t lv = level[i];
    res.level[i] = lv < 0 ? kUnreached : lv;
    const Reach state = bfs_reach(pred[i]);
    if (state == Reach::invalid) {
      fail(Validation::reach, "check 4 (reach): vertex " + std::to_string(v) + " has parent " +
                                  std::to_string(pred[i]) +
                                  " (a parent is a vertex id, or -1 when unreached)");
      return;
    }
    if (state == Reach::reached && lv < 0) {
      fail(Validation::tree, "check 2 (tree): parents from vertex " + std::to_string(v) +
                                 " do not lead to the key (cycle, other root or unreached parent)");
      return;
    }
    if (lv <= 0) return;  // unreached, or the key
    if (!joined(i, pred[i])) {
      fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) + " has parent " +
                                      std::to_string(pred[i]) + " but no edge to it");
    }
  });
}

}  // namespace

Validation validate_bfs(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                        MPI_Comm comm) {
  const VertexRange& r = g.range;
  TreeCheck check(g, key, pred, comm);
  Exchange& ex = check.ex;
  int& phase = check.phase;
  const std::vector<std::int32_t>& level = check.level;

  Validation res;
  std::string first;  // the first failure's message, this rank
  check_vertices(r, key, pred, level, res, first, [&](std::int64_t i, std::int64_t p) {
    for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k)
      if (g.targets[k] == p) return true;
    return false;
  });
  const std::int64_t n = r.local_count();
  std::int32_t deepest = 0;
  for (const std::int32_t lv : level) deepest = std::max(deepest, lv);

  // Checks 4 and 5 on each edge {v, w} once, where v < w: by this rank when
  // it owns both ends (every worker, rows in blocks), else by the owner of w,
  // which is sent v and its level.
  // Rows split into local and remote targets (Csr::split_rows) need no owner
  // test per edge; a row assembled by hand is tested edge by edge.
  const bool split = g.split_rows();
  const auto local_end = [&](std::int64_t i) { return split ? g.local_end(i) : g.offsets[i + 1]; };
  check_rows("ht::validate_bfs::edges", n, res, first, [&](std::int64_t i, const auto& fail) {
    const std::int64_t v = r.global(i);
    for (std::int64_t k = g.offsets[i], end = local_end(i); k < end; ++k) {
      const std::int64_t w = g.targets[k];
      if (w <= v || (!split && !r.mine(w))) continue;  // w's row covers it, or it is remote
      check_edge(v, level[i], w, level[r.local(w)], fail);
    }
  });
  const auto fail = failure_recorder(res, first);
  const Exchange::Handler far_end = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t w = it[j].vertex, v = vertex_of(it[j].value);
      check_edge(v, level_of(it[j].value), w, level[r.local(w)], fail);
    }
  };
  {
    Step step(ex, phase, r, far_end);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t v = r.global(i);
      for (std::int64_t k = split ? g.local_end(i) : g.offsets[i]; k < g.offsets[i + 1]; ++k) {
        const std::int64_t w = g.targets[k];
        if (w <= v || r.mine(w)) continue;
        step.send(r.owner(w), {w, pack(v, level[i])});
      }
    }
    step.finish();
  }

  agree(res, first, deepest, r, comm);
  return res;
}

Validation validate_bfs(const Csr2D& b, const Grid2D& grid, std::int64_t key,
                        const std::vector<std::int64_t>& pred, MPI_Comm comm) {
  const VertexRange& r = b.range;
  Csr frame;  // tree_levels reads a graph's range only
  frame.range = r;
  TreeCheck check(frame, key, pred, comm);
  const std::vector<std::int32_t>& level = check.level;
  const std::int64_t n = r.local_count();

  // The row block's pieces in turn, each with its levels and parents from
  // its owner, a rank of this grid row.  Check 3 by the rows: the holder of
  // row v whose column block has v's parent looks for it in the row, and the
  // piece's owner learns which of its vertices were joined (a bitwise or
  // along the row).  Checks 4 and 5 by the entries: each (v, u) with v < u
  // goes to u's owner with v and v's level.  Broadcast and reduction are
  // collectives, so they come between the exchange's steps, never inside
  // one (where a rank blocked in them would not drain what its peers send).
  Validation edges;
  std::string edges_first;
  const auto fail = failure_recorder(edges, edges_first);
  const Exchange::Handler near_end = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t u = it[j].vertex;
      check_edge(vertex_of(it[j].value), level_of(it[j].value), u, level[r.local(u)], fail);
    }
  };
  const std::int64_t piece = grid.spare() ? 0 : r.per_rank;  // a spare rank: no rows
  Bitmap joined(n), found(piece);
  std::vector<std::int32_t> piece_level(static_cast<std::size_t>(piece));
  std::vector<std::int64_t> piece_pred(piece_level.size());
  const BlockOffsets& rows = b.row_offsets;
  for (int t = 0; t < b.shape.cols; ++t) {
    if (grid.spare()) {  // the exchange's step, with nothing to send
      Step(check.ex, check.phase, r, near_end).finish();
      continue;
    }
    const VertexRange owner = r.of_rank(b.row * b.shape.cols + t);
    const std::int64_t m = owner.local_count();
    if (t == b.col) {
      std::copy(level.begin(), level.end(), piece_level.begin());
      std::copy(pred.begin(), pred.end(), piece_pred.begin());
    }
    const int count = mpi_int(m, "a piece's vertices");
    mpi::Bcast(piece_level.data(), count, MPI_INT32_T, t, grid.row_comm());
    mpi::Bcast(piece_pred.data(), count, MPI_INT64_T, t, grid.row_comm());
    found.clear();
    for (std::int64_t o = 0; o < m; ++o) {
      const std::int64_t p = piece_pred[o];
      if (p < 0 || p >= r.n_global || r.owner(p) % b.shape.cols != b.col) continue;
      const BlockOffsets::Range e = rows[t * b.piece_bits + o];
      const auto c = static_cast<BlockIndex>(b.col_index(p));
      for (std::int64_t k = e.begin; k < e.end; ++k)
        if (b.row_targets[k] == c) found.set(o);
    }
    mpi::Reduce(found.data(), joined.data(),
                mpi_int(Bitmap::words_for(m), "a piece's bitmap words"), MPI_UINT64_T, MPI_BOR, t,
                grid.row_comm());
    Step step(check.ex, check.phase, r, near_end);
    for (std::int64_t o = 0; o < m; ++o) {
      const BlockOffsets::Range e = rows[t * b.piece_bits + o];
      const std::int64_t v = owner.global(o);
      for (std::int64_t k = e.begin; k < e.end; ++k) {
        const std::int64_t u = b.col_vertex(b.row_targets[k]);
        if (v < u) step.send(r.owner(u), {u, pack(v, piece_level[o])});
      }
    }
    step.finish();
  }

  Validation res;
  std::string first;  // the first failure's message, this rank
  check_vertices(r, key, pred, level, res, first,
                 [&](std::int64_t i, std::int64_t) { return joined.test(i); });
  if (edges.failed && res.failed == 0) first = edges_first;
  res.failed |= edges.failed;
  std::int32_t deepest = 0;
  for (const std::int32_t lv : level) deepest = std::max(deepest, lv);
  agree(res, first, deepest, r, comm);
  return res;
}

}  // namespace ht
