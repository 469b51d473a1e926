#pragma once
// The UTS tests' oracle: a tree's counts by a plain depth-first walk on one
// thread (no task, no pool, no MPI), as the reference's uts-seq counts them.
#include <algorithm>
#include <vector>

#include "uts/HT_UtsTree.hpp"

inline ht::UtsCounts walk(const ht::UtsTree& t) {
  ht::UtsCounts c;
  std::vector<ht::UtsNode> stack{t.root()};
  while (!stack.empty()) {
    const ht::UtsNode n = stack.back();
    stack.pop_back();
    ++c.nodes;
    c.depth = std::max<std::int64_t>(c.depth, n.height);
    const int k = t.children(n);
    if (k == 0) ++c.leaves;
    for (int i = 0; i < k; ++i) stack.push_back(t.child(n, i));
  }
  return c;
}
