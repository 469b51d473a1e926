# CTest dashboard script for performance tracking: configures, builds, runs
# the benchmarks (label perf, one at a time) and, when a CDash site is given,
# submits the results, whose CTest measurements CDash graphs per figure.
#   ctest -S perf/dashboard.cmake [-DCTEST_SUBMIT_URL=https://<cdash>/submit.php?project=HybridTasks]
#         [-DCTEST_BINARY_DIRECTORY=<dir>] [-DCTEST_SITE=<name>] [-DCTEST_BUILD_NAME=<name>]
#         [-DHT_PERF_TESTS=<regex>] [-DHT_DASHBOARD_MODEL=Experimental|Nightly|Continuous]
# Dependencies come from scripts/deps.sh (installed or reused from its cache).
cmake_minimum_required(VERSION 3.19)
get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT CTEST_BINARY_DIRECTORY)
  set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build-dashboard")
endif()
if(NOT CTEST_SITE)
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()
if(NOT CTEST_BUILD_NAME)
  set(CTEST_BUILD_NAME "hybridtasks-perf")
endif()
if(NOT HT_DASHBOARD_MODEL)
  set(HT_DASHBOARD_MODEL Experimental)
endif()
set(CTEST_CMAKE_GENERATOR Ninja)

execute_process(COMMAND "${CTEST_SOURCE_DIRECTORY}/scripts/deps.sh" OUTPUT_VARIABLE prefix
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/deps.sh failed (exit ${rc})")
endif()

ctest_start(${HT_DASHBOARD_MODEL})
ctest_configure(OPTIONS "-DCMAKE_BUILD_TYPE=Release;-DCMAKE_PREFIX_PATH=${prefix}"
                RETURN_VALUE configured)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configure failed")
endif()
include(ProcessorCount)
ProcessorCount(cores)
ctest_build(FLAGS -j${cores} RETURN_VALUE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "build failed")
endif()
if(HT_PERF_TESTS)
  ctest_test(INCLUDE_LABEL perf INCLUDE "${HT_PERF_TESTS}" PARALLEL_LEVEL 1 RETURN_VALUE tested)
else()
  ctest_test(INCLUDE_LABEL perf PARALLEL_LEVEL 1 RETURN_VALUE tested)
endif()
if(CTEST_SUBMIT_URL)
  ctest_submit()
else()
  message(STATUS "no CTEST_SUBMIT_URL: results kept in ${CTEST_BINARY_DIRECTORY}/Testing")
endif()
if(NOT tested EQUAL 0)
  message(FATAL_ERROR "a benchmark failed")
endif()
