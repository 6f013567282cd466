#!/usr/bin/env bash
# CI step: the bindings as packages. Installs libpto alone (the README's
# library-only install) into a scratch prefix, publishes the Go module, the
# Maven artifact and the crates into local registries
# (bindings/publish-local.sh), and builds a user project per language from
# them with swig, bindgen and libclang out of reach
# (tests/packaging/check-user-projects.sh).
#   tests/ci/bindings-packages.sh [WORK_DIR]     (default: build-ci/packages)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-ci/packages}
cd "$root"

prefix=$work/prefix
rm -rf "$prefix" "$work/out"
[ -d "$work/build" ] || meson setup "$work/build" --prefix "$prefix" \
  -Dtests=false -Dbench=false -Dbindings=disabled -Dsimd_targets=baseline -Dmpi=disabled -Druntime=disabled \
  -Doptimization=1
meson configure "$work/build" --prefix "$prefix"
meson install -C "$work/build" --quiet

# What the README tells users of a non-system prefix to set (libdir is
# lib/x86_64-linux-gnu on Debian, lib elsewhere).
libdir=$(dirname "$(find "$prefix" -name 'libpto.so.0' | head -n 1)")
export PKG_CONFIG_PATH=$libdir/pkgconfig
export LD_LIBRARY_PATH=$libdir
echo "libpto installed in $prefix (libdir $libdir)"

# The packages' mechanics are under test here, not the kernels: both
# libraries (x86-64 and aarch64) are built for their baseline SIMD target
# only, at -O1 (a compile several times quicker), and without libpto-mpi
# and libpto-runtime, which no binding loads.
PTO_CROSS_MESON_ARGS="-Dsimd_targets=baseline -Doptimization=1 -Dmpi=disabled -Druntime=disabled" bindings/publish-local.sh "$work/out"
tests/packaging/check-user-projects.sh "$work/out"
# The jar's two platforms: ELF aarch64 natives exporting the contract, and
# the Java quickstart on Debian's arm64 JRE under qemu-aarch64.
tests/ci/java-jar-platforms.sh "$work/out"
