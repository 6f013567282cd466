#!/usr/bin/env bash
# The published jar (bindings/publish-local.sh OUTDIR) carries working natives
# for linux-x86_64 and linux-aarch64:
#  - each platform's directory holds ELF libraries of its machine, libpto.so.0
#    exporting exactly the functions include/pto_c.h declares;
#  - examples/java/Quickstart.java, compiled once, runs on the host's JVM and
#    on Debian's arm64 JRE (openjdk-17-jre-headless:arm64, multiarch) under
#    qemu-aarch64, each loading its own natives from the jar.
# Usage: tests/ci/java-jar-platforms.sh OUTDIR   (on an x86-64 host)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(cd "$1" && pwd)
# shellcheck disable=SC1091
. "$out/coordinates.env"
jar=$out/maven/${MAVEN_GROUP//.//}/$MAVEN_ARTIFACT/$MAVEN_VERSION/$MAVEN_ARTIFACT-$MAVEN_VERSION.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "--- natives in $(basename "$jar")"
mkdir -p "$work/jar"
(cd "$work/jar" && jar xf "$jar" org/libpto/native)
for platform_machine in linux-x86_64:X86-64 linux-aarch64:AArch64; do
  platform=${platform_machine%%:*} machine=${platform_machine#*:}
  dir=$work/jar/org/libpto/native/$platform
  [ -d "$dir" ] || { echo "the jar has no natives for $platform"; exit 1; }
  echo "$platform: $(tr '\n' ' ' < "$dir/load-order.txt")"
  for lib in $(cat "$dir/load-order.txt"); do
    got=$(readelf -h "$dir/$lib" | sed -n 's/^ *Machine: *//p')
    case "$got" in *"$machine"*) ;; *) echo "$platform/$lib is for '$got', not $machine"; exit 1 ;; esac
  done
  exported=$(nm -D --defined-only "$dir/libpto.so.0" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
  declared=$(sh "$root/tests/hardening/declared-functions.sh" "$root/include/pto_c.h")
  if [ "$exported" != "$declared" ]; then
    echo "$platform/libpto.so.0 exports differ from the functions pto_c.h declares (< exported, > declared):"
    diff <(echo "$exported") <(echo "$declared") || true
    exit 1
  fi
  echo "$platform: ELF $machine, libpto.so.0 exports the $(echo "$exported" | wc -l) declared functions"
done

echo "--- Quickstart on the host JVM and on the arm64 JRE under qemu-aarch64"
javac -d "$work/classes" -cp "$jar" "$root/examples/java/Quickstart.java"
run_quickstart() {  # NAME, java command...
  name=$1
  shift
  start=$SECONDS
  "$@" -cp "$jar:$work/classes" -Dorg.libpto.jni.tmpdir="$work" Quickstart "$root/examples/kernels/softmax.pto" > "$work/$name.out" 2>&1 ||
    { cat "$work/$name.out"; echo "$name: Quickstart failed"; exit 1; }
  grep -q PTO_ERR_SHAPE_MISMATCH "$work/$name.out" || { cat "$work/$name.out"; exit 1; }
  echo "$name: $(head -n 1 "$work/$name.out") ($((SECONDS - start)) s)"
}
run_quickstart x86_64 java
arm64_java=$(ls -d /usr/lib/jvm/java-*-openjdk-arm64/bin/java 2>/dev/null | head -n 1)
[ -n "$arm64_java" ] || { echo "no arm64 JRE (openjdk-17-jre-headless:arm64) installed"; exit 1; }
# One compiler thread, the client compiler and the serial collector keep the
# emulated JVM quick.
QEMU_LD_PREFIX=/ run_quickstart aarch64 qemu-aarch64 "$arm64_java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -XX:CICompilerCount=1 -Xshare:auto
grep -q -E 'SIMD target (NEON|SVE)' "$work/aarch64.out" ||
  { echo "the arm64 run did not dispatch to an aarch64 target:"; cat "$work/aarch64.out"; exit 1; }
echo "jar: linux-x86_64 and linux-aarch64 natives load and run the quickstart"
