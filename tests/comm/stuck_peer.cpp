// A peer that stops answering, for the watchdog's tests (tests/CMakeLists.txt):
// with Runtime/stall_seconds at 1 s, the job must end with exit 1 within
// seconds, every rank still waiting in the protocol printing its state.
//   stuck_peer stealing   rank 1 drops every steal request it gets
//   stuck_peer exchange   rank 1 never takes part in the level
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "comm/HT_Exchange.hpp"
#include "comm/HT_Wait.hpp"
#include "comm/HT_WorkStealing.hpp"
#include "runtime/HT_Environment.hpp"

namespace {

struct Deaf : ht::StealHooks {
  bool drop_request(int) override { return true; }
};

}  // namespace

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  ht::Watchdog::set_limit(1.0);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "stealing") {
    Deaf deaf;
    ht::StealOptions opt;
    if (env.rank() == 1) opt.hooks = &deaf;
    ht::StealPool<int> pool(env.comm(), 1, opt);
    pool.start();
    while (!pool.done()) {
      pool.poll();
      ht::idle_sleep();
    }
    pool.finish();
  } else if (mode == "exchange") {
    ht::Exchange ex(env.comm(), 16);
    const ht::Exchange::Handler apply = [](const ht::Exchange::Item*, std::size_t) {};
    if (env.rank() == 1) std::this_thread::sleep_for(std::chrono::seconds(60));
    ex.begin_level(0);
    ex.end_level(apply);
  } else {
    std::fprintf(stderr, "usage: stuck_peer stealing|exchange\n");
    return 2;
  }
  std::printf("not stuck\n");
  return 0;
}
