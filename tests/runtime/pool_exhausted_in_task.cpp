// Spawns tasks from inside a task until the pool is exhausted: the job must
// end with the pool error on every rank (exit 1), never a segfault or a hang.
#include "runtime/HT_Environment.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {
struct Leaf {
  using value_type = int;
  void operator()(ht::TaskMember&, int& r) const { r = 1; }
};
struct Flood {
  using value_type = void;
  ht::TaskRuntime* rt;
  void operator()(ht::TaskMember& m) const {
    std::vector<ht::Future<int>> keep;  // holding futures keeps the tasks' memory
    for (int i = 0; i < 1000000; ++i) keep.push_back(rt->spawn(m, Leaf{}));
  }
};
}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  ht::TaskRuntime rt(64 << 10, "Runtime/pool_MiB");
  rt.spawn(Flood{&rt});
  rt.wait();
  return 0;  // not reached
}
