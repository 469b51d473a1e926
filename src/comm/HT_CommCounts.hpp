#pragma once
/// \file HT_CommCounts.hpp
/// \brief What this rank asks of MPI, counted as it asks: point-to-point
/// messages and their bytes, collectives and the bytes that come out of them,
/// barriers.  The kernels take a snapshot at each step (a BFS level, an SSSP
/// bucket step, a Cannon shift, a trial) and keep the difference, so the
/// results file holds every rank's counts per step (docs/scaling.md).
///
/// The counts mean what a PMPI tool's (mpiP, IPM, perf/scaling/mpi_counts)
/// mean, and tests/comm/tstCommCounts.cpp checks them against one.  Every
/// message, collective and barrier of the library goes through ht::mpi below
/// (a lint test keeps raw calls out); the start-up (the node's cores, in
/// runtime/HT_Environment.cpp), the agreement on a bad input (throw_if_any)
/// and the deck and results file (io/), before and after the trials, are not
/// counted.
///
/// Example: tests/comm/tstCommCounts.cpp.
#include <mpi.h>

#include <vector>

namespace ht {

/// \brief Counts of one rank, over a span of time (or since MPI started).
struct CommCounts {
  long long messages = 0;          ///< point-to-point sends started
  long long bytes = 0;             ///< their bytes
  long long collectives = 0;       ///< collectives other than barriers
  long long collective_bytes = 0;  ///< bytes out of them (a gather's whole result)
  long long barriers = 0;          ///< barriers, blocking or not

  /// \brief The counts between two snapshots (this one the later).
  CommCounts operator-(const CommCounts& earlier) const;
  CommCounts& operator+=(const CommCounts& more);
  bool operator==(const CommCounts& o) const;
};

/// \brief This process's counts since it started (every thread's).
CommCounts comm_counts();

/// \brief The counts of consecutive steps: each mark() closes one.
///
/// Example: src/gemm/HT_Cannon.cpp.
class CommSteps {
 public:
  explicit CommSteps(std::vector<CommCounts>& out) : out_(out), last_(comm_counts()) {
    out_.clear();
  }
  /// Closes the step that started at the last mark (or at construction).
  void mark() {
    const CommCounts now = comm_counts();
    out_.push_back(now - last_);
    last_ = now;
  }

 private:
  std::vector<CommCounts>& out_;
  CommCounts last_;
};

/// \brief MPI's calls that send or synchronise, counted: each one adds to
/// comm_counts() and calls MPI's function of the same name.  The library
/// calls these, never MPI's directly.
namespace mpi {

/// \brief The persistent send \p request of \p bytes bytes is started (MPI_Start).
int Start(MPI_Request* request, long long bytes);
int Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
          MPI_Request* request);
int Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
           MPI_Request* request);
int Barrier(MPI_Comm comm);
int Ibarrier(MPI_Comm comm, MPI_Request* request);
int Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int Allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int Iallreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
               MPI_Request* request);
int Reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, int root,
           MPI_Comm comm);
int Exscan(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int Gather(const void* in, int in_count, MPI_Datatype in_type, void* out, int out_count,
           MPI_Datatype out_type, int root, MPI_Comm comm);
int Iallgatherv(const void* in, int in_count, MPI_Datatype in_type, void* out,
                const int* out_counts, const int* displs, MPI_Datatype out_type, MPI_Comm comm,
                MPI_Request* request);
int Alltoall(const void* in, int in_count, MPI_Datatype in_type, void* out, int out_count,
             MPI_Datatype out_type, MPI_Comm comm);
int Alltoallv(const void* in, const int* in_counts, const int* in_displs, MPI_Datatype in_type,
              void* out, const int* out_counts, const int* out_displs, MPI_Datatype out_type,
              MPI_Comm comm);
#if MPI_VERSION >= 4
/// \brief MPI-4's large-count Alltoallv (64-bit counts and displacements).
int Alltoallv_c(const void* in, const MPI_Count* in_counts, const MPI_Aint* in_displs,
                MPI_Datatype in_type, void* out, const MPI_Count* out_counts,
                const MPI_Aint* out_displs, MPI_Datatype out_type, MPI_Comm comm);
#endif

}  // namespace mpi
}  // namespace ht
