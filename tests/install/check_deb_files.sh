#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Builds the Debian packages with tools/build-debs.sh (CUDA off) under umask
# 002 into WORK_DIR and checks them without installing anything: the package
# names, what each holds, the modes and owners of every file (dpkg-deb -c)
# and control file, the dependencies (dpkg-shlibdeps ran: libc6 and the CPU
# backend's libraries; our packages need libaccel0 of the same version), the
# shlibs file, the pkg-config file's absolute /usr paths. lintian, when
# installed, runs inside build-debs.sh and fails it on any error.
#
#   usage: check_deb_files.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail() {
  echo "check_deb_files: FAIL: $*" >&2
  exit 1
}

(umask 002 && ACCEL_CUDA=OFF "$src/tools/build-debs.sh" "$work/build" "$work/debs" >"$work/build.log" 2>&1) ||
  { tail -40 "$work/build.log"; fail "tools/build-debs.sh failed"; }
cd "$work/debs"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$work/build/CMakeCache.txt")-1
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
L=usr/lib/$multiarch
# libaccel-mpi0 where MPI was found at configure time (mpi/CMakeLists.txt).
# and its development files in libaccel-mpi-dev.
mpi="" mpidev=""
[ -e "$work/build/lib/libaccel_mpi.so.0" ] && mpi=libaccel-mpi0 mpidev=libaccel-mpi-dev
# libaccel0-opencl where the OpenCL headers were found (backends/opencl).
ocl=""
[ -e "$work/build/lib/accel/libaccel_opencl.so" ] && ocl=libaccel0-opencl
want="accel-examples_${version}_$arch.deb
accel-tools_${version}_$arch.deb
libaccel-dev_${version}_$arch.deb${mpi:+
${mpidev}_${version}_$arch.deb
${mpi}_${version}_$arch.deb}${ocl:+
${ocl}_${version}_$arch.deb}
libaccel0_${version}_$arch.deb"
[ "$(ls -- *.deb)" = "$want" ] || fail "packages: $(ls -- *.deb), expected: $want"

field() { dpkg-deb -f "$1_${version}_$arch.deb" "$2"; }
contents() { dpkg-deb -c "$1_${version}_$arch.deb" | awk '{print $1, $2, $6}' | sed 's| \./| |'; }
has() { # has PACKAGE MODE PATH
  contents "$1" | grep -qxF -e "$2 root/root $3" || fail "$1 lacks '$2 $3': $(contents "$1")"
}

