#!/usr/bin/env bash
# Runs every example of examples/pto through pto-run: each snippet with its
# read tiles from random .npy files and its results written out, the
# 4096x4096 kernel on 1 and 2 blocks, whose outputs must be identical.
# Usage: run-examples.sh PTO_RUN EXAMPLES_DIR
set -euo pipefail
pto_run=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {  # name, command...
  local name=$1; shift
  if "$@" > "$work/out.txt" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name"; cat "$work/out.txt"
  fi
}
for f in "$dir"/t*.pto; do
  args=()
  # Every read tile as zeros of its declared shape; every result written.
  while read -r name _ kind shape access; do
    [ "$kind" = tile ] || continue
    dims=${shape%x*}; dtype=${shape##*x}
    case $access in
      read*) args+=("$name=zeros:$dtype:$dims") ;;
    esac
    case $access in
      *written*) args+=(--out "$name=$work/$(basename "$f" .pto)-$name.npy") ;;
    esac
  done < <("$pto_run" --check "$f" | tail -n +2 | sed 's/,//')
  check "$(basename "$f")" "$pto_run" "$f" "${args[@]}"
done
n=4096
for blocks in 1 2; do
  check "prelu-4096.pto on $blocks blocks" "$pto_run" "$dir/prelu-4096.pto" --blocks "$blocks" \
    x=zeros:f32:${n}x$n s=zeros:f32:${n}x$n y=zeros:f32:${n}x$n m=$n n=$n --out "y=$work/y$blocks.npy"
done
check "prelu-4096.pto: 1 and 2 blocks agree" cmp "$work/y1.npy" "$work/y2.npy"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
