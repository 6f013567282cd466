#!/usr/bin/env bash
# A clang build, core suites on AVX3, AVX2 and EMU128 where this CPU has
# them. clang builds Highway's EMU128 target where gcc 12.2 builds SCALAR,
# so this is where EMU128 runs; SSE4 and SSSE3 (128-bit vectors, as
# EMU128's) are the gcc build's, left out here to save their compile. It is built with -Dx86_specializations=false: its AVX2
# and AVX-512 targets run the portable twins of the x86-specific kernel code
# (src/kernels/x86-inl.h: each block's twin in portable-inl.h;
# transpose-x86-inl.h: TransposeBox16's twin in transpose-inl.h); clang's
# build of the specializations is the libFuzzer step's. Prints the accuracy
# lines. The long sweeps take their samples (PTO_TEST_SAMPLED, as under the
# sanitizers): every kernel path runs on every target, and the exhaustive
# sweeps (trsqrt over [1, 4), test_identity's 2^18 and 2^20 inputs a row) are
# the first CI step's, on the product's compiler. Build directory
# build-ci/clang-portable is kept between runs.
# Usage: tests/ci/clang.sh (from anywhere).
set -euo pipefail
cd "$(dirname "$0")/../.."

run() {  # build dir, meson options...
  local dir=$1
  shift
  [ -d "$dir" ] || CC=clang CXX=clang++ meson setup "$dir" -Dbindings=disabled -Dpython=disabled "$@"
  meson compile -C "$dir"
  PTO_TEST_SAMPLED=1 meson test -C "$dir" --suite core --print-errorlogs --num-processes 2
  grep -h '^\[accuracy\]' "$dir/meson-logs/testlog.txt" || true
}

run build-ci/clang-portable -Dx86_specializations=false -Dbench=false \
  '-Dcpp_args=-DHWY_DISABLED_TARGETS=(HWY_SSSE3|HWY_SSE4)'
