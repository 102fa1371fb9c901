# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Debian packages from this build: `cpack -G DEB` in the build tree, one
# package per group of install components (cmake/accelInstallDirs.cmake):
#
#   libaccel0        runtime + plugin-cpu   libaccel.so.0*, plugins.ini, the CPU backend
#   libaccel-dev     development            headers, libaccel.so, CMake and pkg-config files
#   libaccel0-cuda   plugin-cuda            the CUDA backend (only when it is built)
#   accel-tools      tools                  the accel program, man pages, bash completion
#   accel-examples   examples               example programs (libexec) and their sources
#   libaccel-mpi0    mpi                    libaccel_mpi.so.0*, mpi_dot, mpi_bench (when MPI is found)
#   libaccel-mpi-dev mpi-development        accel/mpi.h, libaccel_mpi.so, accel::mpi, accel-mpi.pc
#
# libaccel_mpi's development files are a package of their own, not part of
# libaccel-dev: accel/mpi.h includes <mpi.h> and the libaccel_mpi.so link
# needs libaccel-mpi0, so in libaccel-dev they would either be broken without
# MPI or make every C user of accel install Open MPI. libaccel-mpi-dev depends
# on libaccel-dev, libaccel-mpi0 and the MPI development package of the MPI it
# was built with (Open MPI: libopenmpi-dev).
#
# The runtime package is named after the SONAME (Debian policy 8.1), so a new
# major version installs next to the old one. The CUDA backend has a package of
# its own so that a machine without CUDA does not pull it in.
#
# Dependencies on other packages come from dpkg-shlibdeps (dpkg-dev; without
# it CPack silently falls back to the explicit ones only, so the build
# script refuses to run without it), and between our own packages from the
# explicit "(= version)" ones below. libaccel0 carries a shlibs file, so
# packages built against it later get "libaccel0 (>= VERSION)".
#
# The CUDA backend links the CUDA runtime statically and dlopens the driver
# (libcuda.so.1), cuBLAS, NVRTC and NCCL when it starts, so dpkg-shlibdeps
# sees none of them: its Depends are only the C/C++ runtime libraries. They
# are Recommends (driver, cuBLAS, NVRTC) and Suggests (NCCL) naming the
# packages of NVIDIA's repository, with the driver version the runtime needs
# (below); without them the backend reports in `accel info` why it is
# unavailable and the runtime uses the CPU.
#
# Meant for a build configured with -DCMAKE_INSTALL_PREFIX=/usr (GNUInstallDirs
# then picks Debian's multiarch libdir, lib/<triplet>) and -DACCEL_RELOCATABLE=OFF
# (no RPATH, absolute pkg-config paths): tools/build-debs.sh does both.

set(ACCEL_PACKAGE_MAINTAINER "The accel authors <accel@example.org>"
    CACHE STRING "Maintainer field of the Debian packages (Name <address>)")
set(ACCEL_DEB_RELEASE 1 CACHE STRING "Debian revision of the packages (the -N of VERSION-N)")
set(ACCEL_DEB_VERSION ${PROJECT_VERSION}-${ACCEL_DEB_RELEASE})

# Package name -> install components.
set(ACCEL_DEB_GROUPS lib dev tools examples)
set(ACCEL_DEB_lib_NAME libaccel${PROJECT_VERSION_MAJOR})
set(ACCEL_DEB_lib_COMPONENTS runtime plugin-cpu)
set(ACCEL_DEB_dev_NAME libaccel-dev)
set(ACCEL_DEB_dev_COMPONENTS development)
set(ACCEL_DEB_tools_NAME accel-tools)
set(ACCEL_DEB_tools_COMPONENTS tools)
set(ACCEL_DEB_examples_NAME accel-examples)
set(ACCEL_DEB_examples_COMPONENTS examples)

