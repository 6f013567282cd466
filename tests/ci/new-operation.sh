#!/usr/bin/env bash
# src/README.md says a new elementwise instruction is six hand-edited files
# and a new Special one, with a new kind of attribute, at most ten. This step
# holds both to it: in a scratch copy of the tree it adds a dummy Binary
# operation, tscratch (dst = |src0 - src1|), through its six files, then a
# dummy Special one, tscratch_pick (dst = src0 or src1 as a new C enum picks,
# two sources and a tmp), through its seven; after each it regenerates what
# is committed with the README's one command and checks that nothing else
# changed. Then it builds with the bindings, runs the core tests that iterate
# the operations, the program tests, the fuzzers' corpus replays, the Python
# and Rust suites, and asserts that the new rows ran in C, programs, Python
# and Rust and are bound in Go.
# Usage: tests/ci/new-operation.sh [SCRATCH_DIR]   (default: build-ci/new-operation)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:-$root/build-ci/new-operation}
rm -rf "$scratch"
mkdir -p "$scratch/tree"
tree=$scratch/tree
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$tree")
cp -a "$tree" "$scratch/before"
data=$root/tests/ci/new-operation

# src/README.md's regeneration command.
regenerate() {
  tools/gen-operations.py --write-committed >/dev/null
  tools/gen-enums.py --write-committed >/dev/null
  bindings/go/generate.sh >/dev/null
  bindings/rust/generate.sh >/dev/null
}
# insert FILE BEFORE TEXT_FILE: TEXT_FILE's contents inserted before the first
# BEFORE in FILE.
insert() {
  python3 - "$1" "$2" "$3" <<'EOF'
import pathlib, sys
path, before, text = sys.argv[1], sys.argv[2].encode().decode("unicode_escape"), pathlib.Path(sys.argv[3]).read_text()
p = pathlib.Path(path)
s = p.read_text()
assert before in s, f"{path}: no {before!r} to insert before"
p.write_text(s.replace(before, text + before, 1))
EOF
}
# check_changes NAME BEFORE_DIR MAX HAND GENERATED: every file that differs
# from BEFORE_DIR, or is new, is one of HAND or GENERATED, and at most MAX of
# HAND changed.
check_changes() {
  local name=$1 before=$2 max=$3 hand=$4 generated=$5 changed unexpected hand_changed
  changed=$(cd "$scratch" && { diff -rq "$before" tree || true; } |
              sed -E -e 's|^Files [^/]*/(.*) and tree/.*|\1|' -e 's|^Only in tree/(.*): (.*)|\1/\2|' \
                     -e 's|^Only in tree: (.*)|\1|' | sort)
  unexpected=$(comm -23 <(echo "$changed") <(echo $hand $generated | tr ' ' '\n' | sort))
  if [ -n "$unexpected" ]; then
    echo "new-operation: $name changed files beyond its hand-edited and the regenerated ones:"
    echo "$unexpected"
    exit 1
  fi
  hand_changed=$(comm -12 <(echo "$changed") <(echo $hand | tr ' ' '\n' | sort) | wc -l)
  echo "new-operation: $name added through $hand_changed hand-edited files" \
       "($(echo $hand | tr '\n' ' ')) and $(($(echo "$changed" | wc -l) - hand_changed)) regenerated"
  [ "$hand_changed" -le "$max" ]
}
generated="README.md bench/pto-bench.1 bindings/go/internal/ptoc/ptoc.go bindings/go/internal/ptoc/ptoc_wrap.c
bindings/go/ops_generated.go bindings/java/src/main/java/org/libpto/Pto.java
bindings/rust/pto-sys/src/bindings.rs bindings/rust/pto/src/ops_generated.rs"

# ---- an elementwise row: six hand-edited files ----
cd "$tree"
cat "$data/tscratch.def" >> src/operations.def
insert src/kernels/binary-ops-inl.h "// The pto_dtype bit of storage type T." "$data/tscratch-functor.h"
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Element types by name' \
  "$data/tscratch.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch-changelog.md"
cat "$data/tscratch-reference.c" >> tests/support/reference.c
regenerate
check_changes tscratch before 6 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/kernels/binary-ops-inl.h src/operations.def tests/support/reference.c" "$generated"
cp -a "$tree" "$scratch/with-binary"

# ---- a Special row with a new kind of attribute (a new C enum) ----
cat "$data/tscratch_pick.def" >> src/operations.def
insert src/attributes.def "/* Every kind, in the order of AttrKind. */" "$data/tscratch_pick-attribute.def"
sed -i -E '/^#define PTO_ATTRIBUTE_KINDS/,/^$/ s/(K\([A-Za-z]+\))$/\1 K(ScratchPick)/' src/attributes.def
grep -q 'K(ScratchPick)' src/attributes.def || { echo 'new-operation: K(ScratchPick) not added to PTO_ATTRIBUTE_KINDS' >&2; exit 1; }
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Element types by name' \
  "$data/tscratch_pick.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch_pick-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch_pick-changelog.md"
sed -i "s|  'ops/tcvt.cc',|  'ops/scratch_pick.cc',\n  'ops/tcvt.cc',|" src/meson.build
cp "$data/scratch_pick.cc" src/ops/scratch_pick.cc
regenerate
check_changes tscratch_pick with-binary 10 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/attributes.def src/meson.build src/operations.def src/ops/scratch_pick.cc" \
  "$generated bindings/go/enums_generated.go bindings/rust/pto/src/enums_generated.rs
bindings/java/src/main/java/org/libpto/ScratchPick.java"

# ---- build and test ----
# The plumbing is under test, not the SIMD paths: the baseline target only.
meson setup "$scratch/build" -Dbindings=enabled -Dbench=false -Dsimd_targets=baseline >/dev/null
meson compile -C "$scratch/build" >/dev/null
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 \
  ops errors profiles placement program kernel_coverage float_env alloc_failure \
  fuzz-corpus-replay fuzz-program-corpus-replay \
  'bindings match src/operations.def' 'bindings match the enums of include/pto_c.h'
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 --suite python --suite rust
# Each iterating test ran the new elementwise row, not just passed without it.
"$scratch/build/tests/test_ops" > "$scratch/test_ops.log" 2>&1
grep -q '^\[       OK \] tscratch (HOST dtypes)' "$scratch/test_ops.log"
"$scratch/build/tests/test_program" > "$scratch/test_program.log" 2>&1
grep -q 'computed the C call' "$scratch/test_program.log"
# Both rows in every binding.
grep -q 'def tscratch(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'def tscratch_pick(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'pub fn tscratch' bindings/rust/pto/src/ops_generated.rs
grep -q 'pub fn tscratch_pick' bindings/rust/pto/src/ops_generated.rs
grep -q 'func TScratch(' bindings/go/ops_generated.go
grep -q 'func TScratchPick(' bindings/go/ops_generated.go
grep -q 'ScratchPick' bindings/go/enums_generated.go
# The interpreter meson built the extension for (the one its pytest suite runs).
python=$(meson introspect --tests "$scratch/build" |
           python3 -c 'import json, sys; print(next(t["cmd"][0] for t in json.load(sys.stdin) if t["name"] == "pytest"))')
PYTHONPATH="$scratch/build/bindings/python" "$python" "$data/check.py"
echo "new-operation: tscratch and tscratch_pick built, bound and tested in C, programs, Python and Rust"
