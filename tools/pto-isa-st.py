#!/usr/bin/env python3
"""Runs pto-isa's ST cases of the instructions libpto added in 0.6 through libpto
(ctypes on libpto.so) and compares dst with each case's golden.

    python3 -m venv /tmp/st-venv && /tmp/st-venv/bin/pip install numpy ml_dtypes
    /tmp/st-venv/bin/python tools/pto-isa-st.py build/src/libpto.so \\
        [--mirror /work/.mirror/hw-native-sys+pto-isa/repo] [--work /tmp/pto-isa-st] \\
        [--suite cpu,a5,a2a3] [--op tand,tshl,...] [-v]

For every (suite, op) of the table ADAPTERS it copies the op's gen_data.py from
the pto-isa mirror (tests/cpu/st/testcase/<op>, tests/npu/{a5,a2a3}/src/st/
testcase/<op>) into a scratch directory and runs it there, with
PTO_CPU_SIM_ENABLE_BF16=1 so the CPU suite's bfloat16 cases are generated too.
The generator's golden function is wrapped to record each case's parameter
object (dtype, tile shapes, valid region), so the adapter makes its tiles from
the same numbers main.cpp instantiates. The NPU suites run under their profile
(pto_set_profile A5 or A2A3), the CPU suite under HOST.

Comparison: the golden's region (dst's valid region; zeros the golden writes
outside it are the ST's output buffer, not the instruction's) bit for bit. A
case that differs is printed with its first differing elements and, for
information, whether it lies within ResultCmp's 0.001; it counts as differing
either way. Where an adapter has a model of libpto's documented rule (pto_c.h,
docs/profiles.md) and libpto equals it bit for bit, the line is DOC (the
golden disagrees with a documented decision) instead of DIFF. A case libpto
refuses is REFUSED with its sentence; one an adapter cannot express is skipped
with the reason. Summary: one line per (suite, op) and the closing line
'N passed, N failed, N skipped' (failed: DIFF and DOC; skipped: REFUSED too).
Exit status 1 when any case differs.

Not run by CI: it needs the pto-isa mirror and numpy/ml_dtypes. The result
and the reasons for every differing case: docs/pto-isa-st.md. Instructions
with ST checks inside tests/ (tmuladd's, timg2col, ttri, tgemv, tquant's MX
forms in tools/st-tquant-mx.py) are not repeated here.
"""
import argparse, contextlib, ctypes, inspect, io, os, re, shutil, subprocess, sys, traceback, types
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, '..', 'include', 'pto_c.h')
SUITE_DIR = {'cpu': 'tests/cpu/st/testcase', 'a5': 'tests/npu/a5/src/st/testcase',
             'a2a3': 'tests/npu/a2a3/src/st/testcase'}
PROFILE = {'cpu': 0, 'a2a3': 1, 'a5': 2}


class Skip(Exception):
    pass


# ---------------------------------------------------------------------------
# libpto through ctypes: argtypes from pto_c.h's prototypes

def load_lib(path):
    lib = ctypes.CDLL(path)
    hdr = open(HEADER).read()
    enum = {m.group(1): int(m.group(2)) for m in re.finditer(r'\bPTO_([A-Z0-9_]+) = (\d+)', hdr)}
    for m in re.finditer(r'PTO_API\s+([\w\s\*]+?)\s*\b(pto_\w+)\s*\(([^)]*)\)\s*;', hdr):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        fn = getattr(lib, name, None)
        if fn is None:
            continue
        types = []
        for p in params.split(','):
            p = p.strip()
            if p in ('void', ''):
                continue
            if '*' in p:
                types.append(ctypes.c_void_p)
            elif p.startswith('double'):
                types.append(ctypes.c_double)
            elif p.startswith('float'):
                types.append(ctypes.c_float)
            elif p.startswith('size_t'):
                types.append(ctypes.c_size_t)
            elif p.startswith(('uint32_t', 'unsigned')):
                types.append(ctypes.c_uint32)
            elif p.startswith('int32_t'):
                types.append(ctypes.c_int32)
            elif p.startswith('uint64_t'):
                types.append(ctypes.c_uint64)
            elif p.startswith('int64_t'):
                types.append(ctypes.c_int64)
            elif p.startswith(('uint16_t',)):
                types.append(ctypes.c_uint16)
            elif p.startswith(('uint8_t',)):
                types.append(ctypes.c_uint8)
            else:  # int and the enums
                types.append(ctypes.c_int)
        fn.argtypes = types
        if '*' in ret:
            fn.restype = ctypes.c_void_p
        elif 'size_t' in ret:
            fn.restype = ctypes.c_size_t
        elif 'char' in ret:
            fn.restype = ctypes.c_char_p
        else:
            fn.restype = ctypes.c_int
    lib.pto_last_error.restype = ctypes.c_char_p
    return lib, enum


LIB = ENUM = None
GEN = {}  # the last generator's globals
SUITE = 'cpu'
NP = {}  # pto dtype -> numpy dtype of its bits


def pto_dtype(dt):
    """pto enum value and numpy dtype for a generator's dtype."""
    s = getattr(dt, '__name__', None) or str(dt)
    s = {'float32': 'FLOAT32', 'float16': 'FLOAT16', 'bfloat16': 'BFLOAT16', 'int8': 'INT8',
         'uint8': 'UINT8', 'int16': 'INT16', 'uint16': 'UINT16', 'int32': 'INT32',
         'uint32': 'UINT32', 'int64': 'INT64', 'uint64': 'UINT64',
         '__bf16__': 'BFLOAT16'}.get(s, s)  # a2a3 mscatter's BF16_MARK: bfloat16 bits as uint16
    try:
        s = {np.dtype(np.float32): 'FLOAT32', np.dtype(np.float16): 'FLOAT16'}.get(np.dtype(dt), s)
        s = {np.dtype(np.int8): 'INT8', np.dtype(np.uint8): 'UINT8', np.dtype(np.int16): 'INT16',
             np.dtype(np.uint16): 'UINT16', np.dtype(np.int32): 'INT32',
             np.dtype(np.uint32): 'UINT32', np.dtype(np.int64): 'INT64',
             np.dtype(np.uint64): 'UINT64'}.get(np.dtype(dt), s)
    except TypeError:
        pass
    bits = {'FLOAT32': np.uint32, 'FLOAT16': np.uint16, 'BFLOAT16': np.uint16, 'INT8': np.uint8,
            'UINT8': np.uint8, 'INT16': np.uint16, 'UINT16': np.uint16, 'INT32': np.uint32,
            'UINT32': np.uint32, 'INT64': np.uint64, 'UINT64': np.uint64}
    if s not in bits:
        raise Skip('dtype %s' % s)
    return ENUM[s], np.dtype(bits[s])


class Tile:
    """A libpto tile with its numpy view of bits."""

    def __init__(self, dt, rows, cols, vr=None, vc=None):
        self.pto, self.bits = pto_dtype(dt)
        self.h = ctypes.c_void_p()
        check(LIB.pto_tile_create(self.pto, rows, cols, ctypes.byref(self.h)), 'tile_create')
        self.rows, self.cols = rows, cols
        if vr is not None:
            check(LIB.pto_tile_set_valid(self.h, vr, vc), 'set_valid')
        self.vr = rows if vr is None else vr
        self.vc = cols if vc is None else vc

    def array(self):
        n = self.rows * self.cols * self.bits.itemsize
        buf = (ctypes.c_uint8 * n).from_address(LIB.pto_tile_data(self.h))
        return np.frombuffer(buf, np.uint8).view(self.bits).reshape(self.rows, self.cols)

    def put(self, data):
        """data's bits into the tile's top-left corner."""
        a = np.asarray(data).view(self.bits)
        if a.ndim == 1:
            a = a.reshape(1, -1)
        self.array()[:a.shape[0], :a.shape[1]] = a

    def valid(self):
        return self.array()[:self.vr, :self.vc].copy()

    def __del__(self):
        if LIB is not None and self.h:
            LIB.pto_tile_destroy(self.h)


class Refused(Exception):
    """libpto refuses the case's call (a dtype or shape outside its rules)."""


def check(st, what):
    if st != 0:
        raise Refused('%s refused: %s' % (what, LIB.pto_last_error().decode()))


# ---------------------------------------------------------------------------
# case parameters

def attr(p, *names, default=None):
    for n in names:
        if hasattr(p, n):
            return getattr(p, n)
    return default


def dtype_of(p):
    dt = attr(p, 'dtype', 'data_type', 'src_type', 'type')
    if dt is None:
        raise Skip('no dtype in the parameters')
    return dt


def valid_of(p):
    vr = attr(p, 'valid_row', 'valid_rows', 'vrow', 'row_valid', 'kVRows')
    vc = attr(p, 'valid_col', 'valid_cols', 'vcol', 'col_valid', 'kVCols')
    if vr is None and hasattr(p, 'dst_tile_row'):
        vr, vc = attr(p, 'row'), attr(p, 'col')
    if vr is None:
        r, c = shape_of(p, 'dst')
        return r, c
    return vr, vc


def shape_of(p, role):
    cands = {'dst': [('dst_tile_row', 'dst_tile_col'), ('dst_row', 'dst_col'),
                     ('dst_rows', 'dst_cols'), ('tile_row', 'tile_col'), ('row', 'col'),
                     ('rows', 'cols')],
             'src': [('src_tile_row', 'src_tile_col'), ('src_row', 'src_col'),
                     ('src_rows', 'src_cols'), ('tile_row', 'tile_col'), ('row', 'col'),
                     ('rows', 'cols')]}[role]
    for r, c in cands:
        if hasattr(p, r) and hasattr(p, c):
            return getattr(p, r), getattr(p, c)
    vr = attr(p, 'valid_row', 'valid_rows', 'row_valid')
    vc = attr(p, 'valid_col', 'valid_cols', 'col_valid')
    if vr is None:
        raise Skip('no tile shape in the parameters')
    return vr, vc


def read_matrix(path, bits, shapes):
    """A file of elements as the first matrix shape whose size matches."""
    a = np.fromfile(path, np.uint8).view(bits)
    for r, c in shapes:
        if r * c == a.size:
            return a.reshape(r, c)
    raise Skip('%s: %d elements fit none of %s' % (os.path.basename(path), a.size, shapes))


def golden_region(path, bits, p, vr, vc, extra=()):
    shapes = [(vr, vc), shape_of(p, 'dst')] + list(extra)
    g = attr(p, 'global_row'), attr(p, 'global_col')
    if g[0] is not None:
        shapes.append(g)
    return read_matrix(path, bits, shapes)[:vr, :vc]


# ---------------------------------------------------------------------------
# comparison

def st_tolerant(got, want, dt, eps=1e-3):
    """ResultCmp: |a - b| <= eps * max(|a|, |b|) or <= eps, as floats (NaN == NaN)."""
    name = getattr(dt, '__name__', None) or str(dt)
    if name in ('bfloat16',):
        g = (got.astype(np.uint32) << 16).view(np.float32)
        w = (want.astype(np.uint32) << 16).view(np.float32)
    elif np.dtype(got.dtype).itemsize and name in ('float16', 'float32'):
        fl = np.float16 if name == 'float16' else np.float32
        g, w = got.view(fl).astype(np.float64), want.view(fl).astype(np.float64)
    else:
        return False
    g, w = g.astype(np.float64), w.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    d = np.abs(g - w)
    ok = (d <= eps) | (d <= eps * np.maximum(np.abs(g), np.abs(w))) | both_nan
    return bool(ok.all())


def compare(got, want, dt=None):
    """None when equal bit for bit, else a sentence on the first differences."""
    if got.shape != want.shape:
        return 'shape %s, golden %s' % (got.shape, want.shape)
    if np.array_equal(got, want):
        return None
    idx = np.argwhere(got != want)
    first = ', '.join('(%d,%d) %s != %s' % (i, j, hex(int(got[i, j])), hex(int(want[i, j])))
                      for i, j in idx[:3])
    tol = ' (within the ST tolerance)' if dt is not None and st_tolerant(got, want, dt) else ''
    return '%d of %d elements differ%s: %s' % (len(idx), got.size, tol, first)


# ---------------------------------------------------------------------------
# generators

def run_generator(mirror, suite, op, work):
    """Runs op's gen_data.py in work/suite/op; returns [(case dir, args)]."""
    d = os.path.join(work, suite, op)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    base = SUITE_DIR[suite] + '/' + op
    names = subprocess.run(['git', '--git-dir', mirror, 'ls-tree', '--name-only', 'HEAD', base + '/'],
                           capture_output=True, text=True, check=True).stdout.split()
    for n in names:
        if n.endswith('.py'):
            txt = subprocess.run(['git', '--git-dir', mirror, 'show', 'HEAD:' + n],
                                 capture_output=True, check=True).stdout
            open(os.path.join(d, os.path.basename(n)), 'wb').write(txt)
    utils = SUITE_DIR[suite].rsplit('/', 1)[0] + '/utils.py'
    r = subprocess.run(['git', '--git-dir', mirror, 'show', 'HEAD:' + utils], capture_output=True)
    if r.returncode == 0 and not os.path.exists(os.path.join(d, 'utils.py')):
        open(os.path.join(d, 'utils.py'), 'wb').write(r.stdout)
    src = open(os.path.join(d, 'gen_data.py')).read()
    cut = re.search(r'^if __name__ == .__main__.:', src, re.M)
    if cut is None:
        raise Skip('gen_data.py has no main block')
    cases = []
    old = os.getcwd()
    quiet = contextlib.redirect_stdout(io.StringIO())
    quiet.__enter__()
    os.chdir(d)
    sys.path.insert(0, d)
    os.environ['PTO_CPU_SIM_ENABLE_BF16'] = '1'
    try:
        g = {'__name__': '__main__', '__file__': os.path.join(d, 'gen_data.py')}
        exec(compile(src[:cut.start()], 'gen_data.py', 'exec'), g)
        for k, v in list(g.items()):
            if (k.startswith(('gen_golden', 'gen_case', 'case_', 'gen_data', 'gen_nd', 'gen_nz', 'gen_twoinput',
                               'gen_double_twoinput', 'gen_fp4_offset', 'gen_hif8_passthrough', 'gen_zn',
                               'quant_fp32_to_mxfp8')) and 'name' not in k
                    and callable(v)):
                g[k] = recorder(v, cases)
        global GEN
        GEN = g
        exec(compile(src[cut.start():], 'gen_data.py', 'exec'), g)
    finally:
        quiet.__exit__(None, None, None)
        os.chdir(old)
        sys.path.remove(d)
        sys.modules.pop('utils', None)
    return cases


def recorder(fn, cases):
    """fn, recording its case: the directory (the working one, or the
    directory named by a first argument that is the case's name), the
    arguments, and the bound arguments with defaults and fn's name in kw."""
    def wrapped(*a, **k):
        b = inspect.signature(fn).bind(*a, **k)
        b.apply_defaults()
        d = os.getcwd()
        if a and isinstance(a[0], str) and os.path.basename(d) != a[0]:
            d = (d, os.path.join(d, a[0]))  # which one exists is known once the files are written
        cases.append((d, a, dict(b.arguments, __fn__=fn.__name__)))
        return fn(*a, **k)
    return wrapped


def param_of(args):
    """The case's parameter object, else a namespace of the call's
    arguments (args) and the generator's globals (g)."""
    for a in args:
        if hasattr(a, '__dict__') and not isinstance(a, type) and not callable(a):
            return a
    return types.SimpleNamespace(args=args, g=GEN)


# ---------------------------------------------------------------------------
# adapters: each takes (case dir, parameter object, generator args) and
# returns None (equal) or a sentence

def find(case, names):
    for n in names.split('|'):
        if os.path.exists(os.path.join(case, n)):
            return os.path.join(case, n)
    raise Skip('none of %s in the case' % names)


def src_shape(p, k):
    for r, c in [('src%d_tile_row' % k, 'src%d_tile_col' % k), ('src%d_row' % k, 'src%d_col' % k),
                 ('src%d_rows' % k, 'src%d_cols' % k)]:
        if hasattr(p, r) and hasattr(p, c):
            return getattr(p, r), getattr(p, c)
    return shape_of(p, 'src')


def scalar_of(case, dt, path):
    _, bits = pto_dtype(dt)
    v = np.fromfile(path, bits)[:1]
    s = getattr(dt, '__name__', None) or str(dt)
    if s == 'bfloat16':
        return float((v.astype(np.uint32) << 16).view(np.float32)[0])
    return float(v.view(np.dtype(dt))[0].item())


def numbered(case, k):
    """The k-th (0-based) input file: input0.bin, input1.bin... when the case
    has an input0.bin, else input1.bin, input2.bin... (input.bin alone as the
    first)."""
    if os.path.exists(os.path.join(case, 'input0.bin')):
        return 'input%d.bin' % k
    if k == 0 and not os.path.exists(os.path.join(case, 'input1.bin')):
        return 'input.bin|src0.bin'
    return 'input%d.bin' % (k + 1)


def input_tile(case, names, p, k, dt, vr, vc):
    if names is None:
        names = numbered(case, k)
    sr, sc = src_shape(p, k)
    t = Tile(dt, sr, sc, vr, vc)
    dr, dc = shape_of(p, 'dst')
    t.put(read_matrix(find(case, names), t.bits, [(sr, sc), (vr, vc), (dr, dc)]))
    return t


class Documented(Exception):
    """A golden that differs from libpto where libpto computes its documented
    rule (checked by the adapter's model of that rule, bit for bit)."""


def typed(a, dt):
    name = getattr(dt, '__name__', None) or str(dt)
    if name == 'bfloat16':
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a.view(np.dtype(dt))


def ew(fname, files, scalar=False, dst_file=None, model=None):
    """dst = f(inputs[, scalar]) over the valid region; dst_file: dst's
    initial contents (an input of the instruction). model(dt, srcs, scalar,
    dst_old) -> (expected values of dst's valid region, the rule's name), or
    None where the golden's rule is libpto's."""
    def run(case, p, args):
        fn = getattr(LIB, fname)
        dt = dtype_of(p)
        vr, vc = valid_of(p)
        dr, dc = shape_of(p, 'dst')
        dst = Tile(dt, dr, dc, vr, vc)
        if dst_file:
            dst.put(read_matrix(find(case, dst_file), dst.bits, [(dr, dc), (vr, vc)]))
        old = dst.valid()
        srcs = [input_tile(case, f, p, k, dt, vr, vc) for k, f in enumerate(files)]
        extra = [scalar_of(case, dt, find(case, 'scalar.bin|input2.bin|divider.bin|src1.bin'))] if scalar else []
        check(fn(dst.h, *[s.h for s in srcs], *extra), fname)
        want = golden_region(find(case, 'golden.bin|golden_output.bin'), dst.bits, p, vr, vc)
        got = dst.valid()
        res = compare(got, want, dt)
        if res is not None and model is not None:
            m = model(dt, [typed(s.valid(), dt) for s in srcs], extra[0] if extra else None,
                      typed(old, dt))
            if m is not None:
                exp, rule = m
                exp = np.asarray(exp).astype(np.dtype(dt)).view(got.dtype)
                if np.array_equal(got, exp):
                    raise Documented('%s; libpto = %s bit for bit' % (res, rule))
        return res
    return run


