#!/usr/bin/env bash
# The shared library exports exactly the contract's functions and carries the
# SONAME of its ABI version.
# Usage: check-exports.sh LIBPTO_SO HEADER EXPECTED_SYMBOLS SONAME
set -euo pipefail
lib=$1 header=$2 expected=$3 soname=$4
status=0

# Every dynamic symbol the library defines (functions, data, anything).
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
# Every function the header declares with PTO_API.
declared=$(grep -o '^PTO_API[^(]*(' "$header" | sed -E 's/.*[ *]([a-z0-9_]+)\($/\1/' | sort -u)
listed=$(sort -u "$expected")

if [ "$exported" != "$listed" ]; then
  echo "exported symbols differ from $expected (< exported, > expected):"
  diff <(echo "$exported") <(echo "$listed") || true
  status=1
fi
if [ "$declared" != "$listed" ]; then
  echo "functions declared in $header differ from $expected (< declared, > expected):"
  diff <(echo "$declared") <(echo "$listed") || true
  status=1
fi

actual_soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$actual_soname" != "$soname" ]; then
  echo "SONAME is '$actual_soname', expected '$soname'"
  status=1
fi
[ "$status" = 0 ] && echo "$(echo "$listed" | wc -l) exported functions, SONAME $actual_soname: OK"
exit "$status"
