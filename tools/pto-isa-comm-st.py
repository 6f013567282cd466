#!/usr/bin/env python3
"""Runs pto-isa's comm ST cases through libpto on their ranks and compares
every rank's result with the case's golden, bit for bit.

    python3 tools/pto-isa-comm-st.py build [--mirror /work/.mirror/hw-native-sys+pto-isa/repo]
        [--work /tmp/pto-isa-comm-st] [--suite cpu,cpu-comm,a2a3,a5] [--case REGEX]
        [--mpiexec mpiexec.mpich] [-v]

BUILD is a build tree with libpto-mpi (meson -Dmpi=enabled): its
tools/pto-run/pto-run runs the single-process cases, pto-run-mpi the
multi-rank ones under MPIEXEC (each rank its own arguments: MPMD, `-n 1 ... :
-n 1 ...`; more ranks than cores are fine, Open MPI needs the variables
docs/multi-card.md names).

The suites: `cpu` is tests/cpu/st/testcase/{tput,tget,tput_async,tget_async,
tnotify,tbroadcast,treduce} (one process: pto-isa's CPU simulator runs a
"group" of buffers within it); its inputs and goldens come from the case's
own gen_data.py, run in a scratch directory with the mirror's utils.py, and
main.cpp's TEST_F lines give the template arguments. `cpu-comm`, `a2a3` and
`a5` are tests/cpu/comm/st and tests/npu/{a2a3,a5}/comm/st: every TEST's
call (`RunPutRingLargeShape<float, 128, 64, 16>(2, 2, 0, 0)`, ...) is read
from main.cpp (main.cc for A5's CCU cases) and mapped by npu_case / ccu_case /
signal_case below to a program (a .pto text
made here: the case's views, staging tiles and group, the comm operation on
the rank that calls it) and the values its kernel file writes and checks
(`i + rank * 10000` and the like: the goldens are computed on the host in
those files, so they are computed here from the same formulas). A case whose
transport or mechanism has no counterpart here (URMA, RDMA, the queue and
post stability of the SDMA engine) is skipped with that reason; a case
libpto refuses is REFUSED with its sentence.

Staging tiles are as large as the case's tile (its chunking is invisible in
the result: libpto moves the elements directly and checks the tiles' dtype);
pto-run-mpi's barriers around a launch stand for the cases' host barriers
between their phases. Output: one line per case (PASS, DIFF, REFUSED, SKIP)
and the closing line 'N passed, N failed, N skipped'. Exit status 1 when any
case differs.

Not run by CI: it needs the pto-isa mirror and MPI. The result and the
reasons: docs/pto-isa-st.md, "Comm cases".
"""
import argparse, os, re, shutil, subprocess, sys, types
import numpy as np

try:
    import ml_dtypes
except ImportError:  # bfloat16 cases are skipped without it
    ml_dtypes = None

SUITE_DIR = {'cpu': 'tests/cpu/st/testcase', 'cpu-comm': 'tests/cpu/comm/st/testcase',
             'a2a3': 'tests/npu/a2a3/comm/st/testcase', 'a5': 'tests/npu/a5/comm/st/testcase'}
PROFILE = {'cpu': 'HOST', 'cpu-comm': 'HOST', 'a2a3': 'A2A3', 'a5': 'A5'}
CPU_OPS = ['tput', 'tget', 'tput_async', 'tget_async', 'tnotify', 'tbroadcast', 'treduce']
# C++ element type -> (PTO spelling, numpy dtype)
CTYPE = {'float': ('f32', np.float32), 'int32_t': ('i32', np.int32), 'uint8_t': ('ui8', np.uint8),
         'int16_t': ('i16', np.int16), 'aclFloat16': ('f16', np.float16),
         'half': ('f16', np.float16), 'Float': ('f32', np.float32), 'Int32': ('i32', np.int32)}
if ml_dtypes is not None:
    CTYPE['bfloat16_t'] = ('bf16', ml_dtypes.bfloat16)
TIMEOUT = 300


class Skip(Exception):
    pass


def cast(values, np_dtype):
    """static_cast<T>(int) as the kernels write it: integers wrap modulo 2^bits."""
    v = np.asarray(values, dtype=np.int64)
    if np.issubdtype(np.dtype(np_dtype), np.integer):
        bits = np.dtype(np_dtype).itemsize * 8
        v = v & ((1 << bits) - 1)
        return v.astype(np.uint64).astype(np_dtype)
    return v.astype(np.float64).astype(np_dtype)


# ---------------------------------------------------------------------------
# Program texts

class Prog:
    """A one-function module: parameters, index constants, body lines."""

    def __init__(self, params):
        self.params = params  # [(name, type)]
        self.consts = {}
        self.lines = []
        self.n = 0

    def c(self, v):
        if v not in self.consts:
            self.consts[v] = f'%c{v}'
        return self.consts[v]

    def tmp(self, stem):
        self.n += 1
        return f'%{stem}{self.n}'

    def view(self, ptr, dt, shape):
        strides, s = [], 1
        for d in reversed(shape):
            strides.insert(0, s)
            s *= d
        v = self.tmp('v')
        t = f'!pto.tensor_view<{"x".join(map(str, shape))}x{dt}>'
        self.lines.append(f'{v} = pto.make_tensor_view %{ptr}, shape = [{", ".join(self.c(d) for d in shape)}], '
                          f'strides = [{", ".join(self.c(d) for d in strides)}] : {t}')
        return v, t

    def tile(self, dt, rows, cols):
        v = self.tmp('t')
        t = f'!pto.tile_buf<vec, {rows}x{cols}x{dt}>'
        self.lines.append(f'{v} = pto.alloc_tile : {t}')
        return v, t

    def text(self):
        head = ', '.join(f'%{n}: {t}' for n, t in self.params)
        body = [f'{v} = arith.constant {k} : index' for k, v in sorted(self.consts.items())]
        body += self.lines + ['return']
        return 'module {\n  func.func @k(' + head + ') {\n' + ''.join(f'    {l}\n' for l in body) + '  }\n}\n'


def when_root(p, lines):
    """lines only on the rank whose %me equals %root."""
    p.lines.append('%is_root = arith.cmpi eq, %me, %root : i32')
    p.lines.append('scf.if %is_root {')
    p.lines += ['  ' + l for l in lines]
    p.lines.append('}')


# ---------------------------------------------------------------------------
# A case: per-rank arguments, the program, what each rank's outputs must hold

class Case:
    def __init__(self, n, prog, args, outs, want, note=''):
        self.n, self.prog, self.args, self.outs, self.want, self.note = n, prog, args, outs, want, note


