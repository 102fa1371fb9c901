# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# cmake -DIN=DIR -DOUT=DIR -DGZIP=PATH -P accelGzipDir.cmake: OUT holds
# NAME.gz (gzip -9n: no name or time stamp, so the bytes depend only on the
# content) for every file NAME in IN, and nothing else. For the man pages
# (accelInstallDirs.cmake).
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(GLOB files LIST_DIRECTORIES false "${IN}/*")
if(NOT files)
  message(FATAL_ERROR "accelGzipDir: ${IN} holds no files")
endif()
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  execute_process(COMMAND "${GZIP}" -9 -n -c "${f}" OUTPUT_FILE "${OUT}/${name}.gz"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "accelGzipDir: gzip ${f} failed (${rc})")
  endif()
endforeach()
