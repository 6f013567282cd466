#!/usr/bin/env bash
# Compares a built libpto.so (with DWARF debug info) against the committed ABI
# baseline of its SONAME, tests/abi/libpto.so.<N>.abi. Fails on any change
# but additions (new functions, enumerators appended to an enum).
#
# Usage: check-abi.sh LIBPTO_SO            compare
#        check-abi.sh --update LIBPTO_SO   rewrite the baseline (see README.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
headers=$(cd "$here/../../include" && pwd)

update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
lib=$1

# (grep reads all of readelf's output: with -q, SIGPIPE and pipefail would
# make a library with debug info look like one without.)
if ! readelf -S "$lib" | grep '\.debug_info' > /dev/null; then
  echo "$lib has no DWARF debug info; abidiff needs a build with -Ddebug=true" >&2
  exit 77 # skipped
fi
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
baseline="$here/$soname.abi"

# Only the types reachable from pto_c.h count, with no paths or locations, so
# the dump depends on the ABI alone, not on where or how it was built.
dump() {
  abidw --exported-interfaces-only --headers-dir "$headers" --drop-private-types --no-corpus-path --no-comp-dir-path \
    --no-show-locs --no-elf-needed --type-id-style hash "$1"
}

if [ "$update" = 1 ]; then
  dump "$lib" > "$baseline"
  echo "wrote $baseline"
  exit 0
fi
if [ ! -f "$baseline" ]; then
  echo "no ABI baseline $baseline for SONAME $soname: an ABI version bump needs a new" \
       "baseline (tests/abi/README.md)" >&2
  exit 1
fi

current=$(mktemp)
trap 'rm -f "$current"' EXIT
dump "$lib" > "$current"
# abidiff's status is a bit field: 1 error, 2 usage error, 4 ABI change,
# 8 incompatible change. Added functions and enumerators appended to an enum
# are compatible (libabigail counts the latter as harmless) and filtered out;
# any other change, even one abidiff does not call incompatible (a changed
# parameter type, a renumbered enumerator), fails.
set +e
abidiff --no-show-locs --no-added-syms "$baseline" "$current"
rc=$?
set -e
if (( rc & 3 )); then
  echo "abidiff failed (status $rc)" >&2
  exit 1
elif (( rc != 0 )); then
  echo "ABI CHANGE against $baseline: restore compatibility, or bump the SONAME and the" \
       "version and record a new baseline (tests/abi/README.md)" >&2
  exit 1
fi
if ! abidiff --no-show-locs "$baseline" "$current" > /dev/null; then
  echo "compatible ABI additions against $baseline (allowed)"
else
  echo "ABI identical to $baseline"
fi
