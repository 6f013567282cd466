#!/usr/bin/env bash
# The shared library exports exactly the functions its header declares, keeps
# every function of an earlier release (the ABI only grows) and carries the
# SONAME of its ABI version.
# Usage: check-exports.sh LIBPTO_SO HEADER RELEASED_SYMBOLS SONAME
# RELEASED_SYMBOLS lists the functions of the last release (0.6.0); a new
# function needs no line there.
set -euo pipefail
lib=$1 header=$2 expected=$3 soname=$4
status=0

# Every dynamic symbol the library defines (functions, data, anything).
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
# Every function the header declares with PTO_API.
declared=$(sh "$(dirname "$0")/declared-functions.sh" "$header")
listed=$(sort -u "$expected")

if [ "$exported" != "$declared" ]; then
  echo "exported symbols differ from the functions $header declares (< exported, > declared):"
  diff <(echo "$exported") <(echo "$declared") || true
  status=1
fi
missing=$(comm -13 <(echo "$exported") <(echo "$listed"))
if [ -n "$missing" ]; then
  echo "functions of the last release ($expected) no longer exported:"
  echo "$missing"
  status=1
fi

actual_soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$actual_soname" != "$soname" ]; then
  echo "SONAME is '$actual_soname', expected '$soname'"
  status=1
fi
[ "$status" = 0 ] && echo "$(echo "$exported" | wc -l) exported functions ($(echo "$listed" | wc -l) of the last release), SONAME $actual_soname: OK"
exit "$status"
