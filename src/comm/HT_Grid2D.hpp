#pragma once
/// \file HT_Grid2D.hpp
/// \brief An R x C grid of the ranks of a communicator, with its row and
/// column sub-communicators and periodic shifts along a row or a column:
/// the 2D partition's grid (graph/HT_Csr2D.hpp) and Cannon's q x q one
/// (gemm/HT_Cannon.hpp).  Also the shapes a rank count allows.
///
/// Rank r < R C of the communicator sits at row r / C, column r % C
/// (row-major), so grid row i holds ranks [i C, (i + 1) C).  row_comm()
/// holds the C ranks of this rank's grid row (its rank there is col()),
/// col_comm() the R ranks of its grid column (its rank there is row()).
/// Ranks from R C on are spare: in comm(), in no row or column.
///
/// A rank of an R x C grid talks to R + C - 2 peers (its row and its column),
/// holds 1/R + 1/C of a vector split by rows and by columns (a 2D BFS's
/// frontier bitmaps) and 1/(R C) of the graph.  A grid is balanced on P
/// ranks when from 4 ranks on it has at least 2 rows (never 1 x P) and its
/// peers, share and graph are each at most twice those of the square grid
/// q x q nearest to P (q = P's square root, rounded).  balanced_grid(P), the
/// rule of `Graph500/partition: auto`: below 4 ranks the most square grid
/// (1 x 2, 1 x 3: there is no other), from 4 on the most square grid of P
/// ranks where balanced, else none (auto takes 1D): on 4 to 64 ranks none
/// for 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 58 (2 x 29), 59,
/// 61 and 62 (2 x 31); e.g. 14 -> 2 x 7, 18 -> 3 x 6.  auto_grid(P), the
/// rule of `Graph500/grid: auto`: balanced_grid(P), else the most square
/// grid of the most ranks n < P balanced on P, the other P - n ranks spare
/// (5 -> 2 x 2, 7 -> 2 x 3, 13 -> 3 x 4, 58 -> 3 x 19).  One exists for
/// every P: (q - 1) x q, on fewer than P ranks, is balanced from 7 on.
///
/// Examples: src/gemm/HT_Cannon.cpp (shift), tests/comm/tstGrid2D.cpp.
#include <mpi.h>

#include <optional>
#include <string>
#include <utility>

namespace ht {

/// \brief An R x C shape of a grid of ranks.
struct GridShape {
  int rows = 1, cols = 1;
  /// \brief "RxC".
  std::string name() const { return std::to_string(rows) + "x" + std::to_string(cols); }
  /// \brief The ranks the grid holds: R C.
  int ranks() const { return rows * cols; }
  /// \brief The ranks a rank exchanges with along its row and its column: R + C - 2.
  int peers() const { return rows + cols - 2; }
  /// \brief The share of a vector a rank holds by its row block and its
  /// column block: 1/R + 1/C.
  double share() const { return 1.0 / rows + 1.0 / cols; }
  /// \brief The share of the graph a rank of the grid holds: 1/(R C).
  double block() const { return 1.0 / ranks(); }
};

/// \brief The most square R x C = \p ranks with R <= C (1 x P for a prime P).
GridShape most_square_grid(int ranks);

/// \brief The square grid q x q whose q q is nearest to \p ranks.
GridShape nearest_square_grid(int ranks);

/// \brief Whether \p s (R C <= \p ranks) is balanced on \p ranks ranks
/// (the file comment's rule).
bool balanced_on(const GridShape& s, int ranks);

/// \brief most_square_grid(\p ranks) where it is balanced, or below 4
/// ranks; else none (the file comment's rule).
std::optional<GridShape> balanced_grid(int ranks);

/// \brief balanced_grid(\p ranks), else the most square grid of the most
/// ranks fewer than \p ranks that is balanced on \p ranks (the others
/// spare; the file comment's rule).
GridShape auto_grid(int ranks);

/// \brief "" when \p s holds all \p ranks ranks, else which are spare:
/// "rank 6 spare", "ranks 10 to 12 spare".
std::string spare_ranks(const GridShape& s, int ranks);

/// \brief A grid value read from a deck for \p ranks ranks: "auto"
/// (auto_grid) or "RxC" with R, C >= 1 and R C <= \p ranks (the ranks
/// from R C on spare); UsageError naming \p key, the value and what is
/// accepted (for a grid that does not fit, both rank counts).
GridShape parse_grid(const std::string& key, const std::string& value, int ranks);

/// \brief A grid of the ranks of a communicator and its row and column
/// sub-communicators (collective to build and to free).
class Grid2D {
 public:
  /// \brief The dimension a shift moves along.
  enum Direction { along_row, along_column };

  /// \brief \p shape must fit in the ranks of \p comm, R C at most its
  /// size (UsageError naming both counts otherwise); ranks from R C on are
  /// spare.
  Grid2D(MPI_Comm comm, GridShape shape);
  ~Grid2D();
  Grid2D(const Grid2D&) = delete;
  Grid2D& operator=(const Grid2D&) = delete;

  /// \brief R, the grid's rows.
  int rows() const { return shape_.rows; }
  /// \brief C, the grid's columns.
  int cols() const { return shape_.cols; }
  /// \brief This rank's grid row (-1 on a spare rank).
  int row() const { return row_; }
  /// \brief This rank's grid column (-1 on a spare rank).
  int col() const { return col_; }
  /// \brief Whether this rank is spare: in no grid row or column.
  bool spare() const { return row_ < 0; }
  /// \brief The spare ranks: comm()'s size less R C.
  int spares() const { return spares_; }
  /// \brief The rank at grid row \p i, column \p j in comm().
  int rank_of(int i, int j) const { return i * shape_.cols + j; }
  /// \brief R x C.
  const GridShape& shape() const { return shape_; }
  /// \brief The whole grid's communicator: the ranks it was built from, in
  /// their order, in a communicator of its own (its messages meet no other's).
  MPI_Comm comm() const { return comm_; }
  /// \brief The C ranks of this rank's grid row, ranked by column
  /// (MPI_COMM_NULL on a spare rank).
  MPI_Comm row_comm() const { return row_comm_; }
  /// \brief The R ranks of this rank's grid column, ranked by row
  /// (MPI_COMM_NULL on a spare rank).
  MPI_Comm col_comm() const { return col_comm_; }
  /// \brief {source, destination} in comm() for moving data by
  /// \p displacement places along \p dir, wrapping around (negative: towards
  /// lower column or row indices), as MPI_Cart_shift on a periodic grid
  /// (a rank of the grid).
  std::pair<int, int> shift(Direction dir, int displacement) const;

 private:
  GridShape shape_;
  int row_ = 0, col_ = 0, spares_ = 0;
  MPI_Comm comm_ = MPI_COMM_NULL, row_comm_ = MPI_COMM_NULL, col_comm_ = MPI_COMM_NULL;
};

}  // namespace ht
