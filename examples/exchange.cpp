// The coalescing exchange, level by level: each rank sends 1000 items to
// every other rank per level (buffers of 256 go out as they fill), and
// end_level() returns once every item of the level has arrived, everywhere.
//   mpirun -np 2 build/examples/example_exchange   -> "level 2: received 1000 items ..."
#include <cstdio>

#include "comm/HT_Exchange.hpp"
#include "runtime/HT_Environment.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  constexpr std::int64_t kPerPeer = 1000;
  bool right = true;
  {
    ht::Exchange ex(env.comm(), 256);
    for (int level = 0; level < 3; ++level) {
      std::int64_t received = 0;
      // Called with each batch that arrives (a vertex this rank owns, a value).
      const ht::Exchange::Handler count = [&](const ht::Exchange::Item* items, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) right = right && items[i].value == level;
        received += static_cast<std::int64_t>(n);
      };
      ex.begin_level(level);
      for (int peer = 0; peer < env.size(); ++peer)
        if (peer != env.rank())
          for (std::int64_t i = 0; i < kPerPeer; ++i) ex.push(peer, {i, level}, count);
      ex.end_level(count);  // flush, then receive until the level is over on every rank
      const ht::Exchange::Stats s = ex.stats();
      std::printf("rank %d level %d: received %lld items in %lld messages sent\n", env.rank(),
                  level, static_cast<long long>(received), static_cast<long long>(s.messages));
      right = right && received == kPerPeer * (env.size() - 1);
    }
  }
  return right ? 0 : 1;
}
