# Prints the fully-defaulted deck of DECK with an override, then runs APP on it.
execute_process(COMMAND ${APP} ${DECK} --set GEMM/N=40 --print-deck OUTPUT_FILE ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--print-deck exited ${rc}")
endif()
file(READ ${OUT} text)
foreach(key "name=\"N\" type=\"int\"[^>]* value=\"40\"" "name=\"tile\"" "name=\"pool_MiB\"")
  if(NOT text MATCHES "${key}")
    message(FATAL_ERROR "printed deck lacks ${key}:\n${text}")
  endif()
endforeach()
execute_process(COMMAND ${APP} ${OUT} --set Output/file=${OUT}.h5 --set Output/overwrite=true RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "N = 40 .*PASSED")
  message(FATAL_ERROR "the printed deck did not run (${rc}):\n${out}")
endif()
