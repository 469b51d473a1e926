#include "graph/sssp/HT_SsspValidate.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_UnorderedMap.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "comm/HT_Wait.hpp"
#include "graph/HT_Bitmap.hpp"
#include "graph/impl/HT_TreeCheck.hpp"
#include "graph/sssp/impl/HT_SsspState.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

using namespace impl;

namespace {

std::string text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", x);
  return std::string(b);
}

// The distances of this rank's edges' distinct remote ends (the tail of
// each row, Csr::split), from their owners: a request step (vertex, asking
// rank) and an answer step (vertex, distance bits).  In a Kokkos
// UnorderedMap filled by every worker, grown and refilled when full (its
// documented use): a std::unordered_map's node per entry made this the most
// of a validation.  Memory: about 24 bytes per distinct remote neighbour.
// An entry says whether its answer arrived: a missing one is a failure, never
// a distance of 0.
struct Far {
  float d = 0.0f;
  std::uint32_t arrived = 0;
};
using FarMap = Kokkos::UnorderedMap<std::int64_t, Far, Kokkos::DefaultHostExecutionSpace>;

// A vertex's distance by sssp_reach: its own when reached, +inf when
// unreached, NaN when its pair is invalid (which its owner's vertex pass
// reports, so edge checks skip it).  Remote ends arrive as this.
float seen_distance(std::int64_t parent, float dist) {
  switch (sssp_reach(parent, dist)) {
    case Reach::reached:
      return dist;
    case Reach::unreached:
      return std::numeric_limits<float>::infinity();
    default:
      return std::numeric_limits<float>::quiet_NaN();
  }
}

FarMap remote_distances(const Csr& g, const std::vector<std::int64_t>& pred,
                        const std::vector<float>& dist, Exchange& ex, int& phase) {
  const VertexRange& r = g.range;
  using Host = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>;
  const std::int64_t n = r.local_count();
  std::int64_t remote_edges = 0;
  for (std::int64_t i = 0; i < n; ++i) remote_edges += g.offsets[i + 1] - g.local_end(i);
  // Distinct remote ends: at most every other vertex, most often far fewer
  // than the edges to them; a 32-bit capacity (the map's) to start with.
  const std::int64_t most = std::numeric_limits<std::uint32_t>::max();
  FarMap far(static_cast<std::uint32_t>(
      std::clamp<std::int64_t>(std::min(remote_edges / 4, r.n_global - n), 16, most)));
  g.targets.visit([&](const auto* const targets) {
    const Csr* const graph = &g;
    for (;;) {
      Kokkos::parallel_for("ht::validate_sssp::remote_ends", Host(0, n), [=](std::int64_t i) {
        for (std::int64_t k = graph->local_end(i); k < graph->offsets[i + 1]; ++k)
          far.insert(static_cast<std::int64_t>(targets[k]), Far{});
      });
      Kokkos::fence();
      if (!far.failed_insert()) break;
      far.rehash(checked_count<std::uint32_t>(2 * std::uint64_t{far.capacity()},
                                              "remote ends' map capacity"));
    }
  });
  // Item values: the asking rank, then the owner's distance as float bits.
  std::vector<Exchange::Item> asked;
  {
    const Exchange::Handler ask = [&](const Exchange::Item* it, std::size_t k) {
      asked.insert(asked.end(), it, it + k);
    };
    Step step(ex, phase, r, ask);
    for (std::uint32_t i = 0; i < far.capacity(); ++i)
      if (far.valid_at(i)) step.send(r.owner(far.key_at(i)), {far.key_at(i), r.rank});
    step.finish();
  }
  const Exchange::Handler answer = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::uint32_t at = far.find(it[j].vertex);
      if (!far.valid_at(at))
        throw Error("SSSP validation: rank " + std::to_string(r.owner(it[j].vertex)) +
                    " answered for vertex " + std::to_string(it[j].vertex) + ", never asked");
      far.value_at(at) = Far{bits_float(static_cast<std::uint32_t>(it[j].value)), 1};
    }
  };
  Step step(ex, phase, r, answer);
  for (const Exchange::Item& a : asked) {
    const std::int64_t i = r.local(a.vertex);
    step.send(static_cast<int>(a.value),
              {a.vertex, static_cast<std::int64_t>(float_bits(seen_distance(pred[i], dist[i])))});
  }
  step.finish();
  return far;
}

