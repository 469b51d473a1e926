# cmake -DCOMMAND=<a^b^...> -DNAMES=<n^m^...> -DOUT=<file> -P list_variants.cmake
# Runs COMMAND (graph500_bfs --list variants), which must exit 0 and list
# exactly NAMES, in order, as its lines' first words (the names the tests were
# defined for, from src/graph/bfs/HT_BfsVariant.def at configure time: a
# mismatch means reconfigure), each line as bfs_variants_list() writes it
# (name work reports min_tasks [traits]); its listing goes to OUT for
# check_graph500_results.py.
string(REPLACE "^" ";" command "${COMMAND}")
string(REPLACE "^" ";" want "${NAMES}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}\n${out}${err}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(names)
foreach(line IN LISTS lines)
  string(REGEX MATCH "^[a-z0-9_]+ [a-z_]+ [a-z_]+ [0-9]+( [a-z_0-9]+)*$" row "${line}")
  if(NOT row)
    message(FATAL_ERROR "not a variant line: '${line}'\n${out}")
  endif()
  string(REGEX MATCH "^[^ ]+" name "${line}")
  list(APPEND names ${name})
endforeach()
if(NOT names STREQUAL want)
  message(FATAL_ERROR "graph500_bfs lists '${names}'; the tests were defined for '${want}' "
                      "(src/graph/bfs/HT_BfsVariant.def at configure time): reconfigure")
endif()
file(WRITE ${OUT} "${out}")
message(STATUS "${out}")
