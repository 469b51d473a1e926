#include "runtime/HT_Error.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace ht {

namespace {
std::string& name_storage() {
  static std::string name = "hybridtasks";
  return name;
}
}  // namespace

void set_program_name(const std::string& name) { name_storage() = name; }
const std::string& program_name() { return name_storage(); }

void abort_all(const std::string& what, int code) {
  int initialized = 0, finalized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "%s: rank %d: error: %s\n", program_name().c_str(), rank, what.c_str());
  std::fflush(stderr);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace ht
