# cmake -DCOMMAND=<cmd^arg^...> [-DEXIT=<code>] [-DEXPECT=<regex>] [-DFORBID=<regex>]
#       [-DSECONDS=<s>] [-DNO_FILES=<glob>] [-DUNSET=<VAR^...>] [-DWORKDIR=<dir>]
#       [-DMAX_LINES=<n>] [-DMAX_WIDTH=<n>] [-DLAST=<regex>] -P RunChecked.cmake
# Runs COMMAND ('^' separates its words), with the UNSET variables removed
# from its environment, in WORKDIR (if given: made empty first), and passes
# only when it exits with EXIT (default 0), its output matches EXPECT (if
# given) and not FORBID (if given), its stdout has at most MAX_LINES lines of
# at most MAX_WIDTH characters and ends on lines matching LAST (if given), it
# ends within SECONDS (default 120: a hang fails), and afterwards nothing
# matches NO_FILES (if given: a failed run must leave no temporary file behind).
# CTest's PASS_REGULAR_EXPRESSION alone would ignore the exit code.
string(REPLACE "^" ";" COMMAND "${COMMAND}")
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()
if(NOT SECONDS)
  set(SECONDS 120)
endif()
string(REPLACE "^" ";" UNSET "${UNSET}")
foreach(var IN LISTS UNSET)
  unset(ENV{${var}})
endforeach()
set(where)
if(WORKDIR)
  file(REMOVE_RECURSE "${WORKDIR}")
  file(MAKE_DIRECTORY "${WORKDIR}")
  set(where WORKING_DIRECTORY "${WORKDIR}")
endif()
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${SECONDS} ${where})
string(TIMESTAMP t1 "%s")
math(EXPR took "${t1} - ${t0}")
message("exit: ${rc} after ${took} s\nstdout:\n${out}\nstderr:\n${err}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}, got '${rc}'")
endif()
if(DEFINED EXPECT AND NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match: ${EXPECT}")
endif()
if(DEFINED FORBID AND "${out}${err}" MATCHES "${FORBID}")
  message(FATAL_ERROR "the output matches what it must not: ${FORBID} ('${CMAKE_MATCH_0}')")
endif()
if(MAX_LINES OR MAX_WIDTH)
  string(REGEX REPLACE "\n$" "" body "${out}")
  string(REPLACE ";" "," body "${body}")  # a list of lines, each kept whole
  string(REPLACE "\n" ";" lines "${body}")
  list(LENGTH lines count)
  if(MAX_LINES AND count GREATER MAX_LINES)
    message(FATAL_ERROR "stdout has ${count} lines, more than ${MAX_LINES}")
  endif()
  foreach(line IN LISTS lines)
    string(LENGTH "${line}" width)
    if(MAX_WIDTH AND width GREATER MAX_WIDTH)
      message(FATAL_ERROR "a line of ${width} characters, more than ${MAX_WIDTH}: ${line}")
    endif()
  endforeach()
endif()
if(DEFINED LAST AND NOT "${out}" MATCHES "${LAST}$")
  message(FATAL_ERROR "stdout does not end on: ${LAST}")
endif()
if(NO_FILES)
  file(GLOB left LIST_DIRECTORIES true "${NO_FILES}")
  if(left)
    message(FATAL_ERROR "left behind: ${left}")
  endif()
endif()