// A vertex's distance as this rank knows it: its own, or a remote end's
// answer, which by the rule may be missing.
class Distances {
 public:
  struct Known {
    float d;
    bool known;
  };
  Distances(const VertexRange& r, const std::vector<float>& dist, FarMap far)
      : r_(r), dist_(dist), far_(std::move(far)) {}
  Known operator()(std::int64_t v) const {
    // A local vertex's raw distance: an invalid pair's owner fails it in the
    // vertex pass whatever else reads it.
    if (r_.mine(v)) return {dist_[r_.local(v)], true};
    const std::uint32_t at = far_.find(v);
    if (!far_.valid_at(at)) return {0.0f, false};
    const Far f = far_.value_at(at);
    return {f.d, f.arrived != 0};
  }
  std::string never_arrived(std::int64_t w, std::int64_t v) const {
    return "check 5 (distances): the distance of vertex " + std::to_string(w) +
           ", a neighbour of " + std::to_string(v) + ", never arrived from its owner, rank " +
           std::to_string(r_.owner(w));
  }

 private:
  const VertexRange& r_;
  const std::vector<float>& dist_;
  FarMap far_;
};

// Check 1: the key is its own parent, at distance 0.
void check_root(const VertexRange& r, std::int64_t key, const std::vector<std::int64_t>& pred,
                const std::vector<float>& dist, Validation& res, std::string& first) {
  if (!r.mine(key) || (pred[r.local(key)] == key && dist[r.local(key)] == 0.0f)) return;
  failure_recorder(res, first)(Validation::root, "check 1 (root): key " + std::to_string(key) +
                                                     " has parent " +
                                                     std::to_string(pred[r.local(key)]) +
                                                     " and distance " + text(dist[r.local(key)]));
}

// What the edges between a vertex and its parent say (check 3): whether the
// parent's distance is known, what it is, whether some copy joins them and
// some copy's weight is the difference exactly, and the lightest copy.
struct ParentEdge {
  bool known = false;
  float dp = 0.0f;
  bool joined = false, confirmed = false;
  float lightest = std::numeric_limits<float>::infinity();
};

// Checks 2 to 4 on each vertex: a valid pair, a tree leading to the key, and
// some copy of the edge to the parent confirming the distance exactly, as
// \p parent_edge(i, p, d(v)) (a ParentEdge) tells; \p never_arrived(p, v),
// the message where the parent's distance is not known.
template <class ParentEdgeOf, class NeverArrived>
void check_vertices(const VertexRange& r, const std::vector<std::int64_t>& pred,
                    const std::vector<float>& dist, const std::vector<std::int32_t>& level,
                    Validation& res, std::string& first, const ParentEdgeOf& parent_edge,
                    const NeverArrived& never_arrived) {
  check_rows("ht::validate_sssp::vertices", r.local_count(), res, first,
             [&](std::int64_t i, const auto& fail) {
               const std::int64_t v = r.global(i), p = pred[i];
               const float dv = dist[i];
               const Reach state = sssp_reach(p, dv);
               if (state == Reach::invalid) {
                 fail(Validation::reach,
                      "check 4 (reach): vertex " + std::to_string(v) + " has parent " +
                          std::to_string(p) + " and distance " + text(dv) +
                          " (reached: a parent and a finite distance >= 0; unreached: " +
                          "parent -1 and distance inf)");
                 return;
               }
               if (state == Reach::reached && level[i] < 0) {
                 fail(Validation::tree,
                      "check 2 (tree): parents from vertex " + std::to_string(v) +
                          " do not lead to the key (cycle, other root or unreached parent)");
                 return;
               }
               if (level[i] <= 0) return;  // unreached, or the key
               const ParentEdge e = parent_edge(i, p, dv);
               if (!e.known) {
                 fail(Validation::distances, never_arrived(p, v));
               } else if (!e.joined) {
                 fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) +
                                                 " has parent " + std::to_string(p) +
                                                 " but no edge to it");
               } else if (!e.confirmed) {
                 fail(Validation::tree_edge,
                      "check 3 (tree edge): " + std::to_string(v) + " at distance " + text(dv) +
                          " has parent " + std::to_string(p) + " at " + text(e.dp) +
                          ", but no edge between them weighs the difference (the lightest "
                          "weighs " +
                          text(e.lightest) + ")");
               }
             });
}

