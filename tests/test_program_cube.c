/* The cube in programs: tiles of the mat, left, right, acc and bias
 * memories, their fractal layouts as byte images (checked against the
 * offsets written out here from pto-isa's layout definitions), the moves
 * between memories, tmatmul / tmatmul.acc / tmatmul.bias against the C
 * calls on row-major tiles (bit for bit) and a float64 reference (within
 * gamma_K sum |a||b|), tstore's casts and atomic add, and every refusal
 * with its sentence. Every case is written here. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* ---- text helpers ---- */

/* A tile_buf type in the keyword spelling. */
static const char *tile_type(char *out, size_t n, const char *loc, const char *dtype, unsigned rows,
                             unsigned cols, unsigned vr, unsigned vc, const char *layout) {
    const char *b = "row_major", *s = "none_box";
    unsigned fractal = 512;
    if (strcmp(layout, "NZ") == 0) b = "col_major", s = "row_major";
    else if (strcmp(layout, "ZN") == 0) s = "col_major";
    else if (strcmp(layout, "ZZ") == 0) s = "row_major";
    else if (strcmp(layout, "NN") == 0) b = "col_major", s = "col_major";
    else if (strcmp(layout, "ACC") == 0) b = "col_major", s = "row_major", fractal = 1024;
    else if (strcmp(layout, "DN") == 0) b = "col_major";
    snprintf(out, n,
             "!pto.tile_buf<loc=%s, dtype=%s, rows=%u, cols=%u, v_row=%u, v_col=%u, blayout=%s, "
             "slayout=%s, fractal=%u, pad=0>",
             loc, dtype, rows, cols, vr, vc, b, s, fractal);
    return out;
}

/* Whole-tile types (valid region = shape), one per row of specs. */
struct tile_spec {
    char *out; /* 512 bytes */
    const char *loc, *dtype;
    unsigned rows, cols;
    const char *layout;
};
static void tile_types(const struct tile_spec *specs, size_t n) {
    for (size_t i = 0; i < n; ++i)
        tile_type(specs[i].out, 512, specs[i].loc, specs[i].dtype, specs[i].rows, specs[i].cols, specs[i].rows,
                  specs[i].cols, specs[i].layout);
}

static const char *spelling(pto_dtype dt) {
    switch (dt) {
    case PTO_FLOAT32: return "f32";
    case PTO_FLOAT16: return "f16";
    case PTO_BFLOAT16: return "bf16";
    case PTO_INT8: return "i8";
    case PTO_INT32: return "i32";
    default: return "?";
    }
}

static unsigned round_up(unsigned x, unsigned m) { return (x + m - 1) / m * m; }

/* Arguments for p: its first n parameters the pointers data (nbytes each). */
static pto_args *pointer_args(pto_program *p, size_t n, void *const *data, const size_t *nbytes) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t i = 0; i < n; ++i) assert_int_equal(pto_args_set_pointer(a, i, data[i], nbytes[i]), PTO_OK);
    return a;
}

