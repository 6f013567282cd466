#!/usr/bin/env bash
# Runs every test of the project: the meson suites (C core, packaging and,
# when their toolchains are installed, the Go, Java and Rust bindings), then
# the hardening runs. Usage: tests/run-all.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"

# Each step must pass before the next starts (set -e); the closing line
# counts them.
steps_passed=0
current_step=
step() {
  [ -z "$current_step" ] || steps_passed=$((steps_passed + 1))
  current_step=$*
  printf '\n=== %s\n' "$*"
}

step "meson test (all suites)"
# The bindings are required here, so a missing toolchain fails instead of
# silently leaving the go, java and rust suites out.
if [ -d "$build" ]; then
  meson configure "$build" -Dbindings=enabled -Dtests=true
else
  meson setup "$build" -Dbindings=enabled
fi
meson test -C "$build" --print-errorlogs --num-processes 2

step "Python: meson suite, pip install . from a clean clone, the wheel in a fresh venv"
tests/ci/python.sh "$build"

step "bindings as packages: library-only install, publish-local, user projects without swig/bindgen"
tests/ci/bindings-packages.sh "$root/build-packages"

# ---------------------------------------------------------------------------
# Hardening (README "Guarantees"): the C suites under sanitizers and
# valgrind, a bounded libFuzzer run, and the ABI checks. Each run has its own
# build directory next to the source (build-asan, build-tsan, build-fuzz,
# build-abi), kept between runs. The bindings are left to the first step.
c_only=(-Dbindings=disabled -Dpython=disabled -Dbench=false -Dtests=true)
c_suites=(--suite core --suite hardening)
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Allocation-failure tests ask for more than a lowered RLIMIT_AS allows:
# ASan must return NULL then, as malloc does, instead of aborting.
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1

step "ASan + UBSan: C suites"
[ -d build-asan ] || meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false "${c_only[@]}"
meson test -C build-asan "${c_suites[@]}" --print-errorlogs --num-processes 2

step "valgrind memcheck: C suites"
# Under valgrind, Highway sees the CPU features valgrind emulates (no
# AVX-512) and dispatches to AVX2 at most. RLIMIT_AS does not bind
# valgrind's allocator, which tests that lower it can learn from this.
PTO_TEST_UNDER_VALGRIND=1 meson test -C "$build" "${c_suites[@]}" --print-errorlogs --num-processes 2 \
  --timeout-multiplier 10 --wrapper "$root/tests/hardening/valgrind-wrapper.sh"

step "ThreadSanitizer: thread test"
[ -d build-tsan ] || meson setup build-tsan -Db_sanitize=thread -Db_lundef=false "${c_only[@]}"
meson compile -C build-tsan test_threads
TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild --print-errorlogs threads

step "libFuzzer: ${PTO_FUZZ_SECONDS:-120} s from the seed corpus"
[ -d build-fuzz ] || CC=clang CXX=clang++ meson setup build-fuzz -Db_sanitize=address,undefined \
  -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link -Dcpp_args=-fsanitize=fuzzer-no-link "${c_only[@]}"
meson compile -C build-fuzz pto-fuzz
mkdir -p build-fuzz/corpus
# New inputs go to build-fuzz/corpus; the committed seeds are only read. A
# failing input is saved as build-fuzz/crash-*; replay it with
# build/tests/fuzz/pto-fuzz-replay FILE.
build-fuzz/tests/fuzz/pto-fuzz -max_total_time="${PTO_FUZZ_SECONDS:-120}" -max_len=4096 \
  -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 -artifact_prefix=build-fuzz/ \
  build-fuzz/corpus tests/fuzz/corpus

step "ABI: exported symbols, SONAME and abidiff against tests/abi"
# abidiff reads DWARF, so the library is built once more with debug info.
[ -d build-abi ] || meson setup build-abi -Ddebug=true -Dtests=false -Dbench=false -Dbindings=disabled
meson compile -C build-abi pto:shared_library
tests/hardening/check-exports.sh build-abi/src/libpto.so include/pto_c.h \
  tests/hardening/exported-symbols.txt libpto.so.0
tests/abi/check-abi.sh build-abi/src/libpto.so

step "clang: core suites on every x86 target (EMU128 included), default and portable kernels"
tests/ci/clang.sh

step "aarch64 cross build: core suites under qemu-user (NEON, SVE2_128, SVE_256, 2048-bit SVE)"
tests/ci/aarch64-qemu.sh

steps_passed=$((steps_passed + 1))
printf '\n=== all tests passed\nsteps: %d passed, 0 failed\n' "$steps_passed"
