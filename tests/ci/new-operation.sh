#!/usr/bin/env bash
# src/README.md says what a new instruction costs in hand-edited files; this
# step holds the tree to it. In a scratch copy it adds four dummies, each
# through the files src/README.md names, and regenerates what is committed
# with its one command:
#   tscratch       a Binary row (dst = |src0 - src1|): 6 files
#   tscratch_pick  a Special row with a new kind of attribute (a new C enum)
#                  and no kernel of its own (dst = src0 or src1 as the enum
#                  picks, two sources and a tmp): 6 files
#   tscratch_fma   a Special row with its own kernel (src/kernels/, its
#                  dispatch), its own CMocka test file and a text form its
#                  test runs (dst = scalar * src0 + src1, rounded once): at
#                  most 11 files
#   tscratch_table two tile results (Dst, Dst1), a scalar out-parameter (Out)
#                  and a table in memory (Table), its own C test (which runs
#                  its text form too: the generic reader's, by the roles) and
#                  Rust test: at most 11 files
# After each it checks that every changed file is a hand-edited or a
# regenerated one, that the hand-edited ones are no more than the count, and
# that each regenerated file is exactly what the regeneration makes of the
# tree before the dummy plus its hand edits (a hand edit inside a generated
# file fails). Then it builds with the bindings, runs the core tests that
# iterate the operations, the dummy's own test, the program tests, the
# fuzzers' corpus replays, the Python and Rust suites, and asserts that the
# new rows ran in C, programs, Python and Rust and are bound in Go and Java.
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
# from BEFORE_DIR, or is new, is one of HAND or GENERATED, at most MAX of HAND
# changed, and the GENERATED files are what regenerating BEFORE_DIR with
# HAND's edits gives (check_regenerated).
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
  if [ "$hand_changed" -gt "$max" ]; then
    echo "new-operation: $name took $hand_changed hand-edited files, more than $max"
    exit 1
  fi
  check_regenerated "$name" "$before" "$hand"
}
# check_regenerated NAME BEFORE_DIR HAND: BEFORE_DIR with the tree's HAND files
# copied in, regenerated, equals the tree, so every other change is the
# regeneration's and no hand edit hides in a generated file.
check_regenerated() {
  local name=$1 before=$2 hand=$3 expected=$scratch/regenerated-$1 file
  rm -rf "$expected"
  cp -a "$scratch/$before" "$expected"
  for file in $hand; do
    if [ -e "$tree/$file" ]; then
      cp "$tree/$file" "$expected/$file"
    else
      rm -f "$expected/$file"
    fi
  done
  (cd "$expected" && regenerate)
  if ! diff -r -x __pycache__ "$expected" "$tree" > "$scratch/regenerated-$name.diff"; then
    echo "new-operation: $name's tree differs from its hand edits regenerated (an edit by hand in a" \
         "generated file?):"
    head -40 "$scratch/regenerated-$name.diff"
    exit 1
  fi
}
generated="README.md docs/operations.md bench/pto-bench.1 bindings/go/internal/ptoc/ptoc.go bindings/go/internal/ptoc/ptoc_wrap.c
bindings/go/ops_generated.go bindings/java/src/main/java/org/libpto/Pto.java
bindings/rust/pto-sys/src/bindings.rs bindings/rust/pto/src/ops_generated.rs"

# ---- an elementwise row: six hand-edited files ----
cd "$tree"
cat "$data/tscratch.def" >> src/operations.def
insert src/kernels/binary-ops-inl.h "// The pto_dtype bit of storage type T." "$data/tscratch-functor.h"
# Each declaration goes to the pto_c.h section of its row's group.
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Elementwise unary' \
  "$data/tscratch.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch-changelog.md"
cat "$data/tscratch-reference.c" >> tests/support/reference.c
regenerate
check_changes tscratch before 6 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/kernels/binary-ops-inl.h src/operations.def tests/support/reference.c" "$generated"
cp -a "$tree" "$scratch/with-binary"