// Checks 4 and 5 on edge {v, w} of weight wt, its ends at distances dv (a
// valid pair's) and dw; \p invalid() whether w's pair is invalid, asked
// before a failure is recorded (its owner's vertex pass fails it).
template <class Invalid, class Fail>
void check_edge(std::int64_t v, std::int64_t w, float dv, float dw, float wt,
                const Invalid& invalid, const Fail& fail) {
  if (std::isfinite(dv) != std::isfinite(dw)) {
    if (invalid()) return;
    // Finite weights can still sum past the largest float: say so.
    const float near = std::isfinite(dv) ? dv : dw;
    fail(Validation::reach,
         "check 4 (reach): edge {" + std::to_string(v) + ", " + std::to_string(w) +
             "} has one end in the tree and one out" +
             (std::isinf(near + wt)
                  ? " (distance " + text(near) + " plus weight " + text(wt) + " overflows a float)"
                  : ""));
  } else if (std::isfinite(dv) && (dv > dw + wt || dw > dv + wt)) {
    if (invalid()) return;
    fail(Validation::distances, "check 5 (distances): edge {" + std::to_string(v) + ", " +
                                    std::to_string(w) + "} of weight " + text(wt) +
                                    " joins distances " + text(dv) + " and " + text(dw));
  }
}

// Checks 4 and 5 on every stored edge, both ways (each input edge is stored
// twice, once per end, so each end's owner checks it too).  A row's local
// ends first, its remote ones after (Csr::split): no owner test per edge.
void check_edges(const Csr& g, const std::vector<std::int64_t>& pred,
                 const std::vector<float>& dist, const Distances& distance, Validation& res,
                 std::string& first) {
  const VertexRange& r = g.range;
  const auto seen = [&](std::int64_t i) { return seen_distance(pred[i], dist[i]); };
  check_rows("ht::validate_sssp::edges", r.local_count(), res, first,
             [&](std::int64_t i, const auto& fail) {
               const std::int64_t v = r.global(i), split = g.local_end(i);
               const float dv = seen(i);
               if (std::isnan(dv)) return;  // invalid: the vertex pass fails it
               for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
                 const std::int64_t w = g.targets[k];
                 if (w == v) continue;
                 // A local end's raw distance is what the rule reads for a
                 // valid pair; an invalid end (NaN by the rule) is skipped
                 // before a failure is recorded, so reading its parent waits
                 // for one.  Its owner's vertex pass fails it.
                 const Distances::Known dw =
                     k < split ? Distances::Known{dist[r.local(w)], true} : distance(w);
                 const auto invalid = [&] {
                   return std::isnan(k < split ? seen(r.local(w)) : dw.d);
                 };
                 if (!dw.known)
                   fail(Validation::distances, distance.never_arrived(w, v));
                 else
                   check_edge(v, w, dv, dw.d, g.weights[k], invalid, fail);
               }
             });
}

}  // namespace

