#pragma once
/// \file HT_Environment.hpp
/// \brief One RAII object per process: MPI (thread level asked:
/// MPI_THREAD_MULTIPLE) and Kokkos (OpenMP), finalized in reverse order.
///
/// Threads per rank: `--kokkos-num-threads=N` (Kokkos 3.4 knows
/// `--kokkos-threads=N`, 4.x prefers the first; both spellings, with `=` or a
/// space, are rewritten for the Kokkos in use), else `OMP_NUM_THREADS` (or
/// Kokkos 4's `KOKKOS_NUM_THREADS`), else the rank's share: the cores of its
/// affinity mask divided among the ranks of its node whose masks overlap it,
/// at least 1.  A rank with more threads than its share, or a node with more
/// ranks than cores, gets one warning from rank 0 (Kokkos' own is switched
/// off).  A value that is not a positive whole number is a usage error: said
/// once, with the flag and what is accepted, and every rank exits with 2.
///
/// MPI errors.  No call site checks an MPI return code: MPI_COMM_WORLD gets
/// an error handler that prints "<app>: rank R: error: MPI: <MPI's message>"
/// and aborts the job (exit 1), and every communicator the run makes
/// (MPI_Cart_create, MPI_Comm_dup) inherits it.  A failed MPI call therefore
/// never returns, which is why the return codes go unread.
///
/// Example: any of examples/*.cpp (each main opens one).
#include <mpi.h>

#include <string>
#include <vector>

namespace ht {

class Environment {
 public:
  /// Initializes MPI then Kokkos; removes Kokkos flags from argc/argv.
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return MPI_COMM_WORLD; }
  /// Kokkos host threads of this rank.
  int threads() const { return threads_; }
  /// Cores this process may run on (its affinity mask).
  int cores() const { return cores_; }
  /// Ranks of MPI_COMM_WORLD on this rank's node (MPI_COMM_TYPE_SHARED).
  int node_ranks() const { return node_ranks_; }
  /// This rank's share of its cores: cores() over the ranks of its node
  /// whose affinity masks overlap its own, at least 1.
  int thread_share() const { return thread_share_; }
  /// Who chose threads(): "--kokkos-num-threads", "OMP_NUM_THREADS",
  /// "KOKKOS_NUM_THREADS" or "share".
  const std::string& threads_source() const { return threads_source_; }
  /// Why threads() is what it is, for the run's first line: the flag or
  /// variable that set it, or "the share of 8 cores among 2 ranks".
  std::string threads_reason() const;
  /// The MPI thread level granted (MPI_THREAD_*).
  int thread_level() const { return thread_level_; }
  static const char* thread_level_name(int level);

  /// Throws UsageError on every rank when MPI granted less than \p level;
  /// \p who names the feature that needs it.
  void require_thread_level(int level, const std::string& who) const;

  /// "Kokkos 3.4.1 (OpenMP)"
  static std::string kokkos_description();

 private:
  int rank_ = 0, size_ = 1, threads_ = 1, cores_ = 1;
  int node_ranks_ = 1, sharers_ = 1, thread_share_ = 1;
  std::string threads_source_ = "share";
  int thread_level_ = MPI_THREAD_SINGLE;
  int asked_level_ = MPI_THREAD_MULTIPLE;
  std::vector<std::string> args_;  // owns the rewritten Kokkos flags
  std::vector<char*> argv_;
};

}  // namespace ht
