// Tests of the uts driver, run in-process: the deck's defaults are the
// library's and name a sample tree; a deck that names a sample tree but
// changes it is refused; and a run whose counts differ from the named tree's
// is a failed run (ht::Error, exit 1 in the app), which no deck can cause,
// so the test hands run_uts a configuration the deck check would refuse.
#include <gtest/gtest.h>

#include <string>

#include "drivers/HT_UtsDriver.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_Error.hpp"
#include "test_environment.hpp"

namespace {

Teuchos::RCP<Teuchos::ParameterList> deck() {
  return Teuchos::rcp(new Teuchos::ParameterList(*ht::uts_parameters()));
}

}  // namespace

TEST(UtsDriver, DeckDefaultsAreTheLibrarysAndTreeT1) {
  const ht::UtsConfig c = ht::uts_config(*deck(), test_environment());
  const ht::UtsSearchOptions lib;
  EXPECT_EQ(c.name, "T1");
  EXPECT_EQ(c.tree.describe(), ht::uts_named_tree("T1").tree.describe());
  EXPECT_EQ(c.search.quantum, lib.quantum);
  EXPECT_EQ(c.search.poll_interval, lib.poll_interval);
  EXPECT_EQ(c.search.split_nodes, lib.split_nodes);
  EXPECT_EQ(c.search.steal.chunk, lib.steal.chunk);
  EXPECT_EQ(c.search.steal.victim, lib.steal.victim);
  EXPECT_EQ(c.search.steal.progress, lib.steal.progress);
}

TEST(UtsDriver, ANamedTreeWithOtherParametersIsRefused) {
  auto d = deck();
  d->sublist("Tree").set("seed", 20);
  try {
    ht::uts_config(*d, test_environment());
    FAIL() << "no error";
  } catch (const ht::UsageError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("Tree/name = T1 is the sample tree"), std::string::npos) << m;
    EXPECT_NE(m.find("r 20"), std::string::npos) << m;
  }
  d->sublist("Tree").set("name", std::string("custom"));
  EXPECT_EQ(ht::uts_config(*d, test_environment()).tree.seed, 20);
}

TEST(UtsDriver, CountsThatDifferFromTheNamedTreesFailTheRun) {
  ht::UtsConfig c = ht::uts_config(*deck(), test_environment());
  c.tree.seed = 20;  // not T1 any more, still called T1
  c.tree.depth = 6;
  ht::Profile prof(false);
  try {
    ht::run_uts(c, prof, MPI_COMM_WORLD, nullptr);
    FAIL() << "no error";
  } catch (const ht::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("tree T1: counted"), std::string::npos) << m;
    EXPECT_NE(m.find("UTS 2.1 publishes 4130071 nodes, 3305118 leaves, depth 10"),
              std::string::npos)
        << m;
  }
}

TEST(UtsDriver, RepetitionsCountAlike) {
  auto d = deck();
  d->sublist("Tree").set("name", std::string("custom"));
  d->sublist("Tree").set("depth", 6);
  d->sublist("Search").set("repetitions", 3);
  const ht::UtsConfig c = ht::uts_config(*d, test_environment());
  ht::Profile prof;
  const ht::UtsOutcome out = ht::run_uts(c, prof, MPI_COMM_WORLD, nullptr);
  EXPECT_EQ(out.seconds.size(), 3u);
  EXPECT_EQ(out.mine.size(), 3u);
  EXPECT_GT(out.counts.nodes, 1);
  long long nodes = 0;
  for (const auto& r : out.mine) nodes += r.counts.nodes;
  long long all = 0;
  MPI_Allreduce(&nodes, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(all, 3 * out.counts.nodes);
}