def fmod_npu(dt, srcs, scalar, old):
    """A2A3/A5 TFMOD (pto_c.h, docs/profiles.md [F-TFMOD]): the quotient, its
    truncation, the product and the difference each rounded in float32,
    FLOAT16 narrowed toward zero at the end."""
    if SUITE == 'cpu' or np.dtype(dt).kind != 'f':
        return None
    a = srcs[0].astype(np.float32)
    b = srcs[1].astype(np.float32) if scalar is None else np.float32(scalar)
    with np.errstate(all='ignore'):
        r = a - np.trunc(a / b) * b
    if np.dtype(dt) == np.float16:
        h = r.astype(np.float16)
        over = np.abs(h.astype(np.float32)) > np.abs(r)
        h[over] = np.nextafter(h[over], np.float16(0))
        r = h
    return r, 'the NPU sequence in float32 (pto_c.h pto_tfmod, [F-TFMOD])'


def fused(order):
    """TFUSEDMULADD(RELU) / TMULADDDST rounded once (pto_c.h: one multiply-add,
    [F-TFUSEDMULADD]): the exact product plus the addend in float64 (exact
    for float16; for float32 one rounding in float64 first, which the cases'
    magnitudes keep exact), rounded to the dtype."""
    def m(dt, srcs, scalar, old):
        a, b = srcs[0].astype(np.float64), srcs[1].astype(np.float64)
        o = old.astype(np.float64)
        r = a * o + b if order != 'dst' else a * b + o
        if order == 'relu':
            r = np.where(r > 0, r, 0.0)
        return r.astype(np.dtype(dt)), 'the multiply-add rounded once'
    return m


def shift64(left):
    """Shifts: a count of the lane's width or more gives 0 (pto_c.h pto_tshl,
    HOST's rule; A5's 64-bit lanes take it mod 64, as A5's goldens do, so
    this model classifies a 64-bit difference only off A5)."""
    def m(dt, srcs, scalar, old):
        if np.dtype(dt).itemsize != 8 or SUITE == 'a5':
            return None
        a = srcs[0].view(np.uint64)
        c = srcs[1].view(np.uint64)
        big = c >= 64
        with np.errstate(all='ignore'):
            if left:
                r = a << np.where(big, 0, c).astype(np.uint64)
            elif np.dtype(dt).kind == 'i':
                r = (srcs[0] >> np.where(big, 63, c).astype(np.int64)).view(np.uint64)
            else:
                r = a >> np.where(big, 0, c).astype(np.uint64)
        if left or np.dtype(dt).kind == 'u':
            r = np.where(big, np.uint64(0), r)
        return r.view(np.dtype(dt)), 'a count of 64 or more gives 0 (or the sign)'
    return m


IN1 = None  # resolved per case by numbered()


def bin2(fname):
    return ew(fname, [None, None])


ADAPTERS = {}
ADAPTER_SUITES = {}  # op -> the suites its adapter maps (default: every suite with the op)
for _op in ['tand', 'tor', 'txor', 'taddrelu', 'tsubrelu']:
    ADAPTERS[_op] = bin2('pto_' + _op)
ADAPTERS['tshl'] = ew('pto_tshl', [None, None], model=shift64(True))
ADAPTERS['tshr'] = ew('pto_tshr', [None, None], model=shift64(False))
ADAPTERS['tfmod'] = ew('pto_tfmod', [None, None], model=fmod_npu)
ADAPTERS['tfmods'] = ew('pto_tfmods', [None], scalar=True, model=fmod_npu)
for _op in ['tands', 'tors', 'txors', 'tshls', 'tshrs']:
    ADAPTERS[_op] = ew('pto_' + _op, [None], scalar=True)
ADAPTERS['tnot'] = ew('pto_tnot', [IN1])
ADAPTERS['taddc'] = ew('pto_taddc', [None, None, None])
ADAPTERS['tsubc'] = ew('pto_tsubc', [None, None, None])
ADAPTERS['taddsc'] = ew('pto_taddsc', [None, None], scalar=True)
ADAPTERS['tsubsc'] = ew('pto_tsubsc', [None, None], scalar=True)
for _op, _fn, _o in [('tfusemuladd', 'pto_tfusedmuladd', ''),
                     ('tfusedmuladd', 'pto_tfusedmuladd', ''),
                     ('tfusemuladdrelu', 'pto_tfusedmuladdrelu', 'relu'),
                     ('tfusedmuladdrelu', 'pto_tfusedmuladdrelu', 'relu'),
                     ('tmuladddst', 'pto_tmuladddst', 'dst')]:
    ADAPTERS[_op] = ew(_fn, [None, None], model=fused(_o), dst_file='input_dst.bin|dst.bin|input_dst_init.bin')


def tile_for(dt, r, c, base=(1, 1)):
    """A tile of r x c valid (a zero extent takes base's as the tile's)."""
    return Tile(dt, r or base[0], c or base[1], r, c)


def part(fname):
    """TPARTMAX/TPARTMIN/TPARTMUL: each tile its own valid region
    (dst_vr x dst_vc, src0_vr..., src1_vr...); inputs are the sources'
    valid regions, the golden dst's."""
    def run(case, p, args):
        fn = getattr(LIB, fname)
        if hasattr(p, 'g'):  # the CPU suite's: src0 and dst H x W, src1 VALID_H x VALID_W
            p = types.SimpleNamespace(dtype=p.args[0], dst_vr=p.g['H'], dst_vc=p.g['W'],
                                      src0_vr=p.g['H'], src0_vc=p.g['W'],
                                      src1_vr=p.g['VALID_H'], src1_vc=p.g['VALID_W'])
        dt = dtype_of(p)
        if hasattr(p, 'dst_vr'):
            d = (p.dst_vr, p.dst_vc)
            s0, s1 = (p.src0_vr, p.src0_vc), (p.src1_vr, p.src1_vc)
        else:
            d, s0, s1 = (p.drows, p.dcols), (p.s0rows, p.s0cols), (p.s1rows, p.s1cols)
            if any(st != sh[1] and sh[0] * sh[1] for st, sh in
                   ((p.d_row_stride, d), (p.s0_row_stride, s0), (p.s1_row_stride, s1))):
                raise Skip('row strides other than the valid columns')
        dst = tile_for(dt, *d)
        srcs = []
        for k, sh in enumerate((s0, s1)):
            if sh[0] and sh[1]:
                _, bits = pto_dtype(dt)
                m = read_matrix(find(case, numbered(case, k)), bits, [sh, d])
                t = Tile(dt, m.shape[0], m.shape[1], *sh)
                t.put(m)
            else:
                t = tile_for(dt, *sh, base=d)
            srcs.append(t)
        check(fn(dst.h, srcs[0].h, srcs[1].h), fname)
        want = read_matrix(find(case, 'golden.bin'), dst.bits, [d])
        return compare(dst.valid(), want, dt)
    return run


for _op in ['tpartmax', 'tpartmin', 'tpartmul']:
    ADAPTERS[_op] = part('pto_' + _op)


def pairsum(dt, srcs, scalar, old):
    """The page's TPAIRREDUCESUM (pto_c.h, [F-TPAIRREDUCESUM]): ceil(C/2)
    pair sums, an odd row's last element plus 0, the rest of the row +0."""
    x = srcs[0].astype(np.float32)
    R, C = x.shape
    if C % 2:
        x = np.concatenate([x, np.zeros((R, 1), np.float32)], axis=1)
    r = np.zeros((R, C), np.float32)
    h = (C + 1) // 2
    r[:, :h] = x[:, 0::2][:, :h] + x[:, 1::2][:, :h]
    return r.astype(np.dtype(dt)), 'the page\'s ceil(C/2) pair sums'


ADAPTERS['tpairreducesum'] = ew('pto_tpairreducesum', [None], model=pairsum)


def rowprod(case, p, args):
    dt = dtype_of(p)
    if hasattr(p, 'src_valid_col'):  # A2A3's: dst_row, src_row, valid_row, src_col, src_valid_col
        R, C, vr, vc = p.src_row, p.src_col, p.valid_row, p.src_valid_col
        gshape = [(p.dst_row, 1)]
    elif hasattr(p, 'tile_row'):
        R, C = p.tile_row, p.tile_col
        vr, vc = valid_of(p)
        gshape = [(R, C)]
    else:
        R, C, vr, vc = p.row, p.col, p.valid_row, p.valid_col
        gshape = [(R, 1)]
    src = Tile(dt, R, C, vr, vc)
    src.put(read_matrix(find(case, 'input.bin'), src.bits, [(R, C)]))
    blk = 32 // src.bits.itemsize
    dst = Tile(dt, R, blk, vr, 1)
    tmp = Tile(dt, R, blk)
    check(LIB.pto_trowprod(dst.h, src.h, tmp.h), 'pto_trowprod')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, gshape)[:vr, :1]
    res = compare(dst.valid(), want, dt)
    if res is not None:
        exp, rule = prod_model(typed(src.valid(), dt), dt, 1)
        if np.array_equal(dst.valid(), np.asarray(exp).astype(np.dtype(dt)).view(dst.bits).reshape(vr, 1)):
            raise Documented('%s; libpto = %s bit for bit' % (res, rule))
    return res


def colprod(case, p, args):
    dt = dtype_of(p)
    if hasattr(p, 'src_valid_row'):  # A2A3's: the input is the valid rows
        R, C, vr, vc = p.src_row, p.col, p.src_valid_row, p.col
    else:
        R, C, vr, vc = p.row, p.col, p.valid_row, p.valid_col
    src = Tile(dt, R, C, vr, vc)
    src.put(read_matrix(find(case, 'input.bin'), src.bits, [(R, C), (vr, C)]))
    dst = Tile(dt, 1, C, 1, vc)
    check(LIB.pto_tcolprod(dst.h, src.h), 'pto_tcolprod')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(1, C)])[:1, :vc]
    res = compare(dst.valid(), want, dt)
    if res is not None:
        exp, rule = prod_model(typed(src.valid(), dt), dt, 0)
        if np.array_equal(dst.valid(), np.asarray(exp).astype(np.dtype(dt)).view(dst.bits).reshape(1, vc)):
            raise Documented('%s; libpto = %s bit for bit' % (res, rule))
    return res


def prod_model(x, dt, axis):
    """pto_c.h's TROWPROD / TCOLPROD orders, each product rounded to the
    element type (integers wrap)."""
    t = np.dtype(dt)
    with np.errstate(all='ignore'):
        if axis == 0:
            if SUITE == 'a2a3':
                r = x[0].copy()
                for i in range(1, x.shape[0]):
                    r = (r * x[i]).astype(t)
                return r, 'A2A3 row after row'
            r = x[0].copy()
            i = 1
            while i + 1 < x.shape[0]:
                r = (r * (x[i] * x[i + 1]).astype(t)).astype(t)
                i += 2
            if i < x.shape[0]:
                r = (r * x[i]).astype(t)
            return r, 'row 0 times the row pairs\' products in turn'
        out = []
        for row in x:
            if SUITE == 'a2a3':
                E = 32 // t.itemsize
                lanes = np.ones(E, t)
                for k in range(0, len(row), E):
                    seg = row[k:k + E]
                    lanes[:len(seg)] = (lanes[:len(seg)] * seg).astype(t)
                acc = np.float32(1)
                for v in lanes:
                    acc = np.float32(acc * np.float32(v)) if t.kind == 'f' else (acc * v)
                out.append(np.array(acc).astype(t) if t.kind == 'f' else lanes.prod(dtype=t))
            else:
                E = 64 if t == np.float32 or t.itemsize == 4 else 128
                lanes = np.ones(E, t)
                for k in range(0, len(row), E):
                    seg = row[k:k + E]
                    lanes[:len(seg)] = (lanes[:len(seg)] * seg).astype(t)
                n = E
                while n > 1:
                    n //= 2
                    lanes[:n] = (lanes[:n] * lanes[n:2 * n]).astype(t)
                out.append(lanes[0])
        rule = 'A2A3 32-byte lanes then float32 left to right' if SUITE == 'a2a3' else \
            'E lane products halved down to lane 0'
        return np.array(out, t), rule


ADAPTERS['trowprod'] = rowprod
ADAPTERS['tcolprod'] = colprod


CONV_TYPES = {'f322f16': (np.float32, np.float16), 'f162s8': (np.float16, np.int8),
              's162s8': (np.int16, np.int8)}


def reluconv(fname, sub):
    """TADDRELUCONV / TSUBRELUCONV: type_path names (src, dst) dtypes; inputs
    and golden are row x col, the golden zero outside the valid region."""
    def run(case, p, args):
        st, dt = CONV_TYPES[p.type_path]
        R, C = p.row, p.col
        vr, vc = attr(p, 'valid_row', default=R), attr(p, 'valid_col', default=C)
        srcs = []
        for k in range(2):
            t = Tile(st, R, C, vr, vc)
            t.put(read_matrix(find(case, 'input%d.bin' % k), t.bits, [(R, C)]))
            srcs.append(t)
        dst = Tile(dt, R, C, vr, vc)
        check(getattr(LIB, fname)(dst.h, srcs[0].h, srcs[1].h), fname)
        want = read_matrix(find(case, 'golden.bin'), dst.bits, [(R, C)])[:vr, :vc]
        res = compare(dst.valid(), want, dt)
        if res is not None:
            a, b = (typed(x.valid(), st) for x in srcs)
            with np.errstate(all='ignore'):
                v = (a - b if sub else a + b).astype(st)  # the sources' dtype, wrapping
            v = np.where(v > 0, v, 0).astype(st)
            if dt == np.float16:
                f = v.astype(np.float16)
                f[np.isinf(f) & np.isfinite(v)] = np.float16(65504)
            else:
                f = np.clip(np.round(v.astype(np.float64)), 0, 127).astype(np.int8)
            if np.array_equal(dst.valid(), f.view(dst.bits)):
                raise Documented('%s; libpto = the %s in the sources\' dtype, then relu and a '
                                 'saturating conversion (pto_c.h) bit for bit' % (res, 'difference' if sub else 'sum'))
        return res
    return run


ADAPTERS['taddreluconv'] = reluconv('pto_taddreluconv', False)
ADAPTERS['tsubreluconv'] = reluconv('pto_tsubreluconv', True)


def partarg(fname):
    """TPARTARGMAX / TPARTARGMIN: values and indices, each tile its shape and
    valid region (A5's dst_tr/dst_vr..., A2A3's *_size and valid_size0/1,
    dst's valid region the larger)."""
    def run(case, p, args):
        if hasattr(p, 'g'):  # the CPU suite's: H x W tiles, src1's valid VALID_H x VALID_W
            g = p.g
            p = types.SimpleNamespace(dtype=np.float32, idx_type=np.uint32,
                                      dst_tr=g['H'], dst_tc=g['W'], dst_vr=g['H'], dst_vc=g['W'],
                                      src0_tr=g['H'], src0_tc=g['W'], src0_vr=g['H'], src0_vc=g['W'],
                                      src1_tr=g['H'], src1_tc=g['W'], src1_vr=g['VALID_H'],
                                      src1_vc=g['VALID_W'])
        if hasattr(p, 'dst_tr'):
            vt, it = p.dtype, p.idx_type
            tiles = {'d': ((p.dst_tr, p.dst_tc), (p.dst_vr, p.dst_vc)),
                     's0': ((p.src0_tr, p.src0_tc), (p.src0_vr, p.src0_vc)),
                     's1': ((p.src1_tr, p.src1_tc), (p.src1_vr, p.src1_vc))}
            ishape = {k: v[0] for k, v in tiles.items()}
            files = {'s0': ('input0_val.bin', 'input0_idx.bin'), 's1': ('input1_val.bin', 'input1_idx.bin'),
                     'd': ('golden_val.bin', 'golden_idx.bin')}
        else:
            vt, it = p.val_dtype, p.idx_dtype
            v0, v1 = tuple(p.valid_size0), tuple(p.valid_size1)
            big = (max(v0[0], v1[0]), max(v0[1], v1[1]))
            tiles = {'d': (tuple(p.dst_val_size), big), 's0': (tuple(p.src_val0_size), v0),
                     's1': (tuple(p.src_val1_size), v1)}
            ishape = {'d': tuple(p.dst_idx_size), 's0': tuple(p.src_idx0_size),
                      's1': tuple(p.src_idx1_size)}
            files = {'s0': ('src_val0.bin', 'src_idx0.bin'), 's1': ('src_val1.bin', 'src_idx1.bin'),
                     'd': ('dst_val.bin', 'dst_idx.bin')}
        made = {}
        for k, ((R, C), (vr, vc)) in tiles.items():
            IR, IC = ishape[k]
            # an empty valid region may have an extent past the tile's
            v = Tile(vt, max(R, vr), max(C, vc), vr, vc)
            i = Tile(it, max(IR, vr), max(IC, vc), vr, vc)
            if k != 'd':
                v.put(read_matrix(find(case, files[k][0]), v.bits, [(R, C)]))
                i.put(read_matrix(find(case, files[k][1]), i.bits, [(IR, IC)]))
            made[k] = (v, i)
        (d, di), (s0, i0), (s1, i1) = made['d'], made['s0'], made['s1']
        check(getattr(LIB, fname)(d.h, s0.h, s1.h, i0.h, i1.h, di.h), fname)
        vr, vc = tiles['d'][1]
        R, C = tiles['d'][0]
        want_v = read_matrix(find(case, files['d'][0]), d.bits, [(R, C)])[:vr, :vc]
        want_i = read_matrix(find(case, files['d'][1]), di.bits, [ishape['d']])[:vr, :vc]
        r1, r2 = compare(d.valid(), want_v, vt), compare(di.valid(), want_i)
        if r1 is None and r2 is None:
            return None
        return 'values: %s; indices: %s' % (r1 or 'equal', r2 or 'equal')
    return run


ADAPTERS['tpartargmax'] = partarg('pto_tpartargmax')
ADAPTERS['tpartargmin'] = partarg('pto_tpartargmin')


def adddeqrelu(case, p, args):
    """TADDDEQRELU: INT32 sources row x col, dst FLOAT16, deq_scale; tmp an
    INT32 tile of dst's shape."""
    R, C, vr, vc = p.row, p.col, p.valid_row, p.valid_col
    srcs = []
    for k in range(2):
        t = Tile(np.int32, R, C, vr, vc)
        t.put(read_matrix(find(case, 'input%d.bin' % k), t.bits, [(R, C), (vr, vc)]))
        srcs.append(t)
    dst, tmp = Tile(np.float16, R, C, vr, vc), Tile(np.int32, R, C, vr, vc)
    check(LIB.pto_tadddeqrelu(dst.h, srcs[0].h, srcs[1].h, tmp.h, float(p.deq_scale)),
          'pto_tadddeqrelu')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(R, C), (vr, vc)])[:vr, :vc]
    res = compare(dst.valid(), want, np.float16)
    if res is not None:
        with np.errstate(all='ignore'):
            a = (srcs[0].valid().view(np.int32) + srcs[1].valid().view(np.int32)).astype(np.float32)
            v = a * np.float32(2.0 ** -17) * np.float32(p.deq_scale) * np.float32(2.0 ** 17)
            v = np.where(v > 0, v, np.float32(0)) if not np.isnan(v).any() else v
            h = v.astype(np.float16)
            h[np.isinf(h) | (v > 65504)] = np.float16(65504)
        if np.array_equal(dst.valid(), h.view(np.uint16)):
            raise Documented('%s; libpto = the float32 sequence of pto_c.h bit for bit' % res)
    return res