Validation validate_sssp(const Csr& g, std::int64_t key, const std::vector<std::int64_t>& pred,
                         const std::vector<float>& dist, MPI_Comm comm) {
  const VertexRange& r = g.range;
  if (!on_every_rank(g.split_rows(), comm))
    throw UsageError("SSSP validation needs each row's local targets first (Csr::split)");
  TreeCheck check(g, key, pred, comm);
  const Distances distance(r, dist, remote_distances(g, pred, dist, check.ex, check.phase));
  Validation res;
  std::string first;  // the first failure's message, this rank
  check_root(r, key, pred, dist, res, first);
  const std::int64_t n = r.local_count();
  res.level.assign(n, kUnreached);
  std::int32_t deepest = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    res.level[i] = check.level[i] < 0 ? kUnreached : check.level[i];
    deepest = std::max(deepest, check.level[i]);
  }
  // The checks on every worker (they are most of a validation).
  check_vertices(
      r, pred, dist, check.level, res, first,
      [&](std::int64_t i, std::int64_t p, float dv) {
        ParentEdge e;
        const Distances::Known dp = distance(p);
        if (!(e.known = dp.known)) return e;
        e.dp = dp.d;
        for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
          if (g.targets[k] != p) continue;
          e.joined = true;
          e.lightest = std::min(e.lightest, g.weights[k]);
          e.confirmed = e.confirmed || dv == dp.d + g.weights[k];
        }
        return e;
      },
      [&](std::int64_t p, std::int64_t v) { return distance.never_arrived(p, v); });
  check_edges(g, pred, dist, distance, res, first);
  agree(res, first, deepest, r, comm);
  return res;
}

namespace {

// The distance of each vertex's parent by the rule (NaN where the parent's
// pair is invalid), from the parent's owner, for the vertices below the key
// in the tree (\p arrived marks each answer): a request step (parent,
// child) and an answer step (child, the parent's distance bits).
std::vector<float> parent_distances(const VertexRange& r, const std::vector<std::int64_t>& pred,
                                    const std::vector<float>& dist,
                                    const std::vector<std::int32_t>& level, TreeCheck& check,
                                    Bitmap& arrived) {
  const std::int64_t n = r.local_count();
  std::vector<float> pd(static_cast<std::size_t>(n), std::numeric_limits<float>::quiet_NaN());
  std::vector<Exchange::Item> asked;
  {
    const Exchange::Handler ask = [&](const Exchange::Item* it, std::size_t k) {
      asked.insert(asked.end(), it, it + k);
    };
    Step step(check.ex, check.phase, r, ask);
    for (std::int64_t i = 0; i < n; ++i)
      if (level[i] > 0) step.send(r.owner(pred[i]), {pred[i], r.global(i)});
    step.finish();
  }
  const Exchange::Handler answer = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t i = r.local(it[j].vertex);
      pd[i] = bits_float(static_cast<std::uint32_t>(it[j].value));
      arrived.set(i);
    }
  };
  Step step(check.ex, check.phase, r, answer);
  for (const Exchange::Item& a : asked) {
    const std::int64_t p = r.local(a.vertex);
    step.send(r.owner(a.value),
              {a.value, static_cast<std::int64_t>(float_bits(seen_distance(pred[p], dist[p])))});
  }
  step.finish();
  return pd;
}

// An entry (v, u) on its way to u's owner: both ids (< 2^32, SSSP's bound;
// v < u, so the word is never the exchange's marker, -1), v's distance by
// the rule and the weight.
Exchange::Item edge_item(std::int64_t v, std::int64_t u, float dv, float w) {
  return {static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << 32 |
                                    static_cast<std::uint64_t>(u)),
          static_cast<std::int64_t>(std::uint64_t{float_bits(dv)} << 32 | float_bits(w))};
}

// One piece of the row block at a time, from its owner, a rank of this
// grid row: its vertices' parents, distances and parents' distances, and
// what this rank's rows of it say of check 3.
struct RowPiece {
  std::vector<std::int64_t> pred;
  std::vector<float> dist, pd, light;
  Bitmap found, fits;  // an edge to the parent; one weighing the difference
  explicit RowPiece(std::int64_t per_rank)
      : pred(static_cast<std::size_t>(per_rank)),
        dist(pred.size()),
        pd(pred.size()),
        light(pred.size()),
        found(per_rank),
        fits(per_rank) {}

