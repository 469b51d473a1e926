#include "runtime/HT_TaskRuntime.hpp"
// This runtime provides every name the library calls, as the other does.
#include "runtime/impl/HT_TaskRuntimeInterface.hpp"

#include <sstream>

namespace ht {

namespace {
std::size_t at_least_one_superblock(std::size_t bytes) {
  return bytes < TaskRuntime::superblock ? TaskRuntime::superblock : bytes;
}
}  // namespace

TaskRuntime::TaskRuntime(std::size_t pool_bytes, std::string pool_key)
    : pool_bytes_(at_least_one_superblock(pool_bytes)),
      pool_key_(std::move(pool_key)),
      pool_(typename Scheduler::memory_space(), pool_bytes_, 64, max_block, superblock),
      scheduler_(pool_) {}

void TaskRuntime::reserve(std::size_t bytes, bool in_task) {
  void* p = bytes > max_block ? nullptr : pool_.allocate(bytes);
  if (p != nullptr) {
    pool_.deallocate(p, bytes);
    return;
  }
  std::ostringstream msg;
  msg << "task pool exhausted: the Kokkos task memory pool of " << pool_bytes_ << " bytes ("
      << (pool_bytes_ >= (1u << 20) ? pool_bytes_ >> 20 : pool_bytes_ >> 10)
      << (pool_bytes_ >= (1u << 20) ? " MiB" : " KiB") << ") has no free block of " << bytes
      << " bytes for another task; raise '" << pool_key_
      << "' in the deck (0 sizes the pool from the work)";
  if (in_task) abort_all(msg.str());
  throw Error(msg.str());
}

}  // namespace ht
