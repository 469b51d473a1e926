// GoogleTest main for tests that run under mpirun: one ht::Environment per
// process, rank 0's progress, every rank's failures, and one verdict (the
// worst) on all ranks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "comm/HT_Watchdog.hpp"
#include "test_environment.hpp"

namespace {

ht::Environment* environment = nullptr;

// On ranks other than 0: nothing but the failed assertions, each with its
// rank, so that a failure on rank 3 is seen even though rank 0 passed.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  // The test's name is kept here: UnitTest::current_test_info() would take
  // the lock gtest holds while it reports a part result.
  void OnTestStart(const ::testing::TestInfo& t) override {
    test_ = std::string(t.test_suite_name()) + "." + t.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "[rank %d] %s: %s:%d: Failure\n%s\n", rank_, test_.c_str(),
                 r.file_name() ? r.file_name() : "?", r.line_number(), r.message());
    std::fflush(stderr);
  }

 private:
  int rank_;
  std::string test_ = "(outside a test)";
};

}  // namespace

ht::Environment& test_environment() { return *environment; }

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  environment = &env;
  // A test stuck in a protocol prints every rank's state and fails, well
  // before CTest's timeout would kill it silently (HT_STALL_SECONDS overrides).
  const char* stall = std::getenv("HT_STALL_SECONDS");
  ht::Watchdog::set_limit(stall ? std::atof(stall) : 60.0);
  ::testing::InitGoogleTest(&argc, argv);
  if (env.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(env.rank()));
  }
  int failed = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, env.comm());
  return failed;
}
