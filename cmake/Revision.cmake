# Writes the git revision and the project VERSION into OUT at build time,
# touching it only on change.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE rev ERROR_QUIET
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rev)
  set(rev "unknown")
endif()
set(text "#pragma once\n#define HT_GIT_REVISION \"${rev}\"\n#define HT_VERSION \"${VERSION}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