/* Runs `text` (pointers bound in order, nbytes each) on `blocks` blocks. */
static void run_with(pto_program *p, uint32_t blocks, size_t n, void *const *data, const size_t *nbytes) {
    pto_args *a = pointer_args(p, n, data, nbytes);
    if (pto_program_launch(p, blocks, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
    pto_args_destroy(a);
}

/* The offset of (r, c) in a boxed tile, written from pto-isa's definitions
 * (include/pto/cpu/tile_offsets.hpp, pto_tile.hpp): boxes of ir x ic
 * elements; blayout col_major walks the boxes down columns first; slayout
 * row_major lays a box's elements along its rows. */
static size_t image_offset(const char *layout, size_t rows, size_t cols, size_t esize, size_t r, size_t c) {
    size_t ir = 16, ic = 32 / esize;
    if (strcmp(layout, "ZN") == 0 || strcmp(layout, "NN") == 0) ir = 32 / esize, ic = 16;
    if (strcmp(layout, "ND") == 0) return r * cols + c;
    if (strcmp(layout, "DN") == 0) return c * rows + r;
    const size_t rb = r / ir, cb = c / ic, rr = r % ir, cc = c % ic;
    const int box_cols_first = strcmp(layout, "NZ") == 0 || strcmp(layout, "NN") == 0;
    const int in_rows = strcmp(layout, "NZ") == 0 || strcmp(layout, "ZZ") == 0;
    const size_t box = box_cols_first ? cb * rows * ic + rb * ir * ic : rb * cols * ir + cb * ir * ic;
    return box + (in_rows ? rr * ic + cc : cc * ir + rr);
}

/* tload of a rows x cols matrix into a mat tile of each layout, then the
 * same bytes read as one ND row (a tile placed on them): the byte image is
 * image_offset's. And an NZ [R, C] tile read as ZN [C, R] is the transpose. */
static void test_layout_images(void **state) {
    (void)state;
    static const char *const layouts[] = {"NZ", "ZN", "ZZ", "NN", "ND", "DN"};
    static const pto_dtype dtypes[] = {PTO_FLOAT32, PTO_BFLOAT16, PTO_INT8};
    int cases = 0;
    for (size_t li = 0; li < COUNT(layouts); ++li) {
        for (size_t di = 0; di < COUNT(dtypes); ++di) {
            const pto_dtype dt = dtypes[di];
            const size_t es = pto_dtype_size(dt);
            const unsigned rows = 64, cols = 64;
            char t[512], flat[512], text[4096];
            const char *d = spelling(dt);
            tile_type(t, sizeof t, "mat", d, rows, cols, rows, cols, layouts[li]);
            tile_type(flat, sizeof flat, "mat", d, 1, rows * cols, 1, rows * cols, "ND");
            snprintf(text, sizeof text,
                     "func.func @k(%%x: !pto.ptr<%s>, %%y: !pto.ptr<%s>) {\n"
                     "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                     "  %%c64 = arith.constant 64 : index\n  %%c4096 = arith.constant 4096 : index\n"
                     "  %%a0 = arith.constant 0 : i64\n"
                     "  %%v = pto.make_tensor_view %%x, shape = [%%c64, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<64x64x%s>\n"
                     "  %%w = pto.make_tensor_view %%y, shape = [%%c1, %%c4096], strides = [%%c4096, %%c1] : !pto.tensor_view<1x4096x%s>\n"
                     "  %%m = pto.alloc_tile addr = %%a0 : %s\n"
                     "  %%f = pto.alloc_tile addr = %%a0 : %s\n"
                     "  pto.tload ins(%%v : !pto.tensor_view<64x64x%s>) outs(%%m : %s)\n"
                     "  pto.tstore ins(%%f : %s) outs(%%w : !pto.tensor_view<1x4096x%s>)\n"
                     "  return\n}\n",
                     d, d, d, d, t, flat, d, t, flat, d);
            pto_program *p = program_build(text, NULL);
            uint8_t x[64 * 64 * 4], y[64 * 64 * 4];
            for (size_t i = 0; i < sizeof x; ++i) x[i] = (uint8_t)(i * 7 + 3);
            memset(y, 0xEE, sizeof y);
            void *data[] = {x, y};
            const size_t nbytes[] = {rows * cols * es, rows * cols * es};
            run_with(p, 1, 2, data, nbytes);
            for (size_t r = 0; r < rows; ++r)
                for (size_t c = 0; c < cols; ++c) {
                    const size_t at = image_offset(layouts[li], rows, cols, es, r, c);
                    if (memcmp(y + at * es, x + (r * cols + c) * es, es) != 0)
                        fail_msg("%s %s: element (%zu, %zu) is not at offset %zu", layouts[li], d, r, c, at);
                }
            pto_program_destroy(p);
            ++cases;
        }
    }
    /* An NZ [64, 32] tile and a ZN [32, 64] tile on the same bytes: the second is the transpose. */
    char nz[512], zn[512], text[4096];
    tile_type(nz, sizeof nz, "mat", "bf16", 64, 32, 64, 32, "NZ");
    tile_type(zn, sizeof zn, "mat", "bf16", 32, 64, 32, 64, "ZN");
    snprintf(text, sizeof text,
             "module attributes {pto.target_arch = \"a2a3\"} {\n"
             "func.func @k(%%x: !pto.ptr<bf16>, %%y: !pto.ptr<bf16>) {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c32 = arith.constant 32 : index\n  %%c64 = arith.constant 64 : index\n"
             "  %%a = arith.constant 8192 : i64\n"
             "  %%v = pto.make_tensor_view %%x, shape = [%%c64, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<64x32xbf16>\n"
             "  %%w = pto.make_tensor_view %%y, shape = [%%c32, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<32x64xbf16>\n"
             "  %%k = pto.alloc_tile addr = %%a : %s\n"
             "  %%kt = pto.alloc_tile addr = %%a : %s\n"
             "  pto.tload ins(%%v : !pto.tensor_view<64x32xbf16>) outs(%%k : %s)\n"
             "  pto.tstore ins(%%kt : %s) outs(%%w : !pto.tensor_view<32x64xbf16>)\n"
             "  return\n}\n}\n",
             nz, zn, nz, zn);
    pto_program *p = program_build(text, NULL);
    assert_int_equal(pto_program_profile(p), PTO_PROFILE_A2A3);
    uint16_t x[64 * 32], y[32 * 64];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (uint16_t)(i * 13 + 1);
    void *data[] = {x, y};
    const size_t nbytes[] = {sizeof x, sizeof y};
    run_with(p, 1, 2, data, nbytes);
    for (size_t r = 0; r < 32; ++r)
        for (size_t c = 0; c < 64; ++c) assert_int_equal(y[r * 64 + c], x[c * 32 + r]);
    pto_program_destroy(p);
    printf("[layouts] %d (layout, dtype) byte images as pto-isa's offsets; NZ read as ZN is the transpose\n",
           cases);
}

/* The C call's result for (m, k, n) on row-major data: what the program must give. */
static void c_call(int seed, pto_dtype st, pto_dtype dt, unsigned m, unsigned k, unsigned n, const void *a,
                   const void *b, const void *bias, void *c) {
    pto_tile *ta = NULL, *tb = NULL, *tc = NULL, *tbias = NULL;
    assert_int_equal(pto_tile_create(st, m, k, &ta), PTO_OK);
    assert_int_equal(pto_tile_create(st, k, n, &tb), PTO_OK);
    assert_int_equal(pto_tile_create(dt, m, n, &tc), PTO_OK);
    memcpy(pto_tile_data(ta), a, (size_t)m * k * pto_dtype_size(st));
    memcpy(pto_tile_data(tb), b, (size_t)k * n * pto_dtype_size(st));
    memcpy(pto_tile_data(tc), c, (size_t)m * n * pto_dtype_size(dt));
    pto_status s;
    if (seed == 2) {
        assert_int_equal(pto_tile_create(dt, 1, n, &tbias), PTO_OK);
        memcpy(pto_tile_data(tbias), bias, (size_t)n * pto_dtype_size(dt));
        s = pto_tmatmul_bias(tc, ta, tb, tbias);
    } else {
        s = seed == 1 ? pto_tmatmul_acc(tc, ta, tb) : pto_tmatmul(tc, ta, tb);
    }
    if (s != PTO_OK) fail_msg("C call: %s", pto_last_error());
    memcpy(c, pto_tile_data(tc), (size_t)m * n * pto_dtype_size(dt));
    TILES_DESTROY(ta, tb, tc, tbias);
}

/* A kernel multiplying an m x k matrix by a k x n one, both loaded into NZ
 * mat tiles of fractal-rounded shape with valid regions m x k and k x n,
 * moved to left (ZZ or NZ) and right (ZN), multiplied into an acc tile and
 * stored: seed 0 tmatmul; 1 tmatmul then tmatmul.acc of the same product
 * (c = 2ab, each chain continuing); 2 tmatmul.bias with a bias row loaded
 * into an ND mat row and moved to the bias table. */
static void matmul_text(char *text, size_t size, int seed, pto_dtype st, pto_dtype dt, unsigned m,
                        unsigned k, unsigned n, const char *left_layout) {
    const char *s = spelling(st), *d = spelling(dt);
    const unsigned es = (unsigned)pto_dtype_size(st);
    const unsigned mr = m == 1 ? 1 : round_up(m, 16);
    const unsigned kr = round_up(k, 32 / es > 16 ? 32 / es : 16), nr = round_up(n, 32 / es > 16 ? 32 / es : 16);
    char ma[512], mb[512], l[512], r[512], c[512], mbias[512], bias[512];
    tile_type(ma, sizeof ma, "mat", s, mr, kr, m, k, "NZ");
    tile_type(mb, sizeof mb, "mat", s, kr, nr, k, n, "NZ");
    tile_type(l, sizeof l, "left", s, mr, kr, m, k, left_layout);
    tile_type(r, sizeof r, "right", s, kr, nr, k, n, "ZN");
    tile_type(c, sizeof c, "acc", d, mr, nr, m, n, "ACC");
    tile_type(mbias, sizeof mbias, "mat", d, 1, nr, 1, n, "ND");
    tile_type(bias, sizeof bias, "bias", d, 1, nr, 1, n, "ND");
    size_t at = (size_t)snprintf(
        text, size,
        "func.func @k(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%bias: !pto.ptr<%s>, %%c: !pto.ptr<%s>) "
        "attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  %%c1 = arith.constant 1 : index\n  %%m = arith.constant %u : index\n"
        "  %%k = arith.constant %u : index\n  %%n = arith.constant %u : index\n"
        "  %%va = pto.make_tensor_view %%a, shape = [%%m, %%k], strides = [%%k, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vb = pto.make_tensor_view %%b, shape = [%%k, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vbias = pto.make_tensor_view %%bias, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vc = pto.make_tensor_view %%c, shape = [%%m, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%ma = pto.alloc_tile : %s\n  %%mb = pto.alloc_tile : %s\n"
        "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
        "  pto.section.cube {\n"
        "  pto.tload ins(%%va : !pto.tensor_view<?x?x%s>) outs(%%ma : %s)\n"
        "  pto.tload ins(%%vb : !pto.tensor_view<?x?x%s>) outs(%%mb : %s)\n"
        "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n"
        "  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n",
        s, s, d, d, m, k, n, s, s, d, d, ma, mb, l, r, c, s, ma, s, mb, ma, l, mb, r);
    if (seed == 2)
        at += (size_t)snprintf(text + at, size - at,
                               "  %%mbias = pto.alloc_tile : %s\n  %%tb = pto.alloc_tile : %s\n"
                               "  pto.tload ins(%%vbias : !pto.tensor_view<?x?x%s>) outs(%%mbias : %s)\n"
                               "  pto.tmov ins(%%mbias : %s) outs(%%tb : %s)\n"
                               "  pto.tmatmul.bias ins(%%l, %%r, %%tb : %s, %s, %s) outs(%%acc : %s)\n",
                               mbias, bias, d, mbias, mbias, bias, l, r, bias, c);
    else
        at += (size_t)snprintf(text + at, size - at, "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n",
                               l, r, c);
    if (seed == 1)
        at += (size_t)snprintf(text + at, size - at,
                               "  pto.tmatmul.acc ins(%%acc, %%l, %%r : %s, %s, %s) outs(%%acc : %s)\n", c, l,
                               r, c);
    snprintf(text + at, size - at,
             "  pto.tstore ins(%%acc : %s) outs(%%vc : !pto.tensor_view<?x?x%s>)\n  }\n  return\n}\n", c, d);
}

/* Each dtype triple x M in {1, 16, 128} x K not a multiple of 16 x N, valid
 * regions smaller than the tiles, left ZZ and NZ, the three seeds: the
 * program's result is the C calls' bit for bit, and within gamma_K sum |a||b|
 * of the float64 product (exact for int8). */
static void test_matmul_programs(void **state) {
    (void)state;
    static const pto_dtype sources[] = {PTO_BFLOAT16, PTO_FLOAT16, PTO_FLOAT32, PTO_INT8};
    static const unsigned ms[] = {1, 16, 128}, ks[] = {37, 70}, ns[] = {20, 64};
    const bool quick = under_emulation();
    rng r = {44};
    int programs = 0;
    double worst = 0;
    for (size_t si = 0; si < COUNT(sources); ++si)
        for (size_t mi = 0; mi < COUNT(ms); ++mi)
            for (size_t ki = 0; ki < COUNT(ks); ++ki)
                for (size_t ni = 0; ni < COUNT(ns); ++ni)
                    for (int seed = 0; seed < 3; ++seed) {
                        if (quick && ((ki + ni + (size_t)seed) % 3 != 0 || (mi == 2 && si != 0))) continue;
                        const pto_dtype st = sources[si];
                        const pto_dtype dt = st == PTO_INT8 ? PTO_INT32 : PTO_FLOAT32;
                        const unsigned m = ms[mi], k = ks[ki], n = ns[ni];
                        const size_t es = pto_dtype_size(st);
                        uint8_t *a = malloc((size_t)m * k * es), *b = malloc((size_t)k * n * es);
                        uint32_t *bias = malloc(n * 4), *c = calloc((size_t)m * n, 4), *want = calloc((size_t)m * n, 4);
                        for (size_t i = 0; i < (size_t)m * k; ++i)
                            ref_store(st, a, i, ref_from_double(st, st == PTO_INT8 ? (double)(int)(rng_next(&r) % 256) - 128 : rng_uniform(&r, -2, 2)));
                        for (size_t i = 0; i < (size_t)k * n; ++i)
                            ref_store(st, b, i, ref_from_double(st, st == PTO_INT8 ? (double)(int)(rng_next(&r) % 256) - 128 : rng_uniform(&r, -2, 2)));
                        for (size_t j = 0; j < n; ++j)
                            bias[j] = ref_from_double(dt, dt == PTO_INT32 ? (double)(int)(rng_next(&r) % 1000) : rng_uniform(&r, -1, 1));
                        c_call(seed == 1 ? 0 : seed, st, dt, m, k, n, a, b, bias, want);
                        if (seed == 1) c_call(1, st, dt, m, k, n, a, b, bias, want);
                        for (int li = 0; li < 2; ++li) {
                            static char text[16384];
                            matmul_text(text, sizeof text, seed, st, dt, m, k, n, li == 0 ? "ZZ" : "NZ");
                            pto_program *p = program_build(text, NULL);
                            memset(c, 0x5A, (size_t)m * n * 4);
                            void *data[] = {a, b, bias, c};
                            const size_t nbytes[] = {(size_t)m * k * es, (size_t)k * n * es, n * 4, (size_t)m * n * 4};
                            run_with(p, 1, 4, data, nbytes);
                            for (size_t i = 0; i < (size_t)m * n; ++i)
                                if (c[i] != want[i])
                                    fail_msg("%s x%u,%u,%u seed %d left %s: element %zu is %08x, the C call's %08x",
                                             spelling(st), m, k, n, seed, li == 0 ? "ZZ" : "NZ", i, c[i], want[i]);
                            pto_program_destroy(p);
                            ++programs;
                        }
                        /* Against float64: |c - exact| <= gamma_K sum |a||b| (+ the seed's share). */
                        const double u = ldexp(1.0, -24), gamma = (2.0 * k + 1) * u / (1 - (2.0 * k + 1) * u);
                        for (size_t i = 0; i < m; ++i)
                            for (size_t j = 0; j < n; ++j) {
                                double exact = seed == 2 ? ref_to_double(dt, bias[j]) : 0, mag = fabs(exact);
                                for (size_t q = 0; q < k; ++q) {
                                    const double x = ref_to_double(st, ref_load(st, a, i * k + q)) *
                                                     ref_to_double(st, ref_load(st, b, q * n + j));
                                    exact += x * (seed == 1 ? 2 : 1);
                                    mag += fabs(x) * (seed == 1 ? 2 : 1);
                                }
                                const double got = ref_to_double(dt, c[i * n + j]);
                                if (dt == PTO_INT32) {
                                    assert_true(got == exact);
                                } else {
                                    const double err = fabs(got - exact);
                                    if (err > gamma * mag) fail_msg("%s: error %g above the bound %g", spelling(st), err, gamma * mag);
                                    if (mag > 0 && err / (gamma * mag) > worst) worst = err / (gamma * mag);
                                }
                            }
                        free(a), free(b), free(bias), free(c), free(want);
                    }
    printf("[matmul programs] %d programs equal the C calls bit for bit; the float error used at most %.3f of "
           "gamma_K sum|a||b|%s\n",
           programs, worst, quick ? " (a sample under emulation)" : "");
}

/* A launch's matrix multiplies take the launching thread's cube mode
 * (pto_set_hf32_mode, pto_set_tf32_mode): the f32 program of a2a3 (left ZZ)
 * with HF32 on and of a5 (left NZ) with TF32 on gives the bits of the same
 * program with the modes off on inputs rounded beforehand by the reference
 * (11 and 10 fraction bits), which differ from the plain product's. */
static void test_matmul_program_cube_mode(void **state) {
    (void)state;
    static const char *const archs[] = {"a2a3", "a5"}, *const lefts[] = {"ZZ", "NZ"};
    static const int fraction_bits[] = {11, 10};
    const unsigned m = 16, k = 37, n = 20;
    rng r = {0xC3B};
    float a[16 * 37], b[37 * 20], ra[16 * 37], rb[37 * 20], bias[20] = {0};
    float moded[16 * 20], want[16 * 20], plain[16 * 20];
    for (size_t i = 0; i < COUNT(a); ++i) a[i] = (float)rng_uniform(&r, -3, 3);
    for (size_t i = 0; i < COUNT(b); ++i) b[i] = (float)rng_uniform(&r, -3, 3);
    for (size_t t = 0; t < COUNT(archs); ++t) {
        static char body[16384], text[16800];
        matmul_text(body, sizeof body, 0, PTO_FLOAT32, PTO_FLOAT32, m, k, n, lefts[t]);
        snprintf(text, sizeof text, "module attributes {pto.target_arch = \"%s\"} {\n%s}\n", archs[t], body);
        pto_program *p = program_build(text, NULL);
        const bool away = t == 0;
        for (size_t i = 0; i < COUNT(a); ++i) ra[i] = ref_round_f32_fraction(a[i], fraction_bits[t], away);
        for (size_t i = 0; i < COUNT(b); ++i) rb[i] = ref_round_f32_fraction(b[i], fraction_bits[t], away);
        const size_t nbytes[] = {sizeof a, sizeof b, sizeof bias, sizeof moded};
        assert_int_equal(pto_set_hf32_mode(1, away ? PTO_ROUND_ROUND : PTO_ROUND_RINT), PTO_OK);
        assert_int_equal(pto_set_tf32_mode(1, away ? PTO_ROUND_ROUND : PTO_ROUND_RINT), PTO_OK);
        /* One block: the program's blocks all store the whole product, a
         * race between blocks (ThreadSanitizer's step). */
        run_with(p, 1, 4, (void *const[]){a, b, bias, moded}, nbytes);
        assert_int_equal(pto_set_hf32_mode(0, PTO_ROUND_ROUND), PTO_OK);
        assert_int_equal(pto_set_tf32_mode(0, PTO_ROUND_ROUND), PTO_OK);
        run_with(p, 1, 4, (void *const[]){ra, rb, bias, want}, nbytes);
        run_with(p, 1, 4, (void *const[]){a, b, bias, plain}, nbytes);
        assert_memory_equal(moded, want, sizeof moded);
        assert_memory_not_equal(moded, plain, sizeof moded);
        pto_program_destroy(p);
    }
    expect_program_refused_with("module {\nfunc.func @k() {\n  pto.sethf32mode {enable = true}\n  return\n}\n}\n", NULL,
                                "pto_set_hf32_mode");
    printf("[matmul programs] a2a3's HF32 and a5's TF32 modes of the launching thread round the inputs; "
           "pto.sethf32mode is refused with the C function's name\n");
}

/* textract windows of an NZ mat tile into left and right tiles, read back
 * through a product with the identity (exact): the window at (row, col).
 * A window off pto-isa's alignment is refused where it runs. */
static void test_textract_windows(void **state) {
    (void)state;
    char mat[512], l[512], r[512], idr[512], idl[512], acc[512], mid[512], text[16384];
    tile_type(mat, sizeof mat, "mat", "bf16", 64, 64, 64, 64, "NZ");
    tile_type(mid, sizeof mid, "mat", "bf16", 32, 32, 32, 32, "NZ");
    tile_type(l, sizeof l, "left", "bf16", 32, 32, 32, 32, "ZZ");
    tile_type(r, sizeof r, "right", "bf16", 32, 32, 32, 32, "ZN");
    tile_type(idl, sizeof idl, "left", "bf16", 32, 32, 32, 32, "ZZ");
    tile_type(idr, sizeof idr, "right", "bf16", 32, 32, 32, 32, "ZN");
    tile_type(acc, sizeof acc, "acc", "f32", 32, 32, 32, 32, "ACC");
    for (int right = 0; right < 2; ++right) {
        snprintf(text, sizeof text,
                 "func.func @k(%%x: !pto.ptr<bf16>, %%e: !pto.ptr<bf16>, %%y: !pto.ptr<f32>, %%row: index, %%col: index) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%c32 = arith.constant 32 : index\n"
                 "  %%c64 = arith.constant 64 : index\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%c64, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<64x64xbf16>\n"
                 "  %%ve = pto.make_tensor_view %%e, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xbf16>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xf32>\n"
                 "  %%m = pto.alloc_tile : %s\n  %%me = pto.alloc_tile : %s\n"
                 "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<64x64xbf16>) outs(%%m : %s)\n"
                 "  pto.tload ins(%%ve : !pto.tensor_view<32x32xbf16>) outs(%%me : %s)\n"
                 "  pto.textract ins(%%m, %%row, %%col : %s, index, index) outs(%s : %s)\n"
                 "  pto.tmov ins(%%me : %s) outs(%s : %s)\n"
                 "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                 "  pto.tstore ins(%%acc : %s) outs(%%w : !pto.tensor_view<32x32xf32>)\n"
                 "  return\n}\n",
                 mat, mid, right ? idl : l, right ? r : idr, acc, mat, mid, mat, right ? "%r" : "%l",
                 right ? r : l, mid, right ? "%l" : "%r", right ? idl : idr, right ? idl : l,
                 right ? r : idr, acc, acc);
        pto_program *p = program_build(text, NULL);
        static const int windows[][2] = {{0, 0}, {16, 16}, {32, 16}, {16, 32}, {32, 32}};
        uint16_t x[64 * 64], e[32 * 32] = {0};
        float y[32 * 32];
        for (size_t i = 0; i < COUNT(x); ++i) x[i] = (uint16_t)ref_from_double(PTO_BFLOAT16, (double)(int)(i % 97) - 48);
        for (size_t i = 0; i < 32; ++i) e[i * 33] = 0x3F80; /* 1.0 */
        for (size_t w = 0; w < COUNT(windows); ++w) {
            pto_args *a = NULL;
            assert_int_equal(pto_args_create(p, &a), PTO_OK);
            assert_int_equal(pto_args_set_pointer(a, 0, x, sizeof x), PTO_OK);
            assert_int_equal(pto_args_set_pointer(a, 1, e, sizeof e), PTO_OK);
            assert_int_equal(pto_args_set_pointer(a, 2, y, sizeof y), PTO_OK);
            assert_int_equal(pto_args_set_int(a, 3, windows[w][0]), PTO_OK);
            assert_int_equal(pto_args_set_int(a, 4, windows[w][1]), PTO_OK);
            if (pto_program_run(p, a) != PTO_OK) fail_msg("%s", pto_last_error());
            for (size_t i = 0; i < 32; ++i)
                for (size_t j = 0; j < 32; ++j)
                    assert_true(y[i * 32 + j] ==
                                ref_to_double(PTO_BFLOAT16, x[(windows[w][0] + i) * 64 + windows[w][1] + j]));
            /* Off the alignment (8 rows: a left from NZ bf16 wants 16; a right wants 16 for its transposing read). */
            assert_int_equal(pto_args_set_int(a, 3, 8), PTO_OK);
            assert_int_equal(pto_program_run(p, a), PTO_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(pto_last_error(), "must start at a multiple of 16 rows"));
            /* Out of the tile. */
            assert_int_equal(pto_args_set_int(a, 3, 48), PTO_OK);
            assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
            assert_non_null(strstr(pto_last_error(), "is outside %m's 64x64"));
            pto_args_destroy(a);
        }
        pto_program_destroy(p);
    }
    printf("[textract] windows into left and right read back exactly; misaligned and outside windows refused\n");
}

/* tstore from an acc tile to f16 and bf16 rounds to nearest even; atomic add
 * adds to what global memory holds (i32 modulo 2^32). */
static void test_acc_stores(void **state) {
    (void)state;
    char ml[512], mr[512], l[512], r[512], acc[512], text[16384];
    static const pto_dtype outs[] = {PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    tile_type(ml, sizeof ml, "mat", "f32", 16, 16, 16, 16, "NZ");
    tile_type(mr, sizeof mr, "mat", "f32", 16, 16, 16, 16, "NZ");
    tile_type(l, sizeof l, "left", "f32", 16, 16, 16, 16, "ZZ");
    tile_type(r, sizeof r, "right", "f32", 16, 16, 16, 16, "ZN");
    tile_type(acc, sizeof acc, "acc", "f32", 16, 16, 16, 16, "ACC");
    for (size_t o = 0; o < COUNT(outs); ++o) {
        const char *d = spelling(outs[o]);
        const bool atomic = outs[o] == PTO_FLOAT32;
        snprintf(text, sizeof text,
                 "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<%s>) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16x%s>\n"
                 "  %%a = pto.alloc_tile : %s\n  %%i = pto.alloc_tile : %s\n"
                 "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<16x16xf32>) outs(%%a : %s)\n"
                 "  pto.tmov ins(%%a : %s) outs(%%l : %s)\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<16x16xf32>) outs(%%i : %s)\n"
                 "  pto.tmov ins(%%i : %s) outs(%%r : %s)\n"
                 "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                 "  pto.tstore ins(%%acc : %s) outs(%%w : !pto.tensor_view<16x16x%s>)%s\n"
                 "  return\n}\n",
                 d, d, ml, mr, l, r, acc, ml, ml, l, mr, mr, r, l, r, acc, acc, d,
                 atomic ? " {atomicType = #pto<atomic_type atomic_add>}" : "");
        pto_program *p = program_build(text, NULL);
        /* x = e_0 e_0^T scaled: (x x)(0,0) = x00^2, the rest from row/col 0 products; pick x with one
         * nonzero element per row and column (a permutation) so x x has exact entries a*b. */
        float x[256] = {0};
        rng g = {7};
        for (size_t i = 0; i < 16; ++i) {
            uint32_t bits = 0x3F800000u | (uint32_t)(rng_next(&g) & 0x7FFFFFu);
            memcpy(&x[i * 16 + (i * 5) % 16], &bits, 4);
        }
        uint32_t y[256];
        for (size_t i = 0; i < 256; ++i) y[i] = atomic ? 0x3F800000u : 0;
        void *data[] = {x, y};
        const size_t nbytes[] = {sizeof x, 256 * pto_dtype_size(outs[o])};
        run_with(p, 1, 2, data, nbytes);
        for (size_t i = 0; i < 16; ++i)
            for (size_t j = 0; j < 16; ++j) {
                double exact = 0;
                for (size_t q = 0; q < 16; ++q) exact += (double)x[i * 16 + q] * x[q * 16 + j];
                const float prod = (float)exact; /* one nonzero term: exact in f32 */
                if (atomic) {
                    float want = prod + 1.0f, got;
                    memcpy(&got, &y[i * 16 + j], 4);
                    assert_true(got == want);
                } else {
                    const uint32_t got = ref_load(outs[o], y, i * 16 + j);
                    assert_int_equal(got, ref_from_double(outs[o], prod));
                }
            }
        pto_program_destroy(p);
    }
    printf("[acc stores] f32 to f16 and bf16 round to nearest even; atomic add adds to global memory\n");
}

/* tmov of an f32 acc tile to an f16 or bf16 tile: the fixpipe's cast
 * (TMOV's plain form, F322F16 / F322BF16), rounded to nearest even: under
 * a2a3 into a mat tile (then stored from mat), under a5 into a vec tile
 * (then stored from vec). The products have 24 significant bits, so the
 * casts round. */
static void test_acc_casts(void **state) {
    (void)state;
    char ml[512], l[512], r[512], acc[512], out[512], text[16384];
    static const pto_dtype outs[] = {PTO_FLOAT16, PTO_BFLOAT16};
    static const char *archs[] = {"a2a3", "a5"};
    for (size_t t = 0; t < COUNT(archs); ++t)
        for (size_t o = 0; o < COUNT(outs); ++o) {
            const char *d = spelling(outs[o]);
            const bool a5 = t == 1;
            tile_type(ml, sizeof ml, "mat", "f32", 16, 16, 16, 16, "NZ");
            tile_type(l, sizeof l, "left", "f32", 16, 16, 16, 16, a5 ? "NZ" : "ZZ");
            tile_type(r, sizeof r, "right", "f32", 16, 16, 16, 16, "ZN");
            tile_type(acc, sizeof acc, "acc", "f32", 16, 16, 16, 16, "ACC");
            tile_type(out, sizeof out, a5 ? "vec" : "mat", d, 16, 16, 16, 16, a5 ? "ND" : "NZ");
            snprintf(text, sizeof text,
                     "module attributes {pto.target_arch = \"%s\"} {\n"
                     "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<%s>) {\n"
                     "  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                     "  %%v = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                     "  %%w = pto.make_tensor_view %%y, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16x%s>\n"
                     "  %%a = pto.alloc_tile : %s\n  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n"
                     "  %%acc = pto.alloc_tile : %s\n  %%o = pto.alloc_tile : %s\n"
                     "  pto.tload ins(%%v : !pto.tensor_view<16x16xf32>) outs(%%a : %s)\n"
                     "  pto.tmov ins(%%a : %s) outs(%%l : %s)\n"
                     "  pto.tmov ins(%%a : %s) outs(%%r : %s)\n"
                     "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                     "  pto.tmov ins(%%acc : %s) outs(%%o : %s)\n"
                     "  pto.tstore ins(%%o : %s) outs(%%w : !pto.tensor_view<16x16x%s>)\n"
                     "  return\n}\n}\n",
                     archs[t], d, d, ml, l, r, acc, out, ml, ml, l, ml, r, l, r, acc, acc, out, out, d);
            pto_program *p = program_build(text, NULL);
            /* One nonzero element per row and column (a permutation): each
             * product x x has one term, exact in f32, with 24 significant bits. */
            float x[256] = {0};
            rng g = {11 + (uint64_t)o};
            for (size_t i = 0; i < 16; ++i) {
                uint32_t bits = 0x3F800000u | (uint32_t)(rng_next(&g) & 0x7FFFFFu) | 1u;
                memcpy(&x[i * 16 + (i * 5) % 16], &bits, 4);
            }
            uint16_t y[256];
            memset(y, 0x5A, sizeof y);
            void *data[] = {x, y};
            const size_t nbytes[] = {sizeof x, sizeof y};
            run_with(p, 1, 2, data, nbytes);
            int rounded = 0;
            for (size_t i = 0; i < 16; ++i)
                for (size_t j = 0; j < 16; ++j) {
                    double exact = 0;
                    for (size_t q = 0; q < 16; ++q) exact += (double)x[i * 16 + q] * x[q * 16 + j];
                    const float prod = (float)exact;
                    const uint32_t want = ref_from_double(outs[o], prod);
                    assert_int_equal(y[i * 16 + j], want);
                    rounded += ref_to_double(outs[o], want) != (double)prod;
                }
            assert_true(rounded > 0);
            pto_program_destroy(p);
        }
    printf("[acc casts] tmov of an f32 acc tile to f16 and bf16 (a2a3 mat, a5 vec) rounds to nearest even\n");
}

/* tinsert of an acc tile into an NZ mat tile (the fixpipe's plain form):
 * the product lands at [16, 16) x [16, 16) of a 32 x 32 mat tile loaded
 * from y, the rest of it kept, then the mat tile is stored to y: under
 * a2a3 cast to f16 (its only plain form), under HOST kept in f32. */
static void test_acc_inserts(void **state) {
    (void)state;
    char ml[512], l[512], r[512], acc[512], big[512], text[16384];
    static const pto_dtype outs[] = {PTO_FLOAT16, PTO_FLOAT32};
    for (size_t t = 0; t < COUNT(outs); ++t) {
        const char *d = spelling(outs[t]);
        tile_type(ml, sizeof ml, "mat", "f32", 16, 16, 16, 16, "NZ");
        tile_type(l, sizeof l, "left", "f32", 16, 16, 16, 16, "ZZ");
        tile_type(r, sizeof r, "right", "f32", 16, 16, 16, 16, "ZN");
        tile_type(acc, sizeof acc, "acc", "f32", 16, 16, 16, 16, "ACC");
        tile_type(big, sizeof big, "mat", d, 32, 32, 32, 32, "NZ");
        snprintf(text, sizeof text,
                 "module%s {\n"
                 "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<%s>) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                 "  %%c32 = arith.constant 32 : index\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32x%s>\n"
                 "  %%a = pto.alloc_tile : %s\n  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n"
                 "  %%acc = pto.alloc_tile : %s\n  %%m = pto.alloc_tile : %s\n"
                 "  pto.tload ins(%%w : !pto.tensor_view<32x32x%s>) outs(%%m : %s)\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<16x16xf32>) outs(%%a : %s)\n"
                 "  pto.tmov ins(%%a : %s) outs(%%l : %s)\n"
                 "  pto.tmov ins(%%a : %s) outs(%%r : %s)\n"
                 "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                 "  pto.tinsert ins(%%acc, %%c16, %%c16 : %s, index, index) outs(%%m : %s)\n"
                 "  pto.tstore ins(%%m : %s) outs(%%w : !pto.tensor_view<32x32x%s>)\n"
                 "  return\n}\n}\n",
                 t == 0 ? " attributes {pto.target_arch = \"a2a3\"}" : "", d, d, ml, l, r, acc, big, d, big, ml, ml, l, ml, r, l, r, acc, acc, big, big, d);
        pto_program *p = program_build(text, NULL);
        float x[256] = {0};
        rng g = {23};
        for (size_t i = 0; i < 16; ++i) {
            uint32_t bits = 0x3F800000u | (uint32_t)(rng_next(&g) & 0x7FFFFFu) | 1u;
            memcpy(&x[i * 16 + (i * 7) % 16], &bits, 4);
        }
        uint32_t y[1024];
        for (size_t i = 0; i < 1024; ++i) ref_store(outs[t], y, i, ref_from_double(outs[t], (double)i - 300));
        void *data[] = {x, y};
        const size_t nbytes[] = {sizeof x, 1024 * pto_dtype_size(outs[t])};
        run_with(p, 1, 2, data, nbytes);
        for (size_t i = 0; i < 32; ++i)
            for (size_t j = 0; j < 32; ++j) {
                uint32_t want = ref_from_double(outs[t], (double)(i * 32 + j) - 300);
                if (i >= 16 && j >= 16) {
                    double exact = 0;
                    for (size_t q = 0; q < 16; ++q) exact += (double)x[(i - 16) * 16 + q] * x[q * 16 + j - 16];
                    want = ref_from_double(outs[t], (float)exact);
                }
                assert_int_equal(ref_load(outs[t], y, i * 32 + j), want);
            }
        pto_program_destroy(p);
    }
    printf("[acc inserts] tinsert puts an acc tile's product into a mat tile at [16, 16), the rest kept "
           "(a2a3: cast to f16)\n");
}

/* Split K with atomic adds: block b multiplies A's columns [16 b, 16 b + 16)
 * by B's rows there and adds its 16 x 16 product to C. The adds land in
 * block order, so C is ((C0 + P0) + P1) + ... in float32 whatever the
 * number of threads. */
static void test_split_k_atomic_adds(void **state) {
    (void)state;
    char ma[512], mb[512], l[512], r[512], acc[512], text[16384];
    tile_type(ma, sizeof ma, "mat", "f32", 16, 16, 16, 16, "NZ");
    tile_type(mb, sizeof mb, "mat", "f32", 16, 16, 16, 16, "NZ");
    tile_type(l, sizeof l, "left", "f32", 16, 16, 16, 16, "NZ");
    tile_type(r, sizeof r, "right", "f32", 16, 16, 16, 16, "ZN");
    tile_type(acc, sizeof acc, "acc", "f32", 16, 16, 16, 16, "ACC");
    snprintf(text, sizeof text,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "func.func @k(%%a: !pto.ptr<f32>, %%b: !pto.ptr<f32>, %%c: !pto.ptr<f32>) "
             "attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c16 = arith.constant 16 : index\n  %%c64 = arith.constant 64 : index\n"
             "  %%block = pto.get_block_idx\n  %%bi = arith.index_cast %%block : i64 to index\n"
             "  %%k0 = arith.muli %%bi, %%c16 : index\n"
             "  %%va = pto.make_tensor_view %%a, shape = [%%c16, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<16x64xf32>\n"
             "  %%vb = pto.make_tensor_view %%b, shape = [%%c64, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<64x16xf32>\n"
             "  %%vc = pto.make_tensor_view %%c, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
             "  %%pa = pto.partition_view %%va, offsets = [%%c0, %%k0], sizes = [%%c16, %%c16] : !pto.tensor_view<16x64xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
             "  %%pb = pto.partition_view %%vb, offsets = [%%k0, %%c0], sizes = [%%c16, %%c16] : !pto.tensor_view<64x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
             "  %%ta = pto.alloc_tile : %s\n  %%tb = pto.alloc_tile : %s\n"
             "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
             "  pto.tload ins(%%pa : !pto.partition_tensor_view<16x16xf32>) outs(%%ta : %s)\n"
             "  pto.tload ins(%%pb : !pto.partition_tensor_view<16x16xf32>) outs(%%tb : %s)\n"
             "  pto.tmov ins(%%ta : %s) outs(%%l : %s)\n  pto.tmov ins(%%tb : %s) outs(%%r : %s)\n"
             "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
             "  pto.tstore ins(%%acc : %s) outs(%%vc : !pto.tensor_view<16x16xf32>) {atomicType = #pto<atomic_type atomic_add>}\n"
             "  return\n}\n}\n",
             ma, mb, l, r, acc, ma, mb, ma, l, mb, r, l, r, acc, acc);
    pto_program *p = program_build(text, NULL);
    float a[16 * 64], b[64 * 16], c[256], want[256];
    rng g = {9};
    for (size_t i = 0; i < COUNT(a); ++i) a[i] = (float)rng_uniform(&g, -1, 1);
    for (size_t i = 0; i < COUNT(b); ++i) b[i] = (float)rng_uniform(&g, -1, 1);
    for (size_t i = 0; i < 256; ++i) {
        const size_t row = i / 16, col = i % 16;
        float sum = 0.5f;
        for (size_t blk = 0; blk < 4; ++blk) {
            float part = 0;
            for (size_t q = 16 * blk; q < 16 * blk + 16; ++q) part = fmaf(a[row * 64 + q], b[q * 16 + col], part);
            sum += part;
        }
        want[i] = sum;
    }
    static const char *const threads[] = {"1", "2", "4"};
    /* qemu-user may hang a thread of a dynamically linked program: one thread there. */
    const size_t thread_counts = getenv("PTO_TEST_UNDER_QEMU") != NULL ? 1 : COUNT(threads);
    if (thread_counts == 1) printf("[split K] 2 and 4 threads: not tested under emulation\n");
    for (size_t t = 0; t < thread_counts; ++t)
        for (int rep = 0; rep < 4; ++rep) {
            setenv("PTO_NUM_THREADS", threads[t], 1);
            for (size_t i = 0; i < 256; ++i) c[i] = 0.5f;
            void *data[] = {a, b, c};
            const size_t nbytes[] = {sizeof a, sizeof b, sizeof c};
            run_with(p, 4, 3, data, nbytes);
            assert_memory_equal(c, want, sizeof c);
        }
    unsetenv("PTO_NUM_THREADS");
    pto_program_destroy(p);
    printf("[split K] 4 blocks' atomic adds in block order: the same bits on %s thread(s)\n",
           thread_counts == 1 ? "1" : "1, 2 and 4");
}

/* Windows of an acc tile (pto.subview): a 32x64 product's 16-row halves,
 * the second at a run-time row, and a 16x32 quarter reached through a
 * window of a window, each tstored: the whole tile's store's elements bit
 * for bit, under A2A3 and A5. And tmatmul of the left tile's bottom window
 * into the bottom window of another acc tile: the product's bottom half. */
static void test_acc_windows(void **state) {
    (void)state;
    char ma[512], mb[512], l[512], r[512], acc[512], half[512], side[512], quarter[512], l16[512];
    static char text[32768];
    const struct tile_spec specs[] = {{ma, "mat", "bf16", 32, 32, "NZ"}, {mb, "mat", "bf16", 32, 64, "NZ"},
                                      {l, "left", "bf16", 32, 32, "ZZ"}, {r, "right", "bf16", 32, 64, "ZN"},
                                      {acc, "acc", "f32", 32, 64, "ACC"}, {half, "acc", "f32", 16, 64, "ACC"},
                                      {side, "acc", "f32", 32, 32, "ACC"}, {quarter, "acc", "f32", 16, 32, "ACC"},
                                      {l16, "left", "bf16", 16, 32, "ZZ"}};
    tile_types(specs, COUNT(specs));
    static const char *const targets[] = {"a2a3", "a5"};
    uint16_t a[32 * 32], b[32 * 64];
    rng g = {91};
    for (size_t i = 0; i < COUNT(a); ++i) a[i] = (uint16_t)ref_from_double(PTO_BFLOAT16, rng_uniform(&g, -2, 2));
    for (size_t i = 0; i < COUNT(b); ++i) b[i] = (uint16_t)ref_from_double(PTO_BFLOAT16, rng_uniform(&g, -2, 2));
    for (size_t t = 0; t < COUNT(targets); ++t) {
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\n"
                 "func.func @k(%%a: !pto.ptr<bf16>, %%b: !pto.ptr<bf16>, %%full: !pto.ptr<f32>, %%halves: !pto.ptr<f32>, "
                 "%%quarter: !pto.ptr<f32>, %%low: !pto.ptr<f32>, %%row: index) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
                 "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                 "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n"
                 "  %%c64 = arith.constant 64 : index\n"
                 "  %%va = pto.make_tensor_view %%a, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xbf16>\n"
                 "  %%vb = pto.make_tensor_view %%b, shape = [%%c32, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<32x64xbf16>\n"
                 "  %%vf = pto.make_tensor_view %%full, shape = [%%c32, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<32x64xf32>\n"
                 "  %%vh = pto.make_tensor_view %%halves, shape = [%%c32, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<32x64xf32>\n"
                 "  %%vq = pto.make_tensor_view %%quarter, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xf32>\n"
                 "  %%vl = pto.make_tensor_view %%low, shape = [%%c16, %%c64], strides = [%%c64, %%c1] : !pto.tensor_view<16x64xf32>\n"
                 "  %%top = pto.partition_view %%vh, offsets = [%%c0, %%c0], sizes = [%%c16, %%c64] : !pto.tensor_view<32x64xf32> -> !pto.partition_tensor_view<16x64xf32>\n"
                 "  %%bottom = pto.partition_view %%vh, offsets = [%%c16, %%c0], sizes = [%%c16, %%c64] : !pto.tensor_view<32x64xf32> -> !pto.partition_tensor_view<16x64xf32>\n"
                 "  %%ma = pto.alloc_tile : %s\n  %%mb = pto.alloc_tile : %s\n"
                 "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
                 "  pto.tload ins(%%va : !pto.tensor_view<32x32xbf16>) outs(%%ma : %s)\n"
                 "  pto.tload ins(%%vb : !pto.tensor_view<32x64xbf16>) outs(%%mb : %s)\n"
                 "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n"
                 "  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n"
                 "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                 "  pto.tstore ins(%%acc : %s) outs(%%vf : !pto.tensor_view<32x64xf32>)\n"
                 "  %%h0 = pto.subview %%acc[%%c0, %%c0] sizes [16, 64] : %s -> %s\n"
                 "  %%h1 = pto.subview %%acc[%%row, %%c0] sizes [16, 64] : %s -> %s\n"
                 "  pto.tstore ins(%%h0 : %s) outs(%%top : !pto.partition_tensor_view<16x64xf32>)\n"
                 "  pto.tstore ins(%%h1 : %s) outs(%%bottom : !pto.partition_tensor_view<16x64xf32>)\n"
                 "  %%s = pto.subview %%acc[%%c0, %%c32] sizes [32, 32] : %s -> %s\n"
                 "  %%q = pto.subview %%s[%%row, %%c0] sizes [16, 32] : %s -> %s\n"
                 "  pto.tstore ins(%%q : %s) outs(%%vq : !pto.tensor_view<16x32xf32>)\n"
                 "  %%lb = pto.subview %%l[%%row, %%c0] sizes [16, 32] : %s -> %s\n"
                 "  %%acc2 = pto.alloc_tile : %s\n"
                 "  %%ab = pto.subview %%acc2[%%row, %%c0] sizes [16, 64] : %s -> %s\n"
                 "  pto.tmatmul ins(%%lb, %%r : %s, %s) outs(%%ab : %s)\n"
                 "  pto.tstore ins(%%ab : %s) outs(%%vl : !pto.tensor_view<16x64xf32>)\n"
                 "  return\n}\n}\n",
                 targets[t], ma, mb, l, r, acc, ma, mb, ma, l, mb, r, l, r, acc, acc, acc, half, acc, half, half,
                 half, acc, side, side, quarter, quarter, l, l16, acc, acc, half, l16, r, half, half);
        pto_program *p = program_build(text, NULL);
        assert_non_null(strstr(pto_program_describe(p),
                               "%q acc NZ tile 16x32xf32 (valid 16x32): a window of %s (in the image of %acc at acc 0x0)"));
        float full[32 * 64], halves[32 * 64], q[16 * 32], low[16 * 64];
        memset(full, 0xEE, sizeof full);
        memset(halves, 0xEE, sizeof halves);
        memset(q, 0xEE, sizeof q);
        memset(low, 0xEE, sizeof low);
        void *data[] = {a, b, full, halves, q, low};
        const size_t nbytes[] = {sizeof a, sizeof b, sizeof full, sizeof halves, sizeof q, sizeof low};
        pto_args *args = pointer_args(p, COUNT(data), data, nbytes);
        assert_int_equal(pto_args_set_int(args, 6, 16), PTO_OK);
        if (pto_program_run(p, args) != PTO_OK) fail_msg("%s: %s", targets[t], pto_last_error());
        pto_args_destroy(args);
        assert_memory_equal(halves, full, sizeof full);
        for (size_t i = 0; i < 16; ++i) assert_memory_equal(q + i * 32, full + (16 + i) * 64 + 32, 32 * sizeof(float));
        assert_memory_equal(low, full + 16 * 64, sizeof low);
        /* The store is the product (the C call's bits). */
        float want[32 * 64] = {0};
        c_call(0, PTO_BFLOAT16, PTO_FLOAT32, 32, 32, 64, a, b, NULL, want);
        assert_memory_equal(full, want, sizeof want);
        pto_program_destroy(p);
    }
    printf("[acc windows] an acc tile's row halves and a window of a window store its bits; a tmatmul of "
           "windows gives its rows (A2A3, A5)\n");
}

/* A row gather into an NZ mat tile: each row of x picked by idx is tloaded
 * into the one-row-valid 16x32 window at row 16 + i of a 64x32 tile (a
 * run-time offset, anywhere in the boxes), then the 32x32 window at row 16
 * is textracted to a left tile and multiplied by the identity (exact), and
 * (A2A3) stored: row i of the result is x's row idx[i]. */
static void test_mat_row_gather(void **state) {
    (void)state;
    char mat[512], win[512], l[512], me[512], r[512], acc[512], top[512], text[16384];
    tile_type(win, sizeof win, "mat", "bf16", 16, 32, 1, 32, "NZ");
    const struct tile_spec specs[] = {{mat, "mat", "bf16", 64, 32, "NZ"}, {top, "mat", "bf16", 32, 32, "NZ"},
                                      {l, "left", "bf16", 32, 32, "ZZ"}, {me, "mat", "bf16", 32, 32, "NZ"},
                                      {r, "right", "bf16", 32, 32, "ZN"}, {acc, "acc", "f32", 32, 32, "ACC"}};
    tile_types(specs, COUNT(specs));
    static const char *const targets[] = {"a2a3", "a5"};
    uint16_t x[64 * 32], e[32 * 32] = {0};
    int32_t idx[32];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (uint16_t)ref_from_double(PTO_BFLOAT16, (double)(int)(i % 113) - 56);
    for (size_t i = 0; i < 32; ++i) e[i * 33] = 0x3F80; /* 1.0 */
    for (size_t i = 0; i < 32; ++i) idx[i] = (int32_t)((i * 37 + 5) % 64);
    for (size_t t = 0; t < COUNT(targets); ++t) {
        const bool store_mat = strcmp(targets[t], "a2a3") == 0;
        char tail[2048] = "";
        if (store_mat)
            snprintf(tail, sizeof tail, "  pto.tstore ins(%%t : %s) outs(%%vz : !pto.tensor_view<32x32xbf16>)\n", top);
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\n"
                 "func.func @k(%%x: !pto.ptr<bf16>, %%idx: !pto.ptr<i32>, %%e: !pto.ptr<bf16>, %%y: !pto.ptr<f32>, "
                 "%%z: !pto.ptr<bf16>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
                 "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                 "  %%c16 = arith.constant 16 : index\n"
                 "  %%c32 = arith.constant 32 : index\n  %%c64 = arith.constant 64 : index\n"
                 "  %%vx = pto.make_tensor_view %%x, shape = [%%c64, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<64x32xbf16>\n"
                 "  %%ve = pto.make_tensor_view %%e, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xbf16>\n"
                 "  %%vy = pto.make_tensor_view %%y, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xf32>\n"
                 "  %%vz = pto.make_tensor_view %%z, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xbf16>\n"
                 "  %%m = pto.alloc_tile : %s\n  %%me = pto.alloc_tile : %s\n"
                 "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
                 "  scf.for %%i = %%c0 to %%c32 step %%c1 {\n"
                 "    %%s = pto.load_scalar %%idx[%%i] : !pto.ptr<i32> -> i32\n"
                 "    %%src = arith.index_cast %%s : i32 to index\n"
                 "    %%pv = pto.partition_view %%vx, offsets = [%%src, %%c0], sizes = [%%c1, %%c32] : !pto.tensor_view<64x32xbf16> -> !pto.partition_tensor_view<1x32xbf16>\n"
                 "    %%at = arith.addi %%i, %%c16 : index\n"
                 "    %%w = pto.subview %%m[%%at, %%c0] sizes [16, 32] valid [%%c1, %%c32] : %s -> %s\n"
                 "    pto.tload ins(%%pv : !pto.partition_tensor_view<1x32xbf16>) outs(%%w : %s)\n"
                 "  }\n"
                 "  pto.tload ins(%%ve : !pto.tensor_view<32x32xbf16>) outs(%%me : %s)\n"
                 "  %%t = pto.subview %%m[%%c16, %%c0] sizes [32, 32] : %s -> %s\n"
                 "  pto.textract ins(%%t, %%c0, %%c0 : %s, index, index) outs(%%l : %s)\n"
                 "  pto.tmov ins(%%me : %s) outs(%%r : %s)\n"
                 "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                 "  pto.tstore ins(%%acc : %s) outs(%%vy : !pto.tensor_view<32x32xf32>)\n"
                 "%s"
                 "  return\n}\n}\n",
                 targets[t], mat, me, l, r, acc, mat, win, win, me, mat, top, top, l, me, r, l, r, acc, acc, tail);
        pto_program *p = program_build(text, NULL);
        float y[32 * 32];
        uint16_t z[32 * 32];
        memset(y, 0xEE, sizeof y);
        memset(z, 0xEE, sizeof z);
        void *data[] = {x, idx, e, y, z};
        const size_t nbytes[] = {sizeof x, sizeof idx, sizeof e, sizeof y, sizeof z};
        run_with(p, 1, 5, data, nbytes);
        for (size_t i = 0; i < 32; ++i)
            for (size_t j = 0; j < 32; ++j) {
                assert_true(y[i * 32 + j] == ref_to_double(PTO_BFLOAT16, x[(size_t)idx[i] * 32 + j]));
                if (store_mat) assert_int_equal(z[i * 32 + j], x[(size_t)idx[i] * 32 + j]);
            }
        pto_program_destroy(p);
    }
    printf("[row gather] rows tloaded into one-row windows at run-time rows of an NZ mat tile read back exactly\n");
}

/* tload of MX scales (f8E8M0) into a mat NN tile (b's, pto-isa's
 * MX_B_NN) and a ZZ tile of more than one row (a's, MX_A_ZZ): global memory
 * holds the tile's 32-byte boxes already, so the tile's bytes are the
 * view's, from its first element, whole boxes over the valid region (a
 * 4x63 view reads 4x64). One byte short is refused. Under HOST, whose mat
 * tiles may be stored (A5 has no store from L1). */
static void test_mx_scale_loads(void **state) {
    (void)state;
    static const struct {
        const char *tile; unsigned vr, vc, bytes;
    } cases[] = {
        {"!pto.tile_buf<mat, 4x64x!pto.f8E8M0, valid=4x63, blayout=col_major, slayout=col_major, fractal=32>", 4, 63, 256},
        {"!pto.tile_buf<mat, 32x4x!pto.f8E8M0, blayout=row_major, slayout=row_major, fractal=32>", 32, 4, 128},
    };
    for (size_t k = 0; k < COUNT(cases); ++k) {
        char text[4096];
        snprintf(text, sizeof text,
                 "module {\n"
                 "func.func @k(%%x: !pto.ptr<!pto.f8E8M0>, %%y: !pto.ptr<i8>) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%vr = arith.constant %u : index\n"
                 "  %%vc = arith.constant %u : index\n  %%n = arith.constant %u : index\n"
                 "  %%a0 = arith.constant 0 : i64\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%vr, %%vc], strides = [%%vc, %%c1] : !pto.tensor_view<?x?x!pto.f8E8M0>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<1x%uxi8>\n"
                 "  %%s = pto.alloc_tile addr = %%a0 : %s\n"
                 "  %%f = pto.alloc_tile addr = %%a0 : !pto.tile_buf<mat, 1x%uxi8>\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<?x?x!pto.f8E8M0>) outs(%%s : %s)\n"
                 "  pto.tstore ins(%%f : !pto.tile_buf<mat, 1x%uxi8>) outs(%%w : !pto.tensor_view<1x%uxi8>)\n"
                 "  return\n}\n}\n",
                 cases[k].vr, cases[k].vc, cases[k].bytes, cases[k].bytes, cases[k].tile, cases[k].bytes,
                 cases[k].tile, cases[k].bytes, cases[k].bytes);
        pto_program *p = program_build(text, NULL);
        uint8_t x[256], y[256];
        for (size_t i = 0; i < sizeof x; ++i) x[i] = (uint8_t)(i * 37 + 11);
        memset(y, 0xEE, sizeof y);
        void *data[] = {x, y};
        size_t nbytes[] = {cases[k].bytes, cases[k].bytes};
        run_with(p, 1, 2, data, nbytes);
        assert_memory_equal(y, x, cases[k].bytes);
        nbytes[0] = cases[k].bytes - 1;
        pto_args *a = pointer_args(p, 2, data, nbytes);
        assert_int_equal(pto_program_launch(p, 1, a), PTO_ERR_OUT_OF_RANGE);
        /* The 4x63 view itself fits in 255 bytes; its boxes do not. */
        if (k == 0 && strstr(pto_last_error(), "are read in whole boxes") == NULL) fail_msg("%s", pto_last_error());
        pto_args_destroy(a);
        pto_program_destroy(p);
    }
    printf("[mx scale loads] NN and ZZ scale tiles take global memory's boxes as they lie; a short buffer refused\n");
}

/* tload of MX scales from pto-isa's 5-D box form [N0, N1, N2, 16, 2] (a
 * window of a larger scale tensor, by its strides; a5/TLoad.hpp
 * TLoadMxCubeZZ2ZZ / NN2NN): byte (i, k) of box (n0, n1, n2) is scale (row,
 * col) = ((n0 N1 + n1) 16 + i, n2 2 + k) of a ZZ tile, (n2 2 + k, (n0 N1 +
 * n1) 16 + i) of an NN one. The tile read back by (row, col) through its
 * layout's boxes (16 x 2 in row order for ZZ, 2 x 16 column-major in column
 * order for NN). A tensor past the pointer is refused. */
static void test_mx_scale_box_loads(void **state) {
    (void)state;
    enum { W1 = 3, W2 = 4, R = 64, C = 8 }; /* the whole tensor [2, W1, W2, 16, 2] */
    static uint8_t x[2 * W1 * W2 * 32], y[R * C];
    for (size_t i = 0; i < sizeof x; ++i) x[i] = (uint8_t)(i * 29 + 3);
    for (int nn = 0; nn < 2; ++nn) {
        /* the window [2, 2, 3, 16, 2] at the origin: a ZZ 64 x 8 tile (valid
         * 64 x 6) or an NN 8 x 64 one (valid 6 x 64) */
        const unsigned rows = nn ? C : R, cols = nn ? R : C;
        char tile[256], text[4096];
        snprintf(tile, sizeof tile,
                 "!pto.tile_buf<mat, %ux%ux!pto.f8E8M0, valid=%ux%u, blayout=%s, slayout=%s, fractal=32>",
                 rows, cols, nn ? 6u : 64u, nn ? 64u : 6u, nn ? "col_major" : "row_major",
                 nn ? "col_major" : "row_major");
        snprintf(text, sizeof text,
                 "module {\n"
                 "func.func @k(%%x: !pto.ptr<!pto.f8E8M0>, %%y: !pto.ptr<i8>) {\n"
                 "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                 "  %%c2 = arith.constant 2 : index\n  %%c3 = arith.constant 3 : index\n"
                 "  %%c4 = arith.constant 4 : index\n  %%c16 = arith.constant 16 : index\n"
                 "  %%c32 = arith.constant 32 : index\n  %%c128 = arith.constant 128 : index\n"
                 "  %%c384 = arith.constant 384 : index\n  %%c512 = arith.constant 512 : index\n"
                 "  %%a0 = arith.constant 0 : i64\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%c2, %%c3, %%c4, %%c16, %%c2], strides = [%%c384, %%c128, %%c32, %%c2, %%c1] : !pto.tensor_view<?x?x?x?x?x!pto.f8E8M0>\n"
                 "  %%p = pto.partition_view %%v, offsets = [%%c0, %%c0, %%c0, %%c0, %%c0], sizes = [%%c2, %%c2, %%c3, %%c16, %%c2] : !pto.tensor_view<?x?x?x?x?x!pto.f8E8M0> -> !pto.partition_tensor_view<2x2x3x16x2x!pto.f8E8M0>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c1, %%c512], strides = [%%c512, %%c1] : !pto.tensor_view<1x512xi8>\n"
                 "  %%s = pto.alloc_tile addr = %%a0 : %s\n"
                 "  %%f = pto.alloc_tile addr = %%a0 : !pto.tile_buf<mat, 1x512xi8>\n"
                 "  pto.tload ins(%%p : !pto.partition_tensor_view<2x2x3x16x2x!pto.f8E8M0>) outs(%%s : %s)\n"
                 "  pto.tstore ins(%%f : !pto.tile_buf<mat, 1x512xi8>) outs(%%w : !pto.tensor_view<1x512xi8>)\n"
                 "  return\n}\n}\n",
                 tile, tile);
        pto_program *p = program_build(text, NULL);
        memset(y, 0xEE, sizeof y);
        void *data[] = {x, y};
        size_t nbytes[] = {sizeof x, sizeof y};
        run_with(p, 1, 2, data, nbytes);
        for (unsigned n0 = 0; n0 < 2; ++n0)
            for (unsigned n1 = 0; n1 < 2; ++n1)
                for (unsigned n2 = 0; n2 < 3; ++n2)
                    for (unsigned i = 0; i < 16; ++i)
                        for (unsigned k = 0; k < 2; ++k) {
                            const uint8_t want = x[n0 * 384 + n1 * 128 + n2 * 32 + i * 2 + k];
                            const unsigned r = nn ? n2 * 2 + k : (n0 * 2 + n1) * 16 + i;
                            const unsigned c = nn ? (n0 * 2 + n1) * 16 + i : n2 * 2 + k;
                            /* ZZ: boxes of 16 x 2 in row order, row-major inside;
                             * NN: boxes of 2 x 16 in column order, column-major inside */
                            const unsigned at = nn ? ((c / 16) * (rows / 2) + r / 2) * 32 + (c % 16) * 2 + r % 2
                                                   : ((r / 16) * (cols / 2) + c / 2) * 32 + (r % 16) * 2 + c % 2;
                            if (y[at] != want) fail_msg("%s: (%u, %u) %u, want %u", nn ? "NN" : "ZZ", r, c, y[at], want);
                        }
        /* the scales past the window (box column 3 of ZZ, box row 3 of NN) are the pad, 0 */
        assert_int_equal(y[nn ? 3 * 32 : 3 * 32], 0);
        nbytes[0] = sizeof x - 1; /* the tensor's last byte is past the pointer */
        memset(y, 0xEE, sizeof y);
        pto_args *a = pointer_args(p, 2, data, nbytes);
        assert_int_equal(pto_program_launch(p, 1, a), PTO_ERR_OUT_OF_RANGE);
        if (strstr(pto_last_error(), "reaches element") == NULL) fail_msg("%s", pto_last_error());
        assert_int_equal(y[0], 0xEE);
        pto_args_destroy(a);
        pto_program_destroy(p);
        /* [2, 2, 3, 4, 2]: not pto-isa's box form but the tile's rows (48) and
         * columns (2), which do not hold its 64 x 6 valid region: refused */
        char bad[4096];
        snprintf(bad, sizeof bad, "%s", text);
        for (char *at = strstr(bad, "%c16, %c2]"); at != NULL; at = strstr(at, "%c16, %c2]"))
            memcpy(at, "%c4 , %c2]", 10);
        for (char *at = strstr(bad, "2x2x3x16x2x"); at != NULL; at = strstr(at, "2x2x3x16x2x"))
            memmove(at + 6, at + 7, strlen(at + 7) + 1), at[6] = '4';
        p = NULL;
        assert_int_equal(pto_program_create(bad, strlen(bad), "bad.pto", &p), PTO_ERR_SHAPE_MISMATCH);
        assert_null(p);
        if (strstr(pto_last_error(), "does not fit in the view's 48x2 elements") == NULL)
            fail_msg("%s", pto_last_error());
    }
    printf("[mx scale box loads] 5-D box views of ZZ and NN scales by their strides; a short buffer and a 4 x 2 view refused\n");
}

/* tfillpad in place on a mat tile (PTOAS's samples pad a right operand's
 * mat tile after its tload): a 32x32 i8 NZ tile loaded whole, then the same
 * bytes as a tile of valid 32x20 with pad max (2) or min (3) filled in
 * place: columns 20..31 take the dtype's max or min, the rest are kept. */
static void test_mat_fillpad(void **state) {
    (void)state;
    for (int pad = 2; pad <= 3; ++pad) {
        char whole[512], padded[512], flat[512], text[4096];
        tile_type(whole, sizeof whole, "mat", "i8", 32, 32, 32, 32, "NZ");
        tile_type(padded, sizeof padded, "mat", "i8", 32, 32, 32, 20, "NZ");
        padded[strlen(padded) - 2] = (char)('0' + pad); /* "pad=0>" -> "pad=N>" */
        tile_type(flat, sizeof flat, "mat", "i8", 1, 1024, 1, 1024, "ND");
        snprintf(text, sizeof text,
                 "func.func @k(%%x: !pto.ptr<i8>, %%y: !pto.ptr<i8>) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%c32 = arith.constant 32 : index\n"
                 "  %%c1024 = arith.constant 1024 : index\n  %%a0 = arith.constant 0 : i64\n"
                 "  %%v = pto.make_tensor_view %%x, shape = [%%c32, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<32x32xi8>\n"
                 "  %%w = pto.make_tensor_view %%y, shape = [%%c1, %%c1024], strides = [%%c1024, %%c1] : !pto.tensor_view<1x1024xi8>\n"
                 "  %%m = pto.alloc_tile addr = %%a0 : %s\n  %%p = pto.alloc_tile addr = %%a0 : %s\n"
                 "  %%f = pto.alloc_tile addr = %%a0 : %s\n"
                 "  pto.tload ins(%%v : !pto.tensor_view<32x32xi8>) outs(%%m : %s)\n"
                 "  pto.tfillpad ins(%%p : %s) outs(%%p : %s)\n"
                 "  pto.tstore ins(%%f : %s) outs(%%w : !pto.tensor_view<1x1024xi8>)\n"
                 "  return\n}\n",
                 whole, padded, flat, whole, padded, padded, flat);
        pto_program *p = program_build(text, NULL);
        int8_t x[32 * 32], y[32 * 32];
        for (size_t i = 0; i < COUNT(x); ++i) x[i] = (int8_t)(i * 7 % 200 - 100);
        memset(y, 0x55, sizeof y);
        void *data[] = {x, y};
        const size_t nbytes[] = {sizeof x, sizeof y};
        run_with(p, 1, 2, data, nbytes);
        for (size_t r = 0; r < 32; ++r)
            for (size_t c = 0; c < 32; ++c) {
                const int want = c < 20 ? x[r * 32 + c] : pad == 2 ? 127 : -128;
                assert_int_equal(y[image_offset("NZ", 32, 32, 1, r, c)], want);
            }
        pto_program_destroy(p);
    }
    printf("[mat tfillpad] the pad max and min fill a mat tile's columns past its valid region in place\n");
}

/* A window outside its parent at run time stops the run before anything is
 * written; the refusals the verifier makes are in test_cube_refusals. */
static void test_window_outside_at_run_time(void **state) {
    (void)state;
    char mat[512], half[512], text[8192];
    const struct tile_spec specs[] = {{mat, "mat", "f32", 32, 32, "NZ"}, {half, "mat", "f32", 16, 32, "NZ"}};
    tile_types(specs, COUNT(specs));
    snprintf(text, sizeof text,
             "module attributes {pto.target_arch = \"a2a3\"} {\n"
             "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<f32>, %%row: index) {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c16 = arith.constant 16 : index\n  %%c32 = arith.constant 32 : index\n"
             "  %%vx = pto.make_tensor_view %%x, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xf32>\n"
             "  %%vy = pto.make_tensor_view %%y, shape = [%%c16, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<16x32xf32>\n"
             "  %%m = pto.alloc_tile : %s\n"
             "  %%w = pto.subview %%m[%%row, %%c0] sizes [16, 32] : %s -> %s\n"
             "  pto.tload ins(%%vx : !pto.tensor_view<16x32xf32>) outs(%%w : %s)\n"
             "  pto.tstore ins(%%w : %s) outs(%%vy : !pto.tensor_view<16x32xf32>)\n"
             "  return\n}\n}\n",
             mat, mat, half, half, half);
    pto_program *p = program_build(text, NULL);
    float x[16 * 32], y[16 * 32], untouched[16 * 32];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (float)i;
    memset(y, 0xEE, sizeof y);
    memcpy(untouched, y, sizeof y);
    void *data[] = {x, y};
    const size_t nbytes[] = {sizeof x, sizeof y};
    pto_args *args = pointer_args(p, 2, data, nbytes);
    /* Row 5: inside, and off the boxes (a logical window). */
    assert_int_equal(pto_args_set_int(args, 2, 5), PTO_OK);
    if (pto_program_run(p, args) != PTO_OK) fail_msg("%s", pto_last_error());
    assert_memory_equal(y, x, sizeof x);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(pto_args_set_int(args, 2, 17), PTO_OK);
    assert_int_equal(pto_program_run(p, args), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), ":8:"));
    assert_non_null(strstr(pto_last_error(),
                           "pto.subview: the valid region 16x32 of the window at [17, 0] is outside %m's 32x32"));
    assert_memory_equal(y, untouched, sizeof y);
    pto_args_destroy(args);
    pto_program_destroy(p);

    /* A window of one valid row at row 31 reaches 15 rows past %m: its valid
     * row is inside, so it runs, and the pad is written inside %m only. */
    char one[512];
    tile_type(one, sizeof one, "mat", "f32", 16, 32, 1, 32, "NZ");
    snprintf(text, sizeof text,
             "module attributes {pto.target_arch = \"a2a3\"} {\n"
             "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<f32>, %%row: index) {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
             "  %%c32 = arith.constant 32 : index\n"
             "  %%vx = pto.make_tensor_view %%x, shape = [%%c1, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<1x32xf32>\n"
             "  %%vy = pto.make_tensor_view %%y, shape = [%%c1, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<1x32xf32>\n"
             "  %%m = pto.alloc_tile : %s\n"
             "  %%w = pto.subview %%m[%%row, %%c0] sizes [16, 32] valid [%%c1, %%c32] : %s -> %s\n"
             "  pto.tload ins(%%vx : !pto.tensor_view<1x32xf32>) outs(%%w : %s)\n"
             "  pto.tstore ins(%%w : %s) outs(%%vy : !pto.tensor_view<1x32xf32>)\n"
             "  return\n}\n}\n",
             mat, mat, one, one, one);
    p = program_build(text, NULL);
    args = pointer_args(p, 2, data, nbytes);
    memcpy(y, untouched, sizeof y);
    assert_int_equal(pto_args_set_int(args, 2, 31), PTO_OK);
    if (pto_program_run(p, args) != PTO_OK) fail_msg("%s", pto_last_error());
    assert_memory_equal(y, x, 32 * sizeof(float));
    assert_memory_equal(y + 32, untouched + 32, sizeof y - 32 * sizeof(float));
    assert_int_equal(pto_args_set_int(args, 2, 32), PTO_OK);
    assert_int_equal(pto_program_run(p, args), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "the valid region 1x32 of the window at [32, 0] is outside %m's 32x32"));
    pto_args_destroy(args);
    pto_program_destroy(p);
    printf("[window outside] a run-time window whose valid region is past its parent stops the run, "
           "nothing written; one reaching past it with its valid region inside runs\n");
}

