#include "comm/HT_Wait.hpp"

#include "comm/HT_ClosingBarrier.hpp"
#include "comm/HT_CommCounts.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_MpiInt.hpp"

#include <chrono>
#include <thread>

namespace ht {

namespace {
constexpr std::chrono::microseconds kIdleSleep{20};  // see idle_sleep()
}  // namespace

void idle_sleep() { std::this_thread::sleep_for(kIdleSleep); }

void Backoff::pause() {
  if (spun_ < spins_) {
    ++spun_;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    return;
  }
  const double now = steady_seconds();
  if (start_ < 0) start_ = now;
  if (now - start_ < yield_seconds_)
    std::this_thread::yield();
  else
    idle_sleep();
}

void wait_all(std::vector<MPI_Request>& requests) {
  int done = 0;
  Backoff backoff;
  for (;;) {
    MPI_Testall(mpi_int(requests.size(), "requests waited for"), requests.data(), &done,
                MPI_STATUSES_IGNORE);
    if (done) return;
    backoff.pause();
  }
}

void barrier(MPI_Comm comm) {
  ClosingBarrier b;
  b.join(comm);
  Backoff backoff;
  while (!b.done()) backoff.pause();
}

double max_over_ranks(double x, MPI_Comm comm) {
  double out = x;
  max_over_ranks(&x, &out, 1, comm);
  return out;
}

void max_over_ranks(const double* x, double* most, int n, MPI_Comm comm) {
  std::vector<MPI_Request> r(1);
  mpi::Iallreduce(x, most, n, MPI_DOUBLE, MPI_MAX, comm, &r[0]);
  wait_all(r);
}

long long sum_over_ranks(long long x, MPI_Comm comm) {
  long long out = x;
  sum_over_ranks(&x, &out, 1, comm);
  return out;
}

void sum_over_ranks(const long long* x, long long* sums, int n, MPI_Comm comm) {
  std::vector<MPI_Request> r(1);
  mpi::Iallreduce(x, sums, n, MPI_LONG_LONG, MPI_SUM, comm, &r[0]);
  wait_all(r);
}

void sum_over_ranks(double* x, int n, MPI_Comm comm) {
  std::vector<MPI_Request> r(1);
  mpi::Iallreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, comm, &r[0]);
  wait_all(r);
}

namespace impl {

// Blocking on purpose: SSSP reduces once a phase, hundreds of times a search,
// and a pausing wait (Backoff) made its 2 x 1 searches 2.5 to 4 times slower.
void all_reduce_as(void* x, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  mpi::Allreduce(MPI_IN_PLACE, x, n, type, op, comm);
}

void reduce_to_as(int root, const void* x, void* out, int n, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  mpi::Reduce(x, out, n, type, op, root, comm);
}

}  // namespace impl

bool on_every_rank(bool ok, MPI_Comm comm) {
  int all = ok ? 1 : 0;
  all_reduce(&all, 1, MPI_MIN, comm);
  return all == 1;
}

OverRanks over_ranks(double x, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  // The min as the max of -x: min and max in one collective, the sum in another.
  const double mine[2] = {-x, x};
  double most[2];
  max_over_ranks(mine, most, 2, comm);
  double sum = x;
  sum_over_ranks(&sum, 1, comm);
  return {-most[0], sum / size, most[1]};
}

}  // namespace ht
