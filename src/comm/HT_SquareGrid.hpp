#pragma once
/// \file HT_SquareGrid.hpp
/// \brief A periodic q x q Cartesian grid of ranks (Cannon's algorithm).
///
/// Example:
/// \code
///   ht::SquareGrid g(MPI_COMM_WORLD);        // 4 ranks -> q = 2
///   auto [src, dst] = g.shift(ht::SquareGrid::along_row, -1);   // left neighbour
/// \endcode
#include <mpi.h>

#include <utility>

namespace ht {

class SquareGrid {
 public:
  enum Direction { along_row = 1, along_column = 0 };

  /// Throws UsageError (naming the nearest usable counts) unless the size of
  /// \p comm is a perfect square.
  explicit SquareGrid(MPI_Comm comm);
  ~SquareGrid();
  SquareGrid(const SquareGrid&) = delete;
  SquareGrid& operator=(const SquareGrid&) = delete;

  int q() const { return q_; }
  int row() const { return row_; }
  int col() const { return col_; }
  MPI_Comm comm() const { return cart_; }

  /// {source, destination} for moving data by \p displacement along \p dir
  /// (negative: towards lower column/row index), as MPI_Cart_shift.
  std::pair<int, int> shift(Direction dir, int displacement) const;

  /// Largest q with q*q <= ranks.
  static int floor_sqrt(int ranks);

 private:
  int q_ = 1, row_ = 0, col_ = 0;
  MPI_Comm cart_ = MPI_COMM_NULL;
};

}  // namespace ht