/* The rules dynamic valid regions leave to run time, each refusal with the C
 * function's sentence (M, K and N of 1 to 4095 under A2A3 and A5; a's rows
 * against dst's), and a left tile in either encoding, ZZ or NZ, under both
 * NPU profiles (the C functions take the one of each profile): b is the
 * identity, so c is a. */
static void test_matmul_run_time_rules(void **state) {
    (void)state;
    static const char *const targets[] = {"a2a3", "a5"}, *const profiles[] = {"A2A3", "A5"};
    static const char *const left_blayouts[] = {"row_major", "col_major"}; /* ZZ, NZ */
    char mat[512], text[8192];
    tile_type(mat, sizeof mat, "mat", "f32", 16, 16, 16, 16, "NZ");
    static const char *const r = "!pto.tile_buf<loc=right, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, "
                                 "blayout=row_major, slayout=col_major, fractal=512, pad=0>";
    static const char *const acc = "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, "
                                   "blayout=col_major, slayout=row_major, fractal=1024, pad=0>";
    float a[16 * 16], b[16 * 16] = {0}, c[16 * 16];
    for (size_t i = 0; i < COUNT(a); ++i) a[i] = (float)((int)(i * 7 % 23) - 11);
    for (size_t i = 0; i < 16; ++i) b[i * 17] = 1;
    for (size_t t = 0; t < COUNT(targets); ++t)
        for (size_t li = 0; li < COUNT(left_blayouts); ++li) {
            char l[512];
            snprintf(l, sizeof l,
                     "!pto.tile_buf<loc=left, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, blayout=%s, "
                     "slayout=row_major, fractal=512, pad=0>",
                     left_blayouts[li]);
            snprintf(text, sizeof text,
                     "module attributes {pto.target_arch = \"%s\"} {\n"
                     "func.func @k(%%a: !pto.ptr<f32>, %%b: !pto.ptr<f32>, %%c: !pto.ptr<f32>, %%m: index, %%k: index, "
                     "%%mc: index) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
                     "  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                     "  %%va = pto.make_tensor_view %%a, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                     "  %%vb = pto.make_tensor_view %%b, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                     "  %%vc = pto.make_tensor_view %%c, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                     "  %%ma = pto.alloc_tile : %s\n  %%mb = pto.alloc_tile : %s\n"
                     "  %%l = pto.alloc_tile valid_row = %%m valid_col = %%k : %s\n"
                     "  %%r = pto.alloc_tile valid_row = %%k valid_col = %%c16 : %s\n"
                     "  %%acc = pto.alloc_tile valid_row = %%mc valid_col = %%c16 : %s\n"
                     "  pto.tload ins(%%va : !pto.tensor_view<16x16xf32>) outs(%%ma : %s)\n"
                     "  pto.tload ins(%%vb : !pto.tensor_view<16x16xf32>) outs(%%mb : %s)\n"
                     "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n"
                     "  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n"
                     "  pto.tmatmul ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n"
                     "  pto.tstore ins(%%acc : %s) outs(%%vc : !pto.tensor_view<16x16xf32>)\n"
                     "  return\n}\n}\n",
                     targets[t], mat, mat, l, r, acc, mat, mat, mat, l, mat, r, l, r, acc, acc);
            pto_program *p = program_build(text, NULL);
            void *data[] = {a, b, c};
            const size_t nbytes[] = {sizeof a, sizeof b, sizeof c};
            pto_args *args = pointer_args(p, COUNT(data), data, nbytes);
            static const struct {
                int64_t m, k, mc;
                const char *want; /* NULL: runs */
            } cases[] = {
                {16, 16, 16, NULL},
                {16, 0, 16, "pto_tmatmul: K = 0 is outside the cube's 1 to 4095 under "},
                {0, 16, 0, "pto_tmatmul: M = 0 is outside the cube's 1 to 4095 under "},
                {16, 16, 8, "pto_tmatmul: a valid rows 16 differ from dst valid rows 8 (M)"},
            };
            for (size_t i = 0; i < COUNT(cases); ++i) {
                assert_int_equal(pto_args_set_int(args, 3, cases[i].m), PTO_OK);
                assert_int_equal(pto_args_set_int(args, 4, cases[i].k), PTO_OK);
                assert_int_equal(pto_args_set_int(args, 5, cases[i].mc), PTO_OK);
                memset(c, 0xEE, sizeof c);
                const pto_status s = pto_program_run(p, args);
                if (cases[i].want == NULL) {
                    if (s != PTO_OK) fail_msg("%s: %s", targets[t], pto_last_error());
                    assert_memory_equal(c, a, sizeof a);
                    continue;
                }
                assert_int_equal(s, PTO_ERR_SHAPE_MISMATCH);
                assert_non_null(strstr(pto_last_error(), cases[i].want));
                if (strstr(cases[i].want, "under ") != NULL)
                    assert_non_null(strstr(pto_last_error(), profiles[t]));
            }
            pto_args_destroy(args);
            pto_program_destroy(p);
        }
    printf("[matmul run-time rules] dynamic M, K and N refused at run time with the C sentences; a left ZZ or "
           "NZ tile runs under A2A3 and A5\n");
}

