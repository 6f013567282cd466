"""Comm operations on the shapes pto-isa's comm ST cases exercise, on N ranks
(tools/pto-isa-comm-st.py runs the cases themselves from a pto-isa mirror).

Run through test_mpi.py (test_mpi.py MPIEXEC PTO_RUN_MPI RANKS CASE); CASE: ring (tput to the previous rank, tget from the next: views larger than
their staging tiles, rows and columns not multiples of the tile's, ping and
pong tiles, a 5-D view), collectives (tgather of uint8 whose values wrap,
tscatter of row blocks, treduce min of int32 and sum of float16 with a root
other than 0), offset (tput_async / tget_async of a session with
comm_block_offset: both transfers start that many bytes in; an offset past
the memory is refused), signals (twait on the 4x8 region at (2, 4) of an 8x16
signal matrix, a strided view, set element by element from another rank;
ttest's comparisons after a flag).
Each rank runs its own argument list (mpiexec's `-n 1 ... : -n 1 ...`).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HARD_LIMIT = 120


def run(launcher, tool, tmp, program, per_rank, env_extra=None):
    """program (text) on len(per_rank) ranks, rank r with per_rank[r]."""
    path = os.path.join(tmp, "k.pto")
    with open(path, "w") as f:
        f.write(program)
    cmd = [launcher]
    for r, args in enumerate(per_rank):
        cmd += ([":"] if r else []) + ["-n", "1", tool, path] + args
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_mpi_yield_when_idle="1",
               PTO_COMM_TIMEOUT="30")
    env.update(env_extra or {})
    return subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=HARD_LIMIT)


def ok(p):
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"mpiexec exited {p.returncode}")


def load(tmp, name):
    return np.load(os.path.join(tmp, name))


def view(name, ptr, dt, shape):
    """make_tensor_view of a row-major shape; constants %iN defined by consts()."""
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    t = f"!pto.tensor_view<{'x'.join(map(str, shape))}x{dt}>"
    return (f"    %{name} = pto.make_tensor_view %{ptr}, shape = [{', '.join(f'%i{d}' for d in shape)}], "
            f"strides = [{', '.join(f'%i{s}' for s in strides)}] : {t}\n"), t


def consts(*values):
    return "".join(f"    %i{v} = arith.constant {v} : index\n" for v in sorted(set(values)))


def module(params, body):
    return "module {\n  func.func @k(" + ", ".join(params) + ") {\n" + body + "    return\n  }\n}\n"


def ring_program(kind, dt, shape, tile, pingpong):
    strides = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    body = consts(*shape, *strides)
    own_def, t = view("vown", "own", dt, shape)
    peer_def, _ = view("vpeer", "peer", dt, shape)
    src_def, _ = view("vsrc", "src", dt, shape)
    body += own_def + peer_def + src_def
    tt = f"!pto.tile_buf<vec, {tile[0]}x{tile[1]}x{dt}>"
    names = ["%ping", "%pong"] if pingpong else ["%ping"]
    body += "".join(f"    {n} = pto.alloc_tile : {tt}\n" for n in names)
    bufs = f"buf({', '.join(names)})"
    btypes = ", ".join([tt] * len(names))
    if kind == "put":  # own view unused: the put lands in the previous rank's own
        body += (f"    pto.comm.tput(%vpeer, %vsrc, {bufs} : {t}, {t}, {btypes}) "
                 "{atomicType = #pto<atomic_type atomic_none>}\n")
    else:
        body += f"    pto.comm.tget(%vown, %vpeer, {bufs} : {t}, {t}, {btypes})\n"
    return module([f"%src: !pto.ptr<{dt}>", f"%own: !pto.ptr<{dt}>", f"%peer: !pto.ptr<{dt}>"], body)


def case_ring(launcher, tool, n, tmp):
    for kind, dt, np_t, shape, tile, pp in (("put", "f32", np.float32, [65, 104], (16, 32), True),
                                            ("get", "i32", np.int32, [2, 2, 1, 32, 32], (16, 32), False),
                                            ("put", "ui8", np.uint8, [1, 512], (1, 512), False)):
        size = int(np.prod(shape))
        data = []
        for r in range(n):
            # i + 10000 r as the element type holds it (uint8 wraps)
            v = np.arange(size, dtype=np.int64) + 10000 * r
            data.append((v & 0xFF).astype(np.uint8) if np_t == np.uint8 else v.astype(np_t))
            np.save(os.path.join(tmp, f"src{r}.npy"), data[r].reshape(shape))
        per_rank = []
        for r in range(n):
            target = (r - 1) % n if kind == "put" else (r + 1) % n
            per_rank.append([f"src=src{r}.npy", f"own=zeros:{dt}:{'x'.join(map(str, shape))}",
                             f"peer={'own' if kind == 'put' else 'src'}@{target}",
                             "--out", f"own=own{r}.npy"])
        ok(run(launcher, tool, tmp, ring_program(kind, dt, shape, tile, pp), per_rank))
        for r in range(n):
            got = load(tmp, f"own{r}.npy").reshape(-1)
            assert got.tobytes() == data[(r + 1) % n].tobytes(), f"{kind} {dt}: rank {r} differs"


def collective_program(kind, dt, rows, cols, n, root, op=None):
    whole = [n * rows, cols] if kind in ("gather", "scatter") else [rows, cols]
    body = consts(rows, cols, n * rows, 1)
    big_def, bt = view("vbig", "big", dt, whole)
    body += big_def
    members = []
    for q in range(n):
        d, mt = view(f"m{q}", f"p{q}", dt, [rows, cols])
        body += d
        members.append(f"%m{q}")
    tt = f"!pto.tile_buf<vec, 1x{cols}x{dt}>"
    body += f"    %t = pto.alloc_tile : {tt}\n"
    group = f"group({', '.join(members)})"
    mtypes = ", ".join([mt] * n)
    if kind == "reduce":
        body += f"    %acc = pto.alloc_tile : {tt}\n"
        line = (f"pto.comm.treduce(%vbig, %acc, recv(%t), {group} : {bt}, {tt}, {tt}, {mtypes}) "
                f"{{reduceOp = #pto<reduce_op {op}>, root = {root} : i32}}")
    else:
        line = f"pto.comm.t{kind}(%vbig, recv(%t), {group} : {bt}, {tt}, {mtypes}) {{root = {root} : i32}}"
    body += (f"    %r = arith.constant {root} : i32\n    %is = arith.cmpi eq, %me, %r : i32\n"
             f"    scf.if %is {{\n      {line}\n    }}\n")
    return module([f"%big: !pto.ptr<{dt}>", f"%mine: !pto.ptr<{dt}>"] +
                  [f"%p{q}: !pto.ptr<{dt}>" for q in range(n)] + ["%me: i32"], body)


def case_collectives(launcher, tool, n, tmp):
    root = n - 1
    # tgather: member q (rank q's 2x300 uint8, values i + 10000 q wrapped) into
    # the root's row block q.
    rows, cols = 2, 300
    mine = [((np.arange(rows * cols) + 10000 * q) & 0xFF).astype(np.uint8).reshape(rows, cols)
            for q in range(n)]
    for q in range(n):
        np.save(os.path.join(tmp, f"mine{q}.npy"), mine[q])
    per_rank = [[f"big=zeros:ui8:{n * rows}x{cols}", f"mine=mine{r}.npy", f"me={r}", "--out",
                 f"big=big{r}.npy"] + [f"p{q}=mine@{q}" for q in range(n)] for r in range(n)]
    ok(run(launcher, tool, tmp, collective_program("gather", "ui8", rows, cols, n, root), per_rank))
    assert load(tmp, f"big{root}.npy").tobytes() == np.concatenate(mine).tobytes(), "tgather"
    # tscatter: the root's row block q into member q (rank q's mine).
    blocks = (np.arange(n * 3 * 32, dtype=np.int32) * 7 - 500).reshape(n * 3, 32)
    np.save(os.path.join(tmp, "blocks.npy"), blocks)
    per_rank = [["big=blocks.npy", "mine=zeros:i32:3x32", f"me={r}", "--out", f"mine=mine{r}.npy"] +
                [f"p{q}=mine@{q}" for q in range(n)] for r in range(n)]
    ok(run(launcher, tool, tmp, collective_program("scatter", "i32", 3, 32, n, root), per_rank))
    for q in range(n):
        assert load(tmp, f"mine{q}.npy").tobytes() == blocks[3 * q:3 * q + 3].tobytes(), f"tscatter {q}"
    # treduce min of int32 (negative values too), sum of float16 in pto-isa's
    # order: the root's member first, then the others in group order, each
    # sum rounded to float16.
    for dt, np_t, op in (("i32", np.int32, "min"), ("f16", np.float16, "sum")):
        rng = np.random.default_rng(5)
        vals = [(rng.integers(-900, 900, size=(1, 96)) * (1 if op == "min" else 0.37)).astype(np_t)
                for _ in range(n)]
        for q in range(n):
            np.save(os.path.join(tmp, f"in{q}.npy"), vals[q])
        per_rank = [[f"big=zeros:{dt}:1x96", f"mine=in{r}.npy", f"me={r}", "--out", f"big=big{r}.npy"] +
                    [f"p{q}=mine@{q}" for q in range(n)] for r in range(n)]
        ok(run(launcher, tool, tmp, collective_program("reduce", dt, 1, 96, n, root, op), per_rank))
        want = vals[root].copy()
        for q in [q for q in range(n) if q != root]:
            want = np.minimum(want, vals[q]) if op == "min" else (want + vals[q]).astype(np_t)
        got = load(tmp, f"big{root}.npy")
        assert got.tobytes() == want.tobytes(), f"treduce {op}: {got[0, :4]} != {want[0, :4]}"


def async_program(kind, count, offset):
    vt = f"!pto.tensor_view<{count}xf32>"
    st = "!pto.tile_buf<vec, 1x256xi8>"
    body = consts(count, 1) + (
        f"    %d = pto.make_tensor_view %dst, shape = [%i{count}], strides = [%i1] : {vt}\n"
        f"    %s0 = pto.make_tensor_view %src, shape = [%i{count}], strides = [%i1] : {vt}\n"
        f"    %scratch = pto.alloc_tile : {st}\n"
        f"    %s = pto.comm.build_async_session(%scratch, %ws : {st}, !pto.ptr<i8>) "
        f"{{comm_block_offset = {offset}}} -> !pto.async_session\n"
        f"    %e = pto.comm.t{kind}_async(%d, %s0, %s : {vt}, {vt}, !pto.async_session) -> !pto.async_event\n"
        "    %w = pto.comm.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1\n")
    return module(["%dst: !pto.ptr<f32>", "%src: !pto.ptr<f32>", "%ws: !pto.ptr<i8>"], body)


def case_offset(launcher, tool, n, tmp):
    # 64-element buffers; 60 elements move, 16 bytes (4 elements) in on both
    # sides: rank r's put lands in rank r+1's recv[4:64] from its send[4:64];
    # a get reads rank r+1's send[4:64] into rank r's recv[4:64].
    sends = [(np.arange(64) * 0.5 + 100 * r).astype(np.float32) for r in range(n)]
    for r in range(n):
        np.save(os.path.join(tmp, f"send{r}.npy"), sends[r])
    params = ("%send: !pto.ptr<f32>, %recv: !pto.ptr<f32>, %dst: !pto.ptr<f32>, "
              "%src: !pto.ptr<f32>")
    for kind in ("put", "get"):
        per_rank = []
        for r in range(n):
            nxt = (r + 1) % n
            # dst and src: a rank's copy of recv and send (NAME=OTHER@R)
            ends = [f"dst=recv@{nxt}", f"src=send@{r}"] if kind == "put" else \
                [f"dst=recv@{r}", f"src=send@{nxt}"]
            per_rank.append([f"send=send{r}.npy", "recv=zeros:f32:64", "ws=zeros:i8:256"] + ends +
                            ["--out", f"recv=recv{r}.npy"])
        prog = async_program(kind, 60, 16).replace("%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>", params)
        ok(run(launcher, tool, tmp, prog, per_rank))
        for r in range(n):
            got = load(tmp, f"recv{r}.npy")
            frm = (r - 1) % n if kind == "put" else (r + 1) % n
            want = np.zeros(64, np.float32)
            want[4:] = sends[frm][4:]
            assert got.tobytes() == want.tobytes(), f"{kind}: rank {r}: {got[:6]} != {want[:6]}"
    # An offset that carries the 60 elements past the 64: refused, nothing written.
    per_rank = [[f"send=send{r}.npy", "recv=zeros:f32:64", "ws=zeros:i8:256",
                 f"dst=recv@{(r + 1) % n}", f"src=send@{r}"] for r in range(n)]
    prog = async_program("put", 60, 32).replace("%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>", params)
    p = run(launcher, tool, tmp, prog, per_rank)
    assert p.returncode != 0 and "comm_block_offset of 32 bytes moves dst past the 64 elements" in p.stderr, \
        p.stderr


def case_signals(launcher, tool, n, tmp):
    # Rank 0 sets each element of the 4x8 region at (2, 4) of rank 1's 8x16
    # signal matrix with its own tnotify; rank 1 waits until every element of
    # the region (a strided view) equals 1. Then rank 0 sets
    # rank 1's word to 100 and adds 1 to its flag; rank 1 waits for the flag
    # and tests the word: > 100 false, >= 100 true, != 7 true, < 50 false.
    body = consts(0, 1, 4, 8, 16) + (
        "    %one = arith.constant 1 : i32\n    %hundred = arith.constant 100 : i32\n"
        "    %r0 = arith.constant 0 : i32\n    %r1 = arith.constant 1 : i32\n"
        "    %is0 = arith.cmpi eq, %me, %r0 : i32\n    %is1 = arith.cmpi eq, %me, %r1 : i32\n"
        "    scf.if %is0 {\n")
    for e in [(2 + r) * 16 + 4 + c for r in range(4) for c in range(8)]:
        body += (f"      %o{e} = arith.constant {e} : index\n"
                 f"      %p{e} = pto.addptr %pmat, %o{e} : !pto.ptr<i32> -> !pto.ptr<i32>\n"
                 f"      %v{e} = pto.make_tensor_view %p{e}, shape = [%i1, %i1], strides = [%i1, %i1] : "
                 "!pto.tensor_view<1x1xi32>\n"
                 f"      pto.comm.tnotify(%v{e}, %one : !pto.tensor_view<1x1xi32>, i32) "
                 "{notifyOp = #pto<notify_op set>}\n")
    word = "!pto.tensor_view<1x1xi32>"
    body += (f"      %pw = pto.make_tensor_view %pword, shape = [%i1, %i1], strides = [%i1, %i1] : {word}\n"
             f"      pto.comm.tnotify(%pw, %hundred : {word}, i32) {{notifyOp = #pto<notify_op set>}}\n"
             f"      %pf = pto.make_tensor_view %pflag, shape = [%i1, %i1], strides = [%i1, %i1] : {word}\n"
             f"      pto.comm.tnotify(%pf, %one : {word}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n"
             "    }\n    scf.if %is1 {\n"
             "      %at = arith.constant 36 : index\n"
             "      %sub = pto.addptr %mat, %at : !pto.ptr<i32> -> !pto.ptr<i32>\n"
             "      %m = pto.make_tensor_view %sub, shape = [%i4, %i8], strides = [%i16, %i1] : "
             "!pto.tensor_view<4x8xi32>\n"
             "      pto.comm.twait(%m, %one : !pto.tensor_view<4x8xi32>, i32) {cmp = #pto<wait_cmp eq>}\n"
             f"      %f = pto.make_tensor_view %flag, shape = [%i1, %i1], strides = [%i1, %i1] : {word}\n"
             f"      pto.comm.twait(%f, %one : {word}, i32) {{cmp = #pto<wait_cmp ge>}}\n"
             f"      %w = pto.make_tensor_view %word, shape = [%i1, %i1], strides = [%i1, %i1] : {word}\n")
    for k, (cmp, x) in enumerate((("gt", 100), ("ge", 100), ("ne", 7), ("lt", 50))):
        body += (f"      %x{k} = arith.constant {x} : i32\n"
                 f"      %t{k} = pto.comm.ttest(%w, %x{k} : {word}, i32) {{cmp = #pto<wait_cmp {cmp}>}} -> i1\n"
                 f"      %e{k} = arith.extui %t{k} : i1 to i32\n      %k{k} = arith.constant {k} : index\n"
                 f"      pto.store_scalar %e{k}, %res[%k{k}] : !pto.ptr<i32>, i32\n")
    body += "    }\n"
    prog = module(["%mat: !pto.ptr<i32>", "%word: !pto.ptr<i32>", "%flag: !pto.ptr<i32>",
                   "%res: !pto.ptr<i32>", "%pmat: !pto.ptr<i32>", "%pword: !pto.ptr<i32>",
                   "%pflag: !pto.ptr<i32>", "%me: i32"], body)
    per_rank = [["mat=zeros:i32:128", "word=zeros:i32:1", "flag=zeros:i32:1", "res=zeros:i32:4",
                 "pmat=mat@1", "pword=word@1", "pflag=flag@1", f"me={r}", "--out", f"res=res{r}.npy",
                 "--out", f"mat=mat{r}.npy"] for r in range(n)]
    ok(run(launcher, tool, tmp, prog, per_rank))
    assert load(tmp, "res1.npy").tolist() == [0, 1, 1, 0], load(tmp, "res1.npy")
    want = np.zeros((8, 16), np.int32)
    want[2:6, 4:12] = 1
    assert load(tmp, "mat1.npy").tolist() == want.reshape(-1).tolist()

