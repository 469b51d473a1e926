// Tests of the 2D partition: the blocks built from the 1D CSR on every
// R x C grid of the ranks, and on grids of fewer ranks whose others are
// spare (the grids: tests/comm/tstGrid2D.cpp): each input edge is held once
// per direction, by exactly the rank of its blocks (none by a spare rank),
// rows in the 1D row's order, and the 2D validator judging trees as the 1D
// one does.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "comm/HT_Grid2D.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_Csr2D.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/bfs/HT_BfsValidate.hpp"
#include "runtime/HT_Error.hpp"
#include "whole_answers.hpp"

namespace {

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

using Pair = std::pair<std::int64_t, std::int64_t>;

// Every rank's (vertex, neighbour) pairs, on rank 0 (sorted); empty elsewhere.
std::vector<Pair> gather_sorted(const std::vector<Pair>& mine) {
  const int size = world_size();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = static_cast<int>(2 * mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int p = 0; p < size; ++p) {
    displs[p] = total;
    total += counts[p];
  }
  std::vector<std::int64_t> flat;
  for (const Pair& e : mine) {
    flat.push_back(e.first);
    flat.push_back(e.second);
  }
  std::vector<std::int64_t> all(rank == 0 ? total : 0);
  MPI_Gatherv(flat.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  std::vector<Pair> out;
  for (std::size_t i = 0; i + 1 < all.size(); i += 2) out.emplace_back(all[i], all[i + 1]);
  std::sort(out.begin(), out.end());
  return out;
}

// The grids of \p size ranks: every R x C = size, then grids of fewer ranks,
// the others spare: auto_grid's where it leaves some, and 1 x 1.
std::vector<ht::GridShape> grids_of(int size) {
  std::vector<ht::GridShape> out;
  for (int rows = 1; rows <= size; ++rows)
    if (size % rows == 0) out.push_back({rows, size / rows});
  const ht::GridShape a = ht::auto_grid(size);
  if (a.ranks() < size) out.push_back(a);
  if (size > 1) out.push_back({1, 1});
  return out;
}

// Each grid of \p size ranks, with each round size.
std::vector<std::pair<ht::GridShape, std::int64_t>> grids_and_rounds(int size) {
  std::vector<std::pair<ht::GridShape, std::int64_t>> out;
  for (const ht::GridShape& s : grids_of(size))
    for (const std::int64_t round : {std::int64_t(1) << 22, std::int64_t(7)})
      out.emplace_back(s, round);
  return out;
}

// \p gen's graph, its vertices owned by the first \p owners ranks (a grid's).
ht::Csr csr_of(const ht::Kronecker& gen, int owners) {
  const auto [first, last] = ht::edge_slice(gen.edge_count(), MPI_COMM_WORLD);
  return ht::build_csr(gen.edges(first, last), gen.vertex_count(), MPI_COMM_WORLD,
                       std::int64_t(1) << 22, ht::TargetBits::automatic, owners);
}

class Csr2D : public ::testing::TestWithParam<int> {};  // SCALE

TEST_P(Csr2D, EveryEdgeIsHeldOnceByTheRankOfItsBlocks) {
  const int size = world_size();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ht::Kronecker gen{GetParam(), 8, 0.57, 0.19, 0.19, 3};
  // What the blocks must hold between them: each edge both ways, no self-loops.
  std::vector<Pair> want;
  if (rank == 0) {
    for (const ht::Edge& e : gen.edges(0, gen.edge_count())) {
      if (e.u == e.v) continue;
      want.emplace_back(e.u, e.v);
      want.emplace_back(e.v, e.u);
    }
    std::sort(want.begin(), want.end());
  }
  // Grids of every shape; the entries in one round, and in rounds of 7 (the
  // ranks of a grid row then need different numbers of rounds).
  for (const auto& [shape, round] : grids_and_rounds(size)) {
    SCOPED_TRACE(shape.name() + " on " + std::to_string(size) + ", rounds of " +
                 std::to_string(round));
    const ht::Csr g = csr_of(gen, shape.ranks());
    ht::Grid2D grid(MPI_COMM_WORLD, shape);
    const ht::Csr2D b = ht::build_csr_2d(g, grid, round);
    // A failed ASSERT leaves this block's checks only; gather_sorted below
    // is collective, so it runs after them on every rank.
    std::vector<Pair> by_row;
    [&] {
      if (grid.spare()) {  // no vertex, no block
        ASSERT_EQ(g.range.local_count(), 0);
        ASSERT_EQ(b.entries(), 0);
        ASSERT_EQ(b.row_offsets.nonempty_slots(), 0);
        ASSERT_TRUE(b.degree.empty());
        return;
      }
      const ht::VertexRange& r = b.range;
      const int cols = grid.cols();
      ASSERT_EQ(b.row_offsets.slots(), b.row_slots());
      // Offsets only for rows with entries: none N-sized.
      ASSERT_LE(b.row_offsets.nonempty_slots(), b.entries());
      ASSERT_EQ(b.piece_bits % 64, 0);
      ASSERT_GE(b.piece_bits, r.per_rank);
      std::int64_t listed = 0;
      for (std::int64_t i = 0; i < b.row_slots(); ++i) {
        const std::int64_t v = b.row_vertex(i);
        const ht::BlockOffsets::Range e = b.row_offsets[i];
        ASSERT_EQ(b.row_offsets.nonempty().test(i), e.end > e.begin) << "row " << i;
        if (e.end > e.begin) {
          ASSERT_EQ(e.begin, listed) << "rows' lists tile the targets";
        }
        listed += e.end - e.begin;
        for (std::int64_t k = e.begin; k < e.end; ++k) {
          const std::int64_t u = b.col_vertex(b.row_targets[k]);
          ASSERT_TRUE(v < r.n_global && u < r.n_global) << v << " " << u;
          ASSERT_EQ(r.owner(v) / cols, grid.row()) << "vertex " << v << " is not in the row block";
          ASSERT_EQ(r.owner(u) % cols, grid.col())
              << "vertex " << u << " is not in the column block";
          ASSERT_EQ(b.row_index(v), i);
          ASSERT_EQ(b.col_index(u), static_cast<std::int64_t>(b.row_targets[k]));
          by_row.emplace_back(v, u);
        }
      }
      ASSERT_EQ(listed, b.entries());
      // What it holds is charged as the graph's.
      EXPECT_EQ(b.held.bytes(), b.bytes());
      ASSERT_EQ(b.degree.size(), static_cast<std::size_t>(r.local_count()));
      for (std::int64_t i = 0; i < r.local_count(); ++i) EXPECT_EQ(b.degree[i], g.degree(i));
    }();
    EXPECT_EQ(gather_sorted(by_row), want);
  }
}

// Every vertex's neighbours in its 1D row's order, on every rank (a test
// of small graphs only).
std::vector<std::vector<std::int64_t>> all_rows(const ht::Csr& g) {
  std::vector<std::int64_t> mine;  // v, degree, neighbours; per local row
  for (std::int64_t i = 0; i < g.range.local_count(); ++i) {
    const std::vector<std::int64_t> nb = g.neighbours(i);
    mine.push_back(g.range.global(i));
    mine.push_back(static_cast<std::int64_t>(nb.size()));
    mine.insert(mine.end(), nb.begin(), nb.end());
  }
  const int size = world_size();
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int p = 0; p < size; ++p) {
    displs[p] = total;
    total += counts[p];
  }
  std::vector<std::int64_t> flat(total);
  MPI_Allgatherv(mine.data(), n, MPI_INT64_T, flat.data(), counts.data(), displs.data(),
                 MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<std::vector<std::int64_t>> rows(static_cast<std::size_t>(g.range.n_global));
  for (std::size_t k = 0; k < flat.size();) {
    const std::int64_t v = flat[k], d = flat[k + 1];
    rows[v].assign(flat.begin() + k + 2, flat.begin() + k + 2 + d);
    k += 2 + d;
  }
  return rows;
}

// A row's order survives the split: order_rows puts each row's hub first,
// and every row of every block lists that row's targets in its column block
// in the 1D row's order, on every grid, whether the row's entries travel in
// one round or are cut across rounds (of 3, or of 1 entry).
TEST_P(Csr2D, RowsKeepTheirOrder) {
  const int size = world_size();
  const ht::Kronecker gen{GetParam(), 8, 0.57, 0.19, 0.19, 4};
  for (const ht::GridShape& shape : grids_of(size)) {
    ht::Csr g = csr_of(gen, shape.ranks());
    ht::order_rows(g, MPI_COMM_WORLD);
    const std::vector<std::vector<std::int64_t>> rows = all_rows(g);
    ht::Grid2D grid(MPI_COMM_WORLD, shape);
    for (const std::int64_t round : {std::int64_t(1) << 22, std::int64_t(3), std::int64_t(1)}) {
      const ht::Csr2D b = ht::build_csr_2d(g, grid, round);
      // A failed ASSERT leaves this block's checks only: every rank goes on
      // to the next build's collectives.
      [&] {
        if (grid.spare()) return;  // no block
        const ht::VertexRange& r = g.range;
        for (std::int64_t i = 0; i < b.row_slots(); ++i) {
          const std::int64_t v = b.row_vertex(i);
          // Slots past a piece's vertices (pieces are padded to a word) hold none.
          if (i % b.piece_bits >= r.per_rank || v >= r.n_global) continue;
          ASSERT_EQ(r.owner(v) / grid.cols(), grid.row()) << "vertex " << v;
          std::vector<std::int64_t> want, got;
          for (const std::int64_t u : rows[v])
            if (r.owner(u) % grid.cols() == grid.col()) want.push_back(u);
          const ht::BlockOffsets::Range e = b.row_offsets[i];
          for (std::int64_t k = e.begin; k < e.end; ++k)
            got.push_back(b.col_vertex(b.row_targets[k]));
          ASSERT_EQ(got, want) << "vertex " << v << ", grid " << grid.shape().name()
                               << ", rounds of " << round;
        }
      }();
    }
  }
}

// validate_bfs on the block (no 1D CSR) gives the 1D validator's verdict,
// on a right tree and on wrong ones of each kind, on every grid.
TEST_P(Csr2D, ValidatorsAgree) {
  const int size = world_size();
  const ht::Kronecker gen{GetParam(), 8, 0.57, 0.19, 0.19, 5};
  ht::Csr whole = csr_of(gen, 0);
  ht::drop_duplicates(whole);
  const std::vector<std::vector<std::int64_t>> rows = all_rows(whole);
  const auto n = static_cast<std::int64_t>(rows.size());
  // A serial BFS from the first vertex with an edge, alike on every rank.
  const std::int64_t key = test::first_vertex(n, [&](std::int64_t v) { return !rows[v].empty(); });
  std::vector<std::int64_t> pred(rows.size(), -1), depth(rows.size(), -1), queue{key};
  pred[key] = key;
  depth[key] = 0;
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (const std::int64_t u : rows[queue[q]])
      if (pred[u] < 0) {
        pred[u] = queue[q];
        depth[u] = depth[queue[q]] + 1;
        queue.push_back(u);
      }
  // The wrong trees: a parent that is no neighbour (the key, for a vertex
  // two levels down), a reached vertex marked unreached, a parent that is no
  // vertex id, a key that is not its own parent.
  const std::int64_t leaf = queue.back();
  std::vector<std::vector<std::int64_t>> trees(5, pred);
  if (depth[leaf] >= 2) trees[1][leaf] = key;  // else the tree has no such vertex: right
  trees[2][leaf] = -1;
  trees[3][leaf] = -7;
  trees[4][key] = rows[key][0];
  for (const ht::GridShape& shape : grids_of(size)) {
    ht::Csr g = csr_of(gen, shape.ranks());
    ht::drop_duplicates(g);
    ht::Grid2D grid(MPI_COMM_WORLD, shape);
    const ht::Csr2D b = ht::build_csr_2d(g, grid);
    for (std::size_t t = 0; t < trees.size(); ++t) {
      const std::vector<std::int64_t> mine = test::own_part(trees[t], g.range);
      const ht::Validation one = ht::validate_bfs(g, key, mine, MPI_COMM_WORLD);
      const ht::Validation two = ht::validate_bfs(b, grid, key, mine, MPI_COMM_WORLD);
      EXPECT_EQ(two.failed, one.failed) << "tree " << t << ", grid " << grid.shape().name() << ": "
                                        << two.what << " / " << one.what;
      EXPECT_EQ(two.ok(), trees[t] == pred) << "tree " << t << ": " << two.what;
      EXPECT_EQ(two.depth, one.depth) << "tree " << t;
      EXPECT_EQ(two.level, one.level) << "tree " << t;
    }
  }
}

// A grid whose R C ranks are not the CSR's owners: refused on every rank,
// before any exchange.
TEST(Csr2DGrid, ACsrOfOtherOwnersIsRefused) {
  const int size = world_size();
  // lint: rank-uniform: the world's size
  if (size < 2) GTEST_SKIP() << "a grid of fewer ranks needs 2 ranks";
  const ht::Kronecker gen{4, 8, 0.57, 0.19, 0.19, 3};
  const ht::Csr g = csr_of(gen, 0);  // every rank owns vertices
  ht::Grid2D grid(MPI_COMM_WORLD, {1, 1});
  try {
    ht::build_csr_2d(g, grid);
    FAIL() << "a 1x1 grid for a graph of " << size << " owners";
  } catch (const ht::Error& e) {
    EXPECT_EQ(std::string(e.what()), "build_csr_2d: a 1x1 grid of " + std::to_string(size) +
                                         " ranks for a graph owned by " + std::to_string(size) +
                                         " of " + std::to_string(size) +
                                         " (build_csr's owners: the grid's R C)");
  }
}

INSTANTIATE_TEST_SUITE_P(Scales, Csr2D, ::testing::Values(4, 9));  // 2^4 / 16: pieces of one vertex

}  // namespace
