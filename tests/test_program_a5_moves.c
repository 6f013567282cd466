/* A5's 8-bit matrix multiply and vec repacks in programs, as the C calls
 * take them (pto_tmatmul, pto_tmov):
 * - pto.tmatmul, pto.tmatmul.acc, pto.tmatmul.bias and pto.tgemv under a5 on
 *   f8E4M3FN / f8E5M2 (the four pairs) and !pto.hif8 with !pto.hif8 into
 *   f32, the operands loaded into vec ND tiles and moved by pto.tmov into a
 *   mat NZ (a) and a mat ZN (b) tile, then into left and right; the bias a
 *   f16 or bf16 mat row widened into an f32 bias row by pto.tmov. The
 *   values are drawn from codes written out here with their values (every
 *   product and sum exact in f32), so the result is the float64 sum exactly;
 * - pto.tmov of a vec ND tile into a vec NZ or ZN tile: its bytes, read
 *   through a flat tile on the same address, are the fractal image of
 *   ref_image_offset;
 * - pto.tmov of a vec ND tile of e8m0 scales into a scaling ZZ tile, read by
 *   pto.tmatmul.mx: each a(i, k) b(k, j) scaled by 2^(scale(i, k/32) - 127);
 * - the refusals, each with its located sentence (the low-precision types
 *   each profile's cube moves do not carry among them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* Codes and their values, from the formats' definitions: E4M3FN bias 7 and
 * 3 mantissa bits, E5M2 bias 15 and 2 bits, HiFloat8 0001.mmm = 1.mmm and
 * 001.s.mmm = 1.mmm x 2^(s ? -1 : +1); the sign in bit 7 for each. */
typedef struct {
    unsigned char code;
    double value;
} coded;
static const coded kE4M3[] = {{0x00, 0},    {0x38, 1},    {0xB8, -1},   {0x30, 0.5}, {0xB0, -0.5},
                              {0x34, 0.75}, {0x3A, 1.25}, {0x3C, 1.5}, {0x40, 2}};
static const coded kE5M2[] = {{0x00, 0},    {0x3C, 1},    {0xBC, -1},   {0x38, 0.5}, {0xB8, -0.5},
                              {0x3A, 0.75}, {0x3D, 1.25}, {0x3E, 1.5}, {0x40, 2}};
static const coded kHif8[] = {{0x00, 0},    {0x08, 1},    {0x88, -1},   {0x18, 0.5}, {0x98, -0.5},
                              {0x1C, 0.75}, {0x0A, 1.25}, {0x0C, 1.5}, {0x10, 2}};

static const coded *codes_of(pto_dtype dt) {
    return dt == PTO_FLOAT8_E4M3 ? kE4M3 : dt == PTO_FLOAT8_E5M2 ? kE5M2 : kHif8;
}

static const char *spelling(pto_dtype dt) {
    switch (dt) {
    case PTO_FLOAT8_E4M3: return "f8E4M3FN";
    case PTO_FLOAT8_E5M2: return "f8E5M2";
    case PTO_HIFLOAT8: return "!pto.hif8";
    case PTO_FLOAT16: return "f16";
    case PTO_BFLOAT16: return "bf16";
    default: return "?";
    }
}

/* Appends printf-style text to out. */
static void add(char *out, size_t size, const char *fmt, ...) {
    const size_t used = strlen(out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + used, size - used, fmt, ap);
    va_end(ap);
}

