"""One rank of the mpi4py case (test_mpi.py's `mpi4py`): allgather.pto run
from Python through pto.Program on a pto.mpi.Window, mpi4py beside it.

Every rank puts its row into every rank's window, then checks its gathered
rows against mpi4py's own allgather of the same rows (exact bytes), and the
signal count: first over MPI_COMM_WORLD, then on a window of a
sub-communicator (even and odd ranks). Then a row of rank 0's window that
is not aligned to its element size, which must be refused, and Window.agree
with the last rank failed: every rank learns it, and the others' waits end
at once naming it. Prints one line per rank; exits non-zero on a
difference."""
import os
import sys
import time

import numpy as np
from mpi4py import MPI

import pto
import pto.mpi

HERE = os.path.dirname(os.path.abspath(__file__))


def allgather(prog, comm, window_comm):
    """allgather.pto over comm's ranks on a window of window_comm (None:
    MPI_COMM_WORLD's), checked against mpi4py's allgather over comm."""
    with pto.mpi.Window(1 << 16, comm=window_comm) as win:
        assert (win.rank, win.size) == (comm.Get_rank(), comm.Get_size()), (win, comm.Get_rank())
        n, me = win.size, win.rank
        world = MPI.COMM_WORLD.Get_rank()
        src = (np.arange(64, dtype=np.float32) * 0.25 + 1000 * world - 7).astype(np.float32)
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


def misaligned_row(comm):
    """A pointer into the window that is not aligned to its element's size is
    refused when it is bound (pto_args_set_pointer), with a sentence, and
    nothing is added: libpto's comm operations only ever reach elements at
    their alignment (views step in elements from aligned pointers), so the
    shared-memory transport's atomics always apply."""
    with open(os.path.join(HERE, "atomic_add.pto")) as f:
        prog = pto.Program(f.read(), entry="add_i32")
    me = comm.Get_rank()
    with pto.mpi.Window(1 << 12) as win:
        raw = win.array(np.uint8, 4 * 64 + 64)
        dst = raw[2:2 + 4 * 64].view(np.int32)
        src = np.arange(64, dtype=np.int32) + me
        win.barrier()
        try:
            prog(src=src, dst=win.peer(dst, 0))
        except ValueError as e:
            assert "not aligned to 4 bytes" in str(e), e
        else:
            sys.exit(f"rank {me}: a misaligned int32 row was bound")
        win.barrier()
        if me == 0 and raw.any():
            sys.exit("rank 0: the refused adds wrote into the window")


def agreed_failure(prog, comm):
    """Window.agree: every rank learns the lowest rank that failed, and that
    rank's failure word ends the others' pto.comm.twait at its first poll
    (not after PTO_COMM_TIMEOUT, 60 s here) with a sentence naming it."""
    me, n = comm.Get_rank(), comm.Get_size()
    with pto.mpi.Window(1 << 16) as win:
        gath = win.array(np.float32, (4, 64))
        sig = win.array(np.int32, (1,))
        src = np.zeros(64, np.float32)
        args = {f"d{k}": win.peer(gath, k if k < n else 0) for k in range(4)}
        args.update({f"s{k}": win.peer(sig, k if k < n else 0) for k in range(4)})
        assert win.agree(False) is None and win.stopped_by() is None
        assert win.agree(me == n - 1) == n - 1
        if me != n - 1:
            start = time.monotonic()
            try:  # n + 1 notifies awaited: never satisfied
                prog(src=src, gath=gath, sig=sig, me=me, n=n + 1, **args)
            except pto.Error as e:
                assert f"rank {n - 1} failed" in str(e), e
            else:
                sys.exit(f"rank {me}: a wait went on after rank {n - 1} failed")
            took = time.monotonic() - start
            assert took < 10, f"rank {me}: the wait ended after {took:.1f} s"
            assert win.stopped_by() == n - 1, win.stopped_by()
        win.barrier()


def main():
    comm = MPI.COMM_WORLD
    with open(os.path.join(HERE, "allgather.pto")) as f:
        prog = pto.Program(f.read())
    allgather(prog, comm, None)
    # A window on a sub-communicator (even and odd world ranks): its ranks,
    # peers, context and the kernel's puts are the sub-communicator's.
    sub = comm.Split(comm.Get_rank() % 2, comm.Get_rank())
    allgather(prog, sub, sub)
    sub.Free()
    for bad, why in ((MPI.COMM_NULL, "MPI_COMM_NULL"), (object(), "mpi4py communicator")):
        try:
            pto.mpi.Window(64, comm=bad)
        except (pto.Error, TypeError) as e:
            assert why in str(e), e
        else:
            sys.exit(f"rank {comm.Get_rank()}: a window on {bad!r} was made")
    misaligned_row(comm)
    agreed_failure(prog, comm)
    me, n = comm.Get_rank(), comm.Get_size()
    print(f"rank {me} of {n}: mpi4py allgather matches (world and a sub-communicator of "
          f"{sub_size(n, me)}); library {pto.mpi.library_path()}")


def sub_size(n, me):
    return len(range(me % 2, n, 2))


if __name__ == "__main__":
    main()
