#!/bin/sh
# Writes pto-sys/src/bindings.rs, the Rust FFI declarations, with the bindgen
# program from include/pto_c.h. The file is committed (users need neither
# bindgen nor libclang); CI runs `generate.sh --check`, which fails when the
# committed copy differs from bindgen's output.
# BINDGEN names the bindgen program (default: bindgen; the committed file
# comes from bindgen 0.60.1 with libclang 14, Debian 12's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bindgen=${BINDGEN:-bindgen}
dest=$here/pto-sys/src/bindings.rs

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Relative paths from the repository root: no checkout path in the output.
(cd "$root" && "$bindgen" include/pto_c.h \
  --allowlist-function 'pto_.*' --allowlist-type 'pto_.*' --allowlist-var 'PTO_.*' \
  --newtype-enum 'pto_.*' --no-layout-tests --no-rustfmt-bindings \
  -o "$out/bindings.rs" -- -Iinclude)

if [ "${1:-}" = --check ]; then
  if ! diff -u "$dest" "$out/bindings.rs" > "$out/diff"; then
    echo "bindings/rust/pto-sys/src/bindings.rs differs from what bindgen generates:" >&2
    head -n 40 "$out/diff" >&2
    echo "run bindings/rust/generate.sh and commit the result ($("$bindgen" --version))" >&2
    exit 1
  fi
  echo "pto-sys bindings are up to date with include/pto_c.h"
else
  cp "$out/bindings.rs" "$dest"
  echo "wrote $dest"
fi
