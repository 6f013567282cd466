"""One rank of the moe case (test_mpi.py's `moe`): DeepSeek V4's MoE
dispatch and combine from PTOAS's samples (PTOAS_SAMPLES'
DeepseekV4DecodeA5 kernels/aiv/{dispatch_meta,dispatch_push,dispatch_wait,
combine,combine_wait}.pto) run unchanged on 2 ranks of 32 local experts
each, through pto.Program on one pto.mpi.Window kept across the launches:

  dispatch_meta (1 block)   counts this rank's 8 tokens x top-6 expert ids
                            per (destination rank, local expert) into the
                            destination's recv_meta[me], then sums what it
                            received into recv_count
  dispatch_push (32 blocks) block e puts each token routed to local expert
                            e of rank d into row e * 16 + me * 8 + slot of
                            d's recv_x (int8), its scale and weight into
                            recv_aux, t * 6 + k into recv_route, then adds
                            1 to data_arrived[me] of the other rank
  dispatch_wait (1 block)   waits until data_arrived[peer] >= 32
  (the experts)             numpy here: y = x * scale * weight as bfloat16
                            (exact: powers of two), rows compacted per
                            expert, with each row's route
  combine (32 blocks)       puts every expert output row back into row
                            t * 6 + k of its source rank's routed_y_buf,
                            then adds 1 to combine_arrived[me] of the other
  combine_wait (1 block)    waits until combine_arrived[peer] >= 32

Checked on every rank: recv_meta, recv_count, recv_x, recv_aux, recv_route
and the counters against the routing computed here, and the end: row
t * 6 + k of routed_y_buf is this rank's own token t scaled by its k-th
weight, whichever rank's expert handled it. Prints one line per rank,
exits non-zero on a difference."""
import os
import sys

import numpy as np
from mpi4py import MPI

import pto
import pto.mpi

HIDDEN, TOKENS, TOPK, EXPERTS = 4096, 8, 6, 32  # EXPERTS: local experts per rank


def kernel(name):
    path = os.path.join(os.environ["PTOAS_SAMPLES"], "DeepseekV4DecodeA5", "kernels", "aiv",
                        f"{name}.pto")
    with open(path) as f:
        return pto.Program(f.read())


