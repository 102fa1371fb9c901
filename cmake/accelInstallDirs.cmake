# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The install layout, for every install() rule of the tree. Included from the
# top-level CMakeLists.txt before any subdirectory.
#
#   PREFIX/${CMAKE_INSTALL_BINDIR}/accel               the program
#   PREFIX/${CMAKE_INSTALL_LIBDIR}/libaccel.so*        the runtime
#   PREFIX/${ACCEL_INSTALL_PLUGINDIR}/                 plugins.ini, libaccel_<name>.so
#   PREFIX/${ACCEL_INSTALL_CMAKEDIR}/                  accelConfig.cmake, ...
#   PREFIX/${CMAKE_INSTALL_LIBDIR}/pkgconfig/accel.pc, accel-mpi.pc
#   PREFIX/${CMAKE_INSTALL_LIBDIR}/libaccel_mpi.so*    collectives over MPI (when built)
#   PREFIX/${ACCEL_INSTALL_EXAMPLESDIR}/               example programs
#   PREFIX/${ACCEL_INSTALL_EXAMPLE_SOURCESDIR}/        their sources
#
# The examples have generic names (matmul, overlap, ...), so they go to a
# folder of accel's own under libexec (FHS 3.0 and Debian policy 9.1.1: programs
# not meant to be run directly by users), never to bin/. Their sources are
# architecture-independent and go under share/.
#
# Install components (cmake --install BUILD --component NAME; one or more per
# Debian package, cmake/accelCPack.cmake):
#   runtime       libaccel.so.N*, plugins.ini
#   development   headers, libaccel.so, CMake package, pkg-config file
#   plugin-NAME   one per backend plugin (plugin-cpu, plugin-cuda)
#   mpi           libaccel_mpi.so.N*, its example programs
#   mpi-development  accel/mpi.h, libaccel_mpi.so, accel::mpi's CMake file, accel-mpi.pc
#   tools         the accel program, its man pages and shell completion
#   examples      example programs and their sources
# A new install() rule names one of these with COMPONENT.
#
# The tools' man pages and bash completion are written at build time by the
# program itself: the man pages go to ${CMAKE_INSTALL_MANDIR}/man1, compressed
# by cmake/accelGzipDir.cmake (Debian policy 12.1), the completion through
# accel_install_bash_completion() below, both with COMPONENT tools.

include(GNUInstallDirs)

option(ACCEL_RELOCATABLE
  "Installed tree works from any prefix ($ORIGIN RPATHs, pkg-config paths relative to the .pc file); OFF for system packages: no RPATH, absolute pkg-config paths"
  ON)

set(ACCEL_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/${ACCEL_PLUGIN_SUBDIR})
set(ACCEL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/accel)
set(ACCEL_INSTALL_EXAMPLESDIR ${CMAKE_INSTALL_LIBEXECDIR}/accel/examples)
set(ACCEL_INSTALL_EXAMPLE_SOURCESDIR ${CMAKE_INSTALL_DATADIR}/accel/examples)
set(ACCEL_INSTALL_BASH_COMPLETIONDIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

# File modes do not depend on the umask: programs 0755; shared libraries and
# plugins 0644 (ACCEL_INSTALL_LIBRARY_PERMISSIONS; Debian policy 8.1: the
# dynamic linker does not need the execute bit); other files 0644 (the default
# of install(FILES/DIRECTORY)); the folders install creates 0755 (by default
# they would follow the umask, and a group-writable plugin folder makes the
# runtime refuse its plugins).
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(ACCEL_INSTALL_LIBRARY_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

# accel_install_rpath(VAR DIR): in VAR, the RPATH of a program installed in
# DIR (relative to the prefix) that finds libaccel in the libdir of the same
# prefix, wherever the prefix is moved. Empty with ACCEL_RELOCATABLE=OFF.
function(accel_install_rpath var dir)
  if(NOT ACCEL_RELOCATABLE)
    set(${var} "" PARENT_SCOPE)
  elseif(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(${var} "${CMAKE_INSTALL_LIBDIR}" PARENT_SCOPE)
  else()
    file(RELATIVE_PATH rel "/${dir}" "/${CMAKE_INSTALL_LIBDIR}")
    set(${var} "$ORIGIN/${rel}" PARENT_SCOPE)
  endif()
endfunction()

# Default for every target: programs in bin/.
accel_install_rpath(CMAKE_INSTALL_RPATH ${CMAKE_INSTALL_BINDIR})

# accel_install_bash_completion(FILE): the bash completion script for the
# accel program, written at build time to FILE, installed as
# ${ACCEL_INSTALL_BASH_COMPLETIONDIR}/accel (bash-completion loads it on
# demand when `accel` is completed).
function(accel_install_bash_completion file)
  install(FILES ${file} DESTINATION ${ACCEL_INSTALL_BASH_COMPLETIONDIR} RENAME accel COMPONENT tools)
endfunction()