# ---- a Special row with a new kind of attribute (a new C enum), no kernel of its own ----
cat "$data/tscratch_pick.def" >> src/operations.def
insert src/attributes.def "/* Every kind, in the order of AttrKind. */" "$data/tscratch_pick-attribute.def"
sed -i -E '/^#define PTO_ATTRIBUTE_KINDS/,/^$/ s/(K\([A-Za-z0-9]+\))$/\1 K(ScratchPick)/' src/attributes.def
grep -q 'K(ScratchPick)' src/attributes.def || { echo 'new-operation: K(ScratchPick) not added to PTO_ATTRIBUTE_KINDS' >&2; exit 1; }
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Sorting' \
  "$data/tscratch_pick.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch_pick-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch_pick-changelog.md"
# Its check and run in the src/ops/ file of its group, data_movement.
insert src/ops/datamove.cc "}  // namespace ops" "$data/tscratch_pick-ops.cc"
regenerate
check_changes tscratch_pick with-binary 6 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/attributes.def src/operations.def src/ops/datamove.cc" \
  "$generated bindings/go/enums_generated.go bindings/rust/pto/src/enums_generated.rs
bindings/java/src/main/java/org/libpto/ScratchPick.java"
cp -a "$tree" "$scratch/with-pick"

# ---- a Special row with its own kernel, test file and text form ----
cat "$data/tscratch_fma.def" >> src/operations.def
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Matrix multiply' \
  "$data/tscratch_fma.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch_fma-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch_fma-changelog.md"
# Its check and run in the src/ops/ file of its group, fused.
insert src/ops/fused.cc "}  // namespace ops" "$data/tscratch_fma-ops.cc"
# Its kernel: a file of src/kernels/ with its Highway dispatch, the entry
# point in kernels.h, the file in src/meson.build.
cp "$data/scratch_fma.cc" src/kernels/scratch_fma.cc
insert src/kernels/kernels.h "// dst = scalar * src + dst elementwise, rounded once" "$data/tscratch_fma-kernel.h"
sed -i "s|  'kernels/axpy.cc',|  'kernels/axpy.cc',\n  'kernels/scratch_fma.cc',|" src/meson.build
grep -q "'kernels/scratch_fma.cc'" src/meson.build || { echo 'new-operation: scratch_fma.cc not added to src/meson.build' >&2; exit 1; }
# Its test: a CMocka file, a line of tests/meson.build's core tests.
cp "$data/test_scratch_fma.c" tests/test_scratch_fma.c
sed -i "s|^  \['ternary', 120, 0\],|  ['ternary', 120, 0],\n  ['scratch_fma', 120, 0],|" tests/meson.build
grep -q "'scratch_fma', 120" tests/meson.build || { echo 'new-operation: scratch_fma not added to tests/meson.build' >&2; exit 1; }
regenerate
check_changes tscratch_fma with-pick 11 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/kernels/kernels.h src/kernels/scratch_fma.cc src/meson.build src/operations.def src/ops/fused.cc
tests/meson.build tests/test_scratch_fma.c" "$generated"
cp -a "$tree" "$scratch/with-fma"

# ---- a Special row with two tile results, a scalar out-parameter and a table in memory ----
cat "$data/tscratch_table.def" >> src/operations.def
insert include/pto_c.h '/* ------------------------------------------------------------------------ */\n/* Data movement' \
  "$data/tscratch_table.h"
insert docs/profiles.md '\nEach list is the page' "$data/tscratch_table-profiles.md"
insert CHANGELOG.md "\n## 0.4.0" "$data/tscratch_table-changelog.md"
# Its check and run in the src/ops/ file of its group, element_access.
insert src/ops/element_access.cc "}  // namespace ops" "$data/tscratch_table-ops.cc"
cp "$data/test_scratch_table.c" tests/test_scratch_table.c
# Its Rust test: a file of the crate's tests/, which cargo finds itself.
cp "$data/scratch_table.rs" bindings/rust/pto/tests/scratch_table.rs
sed -i "s|^  \['ternary', 120, 0\],|  ['ternary', 120, 0],\n  ['scratch_table', 120, 0],|" tests/meson.build
grep -q "'scratch_table', 120" tests/meson.build || { echo 'new-operation: scratch_table not added to tests/meson.build' >&2; exit 1; }
regenerate
check_changes tscratch_table with-fma 11 "CHANGELOG.md docs/profiles.md include/pto_c.h
src/operations.def src/ops/element_access.cc tests/meson.build tests/test_scratch_table.c
bindings/rust/pto/tests/scratch_table.rs" "$generated"

