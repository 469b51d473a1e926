// An MPI call fails on the last rank (a send to a rank that does not exist,
// on a communicator duplicated from MPI_COMM_WORLD, so the error handler
// must have been inherited) while the other ranks wait in a barrier that
// can never complete: the job must end on every rank with the failing
// rank's "rank R: error: MPI: ..." line and exit code 1, not a hang and not
// a return code nobody reads.
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Environment.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  MPI_Comm comm;
  MPI_Comm_dup(env.comm(), &comm);
  if (env.rank() == env.size() - 1) {
    int x = 0;
    MPI_Send(&x, 1, MPI_INT, env.size() + 7, 0, comm);  // no such rank: MPI_ERR_RANK
  }
  ht::barrier(env.comm());  // the failed rank never arrives
  MPI_Comm_free(&comm);
  return 0;
}