# Every install component must belong to a package. A plugin-NAME component
# other than plugin-cpu gets a package of its own, libaccelN-NAME; any other
# component (an install() rule without COMPONENT lands in "Unspecified") goes
# to accel-tools with a warning, rather than silently into no package.
get_cmake_property(accel_install_components COMPONENTS)
foreach(c IN LISTS accel_install_components)
  set(known FALSE)
  foreach(g IN LISTS ACCEL_DEB_GROUPS)
    if(c IN_LIST ACCEL_DEB_${g}_COMPONENTS)
      set(known TRUE)
    endif()
  endforeach()
  if(known)
  elseif(c STREQUAL "mpi")
    list(APPEND ACCEL_DEB_GROUPS mpi)
    set(ACCEL_DEB_mpi_NAME libaccel-mpi${PROJECT_VERSION_MAJOR}) # after its soname
    set(ACCEL_DEB_mpi_COMPONENTS mpi)
  elseif(c STREQUAL "mpi-development")
    list(APPEND ACCEL_DEB_GROUPS mpidev)
    set(ACCEL_DEB_mpidev_NAME libaccel-mpi-dev)
    set(ACCEL_DEB_mpidev_COMPONENTS mpi-development)
  elseif(c MATCHES "^plugin-([a-z0-9]+)$")
    set(g ${CMAKE_MATCH_1})
    list(APPEND ACCEL_DEB_GROUPS ${g})
    set(ACCEL_DEB_${g}_NAME libaccel${PROJECT_VERSION_MAJOR}-${g})
    set(ACCEL_DEB_${g}_COMPONENTS ${c})
  else()
    message(WARNING "accel: install component '${c}' belongs to no Debian package; it goes to "
                    "${ACCEL_DEB_tools_NAME}. Give its install() rule a COMPONENT of "
                    "cmake/accelInstallDirs.cmake.")
    list(APPEND ACCEL_DEB_tools_COMPONENTS ${c})
  endif()
endforeach()

# Each package's /usr/share/doc/PACKAGE: copyright (Debian policy 12.5) and
# changelog.Debian.gz (12.7). Only installed by the per-component installs of
# CPack (EXCLUDE_FROM_ALL), not by a plain `cmake --install`.
string(TIMESTAMP ACCEL_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC) # honours SOURCE_DATE_EPOCH
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog.Debian @ONLY)
find_program(ACCEL_GZIP gzip)
if(ACCEL_GZIP)
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz
    COMMAND ${ACCEL_GZIP} -9 -n -c ${PROJECT_BINARY_DIR}/debian/changelog.Debian
            > ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz
    DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.Debian
    COMMENT "Compressing the Debian changelog")
  add_custom_target(accel_deb_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz)
endif()
foreach(g IN LISTS ACCEL_DEB_GROUPS)
  list(GET ACCEL_DEB_${g}_COMPONENTS 0 first)
  set(docdir ${CMAKE_INSTALL_DATADIR}/doc/${ACCEL_DEB_${g}_NAME})
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright DESTINATION ${docdir}
          COMPONENT ${first} EXCLUDE_FROM_ALL)
  if(ACCEL_GZIP)
    install(FILES ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz DESTINATION ${docdir}
            COMPONENT ${first} EXCLUDE_FROM_ALL)
  endif()
endforeach()

if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(STATUS "accel: CMAKE_INSTALL_PREFIX is ${CMAKE_INSTALL_PREFIX}; Debian packages want /usr "
                 "(tools/build-debs.sh)")
endif()

set(CPACK_PACKAGE_NAME accel)
set(CPACK_PACKAGE_VENDOR "The accel authors")
set(CPACK_PACKAGE_CONTACT "${ACCEL_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPack would put it before each
# package's own synopsis line (the first line of CPACK_DEBIAN_*_DESCRIPTION).
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/accel/accel")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${ACCEL_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ACCEL_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${CPACK_PACKAGE_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SOURCE accel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The build tree's lib/: dpkg-shlibdeps finds libaccel.so.0 there for the
# programs of accel-tools and accel-examples (their dependency on libaccel0
# is the explicit one below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
# Control files 0644 (scripts 0755) whatever the umask (Debian policy 10.9).
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

set(accel_needs_lib "${ACCEL_DEB_lib_NAME} (= ${ACCEL_DEB_VERSION})")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME ${ACCEL_DEB_lib_NAME})
# The CPU backend dlopens OpenBLAS itself (backends/cpu/blas.c binds its own
# copy even when the host program links another CBLAS), so dpkg-shlibdeps
# cannot see it: name it. libopenblas0 is the metapackage of the variants
# that provide libopenblas.so.0.
set(CPACK_DEBIAN_LIB_PACKAGE_DEPENDS
  "libopenblas0 | libopenblas0-pthread | libopenblas0-openmp | libopenblas0-serial")
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
# A shlibs file for each library with a SONAME (libaccel.so.0; the plugins
# have none and CPack says so): "libaccel 0 libaccel0 (>= VERSION)".
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# ldconfig runs through dpkg's trigger (Debian policy 8.1.1), not from
# maintainer scripts: our own (empty of ldconfig) postinst and postrm keep
# CPack from writing ones that call it (CPackDeb does for any package with a
# library under /usr/lib unless CONTROL_EXTRA has its own).
set(accel_deb_ldconfig_by_trigger ${CMAKE_CURRENT_LIST_DIR}/debian/triggers
  ${CMAKE_CURRENT_LIST_DIR}/debian/postinst ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${accel_deb_ldconfig_by_trigger})