# ---- build and test ----
# The plumbing is under test, not the SIMD paths: the baseline target only,
# at -O1 (a quicker compile).
meson setup "$scratch/build" -Dbindings=enabled -Dbench=false -Dsimd_targets=baseline -Doptimization=1 >/dev/null
# Only what the checks below run is built: meson test builds the programs of
# the tests it runs (not the other C tests, the ABI probe or the tools), and
# test_ops and test_program run once, directly, below.
meson compile -C "$scratch/build" tests/test_ops tests/test_program >/dev/null
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 \
  errors profiles placement kernel_coverage float_env alloc_failure scratch_fma scratch_table \
  fuzz-corpus-replay fuzz-program-corpus-replay \
  'bindings match src/operations.def' 'bindings match the enums of include/pto_c.h'
# tscratch_table ran from a program: its C test's text form, against the C call
# (this run's log, before the next run's replaces it).
grep -q "^\[scratch_table\] its text form computed the C call's tiles and value" \
  "$scratch/build/meson-logs/testlog.txt" || {
  echo "new-operation: tscratch_table's text form did not run"; exit 1; }
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 --suite python --suite rust
# tscratch_table ran from Rust: its own test among cargo's, passed.
grep -q '^test tscratch_table_runs_from_rust \.\.\. ok' "$scratch/build/meson-logs/testlog.txt" || {
  echo "new-operation: tscratch_table's Rust test did not run"; exit 1; }
# test_ops and test_program pass, and each ran the new elementwise row, not
# just passed without it.
"$scratch/build/tests/test_ops" > "$scratch/test_ops.log" 2>&1 || {
  tail -n 60 "$scratch/test_ops.log"; echo "new-operation: test_ops failed"; exit 1; }
grep -q '^\[       OK \] tscratch (HOST dtypes)' "$scratch/test_ops.log"
"$scratch/build/tests/test_program" > "$scratch/test_program.log" 2>&1 || {
  tail -n 60 "$scratch/test_program.log"; echo "new-operation: test_program failed"; exit 1; }
grep -q 'computed the C call' "$scratch/test_program.log"
# Both rows in every binding.
grep -q 'def tscratch(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'def tscratch_pick(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'def tscratch_fma(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'pub fn tscratch' bindings/rust/pto/src/ops_generated.rs
grep -q 'pub fn tscratch_pick' bindings/rust/pto/src/ops_generated.rs
grep -q 'pub fn tscratch_fma' bindings/rust/pto/src/ops_generated.rs
grep -q 'func TScratch(' bindings/go/ops_generated.go
grep -q 'func TScratchPick(' bindings/go/ops_generated.go
grep -q 'func TScratchFma(' bindings/go/ops_generated.go
grep -q 'pub fn tscratch_table<T: Storage>(' bindings/rust/pto/src/ops_generated.rs
grep -q 'func TScratchTable\[T Storage\](' bindings/go/ops_generated.go
grep -q 'public static double tscratchTable(Tile dst, java.nio.ByteBuffer table' \
  bindings/java/src/main/java/org/libpto/Pto.java
grep -q 'ScratchPick' bindings/go/enums_generated.go
# The interpreter meson built the extension for (the one its pytest suite runs).
python=$(meson introspect --tests "$scratch/build" |
           python3 -c 'import json, sys; print(next(t["cmd"][0] for t in json.load(sys.stdin) if t["name"] == "pytest"))')
PYTHONPATH="$scratch/build/bindings/python" "$python" "$data/check.py"
echo "new-operation: tscratch, tscratch_pick, tscratch_fma and tscratch_table built, bound and tested" \
     "in C, programs, Python and Rust (tscratch_table by its own tests), bound in Go and Java"
