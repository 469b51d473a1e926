// Tests that fail on the last rank only: run by the suite to show that
// tstMain.cpp reports a failure from whichever rank it happens on, that
// every rank then exits non-zero, and that HT_ASSERT_ALL stops every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include "assert_all.hpp"

TEST(TstMain, FailureOnTheLastRankIsShown) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_NE(rank, size - 1) << "injected failure on rank " << rank;
}

// The last rank's condition fails in the second round of a loop of barriers:
// every rank fails there and leaves the loop (a plain ASSERT would leave the
// others waiting in the third barrier).
TEST(TstMain, AgreedFailureStopsEveryRank) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int round = 0; round < 3; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    HT_ASSERT_ALL(round == 0 || rank != size - 1)
        << "injected failure on rank " << rank << " in round " << round;
  }
}