set(CPACK_DEBIAN_LIB_DESCRIPTION "plugin-based multi-backend compute runtime (CUDA GPUs, CPU)
accel runs one program's devices, buffers, queues, events and ops
(elementwise, reductions, GEMM, random numbers, copies) on whichever backend
plugins load: a GPU when there is one, the CPU when there is not. Every
backend gives the same answers to a documented tolerance, so the CPU can check
the GPU's results.
.
This package holds the shared library, the default plugins.ini and the CPU
backend (OpenBLAS and threads). The CUDA backend is in libaccel${PROJECT_VERSION_MAJOR}-cuda.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME ${ACCEL_DEB_dev_NAME})
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${accel_needs_lib}")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkgconf | pkg-config, cmake")
set(CPACK_DEBIAN_DEV_DESCRIPTION "plugin-based multi-backend compute runtime - development files
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load: a GPU when there is one, the CPU when there
is not.
.
This package holds the headers (accel/accel.h, the plugin ABI), the
libaccel.so link, the CMake package (find_package(accel CONFIG), target
accel::accel, COMPONENTS for the backends) and the pkg-config file (accel).
libaccel_mpi's are in libaccel-mpi-dev.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME ${ACCEL_DEB_tools_NAME})
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION science)
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${accel_needs_lib}")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "plugin-based multi-backend compute runtime - command-line program
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load: a GPU when there is one, the CPU when there
is not.
.
This package holds the accel program: accel info (the backends tried and
why each loaded or not, the devices), accel run (NumPy .npy files in and
out), demo, bench, verify and replay.")