  // Piece t's m vertices from its owner (collective over the grid row; the
  // owner passes its own arrays).
  void receive(const Csr2D& b, const Grid2D& grid, int t, std::int64_t m,
               const std::vector<std::int64_t>& own_pred, const std::vector<float>& own_dist,
               const std::vector<float>& own_pd) {
    if (t == b.col) {
      std::copy(own_pred.begin(), own_pred.end(), pred.begin());
      std::copy(own_dist.begin(), own_dist.end(), dist.begin());
      std::copy(own_pd.begin(), own_pd.end(), pd.begin());
    }
    const int count = mpi_int(m, "a piece's vertices");
    mpi::Bcast(pred.data(), count, MPI_INT64_T, t, grid.row_comm());
    mpi::Bcast(dist.data(), count, MPI_FLOAT, t, grid.row_comm());
    mpi::Bcast(pd.data(), count, MPI_FLOAT, t, grid.row_comm());
  }

  // What the grid row's ranks found of piece t's m vertices, to its owner
  // (collective over the grid row): an edge to the parent, one weighing the
  // difference, the lightest.
  void tell_owner(const Grid2D& grid, int t, std::int64_t m, Bitmap& joined, Bitmap& confirmed,
                  std::vector<float>& lightest) const {
    const int words = mpi_int(Bitmap::words_for(m), "a piece's bitmap words");
    mpi::Reduce(found.data(), joined.data(), words, MPI_UINT64_T, MPI_BOR, t, grid.row_comm());
    mpi::Reduce(fits.data(), confirmed.data(), words, MPI_UINT64_T, MPI_BOR, t, grid.row_comm());
    mpi::Reduce(light.data(), lightest.data(), mpi_int(m, "a piece's vertices"), MPI_FLOAT, MPI_MIN,
                t, grid.row_comm());
  }

  // Check 3 on this rank's rows of piece t: each vertex whose parent lies in
  // this column block, its row's copies of the edge to it.
  void find_parents(const Csr2D& b, int t, std::int64_t m) {
    found.clear();
    fits.clear();
    std::fill(light.begin(), light.end(), std::numeric_limits<float>::infinity());
    for (std::int64_t o = 0; o < m; ++o) {
      const std::int64_t p = pred[o];
      if (p < 0 || p >= b.range.n_global || b.range.owner(p) % b.shape.cols != b.col) continue;
      const BlockOffsets::Range e = b.row_offsets[t * b.piece_bits + o];
      const auto c = static_cast<BlockIndex>(b.col_index(p));
      for (std::int64_t k = e.begin; k < e.end; ++k) {
        if (b.row_targets[k] != c) continue;
        const float w = b.row_weights[k];
        found.set(o);
        light[o] = std::min(light[o], w);
        if (dist[o] == pd[o] + w) fits.set(o);
      }
    }
  }
};

}  // namespace

