# Writes the git revision and the project VERSION into OUT at build time,
# touching it only on change: as a header, or, given IN, as IN with
# @HT_VERSION@ and @HT_GIT_REVISION@ (and any other -D variable) replaced.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE rev ERROR_QUIET
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rev)
  set(rev "unknown")
endif()
if(IN)
  set(HT_VERSION "${VERSION}")
  set(HT_GIT_REVISION "${rev}")
  configure_file(${IN} ${OUT} @ONLY)
  return()
endif()
set(text "#pragma once\n#define HT_GIT_REVISION \"${rev}\"\n#define HT_VERSION \"${VERSION}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
