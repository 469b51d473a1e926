#pragma once
/// \file HT_Wait.hpp
/// \brief Waiting for MPI without holding a core, and the collectives the
/// drivers reduce their figures with.  (MPI errors: see HT_Environment.hpp.)
///
/// MPI implementations spin while they wait.  When ranks outnumber cores (or
/// share them with task threads) a spinning rank takes the core from the very
/// peer it waits for.  These waits test, then sleep briefly, and test again.
///
/// Example: src/drivers/HT_Trials.hpp (barrier, max_over_ranks).
#include <mpi.h>

#include <type_traits>
#include <vector>

namespace ht {

/// The pause between two tests of a thread waiting for MPI (or for peers):
/// a sleep_for(20 us), which timer slack stretches (86 us median on the
/// 2-core VM): long enough to give the core away, short beside any transfer
/// worth waiting for.
void idle_sleep();

/// The pauses of one wait: for the first kSpinSeconds it yields the core
/// between tests (a collective whose ranks arrive together completes in
/// microseconds, and a sleep would add its whole length to every level of a BFS);
/// after that it sleeps (idle_sleep), so a rank that waits long gives its
/// core to the peers it waits for.  A waiter whose events come every
/// microsecond (a task graph's workers) may first spin \p spins times
/// without leaving the core, and yield for longer (\p yield_seconds).
class Backoff {
 public:
  static constexpr double kSpinSeconds = 100e-6;
  explicit Backoff(int spins = 0, double yield_seconds = kSpinSeconds)
      : spins_(spins), yield_seconds_(yield_seconds) {}
  void pause();

 private:
  int spins_;
  double yield_seconds_;
  int spun_ = 0;
  double start_ = -1;
};

/// MPI_Waitall that pauses (Backoff) between tests.
void wait_all(std::vector<MPI_Request>& requests);
/// MPI_Barrier that pauses while waiting.
void barrier(MPI_Comm comm);
/// The largest \p x over the ranks of \p comm (pauses while waiting).
double max_over_ranks(double x, MPI_Comm comm);
/// \p most[i] = the largest \p x[i] over the ranks, i < \p n: one collective.
void max_over_ranks(const double* x, double* most, int n, MPI_Comm comm);
/// The sum of \p x over the ranks of \p comm (pauses while waiting).
long long sum_over_ranks(long long x, MPI_Comm comm);
/// \p sums[i] = the sum of \p x[i] over the ranks, i < \p n: one collective.
void sum_over_ranks(const long long* x, long long* sums, int n, MPI_Comm comm);
/// \p x[i] replaced by its sum over the ranks, i < \p n: one collective.
void sum_over_ranks(double* x, int n, MPI_Comm comm);

namespace impl {
void all_reduce_as(void* x, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void reduce_to_as(int root, const void* x, void* out, int n, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm);
template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_arithmetic_v<T>, "a number");
  if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<T, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<T, long>)
    return MPI_LONG;
  else
    static_assert(sizeof(T) == 0, "no MPI type for T");
}
}  // namespace impl

/// \brief \p x[i] replaced by \p op (MPI_MAX, MPI_MIN, MPI_SUM, MPI_BOR, ...)
/// over the ranks of \p comm, i < \p n: one blocking MPI_Allreduce, for the
/// reductions every rank reaches together (a phase's end), where a pausing
/// wait would add its sleep to every phase.
template <class T>
void all_reduce(T* x, int n, MPI_Op op, MPI_Comm comm) {
  impl::all_reduce_as(x, n, impl::mpi_type<T>(), op, comm);
}
/// \brief \p out[i] = \p op over the ranks of \p x[i], i < \p n, on \p root
/// only (one blocking MPI_Reduce).
template <class T>
void reduce_to(int root, const T* x, T* out, int n, MPI_Op op, MPI_Comm comm) {
  impl::reduce_to_as(root, x, out, n, impl::mpi_type<T>(), op, comm);
}

/// \brief Whether \p ok holds on every rank of \p comm (one MPI_Allreduce).
/// For checks of a rank's own data before a collective: a rank that owns no
/// rows passes them vacuously, and one rank throwing while the others go on
/// would leave the others waiting for it.
bool on_every_rank(bool ok, MPI_Comm comm);

/// Min, mean and max of a value over the ranks.
struct OverRanks {
  double min = 0, mean = 0, max = 0;
};
/// Min, mean and max of \p x over the ranks of \p comm (collective).
OverRanks over_ranks(double x, MPI_Comm comm);

}  // namespace ht
