// uts: Unbalanced Tree Search (UTS 2.1) on MPI ranks, worker tasks on each
// rank's Kokkos threads, idle ranks stealing work from busy ones; the sample
// trees' counts are checked on every run.
//   mpirun -np 2 --bind-to none uts input/uts_T1.yaml
// The driver lives in src/drivers/HT_UtsDriver.
#include "drivers/HT_UtsDriver.hpp"

int main(int argc, char** argv) { return ht::run_app(argc, argv, ht::uts_spec(), ht::uts_driver); }