for p in libaccel0 libaccel-dev accel-tools accel-examples $mpi $mpidev; do
  # Modes: folders and programs 0755, everything else 0644, owned by root.
  bad=$(contents $p | awk -v p="$p" '
    $2 != "root/root" { print; next }
    $1 ~ /^d/ { if ($1 != "drwxr-xr-x") print; next }
    $1 ~ /^l/ { next }
    $3 ~ /^usr\/(bin|libexec)\// { if ($1 != "-rwxr-xr-x") print; next }
    { if ($1 != "-rw-r--r--") print }')
  [ -z "$bad" ] || fail "$p: wrong modes or owners: $bad"
  has $p -rw-r--r-- usr/share/doc/$p/copyright
  has $p -rw-r--r-- usr/share/doc/$p/changelog.Debian.gz
  # Control files: 0644, maintainer scripts 0755.
  bad=$(dpkg-deb --ctrl-tarfile "${p}_${version}_$arch.deb" | tar -tvf - | awk '
    $6 ~ /^\.\/(postinst|postrm|preinst|prerm)$/ { if ($1 != "-rwxr-xr-x") print; next }
    $6 != "./" { if ($1 != "-rw-r--r--") print }')
  [ -z "$bad" ] || fail "$p: control files with wrong modes: $bad"
  [ "$(field $p Version)" = "$version" ] || fail "$p version $(field $p Version)"
  [ "$(field $p Source)" = accel ] || fail "$p source $(field $p Source)"
done

# libaccel0: the runtime, its configuration and the CPU backend.
has libaccel0 -rw-r--r-- $L/libaccel.so.$(echo "$version" | sed 's/-.*//')
has libaccel0 lrwxrwxrwx $L/libaccel.so.0
has libaccel0 -rw-r--r-- $L/accel/libaccel_cpu.so
has libaccel0 -rw-r--r-- $L/accel/plugins.ini
! contents libaccel0 | grep -qE 'libaccel\.so$|libaccel_cuda|usr/include|usr/bin' ||
  fail "libaccel0 holds development files, the CUDA backend or programs"
deps=$(field libaccel0 Depends)
for d in libc6 libgomp1 libinih1 libopenblas0; do
  [[ ", $deps," == *", $d"[\ ,]* ]] || fail "libaccel0 Depends '$deps' lacks $d (dpkg-shlibdeps)"
done
[ "$(dpkg-deb -I libaccel0_${version}_$arch.deb shlibs)" = "libaccel 0 libaccel0 (>= $version)" ] ||
  fail "libaccel0 shlibs: $(dpkg-deb -I libaccel0_${version}_$arch.deb shlibs)"
[ "$(dpkg-deb -I libaccel0_${version}_$arch.deb triggers)" = "activate-noawait ldconfig" ] ||
  fail "libaccel0 has no ldconfig trigger"
[ "$(field libaccel0 Section)" = libs ] || fail "libaccel0 section $(field libaccel0 Section)"

# libaccel-dev: headers, the .so link, CMake and pkg-config files.
has libaccel-dev -rw-r--r-- usr/include/accel/accel.h
has libaccel-dev lrwxrwxrwx $L/libaccel.so
has libaccel-dev -rw-r--r-- $L/cmake/accel/accelConfig.cmake
has libaccel-dev -rw-r--r-- $L/pkgconfig/accel.pc
[ "$(field libaccel-dev Depends)" = "libaccel0 (= $version)" ] ||
  fail "libaccel-dev Depends: $(field libaccel-dev Depends)"
dpkg-deb -x libaccel-dev_${version}_$arch.deb "$work/dev"
grep -qx 'prefix=/usr' "$work/dev/$L/pkgconfig/accel.pc" ||
  fail "accel.pc: $(cat "$work/dev/$L/pkgconfig/accel.pc")"
grep -qx "libdir=\${prefix}/lib/$multiarch" "$work/dev/$L/pkgconfig/accel.pc" ||
  fail "accel.pc libdir: $(cat "$work/dev/$L/pkgconfig/accel.pc")"

# accel-tools and accel-examples: programs that need libaccel0 of this version.
has accel-tools -rwxr-xr-x usr/bin/accel
has accel-examples -rwxr-xr-x usr/libexec/accel/examples/matmul
has accel-examples -rw-r--r-- usr/share/accel/examples/matmul.c
for p in accel-tools accel-examples; do
  deps=$(field $p Depends)
  [[ "$deps" == "libaccel0 (= $version), libc6 "* ]] || fail "$p Depends: $deps"
done
! contents accel-examples | grep -q ' usr/bin/' || fail "accel-examples installs into /usr/bin"
# Man pages, when there are any, are compressed (Debian policy 12.1).
for p in libaccel0 libaccel-dev accel-tools accel-examples; do
  ! contents $p | grep -E ' usr/share/man/.*[^z]$' | grep -v '^d' ||
    fail "$p has uncompressed man pages"
done
# No RPATH in system packages.
dpkg-deb -x accel-tools_${version}_$arch.deb "$work/tools"
! readelf -d "$work/tools/usr/bin/accel" | grep -qE 'RPATH|RUNPATH' || fail "/usr/bin/accel has an RPATH"
echo "check_deb_files: PASS ($(ls -- *.deb | tr '\n' ' '))"

# libaccel-mpi0: libaccel_mpi and its examples, so that nothing else needs MPI.
if [ -n "$mpi" ]; then
  has $mpi -rw-r--r-- $L/libaccel_mpi.so.$(echo "$version" | sed 's/-.*//')
  has $mpi -rwxr-xr-x usr/libexec/accel/examples/mpi_dot
  deps=$(field $mpi Depends)
  [[ "$deps" == "libaccel0 (= $version), "* && "$deps" == *libopenmpi* ]] ||
    fail "$mpi Depends: $deps"
  [ "$(dpkg-deb -I ${mpi}_${version}_$arch.deb triggers)" = "activate-noawait ldconfig" ] ||
    fail "$mpi has no ldconfig trigger"
  ! field libaccel0 Depends | grep -q mpi || fail "libaccel0 depends on MPI"
  # libaccel-mpi-dev: mpi.h, the .so link, accel::mpi and accel-mpi.pc, none of
  # them in libaccel-dev (which must not need MPI).
  has $mpidev -rw-r--r-- usr/include/accel/mpi.h
  has $mpidev lrwxrwxrwx $L/libaccel_mpi.so
  has $mpidev -rw-r--r-- $L/cmake/accel/accelMpiTargets.cmake
  has $mpidev -rw-r--r-- $L/pkgconfig/accel-mpi.pc
  ! contents libaccel-dev | grep -E 'mpi\.h$|libaccel_mpi|accelMpi|accel-mpi' ||
    fail "libaccel-dev holds libaccel_mpi's development files"
  [ "$(field $mpidev Depends)" = "$mpi (= $version), libaccel-dev (= $version), libopenmpi-dev" ] ||
    fail "$mpidev Depends: $(field $mpidev Depends)"
fi
# ldconfig runs from the triggers file alone: no maintainer script calls it.
for p in libaccel0 $mpi; do
  for script in postinst postrm; do
    ! dpkg-deb -I "${p}_${version}_$arch.deb" $script 2>/dev/null | grep -v '^ *#' | grep -qw ldconfig ||
      fail "$p's $script calls ldconfig (the triggers file does)"
  done
done
