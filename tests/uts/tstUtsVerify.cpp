// Tests of uts_verify by the wrong counts it must reject, on np = 1, 2, 4:
// a distributed search of sample tree T1 counts exactly what UTS 2.1
// publishes and passes; its counts with one node, leaf or level more or
// less, or another tree's counts, fail with a message naming the tree and
// both counts.  A tree of one's own has nothing published to meet.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "profile/HT_Profile.hpp"
#include "uts/HT_UtsSearch.hpp"
#include "uts/HT_UtsVerify.hpp"

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

}  // namespace
