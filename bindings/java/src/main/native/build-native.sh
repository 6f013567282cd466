#!/bin/sh
# Maven's generate-sources step for the Java binding (run by exec-maven-plugin;
# never by hand): SWIG writes the JNI classes from bindings/pto.i and
# include/pto_c.h, the C side is compiled into libptojni.so, and that library
# is placed, with the libpto it links and libpto's own non-system dependency
# (libhwy), where the jar takes its resources from:
#   org/libpto/native/linux-x86_64/{libptojni.so,libpto.so.0,libhwy.so.1}
# NativeLibrary extracts and loads them at run time.
#
#   build-native.sh INTERFACE JAVA_OUT NATIVE_OUT WORK JAVA_HOME
# Environment: SWIG, CC, PKG_CONFIG (commands); libpto is found with
# `pkg-config pto` (PKG_CONFIG_PATH as for any libpto user).
set -eu
interface=$1 java_out=$2 native_out=$3 work=$4 java_home=$5
swig=${SWIG:-swig} cc=${CC:-cc} pkg_config=${PKG_CONFIG:-pkg-config}

case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac
platform=linux-$arch
lib_dir=$native_out/org/libpto/native/$platform

if ! "$pkg_config" --exists pto; then
  echo "build-native.sh: pkg-config cannot find libpto (pto.pc); set PKG_CONFIG_PATH" >&2
  exit 1
fi
# SWIG reads the header libpto was built with, so the classes match the library.
include_dirs=$("$pkg_config" --cflags-only-I pto)

rm -rf "$java_out" "$lib_dir" "$work"
mkdir -p "$java_out/org/libpto" "$lib_dir" "$work"
# shellcheck disable=SC2086
"$swig" -java -package org.libpto $include_dirs \
  -outdir "$java_out/org/libpto" -o "$work/pto_java_wrap.c" "$interface"

# $ORIGIN: next to the extracted libpto.so.0 libptojni finds it even if the
# loader did not load it first.
# shellcheck disable=SC2086
"$cc" -shared -fPIC -O2 -Wall -Wno-unused-parameter \
  -I"$java_home/include" -I"$java_home/include/linux" $("$pkg_config" --cflags pto) \
  "$work/pto_java_wrap.c" -o "$lib_dir/libptojni.so" \
  $("$pkg_config" --libs pto) '-Wl,-rpath,$ORIGIN' -Wl,--as-needed

# Bundle what libptojni needs that a plain Linux system may lack: libpto and
# the libraries it links outside the C/C++ runtime, as the dynamic loader
# resolves them here.
: > "$lib_dir/load-order.txt"
ldd "$lib_dir/libptojni.so" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
while read -r soname path; do
  case "$soname" in
    libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libgcc_s.so* | libstdc++.so* | ld-linux*) ;;
    *) cp -L "$path" "$lib_dir/$soname"
       echo "$soname" >> "$work/deps.txt" ;;
  esac
done
# Dependencies first: libhwy before libpto, then the JNI library.
if [ -f "$work/deps.txt" ]; then
  grep -v '^libpto\.so' "$work/deps.txt" >> "$lib_dir/load-order.txt" || true
  grep '^libpto\.so' "$work/deps.txt" >> "$lib_dir/load-order.txt" || true
fi
echo libptojni.so >> "$lib_dir/load-order.txt"
echo "build-native.sh: $platform: $(tr '\n' ' ' < "$lib_dir/load-order.txt")"
