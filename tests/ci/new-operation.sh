#!/usr/bin/env bash
# src/README.md says a new elementwise instruction is six hand-edited files.
# This step holds it to that: in a scratch copy of the tree it adds a dummy
# Binary operation, tscratch (dst = |src0 - src1|), through those six files
# only, regenerates what is committed with the README's one command, checks
# that nothing else changed, then builds with the bindings and runs the core
# tests that iterate the operations, the program tests, the Python and Rust
# suites, and asserts that each of them ran tscratch.
# Usage: tests/ci/new-operation.sh [SCRATCH_DIR]   (default: build-ci/new-operation)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:-$root/build-ci/new-operation}
rm -rf "$scratch"
mkdir -p "$scratch/tree"
tree=$scratch/tree
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$tree")
cp -a "$tree" "$scratch/before"

# ---- the six hand-edited files ----
cd "$tree"
cat >> src/operations.def <<'EOF'
PTO_OPERATION(TScratch, TSCRATCH, tscratch, Binary, 2, src0, src1, None, None,
              (FLOAT32, FLOAT16, INT32), (FLOAT32, FLOAT16, INT32), (FLOAT32, FLOAT16, INT32),
              "|src0 - src1| elementwise; correctly rounded, integers wrap")
EOF
python3 - <<'EOF'
import pathlib
def insert(path, before, text):
    p = pathlib.Path(path)
    s = p.read_text()
    assert before in s, f"{path}: no '{before}' to insert before"
    p.write_text(s.replace(before, text + before, 1))
insert("src/kernels/binary-ops-inl.h", "// The pto_dtype bit of storage type T.",
       "struct TScratchOp : InLanes<AddTag> {\n"
       "  template <class D>\n"
       "  HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {\n"
       "    return hn::Abs(hn::Sub(x, y));\n"
       "  }\n"
       "};\n\n")
insert("include/pto_c.h", "/* ------------------------------------------------------------------------ */\n"
       "/* Element types by name",
       "/* dst = |src0 - src1|: the difference correctly rounded, integers wrapping\n"
       " * (a dummy of tests/ci/new-operation.sh). FLOAT32, FLOAT16, INT32. */\n"
       "PTO_API pto_status pto_tscratch(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);\n\n")
insert("docs/profiles.md", "\nEach list is the page's",
       "- tscratch: the dummy of tests/ci/new-operation.sh.\n")
insert("CHANGELOG.md", "- **Elementwise instructions**", "- `pto_tscratch` (a dummy).\n")
EOF
cat >> tests/support/reference.c <<'EOF'

uint32_t ref_tscratch(pto_dtype dt, uint32_t a, uint32_t b) {
    if (ref_is_float(dt)) return ref_from_double(dt, fabs(ref_to_double(dt, a) - ref_to_double(dt, b)));
    const int64_t d = ref_int_value(dt, ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) - (uint64_t)ref_int_value(dt, b)));
    return ref_int_wrap(dt, (uint64_t)(d < 0 ? -d : d));
}
EOF

# ---- regenerated: src/README.md's command ----
tools/gen-operations.py --write-committed >/dev/null
tools/gen-enums.py --write-committed >/dev/null
bindings/go/generate.sh >/dev/null
bindings/rust/generate.sh >/dev/null

hand="CHANGELOG.md docs/profiles.md include/pto_c.h src/kernels/binary-ops-inl.h src/operations.def
tests/support/reference.c"
generated="README.md bench/pto-bench.1 bindings/go/internal/ptoc/ptoc.go bindings/go/internal/ptoc/ptoc_wrap.c
bindings/go/ops_generated.go bindings/java/src/main/java/org/libpto/Pto.java
bindings/rust/pto-sys/src/bindings.rs bindings/rust/pto/src/ops_generated.rs"
changed=$(cd "$scratch" && { diff -rq before tree || true; } |
            sed -E 's|^Files before/(.*) and tree/.*|\1|' | sort)
unexpected=$(comm -23 <(echo "$changed") <(echo $hand $generated | tr ' ' '\n' | sort))
if [ -n "$unexpected" ]; then
  echo "new-operation: files changed beyond the six hand-edited and the regenerated ones:"
  echo "$unexpected"
  exit 1
fi
hand_changed=$(comm -12 <(echo "$changed") <(echo $hand | tr ' ' '\n' | sort) | wc -l)
echo "new-operation: tscratch added through $hand_changed hand-edited files" \
     "($(echo $hand | tr '\n' ' ')) and $(($(echo "$changed" | wc -l) - hand_changed)) regenerated"
[ "$hand_changed" -le 6 ]

# ---- build and test ----
# The plumbing is under test, not the SIMD paths: the baseline target only.
meson setup "$scratch/build" -Dbindings=enabled -Dbench=false -Dsimd_targets=baseline >/dev/null
meson compile -C "$scratch/build" >/dev/null
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 \
  ops errors profiles placement program kernel_coverage float_env alloc_failure \
  'bindings match src/operations.def'
meson test -C "$scratch/build" --print-errorlogs --num-processes 2 --suite python --suite rust
# Each iterating test ran the new row, not just passed without it.
"$scratch/build/tests/test_ops" > "$scratch/test_ops.log" 2>&1
grep -q '^\[       OK \] tscratch (HOST dtypes)' "$scratch/test_ops.log"
"$scratch/build/tests/test_program" > "$scratch/test_program.log" 2>&1
grep -q 'computed the C call' "$scratch/test_program.log"
grep -q 'def tscratch(' "$scratch/build/bindings/python/pto/_pto.pyi"
grep -q 'pub fn tscratch' bindings/rust/pto/src/ops_generated.rs
grep -q 'func TScratch(' bindings/go/ops_generated.go
# The interpreter meson built the extension for (the one its pytest suite runs).
python=$(meson introspect --tests "$scratch/build" |
           python3 -c 'import json, sys; print(next(t["cmd"][0] for t in json.load(sys.stdin) if t["name"] == "pytest"))')
PYTHONPATH="$scratch/build/bindings/python" "$python" -c '
import numpy as np, pto
a = pto.Tile.from_numpy(np.array([[2, -3, 0.5, 9]], dtype=np.float32))
b = pto.Tile.from_numpy(np.array([[10, 3, -2, 0.5]], dtype=np.float32))
with pto.Tile(pto.DType.FLOAT32, 1, 4) as d:
    assert (pto.tscratch(d, a, b).numpy() == [[8, 6, 2.5, 8.5]]).all()'
echo "new-operation: tscratch built, bound and tested in C, programs, Python and Rust"
