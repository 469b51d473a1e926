#include "gemm/HT_Cannon.hpp"

#include <string>
#include <utility>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_ProgressPump.hpp"
#include "comm/HT_Wait.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

int count_of(const Block& b) { return mpi_int(b.span(), "a Cannon block's doubles"); }

// Posts the move of \p b by \p displacement blocks along \p dir into \p spare.
void post_shift(const Grid2D& g, Grid2D::Direction dir, int displacement, Block b, Block spare,
                int tag, std::vector<MPI_Request>& r) {
  if (displacement % (dir == Grid2D::along_row ? g.cols() : g.rows()) == 0) return;
  const auto [src, dst] = g.shift(dir, displacement);
  r.emplace_back();
  MPI_Irecv(spare.data(), count_of(spare), MPI_DOUBLE, src, tag, g.comm(), &r.back());
  r.emplace_back();
  mpi::Isend(b.data(), count_of(b), MPI_DOUBLE, dst, tag, g.comm(), &r.back());
}

}  // namespace

GridShape cannon_grid(int ranks) {
  const GridShape s = most_square_grid(ranks);
  if (s.rows == s.cols) return s;
  int below = 1;  // the largest q with q q < ranks
  while ((below + 1) * (below + 1) < ranks) ++below;
  throw UsageError("Cannon's algorithm needs a square number of ranks (q x q); got " +
                   std::to_string(ranks) + ", the nearest usable counts are " +
                   std::to_string(below * below) + " and " +
                   std::to_string((below + 1) * (below + 1)));
}

// Moves A by \p a_disp blocks along rows and B by \p b_disp along columns,
// both at once (one wait, not two in a row: with more ranks than cores each
// wait can cost a scheduler period).  On return m.a and m.b hold the blocks
// received.
void Cannon::shift(Operands& m, int a_disp, int b_disp) const {
  std::vector<MPI_Request> r;
  post_shift(grid_, Grid2D::along_row, a_disp, m.a, m.a_next, kTagA, r);
  post_shift(grid_, Grid2D::along_column, b_disp, m.b, m.b_next, kTagB, r);
  wait_all(r);
  if (a_disp % q_ != 0) std::swap(m.a, m.a_next);
  if (b_disp % q_ != 0) std::swap(m.b, m.b_next);
}

void Cannon::skew(Operands& m, CannonTimes& t) const {
  Phase p("Cannon: skew", t.skew);
  shift(m, -grid_.row(), -grid_.col());
}

void Cannon::compute(const Operands& m, int step, ProgressPump* pump) {
  const double beta = step == 0 ? 0.0 : 1.0;  // the first step overwrites C
  const TileProfile prof{opt_.profile, &records_, multiplies_, step};
  Future<void> all =
      spawn_tile_products(rt_, m.a, m.b, m.c, beta, opt_.tile, opt_.tasks, pump, prof);
  rt_.wait();
  if (!all.is_ready()) throw Error("Cannon: tile tasks returned before their when_all was ready");
}

void Cannon::step(Operands& m, int step, CannonTimes& t) {
  const bool last = step == q_ - 1;
  double seconds = 0;
  if (opt_.overlap && !last) {
    // The next step's blocks travel while this step's tiles compute; the
    // tasks pump MPI progress between tiles.
    const auto [a_src, a_dst] = grid_.shift(Grid2D::along_row, -1);
    const auto [b_src, b_dst] = grid_.shift(Grid2D::along_column, -1);
    ProgressPump pump;
    {
      Region posted("Cannon: shift");  // completed by the tasks' pumps and finish()
      std::vector<MPI_Request> r(4);
      MPI_Irecv(m.a_next.data(), count_of(m.a), MPI_DOUBLE, a_src, kTagA, grid_.comm(), &r[0]);
      MPI_Irecv(m.b_next.data(), count_of(m.b), MPI_DOUBLE, b_src, kTagB, grid_.comm(), &r[1]);
      mpi::Isend(m.a.data(), count_of(m.a), MPI_DOUBLE, a_dst, kTagA, grid_.comm(), &r[2]);
      mpi::Isend(m.b.data(), count_of(m.b), MPI_DOUBLE, b_dst, kTagB, grid_.comm(), &r[3]);
      pump.start(std::move(r));
    }
    {
      Phase p("Cannon: compute", seconds);
      compute(m, step, &pump);
    }
    {
      Region r("Cannon: wait");
      t.wait += pump.finish();
    }
    t.comm += pump.duration();
    std::swap(m.a, m.a_next);
    std::swap(m.b, m.b_next);
  } else {
    {
      Phase p("Cannon: compute", seconds);
      compute(m, step, nullptr);
    }
    if (!last) {
      double shifted = 0;
      {
        Phase p("Cannon: shift", shifted);
        shift(m, -1, -1);
      }
      t.comm += shifted;
      t.wait += shifted;  // blocking: all of it is exposed
    }
  }
  t.compute += seconds;
  t.step_compute.push_back(seconds);
}

Cannon::Cannon(const Grid2D& grid, TaskRuntime& rt, long long block, const CannonOptions& opt)
    : grid_(grid), q_(grid.rows()), rt_(rt), opt_(opt) {
  if (grid.rows() != grid.cols() || grid.spares() > 0)
    throw Error("Cannon: a " + grid.shape().name() + " grid" +
                (grid.spares() ? " and " + std::to_string(grid.spares()) + " spare ranks" : "") +
                "; the algorithm needs a square one of every rank");
  if (q_ > 1) {  // allocated zeroed: first touched here, not in the timed shifts
    a_spare_ = Block("A spare", block, block);
    b_spare_ = Block("B spare", block, block);
  }
}

CannonTimes Cannon::multiply(Block a, Block b, Block c) {
  CannonTimes t;
  {
    Phase whole("Cannon: total", t.total);
    // The operands swap buffers with the spares; the members keep pointing
    // at the spares, never at the caller's blocks.
    Operands m{a, b, c, a_spare_, b_spare_};
    CommSteps steps(t.step_comm);
    skew(m, t);
    steps.mark();
    for (int s = 0; s < q_; ++s) {
      step(m, s, t);
      steps.mark();
    }
  }
  ++multiplies_;
  return t;
}

}  // namespace ht
