#include "gemm/HT_Cannon.hpp"

#include <utility>

#include "comm/HT_ProgressPump.hpp"
#include "comm/HT_Wait.hpp"
#include "gemm/HT_TileGemm.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_Phase.hpp"

namespace ht {

namespace {

int count_of(const Block& b) { return static_cast<int>(b.span()); }

// Posts the move of \p b by \p displacement blocks along \p dir into \p spare.
void post_shift(const SquareGrid& g, SquareGrid::Direction dir, int displacement, Block b,
                Block spare, int tag, std::vector<MPI_Request>& r) {
  if (displacement % g.q() == 0) return;
  const auto [src, dst] = g.shift(dir, displacement);
  r.emplace_back();
  MPI_Irecv(spare.data(), count_of(spare), MPI_DOUBLE, src, tag, g.comm(), &r.back());
  r.emplace_back();
  MPI_Isend(b.data(), count_of(b), MPI_DOUBLE, dst, tag, g.comm(), &r.back());
}

// Moves A by \p a_disp blocks along rows and B by \p b_disp along columns, both
// at once (one wait, not two in a row: with more ranks than cores each wait can
// cost a scheduler period).  On return a and b hold the blocks received.
void shift_both(const SquareGrid& g, int a_disp, Block& a, Block& a_spare, int b_disp, Block& b,
                Block& b_spare) {
  std::vector<MPI_Request> r;
  post_shift(g, SquareGrid::along_row, a_disp, a, a_spare, 1, r);
  post_shift(g, SquareGrid::along_column, b_disp, b, b_spare, 2, r);
  wait_all(r);
  if (a_disp % g.q() != 0) std::swap(a, a_spare);
  if (b_disp % g.q() != 0) std::swap(b, b_spare);
}

// Runs the tile tasks of C = beta C + A * B and waits for them.
void compute_step(TaskRuntime& rt, Block a, Block b, Block c, double beta, const CannonOptions& opt,
                  ProgressPump* pump, const TileProfile& prof) {
  Future<void> all = spawn_tile_products(rt, a, b, c, beta, opt.tile, opt.tasks, pump, prof);
  rt.wait();
  if (!all.is_ready()) throw Error("Cannon: tile tasks returned before their when_all was ready");
}

void multiply(const SquareGrid& g, TaskRuntime& rt, Block a, Block b, Block c,
              const CannonOptions& opt, Block a_next, Block b_next, CannonTimes& t,
              TileProfile prof) {
  const int q = g.q();
  {
    Phase p("Cannon: skew", t.skew);
    shift_both(g, -g.row(), a, a_next, -g.col(), b, b_next);
  }

  const auto [a_src, a_dst] = g.shift(SquareGrid::along_row, -1);
  const auto [b_src, b_dst] = g.shift(SquareGrid::along_column, -1);

  for (int step = 0; step < q; ++step) {
    const bool last = step == q - 1;
    const double beta = step == 0 ? 0.0 : 1.0;  // the first step overwrites C
    prof.step = step;
    double compute = 0;
    if (opt.overlap && !last) {
      ProgressPump pump;
      std::vector<MPI_Request> r(4);
      MPI_Irecv(a_next.data(), count_of(a), MPI_DOUBLE, a_src, 1, g.comm(), &r[0]);
      MPI_Irecv(b_next.data(), count_of(b), MPI_DOUBLE, b_src, 2, g.comm(), &r[1]);
      MPI_Isend(a.data(), count_of(a), MPI_DOUBLE, a_dst, 1, g.comm(), &r[2]);
      MPI_Isend(b.data(), count_of(b), MPI_DOUBLE, b_dst, 2, g.comm(), &r[3]);
      pump.start(std::move(r));
      {
        Phase p("Cannon: compute", compute);
        compute_step(rt, a, b, c, beta, opt, &pump, prof);
      }
      {
        double wait = 0;
        Phase p("Cannon: wait", wait);
        t.wait += pump.finish();
      }
      t.comm += pump.duration();
      std::swap(a, a_next);
      std::swap(b, b_next);
    } else {
      {
        Phase p("Cannon: compute", compute);
        compute_step(rt, a, b, c, beta, opt, nullptr, prof);
      }
      if (!last) {
        double shift = 0;
        {
          Phase p("Cannon: shift", shift);
          shift_both(g, -1, a, a_next, -1, b, b_next);
        }
        t.comm += shift;
        t.wait += shift;  // blocking: all of it is exposed
      }
    }
    t.compute += compute;
    t.step_compute.push_back(compute);
  }
}

}  // namespace

Cannon::Cannon(const SquareGrid& grid, TaskRuntime& rt, long long block, const CannonOptions& opt)
    : grid_(grid), rt_(rt), opt_(opt) {
  if (grid.q() > 1) {  // allocated zeroed: first touched here, not in the timed shifts
    a_spare_ = Block("A spare", block, block);
    b_spare_ = Block("B spare", block, block);
  }
}

CannonTimes Cannon::multiply(Block a, Block b, Block c) {
  CannonTimes t;
  {
    Phase whole("Cannon: total", t.total);
    // The locals swap buffers with the spares; the members keep pointing at
    // the spares, never at the caller's blocks.
    ht::multiply(grid_, rt_, a, b, c, opt_, a_spare_, b_spare_, t,
                 TileProfile{opt_.profile, &records_, multiplies_++, 0});
  }
  return t;
}

}  // namespace ht
