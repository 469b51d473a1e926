// uts_serial: a sample tree walked depth-first on one thread with no task,
// no pool and no MPI (the reference's uts-seq, with HybridTasks' tree code and
// hash), so that uts on 1 rank x 1 thread shows its task and stealing
// overhead per node against the same SHA-1.  Prints "<tree> <nodes> <s>".
//   uts_serial T1L
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "uts/HT_UtsTree.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: uts_serial <sample tree, e.g. T1L>\n");
    return 2;
  }
  const ht::UtsNamedTree& nt = ht::uts_named_tree(argv[1]);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ht::UtsNode> stack{nt.tree.root()};
  ht::UtsCounts c;
  while (!stack.empty()) {
    const ht::UtsNode n = stack.back();
    stack.pop_back();
    ++c.nodes;
    if (n.height > c.depth) c.depth = n.height;
    const int k = nt.tree.children(n);
    if (k == 0) ++c.leaves;
    for (int i = 0; i < k; ++i) stack.push_back(nt.tree.child(n, i));
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s %lld %.6f\n", argv[1], static_cast<long long>(c.nodes), s);
  return c == nt.counts ? 0 : 1;
}
