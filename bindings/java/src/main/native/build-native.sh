#!/bin/sh
# Maven's generate-sources step for the Java binding (run by exec-maven-plugin;
# never by hand): SWIG writes the JNI classes from bindings/pto.i and
# include/pto_c.h, the C side is compiled into libptojni.so, and that library
# is placed, with the libpto it links and libpto's own non-system dependency
# (libhwy), where the jar takes its resources from:
#   org/libpto/native/linux-ARCH/{libptojni.so,libpto.so.0,libhwy.so.1,load-order.txt}
# NativeLibrary extracts and loads them at run time.
#
#   build-native.sh INTERFACE JAVA_OUT NATIVE_OUT WORK JAVA_HOME
# Environment: SWIG, CC, PKG_CONFIG (commands); libpto is found with
# `pkg-config pto` (PKG_CONFIG_PATH as for any libpto user).
# PTO_JNI_CROSS adds platforms built with a cross compiler, space-separated
# PLATFORM:CC:PKG_CONFIG:PKG_CONFIG_PATH entries, e.g.
#   linux-aarch64:aarch64-linux-gnu-gcc:aarch64-linux-gnu-pkg-config:/src/build-aarch64/pkgconfig
# (Maven property pto.jni.cross); their libraries are found by readelf in the
# pkg-config -L directories and /usr/lib/TRIPLE.
set -eu
interface=$1 java_out=$2 native_out=$3 work=$4 java_home=$5
swig=${SWIG:-swig}

case "$(uname -m)" in
  x86_64 | amd64) host_platform=linux-x86_64 ;;
  aarch64 | arm64) host_platform=linux-aarch64 ;;
  *) host_platform=linux-$(uname -m) ;;
esac

if ! "${PKG_CONFIG:-pkg-config}" --exists pto; then
  echo "build-native.sh: pkg-config cannot find libpto (pto.pc); set PKG_CONFIG_PATH" >&2
  exit 1
fi

rm -rf "$java_out" "$native_out/org/libpto/native" "$work"
mkdir -p "$java_out/org/libpto" "$work"
# SWIG reads the header libpto was built with, so the classes match the library.
# shellcheck disable=SC2046
"$swig" -java -package org.libpto $("${PKG_CONFIG:-pkg-config}" --cflags-only-I pto) \
  -outdir "$java_out/org/libpto" -o "$work/pto_java_wrap.c" "$interface"

# The libraries libptojni needs beyond the C/C++ runtime, "SONAME PATH" per
# line: as the host's loader resolves them (ldd) or, for a cross build ($dirs
# set), by DT_NEEDED searched in $dirs.
needed_libs() {  # LIB
  if [ -z "$dirs" ]; then
    ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
    return
  fi
  queue=$(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  seen=" "
  while [ -n "$queue" ]; do
    soname=$(echo "$queue" | head -n 1)
    queue=$(echo "$queue" | sed '1d')
    case "$seen" in *" $soname "*) continue ;; esac
    seen="$seen$soname "
    for dir in $dirs; do
      if [ -e "$dir/$soname" ]; then
        echo "$soname $dir/$soname"
        more=$(readelf -d "$dir/$soname" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        queue=$(printf '%s\n%s\n' "$queue" "$more" | sed '/^$/d')
        break
      fi
    done
  done
}

build_platform() {  # PLATFORM CC PKG_CONFIG [CROSS_LIB_DIRS]
  platform=$1 cc=$2 pkg_config=$3 dirs=${4:-}
  lib_dir=$native_out/org/libpto/native/$platform
  mkdir -p "$lib_dir"
  # $ORIGIN: next to the extracted libpto.so.0 libptojni finds it even if the
  # loader did not load it first.
  # shellcheck disable=SC2046
  "$cc" -shared -fPIC -O2 -Wall -Wno-unused-parameter \
    -I"$java_home/include" -I"$java_home/include/linux" $("$pkg_config" --cflags pto) \
    "$work/pto_java_wrap.c" -o "$lib_dir/libptojni.so" \
    $("$pkg_config" --libs pto) '-Wl,-rpath,$ORIGIN' -Wl,--as-needed
  # Bundle what a plain Linux system may lack: libpto and the libraries it
  # links outside the C/C++ runtime; dependencies load first.
  : > "$work/deps-$platform.txt"
  needed_libs "$lib_dir/libptojni.so" | while read -r soname path; do
    case "$soname" in
      libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libgcc_s.so* | libstdc++.so* | ld-linux*) ;;
      *) cp -L "$path" "$lib_dir/$soname"
         echo "$soname" >> "$work/deps-$platform.txt" ;;
    esac
  done
  { grep -v '^libpto\.so' "$work/deps-$platform.txt" || true
    grep '^libpto\.so' "$work/deps-$platform.txt" || true
    echo libptojni.so; } > "$lib_dir/load-order.txt"
  echo "build-native.sh: $platform: $(tr '\n' ' ' < "$lib_dir/load-order.txt")"
}

build_platform "$host_platform" "${CC:-cc}" "${PKG_CONFIG:-pkg-config}"
for entry in ${PTO_JNI_CROSS:-}; do
  IFS=: read -r platform cc pkg_config pc_path <<EOT
$entry
EOT
  triple=${cc%-gcc}
  (
    export PKG_CONFIG_PATH=$pc_path
    libdirs=$("$pkg_config" --libs-only-L pto | sed 's/-L//g')
    build_platform "$platform" "$cc" "$pkg_config" "$libdirs /usr/lib/$triple /lib/$triple"
  )
done
