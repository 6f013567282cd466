#!/usr/bin/env python3
"""Runs pto-isa's A5 ST goldens of TQUANT's MX forms and TQUANT_DN through
pto_tquant_mx (ctypes on libpto.so) and compares every byte of dst and exp (and
DN's group maxima).

    G="git --git-dir=/work/.mirror/hw-native-sys+pto-isa/repo"
    mkdir -p /tmp/st/nd /tmp/st/dn
    $G show HEAD:tests/npu/a5/src/st/testcase/tquant/gen_data.py > /tmp/st/nd/gen_data.py
    $G show HEAD:tests/npu/a5/src/st/testcase/tquant_dn/gen_data.py > /tmp/st/dn/gen_data.py
    (cd /tmp/st/nd && python3 gen_data.py) && (cd /tmp/st/dn && python3 gen_data.py)
    tools/st-tquant-mx.py build/src/libpto.so /tmp/st/nd /tmp/st/dn

The generators need numpy and ml_dtypes. The NZ-mode cases are A5's kernel:
TQUANT in ND, then TMOV's vec repacks ND -> NZ (the E4M3 bytes) and ND -> ZZ
(the exponents), here pto_tmov from the vec tiles to a mat NZ tile and a
scaling ZZ tile, whose byte images are compared. The INT8 ones are pto_tquant's,
skipped here: tools/pto-isa-st.py --suite a5 --op tquant runs them (and
tests/test_quant.c builds a case the goldens' way); DN's interleaved exponents are compared
de-interleaved. Exit status 1 on a mismatch.
"""
import ctypes, os, re, sys
import numpy as np
lib = ctypes.CDLL(sys.argv[1])
PTO = dict(INT8=0, UINT8=1, FLOAT16=6, BFLOAT16=7, FLOAT32=8)
dtypes = {}
# the enum values of the low-precision types from the header
hdr = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../include/pto_c.h')).read()
for name in ['FLOAT8_E4M3', 'FLOAT8_E8M0', 'FLOAT4_E2M1X2', 'FLOAT16', 'BFLOAT16', 'FLOAT32', 'UINT8']:
    PTO[name] = int(re.search(r'PTO_%s = (\d+)' % name, hdr).group(1))
lib.pto_tile_create.argtypes = [ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p)]
lib.pto_tile_data.restype = ctypes.c_void_p
lib.pto_tile_data.argtypes = [ctypes.c_void_p]
lib.pto_tile_set_valid.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32]
lib.pto_tquant_mx.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int, ctypes.c_int]
lib.pto_last_error.restype = ctypes.c_char_p
lib.pto_tile_create_cube.argtypes = [ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_int, ctypes.c_int,
                                     ctypes.POINTER(ctypes.c_void_p)]
lib.pto_tmov.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
LOC_MAT, LOC_SCALING, LAYOUT_NZ, LAYOUT_ZZ = 1, 6, 1, 3
lib.pto_set_profile(2)  # A5
SIZE = {PTO['FLOAT32']: 4, PTO['FLOAT16']: 2, PTO['BFLOAT16']: 2}

def tile(dt, r, c, vr=None, vc=None):
    t = ctypes.c_void_p()
    assert lib.pto_tile_create(dt, r, c, ctypes.byref(t)) == 0
    lib.pto_tile_set_valid(t, r if vr is None else vr, c if vc is None else vc)
    return t

def buf(t, nbytes):
    return (ctypes.c_uint8 * nbytes).from_address(lib.pto_tile_data(t))

