// Tasks with futures and when_all: eight tasks square their index, a ninth
// waits for all of them (spawn_after on the when_all) and adds the squares.
//   mpirun -np 1 build/examples/example_tasks     -> "sum of squares 0..7: 140"
#include <cstdio>
#include <vector>

#include "runtime/HT_Environment.hpp"
#include "runtime/HT_TaskRuntime.hpp"

namespace {

// A task: a value_type (what its future holds) and operator()(member, result).
struct Square {
  using value_type = long;
  long x;
  void operator()(ht::TaskMember&, long& r) const { r = x * x; }
};

// Runs once every Square is done: reading their futures cannot block.
struct Sum {
  using value_type = long;
  std::vector<ht::Future<long>> parts;
  void operator()(ht::TaskMember&, long& r) const {
    r = 0;
    for (const auto& f : parts) r += f.get();
  }
};

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  {
    ht::TaskRuntime rt(ht::TaskRuntime::pool_bytes_for<Sum>(16), "Runtime/pool_MiB");
    std::vector<ht::Future<long>> squares;
    for (long i = 0; i < 8; ++i) squares.push_back(rt.spawn(Square{i}));
    const ht::Future<void> all = rt.when_all(squares);
    const ht::Future<long> sum = rt.spawn_after(all, Sum{squares}, ht::TaskPriority::high);
    rt.wait();  // every task, and what they spawned, has run
    if (env.rank() == 0)
      std::printf("sum of squares 0..7: %ld on %s\n", sum.get(), ht::TaskRuntime::name());
    if (sum.get() != 140) return 1;
  }
  return 0;
}
