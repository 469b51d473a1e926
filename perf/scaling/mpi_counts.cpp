// mpi_counts: what each rank asks of MPI, counted through MPI's profiling
// interface (PMPI), the way mpiP and IPM count it: loaded beside any driver
// with LD_PRELOAD, no change to the code measured.  Per rank:
//  - sends: point-to-point messages started (Send, Isend, Issend, Ssend,
//    Rsend, Bsend, Sendrecv and Sendrecv_replace count one each) and their
//    bytes;
//  - collectives other than barriers (Allreduce, Bcast, Alltoallv, ... and
//    their nonblocking forms), the bytes this rank puts into them and the
//    bytes it gets out of them (a gather's whole result: the term that grows
//    with P);
//  - barriers (Barrier, Ibarrier).
// Persistent sends count one message each time they are started.
// At MPI_Finalize each rank appends one line to the file HT_MPI_COUNTS
// names: "rank size sends send_bytes collectives collective_bytes
// collective_received_bytes barriers" (one short write with O_APPEND: lines of different ranks do
// not interleave).  Counters are atomic: ranks call MPI from several threads.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace {

std::atomic<long long> sends{0}, send_bytes{0}, collectives{0}, collective_bytes{0}, received{0},
    barriers{0};

long long bytes(int count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return 0;  // an MPI_IN_PLACE side
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long long>(count) * size;
}

void sent(int count, MPI_Datatype type) {
  sends.fetch_add(1, std::memory_order_relaxed);
  send_bytes.fetch_add(bytes(count, type), std::memory_order_relaxed);
}

void collective(long long in, long long out) {
  collectives.fetch_add(1, std::memory_order_relaxed);
  collective_bytes.fetch_add(in, std::memory_order_relaxed);
  received.fetch_add(out, std::memory_order_relaxed);
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
  sent(n, t);
  return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Ssend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t);
  return PMPI_Ssend(b, n, t, d, tag, c);
}
int MPI_Rsend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t);
  return PMPI_Rsend(b, n, t, d, tag, c);
}
int MPI_Bsend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  sent(n, t);
  return PMPI_Bsend(b, n, t, d, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  sent(n, t);
  return PMPI_Isend(b, n, t, d, tag, c, r);
}
int MPI_Issend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  sent(n, t);
  return PMPI_Issend(b, n, t, d, tag, c, r);
}
int MPI_Sendrecv(const void* sb, int sn, MPI_Datatype st, int d, int stag, void* rb, int rn,
                 MPI_Datatype rt, int s, int rtag, MPI_Comm c, MPI_Status* status) {
  sent(sn, st);
  return PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status);
}
int MPI_Sendrecv_replace(void* b, int n, MPI_Datatype t, int d, int stag, int s, int rtag,
                         MPI_Comm c, MPI_Status* status) {
  sent(n, t);
  return PMPI_Sendrecv_replace(b, n, t, d, stag, s, rtag, c, status);
}

// Persistent sends: counted when started (MPI_Start, MPI_Startall), with
// the bytes MPI_Send_init gave them; receive requests are not in the map.
namespace {
std::mutex persistent_lock;
std::unordered_map<MPI_Request, long long> persistent;

void started(const MPI_Request* r, int n) {
  std::lock_guard<std::mutex> hold(persistent_lock);
  for (int i = 0; i < n; ++i) {
    const auto it = persistent.find(r[i]);
    if (it == persistent.end()) continue;  // a receive
    sends.fetch_add(1, std::memory_order_relaxed);
    send_bytes.fetch_add(it->second, std::memory_order_relaxed);
  }
}
}  // namespace

int MPI_Send_init(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c,
                  MPI_Request* r) {
  const int rc = PMPI_Send_init(b, n, t, d, tag, c, r);
  std::lock_guard<std::mutex> hold(persistent_lock);
  persistent[*r] = bytes(n, t);
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
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Iallreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request* q) {
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Iallreduce(s, r, n, t, op, c, q);
}
int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Reduce(s, r, n, t, op, root, c);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Exscan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Exscan(s, r, n, t, op, c);
}
int MPI_Scan(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  collective(bytes(n, t), bytes(n, t));
  return PMPI_Scan(s, r, n, t, op, c);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root,
               MPI_Comm c) {
  int rank = 0, size = 0;
  PMPI_Comm_rank(c, &rank);
  PMPI_Comm_size(c, &size);
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), rank == root ? bytes(rn, rt) * size : 0);
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                  MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), bytes(rn, rt) * size);
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Allgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* at,
                   MPI_Datatype rt, MPI_Comm c) {
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), sum_bytes(rn, rt, c));
  return PMPI_Allgatherv(s, sn, st, r, rn, at, rt, c);
}
int MPI_Iallgatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* at,
                    MPI_Datatype rt, MPI_Comm c, MPI_Request* q) {
  collective(s == MPI_IN_PLACE ? 0 : bytes(sn, st), sum_bytes(rn, rt, c));
  return PMPI_Iallgatherv(s, sn, st, r, rn, at, rt, c, q);
}
int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  int size = 0;
  PMPI_Comm_size(c, &size);
  collective(bytes(sn, st) * size, bytes(rn, rt) * size);
  return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
}
int MPI_Alltoallv(const void* s, const int* sn, const int* sat, MPI_Datatype st, void* r,
                  const int* rn, const int* rat, MPI_Datatype rt, MPI_Comm c) {
  collective(sum_bytes(sn, st, c), sum_bytes(rn, rt, c));
  return PMPI_Alltoallv(s, sn, sat, st, r, rn, rat, rt, c);
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
    char line[256];
    const int n = std::snprintf(line, sizeof line, "%d %d %lld %lld %lld %lld %lld %lld\n", rank,
                                size, sends.load(), send_bytes.load(), collectives.load(),
                                collective_bytes.load(), received.load(), barriers.load());
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
      if (write(fd, line, static_cast<std::size_t>(n)) != n) std::perror("mpi_counts: write");
      close(fd);
    }
  }
  return PMPI_Finalize();
}

}  // extern "C"
