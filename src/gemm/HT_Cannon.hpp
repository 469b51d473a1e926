#pragma once
/// \file HT_Cannon.hpp
/// \brief Cannon's algorithm (L. E. Cannon, "A cellular computer to implement
/// the Kalman filter algorithm", 1969) for C = A * B on a q x q rank grid,
/// with each rank's block product run as Kokkos tasks.
///
/// Initial skew: row r of A moves r blocks left, column c of B moves c blocks
/// up.  Then q steps: C_rc += A * B (tile tasks, when_all), then A moves one
/// block left and B one up.  With overlap, the next step's blocks travel
/// (MPI_Isend/Irecv into a second buffer) while the tasks compute, and the
/// tasks pump MPI progress between tiles.  q = 1 is the "Kokkos tasks only"
/// GEMM of the seed study.
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Grid2D.hpp"
#include "comm/HT_ProgressPump.hpp"
#include "gemm/HT_Matrix.hpp"
#include "profile/HT_Profile.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace ht {

/// \brief How Cannon multiplies: tiles, tasks, overlap, profile.
struct CannonOptions {
  long long tile = 256;        ///< tile edge of the task decomposition
  int tasks = 0;               ///< tasks per rank and step (0: one per tile)
  bool overlap = true;         ///< double-buffered nonblocking shifts
  Profile* profile = nullptr;  ///< per-task, per-step timings (none if null)
};

/// \brief Seconds this rank spent in each phase of one multiplication.
struct CannonTimes {
  double skew = 0;                   ///< initial skew (blocking)
  double compute = 0;                ///< spawning and running the tile tasks
  double comm = 0;                   ///< shifts: blocking time, or (overlap) post-to-complete time
  double wait = 0;                   ///< overlap: time waiting for transfers after computing
  double total = 0;                  ///< the whole multiplication
  std::vector<double> step_compute;  ///< compute seconds of each of the q steps
  /// What this rank asked of MPI in the skew, then in each of the q steps
  /// (its shift to the next step included).
  std::vector<CommCounts> step_comm;
  /// \brief Share of the shift time hidden behind computation (0 without overlap or shifts).
  double hidden() const { return comm > 0 ? 1.0 - wait / comm : 0.0; }
};

/// \brief Cannon's q x q grid for \p ranks ranks; UsageError naming the
/// count and the nearest usable ones unless \p ranks is a square.
GridShape cannon_grid(int ranks);

/// \brief Cannon's algorithm on one grid with blocks of one size.  It owns the
/// receive buffers of the shifts, allocated (and first touched) once: a
/// fresh page costs a fault, ~11 us on the 2-core VM, 20 ms per 8 MB block.
///
/// Example: tests/gemm/tstCannon.cpp.
class Cannon {
 public:
  /// \brief Cannon's algorithm on \p grid (square: cannon_grid()) for
  /// blocks of \p block x \p block doubles.
  Cannon(const Grid2D& grid, TaskRuntime& rt, long long block, const CannonOptions& opt);

  /// \brief C = A * B.  \p a and \p b hold this rank's blocks A_rc and B_rc (the
  /// shifts overwrite them); \p c is overwritten.  Collective over the grid.
  CannonTimes multiply(Block a, Block b, Block c);

 private:
  /// The blocks of one multiplication; a and b trade buffers with their
  /// spares at every shift.
  struct Operands {
    Block a, b, c, a_next, b_next;
  };
  // MPI tags of the A and B shifts: both move between the same ranks when
  // q = 2, so a tag tells them apart.
  static constexpr int kTagA = 1, kTagB = 2;

  void shift(Operands& m, int a_disp, int b_disp) const;
  void skew(Operands& m, CannonTimes& t) const;
  /// Step \p step: C (+)= A * B as tile tasks, and the shift to the next step
  /// (overlapped with the tasks when opt.overlap).
  void step(Operands& m, int step, CannonTimes& t);
  void compute(const Operands& m, int step, ProgressPump* pump);

  const Grid2D& grid_;
  int q_;  // the grid's side
  TaskRuntime& rt_;
  CannonOptions opt_;
  Block a_spare_, b_spare_;          // receive buffers of the shifts
  std::vector<TaskRecord> records_;  // the tile tasks' own, one step at a time
  int multiplies_ = 0;
};

}  // namespace ht
