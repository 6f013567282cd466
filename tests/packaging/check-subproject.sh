#!/usr/bin/env bash
# Builds a consumer project with libpto as its meson subproject and runs it.
set -euo pipefail
src_root=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/app/subprojects"
cp "$here/subproject/meson.build" "$scratch/app/"
cp "$here/consumer.c" "$scratch/"
ln -s "$src_root" "$scratch/app/subprojects/pto"
sed -i "s#'../consumer.c'#'$scratch/consumer.c'#" "$scratch/app/meson.build"
# What a consumer's build needs of libpto, at the least cost: the library
# alone (no tools, MPI transport or host runtime), baseline SIMD, no
# optimisation or debug info (buildtype is the consumer's, here plain).
meson setup "$scratch/app/build" "$scratch/app" -Dbuildtype=plain -Dpto:tests=false -Dpto:bench=false \
  -Dpto:bindings=disabled -Dpto:simd_targets=baseline -Dpto:mpi=disabled -Dpto:runtime=disabled \
  -Dpto:python=disabled >/dev/null
meson compile -C "$scratch/app/build" consumer >/dev/null
"$scratch/app/build/consumer"
echo "subproject check passed"