ADAPTERS['tadddeqrelu'] = adddeqrelu


def mgs_shapes(kw):
    """(tile shape, index shape, table elements, coalesce) of an MGATHER /
    MSCATTER case from its generator function and arguments."""
    fn = kw['__fn__']
    if fn.endswith('_nz'):
        raise Skip('an NZ global table: libpto\'s table is row-major (pto_c.h)')
    if fn == 'case_row':
        r = kw.get('dst_rows', kw.get('r'))
        c = kw.get('dst_cols', kw.get('c'))
        tr = kw.get('table_rows', kw.get('tr'))
        return (r, c), (r, 1), tr * c, ENUM['COALESCE_ROW']
    if fn == 'case_elem':
        return (1, kw['n']), (1, kw['n']), kw['ts'], ENUM['COALESCE_ELEM']
    if fn in ('case_elem2d', 'case_elem2d_dyn'):
        r, c = kw.get('r', kw.get('valid_r')), kw.get('c', kw.get('valid_c'))
        return (r, c), (r, c), kw.get('ts', kw.get('table_total')), ENUM['COALESCE_ELEM']
    raise Skip('generator %s not mapped' % fn)


def mgather(case, p, args):
    """The generators' oob (undefined, clamp, wrap, zero) is pto_mgather_oob's
    GatherOOB; undefined refuses an index past the table."""
    kw = p.kw
    (R, C), ish, n, co = mgs_shapes(kw)
    dt = kw['dtype']
    dst = Tile(dt, R, C)
    idx = Tile(np.int32, *ish)
    idx.put(read_matrix(find(case, 'indices.bin'), idx.bits, [ish]))
    table = np.fromfile(find(case, 'table.bin'), dst.bits)
    if table.size != n:
        raise Skip('table of %d elements, expected %d' % (table.size, n))
    oob = ENUM['GATHER_OOB_' + kw.get('oob', 'undefined').upper()]
    check(LIB.pto_mgather_oob(dst.h, table.ctypes.data, n, dst.pto, idx.h, co, oob), 'pto_mgather_oob')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(R, C)])
    return compare(dst.valid(), want, dt)


def mscatter(case, p, args):
    """The generators' atomic (none, add, max, min) and oob (undefined, skip,
    clamp, wrap) are pto_mscatter_ex's; every conflict mode of theirs
    without an atomic writes in order (the last write wins), as libpto
    does."""
    kw = p.kw
    (R, C), ish, n, co = mgs_shapes(kw)
    dt = kw['dtype']
    src = Tile(dt, R, C)
    src.put(read_matrix(find(case, 'src.bin'), src.bits, [(R, C)]))
    idx = Tile(np.int32, *ish)
    idx.put(read_matrix(find(case, 'indices.bin'), idx.bits, [ish]))
    atomic = ENUM['SCATTER_ATOMIC_' + kw.get('atomic', 'none').upper()]
    oob = ENUM['SCATTER_OOB_' + kw.get('oob', 'undefined').upper()]
    table = np.zeros(n, src.bits)
    check(LIB.pto_mscatter_ex(table.ctypes.data, n, src.pto, src.h, idx.h, co, atomic, oob),
          'pto_mscatter_ex')
    want = np.fromfile(find(case, 'golden.bin'), src.bits)
    return compare(table.reshape(1, -1), want.reshape(1, -1), dt)


ADAPTERS['mgather'] = mgather
ADAPTERS['mscatter'] = mscatter


def gatherb(case, p, args):
    """TGATHERB: src src_s1 x src_s0, dst dst_s1 x dst_s0, UINT32 byte
    offsets one per 32-byte block of dst (dst_s1 x dst_s0 / block)."""
    dt = p.dtype
    src = Tile(dt, p.src_s1, p.src_s0)
    src.put(read_matrix(find(case, 'x.bin'), src.bits, [(p.src_s1, p.src_s0)]))
    dst = Tile(dt, p.dst_s1, p.dst_s0)
    oc = p.dst_s0 // (32 // dst.bits.itemsize)
    off = Tile(np.uint32, p.dst_s1, oc)
    off.put(read_matrix(find(case, 'offset.bin'), off.bits, [(p.dst_s1, oc)]))
    check(LIB.pto_tgatherb(dst.h, src.h, off.h), 'pto_tgatherb')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(p.dst_s1, p.dst_s0)])
    return compare(dst.valid(), want, dt)


ADAPTERS['tgatherb'] = gatherb


def dequant(case, p, args):
    """TDEQUANT: the CPU/A5 generators' row x col tiles with (row, 1) scale
    and offset; A2A3's own dst, src and parameter tile shapes."""
    if hasattr(p, 'dst_valid_rows'):
        st, dt = p.src_dtype, p.dst_dtype
        vr, vc = p.dst_valid_rows, p.dst_valid_cols
        ds, ss, ps = (p.dst_rows, p.dst_cols), (p.src_rows, p.src_cols), (p.para_rows, p.para_cols)
        names = ('srcInput.bin', 'scaleInput.bin', 'offsetInput.bin')
    else:
        st, dt = p.src_type, p.dst_type
        vr, vc = p.valid_row, p.valid_col
        ds = ss = (p.row, p.col)
        ps = (p.row, 1)
        names = ('input.bin', 'scale.bin', 'offset.bin')
    src = Tile(st, *ss, vr, vc)
    src.put(read_matrix(find(case, names[0]), src.bits, [ss]))
    par = []
    for n in names[1:]:
        t = Tile(dt, *ps, vr, 1)
        t.put(read_matrix(find(case, n), t.bits, [ps]))
        par.append(t)
    dst = Tile(dt, *ds, vr, vc)
    check(LIB.pto_tdequant(dst.h, src.h, par[0].h, par[1].h), 'pto_tdequant')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [ds])[:vr, :vc]
    return compare(dst.valid(), want, dt)


ADAPTERS['tdequant'] = dequant


def interleave(fname):
    """TINTERLEAVE / TDEINTERLEAVE: the CPU suite's row x col tiles (mode 1:
    TDEINTERLEAVE's single source, row x 2col), A5's tile_h x tile_w tiles
    with a valid region (gen_golden_data_single_src: one source of the
    valid region, destinations of half its columns)."""
    def run(case, p, args):
        dt = p.dtype
        single = getattr(p, 'mode', 0) == 1 or p.kw_fn == 'gen_golden_data_single_src'
        if hasattr(p, 'tile_h'):
            R, C, vr, vc = p.tile_h, p.tile_w, p.valid_row, p.valid_col
            ins, outs = ('input1.bin', 'input2.bin'), ('golden0.bin', 'golden1.bin')
            if single:
                ins = ('input_interleaved.bin',)
        else:
            R, C = p.row, p.col
            vr, vc = R, C
            ins, outs = ('input0.bin', 'input1.bin'), ('dst0.bin', 'dst1.bin')
            if single:
                ins = ('src.bin',)
        if single:
            sw = 2 * C if not hasattr(p, 'tile_h') else C
            src = Tile(dt, R, sw, vr, 2 * vc if not hasattr(p, 'tile_h') else vc)
            src.put(read_matrix(find(case, ins[0]), src.bits, [(R, sw)]))
            dvc = vc if not hasattr(p, 'tile_h') else vc // 2
            d0, d1 = Tile(dt, R, C, vr, dvc), Tile(dt, R, C, vr, dvc)
            check(LIB.pto_tdeinterleave_single(d0.h, src.h, d1.h), 'pto_tdeinterleave_single')
        else:
            srcs = []
            for n in ins:
                t = Tile(dt, R, C, vr, vc)
                t.put(read_matrix(find(case, n), t.bits, [(R, C)]))
                srcs.append(t)
            d0, d1 = Tile(dt, R, C, vr, vc), Tile(dt, R, C, vr, vc)
            check(getattr(LIB, fname)(d0.h, srcs[0].h, srcs[1].h, d1.h), fname)
        res = []
        for d, n in zip((d0, d1), outs):
            want = read_matrix(find(case, n), d.bits, [(R, C)])[:d.vr, :d.vc]
            r = compare(d.valid(), want, dt)
            if r:
                res.append('%s: %s' % (n, r))
        return '; '.join(res) or None
    return run


ADAPTERS['tinterleave'] = interleave('pto_tinterleave')
ADAPTERS['tdeinterleave'] = interleave('pto_tdeinterleave')


def histogram(case, p, args):
    """THISTOGRAM: UINT16 src (msb_or_lsb: byte 1, or byte 0 filtered by
    idx, one byte per row) or UINT32 src (byte; idx rows of filter bytes)."""
    R, C = p.rows, p.cols
    if hasattr(p, 'byte'):
        st, hb = np.uint32, p.byte
        ishape = (3 - hb, C) if hb < 3 else (1, 1)
    else:
        st, hb = np.uint16, 1 if p.msb_or_lsb == 'MSB' else 0
        ishape = (R, 1)
    src = Tile(st, R, C)
    src.put(read_matrix(find(case, 'input.bin'), src.bits, [(R, C)]))
    idx = Tile(np.uint8, *ishape)
    idx.put(read_matrix(find(case, 'idx.bin'), idx.bits, [ishape]))
    dst = Tile(np.uint32, R, 256)
    check(LIB.pto_thistogram(dst.h, src.h, idx.h, hb), 'pto_thistogram')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(R, 256)])
    return compare(dst.valid(), want)


ADAPTERS['thistogram'] = histogram