def p2p_case(kind, dtype, shape, tile, n, pingpong=False, atomic=False, k=10000):
    """Ring put (rank r puts its send into rank r-1's recv), ring get (rank r
    gets rank r+1's send into its recv), or every rank's atomic-add put into
    rank 0's recv. Values i + rank * k."""
    dt, npd = dtype
    count = int(np.prod(shape))
    params = [('send', f'!pto.ptr<{dt}>'), ('recv', f'!pto.ptr<{dt}>'), ('peer', f'!pto.ptr<{dt}>')]
    p = Prog(params)
    send, st = p.view('send', dt, shape)
    own, _ = p.view('recv', dt, shape)
    peer, _ = p.view('peer', dt, shape)
    bufs = [p.tile(dt, *tile) for _ in range(2 if pingpong else 1)]
    buf = f'buf({", ".join(b for b, _ in bufs)})'
    btypes = ', '.join(t for _, t in bufs)
    if kind == 'put':
        op = 'atomic_add' if atomic else 'atomic_none'
        p.lines.append(f'pto.comm.tput({peer}, {send}, {buf} : {st}, {st}, {btypes}) '
                       f'{{atomicType = #pto<atomic_type {op}>}}')
    else:
        p.lines.append(f'pto.comm.tget({own}, {peer}, {buf} : {st}, {st}, {btypes})')
    data = [cast(np.arange(count) + r * k, npd).reshape(shape) for r in range(n)]
    args, want = [], []
    for r in range(n):
        if atomic:
            target = 0
        else:
            target = (r - 1) % n if kind == 'put' else (r + 1) % n
        ref = 'recv' if kind == 'put' else 'send'
        args.append([f'send=send{r}.npy', f'recv=zeros:{dt}:{"x".join(map(str, shape))}',
                     f'peer={ref}@{target}'])
        if atomic:
            total = sum(np.arange(count, dtype=np.int64) + q * k for q in range(n))
            want.append({'recv': cast(total, npd).reshape(shape)} if r == 0 else {})
        else:
            want.append({'recv': data[(r + 1) % n]})
    return Case(n, p.text(), args, ['recv'], want), {f'send{r}.npy': data[r] for r in range(n)}


def collective_case(kind, dtype, rows, cols, tile_rows, n, root=0, pingpong=False, k=100, op='sum',
                    values=None):
    """Root-only tbroadcast / tgather / tscatter / treduce over a group of
    every rank's buffer; a member is rows x cols. Member q's values: i + q * k,
    or values(q, count)."""
    dt, npd = dtype
    count = rows * cols

    def value(q):
        return cast(values(q, count) if values else np.arange(count) + q * k, npd)
    p = Prog([('src', f'!pto.ptr<{dt}>'), ('dst', f'!pto.ptr<{dt}>')] +
             [(f'm{q}', f'!pto.ptr<{dt}>') for q in range(n)] + [('me', 'i32'), ('root', 'i32')])
    whole = [n * rows, cols] if kind in ('gather', 'scatter') else [rows, cols]
    body_start = len(p.lines)
    big_ptr = 'dst' if kind in ('gather', 'reduce') else 'src'
    big, bt = p.view(big_ptr, dt, whole if kind != 'reduce' else [rows, cols])
    members = [p.view(f'm{q}', dt, [rows, cols]) for q in range(n)]
    tiles = [p.tile(dt, tile_rows, cols) for _ in range(2 if pingpong else 1)]
    recv = f'recv({", ".join(t for t, _ in tiles)})'
    types_ = ', '.join(t for _, t in tiles)
    group = f'group({", ".join(m for m, _ in members)})'
    mtypes = ', '.join(t for _, t in members)
    attrs = f'root = {root} : i32'
    if kind == 'reduce':
        acc, at = p.tile(dt, tile_rows, cols)
        line = (f'pto.comm.treduce({big}, {acc}, {recv}, {group} : {bt}, {at}, {types_}, {mtypes}) '
                f'{{reduceOp = #pto<reduce_op {op}>, {attrs}}}')
    else:
        line = (f'pto.comm.t{kind}({big}, {recv}, {group} : {bt}, {types_}, {mtypes}) {{{attrs}}}')
    setup = p.lines[body_start:]
    del p.lines[body_start:]
    when_root(p, setup + [line])
    files, args, want = {}, [], []
    for r in range(n):
        a = [f'me={r}', f'root={root}']
        if kind == 'broadcast':
            files[f'src{r}.npy'] = value(r).reshape(rows, cols)
            a += [f'src=src{r}.npy', f'dst=zeros:{dt}:{rows}x{cols}']
            a += [f'm{q}=dst@{q}' for q in range(n)]
            want.append({'dst': value(root).reshape(rows, cols)})
        elif kind == 'gather':
            files[f'src{r}.npy'] = value(r).reshape(rows, cols)
            files[f'dst{r}.npy'] = cast(np.full(n * count, -1), npd).reshape(n * rows, cols)
            a += [f'src=src{r}.npy', f'dst=dst{r}.npy'] + [f'm{q}=src@{q}' for q in range(n)]
            full = np.concatenate([value(q) for q in range(n)])
            want.append({'dst': full.reshape(n * rows, cols)} if r == root else {})
        elif kind == 'scatter':
            blocks = np.concatenate([value(q) for q in range(n)])
            files[f'src{r}.npy'] = blocks.reshape(n * rows, cols)
            a += [f'src=src{r}.npy', f'dst=zeros:{dt}:{rows}x{cols}'] + [f'm{q}=dst@{q}' for q in range(n)]
            want.append({'dst': value(r).reshape(rows, cols)})
        else:
            files[f'src{r}.npy'] = value(r).reshape(rows, cols)
            a += [f'src=src{r}.npy', f'dst=zeros:{dt}:{rows}x{cols}'] + [f'm{q}=src@{q}' for q in range(n)]
            # ReduceExpected: member 0 first, then the others in order
            exp = value(0)
            for q in range(1, n):
                val = value(q)
                if op == 'sum':
                    exp = (exp + val).astype(npd) if npd != np.int32 else cast(exp.astype(np.int64) + val, npd)
                elif op == 'max':
                    exp = np.where(val > exp, val, exp)
                else:
                    exp = np.where(val < exp, val, exp)
            want.append({'dst': exp.reshape(rows, cols)} if r == root else {})
        args.append(a)
    return Case(n, p.text(), args, ['dst'], want), files