Validation validate_sssp(const Csr2D& b, const Grid2D& grid, std::int64_t key,
                         const std::vector<std::int64_t>& pred, const std::vector<float>& dist,
                         MPI_Comm comm) {
  const VertexRange& r = b.range;
  if (!on_every_rank(b.row_weights.size() == b.row_targets.size(), comm))
    throw UsageError("SSSP validation needs the edges' weights: the 2D block has none");
  if (r.n_global > (std::int64_t(1) << 32))
    throw UsageError("SSSP validation on the 2D block: at most 2^32 vertices, not " +
                     std::to_string(r.n_global));
  Csr frame;  // tree_levels reads a graph's range only
  frame.range = r;
  TreeCheck check(frame, key, pred, comm);
  const std::vector<std::int32_t>& level = check.level;
  const std::int64_t n = r.local_count();
  Bitmap arrived(n);
  const std::vector<float> pd = parent_distances(r, pred, dist, level, check, arrived);
  const auto seen = [&](std::int64_t i) { return seen_distance(pred[i], dist[i]); };

  // The row block's pieces in turn, each with its parents, distances and
  // parents' distances from its owner, a rank of this grid row.  Check 3 by
  // the rows: the holder of row v whose column block has v's parent looks
  // for the edge and its weight, and the piece's owner learns what it found
  // (bitwise ors and a min along the row).  Checks 4 and 5 by the entries:
  // each (v, u) with v < u goes to u's owner with v's distance and the
  // weight.  Collectives come between the exchange's steps, never inside one.
  Validation edges;
  std::string edges_first;
  const auto fail = failure_recorder(edges, edges_first);
  const Exchange::Handler far_end = [&](const Exchange::Item* it, std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      const auto word = static_cast<std::uint64_t>(it[j].vertex);
      const auto value = static_cast<std::uint64_t>(it[j].value);
      const auto v = static_cast<std::int64_t>(word >> 32);
      const auto u = static_cast<std::int64_t>(word & 0xffffffffu);
      const float dv = bits_float(static_cast<std::uint32_t>(value >> 32));
      const float w = bits_float(static_cast<std::uint32_t>(value));
      const float du = seen(r.local(u));
      if (!std::isnan(dv))
        check_edge(
            v, u, dv, du, w, [&] { return std::isnan(du); }, fail);
    }
  };
  Bitmap joined(n), confirmed(n);
  std::vector<float> lightest(static_cast<std::size_t>(n));
  RowPiece piece(grid.spare() ? 0 : r.per_rank);  // a spare rank: no rows
  for (int t = 0; t < b.shape.cols; ++t) {
    if (grid.spare()) {  // the exchange's step, with nothing to send
      Step(check.ex, check.phase, r, far_end).finish();
      continue;
    }
    const VertexRange owner = r.of_rank(b.row * b.shape.cols + t);
    const std::int64_t m = owner.local_count();
    piece.receive(b, grid, t, m, pred, dist, pd);
    piece.find_parents(b, t, m);
    piece.tell_owner(grid, t, m, joined, confirmed, lightest);
    Step step(check.ex, check.phase, r, far_end);
    for (std::int64_t o = 0; o < m; ++o) {
      const BlockOffsets::Range e = b.row_offsets[t * b.piece_bits + o];
      const std::int64_t v = owner.global(o);
      const float dv = seen_distance(piece.pred[o], piece.dist[o]);
      for (std::int64_t k = e.begin; k < e.end; ++k) {
        const std::int64_t u = b.col_vertex(b.row_targets[k]);
        if (v < u) step.send(r.owner(u), edge_item(v, u, dv, b.row_weights[k]));
      }
    }
    step.finish();
  }

  Validation res;
  std::string first;  // the first failure's message, this rank
  check_root(r, key, pred, dist, res, first);
  res.level.assign(n, kUnreached);
  std::int32_t deepest = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    res.level[i] = level[i] < 0 ? kUnreached : level[i];
    deepest = std::max(deepest, level[i]);
  }
  check_vertices(
      r, pred, dist, level, res, first,
      [&](std::int64_t i, std::int64_t, float) {
        ParentEdge e;
        e.known = arrived.test(i);
        e.dp = pd[i];
        e.joined = joined.test(i);
        e.confirmed = confirmed.test(i);
        e.lightest = lightest[i];
        return e;
      },
      [&](std::int64_t p, std::int64_t v) {
        return "check 5 (distances): the distance of vertex " + std::to_string(p) +
               ", the parent of " + std::to_string(v) + ", never arrived from its owner, rank " +
               std::to_string(r.owner(p));
      });
  if (edges.failed && res.failed == 0) first = edges_first;
  res.failed |= edges.failed;
  agree(res, first, deepest, r, comm);
  return res;
}

}  // namespace ht
