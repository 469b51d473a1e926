#pragma once
/// \file HT_Grid2D.hpp
/// \brief The R x C grid of ranks of the 2D partition (HT_Csr2D.hpp), with
/// its row and column sub-communicators, and the deck's grid shapes.
///
/// Rank r of the communicator sits at row r / C, column r % C (row-major),
/// so grid row i holds ranks [i C, (i + 1) C): the 1D vertex blocks of those
/// ranks make one contiguous row block of the adjacency.  row_comm() holds
/// the C ranks of this rank's grid row (its rank there is col()),
/// col_comm() the R ranks of its grid column (its rank there is row()).
///
/// Example:
/// \code
///   const ht::GridShape s = ht::parse_grid("auto", 8);  // 2 x 4
///   ht::Grid2D grid(MPI_COMM_WORLD, s);                 // UsageError unless 8 ranks
///   MPI_Comm fold = grid.row_comm(), expand = grid.col_comm();
/// \endcode
#include <mpi.h>

#include <string>

namespace ht {

/// \brief An R x C shape of a grid of ranks.
struct GridShape {
  int rows = 1, cols = 1;
  /// \brief "RxC".
  std::string name() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

/// \brief The most square R x C = \p ranks with R <= C.
GridShape square_grid(int ranks);

/// \brief The deck's Graph500/grid for \p ranks ranks: "auto" (square_grid)
/// or "RxC" with R, C >= 1 and R C = \p ranks; UsageError naming the key,
/// the value and what is accepted (for a grid that does not fit, both rank
/// counts).
GridShape parse_grid(const std::string& value, int ranks);

/// \brief A grid of the ranks of a communicator and its row and column
/// sub-communicators (collective to build and to free).
class Grid2D {
 public:
  /// \p shape must hold exactly the ranks of \p comm (UsageError otherwise).
  Grid2D(MPI_Comm comm, GridShape shape);
  ~Grid2D();
  Grid2D(const Grid2D&) = delete;
  Grid2D& operator=(const Grid2D&) = delete;

  /// \brief R, the grid's rows, and C, its columns.
  int rows() const { return shape_.rows; }
  int cols() const { return shape_.cols; }
  /// \brief This rank's grid row and column.
  int row() const { return row_; }
  int col() const { return col_; }
  /// \brief The rank at grid row \p i, column \p j in comm().
  int rank_of(int i, int j) const { return i * shape_.cols + j; }
  const GridShape& shape() const { return shape_; }
  /// \brief The whole grid's communicator (the one it was built from).
  MPI_Comm comm() const { return comm_; }
  /// \brief The C ranks of this rank's grid row, ranked by column.
  MPI_Comm row_comm() const { return row_comm_; }
  /// \brief The R ranks of this rank's grid column, ranked by row.
  MPI_Comm col_comm() const { return col_comm_; }

 private:
  GridShape shape_;
  int row_ = 0, col_ = 0;
  MPI_Comm comm_ = MPI_COMM_NULL, row_comm_ = MPI_COMM_NULL, col_comm_ = MPI_COMM_NULL;
};

}  // namespace ht
