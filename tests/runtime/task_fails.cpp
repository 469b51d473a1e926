// A task on the last rank fails, as the exchange's receive task or a chunk's
// push_back can, while the other ranks wait in a barrier that can never
// complete: the job must end on every rank with the failing rank's
// "rank R: error:" line and exit code 1, not std::terminate or a hang.
//   task_fails error      the task throws ht::Error
//   task_fails bad_alloc  the task runs out of memory (std::bad_alloc)
#include <cstring>
#include <vector>

#include "runtime/HT_Environment.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {
struct Fail {
  using value_type = int;
  bool out_of_memory;
  void operator()(ht::TaskMember&, int& r) const {
    if (out_of_memory) {
      std::vector<char> huge;
      huge.reserve(std::size_t(1) << 62);  // more than any address space
    } else {
      throw ht::Error("injected failure in a task");
    }
    r = 1;
  }
};
}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  const bool oom = argc > 1 && std::strcmp(argv[1], "bad_alloc") == 0;
  if (env.rank() == env.size() - 1) {
    ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Fail>(1), "Runtime/pool_MiB");
    rt.spawn(Fail{oom});
    rt.wait();
  }
  MPI_Barrier(env.comm());  // the failed rank never arrives
  return 0;
}
