#!/usr/bin/env bash
# The Debian packages (debian/) as a C user gets them: built from a clean
# clone with `dpkg-buildpackage -b -us -uc` (debhelper's meson build; the
# symbols file generated from the functions include/pto_c.h declares, checked
# strictly against the library), checked with lintian (errors fail, warnings
# are printed), installed with `apt-get install ./*.deb`, and used:
# examples/quickstart.c compiled with `pkg-config pto` alone and run, the
# installed programs run. The packages are removed again at the end, so the
# steps after this one see the system as before. Needs root or sudo for
# apt-get. The .debs are left in WORK_DIR.
#   tests/ci/debian.sh [WORK_DIR]     (default: build-ci/debian)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-ci/debian}
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

rm -rf "$work"
mkdir -p "$work"
# dpkg-buildpackage writes the packages next to the source tree: a clone in
# WORK_DIR keeps them (and debhelper's build tree) out of the checkout.
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git clone -q "$root" "$work/libpto"
else
  mkdir -p "$work/libpto"
  tar -C "$root" --exclude='./build*' --exclude='./.mesonpy-*' --exclude='./target' -cf - . | tar -C "$work/libpto" -xf -
fi

# The build profile pkg.libpto.baseline (debian/rules): the kernels for the
# baseline SIMD target only, as docs/install.md says; the first CI step
# compiles and tests them for every target.
echo "--- dpkg-buildpackage -b -us -uc -Ppkg.libpto.baseline"
start=$SECONDS
(cd "$work/libpto" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc -Ppkg.libpto.baseline \
  > "$work/build.log" 2>&1) || {
  tail -n 60 "$work/build.log"; exit 1; }
grep -E '^dpkg-(gensymbols|shlibdeps)' "$work/build.log" || true
echo "built in $((SECONDS - start)) s:"
(cd "$work" && ls -1 ./*.deb)
for p in libpto0 libpto-dev pto-tools libpto-mpi0 libpto-mpi-dev pto-mpi-tools; do
  echo "-- $p"
  dpkg-deb -c "$work/${p}_"*.deb | awk '{print $6}' | grep -v '/$'
done
dpkg-deb -f "$work"/libpto0_*.deb Depends
dpkg-deb -f "$work"/pto-tools_*.deb Depends
dpkg-deb -f "$work"/libpto-mpi0_*.deb Depends

echo "--- lintian (errors fail; warnings listed)"
# As root lintian warns that it should not run as root; that line is no tag
# (and a clean run prints nothing else, so the filter may select no line).
lintian_status=0
lintian --fail-on error --tag-display-limit 0 "$work"/libpto_*.changes > "$work/lintian.raw" 2>&1 ||
  lintian_status=$?
{ grep -v 'running with root privileges' "$work/lintian.raw" || true; } | tee "$work/lintian.txt"
if [ "$lintian_status" -ne 0 ]; then
  echo "lintian reported errors (exit $lintian_status)"
  exit 1
fi
echo "lintian: $(grep -c '^E: ' "$work/lintian.txt" || true) errors, $(grep -c '^W: ' "$work/lintian.txt" || true) warnings"

echo "--- apt-get install ./*.deb"
packages=(libpto0 libpto-dev pto-tools libpto-mpi0 libpto-mpi-dev pto-mpi-tools)
trap 'as_root apt-get remove -y -qq "${packages[@]}" >/dev/null 2>&1 || true' EXIT
(cd "$work" && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  $(for p in "${packages[@]}"; do echo "./${p}_"*.deb; done) >/dev/null)
dpkg-query -W "${packages[@]}"

echo "--- examples/quickstart.c against the installed package, pkg-config pto alone"
cd "$work"
# shellcheck disable=SC2046
env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH cc "$root/examples/quickstart.c" $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs pto) -lm -o quickstart
echo "pkg-config pto: $(env -u PKG_CONFIG_PATH pkg-config --modversion pto) ($(env -u PKG_CONFIG_PATH pkg-config --libs pto))"
env -u LD_LIBRARY_PATH ./quickstart "$root/examples/kernels/softmax.pto" > quickstart.out
grep -q PTO_ERR_SHAPE_MISMATCH quickstart.out
ldd quickstart | grep -E 'libpto.so.0 => (/usr)?/lib/'
for tool in $(dpkg -L pto-tools | grep '^/usr/bin/'); do
  echo "$tool --help: $("$tool" --help 2>&1 | head -n 1)"
done
echo "--- libpto-mpi: a C program with pkg-config pto-mpi alone; pto-run-mpi on 2 ranks"
cat > mpi_link.c <<'C'
#include <stdio.h>
#include <pto_mpi.h>
int main(void) {
    /* Before pto_mpi_init: no rank yet. */
    printf("pto_mpi_rank before init: %d\n", pto_mpi_rank());
    return pto_mpi_rank() == -1 ? 0 : 1;
}
C
# shellcheck disable=SC2046
env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH cc mpi_link.c $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs pto-mpi) -o mpi_link
env -u LD_LIBRARY_PATH ./mpi_link
ldd mpi_link | grep -E 'libpto-mpi.so.0 => (/usr)?/lib/'
/usr/bin/python3 -c 'import numpy as np; [np.save(f"src{r}.npy", np.arange(64, dtype=np.float32) + 100 * r) for r in range(2)]'
env -u LD_LIBRARY_PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none \
  timeout 120 mpiexec -n 2 pto-run-mpi "$root/tests/mpi/allgather.pto" 'src=src{rank}.npy' \
  gath=zeros:f32:4x64 sig=zeros:i32:1 d0=gath@0 d1=gath@1 d2=gath@0 d3=gath@0 \
  s0=sig@0 s1=sig@1 s2=sig@0 s3=sig@0 'me={rank}' 'n={size}' --out 'gath=gath{rank}.npy'
/usr/bin/python3 -c '
import numpy as np
want = np.zeros((4, 64), np.float32)
want[:2] = [np.arange(64, dtype=np.float32) + 100 * r for r in range(2)]
for r in range(2):
    got = np.load(f"gath{r}.npy")
    assert got.tobytes() == want.tobytes(), (r, got[:2, :4])
print("pto-run-mpi (installed) on 2 ranks: every rank gathered both rows")'
echo "debian: packages built, lintian clean of errors, installed, quickstart and an MPI program built with pkg-config and run, pto-run-mpi run on 2 ranks"
