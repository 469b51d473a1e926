// Tests of ht::UtsTree: the generator is UTS 2.1's, node for node.  Its
// proof is the published counts of the sample trees (sample_trees.sh of the
// reference), reproduced by the tests' plain depth-first walk (uts_oracle.hpp);
// and the parameter checks refuse what cannot run.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/HT_Error.hpp"
#include "uts/HT_UtsTree.hpp"
#include "uts_oracle.hpp"

namespace {

// The ~4 million node trees: one per tree type and geometric shape.
class SampleTree : public ::testing::TestWithParam<const char*> {};

TEST_P(SampleTree, CountsAreThePublishedOnes) {
  const ht::UtsNamedTree& t = ht::uts_named_tree(GetParam());
  const ht::UtsCounts c = walk(t.tree);
  EXPECT_EQ(c.nodes, t.counts.nodes);
  EXPECT_EQ(c.leaves, t.counts.leaves);
  EXPECT_EQ(c.depth, t.counts.depth);
}

INSTANTIATE_TEST_SUITE_P(Small, SampleTree, ::testing::Values("T1", "T2", "T3", "T4", "T5"));

TEST(UtsTree, ChildrenDependOnlyOnTheNode) {
  const ht::UtsTree t = ht::uts_named_tree("T1").tree;
  const ht::UtsNode r = t.root();
  const ht::UtsNode a = t.child(r, 3), b = t.child(r, 3), c = t.child(r, 2);
  EXPECT_EQ(a.state, b.state);
  EXPECT_NE(a.state, c.state);
  EXPECT_EQ(a.height, 1);
  EXPECT_EQ(t.children(a), t.children(b));
  // Granularity repeats the same hash: the same tree, more work.
  ht::UtsTree g = t;
  g.granularity = 3;
  EXPECT_EQ(g.child(r, 3).state, a.state);
}

TEST(UtsTree, BinomialRootHasFloorB0Children) {
  const ht::UtsTree t = ht::uts_named_tree("T3").tree;
  EXPECT_EQ(t.children(t.root()), 2000);
}

TEST(UtsTree, ChecksRefuseWhatCannotRun) {
  ht::UtsTree t = ht::uts_named_tree("T3").tree;  // q * m < 1
  EXPECT_NO_THROW(t.check("Tree"));
  t.q = 0.25;
  t.m = 4;  // q * m = 1: grows forever with a probability > 0
  try {
    t.check("Tree");
    FAIL() << "q * m = 1 accepted";
  } catch (const ht::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Tree/q = 0.25, Tree/m = 4"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("q * m < 1 is accepted"), std::string::npos);
  }
  // T3L has q * m = 1.00007 and a published, finite count.
  const ht::UtsTree t3l = ht::uts_named_tree("T3L").tree;
  EXPECT_THROW(t3l.check("Tree"), ht::UsageError);
  EXPECT_NO_THROW(t3l.check("Tree", true));
  ht::UtsTree b = ht::uts_named_tree("T1").tree;
  b.b0 = 0;
  EXPECT_THROW(b.check("Tree"), ht::UsageError);
  b = ht::uts_named_tree("T1").tree;
  b.depth = 0;
  EXPECT_THROW(b.check("Tree"), ht::UsageError);
  b = ht::uts_named_tree("T4").tree;
  b.shift = 1.5;
  EXPECT_THROW(b.check("Tree"), ht::UsageError);
  EXPECT_THROW(ht::uts_named_tree("T9"), ht::UsageError);
}

}  // namespace
