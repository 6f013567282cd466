"""One rank of the mpi4py case (test_mpi.py's `mpi4py`): allgather.pto run
from Python through pto.Program on a pto.mpi.Window, mpi4py beside it.

Every rank puts its row into every rank's window, then checks its gathered
rows against mpi4py's own allgather of the same rows (exact bytes), and the
signal count. Prints one line per rank; exits non-zero on a difference."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pto
import pto.mpi

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    comm = MPI.COMM_WORLD
    with open(os.path.join(HERE, "allgather.pto")) as f:
        prog = pto.Program(f.read())
    with pto.mpi.Window(1 << 16) as win:
        assert (win.rank, win.size) == (comm.Get_rank(), comm.Get_size()), (win, comm.Get_rank())
        n, me = win.size, win.rank
        src = (np.arange(64, dtype=np.float32) * 0.25 + 1000 * me - 7).astype(np.float32)
        gath = win.array(np.float32, (4, 64))
        sig = win.array(np.int32, (1,))
        # Peer slots past the last rank stand for rank 0's copy, as in test_mpi.py.
        args = {f"d{k}": win.peer(gath, k if k < n else 0) for k in range(4)}
        args.update({f"s{k}": win.peer(sig, k if k < n else 0) for k in range(4)})
        win.barrier()
        prog(src=src, gath=gath, sig=sig, me=me, n=n, **args)
        win.barrier()
        want = np.zeros((4, 64), np.float32)
        want[:n] = np.stack(comm.allgather(src))
        if gath.tobytes() != want.tobytes():
            sys.exit(f"rank {me}: gathered rows differ:\n{gath}\n{want}")
        if sig.tolist() != [n]:
            sys.exit(f"rank {me}: signal {sig.tolist()}, want [{n}]")
        ctx = win.context()
        assert ctx.view(np.uint32)[4] == me and ctx.view(np.uint32)[5] == n, ctx[:4]
    # mpi4py still works after the window is gone.
    total = comm.allreduce(me + 1)
    assert total == n * (n + 1) // 2, total
    print(f"rank {me} of {n}: mpi4py allgather matches; library {pto.mpi.library_path()}")


if __name__ == "__main__":
    main()
