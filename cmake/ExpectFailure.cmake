# cmake -DCOMMAND=<cmd^arg^...> -DEXIT=<code> -DEXPECT=<regex> -DSECONDS=<s> -P ExpectFailure.cmake
# Passes when COMMAND ('^' separates its words) exits with EXIT, prints EXPECT,
# and ends within SECONDS.
string(REPLACE "^" ";" COMMAND "${COMMAND}")
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${SECONDS})
string(TIMESTAMP t1 "%s")
math(EXPR took "${t1} - ${t0}")
message("exit: ${rc} after ${took} s\nstdout:\n${out}\nstderr:\n${err}")
if(NOT rc STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}, got '${rc}'")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match: ${EXPECT}")
endif()
