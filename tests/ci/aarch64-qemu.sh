#!/usr/bin/env bash
# aarch64 cross build (cross/aarch64-linux-gnu.ini, Debian's
# crossbuild-essential-arm64 and :arm64 libraries) with the core suites run
# under qemu-user on several emulated CPUs, each of which makes Highway
# dispatch to other targets:
#   cortex-a57     NEON
#   max,sve128=on  SVE2_128, SVE2, SVE, NEON (128-bit vectors)
#   max,sve256=on  SVE_256, SVE2, SVE, NEON
#   max,sve2048=on SVE2, SVE, NEON with 2048-bit vectors (no table may be
#                  read past its end at any vector length)
# Each target is tested on one of them (PTO_TEST_TARGETS): NEON on
# cortex-a57, SVE2_128 on sve128, SVE_256 on sve256, SVE2 and SVE at 2048
# bits (SVE without the five longest tests under emulation: ops, accuracy,
# npu_sequences, matmul_mx and matmul_mx_scales, which took 880 s of the
# 1171 s of sve2048's tests on two targets). The tests that do not go over
# targets (programs, the front end, the cube's moves: they run on the CPU's
# best target) run once, at the far end (sve2048: SVE2, the longest
# vectors); on cortex-a57 too they took 262 s of the step's 2485 s of job
# time, where the tests over targets run its NEON kernels. cortex-a57,
# sve128 and sve256 run the tests whose source goes over targets
# (for_each_target: every operation and dtype on that CPU's target), found
# in tests/*.c at each run.
# Under emulation (PTO_TEST_UNDER_QEMU=1) the tests skip what qemu-user
# cannot do (a thread in a dynamically linked program can hang; RLIMIT_AS is
# ignored) and test_accuracy samples 2^16 inputs per target and, for float32
# trsqrt, every 61st input in [1, 4) (every 7th on cortex-a57, the fastest
# to emulate: FRSQRTE's estimate is the same for NEON and SVE); each says so
# in its log. The (CPU, test) pairs run two at a time from one queue, each
# writing build-ci/aarch64/meson-logs/qemu/CPU-TEST.*; what failed is
# printed whole, then the accuracy lines per CPU. Build directory
# build-ci/aarch64 is kept between runs.
# Usage: tests/ci/aarch64-qemu.sh [QEMU_CPU...]
set -euo pipefail
cd "$(dirname "$0")/../.."

cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(cortex-a57 max,sve128=on max,sve256=on max,sve2048=on)

[ -d build-ci/aarch64 ] || meson setup build-ci/aarch64 --cross-file cross/aarch64-linux-gnu.ini -Dbindings=disabled -Dpython=disabled
meson compile -C build-ci/aarch64

