# Writes the git revision and the version (VERSION: the text a build reports)
# into OUT at build time, touching it only on change: as a header, or, given
# IN, as IN with @HT_VERSION@ and @HT_GIT_REVISION@ (and any other -D
# variable) replaced.  A release tarball's revision is RELEASE_COMMIT; any
# other tree's is `git describe` of its own clone (not that of a clone it
# lies inside), or "unknown".
set(rev "unknown")
if(RELEASE_COMMIT)
  set(rev "${RELEASE_COMMIT}")
else()
  execute_process(COMMAND git rev-parse --show-toplevel WORKING_DIRECTORY ${SRC}
                  OUTPUT_VARIABLE top ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  file(REAL_PATH "${SRC}" src_real)
  if(top)
    file(REAL_PATH "${top}" top)
  endif()
  if(top STREQUAL src_real)
    execute_process(COMMAND git describe --always --dirty --abbrev=12
                    WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE rev ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
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