/* Refusals, each with its sentence: wrong locations and layouts, moves the
 * cube has not, dtypes, shapes per profile, the memories' sizes. */
static void test_cube_refusals(void **state) {
    (void)state;
    char l[512], r[512], acc[512], mat[512], vec[512], zn_left[512], bigl[512], bigm[512], text[8192];
    tile_type(l, sizeof l, "left", "f32", 16, 16, 16, 16, "ZZ");
    tile_type(zn_left, sizeof zn_left, "left", "f32", 16, 16, 16, 16, "ZN");
    tile_type(r, sizeof r, "right", "f32", 16, 16, 16, 16, "ZN");
    tile_type(acc, sizeof acc, "acc", "f32", 16, 16, 16, 16, "ACC");
    tile_type(mat, sizeof mat, "mat", "f32", 16, 16, 16, 16, "NZ");
    tile_type(vec, sizeof vec, "vec", "f32", 16, 16, 16, 16, "ND");
    tile_type(bigl, sizeof bigl, "left", "f32", 256, 128, 256, 128, "ZZ");
    tile_type(bigm, sizeof bigm, "mat", "f32", 256, 128, 256, 128, "NZ");
    struct {
        const char *target, *body, *want;
    } cases[] = {
        {"a2a3", "  pto.tmatmul ins(%l, %r : L, R) outs(%v : V)\n",
         "pto.tmatmul: dst %v is a vec ND tile, not a acc tile"},
        {"a2a3", "  pto.tmatmul ins(%zl, %r : ZL, R) outs(%acc : A)\n",
         "a %zl is a left tile laid out ZN, where the cube reads ZZ or NZ"},
        {"a5", "  pto.tload ins(%gv : !pto.tensor_view<16x16xf32>) outs(%l : L)\n",
         "pto.tload loads into vec, mat or scaling tiles; %l is a left ZZ tile"},
        {"a5", "  pto.tstore ins(%m : M) outs(%gv : !pto.tensor_view<16x16xf32>)\n",
         "A5 has no store from a mat tile (L1)"},
        {"a2a3", "  pto.tstore ins(%l : L) outs(%gv : !pto.tensor_view<16x16xf32>)\n",
         "pto.tstore stores vec, acc or mat tiles; %l is a left ZZ tile"},
        {"a2a3", "  pto.tmov ins(%acc : A) outs(%v : V)\n",
         "A2A3 moves an acc tile to mat only (acc to vec is A5's)"},
        {"a2a3", "  pto.tmov ins(%l : L) outs(%r : R)\n",
         "pto.tmov from a left ZZ tile to a right ZN tile is not a move the cube has"},
        {"a2a3", "  pto.tadd ins(%m, %m : M, M) outs(%m : M)\n",
         "pto.tadd runs on vec tiles; src is a mat NZ tile"},
        {"a2a3", "  pto.tmatmul.acc ins(%acc2, %l, %r : A, L, R) outs(%acc : A)\n",
         "tmatmul.acc accumulates into its output: the accumulator %acc2 must be the outs tile %acc"},
        {"a2a3", "  pto.tstore ins(%v : V) outs(%gv : !pto.tensor_view<16x16xf32>) {atomicType = #pto<atomic_type atomic_add>}\n",
         "atomicType = atomic_add stores from an acc tile only"},
        {"a2a3", "  %bm = pto.alloc_tile : BIGM\n  %big = pto.alloc_tile : BIGL\n  pto.tmov ins(%bm : BIGM) outs(%big : BIGL)\n",
         "(131072 bytes) does not fit in the 65536-byte left memory (L0A) of A2A3"},
        {"a2a3", "  %a9 = arith.constant 65504 : i64\n  %p = pto.alloc_tile addr = %a9 : L\n  pto.tmov ins(%m : M) outs(%p : L)\n",
         "%p at 0xffe0 (1024 bytes) ends beyond the 65536-byte left memory (L0A) of A2A3"},
    };
    for (size_t i = 0; i < COUNT(cases); ++i) {
        /* Substitute the type names. */
        char body[4096] = "";
        const char *s = cases[i].body;
        while (*s) {
            const char *name = NULL, *type = NULL;
            static const char *const names[] = {"BIGL", "BIGM", "ZL", "L", "R", "A", "M", "V"};
            const char *types[] = {bigl, bigm, zn_left, l, r, acc, mat, vec};
            for (size_t k = 0; k < COUNT(names) && !name; ++k) {
                const size_t len = strlen(names[k]);
                if (strncmp(s, names[k], len) == 0 && (s == cases[i].body || s[-1] == ' ' || s[-1] == ',' || s[-1] == ':') &&
                    (s[len] == ')' || s[len] == ',' || s[len] == '\n'))
                    name = names[k], type = types[k];
            }
            if (name) {
                strcat(body, type);
                s += strlen(name);
            } else {
                strncat(body, s, 1);
                ++s;
            }
        }
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\n"
                 "func.func @k(%%g: !pto.ptr<f32>) {\n"
                 "  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                 "  %%gv = pto.make_tensor_view %%g, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                 "  %%l = pto.alloc_tile : %s\n  %%zl = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n"
                 "  %%acc = pto.alloc_tile : %s\n  %%acc2 = pto.alloc_tile : %s\n  %%m = pto.alloc_tile : %s\n"
                 "  %%v = pto.alloc_tile : %s\n%s  return\n}\n}\n",
                 cases[i].target, l, zn_left, r, acc, acc, mat, vec, body);
        expect_program_refused_with(text, NULL, cases[i].want);
    }
    /* A tile whose boxes do not tile it; a scaling tile that holds no MX scales. */
    expect_program_refused_with(
        "func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<loc=mat, dtype=bf16, rows=24, cols=16, v_row=24, "
        "v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>\n  return\n}\n",
        NULL, "a NZ mat tile of bf16 with fractal=512 is made of 16x16 boxes, which do not tile 24x16");
    expect_program_refused_with(
        "func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<scaling, 1x32xi8>\n  return\n}\n", NULL,
        "a scaling tile without boxes holds the fixpipe's quantisation parameters, one row of i64, ui64, f16, bf16 or f32 (MX scales are ZZ or NN with fractal=32)");
    /* Subviews of cube tiles (PTOAS's rules): each view of the 32x32 f32 NZ
     * tile %t (16x8 boxes). */
    static const struct {
        const char *view, *want;
    } windows[] = {
        {"%v = pto.subview %t[%c8, %c0] sizes [16, 16] : T -> !pto.tile_buf<mat, 16x16xf32, blayout=col_major, slayout=row_major>",
         "6:8: error: pto.subview: the window at [8, 0] of %t (NZ, 16x8 boxes) must start at a box: constant offsets "
         "are multiples of 16 rows and 8 columns"},
        {"%v = pto.subview %t[%c0, %c0] sizes [1, 16] : T -> !pto.tile_buf<mat, 1x16xf32, blayout=col_major, slayout=row_major>",
         "pto.subview: the 1x16 window of %t (NZ, 16x8 boxes) is not a whole number of boxes"},
        {"%v = pto.subview %t[%c0, %c0] sizes [16, 16] : T -> !pto.tile_buf<mat, 16x16xf32, slayout=col_major>",
         "pto.subview: the view is a mat ZN tile (fractal=512, pad=0), %t a mat NZ tile (fractal=512, pad=0): a "
         "subview keeps its source's memory, layout and pad"},
        {"%v = pto.subview %t[%c0, %c0] sizes [16, 16] : T -> !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>",
         "the view is a acc NZ tile (fractal=1024, pad=0), %t a mat NZ tile"},
        {"%v = pto.subview %t, %c0, %c0 : (T, index, index) -> !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>",
         "pto.subview: the view's element type f16 differs from %t's f32"},
        {"%v = pto.subview %t[%c0, %c16] sizes [16, 32] : T -> !pto.tile_buf<mat, 16x32xf32, blayout=col_major, slayout=row_major>",
         "pto.subview: the 16x32 window at [0, 16] is outside %t's 32x32"},
        {"%v = pto.subview %t, %c16, %c0 : (T, index, index) -> !pto.tile_buf<mat, 32x32xf32, blayout=col_major, slayout=row_major>",
         "pto.subview: the 32x32 window at [16, 0] is outside %t's 32x32"},
    };
    static const char *const parent = "!pto.tile_buf<mat, 32x32xf32, blayout=col_major, slayout=row_major>";
    for (size_t i = 0; i < COUNT(windows); ++i) {
        /* T in the view's text is %t's type. */
        const char *at = strstr(windows[i].view, "T ");
        if (at == NULL) at = strstr(windows[i].view, "T,");
        snprintf(text, sizeof text,
                 "func.func @k() {\n  %%c0 = arith.constant 0 : index\n  %%c8 = arith.constant 8 : index\n"
                 "  %%c16 = arith.constant 16 : index\n  %%t = pto.alloc_tile : %s\n  %.*s%s%s\n  return\n}\n",
                 parent, (int)(at - windows[i].view), windows[i].view, parent, at + 1);
        expect_program_refused_with(text, NULL, windows[i].want);
    }
    printf("[cube refusals] %zu programs refused with their sentences\n", COUNT(cases) + 2 + COUNT(windows));
}

