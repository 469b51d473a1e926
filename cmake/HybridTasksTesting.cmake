# Test helpers: MPI tests registered per rank count (np = 1, 2, 4) and thread
# count, driver runs checked on exit code and output, and command-line tests
# that must fail cleanly.
find_package(GTest REQUIRED)

# mpirun flags for a 2-core machine: more ranks than cores is fine, and ranks
# are not bound to one core so that threads of a rank can spread.
set(HT_MPIEXEC_PREFLAGS ${MPIEXEC_PREFLAGS})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _ht_mpi_version
                ERROR_QUIET)
if(_ht_mpi_version MATCHES "Open MPI|OpenRTE")
  list(APPEND HT_MPIEXEC_PREFLAGS --oversubscribe --bind-to none)
endif()
# Open MPI refuses root unless told; harmless otherwise.  The suite runs
# tests side by side (ctest -j), so ranks outnumber the cores even where one
# test's do not: a rank waiting in an MPI call yields its core (Open MPI does
# so by itself only when one mpirun oversubscribes).  tstBfsShapes on 2
# ranks (a collective a level) took 2.2x as long without it, two copies at
# once on 2 cores.  perf/ takes it out: benchmarks run alone.
set(HT_TEST_YIELD OMPI_MCA_mpi_yield_when_idle=1)
set(HT_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                        OMP_PROC_BIND=false OMP_MAX_TASK_PRIORITY=2 ${HT_TEST_YIELD})

# ht_mpi_command(<out-var> <ranks> <threads> <exe> <args>...)
function(ht_mpi_command out ranks threads exe)
  set(${out} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${HT_MPIEXEC_PREFLAGS}
             $<TARGET_FILE:${exe}> ${MPIEXEC_POSTFLAGS} ${ARGN} --kokkos-num-threads=${threads}
      PARENT_SCOPE)
endfunction()

# ht_add_mpi_test(NAME <name> TARGET <exe> RANKS <n>... THREADS <t>...
#                 [ARGS <arg>...] [LABELS <l>...] [TIMEOUT <s>] [ENVIRONMENT <VAR=value>...])
# One test per (ranks, threads): <name>_np<n>_t<t>.
function(ht_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TARGET;TIMEOUT" "RANKS;THREADS;ARGS;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  foreach(np ${T_RANKS})
    foreach(nt ${T_THREADS})
      ht_mpi_command(cmd ${np} ${nt} ${T_TARGET} ${T_ARGS})
      set(name ${T_NAME}_np${np}_t${nt})
      add_test(NAME ${name} COMMAND ${cmd})
      set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HT_TEST_ENVIRONMENT};${T_ENVIRONMENT}"
                           TIMEOUT ${T_TIMEOUT} PROCESSORS 2 LABELS "${T_LABELS}")
    endforeach()
  endforeach()
endfunction()

# ht_add_checked_test(<name> <cmd^arg^...> <-Dcheck=...>...): <cmd> run by
# cmake/RunChecked.cmake with the given checks (EXIT defaults to 0).
function(ht_add_checked_test name cmd)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${cmd}" ${ARGN} -P
                                ${PROJECT_SOURCE_DIR}/cmake/RunChecked.cmake)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${HT_TEST_ENVIRONMENT}")
endfunction()

# ht_add_run_test(NAME <name> TARGET <exe> RANKS <n> THREADS <t> [ARGS <arg>...]
#                 [EXIT <code>] [EXPECT <regex>] [FORBID <regex>] [SECONDS <s>]
#                 [NO_FILES <glob>] [UNSET <VAR>...] [ENVIRONMENT <VAR=value>...]
#                 [LABELS <l>...] [FIXTURES_SETUP <f>] [WORKDIR <dir>]
#                 [MAX_LINES <n>] [MAX_WIDTH <n>] [LAST <regex>])
# One mpirun of <exe>, checked by cmake/RunChecked.cmake: the exit code (0
# unless EXIT says otherwise) *and* the output, within SECONDS (a hang fails).
# UNSET removes variables of the tests' environment, as a user's shell lacks
# them; ENVIRONMENT adds some.  WORKDIR, MAX_LINES, MAX_WIDTH, LAST: as
# RunChecked.cmake's.
function(ht_add_run_test)
  cmake_parse_arguments(
    T ""
    "NAME;TARGET;RANKS;THREADS;EXIT;EXPECT;FORBID;SECONDS;NO_FILES;FIXTURES_SETUP;WORKDIR;MAX_LINES;MAX_WIDTH;LAST"
    "ARGS;LABELS;UNSET;ENVIRONMENT" ${ARGN})
  if(NOT DEFINED T_EXIT)
    set(T_EXIT 0)
  endif()
  if(NOT T_SECONDS)
    set(T_SECONDS 120)
  endif()
  ht_mpi_command(cmd ${T_RANKS} ${T_THREADS} ${T_TARGET} ${T_ARGS})
  string(REPLACE ";" "^" cmd "${cmd}") # one argument; RunChecked.cmake splits it
  set(checks -DEXIT=${T_EXIT} -DSECONDS=${T_SECONDS})
  if(NOT "${T_EXPECT}" STREQUAL "")
    list(APPEND checks "-DEXPECT=${T_EXPECT}")
  endif()
  if(NOT "${T_NO_FILES}" STREQUAL "")
    list(APPEND checks "-DNO_FILES=${T_NO_FILES}")
  endif()
  if(NOT "${T_FORBID}" STREQUAL "")
    list(APPEND checks "-DFORBID=${T_FORBID}")
  endif()
  foreach(opt WORKDIR MAX_LINES MAX_WIDTH LAST)
    if(NOT "${T_${opt}}" STREQUAL "")
      list(APPEND checks "-D${opt}=${T_${opt}}")
    endif()
  endforeach()
  if(T_UNSET)
    string(REPLACE ";" "^" unset "${T_UNSET}")
    list(APPEND checks "-DUNSET=${unset}")
  endif()
  ht_add_checked_test(${T_NAME} "${cmd}" ${checks})
  math(EXPR limit "${T_SECONDS} + 30")
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${HT_TEST_ENVIRONMENT};${T_ENVIRONMENT}"
                       TIMEOUT ${limit} PROCESSORS 2 LABELS "${T_LABELS}")
  if(T_FIXTURES_SETUP)
    set_tests_properties(${T_NAME} PROPERTIES FIXTURES_SETUP ${T_FIXTURES_SETUP})
  endif()
