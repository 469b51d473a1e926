# Test helpers: MPI tests registered per rank count (np = 1, 2, 4) and thread
# count, and command-line tests that must fail cleanly.
find_package(GTest REQUIRED)

# mpirun flags for a 2-core machine: more ranks than cores is fine, and ranks
# are not bound to one core so that threads of a rank can spread.
set(HT_MPIEXEC_PREFLAGS ${MPIEXEC_PREFLAGS})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _ht_mpi_version
                ERROR_QUIET)
if(_ht_mpi_version MATCHES "Open MPI|OpenRTE")
  list(APPEND HT_MPIEXEC_PREFLAGS --oversubscribe --bind-to none)
endif()
# Open MPI refuses root unless told; harmless otherwise.
set(HT_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                        OMP_PROC_BIND=false)

# ht_mpi_command(<out-var> <ranks> <threads> <exe> <args>...)
function(ht_mpi_command out ranks threads exe)
  set(${out} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${HT_MPIEXEC_PREFLAGS}
             $<TARGET_FILE:${exe}> ${MPIEXEC_POSTFLAGS} ${ARGN} --kokkos-num-threads=${threads}
      PARENT_SCOPE)
endfunction()

# ht_add_mpi_test(NAME <name> TARGET <exe> RANKS <n>... THREADS <t>...
#                 [ARGS <arg>...] [LABELS <l>...] [TIMEOUT <s>])
# One test per (ranks, threads): <name>_np<n>_t<t>.
function(ht_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TARGET;TIMEOUT" "RANKS;THREADS;ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  foreach(np ${T_RANKS})
    foreach(nt ${T_THREADS})
      ht_mpi_command(cmd ${np} ${nt} ${T_TARGET} ${T_ARGS})
      set(name ${T_NAME}_np${np}_t${nt})
      add_test(NAME ${name} COMMAND ${cmd})
      set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HT_TEST_ENVIRONMENT}"
                           TIMEOUT ${T_TIMEOUT} PROCESSORS 2 LABELS "${T_LABELS}")
    endforeach()
  endforeach()
endfunction()

# ht_add_failure_test(NAME <name> TARGET <exe> RANKS <n>... EXIT <code>
#                     EXPECT <regex> [ARGS <arg>...] [SECONDS <s>])
# The command must exit with <code> (every rank: mpirun reports the first
# non-zero), print <regex>, and finish within <s> seconds: a hang fails.
function(ht_add_failure_test)
  cmake_parse_arguments(T "" "NAME;TARGET;EXIT;EXPECT;SECONDS" "RANKS;ARGS" ${ARGN})
  if(NOT T_SECONDS)
    set(T_SECONDS 30)
  endif()
  foreach(np ${T_RANKS})
    ht_mpi_command(cmd ${np} 1 ${T_TARGET} ${T_ARGS})
    string(REPLACE ";" "^" cmd "${cmd}") # one argument; ExpectFailure.cmake splits it
    set(name ${T_NAME}_np${np})
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${cmd}" -DEXIT=${T_EXIT} "-DEXPECT=${T_EXPECT}"
                     -DSECONDS=${T_SECONDS} -P ${PROJECT_SOURCE_DIR}/cmake/ExpectFailure.cmake)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HT_TEST_ENVIRONMENT}"
                         TIMEOUT 120 PROCESSORS 2)
  endforeach()
endfunction()

# ht_add_bad_input_tests(<target> <case>...): each case "id|arg,arg,...|regex"
# becomes <target>_bad_<id>_np{1,2,4}: exit 2 with the message, on every rank.
function(ht_add_bad_input_tests target)
  foreach(case IN LISTS ARGN)
    string(REPLACE "," "|" case "${case}")  # "," separates arguments
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 id)
    list(GET parts -1 expect)
    list(REMOVE_AT parts 0 -1)
    ht_add_failure_test(NAME ${target}_bad_${id} TARGET ${target} RANKS 1 2 4 EXIT 2
                        EXPECT "${expect}" ARGS ${parts})
  endforeach()
endfunction()