set(CPACK_DEBIAN_EXAMPLES_PACKAGE_NAME ${ACCEL_DEB_examples_NAME})
set(CPACK_DEBIAN_EXAMPLES_PACKAGE_SECTION science)
set(CPACK_DEBIAN_EXAMPLES_PACKAGE_DEPENDS "${accel_needs_lib}")
set(CPACK_DEBIAN_EXAMPLES_DESCRIPTION "plugin-based multi-backend compute runtime - examples
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load: a GPU when there is one, the CPU when there
is not.
.
This package holds the example programs, one per step of a GPU tutorial
(device_query, vector_add, elementwise, batched, overlap, matmul,
profiling), in ${CMAKE_INSTALL_PREFIX}/${ACCEL_INSTALL_EXAMPLESDIR}, and their
sources in ${CMAKE_INSTALL_PREFIX}/${ACCEL_INSTALL_EXAMPLE_SOURCESDIR}.")

# Backend plugins other than the CPU's: one package each.
foreach(g IN LISTS ACCEL_DEB_GROUPS)
  if(ACCEL_DEB_${g}_COMPONENTS MATCHES "^plugin-")
    string(TOUPPER ${g} G)
    set(CPACK_DEBIAN_${G}_PACKAGE_NAME ${ACCEL_DEB_${g}_NAME})
    set(CPACK_DEBIAN_${G}_PACKAGE_SECTION libs)
    set(CPACK_DEBIAN_${G}_PACKAGE_DEPENDS "${accel_needs_lib}")
    set(CPACK_DEBIAN_${G}_DESCRIPTION "plugin-based multi-backend compute runtime - ${g} backend
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load. This package holds the ${g} backend plugin.")
  endif()
endforeach()
if("cuda" IN_LIST ACCEL_DEB_GROUPS)
  # What the plugin opens at run time, as packages of NVIDIA's CUDA repository
  # for Debian 12 (developer.download.nvidia.com/compute/cuda/repos/debian12):
  # a driver new enough for the CUDA runtime linked in (CUDA 13.x: 580 or
  # later; CUDA 12.x: 525 or later), cuBLAS and NVRTC of the toolkit it was
  # built with (libcublas.so.MAJOR, libnvrtc.so.MAJOR), and NCCL 2
  # (libnccl.so.2, only for collectives between GPUs). Debian 12 itself has
  # none that fit: its nvidia-driver and libcuda1 are 535, its cuBLAS is
  # CUDA 11's (libcublas11). So no Debian alternatives are named, and the
  # driver's version is stated: docs/install.md says what to install.
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _ "${CMAKE_CUDA_COMPILER_VERSION}")
  set(accel_cuda_major ${CMAKE_MATCH_1})
  set(accel_cuda_minor ${CMAKE_MATCH_2})
  if(accel_cuda_major GREATER_EQUAL 13)
    set(accel_cuda_driver 580)
  else()
    set(accel_cuda_driver 525)
  endif()
  set(accel_cuda_ver ${accel_cuda_major}-${accel_cuda_minor})
  set(CPACK_DEBIAN_CUDA_PACKAGE_RECOMMENDS
      "libcuda1 (>= ${accel_cuda_driver}) | cuda-drivers (>= ${accel_cuda_driver}), libcublas-${accel_cuda_ver}, libcufft-${accel_cuda_ver}, cuda-nvrtc-${accel_cuda_ver}")
  set(CPACK_DEBIAN_CUDA_PACKAGE_SUGGESTS "libnccl2")
  set(CPACK_DEBIAN_CUDA_DESCRIPTION "plugin-based multi-backend compute runtime - CUDA backend
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load: a GPU when there is one, the CPU when there
is not.
.
This package holds the CUDA backend plugin (its own kernels, cuBLAS for
GEMM, cuFFT for FFTs), built with CUDA ${accel_cuda_major}.${accel_cuda_minor}, whose runtime it links statically. It opens
the NVIDIA driver (libcuda.so.1, version ${accel_cuda_driver} or later), cuBLAS
(libcublas.so.${accel_cuda_major}), cuFFT (libcufft.so.${accel_cuda_major}, on the first FFT),
NVRTC (libnvrtc.so.${accel_cuda_major}, for user kernels) and NCCL
(libnccl.so.2, for collectives) when it starts; these come from NVIDIA's
CUDA repository. Without them, or without a GPU, accel info says why it is
unavailable and the runtime uses the CPU.")
endif()

if("mpi" IN_LIST ACCEL_DEB_GROUPS)
  # libaccel_mpi (mpi/): dpkg-shlibdeps adds the MPI library it links.
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME ${ACCEL_DEB_mpi_NAME})
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "${accel_needs_lib}")
  set(CPACK_DEBIAN_MPI_PACKAGE_CONTROL_EXTRA ${accel_deb_ldconfig_by_trigger})
  set(CPACK_DEBIAN_MPI_DESCRIPTION "plugin-based multi-backend compute runtime - MPI collectives
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load. This package holds libaccel_mpi: allreduce,
reduce, broadcast, allgather, reduce-scatter, send and receive between
processes, one device per rank, over MPI (NCCL on CUDA where the CUDA
backend finds it), and its examples (mpi_dot, mpi_bench).")
endif()

if("mpidev" IN_LIST ACCEL_DEB_GROUPS)
  if(ACCEL_MPI_FLAVOUR STREQUAL "openmpi")
    set(accel_mpi_dev_pkg libopenmpi-dev)
  elseif(ACCEL_MPI_FLAVOUR STREQUAL "mpich")
    set(accel_mpi_dev_pkg libmpich-dev)
  else()
    set(accel_mpi_dev_pkg mpi-default-dev)
  endif()
  set(CPACK_DEBIAN_MPIDEV_PACKAGE_NAME ${ACCEL_DEB_mpidev_NAME})
  set(CPACK_DEBIAN_MPIDEV_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_MPIDEV_PACKAGE_DEPENDS
      "${ACCEL_DEB_mpi_NAME} (= ${ACCEL_DEB_VERSION}), ${ACCEL_DEB_dev_NAME} (= ${ACCEL_DEB_VERSION}), ${accel_mpi_dev_pkg}")
  set(CPACK_DEBIAN_MPIDEV_PACKAGE_SUGGESTS "pkgconf | pkg-config, cmake")
  set(CPACK_DEBIAN_MPIDEV_DESCRIPTION "plugin-based multi-backend compute runtime - MPI development files
accel runs one program's devices, buffers, queues, events and ops on
whichever backend plugins load. libaccel_mpi adds collectives between
processes over MPI.
.
This package holds accel/mpi.h, the libaccel_mpi.so link, the CMake target
accel::mpi (find_package(accel CONFIG COMPONENTS mpi)) and the pkg-config
file (accel-mpi).")
endif()

include(CPack)

foreach(g IN LISTS ACCEL_DEB_GROUPS)
  cpack_add_component_group(${g})
  foreach(c IN LISTS ACCEL_DEB_${g}_COMPONENTS)
    cpack_add_component(${c} GROUP ${g})
  endforeach()
endforeach()
