#!/bin/sh
# Writes libpto0's symbols file (dpkg-gensymbols format) from the functions
# include/pto_c.h declares, which libpto.so exports exactly (the hardening
# suite checks it), so the package follows the header as it grows. A function in the 0.2 ABI baseline (tests/abi) dates from
# 0.2.0, the first version this file describes; any other from VERSION, the
# package's upstream version. pto.map exports unversioned symbols: @Base.
#   debian/gen-symbols.sh HEADER ABI_BASELINE VERSION
set -eu
header=$1 baseline=$2 version=$3
echo "libpto.so.0 libpto0 #MINVER#"
echo "* Build-Depends-Package: libpto-dev"
sh tests/hardening/declared-functions.sh "$header" | while read -r name; do
  if grep -q "<elf-symbol name='$name'" "$baseline"; then
    echo " $name@Base 0.2.0"
  else
    echo " $name@Base $version"
  fi
done
