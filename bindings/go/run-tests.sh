#!/bin/sh
# Runs the Go binding's tests (go test ./...) and the Go quickstart on a
# scratch copy of the module that has the SWIG-generated files in place, so
# the source tree stays clean.
#   run-tests.sh GENERATED_DIR WORK_DIR      (GO names the go command)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
generated=$1
work=$2
go=${GO:-go}

rm -rf "$work"
mkdir -p "$work"
cp -R "$here" "$work/pto"
cp "$generated/ptoc.go" "$generated/ptoc_wrap.c" "$work/pto/internal/ptoc/"
cp -R "$root/examples/go" "$work/quickstart"

# No dependencies to download; keep the toolchain local and the build cache
# in the build tree when the user has none.
export GOTOOLCHAIN=local GOPROXY=off
if [ -z "$("$go" env GOCACHE 2>/dev/null)" ]; then
  export GOCACHE="$work/../go-cache"
fi

cd "$work/pto"
echo "+ go test ./..."
"$go" test ./...

cd "$work/quickstart"
"$go" mod edit -replace libpto/pto=../pto
echo "+ go run . (examples/go)"
"$go" run .
