#include "graph/HT_Bitmap.hpp"

#include <algorithm>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "graph/HT_Csr.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

std::int64_t Bitmap::count() const {
  std::int64_t n = 0;
  for (const Word w : words_) n += count(w);
  return n;
}

void allgather(const Bitmap& mine, const VertexRange& r, Bitmap& all, MPI_Comm comm) {
  if (r.size == 1) {
    std::copy(mine.data(), mine.data() + mine.words(), all.data());
    return;
  }
  std::vector<MPI_Request> req(1);
  if (r.per_rank % 64 == 0) {
    // Blocks of whole words (SCALE >= 6 + log2(ranks) with a power-of-two
    // rank count): MPI places them.
    std::vector<int> counts, displs;
    for (int p = 0; p < r.size; ++p) {
      const VertexRange o = r.of_rank(p);
      counts.push_back(mpi_int(Bitmap::words_for(o.local_count()), "a rank's bitmap words"));
      displs.push_back(o.local_count() > 0
                           ? mpi_int(Bitmap::word_of(o.first()), "a rank's bitmap displacement")
                           : 0);
    }
    std::copy(mine.data(), mine.data() + mine.words(), all.data() + displs[r.rank]);
    mpi::Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), counts.data(), displs.data(),
                     MPI_UINT64_T, comm, &req[0]);
  } else {
    all.clear();
    const std::int64_t first = r.first();
    mine.for_each([&](std::int64_t i) { all.set(first + i); });
    mpi::Iallreduce(MPI_IN_PLACE, all.data(), mpi_int(all.words(), "a bitmap's words"),
                    MPI_UINT64_T, MPI_BOR, comm, &req[0]);
  }
  wait_all(req);
}

}  // namespace ht
