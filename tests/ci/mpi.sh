#!/usr/bin/env bash
# The multi-card step: libpto-mpi and the `mpi` suite (2 and 4 ranks,
# oversubscribed, as root where CI runs as root) built and run once with
# MPICH and once with Open MPI, each in a build tree of its own, every test
# under a hard time limit, on shared-memory windows (one machine's default);
# with MPICH once more on MPI RMA (PTO_MPI_SHARED=0), the path of windows
# that span machines, and Open MPI's RMA for the bindings tests. The suite's
# mpi-faults (tests/mpi/fault_jobs.py, 12 jobs a pass), mpi-usage-2 and
# mpi-bindings add about 25 s to each MPICH pass and 50 s to Open MPI's on
# a busy 2-vCPU machine (load 20). Needs mpich libmpich-dev openmpi-bin
# libopenmpi-dev python3-mpi4py (README's package list) and numpy for
# /usr/bin/python3.
# Usage: tests/ci/mpi.sh [BUILD_ROOT [rma-both]]   (default: build-mpi)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-build-mpi}
for impl in mpich ompi; do
  dir=$root-$impl
  # The Open MPI tree also builds the Python package: pto.mpi beside
  # Debian's python3-mpi4py, which is built on Open MPI (tests mpi4py-2 and mpi4py-4).
  python=disabled
  targets=(tools/pto-run/pto-run tools/pto-run/pto-run-mpi tests/mpi/test_mpi_bindings)
  if [ $impl = ompi ]; then
    python=enabled
    targets+=(pto-python)
  fi
  if [ ! -d "$dir" ]; then
    # The transport is under test, not the kernels: baseline SIMD at -O1.
    meson setup "$dir" -Dsimd_targets=baseline -Doptimization=1 -Dbindings=disabled -Dpython=$python \
      -Dbench=false -Dmpi=enabled -Dmpi_pkgconfig=$impl
  fi
  # Where the host runtime is built (-Druntime), the suite runs it on 2
  # ranks too (runtime-mpi-2, and mpi4py-pypto-host-2 in the Open MPI tree):
  # its library and test program join the targets.
  if meson introspect "$dir" --targets | python3 -c \
      'import json,sys; sys.exit(0 if any(t["name"] == "test_runtime_mpi" for t in json.load(sys.stdin)) else 1)'; then
    targets+=(pto-runtime tests/runtime/test_runtime_mpi)
  fi
  # Only what the suite runs: libpto, libpto-mpi, pto-run and pto-run-mpi
  # (the second tree's libpto objects come from ccache).
  meson compile -C "$dir" "${targets[@]}"
  timeout 600 meson test -C "$dir" --no-rebuild --suite mpi --print-errorlogs
  # Again on MPI RMA: one machine's windows are shared memory unless
  # PTO_MPI_SHARED=0, and RMA is the path of windows spanning machines.
  # Once, with MPICH: the transport's RMA calls are the same under both
  # MPIs (tests/ci/mpi.sh "$root" rma-both runs Open MPI's RMA too).
  if [ $impl = mpich ] || [ "${2:-}" = rma-both ]; then
    PTO_MPI_SHARED=0 timeout 600 meson test -C "$dir" --no-rebuild --suite mpi --print-errorlogs
  else
    # The bindings past a window on Open MPI's RMA path too (a few seconds).
    PTO_MPI_SHARED=0 timeout 120 meson test -C "$dir" --no-rebuild mpi-bindings-2 mpi-bindings-3 \
      --print-errorlogs
  fi
  timeout 120 meson test -C "$dir" --no-rebuild comm-blocks --print-errorlogs
done