def async_case(kind, dtype, count, n, root=0, session_attrs='', k=10000, offset_bytes=0):
    """The root puts its send into every other rank's recv (tput_async), or
    gets every other rank's send into recv block r (tget_async), then waits
    for the last event. With a comm_block_offset the case moves the
    count - offset elements that fit, landing offset bytes in."""
    dt, npd = dtype
    full = count
    skip = offset_bytes // np.dtype(npd).itemsize
    count = full - skip if 0 < skip < full else full
    p = Prog([('send', f'!pto.ptr<{dt}>'), ('recv', f'!pto.ptr<{dt}>'), ('ws', '!pto.ptr<i8>')] +
             [(f'm{q}', f'!pto.ptr<{dt}>') for q in range(n)] + [('me', 'i32'), ('root', 'i32')])
    body = []
    scratch_t = '!pto.tile_buf<vec, 1x256xi8>'
    body.append(f'%scratch = pto.alloc_tile : {scratch_t}')
    attrs = f' {{{session_attrs}}}' if session_attrs else ''
    body.append(f'%s = pto.comm.build_async_session(%scratch, %ws : {scratch_t}, !pto.ptr<i8>){attrs} '
                f'-> !pto.async_session')
    vt = f'!pto.tensor_view<{count}x{dt}>'
    last = None
    for q in range(n):
        if q == root:
            continue
        body.append(f'%mv{q} = pto.make_tensor_view %m{q}, shape = [%c{count}], strides = [%c1] : {vt}')
        if kind == 'put':
            body.append(f'%own{q} = pto.make_tensor_view %send, shape = [%c{count}], strides = [%c1] : {vt}')
            body.append(f'%e{q} = pto.comm.tput_async(%mv{q}, %own{q}, %s : {vt}, {vt}, !pto.async_session) '
                        f'-> !pto.async_event')
        else:
            body.append(f'%off{q} = arith.constant {q * full} : index')
            body.append(f'%rp{q} = pto.addptr %recv, %off{q} : !pto.ptr<{dt}> -> !pto.ptr<{dt}>')
            body.append(f'%own{q} = pto.make_tensor_view %rp{q}, shape = [%c{count}], strides = [%c1] : {vt}')
            body.append(f'%e{q} = pto.comm.tget_async(%own{q}, %mv{q}, %s : {vt}, {vt}, !pto.async_session) '
                        f'-> !pto.async_event')
        last = q
    if last is not None:
        body.append(f'%done = pto.comm.wait_async_event(%e{last}, %s : !pto.async_event, !pto.async_session) -> i1')
    p.c(count)
    p.c(1)
    when_root(p, body)
    files, args, want = {}, [], []
    recv_len = full if kind == 'put' else n * full
    for r in range(n):
        files[f'send{r}.npy'] = cast(np.arange(full) + r * k, npd)
        ref = 'recv' if kind == 'put' else 'send'
        args.append([f'me={r}', f'root={root}', f'send=send{r}.npy', f'recv=zeros:{dt}:{recv_len}',
                     'ws=zeros:i8:4096'] + [f'm{q}={ref}@{q}' for q in range(n)])
        def block(q):
            b = cast(np.arange(full) + q * k, npd)
            b[:full - count] = 0
            return b
        if kind == 'put':
            want.append({'recv': block(root)} if r != root else {'recv': np.zeros(full, npd)})
        else:
            blocks = [np.zeros(full, npd) if q == root else block(q) for q in range(n)]
            want.append({'recv': np.concatenate(blocks)} if r == root else {})
    return Case(n, p.text(), args, ['recv'], want), files


# ---------------------------------------------------------------------------
# The signal cases (tnotify, twait, ttest): small hand-written mappings of
# the kernels in tests/npu/*/comm/st/testcase/{tnotify,twait,ttest}.

SIG_HEAD = ('module {\n  func.func @k(%sig: !pto.ptr<i32>, %peer: !pto.ptr<i32>, %flag: !pto.ptr<i32>, '
            '%pflag: !pto.ptr<i32>, %res: !pto.ptr<i32>, %me: i32) {\n'
            '    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n')
SIG_TAIL = '    return\n  }\n}\n'


def sig_view(ptr, rows=1, cols=1, off=None):
    name = f'%{ptr}v{rows}x{cols}' + ('' if off is None else f'o{off}')
    src = f'%{ptr}'
    lines = []
    if off is not None:
        lines.append(f'    %{ptr}o{off} = arith.constant {off} : index\n')
        lines.append(f'    %{ptr}p{off} = pto.addptr %{ptr}, %{ptr}o{off} : !pto.ptr<i32> -> !pto.ptr<i32>\n')
        src = f'%{ptr}p{off}'
    lines.append(f'    %r{rows} = arith.constant {rows} : index\n' if rows > 1 else '')
    lines.append(f'    %k{cols} = arith.constant {cols} : index\n' if cols > 1 else '')
    rr = f'%r{rows}' if rows > 1 else '%c1'
    kk = f'%k{cols}' if cols > 1 else '%c1'
    lines.append(f'    {name} = pto.make_tensor_view {src}, shape = [{rr}, {kk}], strides = [{kk}, %c1] : '
                 f'!pto.tensor_view<{rows}x{cols}xi32>\n')
    return name, f'!pto.tensor_view<{rows}x{cols}xi32>', ''.join(lines)


IF_COUNT = [0]


def rank_if(rank, body):
    IF_COUNT[0] += 1
    c = f'%is{rank}_{IF_COUNT[0]}'
    return (f'    {c} = arith.cmpi eq, %me, %r{rank}i : i32\n'
            f'    scf.if {c} {{\n' + body + '    }\n')


def consts(*values):
    return ''.join(f'    %v{v if v >= 0 else "m" + str(-v)} = arith.constant {v} : i32\n' for v in values)


def vname(v):
    return f'%v{v if v >= 0 else "m" + str(-v)}'


def sig_case(n, body, size, want, values=()):
    """A signal kernel: %sig this rank's i32[size], %peer a peer's copy (bound per
    rank), %flag/%pflag a phase flag and a peer's, %res an i32 result."""
    text = SIG_HEAD + consts(0, 1, *values) + ''.join(
        f'    %r{r}i = arith.constant {r} : i32\n' for r in range(n)) + body + SIG_TAIL
    return text


