#include "comm/HT_Watchdog.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

namespace {
std::atomic<double> g_limit{300.0};
// Time for the peers to print theirs before the job ends.
constexpr std::chrono::seconds kGrace{2};
}  // namespace

double Watchdog::limit() { return g_limit.load(); }
void Watchdog::set_limit(double seconds) { g_limit.store(seconds); }

Watchdog::Watchdog(MPI_Comm comm, std::string what, Clock clock)
    : comm_(comm), what_(std::move(what)), clock_(clock), limit_(limit()) {}

bool Watchdog::noticed() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, kNoticeTag, comm_, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}

void Watchdog::stuck(const std::string& state, bool from_peer) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  const double waited = since_ < 0 ? 0 : clock_() - since_;
  std::fprintf(stderr, "%s: rank %d: stuck in %s (%s after %.0f s of waiting): %s\n",
               program_name().c_str(), rank, what_.c_str(),
               from_peer ? "a peer gave up" : "no progress", waited, state.c_str());
  std::fflush(stderr);
  if (!from_peer) {
    // Every peer still in the protocol prints its own state on this notice.
    std::vector<MPI_Request> sent(static_cast<std::size_t>(size), MPI_REQUEST_NULL);
    for (int p = 0; p < size; ++p)
      if (p != rank) mpi::Isend(nullptr, 0, MPI_BYTE, p, kNoticeTag, comm_, &sent[p]);
  }
  std::this_thread::sleep_for(kGrace);
  abort_all("no progress in " + what_ + " for " + std::to_string(static_cast<long>(limit_)) +
            " s (" + kKey + "); the protocol state of each rank is above");
}

}  // namespace ht
