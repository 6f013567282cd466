#!/usr/bin/env bash
# The Python package as users get it (README "Python"):
#  1. the `python` meson suite on the build tree, required (-Dpython=enabled);
#  2. `pip install .` from a clean clone into a fresh venv, then pytest and the
#     quickstart there (numpy only: BFLOAT16 maps to uint16);
#  3. `pip wheel .` installed into another fresh venv, with ml_dtypes and mypy
#     (for the type-check test), run from outside the checkout: the wheel must
#     carry libpto itself.
# Build requirements (meson-python, meson, ninja), numpy, pytest, ml_dtypes
# and mypy come from PyPI. The clone is of the committed HEAD, not of local changes
# (outside a git checkout, a copy of the tree without build directories).
# Usage: tests/ci/python.sh [build-dir]   (PYTHON=python3 by default)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
python=${PYTHON:-python3}
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

echo "--- pip install . from a clean clone, fresh venv"
if command -v git >/dev/null && git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git clone -q "$root" "$work/src"
else  # not a git checkout (or no git): the tree without build outputs
  echo "no git checkout here: copying the source tree without build directories"
  mkdir -p "$work/src"
  tar -C "$root" --exclude='./build*' --exclude='./.mesonpy-*' --exclude='./target' -cf - . | tar -C "$work/src" -xf -
fi
"$python" -m venv "$work/venv-install"
# One meson build directory for both builds: the wheel reuses the objects.
"$work/venv-install/bin/pip" install -q --config-settings=build-dir="$work/mesonpy-build" "$work/src" pytest
(cd "$work/src" && "$work/venv-install/bin/python" -m pytest "${pytest_args[@]}" bindings/python/tests)
"$work/venv-install/bin/python" "$work/src/examples/python/quickstart.py" > "$work/quickstart.out"
grep -q "PTO_ERR_SHAPE_MISMATCH" "$work/quickstart.out"

echo "--- pip wheel ., installed into a fresh venv without libpto"
"$work/venv-install/bin/pip" wheel -q --no-deps --config-settings=build-dir="$work/mesonpy-build" -w "$work/wheels" "$work/src"
"$python" -m venv "$work/venv-wheel"
"$work/venv-wheel/bin/pip" install -q "$work"/wheels/libpto-*.whl pytest ml_dtypes mypy
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
LD_LIBRARY_PATH= "$work/venv-wheel/bin/python" -m pytest "${pytest_args[@]}" "$work/src/bindings/python/tests"
echo "python: meson suite, pip install . and the wheel passed"
