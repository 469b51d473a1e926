#pragma once
/// \file HT_Validate.hpp
/// \brief A validator's verdict, the same for both Graph500 search kernels:
/// bfs/HT_BfsValidate (kernel 2) and sssp/HT_SsspValidate (kernel 3) check a
/// search's parents (and distances) independently of the search, distributed
/// by the owners of the vertices; impl/HT_TreeCheck holds what they share.
#include <cstdint>
#include <string>
#include <vector>

namespace ht {

struct Validation {
  enum Check { root = 1, tree = 2, tree_edge = 4, reach = 8, levels = 16, distances = 32 };
  int failed = 0;                   ///< bitwise or of the failed checks, over all ranks
  std::string what;                 ///< the first failure, with a vertex that shows it
  std::vector<std::int32_t> level;  ///< level per local vertex, -1 unreached
  int depth = 0;                    ///< deepest level + 1
  bool ok() const { return failed == 0; }
};

}  // namespace ht
