// mpi_counts: what each rank asks of MPI, counted through MPI's profiling
// interface (PMPI), the way mpiP and IPM count it: loaded beside any driver
// with LD_PRELOAD, no change to the code measured.  Per rank:
//  - sends: point-to-point messages started (Send, Isend, Issend, Ssend,
//    Rsend, Bsend, Sendrecv and Sendrecv_replace count one each) and their
//    bytes;
//  - collectives other than barriers (Allreduce, Bcast, Alltoallv, MPI-4's
//    Alltoallv_c, ... and their nonblocking forms), the bytes this rank
//    puts into them and the bytes it gets out of them (a gather's whole
//    result: the term that grows with P);
//  - barriers (Barrier, Ibarrier).
// Persistent sends count one message each time they are started.
// Inside a search region (a Kokkos profiling region named HT_MPI_REGION,
// "Graph500: BFS" by default, the library doubling as a Kokkos tool through
// KOKKOS_TOOLS_LIBS; or between MPI_Pcontrol(1) and MPI_Pcontrol(-1), as
// CombBLAS marks its searches) it also counts, per rank:
//  - searches (region entries), and the same four counts as above within
//    them: the search alone, without validation or set-up;
//  - levels: a level ends at each Allreduce over all ranks (our BFSes and
//    CombBLAS close a level with one);
//  - distinct peers of each level: the world ranks this rank sends a
//    point-to-point message to, plus the other members of every collective's
//    communicator (of an Alltoallv, those it sends bytes to); a level-closing
//    Allreduce over all ranks names no peer.  Summed over levels, the largest
//    level's, and the largest search's (the union over its levels).
// At MPI_Finalize each rank appends one line to the file HT_MPI_COUNTS
// names: "rank size sends send_bytes collectives collective_bytes
// collective_received_bytes barriers", followed where a search region was
// entered by "searches sends send_bytes collectives received_bytes levels
// level_peers_sum level_peers_max search_peers_max" within the regions
// (one short write with O_APPEND: lines of different ranks do
// not interleave).  Counters are atomic: ranks call MPI from several threads.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

std::atomic<long long> sends{0}, send_bytes{0}, collectives{0}, collective_bytes{0}, received{0},
    barriers{0};

long long bytes(long long count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return 0;  // an MPI_IN_PLACE side
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long long>(count) * size;
}

// The search region: its depth (regions nest), and what is counted in it.
// Only the region's calls take the lock.
std::atomic<int> region_depth{0};
std::mutex region_lock;
struct Region {
  long long searches = 0, sends = 0, send_bytes = 0, collectives = 0, received = 0, levels = 0,
            level_peers_sum = 0, level_peers_max = 0, search_peers_max = 0;
  std::set<int> level, search;                                 // world ranks
  std::unordered_map<MPI_Comm, std::vector<int>> world_ranks;  // of each communicator's ranks
} region;

const std::vector<int>& world_ranks(MPI_Comm c) {  // region_lock held
  auto it = region.world_ranks.find(c);
  if (it != region.world_ranks.end()) return it->second;
  MPI_Group g, w;
  PMPI_Comm_group(c, &g);
  PMPI_Comm_group(MPI_COMM_WORLD, &w);
  int n = 0;
  PMPI_Group_size(g, &n);
  std::vector<int> local(n), world(n);
  for (int i = 0; i < n; ++i) local[i] = i;
  PMPI_Group_translate_ranks(g, n, local.data(), w, world.data());
  PMPI_Group_free(&g);
  PMPI_Group_free(&w);
  return region.world_ranks.emplace(c, std::move(world)).first->second;
}

int world_rank() {
  static const int me = [] {
    int r = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }();
  return me;
}

void add_peer(int world) {  // region_lock held
  if (world == world_rank() || world == MPI_UNDEFINED || world < 0) return;
  region.level.insert(world);
  region.search.insert(world);
}

void end_level() {  // region_lock held
  ++region.levels;
  const auto n = static_cast<long long>(region.level.size());
  region.level_peers_sum += n;
  if (n > region.level_peers_max) region.level_peers_max = n;
  region.level.clear();
}

void enter_region() {
  if (region_depth.fetch_add(1) != 0) return;
  std::lock_guard<std::mutex> hold(region_lock);
  ++region.searches;
  region.level.clear();
  region.search.clear();
}

void leave_region() {
  if (region_depth.load() == 0 || region_depth.fetch_sub(1) != 1) return;
  std::lock_guard<std::mutex> hold(region_lock);
  if (!region.level.empty()) end_level();  // a level left open at the region's end
  const auto n = static_cast<long long>(region.search.size());
  if (n > region.search_peers_max) region.search_peers_max = n;
}

void sent(int count, MPI_Datatype type, int dest = MPI_PROC_NULL, MPI_Comm comm = MPI_COMM_NULL) {
  sends.fetch_add(1, std::memory_order_relaxed);
  send_bytes.fetch_add(bytes(count, type), std::memory_order_relaxed);
  if (region_depth.load() == 0) return;
  std::lock_guard<std::mutex> hold(region_lock);
  ++region.sends;
  region.send_bytes += bytes(count, type);
  if (dest != MPI_PROC_NULL && comm != MPI_COMM_NULL) add_peer(world_ranks(comm)[dest]);
}