def notify_wait_test_cases(fn, targs, args):
    """The signal cases by their kernel function's name."""
    n = args[0]
    s = []  # (text, per-rank peer rank for %peer and %pflag, size, want per rank of (name, array))
    if fn == 'RunNotifyAtomicAdd':  # every rank adds 1 to rank 0's counter
        v, t, mk = sig_view('peer')
        body = mk + f'    pto.comm.tnotify({v}, %v1 : {t}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n'
        return sig_case(n, body, 1, None), [0] * n, 1, [{'sig': np.array([n], np.int32)}] + [{}] * (n - 1)
    if fn == 'RunNotifySet':  # rank r sets rank r+1's signal to r + 100
        v, t, mk = sig_view('peer')
        body = mk + ('    %h = arith.constant 100 : i32\n    %val = arith.addi %me, %h : i32\n'
                     f'    pto.comm.tnotify({v}, %val : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n')
        return (sig_case(n, body, 1, None), [(r + 1) % n for r in range(n)], 1,
                [{'sig': np.array([(r - 1) % n + 100], np.int32)} for r in range(n)])
    if fn == 'RunNotifyScoreboard':  # rank r sets slot r of rank 0's scoreboard to r + 1000
        body = ('    %mi = arith.index_cast %me : i32 to index\n'
                '    %slot = pto.addptr %peer, %mi : !pto.ptr<i32> -> !pto.ptr<i32>\n'
                '    %sv = pto.make_tensor_view %slot, shape = [%c1, %c1], strides = [%c1, %c1] : '
                '!pto.tensor_view<1x1xi32>\n'
                '    %th = arith.constant 1000 : i32\n    %val = arith.addi %me, %th : i32\n'
                '    pto.comm.tnotify(%sv, %val : !pto.tensor_view<1x1xi32>, i32) '
                '{notifyOp = #pto<notify_op set>}\n')
        slots = max(n, 8)
        return (sig_case(n, body, slots, None), [0] * n, slots,
                [{'sig': np.array([q + 1000 if q < n else 0 for q in range(slots)], np.int32)}] +
                [{}] * (n - 1))
    raise Skip(f'{fn}: no mapping here')


# The signal cases with a fixed two-rank body: rank 0 notifies rank 1, rank 1
# waits or tests. 'test' cases: rank 0 sets rank 1's signal, then adds 1 to
# rank 1's flag; rank 1 waits for the flag (the ST's host barrier between its
# two launches) and tests, storing the i1 result as an i32.
def two_rank_signal(notify_value, notify_op, cmp, cmp_value, test):
    v0, t0, mk0 = sig_view('peer')
    body0 = mk0 + consts(notify_value) + (
        f'    pto.comm.tnotify({v0}, {vname(notify_value)} : {t0}, i32) '
        f'{{notifyOp = #pto<notify_op {notify_op}>}}\n')
    own, ot, mk1 = sig_view('sig')
    if test:
        fv, ft, mkf = sig_view('pflag')
        body0 += mkf + f'    pto.comm.tnotify({fv}, %v1 : {ft}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n'
        ff, fft, mkff = sig_view('flag')
        body1 = mk1 + mkff + consts(cmp_value) + (
            f'    pto.comm.twait({ff}, %v1 : {fft}, i32) {{cmp = #pto<wait_cmp ge>}}\n'
            f'    %t = pto.comm.ttest({own}, {vname(cmp_value)} : {ot}, i32) {{cmp = #pto<wait_cmp {cmp}>}} -> i1\n'
            '    %t32 = arith.extui %t : i1 to i32\n'
            '    pto.store_scalar %t32, %res[%c0] : !pto.ptr<i32>, i32\n')
    else:
        body1 = mk1 + consts(cmp_value) + (
            f'    pto.comm.twait({own}, {vname(cmp_value)} : {ot}, i32) {{cmp = #pto<wait_cmp {cmp}>}}\n'
            '    pto.store_scalar %v1, %res[%c0] : !pto.ptr<i32>, i32\n')
    return rank_if(0, body0) + rank_if(1, body1)


def sub_region_case(test, full_cols, sub_rows, sub_cols):
    """Rank 0 sets each element of a sub_rows x sub_cols region at (2, 4) of
    rank 1's 8 x full_cols matrix; rank 1 waits on (or, after a flag, tests)
    the region as a strided view."""
    body0 = ''
    for r in range(sub_rows):
        for c in range(sub_cols):
            v, t, mk = sig_view('peer', off=(2 + r) * full_cols + 4 + c)
            body0 += mk + f'    pto.comm.tnotify({v}, %v1 : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n'
    region = (f'    %so = arith.constant {2 * full_cols + 4} : index\n'
              '    %sp = pto.addptr %sig, %so : !pto.ptr<i32> -> !pto.ptr<i32>\n'
              f'    %sr = arith.constant {sub_rows} : index\n    %sc = arith.constant {sub_cols} : index\n'
              f'    %sf = arith.constant {full_cols} : index\n'
              '    %sub = pto.make_tensor_view %sp, shape = [%sr, %sc], strides = [%sf, %c1] : '
              f'!pto.tensor_view<{sub_rows}x{sub_cols}xi32>\n')
    st = f'!pto.tensor_view<{sub_rows}x{sub_cols}xi32>'
    if test:
        fv, ft, mkf = sig_view('pflag')
        body0 += mkf + f'    pto.comm.tnotify({fv}, %v1 : {ft}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n'
        ff, fft, mkff = sig_view('flag')
        body1 = mkff + region + (f'    pto.comm.twait({ff}, %v1 : {fft}, i32) {{cmp = #pto<wait_cmp ge>}}\n'
                                 f'    %t = pto.comm.ttest(%sub, %v1 : {st}, i32) {{cmp = #pto<wait_cmp eq>}} -> i1\n'
                                 '    %t32 = arith.extui %t : i1 to i32\n'
                                 '    pto.store_scalar %t32, %res[%c0] : !pto.ptr<i32>, i32\n')
    else:
        body1 = region + (f'    pto.comm.twait(%sub, %v1 : {st}, i32) {{cmp = #pto<wait_cmp eq>}}\n'
                          '    pto.store_scalar %v1, %res[%c0] : !pto.ptr<i32>, i32\n')
    size = 8 * full_cols
    mat = np.zeros((8, full_cols), np.int32)
    mat[2:2 + sub_rows, 4:4 + sub_cols] = 1
    return (sig_case(2, rank_if(0, body0) + rank_if(1, body1), size, None), size, [1, 1],
            [{}, {'res': np.array([1], np.int32), 'sig': mat.reshape(-1)}])


