// cannon_gemm: C = A * B on a q x q rank grid by Cannon's algorithm, each
// rank's block product run as Kokkos tasks; validated by Freivalds' check.
//   mpirun -np 4 --bind-to none cannon_gemm input/gemm_default.xml
// The driver lives in src/drivers/HT_GemmDriver.
#include "drivers/HT_GemmDriver.hpp"

int main(int argc, char** argv) {
  return ht::run_app(argc, argv, ht::gemm_spec(), ht::gemm_driver);
}
