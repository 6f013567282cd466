#!/bin/sh
# Peak resident memory of programs that create tiles and never close them,
# with the bindings' native-memory accounting (which forces a collection
# when unclosed tiles pile up) and without it (finalizers / Cleaner alone):
# 200k Go tiles and 1M Java tiles of 16x16 float32 (1 KiB each).
#   bench/bindings/gc.sh [BUILD_DIR]       (default: build; bindings enabled)
set -eu
# shellcheck source=bench/bindings/env.sh
. "$(dirname "$0")/env.sh"

(cd "$here/gc-go" && GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod go build -o "$tmp/gc-go" .)
"$tmp/gc-go" -tiles 200000 -no-accounting
"$tmp/gc-go" -tiles 200000

jar=$(java_jar)
javac -d "$tmp/java" -cp "$jar" "$here/GcJava.java"
java -Dorg.libpto.gcTriggerBytes=9223372036854775807 -cp "$tmp/java:$jar" GcJava 1000000 16 16
java -cp "$tmp/java:$jar" GcJava 1000000 16 16