// A collective of \p comm; \p to, where given, the bytes sent to each of its
// ranks (only those sent some are peers); \p closes: an Allreduce, which
// over all ranks ends a level.
void collective(long long in, long long out, MPI_Comm comm = MPI_COMM_NULL,
                const long long* to = nullptr, bool closes = false) {
  collectives.fetch_add(1, std::memory_order_relaxed);
  collective_bytes.fetch_add(in, std::memory_order_relaxed);
  received.fetch_add(out, std::memory_order_relaxed);
  if (region_depth.load() == 0 || comm == MPI_COMM_NULL) return;
  std::lock_guard<std::mutex> hold(region_lock);
  ++region.collectives;
  region.received += out;
  const std::vector<int>& ranks = world_ranks(comm);
  int world = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &world);
  if (closes && static_cast<int>(ranks.size()) == world) {
    end_level();
    return;
  }
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (!to || to[i] > 0) add_peer(ranks[i]);
}

// Bytes a rank sends in a v-collective: the sum of its counts to each peer.
long long sum_bytes(const int* counts, MPI_Datatype type, MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  long long total = 0;
  for (int p = 0; p < size; ++p) total += bytes(counts[p], type);
  return total;
}

}  // namespace

extern "C" {

// Point to point.
int MPI_Send(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t, d, c);
  return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Ssend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t, d, c);
  return PMPI_Ssend(b, n, t, d, tag, c);
}
int MPI_Rsend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t, d, c);
  return PMPI_Rsend(b, n, t, d, tag, c);
}
int MPI_Bsend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t, d, c);
  return PMPI_Bsend(b, n, t, d, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  sent(n, t, d, c);
  return PMPI_Isend(b, n, t, d, tag, c, r);
}
int MPI_Issend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  sent(n, t, d, c);
  return PMPI_Issend(b, n, t, d, tag, c, r);
}
int MPI_Sendrecv(const void* sb, int sn, MPI_Datatype st, int d, int stag, void* rb, int rn,
                 MPI_Datatype rt, int s, int rtag, MPI_Comm c, MPI_Status* status) {
  sent(sn, st, d, c);
  return PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status);
}
int MPI_Sendrecv_replace(void* b, int n, MPI_Datatype t, int d, int stag, int s, int rtag,
                         MPI_Comm c, MPI_Status* status) {
  sent(n, t, d, c);
  return PMPI_Sendrecv_replace(b, n, t, d, stag, s, rtag, c, status);
}

// Persistent sends: counted when started (MPI_Start, MPI_Startall), with
// the bytes MPI_Send_init gave them; receive requests are not in the map.
namespace {
std::mutex persistent_lock;
struct Persistent {
  long long bytes;
  int dest;  // in comm
  MPI_Comm comm;
};
std::unordered_map<MPI_Request, Persistent> persistent;

void started(const MPI_Request* r, int n) {
  std::lock_guard<std::mutex> hold(persistent_lock);
  for (int i = 0; i < n; ++i) {
    const auto it = persistent.find(r[i]);
    if (it == persistent.end()) continue;  // a receive
    sends.fetch_add(1, std::memory_order_relaxed);
    send_bytes.fetch_add(it->second.bytes, std::memory_order_relaxed);
    if (region_depth.load() == 0) continue;
    std::lock_guard<std::mutex> in_region(region_lock);
    ++region.sends;
    region.send_bytes += it->second.bytes;
    if (it->second.dest != MPI_PROC_NULL) add_peer(world_ranks(it->second.comm)[it->second.dest]);
  }
}
}  // namespace

int MPI_Send_init(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c,
                  MPI_Request* r) {
  const int rc = PMPI_Send_init(b, n, t, d, tag, c, r);
  std::lock_guard<std::mutex> hold(persistent_lock);
  persistent[*r] = Persistent{bytes(n, t), d, c};
  return rc;
}
int MPI_Start(MPI_Request* r) {
  started(r, 1);
  return PMPI_Start(r);
}
int MPI_Startall(int n, MPI_Request* r) {
  started(r, n);
  return PMPI_Startall(n, r);
}
int MPI_Request_free(MPI_Request* r) {
  {
    std::lock_guard<std::mutex> hold(persistent_lock);
    persistent.erase(*r);
  }
  return PMPI_Request_free(r);
}

// Barriers.
int MPI_Barrier(MPI_Comm c) {
  barriers.fetch_add(1, std::memory_order_relaxed);
  return PMPI_Barrier(c);
}
int MPI_Ibarrier(MPI_Comm c, MPI_Request* r) {
  barriers.fetch_add(1, std::memory_order_relaxed);
  return PMPI_Ibarrier(c, r);
}

