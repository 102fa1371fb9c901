# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Installation as a package: the exported target accel::accel with its CMake
# config and version files (${ACCEL_INSTALL_CMAKEDIR}), and a pkg-config file
# (${CMAKE_INSTALL_LIBDIR}/pkgconfig/accel.pc), all in the install component
# "development". Both locate the tree relative to themselves, so an installed
# prefix can be moved, whatever the libdir (lib, lib64, lib/x86_64-linux-gnu).
# Included from the top-level CMakeLists.txt after core/ (which installs the
# library into the accelTargets export set).
include(CMakePackageConfigHelpers)

# The same name inside this build, for projects that add accel as a subdirectory.
add_library(accel::accel ALIAS accel)

install(EXPORT accelTargets NAMESPACE accel:: DESTINATION ${ACCEL_INSTALL_CMAKEDIR}
        COMPONENT development)
# Components of find_package(accel COMPONENTS ...): backend plugins (cpu,
# cuda), each found when PLUGINDIR/libaccel_<name>.so is installed, and mpi,
# the library libaccel_mpi in LIBDIR, found when its targets file
# (accelMpiTargets.cmake, target accel::mpi) and the library are installed.
# The hints say where a missing one comes from.
set(ACCEL_COMPONENT_HINT_cpu "the CPU backend: Debian package libaccel${PROJECT_VERSION_MAJOR}; from source, always built")
set(ACCEL_COMPONENT_HINT_cuda "the CUDA backend: Debian package libaccel${PROJECT_VERSION_MAJOR}-cuda; from source, configure with -DACCEL_CUDA=ON, which needs nvcc")
set(ACCEL_COMPONENT_HINT_mpi "libaccel_mpi, collectives over MPI: Debian packages libaccel-mpi${PROJECT_VERSION_MAJOR} and libaccel-mpi-dev; from source, configure with MPI found (Debian: libopenmpi-dev)")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/accelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/accelConfig.cmake
  INSTALL_DESTINATION ${ACCEL_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR ACCEL_INSTALL_PLUGINDIR)
# 0.x: minor versions may break the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/accelConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/accelConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/accelConfigVersion.cmake
        DESTINATION ${ACCEL_INSTALL_CMAKEDIR} COMPONENT development)

# pkg-config: prefix is ${pcfiledir} plus the way up from libdir/pkgconfig to
# the prefix (../.. for lib, ../../.. for lib/x86_64-linux-gnu), computed here
# from CMAKE_INSTALL_LIBDIR. With ACCEL_RELOCATABLE=OFF (system packages), or
# an absolute libdir, the paths are absolute: pkg-config then prints plain
# /usr/include and can drop system directories from its output.
if(ACCEL_RELOCATABLE AND NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  file(RELATIVE_PATH ACCEL_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" ACCEL_PC_UP "${ACCEL_PC_UP}")
  set(ACCEL_PC_PREFIX "\${pcfiledir}/${ACCEL_PC_UP}")
else()
  set(ACCEL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
endif()
foreach(d INCLUDEDIR LIBDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(ACCEL_PC_${d} "${CMAKE_INSTALL_${d}}")
  else()
    set(ACCEL_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/accel.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/accel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/accel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)

# accel-mpi.pc, for libaccel_mpi (called from mpi/CMakeLists.txt once MPI is
# found; install component mpi-development). The MPI it was built with is
# named through that MPI's own pkg-config module where one exists (Open MPI:
# ompi-c, MPICH: mpich), else its include folders and libraries are written
# out. ACCEL_MPI_FLAVOUR (openmpi, mpich or other) is kept in the cache for
# the Debian package's dependency (cmake/accelCPack.cmake).
function(accel_install_pkgconfig_mpi)
  set(flavour other)
  set(module "")
  if("${MPI_C_LIBRARIES};${MPI_C_INCLUDE_DIRS}" MATCHES "openmpi")
    set(flavour openmpi)
    set(module ompi-c)
  elseif("${MPI_C_LIBRARIES};${MPI_C_INCLUDE_DIRS}" MATCHES "mpich")
    set(flavour mpich)
    set(module mpich)
  endif()
  set(ACCEL_MPI_FLAVOUR ${flavour} CACHE INTERNAL "the MPI implementation libaccel_mpi links")
  find_program(ACCEL_PKG_CONFIG NAMES pkg-config pkgconf)
  set(ACCEL_PC_MPI_REQUIRES "")
  set(ACCEL_PC_MPI_CFLAGS "")
  set(ACCEL_PC_MPI_LIBS "")
  if(module AND ACCEL_PKG_CONFIG)
    execute_process(COMMAND ${ACCEL_PKG_CONFIG} --exists ${module} RESULT_VARIABLE rc)
    if(rc EQUAL 0)
      set(ACCEL_PC_MPI_REQUIRES ", ${module}")
    endif()
  endif()
  if(NOT ACCEL_PC_MPI_REQUIRES)
    foreach(d IN LISTS MPI_C_INCLUDE_DIRS)
      string(APPEND ACCEL_PC_MPI_CFLAGS " -I${d}")
    endforeach()
    foreach(l IN LISTS MPI_C_LIBRARIES)
      string(APPEND ACCEL_PC_MPI_LIBS " ${l}")
    endforeach()
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/accel-mpi.pc.in
    ${PROJECT_BINARY_DIR}/pkgconfig/accel-mpi.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/accel-mpi.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT mpi-development)
endfunction()
