#include "runtime/HT_OpenBlas.hpp"

#ifdef HT_HAVE_OPENBLAS_THREADS
extern "C" void openblas_set_num_threads(int);
extern "C" int openblas_get_num_threads(void);
#endif

namespace ht {

void set_blas_threads([[maybe_unused]] int n) {
#ifdef HT_HAVE_OPENBLAS_THREADS
  openblas_set_num_threads(n);
#endif
}

int blas_threads() {
#ifdef HT_HAVE_OPENBLAS_THREADS
  return openblas_get_num_threads();
#else
  return 1;
#endif
}

}  // namespace ht
