#!/bin/sh
# Prints the functions HEADER declares with PTO_API, one a line, sorted: the
# functions libpto.so exports, exactly (check-exports.sh), in the jar's
# natives (tests/ci/java-jar-platforms.sh) and in the Debian symbols file
# (debian/gen-symbols.sh). For include/pto_c.h, libpto's other public
# header beside it, pto_comm.h (the multi-card transport's registration),
# is read too.
#   tests/hardening/declared-functions.sh include/pto_c.h
set -eu
headers=$1
if [ "$(basename "$1")" = pto_c.h ] && [ -f "$(dirname "$1")/pto_comm.h" ]; then
  headers="$1 $(dirname "$1")/pto_comm.h"
fi
# shellcheck disable=SC2086
grep -ho '^PTO_API[^(]*(' $headers | sed -E 's/.*[ *]([a-z0-9_]+)\($/\1/' | sort -u