def multi_phase_case():
    """Three phases: rank 0 sets rank 1's signal to 1, 3, 5; rank 1 waits for
    == 1, >= 3, == 5. The ST's host barrier between phases is a flag here:
    rank 1 adds 1 to rank 0's flag after each wait, rank 0 waits for it
    before its next set."""
    v, t, mk = sig_view('peer')
    f0, ft, mkf = sig_view('flag')
    body0 = mk + mkf + consts(3, 5, 2)
    body0 += f'    pto.comm.tnotify({v}, %v1 : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n'
    body0 += f'    pto.comm.twait({f0}, %v1 : {ft}, i32) {{cmp = #pto<wait_cmp ge>}}\n'
    body0 += f'    pto.comm.tnotify({v}, %v3 : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n'
    body0 += f'    pto.comm.twait({f0}, %v2 : {ft}, i32) {{cmp = #pto<wait_cmp ge>}}\n'
    body0 += f'    pto.comm.tnotify({v}, %v5 : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n'
    own, ot, mko = sig_view('sig')
    pf, pft, mkp = sig_view('pflag')
    body1 = mko + mkp + consts(3, 5)
    for cmp, x in (('eq', '%v1'), ('ge', '%v3'), ('eq', '%v5')):
        body1 += f'    pto.comm.twait({own}, {x} : {ot}, i32) {{cmp = #pto<wait_cmp {cmp}>}}\n'
        body1 += f'    pto.comm.tnotify({pf}, %v1 : {pft}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n'
    body1 += '    pto.store_scalar %v1, %res[%c0] : !pto.ptr<i32>, i32\n'
    return (sig_case(2, rank_if(0, body0) + rank_if(1, body1), 1, None), 1, [1, 0],
            [{}, {'res': np.array([1], np.int32), 'sig': np.array([5], np.int32)}])


def signal_case(fn, targs, args):
    """pto-isa's tnotify / twait / ttest cases as programs and wants."""
    n = args[0]
    if fn == 'RunNotifyRuntimeOp':
        raise Skip('RunNotifyRuntimeOp: every rank sets rank 0\'s counter at once (which value stays '
                   'is a race)')
    if fn.startswith('RunNotify'):
        text, peers, size, want = notify_wait_test_cases(fn, targs, args)
    elif fn == 'RunTWaitBasic':
        text, size = sig_case(2, two_rank_signal(42, 'set', 'eq', 42, False), 1, None), 1
        peers, want = [1, 1], [{}, {'res': np.array([1], np.int32), 'sig': np.array([42], np.int32)}]
    elif fn == 'RunTWaitCompare':
        val = args[4]
        text, size = sig_case(2, two_rank_signal(val, 'set', 'ge', 100, False), 1, None), 1
        peers, want = [1, 1], [{}, {'res': np.array([1], np.int32), 'sig': np.array([val], np.int32)}]
    elif fn == 'RunTWaitAtomic':  # every rank adds 1 to rank 0's counter; rank 0 waits >= n
        v, t, mk = sig_view('peer')
        own, ot, mk1 = sig_view('sig')
        body = mk + f'    pto.comm.tnotify({v}, %v1 : {t}, i32) {{notifyOp = #pto<notify_op atomic_add>}}\n'
        body += rank_if(0, mk1 + consts(n) + f'    pto.comm.twait({own}, {vname(n)} : {ot}, i32) '
                        '{cmp = #pto<wait_cmp ge>}\n    pto.store_scalar %v1, %res[%c0] : !pto.ptr<i32>, i32\n')
        text, size, peers = sig_case(n, body, 1, None), 1, [0] * n
        want = [{'sig': np.array([n], np.int32), 'res': np.array([1], np.int32)}] + [{}] * (n - 1)
    elif fn == 'RunTWaitMatrix':  # rank 0 sets each element of rank 1's RxC matrix to 1
        rows, cols = targs
        body0 = ''
        for e in range(rows * cols):
            v, t, mk = sig_view('peer', off=e)
            body0 += mk + f'    pto.comm.tnotify({v}, %v1 : {t}, i32) {{notifyOp = #pto<notify_op set>}}\n'
        own, ot, mk1 = sig_view('sig', rows, cols)
        body1 = mk1 + (f'    pto.comm.twait({own}, %v1 : {ot}, i32) {{cmp = #pto<wait_cmp eq>}}\n'
                       '    pto.store_scalar %v1, %res[%c0] : !pto.ptr<i32>, i32\n')
        text, size, peers = sig_case(2, rank_if(0, body0) + rank_if(1, body1), rows * cols, None), rows * cols, [1, 1]
        want = [{}, {'res': np.array([1], np.int32), 'sig': np.ones(rows * cols, np.int32)}]
    elif fn in ('RunTWaitSubRegion', 'RunTTestSubRegion'):
        text, size, peers, want = sub_region_case(fn == 'RunTTestSubRegion', *targs)
    elif fn == 'RunTWaitMultiPhase':
        text, size, peers, want = multi_phase_case()
    elif fn.startswith('RunTTest') and fn not in ('RunTTestPollingTimeout', 'RunTTestPollingTimeoutMiss'):
        if fn == 'RunTTestTrue':
            sv, cmp, cv, res = 42, 'eq', 42, 1
        elif fn == 'RunTTestFalse':
            sv, cmp, cv, res = 42, 'eq', 100, 0
        elif fn == 'RunTTestNE':
            sv, cmp, cv, res = 42, 'ne', 100, 1
        else:
            sv, cv, res = args[4], args[5], int(args[6] == 'true')
            cmp = fn.rsplit('_', 1)[1].lower()
        text, size = sig_case(2, two_rank_signal(sv, 'set', cmp, cv, True), 1, None), 1
        peers, want = [1, 1], [{}, {'res': np.array([res], np.int32), 'sig': np.array([sv], np.int32)}]
    else:
        raise Skip(f'{fn}: a bounded polling loop of ttest (its count of polls) is not mapped here')
    args_ = []
    for r in range(n):
        args_.append([f'sig=zeros:i32:{size}', 'flag=zeros:i32:1', 'res=zeros:i32:1', f'me={r}',
                      f'peer=sig@{peers[r]}', f'pflag=flag@{peers[r]}'])
    return Case(n, text, args_, ['sig', 'res'], want), {}


# ---------------------------------------------------------------------------
# Which kernel function maps to which case

def parse_calls(text):
    """(test name, function, template args, call args) for every TEST of a main.cpp."""
    out = []
    for m in re.finditer(r'TEST(?:_F)?\((\w+),\s*(\w+)\)\s*\{(.*?)\n\}|TEST(?:_F)?\((\w+),\s*(\w+)\)\s*\{([^\n]*)\}',
                         text, re.S):
        suite, name, body = (m.group(1), m.group(2), m.group(3)) if m.group(1) else \
            (m.group(4), m.group(5), m.group(6))
        c = re.search(r'(Run\w+)(?:<([^>]*)>)?\(', body or '')
        if not c:
            out.append((f'{suite}.{name}', None, [], []))
            continue
        targs = [t.strip() for t in (c.group(2) or '').split(',') if t.strip()]
        cargs = [call_arg(a) for a in top_level_args(body[c.end():])]
        out.append((f'{suite}.{name}', c.group(1), targs, cargs))
    return out