def insert_nd(p):
    """The NPU suites' row-major Vec -> Vec TINSERT generators (A5's
    gen_nd_vec*, A2A3's gen_nd_case / gen_nd_scalar_case): (dtype, src
    shape, src valid, dst shape, index)."""
    kw, fn = p.kw, p.kw['__fn__']
    if fn in ('gen_nd_vec', 'gen_nd_vec_valid'):
        q = kw['p']
        ss = (q.src_rows, getattr(q, 'padded_cols', getattr(q, 'src_cols', None)))
        sv = (q.src_rows, getattr(q, 'valid_cols', ss[1]))
        return q.dtype, ss, sv, (q.dst_rows, q.dst_cols), (q.idx_row, q.idx_col)
    if fn in ('gen_nd_vec_scalar', 'gen_nd_scalar_case'):
        dt = kw['dtype']
        ds = (kw.get('dst_rows', kw.get('dst_static_rows')), kw.get('dst_cols', kw.get('dst_static_cols')))
        return dt, (1, 32 // np.dtype(dt).itemsize), (1, 1), ds, (kw['idx_row'], kw['idx_col'])
    if fn == 'gen_nd_case':
        return (kw['dtype'], (kw['src_static_rows'], kw['src_static_cols']),
                (kw['src_valid_rows'], kw['src_valid_cols']),
                (kw['dst_static_rows'], kw['dst_static_cols']), (kw['idx_row'], kw['idx_col']))
    raise Skip('generator %s not mapped' % fn)


def insert(case, p, args):
    if p.kw_fn != 'gen_golden_data':  # the NPU suites': dst starts as dst_init, the golden is all of dst
        dt, ss, sv, ds, (ir, ic) = insert_nd(p)
        src = Tile(dt, *ss, *sv)
        src.put(read_matrix(find(case, 'src_input.bin'), src.bits, [ss]))
        dst = Tile(dt, *ds)
        dst.put(read_matrix(find(case, 'dst_init.bin'), dst.bits, [ds]))
        check(LIB.pto_tinsert(dst.h, src.h, ir, ic), 'pto_tinsert')
        want = read_matrix(find(case, 'golden_output.bin'), dst.bits, [ds])
        return compare(dst.valid(), want, dt)
    """TINSERT, the CPU suite's: src's valid region into dst's bottom-right
    corner (main.cpp: index dst valid - src valid); row-major Vec -> Vec
    only."""
    if (p.src_loc, p.dst_loc) != ('Vec', 'Vec'):
        raise Skip('%s -> %s: the cube forms of TINSERT are not provided (pto_c.h)'
                   % (p.src_loc, p.dst_loc))
    if (p.src_layout, p.dst_layout) != (0, 0):
        raise Skip('layouts %d, %d (main.cpp\'s non-row-major tiles)' % (p.src_layout, p.dst_layout))
    svr, svc, dvr, dvc = p.src_valid_rows, p.src_valid_cols, p.dst_valid_rows, p.dst_valid_cols
    src = Tile(p.src_type, p.rows, p.cols, svr, svc)
    src.put(read_matrix(find(case, 'input.bin'), src.bits, [(svr, svc)]))
    dst = Tile(p.dst_type, p.rows, p.cols, dvr, dvc)
    check(LIB.pto_tinsert(dst.h, src.h, dvr - svr, dvc - svc), 'pto_tinsert')
    want = read_matrix(find(case, 'golden.bin'), dst.bits, [(dvr, dvc)])
    return compare(dst.valid(), want, p.dst_type)


ADAPTERS['tinsert'] = insert
ADAPTERS['tinsert_vec'] = insert


def no_golden(reason):
    def run(case, p, args):
        raise Skip(reason)
    return run


ADAPTERS['trandom'] = no_golden('gen_data.py writes only the key and counter; main.cpp computes '
                                'the golden (tests/test_random.c checks TRANDOM against A5\'s Philox)')
ADAPTERS['ttri'] = no_golden('checked against pto-isa\'s ST shapes in tests/test_ttri.c')
ADAPTERS['timg2col'] = no_golden('checked against pto-isa\'s ST cases in tests/test_img2col.c')
ADAPTERS['tprefetch'] = no_golden('no C function: TPREFETCH is a hint in programs only '
                                  '(docs/isa-status.md)')


def quant(case, p, args):
    """TQUANT's INT8 forms (A2A3's suite): FLOAT32 src of the valid region,
    one inverse scale (and offset, asymmetric) per row; its MX forms (A5's
    suite) are tools/st-tquant-mx.py's."""
    if p.out_dtype_str not in ('int8_sym', 'int8_asym'):
        raise Skip('%s: the MX forms, checked by tools/st-tquant-mx.py' % p.out_dtype_str)
    if p.mode != 'nd':
        raise Skip('mode %s' % p.mode)
    sym = p.out_dtype_str == 'int8_sym'
    R, C = p.valid_rows, p.valid_cols
    src = Tile(np.float32, R, C)
    src.put(read_matrix(find(case, 'input.bin'), src.bits, [(R, C)]))
    scale = Tile(np.float32, R, 1)
    scale.put(read_matrix(find(case, 'inv_scale_fp32.bin'), scale.bits, [(R, 1)]))
    off = None
    if not sym:
        off = Tile(np.float32, R, 1)
        off.put(read_matrix(find(case, 'offset_fp32.bin'), off.bits, [(R, 1)]))
    dt = np.int8 if sym else np.uint8
    dst, tmp = Tile(dt, R, C), Tile(np.float32, R, C)
    check(LIB.pto_tquant(dst.h, src.h, scale.h, off.h if off else None, tmp.h), 'pto_tquant')
    want = read_matrix(find(case, 'golden_s8.bin' if sym else 'golden_u8.bin'), dst.bits, [(R, C)])
    return compare(dst.valid(), want)


ADAPTERS['tquant'] = quant


# ---------------------------------------------------------------------------
# the low-precision formats (FP8, HiFloat8, FP4, INT4)

LOWP = {'float8_e4m3fn': 'FLOAT8_E4M3', 'float8_e5m2': 'FLOAT8_E5M2', 'hifloat8': 'HIFLOAT8',
        'float8_e8m0fnu': 'FLOAT8_E8M0', 'Float4E2M1': 'FLOAT4_E2M1X2',
        'Float4E1M2': 'FLOAT4_E1M2X2', 'fp4_e2m1x2': 'FLOAT4_E2M1X2',
        'fp4_e1m2x2': 'FLOAT4_E1M2X2', 'float4_e2m1': 'FLOAT4_E2M1X2',
        'float4_e1m2': 'FLOAT4_E1M2X2', 'Int4': 'INT4X2', 's4': 'INT4X2',
        'hif8': 'HIFLOAT8', 'f8e4m3': 'FLOAT8_E4M3', 'f8e5m2': 'FLOAT8_E5M2',
        'f8e8m0': 'FLOAT8_E8M0'}
PACKED = ('FLOAT4_E2M1X2', 'FLOAT4_E1M2X2', 'INT4X2')


def lowp_name(dt):
    """The pto dtype name of a generator's low-precision type, else None."""
    n = dt if isinstance(dt, str) else getattr(dt, '__name__', None) or type(dt).__name__
    return LOWP.get(n)


class RawTile(Tile):
    """A tile of a dtype by its pto name, its bits as bytes (8-bit and
    packed types) or the plain dtype's."""

    def __init__(self, name, rows, cols, vr=None, vc=None):
        bits = {'FLOAT32': np.uint32, 'FLOAT16': np.uint16, 'BFLOAT16': np.uint16}.get(name, np.uint8)
        self.pto, self.bits = ENUM[name], np.dtype(bits)
        self.h = ctypes.c_void_p()
        check(LIB.pto_tile_create(self.pto, rows, cols, ctypes.byref(self.h)), 'tile_create')
        self.rows, self.cols = rows, cols
        check(LIB.pto_tile_set_valid(self.h, rows if vr is None else vr,
                                     cols if vc is None else vc), 'set_valid')
        self.vr = rows if vr is None else vr
        self.vc = cols if vc is None else vc

    def logical(self):
        return self.array().copy()


def nibbles(packed):
    """Bytes of two codes each as the codes, low nibble first."""
    out = np.empty((packed.shape[0], packed.shape[1] * 2), np.uint8)
    out[:, 0::2] = packed & 0xF
    out[:, 1::2] = packed >> 4
    return out


ROUND = {'RoundMode::CAST_NONE': 0, 'RoundMode::CAST_RINT': 1, 'RoundMode::CAST_ROUND': 2,
         'RoundMode::CAST_FLOOR': 3, 'RoundMode::CAST_CEIL': 4, 'RoundMode::CAST_TRUNC': 5,
         'RoundMode::CAST_ODD': 6}


def cvt(case, p, args):
    """TCVT with a low-precision side: the CPU suite's (m x n, INT4 one code
    a byte in its files, FP4 packed; its SatMode), A5's (m x n with a valid
    region; FP8 / HiFloat8 of ml_dtypes / en_dtypes; its 'bfloat16' beside
    an FP4 type is BFLOAT16 bits, elsewhere numpy's float16; FLOAT16 ->
    HIFLOAT8 with CAST_ROUND as its kernel calls it) and A2A3's (FLOAT16 <->
    INT4 packed). The NPUs' TCVT without a SatMode saturates for these pairs
    (TCvt.hpp's defaults); the CPU suite names its mode."""
    sname, dname = lowp_name(p.srctype), lowp_name(p.dsttype)
    if sname is None and dname is None:
        raise Skip('no low-precision type (0.5\'s TCVT pairs: tests/test_tcvt*.c)')
    fp4_pair = (sname or dname).startswith('FLOAT4')
    def plain(dt):
        if SUITE == 'a5' and fp4_pair:
            return 'BFLOAT16'  # the generator's bfloat16 alias holds BFLOAT16 bits here
        return {np.dtype(np.float32): 'FLOAT32', np.dtype(np.float16): 'FLOAT16'}[np.dtype(dt)]
    sname = sname or plain(p.srctype)
    dname = dname or plain(p.dsttype)
    m, n = p.m, p.n
    vm, vn = getattr(p, 'valid_m', m), getattr(p, 'valid_n', n)
    def shape(name, cols, vcols):
        return (cols + 1) // 2 if name in PACKED else cols, (vcols + 1) // 2 if name in PACKED else vcols
    sc, svc = shape(sname, n, vn)
    dc, dvc = shape(dname, n, vn)
    src = RawTile(sname, m, sc, vm, svc)
    raw = np.fromfile(find(case, 'x1_gm.bin'), np.uint8)
    if sname == 'INT4X2' and SUITE == 'cpu':  # one code a byte: libpto packs two
        codes = raw.reshape(m, n)
        raw = (codes[:, 0::2] & 0xF) | ((codes[:, 1::2] & 0xF) << 4)
    src.put(raw.view(src.bits).reshape(m, sc))
    dst = RawTile(dname, m, dc, vm, dvc)
    mode = ROUND[p.mode]
    if SUITE == 'a5' and (sname, dname) == ('FLOAT16', 'HIFLOAT8'):
        mode = ROUND['RoundMode::CAST_ROUND']
    sat = 1 if getattr(p, 'saturation_mode', 'SatMode::ON') == 'SatMode::ON' else 0
    check(LIB.pto_tcvt(dst.h, src.h, None, mode, sat), 'pto_tcvt')
    g = np.fromfile(find(case, 'golden.bin'), np.uint8)
    got = dst.valid()
    if dname == 'INT4X2' and SUITE == 'cpu':
        want = (g.reshape(m, n)[:vm, :vn] & 0xF)
        got = nibbles(got)[:, :vn]
    else:
        want = g.view(dst.bits).reshape(m, dc)[:vm, :dvc]
    return compare(got, want, {'FLOAT32': np.float32, 'FLOAT16': np.float16,
                               'BFLOAT16': 'bfloat16'}.get(dname))


ADAPTERS['tcvt'] = cvt


class CubeTile(RawTile):
    """A cube tile (pto_tile_create_cube) of data's rows x cols, padded with
    zeros to whole boxes, valid region `valid`; written and read row-major
    with pto_tile_write / pto_tile_read."""

    def __init__(self, name, data, box, loc, layout, valid):
        bits = {'FLOAT32': np.uint32, 'INT32': np.uint32, 'FLOAT16': np.uint16,
                'BFLOAT16': np.uint16, 'UINT64': np.uint64, 'INT64': np.uint64}.get(name, np.uint8)
        self.pto, self.bits = ENUM[name], np.dtype(bits)
        r, c = data.shape
        R = r if r == 1 and box[0] == 1 else (r + box[0] - 1) // box[0] * box[0]
        C = (c + box[1] - 1) // box[1] * box[1]
        self.rows, self.cols = R, C
        self.h = ctypes.c_void_p()
        check(LIB.pto_tile_create_cube(self.pto, R, C, loc, layout, ctypes.byref(self.h)),
              'tile_create_cube')
        full = np.zeros((R, C), self.bits)
        full[:r, :c] = np.asarray(data).view(self.bits)
        check(LIB.pto_tile_write(self.h, full.ctypes.data, full.nbytes), 'tile_write')
        check(LIB.pto_tile_set_valid(self.h, *valid), 'set_valid')
        self.vr, self.vc = valid

    def logical(self):
        out = np.zeros((self.rows, self.cols), self.bits)
        check(LIB.pto_tile_read(self.h, out.ctypes.data, out.nbytes), 'tile_read')
        return out


def mx_scales(path, fmt, rows, cols, side):
    """The logical scale matrix (a: M x ceil(K/32), b: ceil(K/32) x N) from
    a case's file in the generator's format (a: zz, dn, nd; b: nn, dn, nd),
    each read by inverting the generator's own reshape."""
    f = np.fromfile(path, np.uint8)
    pad = lambda x, q: (x + q - 1) // q * q
    if side == 'a':
        if fmt == 'zz':  # (M/16, Ks/2, 16, 2) boxes, M padded to 16 and Ks to 2
            mp, kp = pad(rows, 16), pad(cols, 2)
            return f.reshape(mp // 16, kp // 2, 16, 2).transpose(0, 2, 1, 3).reshape(mp, kp)[:rows, :cols]
        if fmt == 'dn':
            return f.reshape(cols // 2, rows, 2).transpose(1, 0, 2).reshape(rows, cols)
        return f.reshape(rows, cols)
    if fmt == 'nn':  # (N/16, Ks/2, 16, 2) boxes
        kp, np_ = pad(rows, 2), pad(cols, 16)
        return f.reshape(np_ // 16, kp // 2, 16, 2).transpose(1, 3, 0, 2).reshape(kp, np_)[:rows, :cols]
    if fmt == 'dn':
        return f.reshape(cols, rows).T
    if fmt == 'plain':  # tmatmul_mx_nddn's files: the matrices themselves
        return f.reshape(rows, cols)
    return f.reshape(rows // 2, cols, 2).transpose(0, 2, 1).reshape(rows, cols)


def matmul_mx(case, p, args):
    """TMATMUL_MX (and its GEMV and bias forms; the bias + acc cases' result
    is the bias form's, the exact sum): the CPU suite's row-major tiles under
    HOST, a (M x K) and b (K x N) of the case's FP8 / FP4 types (FP4 two
    values a byte, column 2k in the low nibble, as the generator packs them),
    the E8M0 scales as M x ceil(K/32) and ceil(K/32) x N matrices (the
    generator's zz / nn / dn / nd files read back into them), dst FLOAT32;
    under A5 the same matrices in A5's cube tiles (left NZ, right ZN, acc
    NZ, scaling ZZ / NN, bias), written row-major by pto_tile_write."""
    an, bn = lowp_name(p.atype), lowp_name(p.btype)
    fp4 = lambda n: n.startswith('FLOAT4')
    m, k, n = p.m, p.k, p.n
    ks = (k + 31) // 32
    a_data = np.fromfile(find(case, 'x1_gm.bin'), np.uint8).reshape(m, k // 2 if fp4(an) else k)
    b_data = np.fromfile(find(case, 'x2_gm.bin'), np.uint8).reshape(k, n // 2 if fp4(bn) else n)
    sa_data = mx_scales(find(case, 'x1_mx_gm.bin'), getattr(p, 'scale_a_format', 'plain'), m, ks, 'a')
    sb_data = mx_scales(find(case, 'x2_mx_gm.bin'), getattr(p, 'scale_b_format', 'plain'), ks, n, 'b')
    if SUITE == 'cpu':
        a, b = RawTile(an, *a_data.shape), RawTile(bn, *b_data.shape)
        sa, sb = RawTile('FLOAT8_E8M0', m, ks), RawTile('FLOAT8_E8M0', ks, n)
        dst = RawTile('FLOAT32', m, n)
        for t, d in ((a, a_data), (b, b_data), (sa, sa_data), (sb, sb_data)):
            t.put(d)
    else:  # A5's cube tiles (pto_c.h, TMATMUL_MX under A5), zero-padded to whole boxes
        per = 2 if fp4(an) else 1
        a = CubeTile(an, a_data, (16, 64 // per), 2, 1, (m, k // per))  # LEFT NZ
        b = CubeTile(bn, b_data, (64, 32), 3, 2, (k, n // (2 if fp4(bn) else 1)))  # RIGHT ZN
        sa = CubeTile('FLOAT8_E8M0', sa_data, (16, 2), 6, 3, (m, ks))  # SCALING ZZ
        sb = CubeTile('FLOAT8_E8M0', sb_data, (2, 16), 6, 4, (ks, n))  # SCALING NN
        dst = CubeTile('FLOAT32', np.zeros((m, n), np.uint32), (16, 16), 4, 1, (m, n))  # ACC NZ
    gemv = 'gemv' if m == 1 else 'matmul'
    if p.is_bias:
        bias_data = np.fromfile(find(case, 'bias_gm.bin'), np.float32).view(np.uint32).reshape(1, n)
        if SUITE == 'cpu':
            bias = RawTile('FLOAT32', 1, n)
            bias.put(bias_data)
        else:
            bias = CubeTile('FLOAT32', bias_data, (1, 16), 5, 0, (1, n))  # BIAS
        fname = 'pto_t%s_mx_bias' % gemv
        check(getattr(LIB, fname)(dst.h, a.h, sa.h, b.h, sb.h, bias.h), fname)
    else:
        fname = 'pto_t%s_mx' % gemv
        check(getattr(LIB, fname)(dst.h, a.h, sa.h, b.h, sb.h), fname)
    want = np.fromfile(find(case, 'golden.bin'), np.uint32).reshape(m, n)
    return compare(dst.logical()[:m, :n], want, np.float32)


ADAPTERS['tmatmul_mx'] = matmul_mx
ADAPTERS['tmatmul_mx_nddn'] = matmul_mx


def trans(case, p, args):
    """TTRANS of the 8-bit low-precision types, bits moved: the CPU suite's
    m x n (its hifloat8 case), A5's src_row x src_col tile with a valid
    region into dst_row x dst_col (dtype_name: hif8, f8e4m3, f8e5m2,
    f8e8m0, the data int8 bits)."""
    m = re.match(r'TTRANSTest\.case_([a-z0-9]+)_', getattr(p, 'name', ''))  # A5: the name's dtype_name
    name = lowp_name(m.group(1) if m else '') or lowp_name(attr(p, 'srctype', 'dtype'))
    if name is None:
        raise Skip('no low-precision type (0.5\'s TTRANS: tests/test_ttrans*.c)')
    if hasattr(p, 'src_row'):
        (sr, sc), (dr, dc), (vr, vc) = (p.src_row, p.src_col), (p.dst_row, p.dst_col), (p.valid_row, p.valid_col)
        ins = 'input.bin'
    else:
        (sr, sc), (dr, dc), (vr, vc) = (p.m, p.n), (p.n, p.m), (p.m, p.n)
        ins = 'x1_gm.bin'
    src = RawTile(name, sr, sc, vr, vc)
    src.put(np.fromfile(find(case, ins), np.uint8).reshape(sr, sc))
    dst = RawTile(name, dr, dc, vc, vr)
    tmp = RawTile(name, 1, 32)
    check(LIB.pto_ttrans(dst.h, src.h, tmp.h), 'pto_ttrans')
    want = np.fromfile(find(case, 'golden.bin'), np.uint8).reshape(dr, dc)[:vc, :vr]
    return compare(dst.valid(), want)


ADAPTERS['ttrans'] = trans



# --- tload, tstore, tstore_acc2gm, tload_mx_* ---

def np_name(dt):
    """The pto dtype name of a generator's numpy / ml_dtypes / en_dtypes type."""
    n = lowp_name(dt)
    if n is not None:
        return n
    s = getattr(dt, '__name__', None) or str(dt)
    if s == 'bfloat16':
        return 'BFLOAT16'
    return {np.dtype(np.float32): 'FLOAT32', np.dtype(np.float16): 'FLOAT16',
            np.dtype(np.int8): 'INT8', np.dtype(np.uint8): 'UINT8', np.dtype(np.int16): 'INT16',
            np.dtype(np.uint16): 'UINT16', np.dtype(np.int32): 'INT32',
            np.dtype(np.uint32): 'UINT32', np.dtype(np.int64): 'INT64',
            np.dtype(np.uint64): 'UINT64'}[np.dtype(dt)]


BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
SIZE = {'FLOAT32': 4, 'INT32': 4, 'UINT32': 4, 'FLOAT16': 2, 'BFLOAT16': 2, 'INT16': 2,
        'UINT16': 2, 'INT64': 8, 'UINT64': 8}


def bits_of(name):
    return np.dtype(BITS[SIZE.get(name, 1)])


def acc_from_ends(case, p, sname, acc_name):
    """The acc tile's values: x1 (m x k) times x2 (k x n) of the case's
    integer-valued inputs, exact in float64 and in the acc's dtype (every
    order of the sum gives these bits), as FLOAT32 or INT32 bits."""
    import ml_dtypes
    m, k, n = p.m, p.k, p.n
    def values(f, r, c):
        raw = np.fromfile(f, bits_of(sname))
        return raw.view(p.src_data_type).astype(np.float64).reshape(r, c) if sname != 'BFLOAT16' \
            else raw.view(ml_dtypes.bfloat16).astype(np.float64).reshape(r, c)
    a = values(find(case, 'x1_gm.bin'), m, k)
    b = values(find(case, 'x2_gm.bin'), k, n)
    c = a @ b
    if not (np.all(c == np.round(c)) and np.abs(c).max() < 2 ** 24):
        raise Skip('the product is not exact in float32')
    return (c.astype(np.int32) if acc_name == 'INT32' else c.astype(np.float32)).view(np.uint32)


def unarrange(g, p, name):
    """The golden's m x n matrix from the arrangement the store wrote
    (dst_format 1 ND, 2 NZ with 32-byte boxes, 3 NZ of 8 columns, 4 NHWC,
    5 NCHW, 6 NCDHW with D = 0 written): the inverse of the generator's
    reshape and transpose."""
    m, n, f = p.m, p.n, p.dst_format
    if f in (1, 4):
        return g.reshape(m, n)
    if f in (2, 3):
        c0 = 8 if f == 3 else (32 if SIZE.get(name, 1) == 1 else 16)
        return g.reshape(n // c0, m // 16, 16, c0).transpose(1, 2, 0, 3).reshape(m, n)
    s = p.shape
    if f == 6:
        g = g.reshape(p.ncdhw_shape)[:, :, 0]
    return g.reshape(s[0], s[3], s[1], s[2]).transpose(0, 2, 3, 1).reshape(m, n)


def store_acc2gm(case, p, args):
    """TSTORE of an acc tile to global memory through the fixpipe (A5):
    the acc (FLOAT32, INT32 for INT8 inputs; ACC NZ) holds the case's
    product x1 x2 (pto_tmatmul on left NZ / right ZN tiles where libpto's
    TMATMUL takes the inputs' dtype, else the exact integer product); the
    store's conversion by pto_tmov_fp into a vec tile of dst's dtype:
    quant_mode 1 a scalar word (pto_set_quant_scalar(scalar, dst)), 2 the
    case's quant_vector_gm.bin words in a SCALING tile, 0 with a dtype
    change a scalar word of 1.0 (the product by 1.0 is exact, so the word
    only selects the conversion); the golden's ND / NZ / NHWC / NCHW /
    NCDHW arrangement read back into its m x n matrix. relu_mode 1
    (TSTORE's ReluPreMode::NormalRelu) is pto_tmov_fp_ex's PTO_FIXPIPE_RELU,
    with PTO_FIXPIPE_CAST where quant_mode 0 keeps the acc's dtype; every
    quantised store with PTO_FIXPIPE_STORE (TSTORE's pairs: FLOAT32 ->
    FLOAT32 scaled too)."""
    if SUITE == 'a2a3':
        raise Skip('A2A3\'s generator is another one (no dst_format; its stores go from the acc '
                   'tile to global memory, where pto_tmov_fp\'s acc -> vec form is A5\'s); none '
                   'of its cases has a low-precision type')
    sname, dname = np_name(p.src_data_type), np_name(p.dst_data_type)
    acc_name = 'INT32' if sname == 'INT8' else 'FLOAT32'
    m, k, n = p.m, p.k, p.n
    pad = lambda x: (x + 31) // 32 * 32
    acc = None
    if sname in ('FLOAT16', 'BFLOAT16', 'FLOAT32', 'INT8'):
        bits = bits_of(sname)
        a = CubeTile(sname, np.fromfile(find(case, 'x1_gm.bin'), bits).reshape(m, k), (32, 32), 2, 1, (m, k))
        b = CubeTile(sname, np.fromfile(find(case, 'x2_gm.bin'), bits).reshape(k, n), (32, 32), 3, 2, (k, n))
        acc = CubeTile(acc_name, np.zeros((m, n), np.uint32), (32, 32), 4, 1, (m, n))
        check(LIB.pto_tmatmul(acc.h, a.h, b.h), 'pto_tmatmul')
    else:
        acc = CubeTile(acc_name, acc_from_ends(case, p, sname, acc_name).reshape(m, n), (32, 32), 4, 1, (m, n))
    relu = 1 if p.relu_mode else 0  # PTO_FIXPIPE_RELU
    store = relu | 4  # PTO_FIXPIPE_STORE: TSTORE's pairs (FLOAT32 -> FLOAT32 scaled too)
    if dname == acc_name and p.quant_mode == 0 and relu:
        dst = RawTile(dname, m, pad(n), m, n)
        check(LIB.pto_tmov_fp_ex(dst.h, acc.h, None, relu | 2), 'pto_tmov_fp_ex')  # | PTO_FIXPIPE_CAST
        got = dst.valid()
    elif dname == acc_name and p.quant_mode == 0:
        got = acc.logical()[:m, :n]
    else:
        dst = RawTile(dname, m, pad(n), m, n)
        if p.quant_mode == 2:
            words = np.fromfile(find(case, 'quant_vector_gm.bin'), np.uint64).reshape(1, n)
            fp = CubeTile('UINT64', words, (1, 32), 6, 0, (1, n))
            check(LIB.pto_tmov_fp_ex(dst.h, acc.h, fp.h, store), 'pto_tmov_fp_ex')
        else:
            check(LIB.pto_set_quant_scalar(float(p.scalar) if p.quant_mode == 1 else 1.0,
                                           ENUM[dname]), 'pto_set_quant_scalar')
            check(LIB.pto_tmov_fp_ex(dst.h, acc.h, None, store), 'pto_tmov_fp_ex')
        got = dst.valid()
    want = unarrange(np.fromfile(find(case, 'golden.bin'), bits_of(dname)), p, dname)
    res = compare(got, want, {'FLOAT32': np.float32, 'FLOAT16': np.float16,
                              'BFLOAT16': 'bfloat16'}.get(dname))
    if res is not None and p.quant_mode == 2 and dname in ('HIFLOAT8', 'FLOAT8_E4M3', 'FLOAT16'):
        # [F-FIXPIPE]: the FLOAT32 acc times the word's scale (10 fraction
        # bits), one FLOAT32 product, rounded once to dst; the generator
        # rounds the matmul's sum to dst's type first (np.matmul in dst's
        # type), then multiplies and rounds again.
        words = np.fromfile(find(case, 'quant_vector_gm.bin'), np.uint64).astype(np.uint32)
        scale = (words & np.uint32(0xFFFFE000)).view(np.float32)
        x = acc.logical()[:m, :n].view(np.float32) * scale[None, :]
        exp = x.astype(p.dst_data_type).view(got.dtype)
        if np.array_equal(got, exp):
            raise Documented('%s; libpto = the fixpipe\'s one rounding of acc x scale '
                             '([F-FIXPIPE]) bit for bit, the golden rounds the sum to %s '
                             'first' % (res, dname))
    return res


ADAPTERS['tstore_acc2gm'] = store_acc2gm


def run_text(text, buffers):
    """Builds a program of text and runs it once on the numpy buffers (its
    pointer parameters, in order); refusals raise Refused."""
    prog = ctypes.c_void_p()
    b = text.encode()
    check(LIB.pto_program_create(b, len(b), b'st.pto', ctypes.byref(prog)), 'pto_program_create')
    args = ctypes.c_void_p()
    try:
        check(LIB.pto_args_create(prog, ctypes.byref(args)), 'pto_args_create')
        for i, a in enumerate(buffers):
            check(LIB.pto_args_set_pointer(args, i, a.ctypes.data, a.nbytes), 'pto_args_set_pointer')
        check(LIB.pto_program_run(prog, args), 'pto_program_run')
    finally:
        if args:
            LIB.pto_args_destroy(args)
        LIB.pto_program_destroy(prog)


def consts(values):
    return ''.join('  %%k%d = arith.constant %d : index\n' % (v, v) for v in sorted(set(values)))


def ks(values):
    return ', '.join('%%k%d' % v for v in values)


def scale_tile_type(nn, rows, cols, vr, vc):
    lay = 'blayout=col_major, slayout=col_major' if nn else 'blayout=row_major, slayout=row_major'
    return '!pto.tile_buf<mat, %dx%dx!pto.f8E8M0, valid=%dx%d, %s, fractal=32>' % (rows, cols, vr, vc, lay)


def valid_boxes(image, nn, rows, cols, vr, vc):
    """The valid region's boxes of a ZZ (16 x 2 boxes in row order) or NN
    (2 x 16 boxes in column order) image, compact, as the ST copies them."""
    if nn:
        return image.reshape(cols // 16, rows // 2, 32)[:vc // 16, :vr // 2].reshape(-1)
    return image.reshape(rows // 16, cols // 2, 32)[:vr // 16, :vc // 2].reshape(-1)


def mx_box_load(gm, n, strides, rows, cols, vr, vc, nn):
    """The bytes of a rows x cols E8M0 mat tile (ZZ, or NN when nn) of
    valid region vr x vc after a program's tload from the 5-D box view
    n = [N0, N1, N2, 16, 2] with `strides` of gm (at its first byte), read
    back through a one-row i8 mat tile at the same address under HOST (its
    mat tiles may be stored; A5 has none from L1, and the load is the same
    code under every profile)."""
    return mat_load_image(gm, 'FLOAT8_E8M0', n, strides, None, rows, cols, vr, vc,
                          tile=scale_tile_type(nn, rows, cols, vr, vc))


def load_mx_nz(case, p, args):
    """TLOAD of E8M0 scales from pto-isa's 5-D box form (MX_A_ZZ: [N0, N1,
    N2, 16, 2], a window of a larger tensor by its strides; MX_B_NN the
    same with the boxes across) into a ZZ / NN mat tile of basem x basek;
    the tile's valid boxes compared with the golden (the ST copies them out
    of L1 compactly)."""
    nn = p.load_type == 8
    n = (p.shape0, p.shape1, p.shape2, p.m, p.k)
    ws = (p.ws0, p.ws1, p.ws2, p.ws3, p.ws4)
    strides = [ws[1] * ws[2] * ws[3] * ws[4], ws[2] * ws[3] * ws[4], ws[3] * ws[4], ws[4], 1]
    rows, cols = p.basem, p.basek
    vr, vc = (n[2] * n[4], n[0] * n[1] * n[3]) if nn else (n[0] * n[1] * n[3], n[2] * n[4])
    out = mx_box_load(np.fromfile(find(case, 'x1_gm.bin'), np.uint8), n, strides, rows, cols, vr, vc, nn)
    got = valid_boxes(out, nn, rows, cols, vr, vc)
    want = np.fromfile(find(case, 'golden.bin'), np.uint8)
    return compare(got.reshape(1, -1), want.reshape(1, -1))


MX_FORMS = {1: 'MX_A_ND', 2: 'MX_A_DN', 3: 'MX_A_ZZ', 4: 'MX_B_ND', 5: 'MX_B_DN', 6: 'MX_B_NN'}


def load_mx_gm(case, p, args):
    """TLOAD of E8M0 scales from a 2-D global tensor into a ZZ (a) / NN (b)
    mat tile of tile_rows x tile_cols, valid valid_row x valid_col: MX_A_ZZ
    and MX_B_NN (the window of a ws3 x ws4 scale matrix stored in its
    boxes, TileShape2D / BaseShape2D's 5-D form [1, M/16, K/2, 16, 2] with
    the whole matrix's strides); the tile's image compared with the golden
    (the whole tile, zeros outside the valid region)."""
    form = MX_FORMS[p.load_type]
    if form not in ('MX_A_ZZ', 'MX_B_NN'):
        raise Skip('%s: PTOAS\'s text has no such global layout (its Layout: nd, dn, nz, mx_a_zz, '
                   'mx_b_nn; a tload of f8E8M0 into a ZZ / NN mat tile is lowered as MX_A_ZZ / '
                   'MX_B_NN), a view cannot name it (a [1, 1, 16, 16, 2] view of strides [.., .., '
                   '32, 2, 1] is MX_A_ZZ and MX_A_ND of one 16 x 32 shape, in two element orders) '
                   'and libpto has no C TLOAD' % form)
    nn = form == 'MX_B_NN'
    vr, vc = p.valid_row, p.valid_col
    if nn:  # boxes of 2 scale rows x 16 columns, strips of 16 columns
        n, strides = (1, vc // 16, vr // 2, 16, 2), [p.ws3 * p.ws4, p.ws3 * 16, 32, 2, 1]
    else:
        n, strides = (1, vr // 16, vc // 2, 16, 2), [p.ws3 * p.ws4, p.ws4 * 16, 32, 2, 1]
    out = mx_box_load(np.fromfile(find(case, 'x1_gm.bin'), np.uint8), n, strides,
                      p.tile_rows, p.tile_cols, vr, vc, nn)
    want = np.fromfile(find(case, 'golden.bin'), np.uint8)
    return compare(out.reshape(1, -1), want.reshape(1, -1))


ADAPTERS['tload_mx_gmtensor'] = load_mx_gm
ADAPTERS['tload_mx_ND_DN'] = load_mx_gm
ADAPTERS['tload_mx_NZ'] = load_mx_nz


SPELL = {'FLOAT32': 'f32', 'FLOAT16': 'f16', 'BFLOAT16': 'bf16', 'INT8': 'i8', 'UINT8': 'ui8',
         'INT16': 'i16', 'UINT16': 'ui16', 'INT32': 'i32', 'UINT32': 'ui32', 'INT64': 'i64',
         'UINT64': 'ui64', 'FLOAT4_E2M1X2': '!pto.f4E2M1x2', 'FLOAT4_E1M2X2': '!pto.f4E1M2x2',
         'FLOAT8_E4M3': 'f8E4M3FN', 'FLOAT8_E5M2': 'f8E5M2', 'HIFLOAT8': '!pto.hif8',
         'FLOAT8_E8M0': '!pto.f8E8M0'}


def store_roundtrip(case, p, args):
    """TLOAD then TSTORE of a window [g0..g4] of a 5-D global tensor [W0..W4]
    (ND: row-major; DN: the last two dimensions column-major) through a vec
    tile, into a zeroed tensor of the same shape: a program of one
    pto.tload and one pto.tstore on partition views (the view's last
    dimension along the tile's rows, the others over its rows). FP4 (the CPU
    suite's float4 types, A5's fp4 cases of uint8 bytes as FLOAT4_E1M2X2)
    moves bytes of two values: the contiguous dimension counts bytes."""
    name = np_name(p.datatype)
    fp4_a5 = 'fp4' in str(p.kw.get('case_name', ''))
    if fp4_a5:
        name = 'FLOAT4_E1M2X2'
    if p.format == 'NZ':
        raise Skip('an NZ global tensor: libpto\'s programs read none (docs/pto-assembly.md: '
                   'layout nz refused); as a 5-D view its round trip would pass without testing it')
    g = [p.gShape0, p.gShape1, p.gShape2, p.gShape3, p.gShape4]
    w = [p.gWholeShape0, p.gWholeShape1, p.gWholeShape2, p.gWholeShape3, p.gWholeShape4]
    dn = p.format == 'DN'
    if name in PACKED and not fp4_a5:  # the CPU suite's shapes count values
        k = 3 if dn else 4
        g[k] //= 2
        w[k] //= 2
    mem = [w[0], w[1], w[2], w[4], w[3]] if dn else list(w)  # the bytes' row-major shape
    ms = [int(np.prod(mem[i + 1:])) for i in range(5)]
    strides = [ms[0], ms[1], ms[2], ms[4], ms[3]] if dn else ms
    size = SIZE.get(name, 1)
    rows, cols = g[0] * g[1] * g[2] * g[3], g[4]
    pcols = (cols * size + 31) // 32 * 32 // size
    t = SPELL[name]
    tile = '!pto.tile_buf<vec, %dx%dx%s, valid=%dx%d>' % (rows, pcols, t, rows, cols)
    dyn = '?x?x?x?x?x' + t
    part = 'x'.join(str(d) for d in g) + 'x' + t
    text = ('module {\nfunc.func @k(%%x: !pto.ptr<%s>, %%y: !pto.ptr<%s>) {\n' % (t, t) +
            consts(w + strides + g + [0]))
    for v, ptr in (('vi', 'x'), ('vo', 'y')):
        text += ('  %%%s = pto.make_tensor_view %%%s, shape = [%s], strides = [%s] : '
                 '!pto.tensor_view<%s>\n' % (v, ptr, ks(w), ks(strides), dyn) +
                 '  %%p%s = pto.partition_view %%%s, offsets = [%s], sizes = [%s] : '
                 '!pto.tensor_view<%s> -> !pto.partition_tensor_view<%s>\n'
                 % (v, v, ks([0] * 5), ks(g), dyn, part))
    text += ('  %%t = pto.alloc_tile : %s\n' % tile +
             '  pto.tload ins(%%pvi : !pto.partition_tensor_view<%s>) outs(%%t : %s)\n' % (part, tile) +
             '  pto.tstore ins(%%t : %s) outs(%%pvo : !pto.partition_tensor_view<%s>)\n' % (tile, part) +
             '  return\n}\n}\n')
    bits = np.dtype(BITS[size])
    src = np.fromfile(find(case, 'input.bin'), bits)
    out = np.zeros_like(src)
    run_text(text, [src, out])
    want = np.fromfile(find(case, 'golden.bin'), bits)
    return compare(out.reshape(1, -1), want.reshape(1, -1))


ADAPTERS['tstore'] = store_roundtrip


MAT_LAYOUT = {'NZ': 'blayout=col_major, slayout=row_major, fractal=512',
              'ZN': 'blayout=row_major, slayout=col_major, fractal=512',
              'ND': 'blayout=row_major, slayout=none_box',
              'DN': 'blayout=col_major, slayout=none_box'}


def mat_load_image(gm, name, shape, strides, layout, rows, cols, vr, vc, tile=None):
    """The bytes of a rows x cols mat tile of dtype `name` in `layout`
    (valid vr x vc) after a program's tload from the view of gm's elements
    (shape, strides), read back through a one-row i8 mat tile at the same
    address under HOST (A5 has no store from L1; the load is the same code
    under every profile); `tile` the tile's type where it is not `layout`'s."""
    t = SPELL[name]
    nb = rows * cols * SIZE.get(name, 1)
    if tile is None:
        tile = ('!pto.tile_buf<mat, %dx%dx%s, valid=%dx%d, %s>'
                % (rows, cols, t, vr, vc, MAT_LAYOUT[layout]))
    dyn = 'x'.join(['?'] * len(shape)) + 'x' + t
    text = ('module {\nfunc.func @k(%%x: !pto.ptr<%s>, %%y: !pto.ptr<i8>) {\n' % t +
            consts(list(shape) + list(strides) + [1, nb]) +
            '  %a0 = arith.constant 0 : i64\n' +
            '  %%v = pto.make_tensor_view %%x, shape = [%s], strides = [%s] : !pto.tensor_view<%s>\n'
            % (ks(shape), ks(strides), dyn) +
            '  %%w = pto.make_tensor_view %%y, shape = [%%k1, %%k%d], strides = [%%k%d, %%k1] : '
            '!pto.tensor_view<1x%dxi8>\n' % (nb, nb, nb) +
            '  %%s = pto.alloc_tile addr = %%a0 : %s\n' % tile +
            '  %%f = pto.alloc_tile addr = %%a0 : !pto.tile_buf<mat, 1x%dxi8>\n' % nb +
            '  pto.tload ins(%%v : !pto.tensor_view<%s>) outs(%%s : %s)\n' % (dyn, tile) +
            '  pto.tstore ins(%%f : !pto.tile_buf<mat, 1x%dxi8>) outs(%%w : !pto.tensor_view<1x%dxi8>)\n'
            '  return\n}\n}\n' % (nb, nb))
    out = np.zeros(nb, np.uint8)
    LIB.pto_set_profile(PROFILE['cpu'])
    try:
        run_text(text, [gm, out])
    finally:
        LIB.pto_set_profile(PROFILE[SUITE])
    return out


MIX_FORMS = {1: 'ND2NZ', 2: 'DN2NZ', 3: 'ND2ND', 4: 'NZ2NZ', 5: 'DN2DN', 6: 'DN2ZN'}


def load_mix(case, p, args):
    """TLOAD from global memory into a BASEM x BASEK mat tile (A5, L1):
    ND2NZ, ND2ND (a 5-D window, its outer dimensions over the rows), DN2NZ,
    DN2ZN and DN2DN (the column-major M x K window as a view of strides
    [1, ws3]); the tile's image (its layout's bytes, zeros outside the valid
    region) compared with the golden. The fp4 cases (uint8 bytes of
    FLOAT4_E1M2X2 / E2M1X2, by the case's name) move bytes: their shapes
    count bytes."""
    form = MIX_FORMS.get(p.load_type)
    if form is None:
        raise Skip('%s: a convolution layout (NC1HWC0, FZ, FZ4D, ...) global libpto\'s programs do '
                   'not read' % p.load_type)
    if form == 'NZ2NZ':
        raise Skip('an NZ global tensor: libpto\'s programs read none (docs/pto-assembly.md)')
    cname = str(p.kw.get('case_name', ''))
    name = ('FLOAT4_E1M2X2' if 'fp4x2_e1m2' in cname else 'FLOAT4_E2M1X2' if 'fp4x2_e2m1' in cname
            else np_name(p.atype))
    g = (p.shape0, p.shape1, p.shape2, p.m, p.k)
    ws = (p.ws0, p.ws1, p.ws2, p.ws3, p.ws4)
    m, k, bm, bk = p.m, p.k, p.basem, p.basek
    if form == 'ND2ND':
        shape, strides = g, [int(np.prod(ws[i + 1:])) for i in range(5)]
        vr, vc = g[0] * g[1] * g[2] * m, k
        layout = 'ND'
    elif form == 'ND2NZ':
        shape, strides, vr, vc, layout = (m, k), (ws[4], 1), m, k, 'NZ'
    else:
        if g[:3] != (1, 1, 1):
            raise Skip('a DN window with outer dimensions (%d, %d, %d): they flatten over the '
                       'tile\'s columns, and a view\'s outer dimensions run over its rows' % g[:3])
        shape, strides, vr, vc = (m, k), (1, ws[3]), m, k
        layout = {'DN2NZ': 'NZ', 'DN2ZN': 'ZN', 'DN2DN': 'DN'}[form]
    size = SIZE.get(name, 1)
    gm = np.fromfile(find(case, 'x1_gm.bin'), np.dtype(BITS[size]))
    out = mat_load_image(gm, name, shape, strides, layout, bm, bk, vr, vc)
    want = np.fromfile(find(case, 'golden.bin'), np.uint8)
    return compare(out.reshape(1, -1), want.reshape(1, -1))


ADAPTERS['tload_mix'] = load_mix
# --- tmatmul (A5's FP8 / HiFloat8 sources), tmov_mx, tmov_nd2nz, tmov_nd2zn, tmov_zz, ttrans_conv ---

ST_PLAIN = {'float32': 'FLOAT32', 'float16': 'FLOAT16', 'bfloat16': 'BFLOAT16', 'int8': 'INT8',
            'int32': 'INT32', 'uint8': 'HIFLOAT8', 'uint16': 'UINT16'}  # A5 tmatmul: its uint8 is hifloat8's bits


def st_dtype_name(dt):
    n = lowp_name(dt)
    if n is not None:
        return n
    return ST_PLAIN[getattr(dt, '__name__', None) or np.dtype(dt).name]


def st_bits(name):
    return {'FLOAT32': np.uint32, 'INT32': np.uint32, 'UINT32': np.uint32, 'FLOAT16': np.uint16,
            'BFLOAT16': np.uint16, 'INT16': np.uint16, 'UINT16': np.uint16}.get(name, np.uint8)


class StCube(CubeTile):
    """CubeTile of any dtype (its bits by st_bits) with an explicit tile
    shape (rows x cols, the kernel's padded one)."""

    def __init__(self, name, data, rows, cols, loc, layout, valid):
        self.pto, self.bits = ENUM[name], np.dtype(st_bits(name))
        self.rows, self.cols = rows, cols
        self.h = ctypes.c_void_p()
        check(LIB.pto_tile_create_cube(self.pto, rows, cols, loc, layout, ctypes.byref(self.h)),
              'tile_create_cube')
        full = np.zeros((rows, cols), self.bits)
        if data is not None:
            r, c = data.shape
            full[:r, :c] = np.asarray(data).view(self.bits)
        check(LIB.pto_tile_write(self.h, full.ctypes.data, full.nbytes), 'tile_write')
        check(LIB.pto_tile_set_valid(self.h, *valid), 'set_valid')
        self.vr, self.vc = valid


def ceil_to(x, q):
    return (x + q - 1) // q * q


def st_matmul(case, p, args):
    """A5 TMATMUL / TMATMUL_BIAS as its ST kernel runs them: a (M x K) and b
    (K x N) loaded into left NZ / right ZN tiles padded as the kernel pads
    them (M to 16, K and N to 32 one-byte or 16 wider elements), dst an acc
    NZ FLOAT32 / INT32 tile; the bias row loaded into a mat tile of its own
    dtype and moved by pto_tmov to a bias tile of dst's dtype (the kernel's
    TMOV Mat -> Bias). FP8 pairs and HiFloat8 (the generator's uint8) are
    A5's 8-bit sources; the FLOAT32 cases with is_tf32 run under
    pto_set_tf32_mode with the case's rounding."""
    if SUITE == 'cpu':
        raise Skip('the CPU suite\'s TMATMUL: 0.5\'s dtypes under HOST, batched (repeats), '
                   'checked in tests/test_matmul.c')
    an, bn, cn = st_dtype_name(p.atype), st_dtype_name(p.btype), st_dtype_name(p.ctype)
    m, k, n = p.m, p.k, p.n
    align = 32 if st_bits(an) == np.uint8 else 16
    M, K, N = ceil_to(m, 16), ceil_to(k, align), ceil_to(n, align)
    a_data = np.fromfile(find(case, 'x1_gm.bin'), st_bits(an)).reshape(m, k)
    b_data = np.fromfile(find(case, 'x2_gm.bin'), st_bits(bn)).reshape(k, n)
    a = StCube(an, a_data, M, K, 2, 3 if SUITE == 'a2a3' else 1, (m, k))  # LEFT ZZ (A2A3) / NZ
    b = StCube(bn, b_data, K, N, 3, 2, (k, n))  # RIGHT ZN
    dst = StCube(cn, None, M, N, 4, 1, (m, n))  # ACC NZ
    if getattr(p, 'is_tf32', False):
        check(LIB.pto_set_tf32_mode(1, ROUND['RoundMode::' + p.tf32_trans]), 'pto_set_tf32_mode')
    if getattr(p, 'is_hf32', False):  # A2A3's HF32 cases
        check(LIB.pto_set_hf32_mode(1, ROUND['RoundMode::' + p.hf32_trans]), 'pto_set_hf32_mode')
    try:
        if p.is_bias:
            bname = st_dtype_name(p.bias_type)
            bias_data = np.fromfile(find(case, 'bias_gm.bin'), st_bits(bname)).reshape(1, n)
            bmat = StCube(bname, bias_data, 1, N, 1, 0, (1, n))  # MAT ND
            bias = StCube(cn, None, 1, N, 5, 0, (1, n))  # BIAS
            check(LIB.pto_tmov(bias.h, bmat.h), 'pto_tmov (mat -> bias)')
            check(LIB.pto_tmatmul_bias(dst.h, a.h, b.h, bias.h), 'pto_tmatmul_bias')
        else:
            check(LIB.pto_tmatmul(dst.h, a.h, b.h), 'pto_tmatmul')
    finally:
        LIB.pto_set_tf32_mode(0, 1)
        LIB.pto_set_hf32_mode(0, 1)
    want = np.fromfile(find(case, 'golden.bin'), st_bits(cn)).reshape(m, n)
    got = dst.logical()[:m, :n]
    res = compare(got, want, np.float32 if cn == 'FLOAT32' else None)
    if res is not None and cn == 'FLOAT32':
        mode = ((10, p.tf32_trans) if getattr(p, 'is_tf32', False) else
                (11, p.hf32_trans) if getattr(p, 'is_hf32', False) else None)
        exp = chain_model(a.logical()[:m, :k], an, b.logical()[:k, :n], bn,
                          bias.logical()[0, :n].view(np.float32) if p.is_bias else np.zeros(n),
                          mode)
        if np.array_equal(got, exp.view(np.uint32)):
            raise Documented('%s; libpto = pto_c.h\'s chain (fmaf over k in order, "Matrix '
                             'multiply") bit for bit, the golden numpy\'s float32 matmul' % res)
    return res


def st_values(codes, name):
    """The float64 values of a matrix of codes (bits) of dtype name."""
    if name == 'FLOAT32':
        return codes.view(np.float32).astype(np.float64)
    if name == 'FLOAT16':
        return codes.view(np.float16).astype(np.float64)
    if name == 'BFLOAT16':
        return (codes.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if name == 'HIFLOAT8':
        table = np.array([hif8_value(c) for c in range(256)])
    else:
        import ml_dtypes
        fp8 = {'FLOAT8_E4M3': ml_dtypes.float8_e4m3fn, 'FLOAT8_E5M2': ml_dtypes.float8_e5m2}[name]
        table = np.arange(256, dtype=np.uint8).view(fp8).astype(np.float64)
    return table[codes]


def hif8_value(c):
    """HiFloat8's value of code c (pto_c.h's encoding)."""
    s = -1.0 if c & 0x80 else 1.0
    r = c & 0x7F
    if r < 8:
        return (np.nan if c & 0x80 else 0.0) if r == 0 else s * 2.0 ** (r - 23)
    d, plen = (4, 2) if r >= 0x60 else (3, 2) if r >= 0x40 else (2, 2) if r >= 0x20 else \
        (1, 3) if r >= 0x10 else (0, 4)
    mb = 7 - plen - d
    body = r & ((1 << (7 - plen)) - 1)
    man, eb = body & ((1 << mb) - 1), body >> mb
    e = 0
    if d:
        mag = (1 << (d - 1)) | (eb & ((1 << (d - 1)) - 1))
        e = -mag if eb >> (d - 1) else mag
    if e == 15 and man == 1:
        return s * np.inf
    return s * (1 + man / 2.0 ** mb) * 2.0 ** e


def round_fraction(codes, bits, trans):
    """FLOAT32 bits rounded to `bits` fraction bits as pto_c.h's cube modes
    (HF32, TF32) round a and b: to nearest, ties away (CAST_ROUND) or even;
    zeros and subnormals to zero of their sign; infinities and NaN kept."""
    u = codes.astype(np.uint64)
    drop = 23 - bits
    kept = (u >> drop) & 1
    add = (1 << (drop - 1)) if trans == 'CAST_ROUND' else (1 << (drop - 1)) - 1 + kept
    r = ((u + add) & ~np.uint64((1 << drop) - 1)) & 0xFFFFFFFF
    e = (u >> 23) & 0xFF
    r = np.where(e == 0, u & 0x80000000, np.where(e == 0xFF, u, r))
    return r.astype(np.uint32)


def chain_model(a, an, b, bn, seed, mode=None):
    """dst = seed + a b as pto_c.h's chains: for k in order acc = fmaf(a, b,
    acc), the exact product and sum rounded once to float32 (float64 holds
    both exactly for these operands); mode (fraction bits, rounding) rounds
    FLOAT32 a and b first (the cube's HF32 / TF32 modes)."""
    if mode is not None and an == 'FLOAT32':
        a, b = round_fraction(a, *mode), round_fraction(b, *mode)
    av, bv = st_values(a, an), st_values(b, bn)
    acc = np.broadcast_to(np.asarray(seed, np.float32), (a.shape[0], b.shape[1])).copy()
    for q in range(a.shape[1]):
        acc = (acc.astype(np.float64) + np.outer(av[:, q], bv[q, :])).astype(np.float32)
    return acc


ADAPTERS['tmatmul'] = st_matmul


def st_tmov_mx(case, p, args):
    """A5's MX scale moves (TMOV Mat -> ScaleLeft / ScaleRight) feeding
    TMATMUL_MX: the scales read back from the case's zz / nn, nd or dn
    files into M x K/32 and K/32 x N matrices, written to mat ND tiles and
    moved by pto_tmov into scaling ZZ (a) and NN (b) tiles; the FP8 / FP4
    data in left NZ and right ZN tiles (FP4 two values a byte, zeros from
    K to K rounded up to 64, as the kernel's aligned tiles hold); dst acc
    NZ FLOAT32. The cases with a start (the kernel's TEXTRACT at start_m,
    start_k, start_n instead of TMOV) and padded bases take the window the
    tool slices from the same matrices."""
    an, bn = lowp_name(p.atype), lowp_name(p.btype)
    pa, pb = (2 if n.startswith('FLOAT4') else 1 for n in (an, bn))
    m, k, n = p.m, p.k, p.n
    bm, bk, bnn = (p.base_m, p.base_k, p.base_n) if p.base_m else (m, k, n)
    ka = ceil_to(k, 64)
    fa, fb = {'zznn': ('zz', 'nn'), 'ndnd': ('nd', 'nd'), 'dndn': ('dn', 'dn')}[p.src_format]
    ksf = (bk if p.base_m else ka) // 32
    a_all = np.fromfile(find(case, 'x1_gm.bin'), np.uint8).reshape(bm, bk // pa)
    b_all = np.fromfile(find(case, 'x2_gm.bin'), np.uint8).reshape(bk, bnn // pb)
    sa_all = mx_scales(find(case, 'x1_mx_gm.bin'), fa, bm, ksf, 'a')
    sb_all = mx_scales(find(case, 'x2_mx_gm.bin'), fb, ksf, bnn, 'b')
    sm, sk, sn = p.start_m, p.start_k, p.start_n
    M, K, N = m - sm, ka - sk, n - sn
    a_data = np.zeros((M, K // pa), np.uint8)
    a_data[:, :(k - sk) // pa] = a_all[sm:m, sk // pa:k // pa]
    b_data = np.zeros((K, N // pb), np.uint8)
    b_data[:k - sk, :] = b_all[sk:k, sn // pb:n // pb]
    ks = K // 32
    sa_data = np.ascontiguousarray(sa_all[sm:m, sk // 32:sk // 32 + ks])
    sb_data = np.ascontiguousarray(sb_all[sk // 32:sk // 32 + ks, sn:n])
    a = CubeTile(an, a_data, (16, 64 // pa), 2, 1, (M, K // pa))  # LEFT NZ
    b = CubeTile(bn, b_data, (64, 32), 3, 2, (K, N // pb))  # RIGHT ZN
    sa_mat = CubeTile('FLOAT8_E8M0', sa_data, (16, 2), 1, 0, (M, ks))  # MAT ND
    sb_mat = CubeTile('FLOAT8_E8M0', sb_data, (2, 16), 1, 0, (ks, N))
    sa = CubeTile('FLOAT8_E8M0', np.zeros_like(sa_data), (16, 2), 6, 3, (M, ks))  # SCALING ZZ
    sb = CubeTile('FLOAT8_E8M0', np.zeros_like(sb_data), (2, 16), 6, 4, (ks, N))  # SCALING NN
    check(LIB.pto_tmov(sa.h, sa_mat.h), 'pto_tmov (mat -> scaling ZZ)')
    check(LIB.pto_tmov(sb.h, sb_mat.h), 'pto_tmov (mat -> scaling NN)')
    dst = CubeTile('FLOAT32', np.zeros((M, N), np.uint32), (16, 16), 4, 1, (M, N))  # ACC NZ
    fname = 'pto_tgemv_mx' if M == 1 else 'pto_tmatmul_mx'
    check(getattr(LIB, fname)(dst.h, a.h, sa.h, b.h, sb.h), fname)
    want = np.fromfile(find(case, 'golden.bin'), np.uint32).reshape(M, N)
    return compare(dst.logical()[:M, :N], want, np.float32)


ADAPTERS['tmov_mx'] = st_tmov_mx


def st_tmov_vec_fractal(layout):
    """A5's vec TMOV ND -> NZ (layout 1) or ND -> ZN (layout 2): the case's
    rows x cols ND tile (HiFloat8 / FLOAT16 / INT32 bits, by the case's
    name) moved by pto_tmov into a vec tile of that layout (pto_tile_create_cube,
    512-byte boxes); the golden is the fractal image, compared with
    pto_tile_data's bytes."""
    def run(case, p, args):
        kind = p.kw.get('dtype_name', 'hif8')  # gen_golden(case_name, [dtype_name,] rows, cols)
        name = {'hif8': 'HIFLOAT8', 'half': 'FLOAT16', 'b32': 'INT32'}[kind]
        r, c = p.kw['rows'], p.kw['cols']
        data = np.fromfile(find(case, 'input_arr.bin'), st_bits(name)).reshape(r, c)
        src = StCube(name, data, r, c, 0, 0, (r, c))
        dst = StCube(name, None, r, c, 0, layout, (r, c))
        check(LIB.pto_tmov(dst.h, src.h), 'pto_tmov (vec ND -> vec %s)' % ('NZ', 'ZN')[layout - 1])
        want = np.fromfile(find(case, 'golden.bin'), st_bits(name)).reshape(r, c)
        return compare(dst.array().copy(), want)
    return run


ADAPTERS['tmov_nd2nz'] = st_tmov_vec_fractal(1)
ADAPTERS['tmov_nd2zn'] = st_tmov_vec_fractal(2)


def st_tmov_zz(case, p, args):
    """A5's MXFP8 quantisation into the cube's layouts (its kernel: TQUANT
    MXFP8 OCP on a rows x cols FLOAT32 vec tile, then TMOV of the E4M3 codes
    ND -> NZ and of the E8M0 exponents ND -> ZZ): pto_tquant_mx (OCP, groups
    along rows) into an ND FLOAT8_E4M3 tile of rows rounded up to 16, moved
    by pto_tmov into a vec NZ tile whose image is compared with
    golden_fp8_nz.bin; the exponents compared with golden_e8_zz.bin read
    back from its 16 x 2 boxes (libpto's vec tiles have no 32-byte ZZ
    boxes: those are its scaling tiles', which A5's vec moves do not
    reach)."""
    r, c = p.args[0].shape  # quant_fp32_to_mxfp8_nz(src), called in the case's directory
    rp, g = ceil_to(r, 16), c // 32
    x = np.fromfile(find(case, 'input.bin'), np.uint32).reshape(r, c)
    src = StCube('FLOAT32', x, rp, c, 0, 0, (r, c))
    nd = StCube('FLOAT8_E4M3', None, rp, c, 0, 0, (r, c))
    exp = StCube('FLOAT8_E8M0', None, rp, g, 0, 0, (r, g))
    check(LIB.pto_tquant_mx(nd.h, src.h, exp.h, None, None, 0, 1), 'pto_tquant_mx')
    nz = StCube('FLOAT8_E4M3', None, rp, c, 0, 1, (r, c))
    check(LIB.pto_tmov(nz.h, nd.h), 'pto_tmov (vec ND -> vec NZ)')
    want = np.fromfile(find(case, 'golden_fp8_nz.bin'), np.uint8).reshape(rp, c)
    res = compare(nz.array().copy(), want)
    if res is not None:
        return 'fp8 NZ image: ' + res
    want_e = mx_scales(find(case, 'golden_e8_zz.bin'), 'zz', r, g, 'a')
    res = compare(exp.valid(), want_e)
    return None if res is None else 'e8m0: ' + res


ADAPTERS['tmov_zz'] = st_tmov_zz


def st_ttrans_conv(case, p, args):
    """The CPU suite's TTRANS on ConvTile: NCHW -> NC1HWC0 (and GNCHW, its
    groups as more N) and NC1HWC0 -> NCHW are, for each (n, c1), a 2-D
    transpose of a C0 x HW plane (C past C rounded to C0 zero), run through
    pto_ttrans under HOST on a vec tile of the case's dtype (its MX_e8m0
    case's bytes as FLOAT8_E8M0). The FRACTAL_Z forms move C0-element
    blocks as units and MXFP4 packs two codes a byte across W: skipped."""
    if SUITE != 'cpu':
        raise Skip('no low-precision type in %s\'s TTRANS ConvTile cases, whose generator '
                   'differs (libpto has no N-D ConvTile; the CPU suite\'s plane forms run)' % SUITE)
    mode, name = p.shape, p.case_name
    if mode in (3, 5, 6):
        raise Skip('FRACTAL_Z (%s): C0-element blocks moved as units, not a 2-D element transpose; '
                   'libpto has no N-D ConvTile' % name)
    if 'MXFP4' in name:
        raise Skip('MXFP4 packs two codes a byte along W and the golden repacks them along C0: '
                   'a nibble transpose, which pto_ttrans (bytes) does not do')
    dname = 'FLOAT8_E8M0' if 'e8m0' in name else st_dtype_name(p.data_type) \
        if np.dtype(p.data_type) != np.uint16 else 'UINT16'
    bits = st_bits(dname)
    x = np.fromfile(find(case, 'input.bin'), bits)
    if mode in (1, 4):
        c, h, w, c0 = p.src_shape_1, p.src_shape_2, p.src_shape_3, p.dst_shape_4
        planes = x.reshape(-1, c, h * w)
        c1 = (c + c0 - 1) // c0
        out = []
        for n in range(planes.shape[0]):
            for k in range(c1):
                part = planes[n, k * c0:min(c, (k + 1) * c0)]
                out.append(st_trans_plane(dname, part, c0, h * w))
    else:
        c1, h, w, c0 = p.src_shape_1, p.src_shape_2, p.src_shape_3, p.src_shape_4
        planes = x.reshape(-1, h * w, c0)
        out = [st_trans_plane(dname, planes[i], h * w, c0) for i in range(planes.shape[0])]
    got = np.concatenate([o.reshape(-1) for o in out]).reshape(1, -1)
    want = np.fromfile(find(case, 'golden.bin'), bits).reshape(1, -1)
    return compare(got, want)


def st_trans_plane(dname, part, rows, cols):
    """pto_ttrans of a rows x cols vec tile holding part (zeros below it)."""
    src = StCube(dname, part, rows, cols, 0, 0, (rows, cols))
    dst = StCube(dname, None, cols, rows, 0, 0, (cols, rows))
    tmp = StCube(dname, None, 1, 32, 0, 0, (1, 32))
    check(LIB.pto_ttrans(dst.h, src.h, tmp.h), 'pto_ttrans')
    return dst.array().copy()


ADAPTERS['ttrans_conv'] = st_ttrans_conv
# --- textract, textract_compact, textract_vec, textract_ndto2xnz, tinsert (A5's NZ forms), tinsert_zn ---

LOC_VEC, LOC_MAT, LOC_LEFT, LOC_RIGHT, LOC_ACC = 0, 1, 2, 3, 4
LAY_ND, LAY_NZ, LAY_ZN = 0, 1, 2


def elem_bytes(name):
    return {'FLOAT32': 4, 'INT32': 4, 'UINT32': 4, 'FLOAT16': 2, 'BFLOAT16': 2, 'INT16': 2,
            'UINT16': 2}.get(name, 1)


def Cube(name, rows, cols, loc, layout, valid, data=None):
    """A CubeTile of any element size, rows x cols padded to whole boxes,
    valid region `valid`, filled row-major with data (zeros where none)
    from its top-left corner."""
    e = elem_bytes(name)
    box = (16, 16) if loc == LOC_ACC else (16, 32 // e) if layout == LAY_NZ else (32 // e, 16)
    full = np.zeros((rows, cols), {4: np.uint32, 2: np.uint16, 1: np.uint8}[e])
    if data is not None:
        d = np.asarray(data).view(full.dtype)
        full[:d.shape[0], :d.shape[1]] = d
    return CubeTile(name, full, box, loc, layout, valid)


def cube_name(dt):
    """The pto dtype of a cube suite's element type: its np.uint8 is
    hifloat8 (the kernels' hifloat8_t, the golden decodes HiFloat8)."""
    n = lowp_name(dt)
    if n:
        return n
    if getattr(dt, '__name__', '') == 'bfloat16':
        return 'BFLOAT16'
    return {np.dtype(np.float16): 'FLOAT16', np.dtype(np.float32): 'FLOAT32', np.dtype(np.int8): 'INT8',
            np.dtype(np.int32): 'INT32', np.dtype(np.uint8): 'HIFLOAT8'}[np.dtype(dt)]


def widened(t, loc, layout):
    """A FLOAT32 cube tile of t's valid values (pto_tcvt under HOST, exact for
    the 8-bit floats): pto_tmatmul takes no 8-bit floats."""
    vr, vc = t.vr, t.vc
    v = RawTile(lowp_name_of(t), vr, vc)
    v.put(t.logical()[:vr, :vc])
    f = RawTile('FLOAT32', vr, vc)
    LIB.pto_set_profile(PROFILE['cpu'])
    st = LIB.pto_tcvt(f.h, v.h, None, ROUND['RoundMode::CAST_RINT'], 0)
    LIB.pto_set_profile(PROFILE[SUITE])
    check(st, 'pto_tcvt')
    return Cube('FLOAT32', vr, vc, loc, layout, (vr, vc), f.array())


def lowp_name_of(t):
    return {v: k for k, v in ENUM.items()}[t.pto]


def pack_cols(codes):
    """Codes (r x 2c) as bytes of two, column 2j in the low nibble."""
    return (codes[:, 0::2] & 0xF) | ((codes[:, 1::2] & 0xF) << 4)


def mx_extract_matmul(case, p, an, bn):
    """extract_matmul's FP4 cases: TEXTRACT (TMOV) of FP4 tiles, then
    TMATMUL_MX with the case's E8M0 scales (one per 32 of the window's K).
    The generator packs each file's rows (a's transpose when is_atrans, b's
    unless is_btrans), low nibble first; libpto packs a along K and b along
    N (pto_c.h, the packed types), so the codes are unpacked and packed again
    along libpto's cols. Scales: the generator's (rows/16, 16, Ks/2, 2)
    boxes read back (b's from its transpose)."""
    m, k, n = p.m, p.k, p.n
    sm, sk, sn = p.start_m, p.start_k, p.start_n
    vm, vk, vn = m - sm, k - sk, n - sn
    ks = vk // 32
    x1 = np.fromfile(find(case, 'x1_gm.bin'), np.uint8)
    x2 = np.fromfile(find(case, 'x2_gm.bin'), np.uint8)
    a_codes = nibbles(x1.reshape(k, m // 2)).T if p.is_atrans else nibbles(x1.reshape(m, k // 2))
    b_codes = nibbles(x2.reshape(k, n // 2)) if p.is_btrans else nibbles(x2.reshape(n, k // 2)).T
    a_mat = Cube(an, m, k // 2, LOC_MAT, LAY_ZN if p.is_atrans else LAY_NZ, (m, k // 2), pack_cols(a_codes))
    b_mat = Cube(bn, k, n // 2, LOC_MAT, LAY_NZ if p.is_btrans else LAY_ZN, (k, n // 2), pack_cols(b_codes))
    a = Cube(an, vm, vk // 2, LOC_LEFT, LAY_NZ, (vm, vk // 2))
    b = Cube(bn, vk, vn // 2, LOC_RIGHT, LAY_ZN, (vk, vn // 2))
    if os.path.basename(case).startswith('TMOVTest'):
        check(LIB.pto_tmov(a.h, a_mat.h), 'pto_tmov')
        check(LIB.pto_tmov(b.h, b_mat.h), 'pto_tmov')
    else:
        check(LIB.pto_textract(a.h, a_mat.h, sm, sk // 2), 'pto_textract')
        check(LIB.pto_textract(b.h, b_mat.h, sk, sn // 2), 'pto_textract')
    boxes = lambda f, r: f.reshape(ks // 2, r // 16, 16, 2).transpose(1, 2, 0, 3).reshape(r, ks)
    sa_data = boxes(np.fromfile(find(case, 'x1_mx_gm.bin'), np.uint8), vm)
    sb_data = boxes(np.fromfile(find(case, 'x2_mx_gm.bin'), np.uint8), vn).T
    sa = CubeTile('FLOAT8_E8M0', sa_data, (16, 2), 6, 3, (vm, ks))  # SCALING ZZ
    sb = CubeTile('FLOAT8_E8M0', np.ascontiguousarray(sb_data), (2, 16), 6, 4, (ks, vn))  # SCALING NN
    c = Cube('FLOAT32', vm, vn, LOC_ACC, LAY_NZ, (vm, vn))
    check(LIB.pto_tmatmul_mx(c.h, a.h, sa.h, b.h, sb.h), 'pto_tmatmul_mx')
    want = np.fromfile(find(case, 'golden.bin'), np.uint32).reshape(vm, vn)
    return compare(c.logical()[:vm, :vn], want, np.float32)


def extract_matmul(case, p, args):
    """TEXTRACT (and TMOV) from the mat tiles into the left and right tiles,
    then TMATMUL into an acc tile; the golden is the product of the windows.
    a (M x K) in a mat tile laid out NZ, ZN when the case transposes it
    (is_atrans: the file holds a's transpose), b (K x N) ZN, NZ when
    is_btrans (the file holds b's transpose unless is_btrans); the mat
    tiles are the padded target / base shape. TEXTRACTTest: windows from
    (start_m, start_k) and (start_k, start_n) by pto_textract; TMOVTest: the
    whole tiles by pto_tmov. pto_tmatmul under A5 multiplies the extracted
    tiles; FP8 and HiFloat8 tiles are first widened to FLOAT32 (pto_tcvt,
    exact; pto_tmatmul takes no 8-bit floats; the products and sums of the
    generator's small values are exact in float32 whatever the order); the
    FP4 cases: mx_extract_matmul."""
    an, bn = cube_name(p.atype), cube_name(p.btype)
    if an.startswith('FLOAT4'):
        return mx_extract_matmul(case, p, an, bn)
    cn = cube_name(p.ctype)
    m, k, n = p.m, p.k, p.n
    tm, tk, tn = (attr(p, 'target_m', 'base_m', default=0), attr(p, 'target_k', 'base_k', default=0),
                  attr(p, 'target_n', 'base_n', default=0))
    if tm or tk or tn:
        m_, k_, n_ = tm or m, tk or k, tn or n
    else:
        m_, k_, n_ = m, k, n
    ab, bb = np.dtype({4: np.uint32, 2: np.uint16, 1: np.uint8}[elem_bytes(an)]), \
        np.dtype({4: np.uint32, 2: np.uint16, 1: np.uint8}[elem_bytes(bn)])
    x1 = np.fromfile(find(case, 'x1_gm.bin'), ab)
    x2 = np.fromfile(find(case, 'x2_gm.bin'), bb)
    x1 = x1.reshape(k_, m_).T if p.is_atrans else x1.reshape(m_, k_)
    x2 = x2.reshape(k_, n_) if p.is_btrans else x2.reshape(n_, k_).T
    a_mat = Cube(an, m_, k_, LOC_MAT, LAY_ZN if p.is_atrans else LAY_NZ, (m_, k_), x1)
    b_mat = Cube(bn, k_, n_, LOC_MAT, LAY_NZ if p.is_btrans else LAY_ZN, (k_, n_), x2)
    sm, sk, sn = p.start_m, p.start_k, p.start_n
    vm, vk, vn = m - sm, k - sk, n - sn
    if os.path.basename(case).startswith('TMOVTest'):
        a = Cube(an, a_mat.rows, a_mat.cols, LOC_LEFT, LAY_NZ, (vm, vk))
        b = Cube(bn, b_mat.rows, b_mat.cols, LOC_RIGHT, LAY_ZN, (vk, vn))
        check(LIB.pto_tmov(a.h, a_mat.h), 'pto_tmov')
        check(LIB.pto_tmov(b.h, b_mat.h), 'pto_tmov')
    else:
        a = Cube(an, vm, vk, LOC_LEFT, LAY_NZ, (vm, vk))
        b = Cube(bn, vk, vn, LOC_RIGHT, LAY_ZN, (vk, vn))
        check(LIB.pto_textract(a.h, a_mat.h, sm, sk), 'pto_textract')
        check(LIB.pto_textract(b.h, b_mat.h, sk, sn), 'pto_textract')
    if an in LOWP.values():
        a, b = widened(a, LOC_LEFT, LAY_NZ), widened(b, LOC_RIGHT, LAY_ZN)
    c = Cube(cn, a.rows, b.cols, LOC_ACC, LAY_NZ, (vm, vn))  # a [M, K], b [K, N], dst [M, N]
    check(LIB.pto_tmatmul(c.h, a.h, b.h), 'pto_tmatmul')
    want = np.fromfile(find(case, 'golden.bin'), np.uint32).reshape(vm, vn)
    return compare(c.logical()[:vm, :vn], want, np.float32 if cn == 'FLOAT32' else None)


ADAPTERS['textract'] = extract_matmul
ADAPTERS['textract_compact'] = extract_matmul
for _op in ('textract', 'textract_compact', 'textract_vec', 'textract_ndto2xnz', 'tinsert_zn'):
    ADAPTER_SUITES[_op] = ('a5',)  # the CPU and A2A3 suites' generators of these are not mapped


VEC_LOWP = (('hif8', 'HIFLOAT8'), ('fp8_e4m3', 'FLOAT8_E4M3'), ('fp8_e5m2', 'FLOAT8_E5M2'),
            ('fp4_e2m1', 'FLOAT4_E2M1X2'), ('fp4_e1m2', 'FLOAT4_E1M2X2'))


def extract_vec(case, p, args):
    """TEXTRACT Vec -> Vec, A5's ND cases: src (src_rows x src_cols) into
    dst (its static shape, valid region dst_valid; 1 x 32 bytes valid 1x1
    for the scalar cases) holding dst_init, from (idx_row, idx_col); the
    golden is all of dst. The low-precision cases (uint8 in the generator;
    main.cpp's hifloat8_t, float8_e4m3_t, float8_e5m2_t, float4_e*x2_t by
    the case's name) as their pto dtypes, a packed FP4 tile's cols and
    idx_col counting bytes as the generator's do. The NZ cases' functions
    are not recorded (vec tiles in the NZ layout: libpto's vec tiles are
    ND)."""
    kw = p.kw
    dt = kw['dtype']
    low = [n for key, n in VEC_LOWP if key in os.path.basename(case)]
    if p.kw_fn == 'gen_nd_case':
        ss = (kw['src_rows'], kw['src_cols'])
        ds = (kw['dst_static_rows'], kw['dst_static_cols'])
        dv = (kw['dst_valid_rows'], kw['dst_valid_cols'])
    elif p.kw_fn == 'gen_nd_scalar_case':
        ss, ds, dv = (kw['src_rows'], kw['src_cols']), (1, 32 // np.dtype(dt).itemsize), (1, 1)
    else:
        raise Skip('generator %s not mapped' % p.kw_fn)
    if low:
        src, dst = RawTile(low[0], *ss), RawTile(low[0], *ds, *dv)
    else:
        src, dst = Tile(dt, *ss), Tile(dt, *ds, *dv)
    src.put(read_matrix(find(case, 'src_input.bin'), src.bits, [ss]))
    dst.put(read_matrix(find(case, 'dst_init.bin'), dst.bits, [ds]))
    check(LIB.pto_textract(dst.h, src.h, kw['idx_row'], kw['idx_col']), 'pto_textract')
    want = read_matrix(find(case, 'golden_output.bin'), dst.bits, [ds])
    return compare(dst.array().copy(), want)


ADAPTERS['textract_vec'] = extract_vec


GATHER_PATTERN = {'P0101': 1, 'P1010': 2, 'P0001': 3, 'P0010': 4, 'P0100': 5, 'P1000': 6, 'P1111': 7}


def gather_a5(case, p, args):
    """TGATHER, A5's suite: the index form (src0 as src0_row x src0_col,
    indices src1 of src1type, dst indices' shape; case5 / case6 hold FP8
    E4M3 / E5M2 bytes, main.cpp's float8 types, as the generator's int8),
    the mask-pattern form (src row x col, dst row x col whose first
    elements, in row order, are the kept columns packed: the golden) and
    the compare form (k_value one per row, UINT32 for 4-byte src and
    UINT16 otherwise; dst src_row x k of UINT32, cdst the counts; mode GT or
    EQ)."""
    name = os.path.basename(case)
    if hasattr(p, 'src0type'):
        low = {'f8e4m3': 'FLOAT8_E4M3', 'f8e5m2': 'FLOAT8_E5M2'}
        key = [v for k, v in low.items() if k in name]
        ss, ds = (p.src0_row, p.src0_col), (p.src1_row, p.src1_col)
        src = RawTile(key[0], *ss) if key else Tile(p.src0type, *ss)
        dst = RawTile(key[0], *ds) if key else Tile(p.src0type, *ds)
        idx = Tile(p.src1type, *ds)
        src.put(read_matrix(find(case, 'src0.bin'), src.bits, [ss]))
        idx.put(read_matrix(find(case, 'src1.bin'), idx.bits, [ds]))
        check(LIB.pto_tgather(dst.h, src.h, idx.h, None), 'pto_tgather')
        return compare(dst.valid(), read_matrix(find(case, 'golden.bin'), dst.bits, [ds]))
    if hasattr(p, 'pattern'):
        pat = [v for k, v in GATHER_PATTERN.items() if name.endswith(k)]
        src, dst = Tile(p.src_type, p.row, p.col), Tile(p.dst_type, p.row, p.col)
        src.put(read_matrix(find(case, 'x1_gm.bin'), src.bits, [(p.row, p.col)]))
        check(LIB.pto_tgather_mask(dst.h, src.h, pat[0], 0), 'pto_tgather_mask')
        want = np.fromfile(find(case, 'golden.bin'), dst.bits)
        return compare(dst.array().reshape(1, -1)[:, :want.size].copy(), want.reshape(1, -1))
    R, C = p.src_row, p.src_col
    src = Tile(p.src_type, R, C)
    src.put(read_matrix(find(case, 'src.bin'), src.bits, [(R, C)]))
    kdt = np.uint32 if np.dtype(p.src_type).itemsize == 4 else np.uint16
    kv = Tile(kdt, R, 1)
    kv.put(read_matrix(find(case, 'src1.bin'), kv.bits, [(R, 1)]))
    dst, cdst = Tile(p.dst_type, R, p.k), Tile(p.dst_type, R, 1)
    mode = 3 if p.cmpmode == 0 else 0  # PTO_CMP_GT, PTO_CMP_EQ
    check(LIB.pto_tgather_cmp(dst.h, src.h, kv.h, None, cdst.h, mode, p.i_offset), 'pto_tgather_cmp')
    return compare(dst.valid(), read_matrix(find(case, 'golden.bin'), dst.bits, [(R, p.k)]))


ADAPTERS['tgather'] = gather_a5
ADAPTER_SUITES['tgather'] = ('a5',)


# --- textract_vec (NZ), textract_ndto2xnz, tinsert and tinsert_vec (NZ), tinsert_zn ---
def nz_logical(img, rows, cols, e):
    """The row-major rows x cols matrix of an NZ byte image (boxes of 16 x
    32/e in column order, row-major inside): the inverse of the generators'
    nd_to_nz."""
    c0 = 32 // e
    return img.reshape(cols // c0, rows // 16, 16, c0).transpose(1, 2, 0, 3).reshape(rows, cols)


def vec_nz_name(case, dt):
    """The case's pto dtype: a low-precision one by the case's name (the
    generator's uint8), BFLOAT16 by the name, the other 2-byte integer
    cases as FLOAT16 bits and 4-byte ones as INT32 (the extract and insert
    move bits), else the numpy dtype's."""
    low = [n for key, n in VEC_LOWP if key in os.path.basename(case)]
    if low:
        return low[0]
    if 'bf16' in os.path.basename(case):
        return 'BFLOAT16'
    return {'float32': 'FLOAT32', 'float16': 'FLOAT16', 'uint16': 'FLOAT16', 'int16': 'FLOAT16',
            'int8': 'INT8', 'uint8': 'INT8', 'int32': 'INT32', 'uint32': 'INT32'}[np.dtype(dt).name]


def extract_vec_nz(case, p, args):
    """TEXTRACT Vec NZ -> Vec NZ, A5's NZ cases: src (src_rows x src_cols,
    src_input.bin row-major, main.cpp's load into the NZ tile) into dst
    (dst_rows x dst_cols, valid dst valid or 1x1 for the scalar cases, or
    the whole tile; A2A3's generator writes src as its NZ image) holding dst_init (an NZ image) from (idx_row, idx_col);
    the golden is all of dst as an NZ image, compared as the tile's values
    at their (row, col)."""
    kw = p.kw
    name = vec_nz_name(case, kw['dtype'])
    e = elem_bytes(name)
    ss, ds = (kw['src_rows'], kw['src_cols']), (kw['dst_rows'], kw['dst_cols'])
    dv = {'gen_nz_case': ds, 'gen_nz_scalar_case': (1, 1)}.get(
        p.kw_fn, (kw.get('valid_row'), kw.get('valid_col')))
    bits = {4: np.uint32, 2: np.uint16, 1: np.uint8}[e]
    if SUITE == 'a2a3':  # A2A3's generator writes src's NZ image
        data = nz_logical(np.fromfile(find(case, 'src_input.bin'), bits), *ss, e)
    else:
        data = read_matrix(find(case, 'src_input.bin'), np.dtype(bits), [ss])
    src = Cube(name, *ss, LOC_VEC, LAY_NZ, ss, data)
    init = nz_logical(np.fromfile(find(case, 'dst_init.bin'), bits), *ds, e)
    dst = Cube(name, *ds, LOC_VEC, LAY_NZ, dv, init)
    check(LIB.pto_textract(dst.h, src.h, kw['idx_row'], kw.get('idx_col', 0)), 'pto_textract')
    want = nz_logical(np.fromfile(find(case, 'golden_output.bin'), bits), *ds, e)
    return compare(dst.logical(), want)


def extract_vec_any(case, p, args):
    if (p.kw_fn or '').startswith('gen_nz'):
        return extract_vec_nz(case, p, args)
    return extract_vec(case, p, args)


ADAPTERS['textract_vec'] = extract_vec_any

ND2XNZ_NAMES = {'half': 'FLOAT16', 'float': 'FLOAT32', 'bf16': 'BFLOAT16', 'int8': 'INT8',
                'int32': 'INT32', 'hif8': 'HIFLOAT8', 'fp8e4m3': 'FLOAT8_E4M3',
                'fp8e5m2': 'FLOAT8_E5M2', 'fp8e8m0': 'FLOAT8_E8M0'}


def extract_nd2xnz(case, p, args):
    """TEXTRACT ND -> 2xNZ (A5): src ND (src_rows x src_cols, input_arr.bin)
    and two windows (rows, cols, index_row, index_col[, tile rows, tile
    cols]), each extracted by pto_textract into a zero-filled vec NZ tile of
    the window's (or the given) shape, valid the window's (a 1x1 window: a
    one-box tile of valid region 1x1, its golden the one element); golden<i>
    is window i's NZ image."""
    name = ND2XNZ_NAMES[os.path.basename(case).split('.case_')[1].rsplit('_', 1)[0]]
    e = elem_bytes(name)
    bits = {4: np.uint32, 2: np.uint16, 1: np.uint8}[e]
    kw = p.kw
    ss = (kw['src_rows'], kw['src_cols'])
    src = Cube(name, *ss, LOC_VEC, LAY_ND, ss,
               read_matrix(find(case, 'input_arr.bin'), np.dtype(bits), [ss]))
    for i, win in enumerate(kw['wins']):
        r, c, ir, ic = win[:4]
        one = r == 1 and c == 1
        shape = (16, 32 // e) if one else tuple(win[4:6]) if len(win) >= 6 else (r, c)
        dst = Cube(name, *shape, LOC_VEC, LAY_NZ, (r, c))
        check(LIB.pto_textract(dst.h, src.h, ir, ic), 'pto_textract')
        gold = np.fromfile(find(case, 'golden%d.bin' % i), bits)
        got = dst.logical()
        res = compare(got[:1, :1], gold.reshape(1, 1)) if one else compare(got, nz_logical(gold, *shape, e))
        if res is not None:
            return 'window %d: %s' % (i, res)
    return None


ADAPTERS['textract_ndto2xnz'] = extract_nd2xnz
for _op in ('textract_vec', 'textract_ndto2xnz'):
    ADAPTER_SUITES[_op] = ('a5', 'a2a3')  # A2A3's generators are A5's functions


INSERT_NZ_NAMES = (('fp16', 'FLOAT16'), ('bf16', 'BFLOAT16'), ('fp32', 'FLOAT32'), ('int8', 'INT8'),
                   ('fp8e5', 'FLOAT8_E5M2'), ('fp8e4', 'FLOAT8_E4M3'), ('hif8', 'HIFLOAT8'),
                   ('fp4e2m1', 'FLOAT4_E2M1X2'), ('fp4e1m2', 'FLOAT4_E1M2X2'),
                   ('e2m1', 'FLOAT4_E2M1X2'), ('e1m2', 'FLOAT4_E1M2X2'))


def nz_plus_one(img, rows, cols, e):
    """The rows x cols matrix of an NZ image whose column blocks hold one
    more row than the tile's (main.cpp's CompactMode::RowPlusOne source),
    the extra row dropped."""
    c0 = 32 // e
    blocks = img.reshape(cols // c0, rows + 1, c0)[:, :rows, :]
    return blocks.transpose(1, 0, 2).reshape(rows, cols)


def insert_nz(case, p, args):
    """TINSERT vec NZ -> mat NZ (or vec NZ for gen_nz_vec), A5's cases: each
    source (ND data moved into a vec NZ tile by pto_tmov, as main.cpp's TMOV
    does, or an NZ image main.cpp loads as is, a RowPlusOne image's extra
    row dropped) inserted by pto_tinsert at the case's (row, col) into a
    zero-filled NZ destination; the golden is the destination's NZ image,
    compared as its values at their (row, col). The split modes (SPLIT2,
    SPLIT4: the two vector cores sharing the copy) insert the same
    elements."""
    kw, fn, name = p.kw, p.kw_fn, os.path.basename(case)
    q = kw.get('p')
    low = [n for key, n in INSERT_NZ_NAMES if key in name.split('.case_')[1]]
    dt = getattr(q, 'dtype', kw.get('dtype'))
    if low:
        pname = low[0]
    elif dt is not None:
        pname = vec_nz_name(case, dt)
    else:
        pname = {4: 'FLOAT32', 2: 'FLOAT16', 1: 'INT8'}[q.dtype_size]
    e = elem_bytes(pname)
    bits = {4: np.uint32, 2: np.uint16, 1: np.uint8}[e]
    dst_loc = LOC_MAT
    inserts = []  # (logical src, valid rows, index_row, index_col)

    def nd_file(fname, rows, cols):
        return read_matrix(find(case, fname), np.dtype(bits), [(rows, cols)])
    if fn == 'gen_nz':
        ds = (kw['rows'], kw['cols'])
        inserts.append((nd_file('input_arr.bin', *ds), ds[0], 0, 0))
    elif fn == 'gen_nz_unaligned':
        ds = (kw['dst_rows'], kw['cols'])
        inserts.append((nd_file('input_arr.bin', kw['src_rows'], ds[1]), kw['src_rows'], kw['idx_row'], 0))
    elif fn == 'gen_nz_two_insert':
        ds = (q.dst_rows, q.cols)
        inserts.append((nd_file('src1_input.bin', q.src_rows1, q.cols), q.src_rows1, 0, 0))
        inserts.append((nd_file('src2_input.bin', q.src_rows2, q.cols), q.src_rows2, q.idx_row2, 0))
    elif fn == 'gen_nz_overwrite':
        ds = (kw['dst_rows'], kw['cols'])
        inserts.append((nd_file('src1_input.bin', *ds), ds[0], 0, 0))
        inserts.append((nd_file('src2_input.bin', kw['src_rows2'], ds[1]), kw['src_rows2'], kw['idx_row'], 0))
    elif fn == 'gen_nz_large_tile':
        ds = (q.dst_rows, q.cols)
        img = np.fromfile(find(case, 'input_arr.bin'), bits)
        inserts.append((nz_logical(img, q.tile_rows, q.cols, e), q.valid_row, q.idx_row, 0))
    elif fn == 'gen_nz_vec':
        ds, dst_loc = (q.dst_rows, q.dst_cols), LOC_VEC
        inserts.append((nd_file('input_arr.bin', q.src_rows, q.src_cols), q.src_rows, q.idx_row, 0))
    elif fn == 'gen_hif8_passthrough':
        ds = (kw['rows'], kw['cols'])
        img = np.fromfile(find(case, 'input_arr.bin'), bits)
        inserts.append((nz_logical(img, *ds, e), ds[0], 0, 0))
    elif fn == 'gen_twoinput':
        ds = (q.dst_rows, q.cols)
        rows = -(-max(q.idx_row1 + q.valid_row1, q.idx_row2 + q.valid_row2) // 16) * 16
        img = np.fromfile(find(case, 'input_arr.bin'), bits)[ds[0] * ds[1]:]
        inserts.append((nz_plus_one(img, rows, q.cols, e), rows and
                        max(q.idx_row1 + q.valid_row1, q.idx_row2 + q.valid_row2), 0, 0))
    elif fn == 'gen_double_twoinput':
        ds, rows = (q.dst_rows, q.cols), q.tile_rows - 1
        img = np.fromfile(find(case, 'input_arr.bin'), bits)[ds[0] * ds[1]:]
        half = img.size // 2
        for k, (vr, ir) in enumerate(((q.valid_row1, q.idx_row1), (q.valid_row2, q.idx_row2))):
            inserts.append((nz_plus_one(img[k * half:(k + 1) * half], rows, q.cols, e), vr, ir, 0))
    elif fn == 'gen_fp4_offset':
        ds = (q.dst_rows, q.dst_byte_cols)
        img = np.fromfile(find(case, 'input_arr.bin'), bits)[ds[0] * ds[1]:]
        inserts.append((nz_logical(img, q.src_rows, q.src_byte_cols, e), q.valid_rows, q.idx_row,
                        q.idx_byte_col))
    else:
        raise Skip('vec NZ -> mat NZ (%s): its golden holds ones outside the '
                   'inserted rows, a destination fill of main.cpp the generator does not record' % fn)
    dst = Cube(pname, *ds, dst_loc, LAY_NZ, ds)
    for data, vr, ir, ic in inserts:
        if fn in ('gen_nz_large_tile', 'gen_hif8_passthrough', 'gen_twoinput',
                  'gen_double_twoinput', 'gen_fp4_offset'):
            src = Cube(pname, *data.shape, LOC_VEC, LAY_NZ, (vr, data.shape[1]), data)
        else:  # main.cpp's TLOAD of ND data and TMOV into a vec NZ tile
            r16 = -(-data.shape[0] // 16) * 16
            nd = CubeTile(pname, data, (16, 32 // e), LOC_VEC, LAY_ND, data.shape)
            src = Cube(pname, r16, data.shape[1], LOC_VEC, LAY_NZ, (vr, data.shape[1]))
            check(LIB.pto_tile_set_valid(src.h, *data.shape), 'set_valid')
            check(LIB.pto_tmov(src.h, nd.h), 'pto_tmov')
            check(LIB.pto_tile_set_valid(src.h, vr, data.shape[1]), 'set_valid')
        check(LIB.pto_tinsert(dst.h, src.h, ir, ic), 'pto_tinsert')
    want = nz_logical(np.fromfile(find(case, 'golden_output.bin'), bits), *ds, e)
    return compare(dst.logical(), want)


def insert_any(case, p, args):
    """TINSERT: A5's vec NZ forms by insert_nz, A2A3's NZ Vec -> Vec
    cases by insert_nz_vec_a2a3; the rest as `insert`."""
    if p.kw_fn in ('gen_nz', 'gen_nz_unaligned', 'gen_nz_two_insert', 'gen_nz_overwrite',
                   'gen_nz_large_tile', 'gen_nz_vec', 'gen_nz_split_custom', 'gen_twoinput',
                   'gen_double_twoinput', 'gen_fp4_offset', 'gen_hif8_passthrough'):
        return insert_nz(case, p, args)
    if p.kw_fn in ('gen_nz_case', 'gen_nz_scalar_case'):
        return insert_nz_vec_a2a3(case, p, args)
    return insert(case, p, args)


def insert_nz_vec_a2a3(case, p, args):
    """TINSERT NZ Vec -> Vec, A2A3's tinsert_vec cases: src (src_rows x
    src_cols, valid src valid or 1x1) and dst (dst_init) from their NZ
    images, src inserted at (idx_row, idx_col); the golden is dst's NZ
    image, compared as each element's (row, col). The element types by
    size (FLOAT16, or BFLOAT16 by the case's name; FLOAT32; INT8): the
    insert moves bits."""
    kw, name = p.kw, os.path.basename(case)
    e = np.dtype(kw['dtype']).itemsize
    pname = {1: 'INT8', 2: 'BFLOAT16' if 'bf16' in name else 'FLOAT16', 4: 'FLOAT32'}[e]
    bits = {4: np.uint32, 2: np.uint16, 1: np.uint8}[e]
    ss, ds = (kw['src_rows'], kw['src_cols']), (kw['dst_rows'], kw['dst_cols'])
    sv = (kw['src_valid_rows'], kw['src_valid_cols']) if p.kw_fn == 'gen_nz_case' else (1, 1)
    src = Cube(pname, *ss, LOC_VEC, LAY_NZ, sv,
               nz_logical(np.fromfile(find(case, 'src_input.bin'), bits), *ss, e))
    dst = Cube(pname, *ds, LOC_VEC, LAY_NZ, ds,
               nz_logical(np.fromfile(find(case, 'dst_init.bin'), bits), *ds, e))
    check(LIB.pto_tinsert(dst.h, src.h, kw['idx_row'], kw['idx_col']), 'pto_tinsert')
    want = nz_logical(np.fromfile(find(case, 'golden_output.bin'), bits), *ds, e)
    return compare(dst.logical(), want)


ADAPTERS['tinsert'] = insert_any
ADAPTERS['tinsert_vec'] = insert_any


def zn_logical(img, rows, cols, e):
    """The row-major rows x cols matrix of a ZN byte image (boxes of 32/e x
    16 in row order, column-major inside): the inverse of the generator's
    nd_to_zn."""
    ir = 32 // e
    return img.reshape(rows // ir, cols // 16, 16, ir).transpose(0, 3, 1, 2).reshape(rows, cols)


# main.cpp's element types of the gen_zn cases (tinsert_zn_kernel.cpp's keys).
ZN_NAMES = {1: 'FLOAT16', 2: 'FLOAT16', 3: 'FLOAT32', 4: 'FLOAT32', 5: 'INT32', 6: 'INT8',
            7: 'FLOAT16', 8: 'BFLOAT16', 9: 'FLOAT8_E4M3', 10: 'FLOAT8_E5M2', 11: 'HIFLOAT8',
            12: 'FLOAT8_E8M0'}


def insert_zn(case, p, args):
    """TINSERT vec ZN -> mat ZN (A5): gen_zn, the whole ZN image
    (input_arr.bin) as a vec ZN tile inserted at (0, 0) into a mat ZN tile
    of its shape; gen_zn_fp4, the case's 32 x 32 bytes the same way as a
    packed FP4 tile of 32 x 32 bytes (pto-isa pairs a ZN FP4 tile's values
    along rows, libpto along cols; the whole-box copy carries the same
    bytes); gen_zn_offset, the destination's image (the background) then
    the source's (valid_row x src_cols, valid valid_row x valid_col)
    inserted at (idx_row, idx_col). The golden is the destination's ZN
    image, compared as its values at their (row, col)."""
    kw, fn, name = p.kw, p.kw_fn, os.path.basename(case)
    if fn == 'gen_zn':
        pname = ZN_NAMES[int(name.rsplit('_', 1)[1])]
        ds = (kw['rows'], kw['cols'])
    elif fn == 'gen_zn_fp4':
        pname = 'FLOAT4_E2M1X2' if name.endswith('_1') else 'FLOAT4_E1M2X2'
        ds = (kw['rows'] // 2, kw['cols'])
    elif fn == 'gen_zn_offset':
        q = kw['p']
        pname = vec_nz_name(case, q.dtype)
        ds = (q.dst_rows, q.dst_cols)
    else:
        raise Skip('generator %s not mapped' % fn)
    e = elem_bytes(pname)
    bits = {4: np.uint32, 2: np.uint16, 1: np.uint8}[e]
    img = np.fromfile(find(case, 'input_arr.bin'), bits)
    if fn == 'gen_zn_offset':
        n = ds[0] * ds[1]
        dst = Cube(pname, *ds, LOC_MAT, LAY_ZN, ds, zn_logical(img[:n], *ds, e))
        ss = (q.valid_row, q.src_cols)
        src = Cube(pname, *ss, LOC_VEC, LAY_ZN, (q.valid_row, q.valid_col),
                   zn_logical(img[n:], *ss, e))
        index = (q.idx_row, q.idx_col)
    else:
        dst = Cube(pname, *ds, LOC_MAT, LAY_ZN, ds)
        src = Cube(pname, *ds, LOC_VEC, LAY_ZN, ds, zn_logical(img, *ds, e))
        index = (0, 0)
    check(LIB.pto_tinsert(dst.h, src.h, *index), 'pto_tinsert')
    want = zn_logical(np.fromfile(find(case, 'golden_output.bin'), bits), *ds, e)
    return compare(dst.logical(), want)


ADAPTERS['tinsert_zn'] = insert_zn


# ---------------------------------------------------------------------------

def main():
    global LIB, ENUM, SUITE
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('lib')
    ap.add_argument('--mirror', default='/work/.mirror/hw-native-sys+pto-isa/repo')
    ap.add_argument('--work', default='/tmp/pto-isa-st')
    ap.add_argument('--suite', default='cpu,a5,a2a3')
    ap.add_argument('--op', default='')
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    LIB, ENUM = load_lib(a.lib)
    only = set(a.op.split(',')) - {''}
    total = {'pass': 0, 'doc': 0, 'fail': 0, 'refused': 0, 'skip': 0}
    for suite in a.suite.split(','):
        SUITE = suite
        LIB.pto_set_profile(PROFILE[suite])
        for op in sorted(ADAPTERS):
            if (only and op not in only) or suite not in ADAPTER_SUITES.get(op, (suite,)):
                continue
            r = subprocess.run(['git', '--git-dir', a.mirror, 'cat-file', '-e',
                                'HEAD:%s/%s/gen_data.py' % (SUITE_DIR[suite], op)],
                               stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                continue
            counts = {'pass': 0, 'doc': 0, 'fail': 0, 'refused': 0, 'skip': 0}
            notes = []
            try:
                cases = run_generator(a.mirror, suite, op, a.work)
            except Skip as e:
                print('%-5s %-18s skipped: %s' % (suite, op, e))
                continue
            seen = set()
            for case, args, kw in cases:
                if isinstance(case, tuple):
                    case = case[1] if os.path.isdir(case[1]) else case[0]
                name = os.path.basename(case)
                if case in seen or not os.path.isdir(case):
                    continue
                seen.add(case)
                try:
                    p = param_of(args)
                    if not isinstance(p, types.SimpleNamespace):
                        p = types.SimpleNamespace(**{k: getattr(p, k) for k in dir(p)
                                                     if not k.startswith('__')})
                    p.kw = kw
                    p.kw_fn = kw.get('__fn__')
                    res = ADAPTERS[op](case, p, args)
                except Skip as e:
                    counts['skip'] += 1
                    notes.append('  skip %s: %s' % (name, e))
                    continue
                except Refused as e:
                    counts['refused'] += 1
                    notes.append('  REFUSED %s: %s' % (name, e))
                    continue
                except Documented as e:
                    counts['doc'] += 1
                    notes.append('  DOC  %s: %s' % (name, e))
                    continue
                except Exception as e:
                    res = 'error: %s' % (e if a.v is False else traceback.format_exc())
                if res is None:
                    counts['pass'] += 1
                    if a.v:
                        notes.append('  pass %s' % name)
                else:
                    counts['fail'] += 1
                    notes.append('  DIFF %s: %s' % (name, res))
            base = os.path.join(a.work, suite, op)
            for d in sorted(os.listdir(base)):
                full = os.path.join(base, d)
                if (full not in seen and os.path.isdir(full)
                        and any(f.endswith('.bin') for f in os.listdir(full))):
                    counts['skip'] += 1
                    notes.append('  skip %s: its generator function is not mapped (%s)' % (
                        d, 'a cube or NZ form' if op.startswith(('tinsert', 'textract')) else 'no adapter'))
            for k in total:
                total[k] += counts[k]
            ncase = sum(counts.values())
            print('%-5s %-18s %3d cases: %d pass, %d differ (documented), %d differ, %d refused, '
                  '%d skipped' % (suite, op, ncase, counts['pass'], counts['doc'], counts['fail'],
                                  counts['refused'], counts['skip']))
            for n in notes:
                print(n)
    print('%d differ from the golden where libpto computes its documented rule (DOC lines)' % total['doc'])
    print('%d refused by libpto (REFUSED lines), counted as skipped' % total['refused'])
    print('%d passed, %d failed, %d skipped' % (total['pass'], total['fail'] + total['doc'],
                                               total['skip'] + total['refused']))
    return 1 if total['fail'] or total['doc'] else 0


if __name__ == '__main__':
    sys.exit(main())
