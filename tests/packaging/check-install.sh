#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds two consumers the way a
# user would: `cc app.c $(pkg-config --cflags --libs pto)`. Also checks the
# installed file set and the shared object's SONAME. Usage:
# check-install.sh BUILD_DIR VERSION (VERSION: meson.project_version()).
set -euo pipefail
build_dir=$1
version=$2
src_dir=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

DESTDIR="$scratch" meson install -C "$build_dir" --no-rebuild --quiet
prefix=$(meson introspect "$build_dir" --buildoptions |
         python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root="$scratch$prefix"
pcdir=$(dirname "$(find "$root" -name pto.pc | head -n1)")
[ -f "$pcdir/pto.pc" ] || { echo "pto.pc not installed"; exit 1; }
[ -f "$root/include/pto_c.h" ] || { echo "pto_c.h not installed"; exit 1; }
lib=$(find "$root" -name "libpto.so.$version" | head -n1)
[ -n "$lib" ] || { echo "libpto.so.$version not installed"; exit 1; }
soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libpto.so.0 ] || { echo "SONAME is '$soname', expected libpto.so.0"; exit 1; }

export PKG_CONFIG_PATH="$pcdir"
flags=$(pkg-config --define-variable=prefix="$root" --cflags --libs pto)
echo "pkg-config pto: $flags"
cc -std=c11 -Wall -Werror "$src_dir/consumer.c" $flags -o "$scratch/consumer_c"
c++ -std=c++11 -Wall -Werror "$src_dir/consumer.cpp" $flags -o "$scratch/consumer_cpp"
export LD_LIBRARY_PATH="$(dirname "$lib")"
"$scratch/consumer_c"
"$scratch/consumer_cpp"
echo "install check passed"
