#include "assert_all.hpp"

#include <vector>

#include "comm/HT_Wait.hpp"

namespace ht::test {

namespace {

// The ranks where the condition failed, named (MPI_Allgather): called by
// every rank once ht::on_every_rank said that some rank failed.
std::string failed_ranks(bool ok_here, MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  const int mine = ok_here ? 1 : 0;
  std::vector<int> ok(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 1, MPI_INT, ok.data(), 1, MPI_INT, comm);
  std::string ranks;
  int count = 0;
  for (int r = 0; r < size; ++r)
    if (!ok[static_cast<std::size_t>(r)]) ranks += (count++ ? ", " : "") + std::to_string(r);
  return (count == 1 ? "rank " : "ranks ") + ranks;
}

}  // namespace

Verdict agree(bool ok_here, MPI_Comm comm) {
  if (ht::on_every_rank(ok_here, comm)) return Verdict(true, "", "");
  return Verdict(ok_here, "", failed_ranks(ok_here, comm));
}

Verdict agree(const ::testing::AssertionResult& here, MPI_Comm comm) {
  const bool ok_here = static_cast<bool>(here);
  if (ht::on_every_rank(ok_here, comm)) return Verdict(true, "", "");
  return Verdict(ok_here, ok_here ? "" : here.message(), failed_ranks(ok_here, comm));
}

namespace impl {

int fatal_failures() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!test) return ::testing::Test::HasFatalFailure() ? 1 : 0;
  const ::testing::TestResult& r = *test->result();
  int n = 0;
  for (int i = 0; i < r.total_part_count(); ++i) n += r.GetTestPartResult(i).fatally_failed();
  return n;
}

}  // namespace impl

}  // namespace ht::test
