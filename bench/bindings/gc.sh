#!/bin/sh
# Peak resident memory of programs that create tiles and never close them,
# with the bindings' native-memory accounting (which forces a collection
# when unclosed tiles pile up) and without it (finalizers / Cleaner alone):
# 200k Go tiles and 1M Java tiles of 16x16 float32 (1 KiB each).
#   bench/bindings/gc.sh [BUILD_DIR]       (default: build; bindings enabled)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
here=$root/bench/bindings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_PATH=$build/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH=$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

(cd "$here/gc-go" && GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod go build -o "$tmp/gc-go" .)
"$tmp/gc-go" -tiles 200000 -no-accounting
"$tmp/gc-go" -tiles 200000

jar=$(ls "$build"/bindings/java/maven/pto-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -n 1)
if [ -z "$jar" ]; then
  mvn -B -q -f "$root/bindings/java/pom.xml" -Dpto.build.directory="$tmp/maven" -DskipTests package
  jar=$(ls "$tmp"/maven/pto-*.jar | grep -v -e sources -e javadoc | head -n 1)
fi
javac -d "$tmp/java" -cp "$jar" "$here/GcJava.java"
java -Dorg.libpto.gcTriggerBytes=9223372036854775807 -cp "$tmp/java:$jar" GcJava 1000000 16 16
java -cp "$tmp/java:$jar" GcJava 1000000 16 16
