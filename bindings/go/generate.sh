#!/bin/sh
# Writes the Go binding's cgo layer, internal/ptoc/ptoc.go and ptoc_wrap.c,
# with SWIG from bindings/pto.i and include/pto_c.h. Both files are
# committed (a Go module must ship its cgo code; users never run SWIG).
#
#   generate.sh           regenerate them in place
#   generate.sh --check   regenerate into a scratch directory and fail if the
#                         committed copies differ (CI's drift check)
# SWIG names the swig program (default: swig; the committed files come from
# SWIG 4.1.0, Debian 12's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
swig=${SWIG:-swig}
dest=$here/internal/ptoc
mode=${1:-}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Run from the interface's own directory with relative paths, so nothing
# about this checkout's location ends up in the output.
(cd "$root/bindings" && "$swig" -go -cgo -intgosize 64 -I../include \
  -outdir "$out" -o "$out/ptoc_wrap.c" pto.i)

if [ "$mode" = --check ]; then
  status=0
  for f in ptoc.go ptoc_wrap.c; do
    if ! diff -u "$dest/$f" "$out/$f" > "$out/$f.diff"; then
      echo "bindings/go/internal/ptoc/$f differs from what SWIG generates:" >&2
      head -n 40 "$out/$f.diff" >&2
      status=1
    fi
  done
  if [ $status -ne 0 ]; then
    echo "run bindings/go/generate.sh and commit the result ($("$swig" -version | sed -n 's/^SWIG Version //p'))" >&2
    exit 1
  fi
  echo "Go cgo layer is up to date with include/pto_c.h and bindings/pto.i"
else
  cp "$out/ptoc.go" "$out/ptoc_wrap.c" "$dest/"
  echo "wrote $dest/ptoc.go and $dest/ptoc_wrap.c"
fi
