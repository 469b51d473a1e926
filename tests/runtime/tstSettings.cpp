// The settings every rank agrees at start (runtime/HT_Settings.hpp): a value
// one rank sees differently is refused on every rank, naming the variable,
// the rank and both values; the first failure reaches every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "runtime/HT_Settings.hpp"

namespace {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

// Sets (or, for nullptr, unsets) \p name on this rank only.
void put(const char* name, const char* value) {
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

TEST(Settings, AnUnlistedNameIsAProgrammingError) {
  EXPECT_THROW(ht::setting("HT_NO_SUCH_SETTING"), std::logic_error);
  EXPECT_NO_THROW(ht::setting("HT_EXCHANGE_END"));
}

TEST(Settings, TheSameEverywhereIsAgreed) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  put("HT_PROGRESS_SECONDS", "7");
  EXPECT_EQ(ht::agree_settings(comm), "");
  EXPECT_EQ(ht::setting("HT_PROGRESS_SECONDS"), "7");
  put("HT_PROGRESS_SECONDS", nullptr);
  EXPECT_EQ(ht::agree_settings(comm), "");
  EXPECT_EQ(ht::setting("HT_PROGRESS_SECONDS"), "");
}

// Each listed variable in turn, set on the last rank alone, then unset on
// it alone while the others have it: refused on every rank alike.
TEST(Settings, OneRankAloneIsRefusedOnEveryRank) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), size = size_of(comm);
  if (size < 2) GTEST_SKIP() << "needs 2 ranks";  // lint: rank-uniform: the world's size
  const std::string last = std::to_string(size - 1);
  for (const char* name : ht::kSettings) {
    const char* const saved_c = std::getenv(name);
    const std::string saved = saved_c ? saved_c : "";
    for (const bool on_last : {true, false}) {
      put(name, nullptr);
      if ((rank == size - 1) == on_last) put(name, "odd value");
      const std::string why = ht::agree_settings(comm);
      EXPECT_NE(why.find(std::string(name) + " is "), std::string::npos) << why;
      EXPECT_NE(why.find("rank " + last + " (node "), std::string::npos) << why;
      EXPECT_NE(why.find("'odd value'"), std::string::npos) << why;
      EXPECT_NE(why.find("unset"), std::string::npos) << why;
      EXPECT_NE(why.find("every rank must see the same setting"), std::string::npos) << why;
      // The same words on every rank.
      unsigned long long n = why.size(), most = 0;
      MPI_Allreduce(&n, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
      EXPECT_EQ(n, most) << "rank " << rank << ": " << why;
    }
    put(name, saved_c ? saved.c_str() : nullptr);
  }
  EXPECT_EQ(ht::agree_settings(comm), "");
}

TEST(Settings, TheFirstFailureReachesEveryRankWithItsRank) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), size = size_of(comm);
  EXPECT_EQ(ht::first_failure("", comm), "");
  // Every rank fails: rank 0's words, as they are.
  EXPECT_EQ(ht::first_failure("bad " + std::to_string(rank), comm), "bad 0");
  // Only the last ranks fail: the lowest of them, named.
  const int from = size / 2;
  const std::string got = ht::first_failure(rank >= from ? "mine" : "", comm);
  if (from == 0)
    EXPECT_EQ(got, "mine");
  else
    EXPECT_EQ(got.rfind("rank " + std::to_string(from) + " (node ", 0), 0u) << got;
  EXPECT_NE(got.find("mine"), std::string::npos) << got;
  // The lowest failing rank's kind reaches every rank; without name_rank
  // its words stay as they are, suffix and all left out.
  bool usage = rank % 2 == 1;
  const std::string plain =
      ht::first_failure(rank >= from ? "mine" : "", comm, false, "; s", &usage);
  EXPECT_EQ(plain, "mine");
  EXPECT_EQ(usage, from % 2 == 1);
  if (from > 0) {
    const std::string named = ht::first_failure(rank >= from ? "mine" : "", comm, true, "; s");
    EXPECT_EQ(named.substr(named.size() - 7), "mine; s") << named;
  }
}

}  // namespace
