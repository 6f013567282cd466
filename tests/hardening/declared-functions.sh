#!/bin/sh
# Prints the functions HEADER declares with PTO_API, one a line, sorted: the
# functions libpto.so exports, exactly (check-exports.sh), in the jar's
# natives (tests/ci/java-jar-platforms.sh) and in the Debian symbols file
# (debian/gen-symbols.sh).
#   tests/hardening/declared-functions.sh include/pto_c.h
set -eu
grep -o '^PTO_API[^(]*(' "$1" | sed -E 's/.*[ *]([a-z0-9_]+)\($/\1/' | sort -u
