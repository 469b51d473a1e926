#include "uts/HT_UtsVerify.hpp"

namespace ht {

std::string counts_text(const UtsCounts& c) {
  return std::to_string(c.nodes) + " nodes, " + std::to_string(c.leaves) + " leaves, depth " +
         std::to_string(c.depth);
}

std::string uts_verify(const std::string& name, const UtsCounts& counted) {
  if (name == "custom") return {};
  const UtsCounts& want = uts_named_tree(name).counts;
  if (counted == want) return {};
  return "tree " + name + ": counted " + counts_text(counted) + "; UTS 2.1 publishes " +
         counts_text(want);
}

}  // namespace ht
