// graph500_bfs: Graph500 specification 3.0 kernels 1, 2 and 3 on MPI ranks:
// the Kronecker graph (or a graph file) in a distributed CSR, BFS and SSSP
// from the search keys, every tree validated, results in the 3.0 reference
// implementation's output format.
//   mpirun -np 2 --bind-to none graph500_bfs input/graph500_default.yaml
// The driver lives in src/drivers/graph500/.
#include "drivers/graph500/HT_Graph500Driver.hpp"
#include "graph/bfs/HT_BfsVariant.hpp"

int main(int argc, char** argv) {
  ht::AppSpec spec = ht::graph500_spec();
  // What tests and perf scripts read instead of typing the names.
  spec.lists.push_back({"variants", "a line per BFS variant: name work reports min_tasks [traits]",
                        ht::bfs_variants_list});
  return ht::run_app(argc, argv, spec, ht::graph500_driver);
}
