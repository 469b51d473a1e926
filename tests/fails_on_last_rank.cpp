// A test that fails on the last rank only: run by the suite to show that
// tstMain.cpp reports a failure from whichever rank it happens on, and that
// every rank then exits non-zero.
#include <gtest/gtest.h>
#include <mpi.h>

TEST(TstMain, FailureOnTheLastRankIsShown) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_NE(rank, size - 1) << "injected failure on rank " << rank;
}
