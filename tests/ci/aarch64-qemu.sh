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
# bits. The tests that do not go over targets (programs, the front end, the
# cube's moves: they run on the CPU's best target) run on the two ends,
# cortex-a57 (NEON, 128 bits) and sve2048; sve128 and sve256 run the tests
# whose source goes over targets (for_each_target: every operation and
# dtype on that CPU's target), found in tests/*.c at each run.
# Under emulation (PTO_TEST_UNDER_QEMU=1) the tests skip what qemu-user
# cannot do (a thread in a dynamically linked program can hang; RLIMIT_AS is
# ignored) and test_accuracy samples 2^16 inputs per target and, for float32
# trsqrt, every 61st input in [1, 4); each says so in its log. On cortex-a57
# (NEON only, the fastest to emulate) trsqrt goes over every input in [1, 4):
# FRSQRTE's estimate is the same for NEON and SVE. Prints the accuracy lines
# per CPU. Build directory build-ci/aarch64 is kept between runs.
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
for cpu in "${cpus[@]}"; do
  printf '\n--- QEMU_CPU=%s\n' "$cpu"
  start=$SECONDS
  stride=61
  [ "$cpu" != cortex-a57 ] || stride=1
  case "$cpu" in
    cortex-a57) targets=NEON ;;
    max,sve128=on) targets=SVE2_128 ;;
    max,sve256=on) targets=SVE_256 ;;
    max,sve2048=on) targets="SVE2 SVE" ;;
    *) targets= ;;
  esac
  case "$cpu" in
    cortex-a57 | max,sve2048=on) which=(--suite core) ;;
    *) which=("${over_targets[@]}") ;;
  esac
  PTO_TEST_TARGETS=$targets PTO_TEST_RSQRT_STRIDE=$stride QEMU_CPU=$cpu meson test -C build-ci/aarch64 "${which[@]}" --no-rebuild --print-errorlogs \
    --num-processes 2 --timeout-multiplier 4
  grep -h '^\[accuracy\]\|^\[targets\].*ran on' build-ci/aarch64/meson-logs/testlog.txt | sort -u
  echo "QEMU_CPU=$cpu: $((SECONDS - start)) s"
done