def top_level_args(text):
    """The comma-separated arguments up to the ')' that closes the call."""
    args, depth, cur = [], 0, ''
    for ch in text:
        if ch == ')' and depth == 0:
            break
        depth += ch == '('
        depth -= ch == ')'
        if ch == ',' and depth == 0:
            args.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return args + ([cur.strip()] if cur.strip() else [])


SIZEOF = {'float': 4, 'int32_t': 4, 'uint8_t': 1, 'int16_t': 2, 'uint32_t': 4}


def call_arg(a):
    """An argument's value: integer arithmetic with sizeof(T) (1024 * sizeof(float)),
    true/false, else the text."""
    e = re.sub(r'sizeof\((\w+)\)', lambda m: str(SIZEOF.get(m.group(1), 0)), a)
    if re.fullmatch(r'[\d\s*+()-]+', e):
        return int(eval(e))
    return a


def ctype(name):
    if name not in CTYPE:
        raise Skip(f'element type {name} (ml_dtypes missing?)')
    return CTYPE[name]


def named_shape(fn):
    """RunXLargeShape_Int32_128x32_tile16(_Sum): dtype, rows, cols, tile rows, op."""
    m = re.search(r'_(Int32|Float)_(\d+)x(\d+)_tile(\d+)(?:_(Sum|Max|Min))?$', fn)
    return ctype(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4)), (m.group(5) or 'Sum').lower()


def ccu_case(name, fn, args):
    """A5's CCU collectives (tests/npu/a5/comm/st/testcase/*_ccu): the same
    root-only operations through the CCU engine; float32 1 x numElements
    members, ranks from the test's name (2 unless it says N Ranks). Values:
    tbroadcast's root i + 1, treduce's every element rank + 1 (a sum of
    n(n+1)/2), tgather's and tscatter's i + rank * 10000 (main.cc)."""
    m = re.fullmatch(r'Run(Broadcast|Gather|Scatter|Reduce)Ccu', fn or '')
    if not m:
        raise Skip(f'{fn}: not mapped')
    kind = m.group(1).lower()
    count, root = args[0], args[1]
    r = re.search(r'(\d+)Ranks', name)
    n = int(r.group(1)) if r else 2
    values = {'broadcast': lambda q, c: np.arange(c) + 1,
              'reduce': lambda q, c: np.full(c, q + 1)}.get(kind)
    return collective_case(kind, CTYPE['float'], 1, count, 1, n, root, k=10000, values=values)


def npu_case(fn, targs, args):
    if fn is None:
        raise Skip('no Run call in the TEST body')
    if re.search(r'Urma|Rdma|Ccu', fn):
        raise Skip(f'{fn}: a transport (URMA/RDMA) with no counterpart here')
    if re.search(r'PostsWait|ImmediatePost|ConcurrentRank', fn):
        raise Skip(f'{fn}: the SDMA engine\'s queue and post behaviour (its results are the plain '
                   'async cases\')')
    n = args[0] if args else 2
    m = re.fullmatch(r'Run(Put|Get)Ring(2D|2DSliding|LargeShape|MultiDim|IrregularShape|PingPong)?', fn)
    if m:
        kind = m.group(1).lower()
        form = m.group(2)
        dtype = ctype(targs[0])
        v = [int(x) for x in targs[1:]]
        if form is None:
            shape, tile = [1, v[0]], (1, v[0])
        elif form == '2D':
            shape, tile = [v[0], v[1]], (v[0], v[1])
        elif form in ('LargeShape', 'IrregularShape'):
            shape, tile = [v[0], v[1]], (v[2], v[1])
        elif form == 'MultiDim':
            shape, tile = v[:5], (v[5], v[4])
        elif form == '2DSliding':
            shape, tile = [v[0], v[1]], (v[2], v[3])
        else:  # PingPong: rows, cols, tile rows, tile cols
            shape, tile = [v[0], v[1]], (v[2], v[3])
        return p2p_case(kind, dtype, shape, tile, n, pingpong=form == 'PingPong')
    if fn == 'RunPutAtomicAdd':
        return p2p_case('put', ctype(targs[0]), [1, int(targs[1])], (1, int(targs[1])), n, atomic=True)
    m = re.fullmatch(r'Run(BroadCast|Gather|Scatter|Reduce)(.*)', fn)
    if m:
        kind = {'BroadCast': 'broadcast', 'Gather': 'gather', 'Scatter': 'scatter', 'Reduce': 'reduce'}[m.group(1)]
        rest = m.group(2)
        if 'Empty' in rest:
            raise Skip(f'{fn}: a view of 0 rows, which PTOAS cannot express (a static 0 dimension and a dynamic one in a collective are refused)')
        root = args[4] if len(args) > 4 else 0
        if rest.startswith('LargeShape') or rest.startswith('PingPong'):
            dtype, rows, cols, tr, op = named_shape(fn)
            return collective_case(kind, dtype, rows, cols, tr, n, root, pingpong=rest.startswith('PingPong'),
                                   k=100, op=op)
        if kind == 'reduce':
            mm = re.fullmatch(r'(Float|Int32)_?(\d+)_?(Sum|Max|Min)(WithRoot)?', rest)
            dtype, count, op = ctype(mm.group(1)), int(mm.group(2)), mm.group(3).lower()
        else:
            dtype, count, op = ctype(targs[0]), int(targs[1]), 'sum'
        k = 100 if kind in ('broadcast', 'reduce') else 10000
        return collective_case(kind, dtype, 1, count, 1, n, root, k=k, op=op)
    m = re.fullmatch(r'Run(Put|Get)Async(RootPut|RootGet|WithConfig|MultiCore)', fn)
    if m:
        kind = m.group(1).lower()
        dtype, count = ctype(targs[0]), int(targs[1])
        attrs = ''
        if m.group(2) == 'WithConfig':
            bb, off, q = args[4], args[5], args[6]
            attrs = f'block_bytes = {bb}, comm_block_offset = {off}, queue_num = {q}'
            return async_case(kind, dtype, count, n, root=0, session_attrs=attrs, offset_bytes=off)
        return async_case(kind, dtype, count, n, root=0, session_attrs=attrs)
    if re.match(r'RunNotify|RunTWait|RunTTest', fn):
        return signal_case(fn, [int(t) for t in targs], args)
    raise Skip(f'{fn}: not mapped')


