# Warnings for HybridTasks' own targets only (dependencies keep theirs).
add_library(ht_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(ht_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow)
endif()
# Kokkos 4.5-4.7 mark tasking deprecated; HybridTasks uses it on purpose.
if(Kokkos_VERSION VERSION_GREATER_EQUAL 4.5)
  target_compile_options(ht_warnings INTERFACE -Wno-deprecated-declarations)
endif()
