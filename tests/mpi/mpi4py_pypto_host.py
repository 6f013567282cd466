"""One rank of the pypto_host case (test_mpi.py's `pypto_host`): pto.pypto's
multi-card runner on a host orchestration written as PyPTO's distributed
codegen writes host_orch.py (simpler's and PyPTO's runtime imports, a comm
domain, a dispatch per rank with PyPTO's per-rank ordering token), its chip
orchestration the runtime suite's exchange (tests/runtime/work: x = 2 x,
then x put into the peer's y through the context scalar).

Each rank fills its window's x, the host orchestration runs, and every rank
checks its y against the peer's 2 x (exact), and that a dispatch touching
host memory another rank's dispatch wrote is refused naming both ranks.
Needs no PyPTO and no torch. Prints one line per rank; exits non-zero on a
difference."""
import contextlib
import ctypes
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
from mpi4py import MPI

from pto.pypto import PyptoError, _compile, _distributed

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "..", "runtime", "work")

HOST_ORCH = '''
import numpy as np
from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType
from pypto.runtime.tensor_arg import make_tensor_arg
from pypto.runtime.distributed_runner import _submit_chip

def _alloc_intermediates(tensors, world_size=1):
    tensors["__comm_d0_ord"] = [np.zeros((1,), np.int32) for _ in range(max(world_size, 1))]

def host(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size, _domain_provider=None):
    with (_domain_provider or orch.allocate_domain)(
        name="comm_d0",
        workers=[*range(world_size)],
        window_size=(((64 + 31) // 32) * 32) + (((64 + 31) // 32) * 32),
        buffers=[
            CommBufferSpec(name="x__ssa_v0", dtype="opaque", count=64, nbytes=(((64 + 31) // 32) * 32)),
            CommBufferSpec(name="y__ssa_v0", dtype="opaque", count=64, nbytes=(((64 + 31) // 32) * 32)),
        ],
    ) as __comm_d0:
        for rank__idx_v0 in range(0, world_size, 1):
            _ta_0 = TaskArgs()
            _ta_0.add_tensor(__comm_d0[rank__idx_v0].buffers["x__ssa_v0"].tensor(shapes=(1, 16), dtype=DataType.FLOAT32), TensorArgType.INOUT)
            _ta_0.add_tensor(__comm_d0[rank__idx_v0].buffers["y__ssa_v0"].tensor(shapes=(1, 16), dtype=DataType.FLOAT32), TensorArgType.INOUT)
            _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["__comm_d0_ord"][rank__idx_v0]), TensorArgType.INOUT)
            _ta_0.add_scalar(rank__idx_v0)
            _ta_0.add_scalar(__comm_d0[rank__idx_v0].device_ctx)
            _keep.append(_ta_0)
            _submit_chip(orch, callables["exchange"], _ta_0, config, rank__idx_v0)

host._pypto_distributed_entry = True
'''


def chip_dir(tmp):
    """The runtime suite's work directory with a table naming exchange.cpp."""
    work = os.path.join(tmp, "exchange")
    shutil.copytree(WORK, work)
    with open(os.path.join(work, "kernel_table.txt"), "a", encoding="utf-8") as f:
        f.write("orchestration orchestration/exchange.cpp\n")
    return work


def floats(address, n=16):
    return np.ctypeslib.as_array((ctypes.c_float * n).from_address(address))


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    tmp = tempfile.mkdtemp(prefix=f"pypto-host-{rank}-")
    try:
        path = os.path.join(tmp, "host_orch.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(HOST_ORCH)
        entry, alloc = _distributed.load_host_orch(Path(path))
        work = chip_dir(tmp)
        build = _distributed.Build(Path(tmp), {"exchange": _compile.read_table(Path(work))}, (), size)
        sessions = {"exchange": _distributed._runtime.Session(build.chips["exchange"].output_dir, 1)}
        tensors = {}
        alloc(tensors, world_size=size)
        orch = _distributed._Orch(build, rank, size, sessions, tensors["__comm_d0_ord"])
        got = {}

        @contextlib.contextmanager
        def provider(**kwargs):
            # The domain as the runner opens it, x filled before the
            # dispatches and y read after every rank's put has landed.
            with orch.allocate_domain(**kwargs) as domain:
                mine = domain[rank]
                floats(mine.buffers["x__ssa_v0"].address)[:] = np.arange(16, dtype=np.float32) + 100 * rank
                mine.window.barrier()
                yield domain
                mine.window.barrier()
                got["y"] = floats(mine.buffers["y__ssa_v0"].address).copy()

        entry(orch, None, None, tensors=tensors, callables={"exchange": "exchange"}, sub_ids={}, _keep=[],
              world_size=size, _domain_provider=provider)
        peer = (rank + 1) % size
        want = 2 * (np.arange(16, dtype=np.float32) + 100 * peer)
        assert got["y"].tobytes() == want.tobytes(), f"rank {rank}: y {got['y']} != {want}"
        assert orch.tasks == 2, orch.tasks  # axpy and the exchange, on this rank only

        # A dispatch on rank 1 reading what rank 0's dispatch wrote: refused.
        o = _distributed._Orch(build, rank, size, {}, [])
        o._track("host", 0, 128, "OUTPUT_EXISTING", 0, "writer")
        try:
            o._track("host", 64, 128, "INPUT", 1, "reader")
            raise AssertionError("a read of another rank's host write was not refused")
        except PyptoError as e:
            assert "reader on rank 1 uses host memory that a dispatch on rank 0 wrote" in str(e), str(e)
        for s in sessions.values():
            s.close()
        print(f"rank {rank}: pypto host orchestration exchange matches", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stdout.flush()
        MPI.COMM_WORLD.Abort(1)
