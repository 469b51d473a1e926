#pragma once
// The counts of a PMPI witness linked into the test program
// (perf/scaling/mpi_counts.cpp, the tool perf/scaling loads beside the
// drivers): every MPI call the process makes, whoever makes it, counted at
// MPI's door.  The library's own counts (comm/HT_CommCounts.hpp) must equal
// them over any span in which only the library calls MPI.
#include <ostream>

#include "comm/HT_CommCounts.hpp"

extern "C" void ht_mpi_counts_now(long long out[6]);

namespace ht::test {

inline CommCounts witness_counts() {
  long long c[6];
  ht_mpi_counts_now(c);
  // sends, send_bytes, collectives, bytes in, bytes out, barriers
  return {c[0], c[1], c[2], c[4], c[5]};
}

}  // namespace ht::test

namespace ht {
inline std::ostream& operator<<(std::ostream& os, const CommCounts& c) {
  return os << c.messages << " messages, " << c.bytes << " bytes, " << c.collectives
            << " collectives, " << c.collective_bytes << " bytes out of them, " << c.barriers
            << " barriers";
}
}  // namespace ht
