#pragma once
/// \file assert_all.hpp
/// \brief Assertions that every rank takes together: HT_ASSERT_ALL(cond)
/// agrees on the verdict over MPI_COMM_WORLD first, so that when \p cond is
/// false on any rank, every rank fails and returns at once, and none is left
/// waiting in the next collective for a rank that returned alone.
///
/// A plain ASSERT_* returns from the function on the rank where it fails
/// only; an EXPECT_* goes on everywhere.  Use HT_ASSERT_ALL where what
/// follows must not run after a failure and communicates
/// (tests/tools/rank_local_asserts.py lists any ASSERT_* left there).  It is
/// itself a collective: every rank must reach it, not one rank in a loop of
/// its own length.
///
/// Example: tests/graph/bfs/bfs_check.hpp.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <utility>

namespace ht::test {

/// \brief The ranks' verdict on a condition, agreed over a communicator.
class Verdict {
 public:
  Verdict(bool held_here, std::string what_here, std::string failed_on)
      : held_here_(held_here), what_here_(std::move(what_here)), failed_on_(std::move(failed_on)) {}
  /// \brief True where the condition held on every rank.
  explicit operator bool() const { return failed_on_.empty(); }
  /// \brief Whether the condition held on this rank.
  bool held_here() const { return held_here_; }
  /// \brief What this rank's failed condition said (an AssertionResult's
  /// message; empty for a bool).
  const std::string& what_here() const { return what_here_; }
  /// \brief The ranks where it failed, e.g. "ranks 1, 3"; empty when none did.
  const std::string& failed_on() const { return failed_on_; }

 private:
  bool held_here_;
  std::string what_here_, failed_on_;
};

/// \brief Agrees on \p ok_here over the ranks of \p comm (collective: one
/// MPI_Allreduce, ht::on_every_rank's, and when some rank failed one
/// MPI_Allgather to name them).
Verdict agree(bool ok_here, MPI_Comm comm = MPI_COMM_WORLD);
/// \brief The same for an AssertionResult, whose message the failing ranks keep.
Verdict agree(const ::testing::AssertionResult& here, MPI_Comm comm = MPI_COMM_WORLD);

/// \brief Success where \p a == \p b, else a failure that shows both values.
template <class A, class B>
::testing::AssertionResult equal(const A& a, const B& b, const char* a_text, const char* b_text) {
  if (a == b) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a_text << " is " << ::testing::PrintToString(a) << ", "
                                       << b_text << " is " << ::testing::PrintToString(b);
}

namespace impl {
int fatal_failures();  // the current test's so far, on this rank
inline const ::testing::AssertionResult& as_verdict(const ::testing::AssertionResult& r) {
  return r;
}
template <class T>
bool as_verdict(const T& condition) {
  return static_cast<bool>(condition);
}
}  // namespace impl

/// \brief Runs \p f: a failure where it added a fatal failure on this rank
/// (an ASSERT_* that returned from it).
template <class F>
::testing::AssertionResult no_fatal_failure(F&& f) {
  const int before = impl::fatal_failures();
  std::forward<F>(f)();
  if (impl::fatal_failures() == before) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "a fatal failure, shown above";
}

}  // namespace ht::test

/// \brief ASSERT_TRUE(cond) agreed by every rank of MPI_COMM_WORLD (see the
/// file's brief); a message streams in as into an ASSERT_TRUE.  Where the
/// condition failed, the failure shows it with that message (which is made
/// only there, so it may index what failed); elsewhere, the ranks where it
/// failed.  \p cond: a bool or a ::testing::AssertionResult.
#define HT_ASSERT_ALL(cond) HT_ASSERT_ALL_IMPL_(cond, "HT_ASSERT_ALL(" #cond ")")
/// \brief ASSERT_EQ(a, b) agreed by every rank: the failing ranks show both values.
#define HT_ASSERT_ALL_EQ(a, b) \
  HT_ASSERT_ALL_IMPL_(::ht::test::equal((a), (b), #a, #b), "HT_ASSERT_ALL_EQ(" #a ", " #b ")")
/// \brief ASSERT_NO_FATAL_FAILURE(statement) agreed by every rank: rank-local
/// checks (plain ASSERT_*s, in loops of a rank's own length) in a function
/// of their own, then one verdict.  Example: tests/graph/tstRowOrder.cpp.
#define HT_ASSERT_ALL_NO_FATAL_FAILURE(statement)                       \
  HT_ASSERT_ALL_IMPL_(::ht::test::no_fatal_failure([&] { statement; }), \
                      "HT_ASSERT_ALL_NO_FATAL_FAILURE(" #statement ")")

#define HT_ASSERT_ALL_IMPL_(cond, text)                                                            \
  switch (0)                                                                                       \
  case 0:                                                                                          \
  default:                                                                                         \
    if (const ::ht::test::Verdict ht_verdict_ =                                                    \
            ::ht::test::agree(::ht::test::impl::as_verdict(cond))) {                               \
    } else if (ht_verdict_.held_here())                                                            \
      return GTEST_FAIL_AT(__FILE__, __LINE__)                                                     \
             << text " failed on " << ht_verdict_.failed_on() << " (held here): every rank stops"; \
    else                                                                                           \
      return GTEST_FAIL_AT(__FILE__, __LINE__)                                                     \
             << text " is false here (failed on " << ht_verdict_.failed_on() << ")"                \
             << (ht_verdict_.what_here().empty() ? "" : ": ") << ht_verdict_.what_here() << "\n"
