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
meson setup "$scratch/app/build" "$scratch/app" -Dpto:tests=false -Dpto:bench=false \
  -Dpto:bindings=disabled -Dpto:simd_targets=baseline >/dev/null
meson compile -C "$scratch/app/build" >/dev/null
"$scratch/app/build/consumer"
echo "subproject check passed"
