// Tests of uts_verify by the wrong counts it must reject, on np = 1, 2, 4:
// a distributed search of sample tree T1 counts exactly what UTS 2.1
// publishes and passes; its counts with one node, leaf or level more or
// less, or another tree's counts, fail with a message naming the tree and
// both counts.  A tree of one's own has nothing published to meet.
// Then generated counts, judged by an oracle (a serial walk of the tree,
// uts_oracle.hpp): changed on one rank's part before the reduction or on the
// total, the check must pass exactly what the walk counts.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "profile/HT_Profile.hpp"
#include "uts/HT_UtsSearch.hpp"
#include "uts/HT_UtsVerify.hpp"
#include "uts_oracle.hpp"

namespace {

TEST(UtsVerify, RejectsEveryCountOffByOne) {
  ht::Profile profile(false);
  const ht::UtsTree& tree = ht::uts_named_tree("T1").tree;
  const ht::UtsRankResult mine = ht::uts_search(tree, {}, profile, 0, MPI_COMM_WORLD);
  const ht::UtsCounts counted = ht::uts_reduce(mine.counts, MPI_COMM_WORLD);
  EXPECT_EQ(ht::uts_verify("T1", counted), "");

  struct Mutant {
    const char* name;
    std::function<void(ht::UtsCounts&)> change;
  };
  const std::vector<Mutant> mutants = {
      {"one node more", [](ht::UtsCounts& c) { ++c.nodes; }},
      {"one node less", [](ht::UtsCounts& c) { --c.nodes; }},
      {"one leaf more", [](ht::UtsCounts& c) { ++c.leaves; }},
      {"one leaf less", [](ht::UtsCounts& c) { --c.leaves; }},
      {"one level deeper", [](ht::UtsCounts& c) { ++c.depth; }},
      {"one level shallower", [](ht::UtsCounts& c) { --c.depth; }},
      {"T5's counts", [](ht::UtsCounts& c) { c = ht::uts_named_tree("T5").counts; }},
  };
  for (const Mutant& m : mutants) {
    ht::UtsCounts c = counted;
    m.change(c);
    const std::string why = ht::uts_verify("T1", c);
    EXPECT_NE(why.find("tree T1: counted " + ht::counts_text(c)), std::string::npos)
        << m.name << ": '" << why << "'";
    EXPECT_NE(why.find("publishes " + ht::counts_text(counted)), std::string::npos)
        << m.name << ": '" << why << "'";
  }
}

TEST(UtsVerify, ACustomTreeHasNothingToMeet) {
  EXPECT_EQ(ht::uts_verify("custom", ht::UtsCounts{1, 1, 0}), "");
}

TEST(UtsVerify, AgreesWithTheOracle) {
  ht::Profile profile(false);
  const ht::UtsTree& tree = ht::uts_named_tree("T1").tree;
  const ht::UtsRankResult mine = ht::uts_search(tree, {}, profile, 0, MPI_COMM_WORLD);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The oracle's counts: rank 0 walks the tree, every rank learns them.
  ht::UtsCounts truth;
  if (rank == 0) truth = walk(tree);
  MPI_Bcast(&truth.nodes, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(&truth.leaves, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(&truth.depth, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);

  std::mt19937_64 rng(38);  // alike on every rank
  const auto pick = [&](std::int64_t k) { return static_cast<std::int64_t>(rng() % k); };
  const std::int64_t deltas[] = {0, 1, -1, 2, -7, 1000, -4096, 1 << 20};
  const auto nudge = [&](std::int64_t& x) {
    switch (pick(5)) {
      case 0:
        x *= 2;
        break;
      case 1:
        x = 0;
        break;
      default:
        x += deltas[pick(8)];
    }
  };
  int generated = 0, rejected = 0, accepted = 0, valid = 0;
  for (; generated < 200; ++generated) {
    const std::int64_t kind = pick(6);
    const bool one_rank = pick(2) == 1;
    const int who = static_cast<int>(pick(size));
    const auto corrupt = [&](ht::UtsCounts& c) {
      switch (kind) {
        case 0:
          nudge(c.nodes);
          break;
        case 1:
          nudge(c.leaves);
          break;
        case 2:
          nudge(c.depth);
          break;
        case 3:
          std::swap(c.nodes, c.leaves);
          break;
        case 4:
          c = ht::uts_named_tree(pick(2) ? "T5" : "T3").counts;
          break;
        default:
          nudge(c.nodes), nudge(c.leaves);
      }
    };
    // corrupt() draws alike on every rank: each corrupts its own part, and
    // one rank's is taken; or every rank corrupts the (same) total.
    ht::UtsCounts total;
    if (one_rank) {
      ht::UtsCounts part = mine.counts;
      corrupt(part);
      total = ht::uts_reduce(rank == who ? part : mine.counts, MPI_COMM_WORLD);
    } else {
      total = ht::uts_reduce(mine.counts, MPI_COMM_WORLD);
      corrupt(total);
    }
    const bool right = total == truth;
    const std::string why = ht::uts_verify("T1", total);
    valid += right;
    why.empty() ? ++accepted : ++rejected;
    EXPECT_EQ(why.empty(), right) << "counted " << ht::counts_text(total) << ", the walk "
                                  << ht::counts_text(truth) << ": '" << why << "'";
  }
  if (rank == 0)
    std::printf(
        "[wrong answers] uts_verify on %d ranks: %d generated, %d rejected, %d accepted "
        "(%d valid by the oracle)\n",
        size, generated, rejected, accepted, valid);
  EXPECT_GT(valid, 0);
  EXPECT_GT(rejected, generated / 2);
}

}  // namespace