# ---------------------------------------------------------------------------
# The CPU suite (one process, gen_data.py's files)

def cpu_cases(mirror, work):
    out = []
    for op in CPU_OPS:
        d = os.path.join(work, 'cpu', op)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for f in ('gen_data.py', 'main.cpp'):
            open(os.path.join(d, f), 'wb').write(git_show(mirror, f'{SUITE_DIR["cpu"]}/{op}/{f}'))
        utils = git_show(mirror, 'tests/cpu/st/utils.py', required=False)
        if utils:
            open(os.path.join(d, 'utils.py'), 'wb').write(utils)
        env = dict(os.environ, PTO_CPU_SIM_ENABLE_BF16='1' if ml_dtypes else '0')
        subprocess.run([sys.executable, 'gen_data.py'], cwd=d, env=env, check=True, capture_output=True)
        main = open(os.path.join(d, 'main.cpp')).read()
        for m in re.finditer(r'TEST_F\((\w+),\s*(\w+)\)\s*\{\s*test_\w+<([^>]*)>\(\);', main):
            name = f'{m.group(1)}.{m.group(2)}'
            targs = [t.strip() for t in m.group(3).split(',')]
            out.append((f'cpu/{op}/{name}', lambda op=op, name=name, targs=targs, d=d:
                        cpu_case(op, name, targs, os.path.join(d, name))))
    return out


def read_bin(path, npd, shape):
    return np.fromfile(path, dtype=npd).reshape(shape)


def cpu_case(op, name, targs, d):
    if not os.path.isdir(d):
        raise Skip(f'gen_data.py made no {os.path.basename(d)} (bfloat16 off)')
    if op in ('tput', 'tget'):
        dt, npd = ctype(targs[0])
        rows, cols = int(targs[1]), int(targs[2])
        p = Prog([('src', f'!pto.ptr<{dt}>'), ('dst', f'!pto.ptr<{dt}>')])
        s, st = p.view('src', dt, [rows, cols])
        o, _ = p.view('dst', dt, [rows, cols])
        t, tt = p.tile(dt, int(targs[3]), int(targs[4]))
        extra = ' {atomicType = #pto<atomic_type atomic_none>}' if op == 'tput' else ''
        p.lines.append(f'pto.comm.{op}({o}, {s}, buf({t}) : {st}, {st}, {tt}){extra}')
        src = read_bin(os.path.join(d, 'input.bin'), npd, (rows, cols))
        return Case(1, p.text(), [['src=src0.npy', f'dst=zeros:{dt}:{rows}x{cols}']], ['dst'],
                    [{'dst': read_bin(os.path.join(d, 'golden.bin'), npd, (rows, cols))}]), {'src0.npy': src}
    if op in ('tput_async', 'tget_async'):
        dt, npd = ctype(targs[0])
        count = int(targs[1]) * int(targs[2])
        vt = f'!pto.tensor_view<{count}x{dt}>'
        kind = op.split('_')[0]
        text = ('module {\n  func.func @k(%src: !pto.ptr<' + dt + '>, %dst: !pto.ptr<' + dt + '>, %ws: !pto.ptr<i8>) {\n'
                f'    %c1 = arith.constant 1 : index\n    %n = arith.constant {count} : index\n'
                f'    %s0 = pto.make_tensor_view %src, shape = [%n], strides = [%c1] : {vt}\n'
                f'    %d0 = pto.make_tensor_view %dst, shape = [%n], strides = [%c1] : {vt}\n'
                '    %scratch = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>\n'
                '    %s = pto.comm.build_async_session(%scratch, %ws : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8>) '
                '-> !pto.async_session\n'
                f'    %e = pto.comm.{kind}_async(%d0, %s0, %s : {vt}, {vt}, !pto.async_session) -> !pto.async_event\n'
                '    %w = pto.comm.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1\n'
                '    return\n  }\n}\n')
        src = read_bin(os.path.join(d, 'input.bin'), npd, (count,))
        return Case(1, text, [['src=src0.npy', f'dst=zeros:{dt}:{count}', 'ws=zeros:i8:4096']], ['dst'],
                    [{'dst': read_bin(os.path.join(d, 'golden.bin'), npd, (count,))}]), {'src0.npy': src}
    if op == 'tnotify':
        add = name.endswith('case1')
        shared = np.fromfile(os.path.join(d, 'sharedMemory.bin'), np.int32)
        value = int(np.fromfile(os.path.join(d, 'signal.bin'), np.int32)[0])
        text = ('module {\n  func.func @k(%sig: !pto.ptr<i32>, %val: i32) {\n'
                '    %c1 = arith.constant 1 : index\n'
                '    %v = pto.make_tensor_view %sig, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>\n'
                f'    pto.comm.tnotify(%v, %val : !pto.tensor_view<1x1xi32>, i32) '
                f'{{notifyOp = #pto<notify_op {"atomic_add" if add else "set"}>}}\n'
                '    return\n  }\n}\n')
        return Case(1, text, [['sig=sig0.npy', f'val={value}']], ['sig'],
                    [{'sig': np.fromfile(os.path.join(d, 'golden.bin'), np.int32)}]), {'sig0.npy': shared}
    if op == 'tbroadcast':
        dt, npd = ctype(targs[0])
        shape = [int(x) for x in targs[1:6]]
        kn = int(targs[6])
        size = int(np.prod(shape))
        p = Prog([('src', f'!pto.ptr<{dt}>')] + [(f'm{q}', f'!pto.ptr<{dt}>') for q in range(kn)])
        s, st = p.view('src', dt, shape)
        members = [p.view(f'm{q}', dt, shape) for q in range(kn)]
        t, tt = p.tile(dt, shape[3], shape[4])
        p.lines.append(f'pto.comm.tbroadcast({s}, recv({t}), group({", ".join(m for m, _ in members)}) : '
                       f'{st}, {tt}, {", ".join(x for _, x in members)}) {{root = 0 : i32}}')
        src = read_bin(os.path.join(d, 'input.bin'), npd, shape)
        golden = read_bin(os.path.join(d, 'golden.bin'), npd, (kn, size))
        args = ['src=src0.npy'] + [f'm{q}=zeros:{dt}:{"x".join(map(str, shape))}' for q in range(kn)]
        return Case(1, p.text(), [args], [f'm{q}' for q in range(kn)],
                    [{f'm{q}': golden[q].reshape(shape) for q in range(kn)}]), {'src0.npy': src}
    if op == 'treduce':
        dt, npd = ctype(targs[0])
        rows, cols, trows = int(targs[1]), int(targs[2]), int(targs[3])
        red = 'max' if 'Max' in targs[5] else 'sum'
        p = Prog([('a', f'!pto.ptr<{dt}>'), ('b', f'!pto.ptr<{dt}>'), ('dst', f'!pto.ptr<{dt}>')])
        o, ot = p.view('dst', dt, [rows, cols])
        a, at = p.view('a', dt, [rows, cols])
        b, _ = p.view('b', dt, [rows, cols])
        acc, acct = p.tile(dt, trows, cols)
        r, rt = p.tile(dt, trows, cols)
        p.lines.append(f'pto.comm.treduce({o}, {acc}, recv({r}), group({a}, {b}) : {ot}, {acct}, {rt}, {at}, {at}) '
                       f'{{reduceOp = #pto<reduce_op {red}>, root = 0 : i32}}')
        files = {f'in{q}.npy': read_bin(os.path.join(d, f'input{q}.bin'), npd, (rows, cols)) for q in range(2)}
        return Case(1, p.text(), [['a=in0.npy', 'b=in1.npy', f'dst=zeros:{dt}:{rows}x{cols}']], ['dst'],
                    [{'dst': read_bin(os.path.join(d, 'golden.bin'), npd, (rows, cols))}]), files
    raise Skip(op)


