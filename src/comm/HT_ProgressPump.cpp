#include "comm/HT_ProgressPump.hpp"

#include "comm/HT_Wait.hpp"
#include "runtime/HT_Clock.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

void ProgressPump::start(std::vector<MPI_Request> requests) {
  requests_ = std::move(requests);
  t_post_ = t_done_ = steady_seconds();
  done_.store(requests_.empty());
}

void ProgressPump::pump() {
  if (done_.load(std::memory_order_acquire)) return;
  OneCaller::Turn turn(mpi_);
  if (!turn) return;
  int flag = 0;
  MPI_Testall(mpi_int(requests_.size(), "requests pumped"), requests_.data(), &flag,
              MPI_STATUSES_IGNORE);
  if (flag) {
    t_done_ = steady_seconds();
    done_.store(true, std::memory_order_release);
  }
}

double ProgressPump::finish() {
  const double t0 = steady_seconds();
  if (!done_.load(std::memory_order_acquire)) {
    wait_all(requests_);
    t_done_ = steady_seconds();
    done_.store(true);
  }
  return steady_seconds() - t0;
}

}  // namespace ht
