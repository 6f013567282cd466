#!/usr/bin/env bash
# Runs every test of the project: the meson suites (C core, packaging and,
# when their toolchains are installed, the Go, Java and Rust bindings), then
# the hardening runs and the packages. Every build tree it makes is under
# build-ci/ (git-ignored, kept between runs); the developer's own build/ is
# left alone. Usage: tests/run-all.sh [build-dir]   (default: build-ci/main)
#
# The steps run in two lanes at once, each lane's steps one after another:
# most steps keep one core busy on average (configure, link, a JVM, a single
# long compile or test), so two lanes use the machine's two cores where one
# left the other idle. A lane holds the steps that share a build tree or a
# tool's cache (the first step's tree is the Python and valgrind steps';
# Maven, Cargo and Go run in the first lane only). Each step's output goes
# to build-ci/logs/STEP.log and is printed whole when the step ends; the
# first failure stops both lanes and prints the failing step's log. Each
# lane's builds run ninja with two jobs (NINJA, a wrapper in build-ci/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-ci/main}
ci=$root/build-ci
cd "$root"
declare -A titles

# ---------------------------------------------------------------------------
# Hardening (README "Guarantees"): the C suites under sanitizers and
# valgrind and a bounded libFuzzer run. Each run has its own build directory
# under build-ci/ (tsan, fuzz), kept between runs. The bindings are left to
# the first step, and so are the ABI checks (the hardening suite's
# exported-symbols and abidiff tests, on the release library and on its
# probe: tests/abi/meson.build).
# ASan + UBSan and libFuzzer share one clang build (build-ci/fuzz): clang
# instruments a kernel file for ASan in a third of the time gcc takes, and
# the fuzzers need clang. Its kernels are compiled for AVX-512 and the
# baseline target (EMU128, 128-bit vectors as SSE4's and SSSE3's; clang
# builds EMU128 where gcc 12 builds SCALAR, so this is where EMU128 runs):
# AVX2 (256-bit vectors) runs under valgrind in the main build, and leaving
# AVX2, SSE4 and SSSE3 out here saves three instrumented compiles of every
# kernel. This build is also clang's: every kernel file compiles with clang
# here, the x86-specific blocks (src/kernels/x86-inl.h) on AVX-512 and their
# portable twins on EMU128 (and in the main build on SSE4 and SSSE3, under
# qemu on NEON and SVE). TSan needs no SIMD paths: the baseline target only,
# at -O1.
c_only=(-Dbindings=disabled -Dpython=disabled -Dbench=false -Dtests=true)
no_128bit_x86='-DHWY_DISABLED_TARGETS=(HWY_SSSE3|HWY_SSE4|HWY_AVX2)'
c_suites=(--suite core --suite hardening)
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Allocation-failure tests ask for more than a lowered RLIMIT_AS allows:
# ASan must return NULL then, as malloc does, instead of aborting.
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1

titles[main]="meson test (all suites)"
step_main() {
  # The bindings are required here, so a missing toolchain fails instead of
  # silently leaving the go, java and rust suites out.
  if [ -d "$build" ]; then
    meson configure "$build" -Dbindings=enabled -Dtests=true
  else
    meson setup "$build" -Dbindings=enabled
  fi
  meson test -C "$build" --print-errorlogs --num-processes 2
}

titles[python]="Python: meson suite, the sdist built into a wheel, installed and tested in fresh venvs"
step_python() {
  tests/ci/python.sh "$build"
}

titles[python_aarch64]="Python aarch64: the wheel cross-built, repaired, installed and tested under qemu-aarch64 without libhwy"
step_python_aarch64() {
  tests/ci/python-aarch64.sh "$ci/python-aarch64"
}

titles[packages]="bindings as packages: library-only install, publish-local (jar for x86-64 and aarch64), user projects without swig/bindgen"
step_packages() {
  tests/ci/bindings-packages.sh "$ci/packages"
}

titles[new_operation]="a new elementwise operation, a new Special one with a new attribute kind, and one with its own kernel, test and text form, each through the files src/README.md counts (scratch copy: C, programs, Python, Rust)"
step_new_operation() {
  tests/ci/new-operation.sh "$ci/new-operation"
}

titles[mpi]="multi-card: libpto-mpi and the mpi suite, MPICH and Open MPI, 2 and 4 ranks"
step_mpi() {
  tests/ci/mpi.sh "$ci/mpi"
}

titles[asan]="ASan + UBSan (clang): C suites"
step_asan() {
  [ -d "$ci/fuzz" ] || CC=clang CXX=clang++ meson setup "$ci/fuzz" -Db_sanitize=address,undefined \
    -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link -Dcpp_args="-fsanitize=fuzzer-no-link $no_128bit_x86" \
    "${c_only[@]}"
  # The long sweeps take their samples (PTO_TEST_SAMPLED): what ASan looks
  # for is in every call, not in the millionth input.
  PTO_TEST_SAMPLED=1 meson test -C "$ci/fuzz" "${c_suites[@]}" --print-errorlogs --num-processes 2
}

