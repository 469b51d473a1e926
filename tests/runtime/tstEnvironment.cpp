// Checks that both Kokkos thread flags reach Kokkos: run with
// --kokkos-threads=N or --kokkos-num-threads=N (or "--flag N") and --expect=N.
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/HT_Environment.hpp"

int main(int argc, char** argv) {
  ht::Environment env(argc, argv);
  int expect = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--expect=", 9) == 0) expect = std::stoi(argv[i] + 9);
    if (std::strncmp(argv[i], "--kokkos", 8) == 0) {
      std::fprintf(stderr, "Kokkos flag left in argv: %s\n", argv[i]);
      return 1;
    }
  }
  if (env.thread_level() < MPI_THREAD_FUNNELED) {
    std::fprintf(stderr, "MPI granted %s\n",
                 ht::Environment::thread_level_name(env.thread_level()));
    return 1;
  }
  if (env.threads() != expect) {
    std::fprintf(stderr, "rank %d: %d threads, expected %d\n", env.rank(), env.threads(), expect);
    return 1;
  }
  std::printf("rank %d: %d threads as asked (%s)\n", env.rank(), env.threads(),
              ht::Environment::kokkos_description().c_str());
  return 0;
}
