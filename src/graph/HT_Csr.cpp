#include "graph/HT_Csr.hpp"

#include <algorithm>

namespace ht {

VertexRange::VertexRange(std::int64_t n, MPI_Comm comm) : n_global(n) {
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  per_rank = std::max<std::int64_t>(1, (n + size - 1) / size);
  bounds();
}

VertexRange VertexRange::of_rank(int r) const {
  VertexRange other = *this;
  other.rank = r;
  other.bounds();
  return other;
}

void VertexRange::bounds() {
  inverse_ = 1.0 / static_cast<double>(per_rank);
  first_ = std::min<std::int64_t>(rank * per_rank, n_global);
  end_ = std::min<std::int64_t>(first_ + per_rank, n_global);
}

std::pair<std::int64_t, std::int64_t> edge_slice(std::int64_t m, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  return {m * rank / size, m * (rank + 1) / size};
}

Csr build_csr(const std::vector<Edge>& edges, std::int64_t n_global, MPI_Comm comm,
              std::int64_t chunk) {
  Csr g;
  g.range = VertexRange(n_global, comm);
  const VertexRange& r = g.range;
  MPI_Datatype pair;  // one directed edge: two int64
  MPI_Type_contiguous(2, MPI_INT64_T, &pair);
  MPI_Type_commit(&pair);

  // A round receives at most 2 * chunk * P edges: keep that under 2^30 (MPI counts are int).
  chunk =
      std::max<std::int64_t>(1, std::min<std::int64_t>(chunk, (std::int64_t(1) << 29) / r.size));
  long long rounds = (static_cast<long long>(edges.size()) + chunk - 1) / chunk;
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_LONG_LONG, MPI_MAX, comm);
  std::vector<Edge> mine;  // directed edges whose source this rank owns
  std::vector<int> send_count(r.size), recv_count(r.size), send_at(r.size), recv_at(r.size);
  std::vector<Edge> out;
  for (long long round = 0; round < rounds; ++round) {
    const std::size_t lo = std::min<std::size_t>(edges.size(), round * chunk);
    const std::size_t hi = std::min<std::size_t>(edges.size(), lo + chunk);
    std::fill(send_count.begin(), send_count.end(), 0);
    for (std::size_t i = lo; i < hi; ++i) {
      if (edges[i].u == edges[i].v) continue;
      ++send_count[r.owner(edges[i].u)];
      ++send_count[r.owner(edges[i].v)];
    }
    MPI_Alltoall(send_count.data(), 1, MPI_INT, recv_count.data(), 1, MPI_INT, comm);
    int total = 0;
    for (int p = 0; p < r.size; ++p) send_at[p] = (total += send_count[p]) - send_count[p];
    out.resize(total);
    std::vector<int> fill = send_at;
    for (std::size_t i = lo; i < hi; ++i) {
      const Edge e = edges[i];
      if (e.u == e.v) continue;
      out[fill[r.owner(e.u)]++] = e;
      out[fill[r.owner(e.v)]++] = {e.v, e.u};
    }
    int incoming = 0;
    for (int p = 0; p < r.size; ++p) recv_at[p] = (incoming += recv_count[p]) - recv_count[p];
    const std::size_t base = mine.size();
    mine.resize(base + incoming);
    MPI_Alltoallv(out.data(), send_count.data(), send_at.data(), pair, mine.data() + base,
                  recv_count.data(), recv_at.data(), pair, comm);
  }
  MPI_Type_free(&pair);

  // Counting sort by source row.
  const std::int64_t n_local = r.local_count();
  g.offsets.assign(n_local + 1, 0);
  for (const Edge& e : mine) ++g.offsets[r.local(e.u) + 1];
  for (std::int64_t i = 0; i < n_local; ++i) g.offsets[i + 1] += g.offsets[i];
  g.targets.resize(mine.size());
  std::vector<std::int64_t> next(g.offsets.begin(), g.offsets.end() - 1);
  for (const Edge& e : mine) g.targets[next[r.local(e.u)]++] = e.v;
  return g;
}

}  // namespace ht
