#include "graph/HT_BlockOffsets.hpp"

#include <limits>
#include <string>

#include "runtime/HT_Error.hpp"

namespace ht {

void BlockOffsets::rank_slots() {
  before_.resize(nonempty_.words());
  std::int64_t n = 0;
  for (std::size_t w = 0; w < nonempty_.words(); ++w) {
    before_[w] = static_cast<std::uint32_t>(n);
    n += Bitmap::count(nonempty_.word(w));
    // The counts are 32-bit to keep a slot at 1.5 bits.
    if (n > std::numeric_limits<std::uint32_t>::max())
      throw Error("2D partition: " + std::to_string(n) +
                  " non-empty rows in one block exceed 2^32; use more ranks");
  }
  offsets_.assign(static_cast<std::size_t>(n + 1), 0);
}

void BlockOffsets::sum_counts() {
  for (std::size_t k = 1; k < offsets_.size(); ++k) offsets_[k] += offsets_[k - 1];
}

}  // namespace ht
