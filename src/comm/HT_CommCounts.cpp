#include "comm/HT_CommCounts.hpp"

#include <atomic>

namespace ht {

namespace {

// Relaxed: ranks call MPI from several threads, and a snapshot is read after
// the step's calls returned on the thread that reads it (or after a join).
struct Counters {
  std::atomic<long long> messages{0}, bytes{0}, collectives{0}, collective_bytes{0}, barriers{0};
};
Counters counters;

constexpr auto kRelaxed = std::memory_order_relaxed;

long long bytes_of(long long count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return 0;  // an MPI_IN_PLACE side
  int size = 0;
  MPI_Type_size(type, &size);
  return count * size;
}

int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

long long sum_bytes(const int* counts, MPI_Datatype type, MPI_Comm comm) {
  long long total = 0;
  for (int p = 0, n = size_of(comm); p < n; ++p) total += counts[p];
  return bytes_of(total, type);
}

void sent(long long bytes) {
  counters.messages.fetch_add(1, kRelaxed);
  counters.bytes.fetch_add(bytes, kRelaxed);
}

void collective(long long bytes_out) {
  counters.collectives.fetch_add(1, kRelaxed);
  counters.collective_bytes.fetch_add(bytes_out, kRelaxed);
}

}  // namespace

CommCounts CommCounts::operator-(const CommCounts& e) const {
  return {messages - e.messages, bytes - e.bytes, collectives - e.collectives,
          collective_bytes - e.collective_bytes, barriers - e.barriers};
}

CommCounts& CommCounts::operator+=(const CommCounts& m) {
  messages += m.messages;
  bytes += m.bytes;
  collectives += m.collectives;
  collective_bytes += m.collective_bytes;
  barriers += m.barriers;
  return *this;
}

bool CommCounts::operator==(const CommCounts& o) const {
  return messages == o.messages && bytes == o.bytes && collectives == o.collectives &&
         collective_bytes == o.collective_bytes && barriers == o.barriers;
}

CommCounts comm_counts() {
  return {counters.messages.load(kRelaxed), counters.bytes.load(kRelaxed),
          counters.collectives.load(kRelaxed), counters.collective_bytes.load(kRelaxed),
          counters.barriers.load(kRelaxed)};
}

namespace mpi {

int Start(MPI_Request* request, long long bytes) {
  sent(bytes);
  return MPI_Start(request);
}

int Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
          MPI_Request* request) {
  sent(bytes_of(count, type));
  return MPI_Isend(buf, count, type, dest, tag, comm, request);
}

int Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
           MPI_Request* request) {
  sent(bytes_of(count, type));
  return MPI_Issend(buf, count, type, dest, tag, comm, request);
}

int Barrier(MPI_Comm comm) {
  counters.barriers.fetch_add(1, kRelaxed);
  return MPI_Barrier(comm);
}

int Ibarrier(MPI_Comm comm, MPI_Request* request) {
  counters.barriers.fetch_add(1, kRelaxed);
  return MPI_Ibarrier(comm, request);
}

int Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective(bytes_of(count, type));
  return MPI_Bcast(buf, count, type, root, comm);
}

int Allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  collective(bytes_of(count, type));
  return MPI_Allreduce(in, out, count, type, op, comm);
}

int Iallreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
               MPI_Request* request) {
  collective(bytes_of(count, type));
  return MPI_Iallreduce(in, out, count, type, op, comm, request);
}

int Reduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, int root,
           MPI_Comm comm) {
  collective(bytes_of(count, type));
  return MPI_Reduce(in, out, count, type, op, root, comm);
}

int Exscan(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  collective(bytes_of(count, type));
  return MPI_Exscan(in, out, count, type, op, comm);
}

int Gather(const void* in, int in_count, MPI_Datatype in_type, void* out, int out_count,
           MPI_Datatype out_type, int root, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  collective(rank == root ? bytes_of(out_count, out_type) * size_of(comm) : 0);
  return MPI_Gather(in, in_count, in_type, out, out_count, out_type, root, comm);
}

int Iallgatherv(const void* in, int in_count, MPI_Datatype in_type, void* out,
                const int* out_counts, const int* displs, MPI_Datatype out_type, MPI_Comm comm,
                MPI_Request* request) {
  collective(sum_bytes(out_counts, out_type, comm));
  return MPI_Iallgatherv(in, in_count, in_type, out, out_counts, displs, out_type, comm, request);
}

int Alltoall(const void* in, int in_count, MPI_Datatype in_type, void* out, int out_count,
             MPI_Datatype out_type, MPI_Comm comm) {
  collective(bytes_of(out_count, out_type) * size_of(comm));
  return MPI_Alltoall(in, in_count, in_type, out, out_count, out_type, comm);
}

int Alltoallv(const void* in, const int* in_counts, const int* in_displs, MPI_Datatype in_type,
              void* out, const int* out_counts, const int* out_displs, MPI_Datatype out_type,
              MPI_Comm comm) {
  collective(sum_bytes(out_counts, out_type, comm));
  return MPI_Alltoallv(in, in_counts, in_displs, in_type, out, out_counts, out_displs, out_type,
                       comm);
}

#if MPI_VERSION >= 4
int Alltoallv_c(const void* in, const MPI_Count* in_counts, const MPI_Aint* in_displs,
                MPI_Datatype in_type, void* out, const MPI_Count* out_counts,
                const MPI_Aint* out_displs, MPI_Datatype out_type, MPI_Comm comm) {
  long long total = 0;
  for (int p = 0, n = size_of(comm); p < n; ++p) total += static_cast<long long>(out_counts[p]);
  collective(bytes_of(total, out_type));
  return MPI_Alltoallv_c(in, in_counts, in_displs, in_type, out, out_counts, out_displs, out_type,
                         comm);
}
#endif

}  // namespace mpi
}  // namespace ht
