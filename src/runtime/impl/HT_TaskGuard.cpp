#include "runtime/impl/HT_TaskGuard.hpp"

#include "runtime/HT_Error.hpp"

namespace ht {

void impl::task_failed(const std::string& what) { abort_all(what); }

}  // namespace ht
