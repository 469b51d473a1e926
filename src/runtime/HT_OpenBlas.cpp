#include "runtime/HT_OpenBlas.hpp"

#ifdef HT_HAVE_OPENBLAS_THREADS
extern "C" void openblas_set_num_threads(int);
#endif

namespace ht {

void set_blas_threads([[maybe_unused]] int n) {
#ifdef HT_HAVE_OPENBLAS_THREADS
  openblas_set_num_threads(n);
#endif
}

}  // namespace ht