def bf16_bits(x):
    # float32 values exact in bfloat16 -> their bfloat16 bit patterns.
    return (np.ascontiguousarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def inputs(me):
    rng = np.random.default_rng(40 + me)
    # Distinct experts per token, as a top-k routing gives.
    ids = np.stack([rng.choice(2 * EXPERTS, TOPK, replace=False) for _ in range(TOKENS)])
    x = rng.integers(-128, 128, size=(TOKENS, HIDDEN)).astype(np.int8)
    scale = (2.0 ** -rng.integers(4, 9, size=TOKENS)).astype(np.float32)
    weight = (2.0 ** -rng.integers(0, 4, size=(TOKENS, TOPK))).astype(np.float32)
    return ids.astype(np.int32), x, scale, weight


def check(name, got, want):
    want = np.asarray(want, dtype=got.dtype)
    if got.tobytes() != want.tobytes():
        bad = np.argwhere(got != want)
        return f"{name}: {len(bad)} elements differ, first at {bad[0].tolist()}"
    return None


def experts(recv_meta, recv_x, recv_aux, recv_route):
    """This rank's experts in numpy: the received rows compacted per expert
    (sources in rank order, as combine reads them), y = x * scale * weight."""
    y_flat = np.zeros((EXPERTS * 16, HIDDEN), np.uint16)
    route = np.zeros((EXPERTS, 16), np.int32)
    for e in range(EXPERTS):
        b = 0
        for src in range(2):
            for slot in range(recv_meta[src, e]):
                row = e * 16 + src * 8 + slot
                y = recv_x[row].astype(np.float32) * recv_aux[row, 0] * recv_aux[row, 1]
                y_flat[e * 16 + b + slot] = bf16_bits(y)
                route[e, b + slot] = recv_route[row, 0]
            b += recv_meta[src, e]
    return y_flat, route


def run(me, comm, win):
    k = {name: kernel(name) for name in ("dispatch_meta", "dispatch_push", "dispatch_wait",
                                         "combine", "combine_wait")}
    ids, x, scale, weight = inputs(me)
    w = {"recv_meta": win.array(np.int32, (2, EXPERTS)), "meta_arrived": win.array(np.int32, (2,)),
         "meta_scratch": win.array(np.int32, (2, EXPERTS)), "recv_count": win.array(np.int32, (EXPERTS,)),
         "recv_x": win.array(np.int8, (EXPERTS * 16, HIDDEN)),
         "recv_aux": win.array(np.float32, (EXPERTS * 16, 8)),
         "recv_route": win.array(np.int32, (EXPERTS * 16, 8)),
         "data_arrived": win.array(np.int32, (2,)),
         "routed_y": win.array(np.uint16, (TOKENS * TOPK, HIDDEN)),
         "combine_arrived": win.array(np.int32, (2,))}
    ctx = win.context()
    win.barrier()
    k["dispatch_meta"](1, arg0=ids, arg1=w["recv_meta"], arg2=w["meta_arrived"],
                       arg3=w["meta_scratch"], arg4=w["recv_count"], arg5=TOKENS, arg6=me,
                       arg7=ctx, arg8=ctx)
    k["dispatch_push"](32, arg0=ids, arg1=w["recv_x"], arg2=x, arg3=scale, arg4=weight,
                       arg5=w["recv_aux"], arg6=w["recv_route"], arg7=w["data_arrived"],
                       arg8=TOKENS, arg9=me, arg10=ctx, arg11=ctx, arg12=ctx, arg13=ctx)
    k["dispatch_wait"](1, arg0=ids, arg1=w["data_arrived"], arg2=me, arg3=ctx)

    # What every rank sent, from its inputs: the reference routing.
    sent = comm.allgather((ids, x, scale, weight))
    meta = np.zeros((2, EXPERTS), np.int32)
    want_x = np.zeros((EXPERTS * 16, HIDDEN), np.int8)
    want_aux = np.zeros((EXPERTS * 16, 8), np.float32)
    want_route = np.zeros((EXPERTS * 16, 8), np.int32)
    for src, (s_ids, s_x, s_scale, s_weight) in enumerate(sent):
        for t in range(TOKENS):
            for j in range(TOPK):
                dst, e = divmod(int(s_ids[t, j]), EXPERTS)
                if dst != me:
                    continue
                row = e * 16 + src * 8 + meta[src, e]
                meta[src, e] += 1
                want_x[row], want_aux[row, :2], want_route[row, 0] = s_x[t], (s_scale[t], s_weight[t, j]), t * TOPK + j
    other = [0 if p == me else 32 for p in range(2)]
    failures = [check("recv_meta", w["recv_meta"], meta),
                check("recv_count", w["recv_count"], meta.sum(0)),
                check("recv_x", w["recv_x"], want_x), check("recv_aux", w["recv_aux"], want_aux),
                check("recv_route", w["recv_route"], want_route),
                check("data_arrived", w["data_arrived"], other)]

    y_flat, route = experts(w["recv_meta"], w["recv_x"], w["recv_aux"], w["recv_route"])
    k["combine"](32, arg0=np.ascontiguousarray(w["recv_meta"]), arg1=route, arg2=w["routed_y"],
                 arg3=y_flat, arg4=w["combine_arrived"], arg5=me, arg6=ctx, arg7=ctx)
    k["combine_wait"](1, arg0=y_flat, arg1=w["combine_arrived"], arg2=me, arg3=ctx)
    want_y = np.zeros((TOKENS * TOPK, HIDDEN), np.uint16)
    for t in range(TOKENS):
        for j in range(TOPK):
            want_y[t * TOPK + j] = bf16_bits(x[t].astype(np.float32) * scale[t] * weight[t, j])
    failures += [check("routed_y_buf", w["routed_y"], want_y),
                 check("combine_arrived", w["combine_arrived"], other)]
    return [f for f in failures if f]


def main():
    comm = MPI.COMM_WORLD
    me, n = comm.Get_rank(), comm.Get_size()
    if n != 2:
        sys.exit("the samples' MoE layout is 2 ranks of 32 experts: run it on 2 ranks")
    with pto.mpi.Window(4 << 20) as win:
        failures = run(me, comm, win)
        win.barrier()
    if failures:
        sys.exit(f"rank {me}: " + "; ".join(failures))
    print(f"rank {me} of {n}: moe dispatch and combine match")


if __name__ == "__main__":
    main()