/* --check lists each memory's use and every cube tile's place in it. */
static void test_describe_memories(void **state) {
    (void)state;
    char text[16384];
    matmul_text(text, sizeof text, 2, PTO_FLOAT32, PTO_FLOAT32, 16, 16, 16, "ZZ");
    pto_program *p = program_build(text, NULL);
    const char *d = pto_program_describe(p);
    assert_non_null(strstr(d, "mat memory (L1) (HOST"));
    assert_non_null(strstr(d, "left memory (L0A) (HOST"));
    assert_non_null(strstr(d, "acc memory (L0C) (HOST"));
    assert_non_null(strstr(d, "bias table (HOST"));
    assert_non_null(strstr(d, "%l left ZZ tile 16x16xf32 (valid 16x16): 1024 bytes at left 0x0"));
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_images),
        cmocka_unit_test(test_matmul_programs),
        cmocka_unit_test(test_matmul_program_cube_mode),
        cmocka_unit_test(test_textract_windows),
        cmocka_unit_test(test_acc_stores),
        cmocka_unit_test(test_acc_casts),
        cmocka_unit_test(test_acc_inserts),
        cmocka_unit_test(test_split_k_atomic_adds),
        cmocka_unit_test(test_acc_windows),
        cmocka_unit_test(test_mat_row_gather),
        cmocka_unit_test(test_mat_fillpad),
        cmocka_unit_test(test_mx_scale_loads), cmocka_unit_test(test_mx_scale_box_loads),
        cmocka_unit_test(test_window_outside_at_run_time),
        cmocka_unit_test(test_matmul_run_time_rules),
        cmocka_unit_test(test_cube_refusals),
        cmocka_unit_test(test_describe_memories),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