endfunction()

# ht_add_app_test(NAME <name> TARGET <exe> RANKS <n>... THREADS <t>... EXPECT <regex>
#                 [ARGS <arg>...] [RESULTS <script> <arg>...] [ENVIRONMENT <VAR=value>...])
# A driver run that must exit 0 and print <regex>, one per (ranks, threads):
# <name>_np<n>_t<t>, label app.  With RESULTS, each run writes <name>_np<n>_t<t>.h5
# in the build tree and a test <...>_results reads it back after the run:
# `python3 <script> <file> <n> <t> <arg>...` (the script beside the caller).
function(ht_add_app_test)
  cmake_parse_arguments(T "" "NAME;TARGET;EXPECT" "RANKS;THREADS;ARGS;RESULTS;ENVIRONMENT" ${ARGN})
  foreach(np ${T_RANKS})
    foreach(nt ${T_THREADS})
      set(name ${T_NAME}_np${np}_t${nt})
      set(args ${T_ARGS})
      if(T_RESULTS)
        set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.h5)
        list(APPEND args --set Output/file=${out} --set Output/overwrite=true)
      endif()
      ht_add_run_test(NAME ${name} TARGET ${T_TARGET} RANKS ${np} THREADS ${nt} ARGS ${args}
                      EXPECT "${T_EXPECT}" LABELS app)
      set(tests ${name})
      if(T_RESULTS)
        list(POP_FRONT T_RESULTS script)
        add_test(NAME ${name}_results
                 COMMAND ${HT_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/${script} ${out} ${np} ${nt}
                         ${T_RESULTS})
        list(PREPEND T_RESULTS ${script})
        set_tests_properties(${name} PROPERTIES FIXTURES_SETUP ${name})
        set_tests_properties(${name}_results PROPERTIES FIXTURES_REQUIRED ${name} LABELS app)
        list(APPEND tests ${name}_results)
      endif()
      if(T_ENVIRONMENT)
        set_tests_properties(${tests} PROPERTIES ENVIRONMENT
                                                 "${HT_TEST_ENVIRONMENT};${T_ENVIRONMENT}")
      endif()
    endforeach()
  endforeach()
endfunction()

# ht_add_failure_test(NAME <name> TARGET <exe> RANKS <n>... EXIT <code>
#                     EXPECT <regex> [FORBID <regex>] [ARGS <arg>...] [SECONDS <s>]
#                     [NO_FILES <glob>] [ENVIRONMENT <VAR=value>...])
# The command must exit with <code> (every rank: mpirun reports the first
# non-zero), print <regex> and not FORBID, and finish within <s> seconds
# (default 30).
function(ht_add_failure_test)
  cmake_parse_arguments(T "" "NAME;TARGET;EXIT;EXPECT;FORBID;SECONDS;NO_FILES"
                        "RANKS;ARGS;ENVIRONMENT" ${ARGN})
  if(NOT T_SECONDS)
    set(T_SECONDS 30)
  endif()
  foreach(np ${T_RANKS})
    ht_add_run_test(NAME ${T_NAME}_np${np} TARGET ${T_TARGET} RANKS ${np} THREADS 1
                    ARGS ${T_ARGS} EXIT ${T_EXIT} EXPECT "${T_EXPECT}" FORBID "${T_FORBID}"
                    SECONDS ${T_SECONDS} NO_FILES "${T_NO_FILES}" ENVIRONMENT ${T_ENVIRONMENT})
  endforeach()
endfunction()

# What Teuchos says that a user must never see.
set(HT_TEUCHOS_WORDS "Throw number|Parser was in state|evaluated to true|Validator Used|ANONYMOUS|Teuchos")

# ht_add_bad_input_tests(<target> <case>...): each case "id|arg,arg,...|regex"
# becomes <target>_bad_<id>_np{1,2,4}: exit 2 with the message, on every rank,
# in our words (none of Teuchos' exception text).
function(ht_add_bad_input_tests target)
  foreach(case IN LISTS ARGN)
    string(REPLACE "," "|" case "${case}")  # "," separates arguments
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 id)
    list(GET parts -1 expect)
    list(REMOVE_AT parts 0 -1)
    ht_add_failure_test(NAME ${target}_bad_${id} TARGET ${target} RANKS 1 2 4 EXIT 2
                        EXPECT "${expect}" FORBID "${HT_TEUCHOS_WORDS}" ARGS ${parts})
  endforeach()
endfunction()
