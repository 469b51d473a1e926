#include "runtime/HT_Settings.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

#include "runtime/HT_MpiInt.hpp"

namespace ht {

namespace {

std::map<std::string, std::string>& agreed() {
  static std::map<std::string, std::string> values;
  return values;
}

bool listed(const char* name) {
  for (const char* s : kSettings)
    if (std::strcmp(s, name) == 0) return true;
  return false;
}

std::string own(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Rank 0's \p text on every rank of \p comm.
void broadcast(std::string& text, MPI_Comm comm) {
  unsigned long long n = text.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  text.resize(n);
  MPI_Bcast(text.data(), mpi_int(n, "the settings' bytes"), MPI_CHAR, 0, comm);
}

std::string node_name() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, static_cast<std::size_t>(len));
}

std::string shown(const std::string& v) { return v.empty() ? "unset" : "'" + v + "'"; }

}  // namespace

std::string setting(const char* name) {
  if (!listed(name)) throw std::logic_error(std::string("ht::setting: ") + name + " is not listed");
  const auto& a = agreed();
  const auto it = a.find(name);
  return it != a.end() ? it->second : own(name);
}

std::string rank_and_node(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return "rank " + std::to_string(rank) + " (node " + node_name() + ")";
}

std::string first_failure(const std::string& failure, MPI_Comm comm, bool name_rank,
                          const std::string& suffix, bool* usage) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // The lowest failing rank, and whether every rank failed.
  int x[2] = {failure.empty() ? size : rank, failure.empty() ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_MIN, comm);
  const int from = x[0];
  if (from == size) return "";
  std::string msg = failure;
  if (name_rank && !x[1] && rank == from) msg = rank_and_node(comm) + ": " + failure + suffix;
  unsigned long long head[2] = {msg.size(), usage && *usage ? 1ULL : 0ULL};
  MPI_Bcast(head, 2, MPI_UNSIGNED_LONG_LONG, from, comm);
  msg.resize(head[0]);
  MPI_Bcast(msg.data(), mpi_int(head[0], "a failure's message bytes"), MPI_CHAR, from, comm);
  if (usage) *usage = head[1] != 0;
  return msg;
}

std::string agree_settings(MPI_Comm comm) {
  // Rank 0's values as "NAME=value" lines; a value with a newline stays
  // whole: each value is sent with its length.
  std::string zero, rank0_node = node_name();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    for (const char* name : kSettings) {
      const std::string v = own(name);
      zero += std::to_string(v.size()) + ":" + v;
    }
  broadcast(zero, comm);
  broadcast(rank0_node, comm);
  std::map<std::string, std::string> theirs;
  std::size_t at = 0;
  for (const char* name : kSettings) {
    const std::size_t colon = zero.find(':', at);
    const std::size_t len = std::stoull(zero.substr(at, colon - at));
    theirs[name] = zero.substr(colon + 1, len);
    at = colon + 1 + len;
  }
  std::string mine;
  for (const char* name : kSettings) {
    const std::string v = own(name);
    if (v == theirs[name] || !mine.empty()) continue;
    mine = std::string(name) + " is " + shown(v) + " here but " + shown(theirs[name]) +
           " on rank 0 (node " + rank0_node +
           "): every rank must see the same setting (export it to all ranks: mpirun -x " + name +
           ", srun --export)";
  }
  const std::string failure = first_failure(mine, comm);
  if (failure.empty()) agreed() = theirs;
  return failure;
}

}  // namespace ht