/* Launches p on one block with its first n parameters the pointers data. */
static void launch(pto_program *p, size_t n, void *const *data, const size_t *nbytes) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t i = 0; i < n; ++i) assert_int_equal(pto_args_set_pointer(a, i, data[i], nbytes[i]), PTO_OK);
    if (pto_program_launch(p, 1, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
    pto_args_destroy(a);
}

enum { M = 16, K = 64, N = 32 };
typedef enum { FORM_PLAIN, FORM_ACC, FORM_BIAS, FORM_GEMV } form;

/* The kernel: a (M x K) and b (K x N) loaded into vec ND tiles, moved into
 * a mat NZ and a mat ZN tile, then into left NZ and right ZN; tmatmul (and
 * tmatmul.acc of the same product, or the bias form with a `bias_dt` row
 * loaded into a mat row and widened into an f32 bias row); acc stored; pto.tgemv on one row of a. */
static void matmul_text(char *out, size_t size, const char *target, pto_dtype at, pto_dtype bt, form f,
                        pto_dtype bias_dt) {
    const char *as = spelling(at), *bs = spelling(bt), *bias_s = spelling(bias_dt);
    const int m = f == FORM_GEMV ? 1 : M; /* GEMV: a's and c's one row */
    char ua[160], ub[160], ma[160], mb[160], l[160], r[160], c[160], mbias[160], tb[160];
    snprintf(ua, sizeof ua, "!pto.tile_buf<vec, %dx%dx%s>", m, K, as);
    snprintf(ub, sizeof ub, "!pto.tile_buf<vec, %dx%dx%s>", K, N, bs);
    snprintf(ma, sizeof ma, "!pto.tile_buf<mat, %dx%dx%s, blayout=col_major, slayout=row_major>", m, K, as);
    snprintf(mb, sizeof mb, "!pto.tile_buf<mat, %dx%dx%s, slayout=col_major>", K, N, bs);
    snprintf(l, sizeof l, "!pto.tile_buf<left, %dx%dx%s, blayout=col_major, slayout=row_major>", m, K, as);
    snprintf(r, sizeof r, "!pto.tile_buf<right, %dx%dx%s, slayout=col_major>", K, N, bs);
    snprintf(c, sizeof c, "!pto.tile_buf<acc, %dx%dxf32, blayout=col_major, slayout=row_major, fractal=1024>", m, N);
    snprintf(mbias, sizeof mbias, "!pto.tile_buf<mat, 1x%dx%s>", N, bias_s);
    snprintf(tb, sizeof tb, "!pto.tile_buf<bias, 1x%dxf32>", N);
    out[0] = '\0';
    add(out, size, "module attributes {pto.target_arch = \"%s\"} {\n", target);
    add(out, size, "func.func @k(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%c: !pto.ptr<f32>, %%bias: !pto.ptr<%s>) {\n",
        as, bs, bias_s);
    add(out, size, "  %%c1 = arith.constant 1 : index\n  %%m = arith.constant %d : index\n", m);
    add(out, size, "  %%k = arith.constant %d : index\n  %%n = arith.constant %d : index\n", K, N);
    add(out, size, "  %%va = pto.make_tensor_view %%a, shape = [%%m, %%k], strides = [%%k, %%c1] : !pto.tensor_view<%dx%dx%s>\n", m, K, as);
    add(out, size, "  %%vb = pto.make_tensor_view %%b, shape = [%%k, %%n], strides = [%%n, %%c1] : !pto.tensor_view<%dx%dx%s>\n", K, N, bs);
    add(out, size, "  %%vc = pto.make_tensor_view %%c, shape = [%%m, %%n], strides = [%%n, %%c1] : !pto.tensor_view<%dx%dxf32>\n", m, N);
    add(out, size, "  %%ua = pto.alloc_tile : %s\n  %%ub = pto.alloc_tile : %s\n", ua, ub);
    add(out, size, "  %%ma = pto.alloc_tile : %s\n  %%mb = pto.alloc_tile : %s\n", ma, mb);
    add(out, size, "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n", l, r, c);
    if (strcmp(target, "a5") == 0) { /* through the unified buffer: A5's vec -> mat repacks */
        add(out, size, "  pto.tload ins(%%va : !pto.tensor_view<%dx%dx%s>) outs(%%ua : %s)\n", m, K, as, ua);
        add(out, size, "  pto.tload ins(%%vb : !pto.tensor_view<%dx%dx%s>) outs(%%ub : %s)\n", K, N, bs, ub);
        add(out, size, "  pto.tmov ins(%%ua : %s) outs(%%ma : %s)\n  pto.tmov ins(%%ub : %s) outs(%%mb : %s)\n", ua, ma, ub, mb);
    } else { /* straight into L1 */
        add(out, size, "  pto.tload ins(%%va : !pto.tensor_view<%dx%dx%s>) outs(%%ma : %s)\n", m, K, as, ma);
        add(out, size, "  pto.tload ins(%%vb : !pto.tensor_view<%dx%dx%s>) outs(%%mb : %s)\n", K, N, bs, mb);
    }
    add(out, size, "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n", ma, l, mb, r);
    if (f == FORM_BIAS) {
        add(out, size, "  %%vbias = pto.make_tensor_view %%bias, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<1x%dx%s>\n",
            N, bias_s);
        add(out, size, "  %%mbias = pto.alloc_tile : %s\n  %%tb = pto.alloc_tile : %s\n", mbias, tb);
        add(out, size, "  pto.tload ins(%%vbias : !pto.tensor_view<1x%dx%s>) outs(%%mbias : %s)\n", N, bias_s, mbias);
        add(out, size, "  pto.tmov ins(%%mbias : %s) outs(%%tb : %s)\n", mbias, tb);
        add(out, size, "  pto.tmatmul.bias ins(%%l, %%r, %%tb : %s, %s, %s) outs(%%acc : %s)\n", l, r, tb, c);
    } else {
        add(out, size, "  %s ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n", f == FORM_GEMV ? "pto.tgemv" : "pto.tmatmul",
            l, r, c);
    }
    if (f == FORM_ACC) add(out, size, "  pto.tmatmul.acc ins(%%acc, %%l, %%r : %s, %s, %s) outs(%%acc : %s)\n", c, l, r, c);
    add(out, size, "  pto.tstore ins(%%acc : %s) outs(%%vc : !pto.tensor_view<%dx%dxf32>)\n  return\n}\n}\n", c, m, N);
}

/* Each pair, each form (the bias f16 and bf16): the program's result is the
 * float64 sum of the coded values exactly (each is exact in f32). */
static void test_fp8_matmul_programs(void **state) {
    (void)state;
    static const pto_dtype pairs[][2] = {{PTO_FLOAT8_E4M3, PTO_FLOAT8_E4M3},
                                         {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2},
                                         {PTO_FLOAT8_E5M2, PTO_FLOAT8_E4M3},
                                         {PTO_FLOAT8_E5M2, PTO_FLOAT8_E5M2},
                                         {PTO_HIFLOAT8, PTO_HIFLOAT8}};
    rng g = {808};
    int programs = 0;
    static char text[16384];
    for (size_t pi = 0; pi < COUNT(pairs); ++pi)
        for (int fi = 0; fi < 5; ++fi) {
            const form f = fi == 4 ? FORM_GEMV : fi >= 2 ? FORM_BIAS : (form)fi;
            const size_t rows = f == FORM_GEMV ? 1 : M;
            const pto_dtype bias_dt = fi == 3 ? PTO_BFLOAT16 : PTO_FLOAT16;
            const pto_dtype at = pairs[pi][0], bt = pairs[pi][1];
            unsigned char a[M * K], b[K * N];
            double av[M * K], bv[K * N], biasv[N];
            uint16_t bias[N];
            for (size_t i = 0; i < COUNT(a); ++i) {
                const coded x = codes_of(at)[rng_next(&g) % COUNT(kE4M3)];
                a[i] = x.code, av[i] = x.value;
            }
            for (size_t i = 0; i < COUNT(b); ++i) {
                const coded x = codes_of(bt)[rng_next(&g) % COUNT(kE4M3)];
                b[i] = x.code, bv[i] = x.value;
            }
            for (size_t j = 0; j < N; ++j) {
                biasv[j] = (double)((int)(rng_next(&g) % 33) - 16) / 4; /* exact in f16 and bf16 */
                bias[j] = (uint16_t)ref_from_double(bias_dt, biasv[j]);
            }
            matmul_text(text, sizeof text, "a5", at, bt, f, bias_dt);
            pto_program *p = program_build(text, NULL);
            float c[M * N];
            memset(c, 0x5A, sizeof c);
            void *data[] = {a, b, c, bias};
            const size_t nbytes[] = {rows * K, sizeof b, rows * N * sizeof(float), sizeof bias};
            launch(p, 4, data, nbytes);
            for (size_t i = 0; i < rows; ++i)
                for (size_t j = 0; j < N; ++j) {
                    double want = f == FORM_BIAS ? biasv[j] : 0;
                    for (size_t q = 0; q < K; ++q) want += av[i * K + q] * bv[q * N + j] * (f == FORM_ACC ? 2 : 1);
                    if ((double)c[i * N + j] != want)
                        fail_msg("%s x %s form %d: c(%zu, %zu) is %g, the sum %g", spelling(at), spelling(bt), fi, i,
                                 j, (double)c[i * N + j], want);
                }
            pto_program_destroy(p);
            ++programs;
        }
    printf("[fp8 matmul programs] %d programs (4 FP8 pairs and HiFloat8; tmatmul, .acc, .bias with f16 and bf16 rows "
           "widened; tgemv) equal the exact sums\n",
           programs);
}

/* A vec ND tile moved into a vec NZ or ZN tile under a5: the bytes, read
 * through a flat vec row on the same address, are ref_image_offset's. */
static void test_vec_repack_images(void **state) {
    (void)state;
    static const struct {
        const char *spell;
        pto_dtype dt;
        unsigned rows, cols;
    } kinds[] = {{"f16", PTO_FLOAT16, 32, 64}, {"f32", PTO_FLOAT32, 16, 16}, {"f8E4M3FN", PTO_FLOAT8_E4M3, 32, 64},
                 {"!pto.hif8", PTO_HIFLOAT8, 64, 32}};
    static const struct {
        const char *attrs;
        pto_layout layout;
    } layouts[] = {{"blayout=col_major, slayout=row_major", PTO_LAYOUT_NZ}, {"slayout=col_major", PTO_LAYOUT_ZN}};
    int cases = 0;
    for (size_t ki = 0; ki < COUNT(kinds); ++ki)
        for (size_t li = 0; li < COUNT(layouts); ++li) {
            const unsigned rows = kinds[ki].rows, cols = kinds[ki].cols, n = rows * cols;
            const size_t es = pto_dtype_size(kinds[ki].dt);
            const char *d = kinds[ki].spell;
            char text[4096], nd[128], fr[160], flat[128];
            snprintf(nd, sizeof nd, "!pto.tile_buf<vec, %ux%ux%s>", rows, cols, d);
            snprintf(fr, sizeof fr, "!pto.tile_buf<vec, %ux%ux%s, %s>", rows, cols, d, layouts[li].attrs);
            snprintf(flat, sizeof flat, "!pto.tile_buf<vec, 1x%ux%s>", n, d);
            snprintf(text, sizeof text,
                     "module attributes {pto.target_arch = \"a5\"} {\n"
                     "func.func @k(%%x: !pto.ptr<%s>, %%y: !pto.ptr<%s>) {\n"
                     "  %%c1 = arith.constant 1 : index\n  %%r = arith.constant %u : index\n"
                     "  %%c = arith.constant %u : index\n  %%n = arith.constant %u : index\n"
                     "  %%a0 = arith.constant 0 : i64\n  %%a1 = arith.constant 65536 : i64\n"
                     "  %%v = pto.make_tensor_view %%x, shape = [%%r, %%c], strides = [%%c, %%c1] : !pto.tensor_view<%ux%ux%s>\n"
                     "  %%w = pto.make_tensor_view %%y, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<1x%ux%s>\n"
                     "  %%s = pto.alloc_tile addr = %%a0 : %s\n"
                     "  %%t = pto.alloc_tile addr = %%a1 : %s\n"
                     "  %%f = pto.alloc_tile addr = %%a1 : %s\n"
                     "  pto.tload ins(%%v : !pto.tensor_view<%ux%ux%s>) outs(%%s : %s)\n"
                     "  pto.tmov ins(%%s : %s) outs(%%t : %s)\n"
                     "  pto.tstore ins(%%f : %s) outs(%%w : !pto.tensor_view<1x%ux%s>)\n"
                     "  return\n}\n}\n",
                     d, d, rows, cols, n, rows, cols, d, n, d, nd, fr, flat, rows, cols, d, nd, nd, fr, flat, n, d);
            pto_program *p = program_build(text, NULL);
            uint8_t x[4096 * 2], y[4096 * 2];
            for (size_t i = 0; i < sizeof x; ++i) x[i] = (uint8_t)(i * 29 + 5);
            memset(y, 0xEE, sizeof y);
            void *data[] = {x, y};
            const size_t nbytes[] = {n * es, n * es};
            launch(p, 2, data, nbytes);
            for (size_t r = 0; r < rows; ++r)
                for (size_t c = 0; c < cols; ++c) {
                    const size_t at = ref_image_offset(kinds[ki].dt, rows, cols, PTO_LOC_VEC, layouts[li].layout, r, c);
                    if (memcmp(y + at * es, x + (r * cols + c) * es, es) != 0)
                        fail_msg("%s %s: element (%zu, %zu) is not at offset %zu", d,
                                 layouts[li].layout == PTO_LAYOUT_NZ ? "NZ" : "ZN", r, c, at);
                }
            pto_program_destroy(p);
            ++cases;
        }
    printf("[vec repacks] %d (dtype, NZ | ZN) vec tiles hold the fractal image\n", cases);
}

/* A column window of a wider vec ND tile (pto.subview: its rows lie at the
 * parent's pitch) repacked into a vec NZ tile under a5, as PyPTO moves a
 * matmul operand's half (q[:, 256:512]) to the cube: the image holds the
 * window's elements, not the parent's next row's. */
static void test_vec_repack_of_a_window(void **state) {
    (void)state;
    static const char kText[] =
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "func.func @k(%x: !pto.ptr<f16>, %y: !pto.ptr<f16>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %r = arith.constant 16 : index\n  %c = arith.constant 64 : index\n"
        "  %w0 = arith.constant 32 : index\n  %n = arith.constant 512 : index\n"
        "  %a0 = arith.constant 0 : i64\n  %a1 = arith.constant 65536 : i64\n"
        "  %v = pto.make_tensor_view %x, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<16x64xf16>\n"
        "  %w = pto.make_tensor_view %y, shape = [%c1, %n], strides = [%n, %c1] : !pto.tensor_view<1x512xf16>\n"
        "  %s = pto.alloc_tile addr = %a0 : !pto.tile_buf<vec, 16x64xf16>\n"
        "  %t = pto.alloc_tile addr = %a1 : !pto.tile_buf<vec, 16x32xf16, blayout=col_major, slayout=row_major>\n"
        "  %f = pto.alloc_tile addr = %a1 : !pto.tile_buf<vec, 1x512xf16>\n"
        "  pto.tload ins(%v : !pto.tensor_view<16x64xf16>) outs(%s : !pto.tile_buf<vec, 16x64xf16>)\n"
        "  %h = pto.subview %s[%c0, %w0] sizes [16, 32] : !pto.tile_buf<vec, 16x64xf16> -> !pto.tile_buf<vec, 16x32xf16>\n"
        "  pto.tmov ins(%h : !pto.tile_buf<vec, 16x32xf16>) outs(%t : !pto.tile_buf<vec, 16x32xf16, blayout=col_major, slayout=row_major>)\n"
        "  pto.tstore ins(%f : !pto.tile_buf<vec, 1x512xf16>) outs(%w : !pto.tensor_view<1x512xf16>)\n"
        "  return\n}\n}\n";
    pto_program *p = program_build(kText, NULL);
    uint16_t x[16 * 64], y[512];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (uint16_t)(i * 7 + 3);
    memset(y, 0xEE, sizeof y);
    void *data[] = {x, y};
    const size_t nbytes[] = {sizeof x, sizeof y};
    launch(p, 2, data, nbytes);
    for (size_t r = 0; r < 16; ++r)
        for (size_t c = 0; c < 32; ++c) {
            const size_t at = ref_image_offset(PTO_FLOAT16, 16, 32, PTO_LOC_VEC, PTO_LAYOUT_NZ, r, c);
            if (y[at] != x[r * 64 + 32 + c])
                fail_msg("window element (%zu, %zu): 0x%04x at offset %zu, want 0x%04x", r, c, y[at], at,
                         x[r * 64 + 32 + c]);
        }
    pto_program_destroy(p);
    printf("[vec repacks] a 16x32 window of a 16x64 tile repacks into NZ at the parent's pitch\n");
}

/* MX scales moved from a vec ND tile into a scaling ZZ tile under a5 and
 * read by pto.tmatmul.mx (b's scales all 2^0 through a mat NN tile): c(i, j)
 * = sum_k a(i, k) b(k, j) 2^(s(i, k / 32) - 127), exact here. */
static void test_vec_to_scaling(void **state) {
    (void)state;
    enum { B = K / 32 };
    const char *e = "!pto.f8E8M0", *f8 = "f8E4M3FN";
    char ua[128], us[128], ma[160], mb[160], l[160], r[160], ls[160], mbs[160], rs[160], c[160];
    snprintf(ua, sizeof ua, "!pto.tile_buf<vec, %dx%dx%s>", M, K, f8);
    snprintf(us, sizeof us, "!pto.tile_buf<vec, %dx%dx%s>", M, B, e);
    snprintf(ma, sizeof ma, "!pto.tile_buf<mat, %dx%dx%s, blayout=col_major, slayout=row_major>", M, K, f8);
    snprintf(mb, sizeof mb, "!pto.tile_buf<mat, %dx%dx%s, slayout=col_major>", K, N, f8);
    snprintf(l, sizeof l, "!pto.tile_buf<left, %dx%dx%s, blayout=col_major, slayout=row_major>", M, K, f8);
    snprintf(r, sizeof r, "!pto.tile_buf<right, %dx%dx%s, slayout=col_major>", K, N, f8);
    snprintf(ls, sizeof ls, "!pto.tile_buf<scaling, %dx%dx%s, slayout=row_major, fractal=32>", M, B, e);
    snprintf(mbs, sizeof mbs, "!pto.tile_buf<mat, %dx%dx%s, blayout=col_major, slayout=col_major, fractal=32>", B, N, e);
    snprintf(rs, sizeof rs, "!pto.tile_buf<scaling, %dx%dx%s, blayout=col_major, slayout=col_major, fractal=32>", B, N, e);
    snprintf(c, sizeof c, "!pto.tile_buf<acc, %dx%dxf32, blayout=col_major, slayout=row_major, fractal=1024>", M, N);
    static char text[16384];
    text[0] = '\0';
    add(text, sizeof text, "module attributes {pto.target_arch = \"a5\"} {\n");
    add(text, sizeof text, "func.func @k(%%a: !pto.ptr<%s>, %%as: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%bs: !pto.ptr<%s>, "
                           "%%c: !pto.ptr<f32>) {\n", f8, e, f8, e);
    add(text, sizeof text, "  %%c1 = arith.constant 1 : index\n  %%m = arith.constant %d : index\n", M);
    add(text, sizeof text, "  %%k = arith.constant %d : index\n  %%n = arith.constant %d : index\n", K, N);
    add(text, sizeof text, "  %%kb = arith.constant %d : index\n", B);
    const struct {
        const char *name, *rows, *cols, *dtype;
        int r, c;
    } views[] = {{"a", "m", "k", f8, M, K}, {"as", "m", "kb", e, M, B}, {"b", "k", "n", f8, K, N},
                 {"bs", "kb", "n", e, B, N}, {"c", "m", "n", "f32", M, N}};
    for (size_t v = 0; v < COUNT(views); ++v)
        add(text, sizeof text, "  %%v%s = pto.make_tensor_view %%%s, shape = [%%%s, %%%s], strides = [%%%s, %%c1] : "
                               "!pto.tensor_view<%dx%dx%s>\n", views[v].name, views[v].name, views[v].rows,
            views[v].cols, views[v].cols, views[v].r, views[v].c, views[v].dtype);
    add(text, sizeof text, "  %%ua = pto.alloc_tile : %s\n  %%us = pto.alloc_tile : %s\n  %%ma = pto.alloc_tile : %s\n", ua, us, ma);
    add(text, sizeof text, "  %%mb = pto.alloc_tile : %s\n  %%mbs = pto.alloc_tile : %s\n  %%l = pto.alloc_tile : %s\n", mb, mbs, l);
    add(text, sizeof text, "  %%r = pto.alloc_tile : %s\n  %%ls = pto.alloc_tile : %s\n  %%rs = pto.alloc_tile : %s\n", r, ls, rs);
    add(text, sizeof text, "  %%cc = pto.alloc_tile : %s\n", c);
    add(text, sizeof text, "  pto.tload ins(%%va : !pto.tensor_view<%dx%dx%s>) outs(%%ua : %s)\n", M, K, f8, ua);
    add(text, sizeof text, "  pto.tload ins(%%vas : !pto.tensor_view<%dx%dx%s>) outs(%%us : %s)\n", M, B, e, us);
    add(text, sizeof text, "  pto.tload ins(%%vb : !pto.tensor_view<%dx%dx%s>) outs(%%mb : %s)\n", K, N, f8, mb);
    add(text, sizeof text, "  pto.tload ins(%%vbs : !pto.tensor_view<%dx%dx%s>) outs(%%mbs : %s)\n", B, N, e, mbs);
    add(text, sizeof text, "  pto.tmov ins(%%ua : %s) outs(%%ma : %s)\n  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n", ua, ma, ma, l);
    add(text, sizeof text, "  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n  pto.tmov ins(%%us : %s) outs(%%ls : %s)\n", mb, r, us, ls);
    add(text, sizeof text, "  pto.tmov ins(%%mbs : %s) outs(%%rs : %s)\n", mbs, rs);
    add(text, sizeof text, "  pto.tget_scale_addr ins(%%l : %s) outs(%%ls : %s)\n", l, ls);
    add(text, sizeof text, "  pto.tget_scale_addr ins(%%r : %s) outs(%%rs : %s)\n", r, rs);
    add(text, sizeof text, "  pto.tmatmul.mx ins(%%l, %%ls, %%r, %%rs : %s, %s, %s, %s) outs(%%cc : %s)\n", l, ls, r, rs, c);
    add(text, sizeof text, "  pto.tstore ins(%%cc : %s) outs(%%vc : !pto.tensor_view<%dx%dxf32>)\n  return\n}\n}\n", c, M, N);
    pto_program *p = program_build(text, NULL);
    rng g = {909};
    unsigned char a[M * K], b[K * N], as[M * B], bs[B * N];
    double av[M * K], bv[K * N];
    for (size_t i = 0; i < COUNT(a); ++i) a[i] = kE4M3[rng_next(&g) % COUNT(kE4M3)].code;
    for (size_t i = 0; i < COUNT(a); ++i)
        for (size_t q = 0; q < COUNT(kE4M3); ++q)
            if (kE4M3[q].code == a[i]) av[i] = kE4M3[q].value;
    for (size_t i = 0; i < COUNT(b); ++i) {
        const coded x = kE4M3[rng_next(&g) % COUNT(kE4M3)];
        b[i] = x.code, bv[i] = x.value;
    }
    for (size_t i = 0; i < COUNT(as); ++i) as[i] = (unsigned char)(127 - 3 + rng_next(&g) % 7); /* 2^-3 .. 2^3 */
    memset(bs, 127, sizeof bs);                                                             /* 2^0 */
    float cv[M * N];
    memset(cv, 0x5A, sizeof cv);
    void *data[] = {a, as, b, bs, cv};
    const size_t nbytes[] = {sizeof a, sizeof as, sizeof b, sizeof bs, sizeof cv};
    launch(p, 5, data, nbytes);
    for (size_t i = 0; i < M; ++i)
        for (size_t j = 0; j < N; ++j) {
            double want = 0;
            for (size_t q = 0; q < K; ++q) want += av[i * K + q] * bv[q * N + j] * ldexp(1.0, (int)as[i * B + q / 32] - 127);
            if ((double)cv[i * N + j] != want)
                fail_msg("c(%zu, %zu) is %g, the scaled sum %g", i, j, (double)cv[i * N + j], want);
        }
    pto_program_destroy(p);
    printf("[vec to scaling] e8m0 scales moved from a vec ND tile into a scaling ZZ tile scale tmatmul.mx's sums\n");
}

/* Each refusal with its located sentence (the line and column of the
 * instruction in "t.pto"). */
static void test_refusals(void **state) {
    (void)state;
    static const struct {
        const char *target, *src, *dst, *want;
    } moves[] = {
        {"a2a3", "vec, 16x32xf16", "mat, 16x32xf16, blayout=col_major, slayout=row_major",
         "t.pto:5:3: error: pto.tmov: A2A3 has no vec repack into the cube's layouts (vec to mat is A5's)"},
        {"a2a3", "vec, 16x32x!pto.f8E8M0", "scaling, 16x32x!pto.f8E8M0, slayout=row_major, fractal=32",
         "A2A3 has no vec repack into the cube's layouts (vec to scaling is A5's)"},
        {"a2a3", "vec, 16x32xf16", "vec, 16x32xf16, blayout=col_major, slayout=row_major",
         "the repack of a vec tile into NZ is A5's TMOV"},
        {"a5", "vec, 16x32xf16", "mat, 16x32xf16",
         "under A5 a vec tile repacks into a mat NZ or ZN tile or a scaling ZZ tile, not a mat ND tile"},
        {"a5", "vec, 32x32x!pto.f8E8M0", "scaling, 32x32x!pto.f8E8M0, blayout=col_major, slayout=col_major, fractal=32",
         "not a scaling NN tile"},
        {"a5", "vec, 16x16xf16", "scaling, 16x16xf16, slayout=row_major, fractal=32",
         "under A5 the repack into a scaling ZZ tile takes ui8, !pto.f8E8M0 or !pto.hif8, not f16"},
        {"a5", "vec, 16x32xf16", "mat, 16x32xf32, blayout=col_major, slayout=row_major",
         "pto.tmov: src is f16 and dst f32"},
        {"a2a3", "mat, 1x32xbf16", "bias, 1x32xf32", "pto.tmov: src is bf16 and dst f32"},
        {"a5", "mat, 1x32xf32", "bias, 1x32xf16", "pto.tmov: src is f32 and dst f16"},
        {"a5", "mat, 1x8xf16", "bias, 1x8xf32", "a bias row moves from a one-row mat tile and is a multiple of 64 bytes"},
        {"a5", "mat, 16x64x!pto.i4x2, blayout=col_major, slayout=row_major",
         "left, 16x64x!pto.i4x2, blayout=col_major, slayout=row_major", "the cube's moves under A5 do not carry !pto.i4x2"},
        {"a2a3", "mat, 16x32xf8E4M3FN, blayout=col_major, slayout=row_major", "left, 16x32xf8E4M3FN, slayout=row_major",
         "the cube's moves under A2A3 do not carry f8E4M3FN"},
    };
    char text[4096];
    for (size_t i = 0; i < COUNT(moves); ++i) {
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\nfunc.func @k() {\n"
                 "  %%s = pto.alloc_tile : !pto.tile_buf<%s>\n  %%d = pto.alloc_tile : !pto.tile_buf<%s>\n"
                 "  pto.tmov ins(%%s : !pto.tile_buf<%s>) outs(%%d : !pto.tile_buf<%s>)\n  return\n}\n}\n",
                 moves[i].target, moves[i].src, moves[i].dst, moves[i].src, moves[i].dst);
        expect_program_refused_with(text, NULL, moves[i].want);
    }
    /* The accepted neighbours: ui8 and hif8 scales, f16 and bf16 bias rows under a5, f16 under a2a3. */
    static const struct {
        const char *target, *src, *dst;
    } fine[] = {
        {"a5", "vec, 16x32xui8", "scaling, 16x32xui8, slayout=row_major, fractal=32"},
        {"a5", "vec, 16x32x!pto.hif8", "scaling, 16x32x!pto.hif8, slayout=row_major, fractal=32"},
        {"a5", "vec, 32x32x!pto.hif8", "mat, 32x32x!pto.hif8, slayout=col_major"},
        {"a5", "mat, 1x32xbf16", "bias, 1x32xf32"},
        {"a2a3", "mat, 1x32xf16", "bias, 1x32xf32"},
        {"a2a3", "mat, 16x64x!pto.i4x2, blayout=col_major, slayout=row_major", "left, 16x64x!pto.i4x2, slayout=row_major"},
    };
    for (size_t i = 0; i < COUNT(fine); ++i) {
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\nfunc.func @k() {\n"
                 "  %%s = pto.alloc_tile : !pto.tile_buf<%s>\n  %%d = pto.alloc_tile : !pto.tile_buf<%s>\n"
                 "  pto.tmov ins(%%s : !pto.tile_buf<%s>) outs(%%d : !pto.tile_buf<%s>)\n  return\n}\n}\n",
                 fine[i].target, fine[i].src, fine[i].dst, fine[i].src, fine[i].dst);
        pto_program_destroy(program_build(text, NULL));
    }
    /* The 8-bit matrix multiply: A5's only, and its pairs. */
    static char mm[16384];
    matmul_text(mm, sizeof mm, "a5", PTO_FLOAT8_E4M3, PTO_HIFLOAT8, FORM_PLAIN, PTO_FLOAT16);
    expect_program_refused_with(mm, NULL,
                                "pto_tmatmul: (a FLOAT8_E4M3; b HIFLOAT8) is not one of A5's 8-bit pairs: "
                                "FLOAT8_E4M3 or FLOAT8_E5M2 each, or both HIFLOAT8");
    /* Under A2A3 the 8-bit operands do not reach the left tile (pto_tmov's rule). */
    matmul_text(mm, sizeof mm, "a2a3", PTO_FLOAT8_E5M2, PTO_FLOAT8_E4M3, FORM_PLAIN, PTO_FLOAT16);
    expect_program_refused_with(mm, NULL,
                                "pto.tmov: the cube's moves under A2A3 do not carry f8E5M2 (the 8-bit and 4-bit "
                                "floats are A5's)");
    printf("[a5 moves refusals] %zu refused with their sentences, %zu neighbours accepted\n", COUNT(moves) + 2,
           COUNT(fine));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp8_matmul_programs),
        cmocka_unit_test(test_vec_repack_images),
        cmocka_unit_test(test_vec_repack_of_a_window),
        cmocka_unit_test(test_vec_to_scaling),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