// Collectives: the bytes this rank contributes.
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t), c, nullptr, true);
  return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Iallreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request* q) {
  collective(bytes(n, t), bytes(n, t), c, nullptr, true);
  return PMPI_Iallreduce(s, r, n, t, op, c, q);
}
int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t), c);
  return PMPI_Reduce(s, r, n, t, op, root, c);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t), c);
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t), c);
  return PMPI_Exscan(s, r, n, t, op, c);
}
int MPI_Scan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t), c);
  return PMPI_Scan(s, r, n, t, op, c);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(c, &rank);
  PMPI_Comm_size(c, &size);
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), rank == root ? bytes(rn, rt) * size : 0, c);
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), bytes(rn, rt) * size, c);
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* at,
                   MPI_Datatype rt, MPI_Comm c) {
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), sum_bytes(rn, rt, c), c);
  return PMPI_Allgatherv(s, sn, st, r, rn, at, rt, c);
}
int MPI_Iallgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* at,
                    MPI_Datatype rt, MPI_Comm c, MPI_Request* q) {
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), sum_bytes(rn, rt, c), c);
  return PMPI_Iallgatherv(s, sn, st, r, rn, at, rt, c, q);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  collective(bytes(sn, st) * size, bytes(rn, rt) * size, c);
  return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Alltoallv(const void* s, const int* sn, const int* sat, MPI_Datatype st, void* r,
                  const int* rn, const int* rat, MPI_Datatype rt, MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  std::vector<long long> to(static_cast<std::size_t>(size));
  for (int p = 0; p < size; ++p) to[p] = bytes(sn[p], st);
  collective(sum_bytes(sn, st, c), sum_bytes(rn, rt, c), c, to.data());
  return PMPI_Alltoallv(s, sn, sat, st, r, rn, rat, rt, c);
}
#if MPI_VERSION >= 4
// MPI-4's large-count form (ht::peer_exchange's rounds, where MPI has it).
int MPI_Alltoallv_c(const void* s, const MPI_Count* sn, const MPI_Aint* sat, MPI_Datatype st,
                    void* r, const MPI_Count* rn, const MPI_Aint* rat, MPI_Datatype rt,
                    MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  std::vector<long long> to(static_cast<std::size_t>(size));
  long long out = 0, in = 0;
  for (int p = 0; p < size; ++p) {
    out += to[p] = bytes(sn[p], st);
    in += bytes(rn[p], rt);
  }
  collective(out, in, c, to.data());
  return PMPI_Alltoallv_c(s, sn, sat, st, r, rn, rat, rt, c);
}
#endif

// A freed communicator's handle may be reused for another.
int MPI_Comm_free(MPI_Comm* c) {
  {
    std::lock_guard<std::mutex> hold(region_lock);
    region.world_ranks.erase(*c);
  }
  return PMPI_Comm_free(c);
}

// The search region, as CombBLAS marks it: MPI_Pcontrol(1) ... (-1).
int MPI_Pcontrol(const int level, ...) {
  if (level == 1) enter_region();
  if (level == -1) leave_region();
  return MPI_SUCCESS;
}

// The search region as our drivers mark it: a Kokkos profiling region
// (src/drivers/HT_Trials.hpp), seen when this library is also loaded as a
// Kokkos tool (KOKKOS_TOOLS_LIBS).  Regions nest: the stack says which of
// them was the search.
namespace {
std::vector<bool> kokkos_regions;  // Kokkos pushes and pops from one thread
}
void kokkosp_push_profile_region(const char* name) {
  const char* want = std::getenv("HT_MPI_REGION");
  const bool search = std::strcmp(name, want ? want : "Graph500: BFS") == 0;
  kokkos_regions.push_back(search);
  if (search) enter_region();
}
void kokkosp_pop_profile_region() {
  if (kokkos_regions.empty()) return;
  if (kokkos_regions.back()) leave_region();
  kokkos_regions.pop_back();
}

// For a program that links this file in (tests/comm/tstCommCounts.cpp
// checks the library's own counts against these): sends, send_bytes,
// collectives, collective_bytes, received, barriers, so far.
void ht_mpi_counts_now(long long out[6]) {
  out[0] = sends.load();
  out[1] = send_bytes.load();
  out[2] = collectives.load();
  out[3] = collective_bytes.load();
  out[4] = received.load();
  out[5] = barriers.load();
}

int MPI_Finalize() {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (const char* path = std::getenv("HT_MPI_COUNTS")) {
    char line[512];
    const int n = std::snprintf(line, sizeof line, "%d %d %lld %lld %lld %lld %lld %lld\n", rank,
                                size, sends.load(), send_bytes.load(), collectives.load(),
                                collective_bytes.load(), received.load(), barriers.load());
    int m = n;
    std::lock_guard<std::mutex> hold(region_lock);
    if (region.searches > 0 && n > 0) {  // the search region's figures, on the same line
      m = n - 1 +
          std::snprintf(line + n - 1, sizeof line - static_cast<std::size_t>(n) + 1,
                        " %lld %lld %lld %lld %lld %lld %lld %lld %lld\n", region.searches,
                        region.sends, region.send_bytes, region.collectives, region.received,
                        region.levels, region.level_peers_sum, region.level_peers_max,
                        region.search_peers_max);
    }
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
      if (write(fd, line, static_cast<std::size_t>(m)) != m) std::perror("mpi_counts: write");
      close(fd);
    }
  }
  return PMPI_Finalize();
}

}  // extern "C"
