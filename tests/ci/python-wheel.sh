# Sourced by tests/ci/python.sh (the x86-64 wheel) and
# tests/ci/python-aarch64.sh (the aarch64 wheel): the checks of a repaired
# wheel and the run of its tests with the system's libhwy.so.1 hidden.
# Needs $root (the checkout) and auditwheel on PATH.

# check_wheel WHEEL: the repaired wheel as docs/install.md describes it:
#  - `auditwheel show` finds the platform tag of the file's name (a newer
#    glibc or libstdc++ symbol in libpto.so fails here: the tag would change);
#  - README.md and docs/install.md name exactly this file for its machine;
#  - libpto.so inside carries the C++ runtime (no libstdc++.so.6 needed) and
#    exports only pto_* functions;
#  - auditwheel names no library outside the wheel but the C/C++ runtime.
check_wheel() {
  local wheel=$1 name show tag machine doc named inside outside dir
  name=$(basename "$wheel")
  show=$(auditwheel show "$wheel")
  echo "$show"
  tag=$(tr '\n' ' ' <<<"$show" |
    sed -E -n 's/.*consistent with[[:space:]]+the[[:space:]]+following[[:space:]]+platform[[:space:]]+tag:[[:space:]]+"([^"]+)".*/\1/p')
  case "$name" in
    libpto-*-abi3-"$tag".whl) ;;
    *) echo "$name: auditwheel show gives the platform tag '${tag:-none}', not the file name's"; return 1 ;;
  esac
  machine=${tag#manylinux_*_*_}
  for doc in README.md docs/install.md; do
    named=$(grep -o "libpto-[0-9.]*-cp[0-9]*-abi3-[a-z0-9_]*_$machine\.whl" "$root/$doc" | sort -u)
    if [ "$named" != "$name" ]; then
      echo "$doc names the $machine wheel as '${named//$'\n'/ }'; the build makes $name"
      return 1
    fi
  done
  dir=$(mktemp -d)
  (cd "$dir" && python -m zipfile -e "$wheel" .)
  if readelf -d "$dir/pto/libpto.so" | grep -q 'NEEDED.*libstdc++'; then
    echo "$name: pto/libpto.so needs libstdc++.so.6 (meson option static_cxx_runtime not in effect)"
    rm -rf "$dir"
    return 1
  fi
  outside=$(readelf --dyn-syms -W "$dir/pto/libpto.so" |
    awk '$1 ~ /^[0-9]+:$/ && $5 != "LOCAL" && $7 != "UND" && $8 != "" && $8 !~ /^pto_/ {print $8}')
  if [ -n "$outside" ]; then
    echo "$name: pto/libpto.so exports more than pto_*: $outside"
    rm -rf "$dir"
    return 1
  fi
  inside=$(find "$dir" -type f -printf '%f\n')
  rm -rf "$dir"
  # Every library auditwheel names must be in the wheel or the C/C++ runtime.
  outside=$(tr '\n' ' ' <<<"$show" | grep -o 'lib[A-Za-z0-9_+-]*\(-[0-9a-f]*\)\?\.so[0-9.]*' | sort -u |
    grep -v -x -F "$inside" | grep -v -E '^(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so' || true)
  if [ -n "$outside" ]; then
    echo "$name: the repaired wheel still needs libraries from the system: $outside"
    return 1
  fi
  echo "auditwheel: $tag, as README.md and docs/install.md name it; libpto.so carries the C++ runtime;" \
    "no external library but the C/C++ runtime"
}

# run_without_libhwy FILES N COMMAND...: runs COMMAND (its first N words are
# a Python interpreter, e.g. `qemu-aarch64 -L / venv/bin/python`) with each
# of FILES (the libhwy.so.1 copies the loader would find) covered by an empty
# file in a private mount namespace: loading it there fails ("file too
# short"), which the interpreter checks first. unshare -m and mount --bind
# need root: as root, or through passwordless sudo; otherwise COMMAND runs
# with libhwy visible and the reason is printed.
run_without_libhwy() {
  local files=$1 n=$2 empty as_root=()
  shift 2
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  if [ ${#as_root[@]} -gt 0 ] && ! sudo -n true 2>/dev/null; then
    echo "SKIPPED hiding libhwy.so.1: unshare -m and mount --bind need root, and uid $(id -u) has no passwordless sudo; the tests run with it visible"
    LD_LIBRARY_PATH= "$@"
    return
  fi
  if [ -z "$files" ]; then
    echo "no libhwy.so.1 installed here: nothing to hide"
    LD_LIBRARY_PATH= "$@"
    return
  fi
  empty=$(mktemp)
  # shellcheck disable=SC2016
  "${as_root[@]}" env LD_LIBRARY_PATH= PYTHONDONTWRITEBYTECODE=1 unshare -m bash -euc '
    hwy=$1 empty=$2 n=$3
    shift 3
    for f in $hwy; do mount --bind "$empty" "$f"; done
    if "${@:1:n}" -c "import ctypes; ctypes.CDLL(\"libhwy.so.1\")" 2>/dev/null; then
      echo "libhwy.so.1 still loads: hiding it failed"
      exit 1
    fi
    echo "libhwy.so.1 hidden (an empty file over $hwy)"
    exec "$@"' bash "$files" "$empty" "$n" "$@" || { rm -f "$empty"; return 1; }
  rm -f "$empty"
}
