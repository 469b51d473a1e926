#include "comm/HT_SquareGrid.hpp"

#include <string>

#include "runtime/HT_Error.hpp"

namespace ht {

int SquareGrid::floor_sqrt(int ranks) {
  int q = 1;
  while ((q + 1) * (q + 1) <= ranks) ++q;
  return q;
}

SquareGrid::SquareGrid(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  q_ = floor_sqrt(size);
  if (q_ * q_ != size) {
    throw UsageError("Cannon's algorithm needs a square number of ranks (q x q); got " +
                     std::to_string(size) + ", the nearest usable counts are " +
                     std::to_string(q_ * q_) + " and " + std::to_string((q_ + 1) * (q_ + 1)));
  }
  int dims[2] = {q_, q_}, periods[2] = {1, 1}, coords[2];
  MPI_Cart_create(comm, 2, dims, periods, /*reorder=*/0, &cart_);
  int rank;
  MPI_Comm_rank(cart_, &rank);
  MPI_Cart_coords(cart_, rank, 2, coords);
  row_ = coords[0];
  col_ = coords[1];
}

SquareGrid::~SquareGrid() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (cart_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&cart_);
}

std::pair<int, int> SquareGrid::shift(Direction dir, int displacement) const {
  int src, dst;
  MPI_Cart_shift(cart_, dir, displacement, &src, &dst);
  return {src, dst};
}

}  // namespace ht
