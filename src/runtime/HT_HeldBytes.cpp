#include "runtime/HT_HeldBytes.hpp"

#include <atomic>

namespace ht {

namespace {

struct Counter {
  std::atomic<std::int64_t> now{0}, high{0};
};

Counter& counter(Held what) {
  static Counter counters[kHeldKinds];
  return counters[static_cast<int>(what)];
}

}  // namespace

const char* held_name(Held what) {
  switch (what) {
    case Held::graph:
      return "graph";
    case Held::exchange:
      return "exchange";
    case Held::search:
      return "search";
  }
  return "?";
}

void held_add(Held what, std::int64_t bytes) {
  Counter& c = counter(what);
  const std::int64_t now = c.now.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::int64_t high = c.high.load(std::memory_order_relaxed);
  while (now > high && !c.high.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
  }
}

HeldBytes held_bytes(Held what) {
  const Counter& c = counter(what);
  return {c.now.load(std::memory_order_relaxed), c.high.load(std::memory_order_relaxed)};
}

void held_reset_high() {
  for (int k = 0; k < kHeldKinds; ++k) {
    Counter& c = counter(static_cast<Held>(k));
    c.high.store(c.now.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
}

}  // namespace ht
