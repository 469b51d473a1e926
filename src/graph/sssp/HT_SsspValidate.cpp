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
#include "graph/impl/HT_TreeCheck.hpp"
#include "runtime/HT_Error.hpp"

namespace ht {

using namespace impl;

namespace {

std::uint32_t float_bits(float d) {
  std::uint32_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
float bits_float(std::uint32_t b) {
  float d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

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
  // than the edges to them.
  FarMap far(static_cast<std::uint32_t>(
      std::max<std::int64_t>(16, std::min(remote_edges / 4, r.n_global - n))));
  g.targets.visit([&](const auto* const targets) {
    const Csr* const graph = &g;
    for (;;) {
      Kokkos::parallel_for("ht::validate_sssp::remote_ends", Host(0, n), [=](std::int64_t i) {
        for (std::int64_t k = graph->local_end(i); k < graph->offsets[i + 1]; ++k)
          far.insert(static_cast<std::int64_t>(targets[k]), Far{});
      });
      Kokkos::fence();
      if (!far.failed_insert()) break;
      far.rehash(2 * far.capacity());
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

// Checks 2 to 4 on each vertex: a valid pair, a tree leading to the key, and
// some copy of the edge to the parent confirming the distance exactly.
void check_vertices(const Csr& g, const std::vector<std::int64_t>& pred,
                    const std::vector<float>& dist, const std::vector<std::int32_t>& level,
                    const Distances& distance, Validation& res, std::string& first) {
  const VertexRange& r = g.range;
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
               const Distances::Known dp = distance(p);
               if (!dp.known) {
                 fail(Validation::distances, distance.never_arrived(p, v));
                 return;
               }
               bool joined = false, confirmed = false;
               float lightest = std::numeric_limits<float>::infinity();
               for (std::int64_t k = g.offsets[i]; k < g.offsets[i + 1]; ++k) {
                 if (g.targets[k] != p) continue;
                 joined = true;
                 lightest = std::min(lightest, g.weights[k]);
                 confirmed = confirmed || dv == dp.d + g.weights[k];
               }
               if (!joined) {
                 fail(Validation::tree_edge, "check 3 (tree edge): " + std::to_string(v) +
                                                 " has parent " + std::to_string(p) +
                                                 " but no edge to it");
               } else if (!confirmed) {
                 fail(Validation::tree_edge,
                      "check 3 (tree edge): " + std::to_string(v) + " at distance " + text(dv) +
                          " has parent " + std::to_string(p) + " at " + text(dp.d) +
                          ", but no edge between them weighs the difference (the lightest "
                          "weighs " +
                          text(lightest) + ")");
               }
             });
}

// Checks 4 and 5 on every stored edge, both ways (each input edge is stored
// twice, once per end, so each end's owner checks it too).  A row's local
// ends first, its remote ones after (Csr::split): no owner test per edge.
void check_edges(const Csr& g, const std::vector<std::int64_t>& pred,
                 const std::vector<float>& dist, const Distances& distance, Validation& res,
                 std::string& first) {
  const VertexRange& r = g.range;
  const auto seen = [&](std::int64_t i) { return seen_distance(pred[i], dist[i]); };
  check_rows(
      "ht::validate_sssp::edges", r.local_count(), res, first,
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
          const float wt = g.weights[k];
          const auto invalid = [&] { return std::isnan(k < split ? seen(r.local(w)) : dw.d); };
          if (!dw.known) {
            fail(Validation::distances, distance.never_arrived(w, v));
          } else if (std::isfinite(dv) != std::isfinite(dw.d)) {
            if (invalid()) continue;
            // Finite weights can still sum past the largest float: say so.
            const float near = std::isfinite(dv) ? dv : dw.d;
            fail(Validation::reach,
                 "check 4 (reach): edge {" + std::to_string(v) + ", " + std::to_string(w) +
                     "} has one end in the tree and one out" +
                     (std::isinf(near + wt) ? " (distance " + text(near) + " plus weight " +
                                                  text(wt) + " overflows a float)"
                                            : ""));
          } else if (std::isfinite(dv) && (dv > dw.d + wt || dw.d > dv + wt)) {
            if (invalid()) continue;
            fail(Validation::distances, "check 5 (distances): edge {" + std::to_string(v) + ", " +
                                            std::to_string(w) + "} of weight " + text(wt) +
                                            " joins distances " + text(dv) + " and " + text(dw.d));
          }
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
  check_vertices(g, pred, dist, check.level, distance, res, first);
  check_edges(g, pred, dist, distance, res, first);
  agree(res, first, deepest, r, comm);
  return res;
}

}  // namespace ht