def run(src_dt, rows, cols, src_bytes, alg, axis, fp4):
    srct = tile(src_dt, rows, cols)
    buf(srct, rows * cols * SIZE[src_dt])[:] = src_bytes
    dc = cols // 2 if fp4 else cols
    dst = tile(PTO['FLOAT4_E2M1X2'] if fp4 else PTO['FLOAT8_E4M3'], rows, dc)
    br, bc = ((rows + 31) // 32, cols) if axis == 0 else (rows, (cols + 31) // 32)
    exp = tile(PTO['FLOAT8_E8M0'], br, bc)
    mx = tile(src_dt, br, bc)
    st = lib.pto_tquant_mx(dst, srct, exp, mx, None, alg, axis)
    if st != 0:
        raise RuntimeError(lib.pto_last_error().decode())
    return (np.frombuffer(bytes(buf(dst, rows * dc)), np.uint8).reshape(rows, dc),
            np.frombuffer(bytes(buf(exp, br * bc)), np.uint8).reshape(br, bc),
            bytes(buf(mx, br * bc * SIZE[src_dt])), dst, exp)

def repack(src, dt, rows, cols, loc, layout):
    """pto_tmov of a vec tile into a cube tile; the cube tile's byte image."""
    t = ctypes.c_void_p()
    assert lib.pto_tile_create_cube(dt, rows, cols, loc, layout, ctypes.byref(t)) == 0
    if lib.pto_tmov(t, src) != 0:
        raise RuntimeError(lib.pto_last_error().decode())
    return np.frombuffer(bytes(buf(t, rows * cols)), np.uint8)

DT = {'fp32': PTO['FLOAT32'], 'bf16': PTO['BFLOAT16'], 'fp16': PTO['FLOAT16']}
ok = bad = skipped = 0
nd = sys.argv[2]
for d in sorted(e for e in os.listdir(nd) if os.path.isdir(os.path.join(nd, e, '')) and '.case_' in e):
    m = re.match(r'TQUANTTEST\.case_(mxfp8|mxfp4_e2m1)(_nv)?_(fp32|bf16|fp16)_(\d+)x(\d+)(_.*)?_(nd|nz)$', d)
    if not m:  # the INT8 forms: tools/pto-isa-st.py's tquant adapter
        skipped += 1
        continue
    fmt, nv, dt, r, c, _, mode = m.groups()
    r, c = int(r), int(c)
    fp4 = fmt == 'mxfp4_e2m1'
    alg = (2 if fp4 else 0) + (1 if nv else 0)
    p = os.path.join(nd, d)
    src = open(os.path.join(p, 'input.bin'), 'rb').read()
    # the golden pads cols to 32 with zeros; libpto takes the valid region as it is
    out, exp, _, dst_t, exp_t = run(DT[dt], r, c, src, alg, 1, fp4)
    g_exp = np.fromfile(os.path.join(p, 'golden_e8m0.bin'), np.uint8).reshape(r, -1)
    g_dst = np.fromfile(os.path.join(p, 'golden_fp4.bin' if fp4 else 'golden_fp8.bin'), np.uint8)
    if mode == 'nz':  # the byte images: E4M3 in mat NZ, the exponents in scaling ZZ
        out = repack(dst_t, PTO['FLOAT8_E4M3'], r, c, LOC_MAT, LAYOUT_NZ).reshape(r, -1)
        exp = repack(exp_t, PTO['FLOAT8_E8M0'], r, exp.shape[1], LOC_SCALING, LAYOUT_ZZ).reshape(r, -1)
    g_dst = g_dst.reshape(r, -1)[:, :out.shape[1]]
    good = np.array_equal(exp, g_exp) and np.array_equal(out, g_dst)
    if not good:
        bad += 1
        idx = np.argwhere(out != g_dst)
        print('MISMATCH', d, 'exp diffs', int((exp != g_exp).sum()), 'dst diffs', len(idx),
              idx[:3].tolist(), [hex(out[tuple(i)]) for i in idx[:3]], [hex(g_dst[tuple(i)]) for i in idx[:3]])
    else:
        ok += 1
dn = sys.argv[3]
for d in sorted(e for e in os.listdir(dn) if os.path.isdir(os.path.join(dn, e, '')) and '.case_' in e):
    m = re.match(r'TQUANTDNTest\.case_(nv_)?(mxfp4_)?(validshape_)?(fp32|bf16|fp16)_(?:s\d+x\d+_v)?(\d+)x(\d+)(_interleaved)?$', d)
    if not m:
        skipped += 1
        continue
    nv, fp4, _, dt, r, c, _ = m.groups()
    r, c = int(r), int(c)
    fp4 = bool(fp4)
    alg = (2 if fp4 else 0) + (1 if nv else 0)
    p = os.path.join(dn, d)
    src = open(os.path.join(p, 'input.bin'), 'rb').read()
    es = SIZE[DT[dt]]
    if len(src) != r * c * es:
        # a valid-shape case: input is the valid region? take it as written
        print('skip (input size)', d, len(src), r, c); skipped += 1; continue
    out, exp, mx, _, _ = run(DT[dt], r, c, src, alg, 0, fp4)
    if os.path.exists(os.path.join(p, 'golden_e8_dn.bin')):
        g_exp = np.fromfile(os.path.join(p, 'golden_e8_dn.bin'), np.uint8)
    else:  # interleaved: [ceil(hat_m/2), 2c + delta] = E_DN[2p + delta][c]
        il = np.fromfile(os.path.join(p, 'golden_e8_dn_interleaved.bin'), np.uint8)
        hm = (r + 31) // 32
        il = il.reshape((hm + 1) // 2, c, 2)
        g_exp = il.transpose(0, 2, 1).reshape(-1, c)[:hm].reshape(-1)
    gm_path = os.path.join(p, 'golden_group_max.bin')
    g_dst = np.fromfile(os.path.join(p, 'golden_fp4_nd.bin' if fp4 else 'golden_fp8_nd.bin'), np.uint8)
    g_max = open(gm_path, 'rb').read() if os.path.exists(gm_path) else mx
    e_ok = np.array_equal(exp.reshape(-1), g_exp[:exp.size]) and g_exp.size == exp.size
    d_ok = np.array_equal(out.reshape(-1), g_dst) 
    m_ok = mx == g_max
    if e_ok and d_ok and m_ok:
        ok += 1
    else:
        bad += 1
        print('MISMATCH', d, e_ok, d_ok, m_ok, g_exp.size, exp.size, g_dst.size, out.size)
print('ok', ok, 'bad', bad, 'skipped', skipped)
sys.exit(1 if bad else 0)