export PTO_TEST_UNDER_QEMU=1
# The core tests that go over targets: tests/test_NAME.c calling
# for_each_target is meson's test NAME.
mapfile -t over_targets < <(grep -l 'for_each_target(' tests/test_*.c | sed 's|^tests/test_||; s|\.c$||')
[ ${#over_targets[@]} -gt 0 ] || { echo "no test over targets found in tests/"; exit 1; }
mapfile -t all_core < <(meson test -C build-ci/aarch64 --list --suite core --no-rebuild 2>/dev/null | sed -n 's|^pto:core / ||p')
[ ${#all_core[@]} -gt 0 ] || { echo "no core test listed in build-ci/aarch64"; exit 1; }

# Every (CPU, test) pair is one job, and two jobs run at a time (two
# processes, as meson test --num-processes 2 would run): one queue over all
# CPUs keeps both cores busy to the end, where a meson test per CPU waited
# for its longest test with one core idle. The longest tests (under qemu:
# ops, accuracy, npu_sequences, the MX matrix multiplies) start first.
logs=build-ci/aarch64/meson-logs/qemu
rm -rf "$logs"
mkdir -p "$logs"
jobs=$logs/jobs
: >"$jobs"
long=(ops accuracy npu_sequences matmul_mx_scales matmul_mx identity float_env matmul special gemv)
cpu_tests() {  # the tests CPU $1 runs, one a line
  case "$1" in
    max,sve2048=on) printf '%s\n' "${all_core[@]}" ;;
    *) printf '%s\n' "${over_targets[@]}" ;;
  esac
}
for t in "${long[@]}"; do
  for cpu in "${cpus[@]}"; do
    cpu_tests "$cpu" | grep -qx "$t" && echo "$cpu $t" >>"$jobs"
  done
done
for cpu in "${cpus[@]}"; do
  cpu_tests "$cpu" | while read -r t; do
    printf '%s\n' "${long[@]}" | grep -qx "$t" || echo "$cpu $t" >>"$jobs"
  done
done

run_job() {  # cpu test
  local cpu=$1 t=$2 tag=${1//[,=]/_} targets stride=61 start=$SECONDS rc=0
  # trsqrt's float32 inputs in [1, 4): every 7th on cortex-a57 (NEON, the
  # fastest to emulate; FRSQRTE's estimate is the same for NEON and SVE),
  # every 61st on the SVE CPUs.
  [ "$cpu" != cortex-a57 ] || stride=7
  case "$cpu" in
    cortex-a57) targets=NEON ;;
    max,sve128=on) targets=SVE2_128 ;;
    max,sve256=on) targets=SVE_256 ;;
    max,sve2048=on) targets="SVE2 SVE" ;;
    *) targets= ;;
  esac
  # The five longest tests under emulation run SVE2 alone at 2048 bits: SVE
  # is the same source compiled without SVE2's instructions, and its other
  # tests there show its dispatch and tails at that length.
  case "$cpu:$t" in
    max,sve2048=on:ops | max,sve2048=on:npu_sequences | max,sve2048=on:matmul_mx | \
      max,sve2048=on:matmul_mx_scales | max,sve2048=on:accuracy) targets=SVE2 ;;
  esac
  PTO_TEST_TARGETS=$targets PTO_TEST_RSQRT_STRIDE=$stride QEMU_CPU=$cpu \
    meson test -C build-ci/aarch64 --suite core "$t" --no-rebuild --print-errorlogs --num-processes 1 \
    --timeout-multiplier 4 --logbase "qemu/$tag-$t" >"$logs/$tag-$t.out" 2>&1 || rc=$?
  printf '%s %s %d %d\n' "$cpu" "$t" "$rc" $((SECONDS - start)) >>"$logs/done"
}
export -f run_job
export logs
start=$SECONDS
xargs -P 2 -L 1 bash -c 'run_job "$@"' _ <"$jobs" || true

failed=0
for cpu in "${cpus[@]}"; do
  tag=${cpu//[,=]/_}
  printf '\n--- QEMU_CPU=%s: %d tests, %d s of test time\n' "$cpu" \
    "$(awk -v c="$cpu" '$1 == c' "$logs/done" | wc -l)" \
    "$(awk -v c="$cpu" '$1 == c {s += $4} END {print s + 0}' "$logs/done")"
  cat "$logs/$tag"-*.txt 2>/dev/null | grep -h '^\[accuracy\]\|^\[targets\].*ran on' | sort -u || true
done
expected=$(wc -l <"$jobs")
ran=$(wc -l <"$logs/done")
while read -r cpu t rc secs; do
  [ "$rc" -eq 0 ] && continue
  failed=$((failed + 1))
  printf '\n--- FAILED: QEMU_CPU=%s %s (exit %s after %s s)\n' "$cpu" "$t" "$rc" "$secs"
  cat "$logs/${cpu//[,=]/_}-$t.out"
done <"$logs/done"
echo "qemu: $ran of $expected jobs ran, $failed failed, $((SECONDS - start)) s"
[ "$failed" -eq 0 ] && [ "$ran" -eq "$expected" ]
