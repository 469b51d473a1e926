// Tests of ht::uts_search on np = 1, 2, 4 ranks x 1, 2 threads: every tree
// type counted exactly (against the oracle walk of uts_oracle.hpp) with
// stealing on (polling and a messaging thread, both victims and amounts) and
// off; all work starting on rank 0 and the other ranks stealing it; and the
// per-rank figures adding up (nodes, work sent and received).
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "assert_all.hpp"
#include "profile/HT_Profile.hpp"
#include "uts/HT_UtsSearch.hpp"
#include "uts_oracle.hpp"

namespace {

long long sum(long long x) {
  long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

using Shape = ht::UtsTree::Shape;
using Type = ht::UtsTree::Type;

ht::UtsTree tree(Type type, Shape shape, int depth, double b0, double q, int m, int seed) {
  ht::UtsTree t;
  t.type = type;
  t.shape = shape;
  t.depth = depth;
  t.b0 = b0;
  t.q = q;
  t.m = m;
  t.seed = seed;
  return t;
}

// Small trees of every kind (thousands to tens of thousands of nodes); the
// binomial one (q * m = 0.98, 133 levels) grows from a few of the root's
// 200 children, which only stealing spreads.
std::vector<std::pair<std::string, ht::UtsTree>> trees() {
  return {
      {"binomial", tree(Type::binomial, Shape::linear, 1, 200, 0.245, 4, 2)},      // 27057
      {"geometric_linear", tree(Type::geometric, Shape::linear, 14, 4, 0, 0, 1)},  // 90224
      {"geometric_expdec", tree(Type::geometric, Shape::expdec, 8, 4, 0, 0, 0)},   // 12958
      {"geometric_cyclic", tree(Type::geometric, Shape::cyclic, 6, 4, 0, 0, 0)},   // 5675
      {"geometric_fixed", tree(Type::geometric, Shape::fixed, 7, 4, 0, 0, 1)},     // 28061
      {"hybrid", tree(Type::hybrid, Shape::linear, 10, 4, 0.24, 4, 0)},            // 40641
  };
}

struct Setting {
  std::string name;
  ht::UtsSearchOptions opt;
};

std::vector<Setting> settings() {
  std::vector<Setting> s;
  ht::UtsSearchOptions o;
  o.quantum = 512;
  o.poll_interval = 32;
  s.push_back({"polling", o});
  o.steal.progress = ht::StealProgress::thread;
  s.push_back({"thread", o});
  o.steal.progress = ht::StealProgress::polling;
  o.steal.victim = ht::StealVictim::random;
  o.steal.amount = ht::StealAmount::chunk;
  o.steal.chunk = 1;
  o.split_nodes = 0;  // all on rank 0, one node per steal: many steals
  s.push_back({"random_chunk1_from_rank0", o});
  ht::UtsSearchOptions off;
  off.steal.enabled = false;
  s.push_back({"off", off});
  return s;
}

TEST(UtsSearch, EveryTreeCountsExactlyWithStealingOnAndOff) {
  for (const auto& [tname, t] : trees()) {
    const ht::UtsCounts want = walk(t);
    HT_ASSERT_ALL(want.nodes > 5000) << tname << " is too small to test stealing";
    for (const Setting& s : settings()) {
      ht::Profile prof;
      const int it = prof.begin_iteration(0, 0, 1);
      const ht::UtsRankResult r = ht::uts_search(t, s.opt, prof, it, MPI_COMM_WORLD);
      const ht::UtsCounts all = ht::uts_reduce(r.counts, MPI_COMM_WORLD);
      EXPECT_EQ(all.nodes, want.nodes) << tname << ", " << s.name;
      EXPECT_EQ(all.leaves, want.leaves) << tname << ", " << s.name;
      EXPECT_EQ(all.depth, want.depth) << tname << ", " << s.name;
      EXPECT_EQ(sum(r.steal.items_sent), sum(r.steal.items_received)) << tname << ", " << s.name;
      if (!s.opt.steal.enabled) {
        EXPECT_EQ(r.steal.requests, 0);
      }
    }
  }
}

TEST(UtsSearch, AllWorkOnRank0IsStolenByEveryRank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ht::UtsNamedTree& t3 = ht::uts_named_tree("T3");  // 4 million nodes, binomial
  ht::UtsSearchOptions o;
  o.split_nodes = 0;
  ht::Profile prof;
  const ht::UtsRankResult r =
      ht::uts_search(t3.tree, o, prof, prof.begin_iteration(0, 0, 1), MPI_COMM_WORLD);
  const ht::UtsCounts all = ht::uts_reduce(r.counts, MPI_COMM_WORLD);
  EXPECT_EQ(all.nodes, t3.counts.nodes);
  EXPECT_EQ(all.leaves, t3.counts.leaves);
  EXPECT_EQ(all.depth, t3.counts.depth);
  if (rank > 0) {
    EXPECT_GT(r.steal.steals, 0) << "rank " << rank << " never stole";
    EXPECT_GT(r.counts.nodes, 0);
  }
  // The profile has one record per worker, its nodes summing to the rank's.
  long long nodes = 0;
  for (const ht::TaskRecord& rec : prof.records()) nodes += rec.items;
  EXPECT_EQ(nodes, r.counts.nodes);  // split_nodes = 0: no prefix counted outside workers
}

}  // namespace