titles[valgrind]="valgrind memcheck: C suites"
step_valgrind() {
  # Under valgrind, Highway sees the CPU features valgrind emulates (no
  # AVX-512) and dispatches to AVX2 at most. RLIMIT_AS does not bind
  # valgrind's allocator, which tests that lower it can learn from this.
  # The loops over targets run AVX2 (256-bit vectors) here; the ASan build
  # runs AVX-512 and EMU128 (128-bit vectors, the tails SSE4 has too), and
  # the first step every x86 target.
  # test_accuracy is left out here: it measures ulps of the kernels test_ops,
  # test_exp_log and test_special run under valgrind on the same shapes and
  # tails, and took 290 s of valgrind's time at 2^16 inputs a target. The
  # suites stay on the command line: a name alone would also run another
  # suite's test of that name (python's quickstart) under valgrind.
  mapfile -t valgrind_tests < <(meson test -C "$build" --list --no-rebuild "${c_suites[@]}" 2>/dev/null |
    sed -n 's|^pto:[a-z]* / ||p' | grep -vx accuracy)
  [ ${#valgrind_tests[@]} -gt 10 ] || { echo "valgrind: no test list from $build"; exit 1; }
  PTO_TEST_TARGETS="AVX2" PTO_TEST_UNDER_VALGRIND=1 meson test -C "$build" "${c_suites[@]}" "${valgrind_tests[@]}" --print-errorlogs --num-processes 2 \
    --timeout-multiplier 10 --wrapper "$root/tests/hardening/valgrind-wrapper.sh"
}

titles[tsan]="ThreadSanitizer: thread test, programs on blocks (the cube's block-ordered adds among them)"
step_tsan() {
  [ -d "$ci/tsan" ] || meson setup "$ci/tsan" -Db_sanitize=thread -Db_lundef=false "${c_only[@]}" \
    -Dsimd_targets=baseline -Doptimization=1
  meson compile -C "$ci/tsan" test_threads test_program test_program_cube
  TSAN_OPTIONS=halt_on_error=1 meson test -C "$ci/tsan" --no-rebuild --print-errorlogs threads program \
    program_cube
}

titles[fuzz]="libFuzzer: ${PTO_FUZZ_SECONDS:-90} s of the API, ${PTO_FUZZ_PROGRAM_SECONDS:-60} s of PTO assembly, from the seed corpora"
step_fuzz() {
  meson compile -C "$ci/fuzz" pto-fuzz pto-fuzz-program
  mkdir -p "$ci/fuzz/corpus" "$ci/fuzz/program-corpus"
  # The two fuzzers run at once, one a core (libFuzzer runs one process),
  # each logging to build-ci/fuzz/*.log, printed when both are done.
  # New inputs go to build-ci/fuzz/corpus; the committed seeds are only read. A
  # failing input is saved as build-ci/fuzz/crash-*; replay it with
  # build-ci/main/tests/fuzz/pto-fuzz-replay FILE.
  "$ci/fuzz/tests/fuzz/pto-fuzz" -max_total_time="${PTO_FUZZ_SECONDS:-90}" -max_len=4096 \
    -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 -artifact_prefix="$ci/fuzz/" \
    "$ci/fuzz/corpus" tests/fuzz/corpus >"$ci/fuzz/api.log" 2>&1 &
  api_fuzzer=$!
  # The PTO assembly front end (parser, verifier, snippets run): its own seeds.
  # A failing input replays with build-ci/main/tests/fuzz/pto-fuzz-program-replay FILE.
  program_rc=0
  "$ci/fuzz/tests/fuzz/pto-fuzz-program" -max_total_time="${PTO_FUZZ_PROGRAM_SECONDS:-60}" -max_len=4096 \
    -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 -artifact_prefix="$ci/fuzz/program-" \
    "$ci/fuzz/program-corpus" tests/fuzz/program-corpus >"$ci/fuzz/program.log" 2>&1 || program_rc=$?
  api_rc=0
  wait "$api_fuzzer" || api_rc=$?
  printf -- '--- pto-fuzz (exit %d)\n' "$api_rc"
  tail -n 40 "$ci/fuzz/api.log"
  printf -- '--- pto-fuzz-program (exit %d)\n' "$program_rc"
  tail -n 40 "$ci/fuzz/program.log"
  [ "$api_rc" -eq 0 ] && [ "$program_rc" -eq 0 ]
}

titles[debian]="Debian packages: dpkg-buildpackage, lintian, apt-get install ./*.deb, quickstart with pkg-config pto"
step_debian() {
  tests/ci/debian.sh "$ci/debian"
}

titles[aarch64]="aarch64 cross build: core suites under qemu-user (NEON, SVE2_128, SVE_256, 2048-bit SVE)"
step_aarch64() {
  tests/ci/aarch64-qemu.sh

}

lane_a=(main python packages new_operation tsan valgrind debian)
lane_b=(python_aarch64 mpi asan fuzz aarch64)

logs=$ci/logs
rm -rf "$logs"
mkdir -p "$logs"
: >"$logs/times"
# Two ninja jobs a lane (meson and meson test find ninja through NINJA).
real_ninja=$(command -v ninja)
printf '#!/bin/sh\nexec %s -j 2 "$@"\n' "$real_ninja" >"$ci/ninja-2-jobs"
chmod +x "$ci/ninja-2-jobs"
export NINJA=$ci/ninja-2-jobs

# Prints under a lock, so that the lanes' lines do not interleave.
say() { { flock 9; cat; } 9>"$logs/.lock"; }

steps_so_far() {
  printf '=== steps so far (%d s in all):\n' "$SECONDS"
  sort -k3 -n "$logs/times" |
    awk '{printf "%5d s  %s  lane %s%s\n", $1, $4, $2, ($5 == 143 ? "  stopped" : $5 != 0 ? "  FAILED" : "")}'
}

# run_step LANE ID: the step in a bash of its own, where set -e holds (a
# function called under || would ignore it), its output in its log, printed
# whole when it ends.
run_step() {
  local lane=$1 id=$2 start=$SECONDS rc=0
  printf '\n=== lane %s starts: %s\n' "$lane" "${titles[$id]}" | say
  bash -euo pipefail -c "$(declare -p root build ci c_only no_128bit_x86 c_suites); $(declare -f "step_$id");
    cd \"\$root\"; step_$id" >"$logs/$id.log" 2>&1 &
  wait $! || rc=$?
  local secs=$((SECONDS - start))
  echo "$secs $lane $SECONDS $id $rc" >>"$logs/times"
  {
    printf '\n=== %s (lane %s)\n' "${titles[$id]}" "$lane"
    cat "$logs/$id.log"
    printf '=== %d s: %s%s\n' "$secs" "${titles[$id]}" "$([ "$rc" -eq 0 ] || echo " FAILED (exit $rc)")"
    steps_so_far
  } | say
  return "$rc"
}

run_lane() {  # LANE STEP...
  local lane=$1 id
  shift
  for id in "$@"; do
    [ ! -e "$logs/failed" ] || return 1
    run_step "$lane" "$id" || { echo "$id" >>"$logs/failed"; return 1; }
  done
}

kill_tree() {  # PID: it and every process below it (read from /proc: no ps needed)
  local f stat fields child
  for f in /proc/[0-9]*/stat; do
    read -r stat <"$f" 2>/dev/null || continue
    read -r -a fields <<<"${stat##*) }"  # state, ppid, ...
    child=${f#/proc/}
    child=${child%/stat}
    [ "${fields[1]}" != "$1" ] || kill_tree "$child"
  done
  kill "$1" 2>/dev/null || true
}

# A time limit's SIGTERM: the running steps' logs so far, then stop.
on_term() {
  trap - TERM
  {
    printf '\n=== stopped (SIGTERM) after %d s; the running steps so far:\n' "$SECONDS"
    local f
    for f in "$logs"/*.log; do
      grep -q " $(basename "$f" .log) " "$logs/times" 2>/dev/null && continue
      printf -- '--- %s (running), its last lines:\n' "$(basename "$f" .log)"
      tail -n 40 "$f"
    done
    steps_so_far
  } | say
  kill_tree "$lane_a_pid"
  kill_tree "$lane_b_pid"
  exit 143
}

run_lane A "${lane_a[@]}" &
lane_a_pid=$!
run_lane B "${lane_b[@]}" &
lane_b_pid=$!
trap on_term TERM INT
# When one lane fails, the other is stopped at once.
rc=0
wait -n "$lane_a_pid" "$lane_b_pid" || rc=$?
if [ "$rc" -ne 0 ] || [ -e "$logs/failed" ]; then
  kill_tree "$lane_a_pid"
  kill_tree "$lane_b_pid"
  wait || true
  printf '\n=== failed: %s\n' "$(head -n 1 "$logs/failed" 2>/dev/null || echo "a lane (exit $rc)")"
  steps_so_far
  exit 1
fi
wait "$lane_a_pid" || rc=$?
wait "$lane_b_pid" || rc=$?
if [ "$rc" -ne 0 ] || [ -e "$logs/failed" ]; then
  printf '\n=== failed: %s\n' "$(head -n 1 "$logs/failed" 2>/dev/null || echo "a lane (exit $rc)")"
  steps_so_far
  exit 1
fi
printf '\n=== all tests passed\nsteps: %d passed, 0 failed, %d s in all\n' "$(wc -l <"$logs/times")" "$SECONDS"
steps_so_far
