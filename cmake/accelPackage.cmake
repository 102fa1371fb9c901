# Installation as a package: the exported target accel::accel with its CMake
# config and version files (lib/cmake/accel), and a pkg-config file
# (lib/pkgconfig/accel.pc). Both locate the tree relative to themselves, so an
# installed prefix can be moved. Included from the top-level CMakeLists.txt
# after core/ (which installs the library into the accelTargets export set).
include(CMakePackageConfigHelpers)

# The same name inside this build, for projects that add accel as a subdirectory.
add_library(accel::accel ALIAS accel)

set(ACCEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/accel)
install(EXPORT accelTargets NAMESPACE accel:: DESTINATION ${ACCEL_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/accelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/accelConfig.cmake
  INSTALL_DESTINATION ${ACCEL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# 0.x: minor versions may break the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/accelConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/accelConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/accelConfigVersion.cmake
        DESTINATION ${ACCEL_CMAKE_DIR})

configure_file(${CMAKE_CURRENT_LIST_DIR}/accel.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/accel.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/accel.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