# ---------------------------------------------------------------------------
# Running

def git_show(mirror, path, required=True):
    r = subprocess.run(['git', '--git-dir', mirror, 'show', 'HEAD:' + path], capture_output=True)
    if r.returncode != 0:
        if required:
            raise SystemExit(f'{path} is not in {mirror}')
        return None
    return r.stdout


def run_case(case, files, d, tools, profile, mpiexec):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for name, arr in files.items():
        np.save(os.path.join(d, name), arr)
    open(os.path.join(d, 'k.pto'), 'w').write(case.prog)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
               OMPI_MCA_rmaps_base_oversubscribe='1', OMPI_MCA_btl_vader_single_copy_mechanism='none',
               OMPI_MCA_mpi_yield_when_idle='1', PTO_COMM_TIMEOUT=os.environ.get('PTO_COMM_TIMEOUT', '30'))
    outs = lambda r: sum((['--out', f'{o}={o}{r}.npy'] for o in case.outs), [])
    if case.n == 1 and mpiexec is None:
        cmd = [tools['pto-run'], 'k.pto', '--profile', profile] + case.args[0] + outs(0)
    else:
        cmd = [mpiexec]
        for r in range(case.n):
            if r:
                cmd.append(':')
            cmd += ['-n', '1', tools['pto-run-mpi'], 'k.pto', '--profile', profile] + case.args[r] + outs(r)
    p = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        err = [l for l in (p.stderr + p.stdout).splitlines() if 'error' in l]
        return 'REFUSED', (err[0] if err else (p.stderr + p.stdout).strip()[-300:])
    for r in range(case.n):
        for name, want in case.want[r].items():
            got = np.load(os.path.join(d, f'{name}{r}.npy')).reshape(want.shape)
            # Bit for bit (a bfloat16 array may come back as its 16-bit codes).
            if got.dtype.itemsize != want.dtype.itemsize:
                return 'DIFF', f'rank {r} {name}: element size {got.dtype.itemsize}, want {want.dtype.itemsize}'
            width = np.dtype(f'u{want.dtype.itemsize}')
            g, w = got.view(width).reshape(-1), want.view(width).reshape(-1)
            if g.tobytes() != w.tobytes():
                i = int(np.flatnonzero(g != w)[0])
                return 'DIFF', (f'rank {r} {name}[{i}]: {g[i]:#x}'
                                f' != {w[i]:#x} ({int(np.count_nonzero(g != w))} elements differ)')
    return 'PASS', ''


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('build')
    ap.add_argument('--mirror', default='/work/.mirror/hw-native-sys+pto-isa/repo')
    ap.add_argument('--work', default='/tmp/pto-isa-comm-st')
    ap.add_argument('--suite', default='cpu,cpu-comm,a2a3,a5')
    ap.add_argument('--case', default='')
    ap.add_argument('--mpiexec', default=shutil.which('mpiexec.mpich') or shutil.which('mpiexec'))
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    tools = {t: os.path.abspath(os.path.join(a.build, 'tools', 'pto-run', t)) for t in ('pto-run', 'pto-run-mpi')}
    todo = []
    for suite in a.suite.split(','):
        if suite == 'cpu':
            todo += [(name, PROFILE['cpu'], make) for name, make in cpu_cases(a.mirror, a.work)]
            continue
        listing = subprocess.run(['git', '--git-dir', a.mirror, 'ls-tree', '-r', '--name-only', 'HEAD',
                                  SUITE_DIR[suite]], capture_output=True, text=True).stdout.split()
        for path in sorted(p for p in listing if re.search(r'/main\.cc?p?p?$', p)):
            op = path.split('/')[-2]
            for name, fn, targs, cargs in parse_calls(git_show(a.mirror, path).decode()):
                todo.append((f'{suite}/{op}/{name}', PROFILE[suite],
                             lambda fn=fn, targs=targs, cargs=cargs, op=op, name=name:
                             ccu_case(name, fn, cargs) if op.endswith('_ccu') else
                             npu_case(fn, targs, cargs) if not re.search(r'urma|rdma', op)
                             else (_ for _ in ()).throw(Skip(f'{op}: a transport (URMA/RDMA) with no '
                                                             'counterpart here'))))
    counts = {'PASS': 0, 'DIFF': 0, 'REFUSED': 0, 'SKIP': 0}
    for name, profile, make in todo:
        if a.case and not re.search(a.case, name):
            continue
        try:
            case, files = make()
            d = os.path.join(a.work, 'run', re.sub(r'[^\w.-]', '_', name))
            verdict, why = run_case(case, files, d, tools, profile,
                                    a.mpiexec if case.n > 1 or name.startswith(('cpu-comm', 'a2a3', 'a5'))
                                    else None)
            if case.n > 1:
                why = f'{case.n} ranks' + (f'; {why}' if why else '')
        except Skip as e:
            verdict, why = 'SKIP', str(e)
        except subprocess.TimeoutExpired:
            verdict, why = 'DIFF', f'no end within {TIMEOUT} s'
        counts[verdict] += 1
        print(f'{verdict:8} {name}' + (f': {why}' if why else ''), flush=True)
    print(f"{counts['PASS']} passed, {counts['DIFF']} failed, {counts['REFUSED'] + counts['SKIP']} skipped "
          f"({counts['REFUSED']} refused)")
    return 1 if counts['DIFF'] else 0


if __name__ == '__main__':
    sys.exit(main())
