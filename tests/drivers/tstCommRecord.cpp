// Tests of the per-trial and per-step MPI counts the drivers write (np = 1,
// 2, 4): run_trials counts a trial's kernel and verification apart; each
// kernel's steps (every BFS variant's levels, SSSP bucket steps, Cannon's skew and steps)
// add up to what a PMPI witness linked into this program saw over the whole
// kernel, and UTS's search is counted call for call; CommRecord writes one
// row a rank that reads back as given.
#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>

#include "../comm/pmpi_witness.hpp"
#include "assert_all.hpp"
#include "comm/HT_Wait.hpp"
#include "drivers/HT_CommRecord.hpp"
#include "drivers/HT_Trials.hpp"
#include "gemm/HT_Cannon.hpp"
#include "gemm/HT_Matrix.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "graph/HT_Csr.hpp"
#include "graph/HT_RowOrder.hpp"
#include "graph/HT_SearchKeys.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"
#include "graph/sssp/HT_DeltaStepping.hpp"
#include "h5_read.hpp"
#include "test_environment.hpp"
#include "uts/HT_UtsSearch.hpp"
#include "uts/HT_UtsTree.hpp"

namespace {

using ht::CommCounts;

int size_of() { return test_environment().size(); }

CommCounts total(const std::vector<CommCounts>& steps) {
  CommCounts t;
  for (const auto& c : steps) t += c;
  return t;
}

// A trial of two barriers and a sum, verified by one sum.
struct Known {
  static constexpr ht::TrialRegions regions{"test: kernel", "test: verify"};
  std::vector<ht::TrialSeconds> seen;
  void setup(int) { ht::sum_over_ranks(1LL, MPI_COMM_WORLD); }  // not the trial's
  void run(int) {
    ht::barrier(MPI_COMM_WORLD);
    ht::barrier(MPI_COMM_WORLD);
    ht::sum_over_ranks(1LL, MPI_COMM_WORLD);
  }
  bool verifies(int t) const { return t == 1; }
  void verify(int) { ht::sum_over_ranks(2LL, MPI_COMM_WORLD); }
  void done(int, const ht::TrialSeconds& s) { seen.push_back(s); }
};

TEST(Trials, CountTheKernelAndItsVerificationApart) {
  Known k;
  ht::run_trials(k, 2, MPI_COMM_WORLD);
  ASSERT_EQ(k.seen.size(), 2u);
  for (int t = 0; t < 2; ++t) {
    EXPECT_EQ(k.seen[t].kernel_comm, (CommCounts{0, 0, 1, 8, 2})) << "trial " << t;
    EXPECT_EQ(k.seen[t].verify_comm, (t == 1 ? CommCounts{0, 0, 1, 8, 0} : CommCounts{}))
        << "trial " << t;
  }
}

TEST(BfsSteps, LevelsAddUpToTheSearch) {
  for (const ht::BfsVariant& kind : ht::bfs_variants()) {
    const char* const variant = kind.name;
    ht::Kronecker gen{11, 8, 0.57, 0.19, 0.19, 5};
    ht::Csr g = ht::build_csr(gen, MPI_COMM_WORLD);
    ht::order_rows(g, MPI_COMM_WORLD);
    ht::BfsOptions opt;
    opt.buffer_items = 16;  // several messages a level
    opt = kind.resolve(opt, Kokkos::OpenMP().concurrency());
    ht::TaskRuntime rt(kind.pool_bytes(opt), "Runtime/pool_MiB");
    const auto bfs = kind.make(g, opt, rt, MPI_COMM_WORLD);
    for (const auto key : ht::search_keys(g, 2, gen.seed, MPI_COMM_WORLD)) {
      const CommCounts before = ht::test::witness_counts();
      const ht::BfsResult& r = bfs->search(key);
      const CommCounts seen = ht::test::witness_counts() - before;
      HT_ASSERT_ALL_EQ(r.comm.size(), r.frontier.size()) << variant << ": a count a level";
      // A level ends with a collective, but on one rank the levels a team
      // run ends (ChunkedSearch::team_levels) make none.
      if (size_of() > 1) {
        for (const auto& level : r.comm) EXPECT_GE(level.collectives, 1) << variant;
      }
      const CommCounts levels = total(r.comm);
      // Levels hold everything but what a search does before its first
      // level and after its last: nothing on the wire.
      EXPECT_EQ(levels, seen) << variant;
      if (size_of() > 1) {
        EXPECT_GT(levels.messages, 0) << variant;
      }
      long long sent = 0;
      for (auto m : r.messages) sent += m;
      // Data messages (the exchange's own count) are among the level's.
      EXPECT_LE(sent, levels.messages) << variant;
    }
  }
}

TEST(SsspSteps, BucketStepsAddUpToTheSearch) {
  const ht::Kronecker gen{10, 8, 0.57, 0.19, 0.19, 3};
  ht::Csr g = ht::build_weighted_csr(gen, MPI_COMM_WORLD);
  ht::SsspOptions opt;
  opt.delta = 0.1;
  opt.buffer_items = 32;
  ht::TaskRuntime rt(ht::DeltaStepping::pool_bytes(opt), "Runtime/pool_MiB");
  ht::DeltaStepping sssp(g, opt, rt, MPI_COMM_WORLD);
  for (const auto key : ht::search_keys(g, 2, gen.seed, MPI_COMM_WORLD)) {
    const CommCounts before = ht::test::witness_counts();
    const ht::SsspResult& r = sssp.search(key);
    const CommCounts seen = ht::test::witness_counts() - before;
    HT_ASSERT_ALL_EQ(static_cast<long long>(r.comm.size()), r.phases);
    // The next bucket is agreed in each phase's level end: end markers to
    // every peer, or NBX's closing reduction.
    if (size_of() > 1) {
      for (const auto& step : r.comm) EXPECT_GE(step.messages + step.collectives, 1);
    }
    EXPECT_EQ(total(r.comm), seen);
    if (size_of() > 1) {
      EXPECT_GE(total(r.comm).messages, r.messages);
    }
  }
}

TEST(CannonSteps, SkewAndStepsAddUpToTheMultiplication) {
  const int P = size_of(), q = ht::most_square_grid(P).rows;
  // lint: rank-uniform: the world's size
  if (q * q != P) GTEST_SKIP() << "Cannon needs a square rank count";
  for (bool overlap : {true, false}) {
    ht::Grid2D grid(MPI_COMM_WORLD, {q, q});
    const long long n = 64, nb = ht::block_size(n, q);
    ht::Block a("A", nb, nb), b("B", nb, nb), c("C", nb, nb);
    ht::fill_block(a, 1, 0, grid.row() * nb, grid.col() * nb, n);
    ht::fill_block(b, 1, 1, grid.row() * nb, grid.col() * nb, n);
    Kokkos::fence();
    ht::TaskRuntime rt(ht::tile_pool_bytes(nb, 16, 0), "Runtime/pool_MiB");
    ht::Cannon cannon(grid, rt, nb, {16, 0, overlap});
    const CommCounts before = ht::test::witness_counts();
    const ht::CannonTimes t = cannon.multiply(a, b, c);
    const CommCounts seen = ht::test::witness_counts() - before;
    HT_ASSERT_ALL_EQ(static_cast<int>(t.step_comm.size()), q + 1);
    EXPECT_EQ(total(t.step_comm), seen);
    // A shift sends A and B once each, nb * nb doubles apiece: q - 1
    // shifts between steps, and the skew's (row 0 and column 0 keep theirs).
    const long long block = 8 * nb * nb;
    for (int s = 1; s <= q; ++s) {
      const long long shifts = s < q ? 2 : 0;
      EXPECT_EQ(t.step_comm[s].messages, shifts) << "step " << s;
      EXPECT_EQ(t.step_comm[s].bytes, shifts * block) << "step " << s;
    }
    const long long skew = (grid.row() % q != 0) + (grid.col() % q != 0);
    EXPECT_EQ(t.step_comm[0].messages, skew);
  }
}

TEST(UtsSearch, EveryCallIsCounted) {
  ht::UtsSearchOptions opt;
  opt.quantum = 64;
  opt.split_nodes = 0;  // all on rank 0: the others steal
  ht::Profile prof;
  const CommCounts ours = ht::comm_counts(), theirs = ht::test::witness_counts();
  const ht::UtsRankResult r = ht::uts_search(ht::uts_named_tree("T1").tree, opt, prof,
                                             prof.begin_iteration(0, 0, 1), MPI_COMM_WORLD);
  const CommCounts mine = ht::comm_counts() - ours;
  EXPECT_EQ(mine, ht::test::witness_counts() - theirs);
  if (size_of() > 1) {
    EXPECT_GT(mine.messages, 0);
  }
  EXPECT_EQ(ht::uts_reduce(r.counts, MPI_COMM_WORLD).nodes, ht::uts_named_tree("T1").counts.nodes);
}

TEST(CommRecord, WritesARowARankOfTrialsAndSteps) {
  const int P = size_of();
  const int me = test_environment().rank();
  ht::CommRecord rec;
  for (int t = 0; t < 2; ++t) {
    ht::TrialSeconds s;
    s.kernel_comm = {me + 10LL * t, 1, 2, 3, 4};
    s.verify_comm = {0, 0, 7, 8, t};
    rec.add_trial(s);
    rec.add_steps({{1, 2, 3, 4, me}, {5, 6, 7, 8, 9}});
  }
  // Named for the run: np 1, 2 and 4, 1 and 2 threads may run at once.
  const std::string file = "tstCommRecord_np" + std::to_string(P) + "_t" +
                           std::to_string(Kokkos::OpenMP().concurrency()) + ".h5";
  ht::Results res(MPI_COMM_WORLD);
  rec.write(res, "comm/test");
  res.write(file);
  if (me == 0) {
    const auto messages = test::h5_dataset(file, "comm/test/kernel/messages");  // [P][2]
    ASSERT_EQ(messages.size(), 2u * P);
    for (int p = 0; p < P; ++p) {
      EXPECT_EQ(messages[2 * p], p);
      EXPECT_EQ(messages[2 * p + 1], p + 10);
    }
    const auto verify = test::h5_dataset(file, "comm/test/verify/barriers");  // [P][2]
    ASSERT_EQ(verify.size(), 2u * P);
    for (int p = 0; p < P; ++p) EXPECT_EQ(verify[2 * p + 1], 1);
    const auto barriers = test::h5_dataset(file, "comm/test/step/barriers");  // [P][4]
    ASSERT_EQ(barriers.size(), 4u * P);
    for (int p = 0; p < P; ++p) EXPECT_EQ(barriers[4 * p + 2], p);
    EXPECT_EQ(test::h5_dataset(file, "comm/test/step_trial"), (std::vector<double>{0, 0, 1, 1}));
    EXPECT_EQ(test::h5_type(file, "comm/test/step/barriers"), "int64");
    EXPECT_EQ(test::h5_units(file, "comm/test/kernel/bytes"), "bytes");
    std::remove(file.c_str());
  }
}

}  // namespace
