"""One rank of the lm_head case (test_mpi.py's `lm_head`): DeepSeek V4's
LM-head exchange from PTOAS's samples (PTOAS_SAMPLES' DeepseekV4DecodeA5
kernels/aiv/lm_head_*.pto) run unchanged on 2 ranks, one tensor-parallel
pair, through pto.Program on one pto.mpi.Window kept across the launches:

  dispatch_push (8 blocks)   each block picks its token's hidden row
                             (x_out[clamp(row_indices[b])], zeros for a
                             negative index), puts it into row
                             (rank % 2) * 8 + b of every pair member's
                             hidden window, then adds 1 to the peer's
                             hidden_done[rank % 2]
  dispatch_wait (1 block)    waits until hidden_done[peer] >= 8
  dispatch_gather (8 blocks) copies the 16 x 4096 hidden window out
  combine_push (24 blocks)   puts rows owner * 8 .. + 8 of this rank's
                             16 x 64640 logit shard into columns
                             (rank % 2) * 64640 .. of the owner's
                             8 x 129280 logits window, then adds 1 to the
                             peer's logits_done[rank % 2] per block
  combine_wait (1 block)     waits until logits_done[peer] >= 24
  combine_gather (24 blocks) copies the logits window out
  signal_clear (1 block)     zeroes both counters for the next step

The vocabulary projection between dispatch and combine (the cube kernel
lm_head_matmul, 8.3 GFLOP over 530 MB of weights a rank) is replaced by
random shards: what is checked is the exchange. Two steps run back to back
(a host barrier between them, as between a board's launches) with other
data, so the second shows the counters cleared. Every byte is checked
against numpy; prints one line per rank, exits non-zero on a difference."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pto
import pto.mpi

HIDDEN, SHARD, TOKENS = 4096, 64640, 8


def kernel(name):
    path = os.path.join(os.environ["PTOAS_SAMPLES"], "DeepseekV4DecodeA5", "kernels", "aiv",
                        f"lm_head_{name}.pto")
    with open(path) as f:
        return pto.Program(f.read())


def bf16_rows(rng, rows):
    # Random bfloat16 bit patterns of finite values (exponent below all ones).
    bits = rng.integers(0, 1 << 16, size=(rows, HIDDEN), dtype=np.uint16)
    return np.where((bits & 0x7F80) == 0x7F80, bits & 0x807F, bits).astype(np.uint16)


def step(k, win, bufs, seed, me, comm):
    """One LM-head exchange; returns the first difference found, or None."""
    rng = np.random.default_rng(seed * 100 + me)
    x_rows = 12
    x_out = bf16_rows(rng, x_rows)
    # Indices past either end are clamped by the kernel; -1 selects zeros.
    idx = rng.integers(-1, x_rows + 3, size=TOKENS).astype(np.int32)
    shards = rng.standard_normal((2 * TOKENS, SHARD)).astype(np.float32)
    ctx = win.context()
    selected = np.zeros((TOKENS, HIDDEN), np.uint16)
    owner_hiddens = np.zeros((2 * TOKENS, HIDDEN), np.uint16)
    logits = np.zeros((TOKENS, 2 * SHARD), np.float32)
    hw, hd, lw, ld = bufs["hidden_window"], bufs["hidden_done"], bufs["logits_window"], bufs["logits_done"]

    k["dispatch_push"](8, arg0=x_out, arg1=idx, arg2=selected, arg3=hw, arg4=hd, arg5=me,
                       arg6=ctx, arg7=ctx, arg8=x_rows)
    k["dispatch_wait"](1, arg0=x_out, arg1=hd, arg2=me, arg3=ctx, arg4=x_rows)
    k["dispatch_gather"](8, arg0=hw, arg1=owner_hiddens, arg2=ctx)
    k["combine_push"](24, arg0=lw, arg1=shards, arg2=ld, arg3=me, arg4=ctx, arg5=ctx)
    k["combine_wait"](1, arg0=shards, arg1=ld, arg2=me, arg3=ctx)
    k["combine_gather"](24, arg0=logits, arg1=lw, arg2=ctx)
    done_before_clear = (hd.tolist(), ld.tolist())
    k["signal_clear"](1, arg0=logits, arg1=hd, arg2=ld, arg3=ctx, arg4=ctx)

    # The reference, from every rank's inputs.
    all_x = comm.allgather(x_out)
    all_idx = comm.allgather(idx)
    all_shards = comm.allgather(shards)
    want_sel = np.zeros((TOKENS, HIDDEN), np.uint16)
    for b in range(TOKENS):
        if idx[b] >= 0:
            want_sel[b] = x_out[min(idx[b], x_rows - 1)]
    want_hidden = np.zeros((2 * TOKENS, HIDDEN), np.uint16)
    for src in range(2):
        for b in range(TOKENS):
            if all_idx[src][b] >= 0:
                want_hidden[src * TOKENS + b] = all_x[src][min(all_idx[src][b], x_rows - 1)]
    want_logits = np.concatenate([all_shards[src][me * TOKENS:(me + 1) * TOKENS] for src in range(2)],
                                 axis=1)
    peer_only = [0 if p == me else 1 for p in range(2)]
    checks = (("selected_hidden", selected, want_sel),
              ("owner_hiddens", owner_hiddens, want_hidden),
              ("logits", logits, want_logits))
    for name, got, want in checks:
        if got.tobytes() != want.tobytes():
            bad = np.argwhere(got != want)
            return f"{name}: {len(bad)} elements differ, first at {bad[0].tolist()}"
    if done_before_clear != ([8 * f for f in peer_only], [24 * f for f in peer_only]):
        return f"counters before the clear: {done_before_clear}"
    if hd.tolist() != [0, 0] or ld.tolist() != [0, 0]:
        return f"counters after the clear: {hd.tolist()} {ld.tolist()}"
    return None


def main():
    comm = MPI.COMM_WORLD
    me, n = comm.Get_rank(), comm.Get_size()
    if n != 2:
        sys.exit("the LM-head exchange is one tensor-parallel pair: run it on 2 ranks")
    names = ("dispatch_push", "dispatch_wait", "dispatch_gather", "combine_push",
             "combine_wait", "combine_gather", "signal_clear")
    k = {name: kernel(name) for name in names}
    with pto.mpi.Window(6 << 20) as win:
        bufs = {"hidden_window": win.array(np.uint16, (2 * TOKENS, HIDDEN)),
                "hidden_done": win.array(np.int32, (2,)),
                "logits_window": win.array(np.float32, (TOKENS, 2 * SHARD)),
                "logits_done": win.array(np.int32, (2,))}
        for seed in (1, 2):
            win.barrier()
            failure = step(k, win, bufs, seed, me, comm)
            failure = comm.allgather(failure)
            if any(failure):
                sys.exit(f"rank {me}: step {seed}: {failure}")
    print(f"rank {me} of {n}: lm_head exchange matches (2 steps)")


if __name__ == "__main__":
    main()
