// A known set of MPI calls, for test_mpi_counts.sh to check what
// perf/scaling/mpi_counts counts of it (np 2): per rank 3 MPI_Send of 10 ints
// and 1 MPI_Isend of 5 doubles to the other rank; 2 MPI_Allreduce of 4
// doubles and 1 MPI_Allgather of 1 int; 1 MPI_Barrier and 1 MPI_Ibarrier;
// then a search region (MPI_Pcontrol(1) ... (-1)) of one level: 1
// MPI_Sendrecv of 1 int with the other rank (one peer), closed by 1
// MPI_Allreduce of 1 int over both ranks.
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int peer = 1 - rank;
  int ints[10] = {};
  double doubles[5] = {}, got[5] = {}, sum[4] = {1, 2, 3, 4};
  for (int i = 0; i < 3; ++i) {
    if (rank == 0) {
      MPI_Send(ints, 10, MPI_INT, peer, i, MPI_COMM_WORLD);
      MPI_Recv(ints, 10, MPI_INT, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(ints, 10, MPI_INT, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(ints, 10, MPI_INT, peer, i, MPI_COMM_WORLD);
    }
  }
  MPI_Request r[2];
  MPI_Isend(doubles, 5, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(got, 5, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Allreduce(MPI_IN_PLACE, sum, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, sum, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int one = rank, both[2];
  MPI_Allgather(&one, 1, MPI_INT, both, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Pcontrol(1);
  int mine = rank, theirs = 0;
  MPI_Sendrecv(&mine, 1, MPI_INT, peer, 7, &theirs, 1, MPI_INT, peer, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Pcontrol(-1);
  MPI_Finalize();
  return 0;
}
