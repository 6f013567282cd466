#!/usr/bin/env bash
# A clang build, core suites on every x86 target this CPU supports. clang
# builds Highway's EMU128 target where gcc 12.2 builds SCALAR, so this is
# where EMU128 runs. It is built with -Dx86_specializations=false: its AVX2
# and AVX-512 targets run the portable twins of the x86-specific kernel code
# (src/kernels/x86-inl.h: each block's twin in portable-inl.h); clang's
# build of the specializations is the libFuzzer step's. Prints the accuracy
# lines. Build directory build-ci/clang-portable is kept between runs.
# Usage: tests/ci/clang.sh (from anywhere).
set -euo pipefail
cd "$(dirname "$0")/../.."

run() {  # build dir, meson options...
  local dir=$1
  shift
  [ -d "$dir" ] || CC=clang CXX=clang++ meson setup "$dir" -Dbindings=disabled -Dpython=disabled "$@"
  meson compile -C "$dir"
  meson test -C "$dir" --suite core --print-errorlogs --num-processes 2
  grep -h '^\[accuracy\]' "$dir/meson-logs/testlog.txt" || true
}

run build-ci/clang-portable -Dx86_specializations=false -Dbench=false
