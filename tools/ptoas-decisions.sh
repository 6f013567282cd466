#!/bin/bash
# Compares libpto's decision on each PTOAS lit test of a PTOAS checkout
# (test/basic/*.pto) with PTOAS's own: every `// RUN: [not] ptoas
# [--pto-arch=a3|a5] ...` line expects the file accepted (or, with `not`,
# refused) under that target (a line without `not` whose checks expect an
# `error:` on ptoas's stderr is a refusal too); pto-run --check verifies each public function
# of the file as the entry (under the RUN line's target unless the file names
# its own). Prints SAME or DIFF per RUN line with libpto's first error, marks
# refusals of constructs libpto does not implement (cube tiles, the memref
# form, instructions), and a count.
#   tools/ptoas-decisions.sh PTOAS_DIR [PTO_RUN]
set -u
dir=${1:?usage: tools/ptoas-decisions.sh PTOAS_DIR [PTO_RUN]}
pto_run=${2:-build/tools/pto-run/pto-run}
same=0 diff=0 unsupported=0
for f in "$dir"/test/basic/*.pto; do
  while read -r line; do
    want=accept
    case "$line" in *"RUN: not "*) want=refuse ;; esac
    # A negative test written without `not`: the RUN line sends ptoas's
    # errors to FileCheck (2>&1) and its checks (the line's prefix, CHECK by
    # default) expect an `error:` (PTOAS refuses the file).
    if [ "$want" = accept ] && echo "$line" | grep -q '2>&1'; then
      prefix=$(echo "$line" | sed -n 's/.*--check-prefix[= ]\([A-Za-z0-9_-]*\).*/\1/p')
      grep -q "^// ${prefix:-CHECK}: .*error:" "$f" && want=refuse
    fi
    arch=$(echo "$line" | sed -n 's/.*--pto-arch[= ]\(a[0-9]*\).*/\1/p')
    profile=()
    if ! grep -q "pto.target_arch\|pto.device-spec" "$f"; then
      [ "$arch" = a3 ] && profile=(--profile A2A3)
      [ "$arch" = a5 ] && profile=(--profile A5)
    fi
    got=accept why=""
    for name in $(grep -o 'func.func @[A-Za-z0-9_]*' "$f" | sed 's/.*@//'); do
      if ! out=$("$pto_run" "$f" --check "${profile[@]}" --entry "$name" 2>&1); then
        got=refuse
        why=$(echo "$out" | grep -m1 'error:' | sed 's/^[^ ]* error: //')
        break
      fi
    done
    mark=""
    case "$why" in
      *"is not implemented"* | *"only vec tiles"* | *"only vector kernels"* | *"is not supported"* | \
      *"unknown type 'memref'"* | *"unknown type 'vector'"*) mark=" [not implemented here]" ;;
    esac
    if [ "$want" = "$got" ]; then
      same=$((same + 1)); verdict=SAME
    else
      diff=$((diff + 1)); verdict=DIFF
      [ -n "$mark" ] && unsupported=$((unsupported + 1))
    fi
    echo "$verdict PTOAS $want, libpto $got (${arch:-no arch}) $(basename "$f")$mark${why:+: $why}"
  done < <(grep -h 'RUN:' "$f")
done
echo "RUN lines decided as PTOAS decides: $same; differently: $diff ($unsupported of them on constructs not implemented here)"
