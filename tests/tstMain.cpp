// GoogleTest main for tests that run under mpirun: one ht::Environment per
// process, output from every rank, and one verdict (the worst) on all ranks.
#include <gtest/gtest.h>

#include "runtime/HT_Environment.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (env.rank() != 0) {
    // Keep failures visible from every rank, but only rank 0's progress.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, env.comm());
  return failed;
}
