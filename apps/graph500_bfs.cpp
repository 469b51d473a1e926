// graph500_bfs: Graph500 kernels 1 and 2 (specification 3.0) on MPI ranks:
// Kronecker graph, distributed CSR, BFS from the search keys, every tree
// validated, results in the reference implementation's output format.
//   mpirun -np 2 --bind-to none graph500_bfs input/graph500_default.yaml
// The driver lives in src/drivers/HT_Graph500Driver.
#include "drivers/HT_Graph500Driver.hpp"

int main(int argc, char** argv) {
  return ht::run_app(argc, argv, ht::graph500_spec(), ht::graph500_driver);
}
