/* TIMG2COL with SETFMATRIX, SET_IMG2COL_PADDING and SET_IMG2COL_RPT
 * (pto_timg2col and the three register calls) against a reference written
 * from the pages' definition (pto-isa docs/isa/TIMG2COL.md, the ConvTile's
 * fields): the im2col matrix's rows listed output pixel by output pixel
 * (image, then output row, then output column) and its columns tap by tap
 * (channel block, filter row, filter column, channel), each element the
 * padded feature map's pixel under that tap, the pad element past the
 * matrix. Strides, dilations, padding on each side, windows at (pos_m,
 * pos_k), both repeat modes; every dtype under HOST, the NPU tiles under
 * A2A3 and A5; bit for bit, nothing written outside dst's valid region.
 * Then a convolution, im2col + pto_tmatmul, against a direct convolution
 * (FLOAT32 with small integers, exact in any order, and INT8 into INT32),
 * whole and with K split into windows accumulated by pto_tmatmul_acc; the
 * shapes of pto-isa's CPU and NPU ST cases (on values of our own); the
 * rules in order, nothing written on a refusal; the registers per thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    uint32_t n, c1, h, w, c0; /* the feature map, NC1HWC0 */
    uint32_t fh, fw, sh, sw, dh, dw;
    uint32_t pad_l, pad_r, pad_t, pad_b;
} geometry;

static uint32_t out_extent(uint32_t in, uint32_t pads, uint32_t f, uint32_t d, uint32_t s) {
    return (in + pads - d * (f - 1) - 1) / s + 1;
}

/* The config of g (the pad element, the repeat and the window are the
 * caller's). */
static pto_img2col_config config_of(const geometry *g) {
    pto_img2col_config c;
    memset(&c, 0, sizeof c);
    c.fmap_h = (uint16_t)g->h, c.fmap_w = (uint16_t)g->w;
    c.pad_left = (uint8_t)g->pad_l, c.pad_right = (uint8_t)g->pad_r;
    c.pad_top = (uint8_t)g->pad_t, c.pad_bottom = (uint8_t)g->pad_b;
    c.stride_h = (uint8_t)g->sh, c.stride_w = (uint8_t)g->sw;
    c.dilation_h = (uint8_t)g->dh, c.dilation_w = (uint8_t)g->dw;
    c.filter_h = (uint16_t)g->fh, c.filter_w = (uint16_t)g->fw;
    c.channel_size = (uint16_t)(g->c1 * g->c0);
    c.repeat_time = 1;
    return c;
}

static void set_registers(const pto_img2col_config *c) {
    expect_status(pto_setfmatrix(c), PTO_OK, "pto_setfmatrix");
    expect_status(pto_set_img2col_padding(c), PTO_OK, "pto_set_img2col_padding");
    expect_status(pto_set_img2col_rpt(c), PTO_OK, "pto_set_img2col_rpt");
}

/* The im2col matrix of g as the page defines it: for each row the output
 * pixel (n, oh, ow), for each column the tap (c1, kh, kw, c0), listed in
 * that order; an element is the source element index of the NC1HWC0 array
 * or -1 for the pad element (a tap on the padding). */
typedef struct {
    uint32_t m, k;
    uint32_t *pix; /* 3 per row: n, oh, ow */
    uint32_t *tap; /* 4 per column: c1, kh, kw, c0 */
} matrix;

static matrix matrix_of(const geometry *g) {
    matrix x;
    const uint32_t oh = out_extent(g->h, g->pad_t + g->pad_b, g->fh, g->dh, g->sh);
    const uint32_t ow = out_extent(g->w, g->pad_l + g->pad_r, g->fw, g->dw, g->sw);
    x.m = g->n * oh * ow;
    x.k = g->c1 * g->fh * g->fw * g->c0;
    x.pix = malloc(sizeof(uint32_t) * 3 * x.m);
    x.tap = malloc(sizeof(uint32_t) * 4 * x.k);
    uint32_t i = 0;
    for (uint32_t n = 0; n < g->n; ++n)
        for (uint32_t y = 0; y < oh; ++y)
            for (uint32_t z = 0; z < ow; ++z, ++i)
                x.pix[3 * i] = n, x.pix[3 * i + 1] = y, x.pix[3 * i + 2] = z;
    i = 0;
    for (uint32_t c1 = 0; c1 < g->c1; ++c1)
        for (uint32_t kh = 0; kh < g->fh; ++kh)
            for (uint32_t kw = 0; kw < g->fw; ++kw)
                for (uint32_t c0 = 0; c0 < g->c0; ++c0, ++i)
                    x.tap[4 * i] = c1, x.tap[4 * i + 1] = kh, x.tap[4 * i + 2] = kw,
                    x.tap[4 * i + 3] = c0;
    return x;
}

static long long matrix_element(const geometry *g, const matrix *x, uint64_t m, uint64_t k) {
    if (m >= x->m || k >= x->k) return -1;
    const uint32_t *p = &x->pix[3 * m], *t = &x->tap[4 * k];
    const long long ih = (long long)p[1] * g->sh + (long long)t[1] * g->dh - g->pad_t;
    const long long iw = (long long)p[2] * g->sw + (long long)t[2] * g->dw - g->pad_l;
    if (ih < 0 || iw < 0 || ih >= g->h || iw >= g->w) return -1;
    /* x[n][c1][ih][iw][c0] */
    return ((((long long)p[0] * g->c1 + t[0]) * g->h + ih) * g->w + iw) * g->c0 + t[3];
}

static void matrix_free(matrix *x) {
    free(x->pix);
    free(x->tap);
}

static uint32_t round_up(uint32_t v, uint32_t to) { return (v + to - 1) / to * to; }

/* A rows x cols tile with the valid region given: a plain tile under HOST,
 * else a cube tile at the location and layout. */
static pto_tile *new_tile_on(pto_profile p, pto_dtype dt, uint32_t rows, uint32_t cols,
                             pto_location loc, pto_layout layout, uint32_t valid_rows,
                             uint32_t valid_cols) {
    pto_tile *t = NULL;
    if (p == PTO_PROFILE_HOST)
        assert_int_equal(pto_tile_create(dt, rows, cols, &t), PTO_OK);
    else
        assert_int_equal(pto_tile_create_cube(dt, rows, cols, loc, layout, &t), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, valid_rows, valid_cols), PTO_OK);
    return t;
}

/* The tiles of one profile: HOST's plain tiles, the NPUs' mat NZ source
 * (rows rounded up to 16, its boxes) and left tile (ZZ on A2A3, NZ on A5). */
static pto_tile *new_src(pto_profile p, pto_dtype dt, uint32_t rows, uint32_t c0) {
    const uint32_t alloc = p == PTO_PROFILE_HOST ? rows : round_up(rows, 16);
    return new_tile_on(p, dt, alloc, c0, PTO_LOC_MAT, PTO_LAYOUT_NZ, rows, c0);
}

static pto_tile *new_left(pto_profile p, pto_dtype dt, uint32_t rows, uint32_t cols,
                          uint32_t valid_rows, uint32_t valid_cols) {
    return new_tile_on(p, dt, rows, cols, PTO_LOC_LEFT,
                       p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ, valid_rows,
                       valid_cols);
}

static unsigned char *random_bytes(rng *r, size_t n) {
    unsigned char *b = malloc(n);
    for (size_t i = 0; i < n; ++i) b[i] = (unsigned char)rng_next(r);
    return b;
}

typedef struct {
    pto_profile profile;
    pto_dtype dt;
    geometry g;
    uint16_t pos_m, pos_k;
    uint32_t rows, cols;        /* dst's */
    uint32_t valid_rows, valid_cols;
    uint32_t pad_bits;
    uint8_t repeat_time, repeat_mode;
    uint16_t repeat_stride;
} window_case;

/* One window against the reference: every valid element bit for bit, every
 * other element of dst as it was. */
static void check_window(rng *r, const window_case *wc) {
    assert_int_equal(pto_set_profile(wc->profile), PTO_OK);
    const geometry *g = &wc->g;
    const size_t size = pto_dtype_size(wc->dt);
    const uint32_t src_rows = g->n * g->c1 * g->h * g->w;
    pto_tile *src = new_src(wc->profile, wc->dt, src_rows, g->c0);
    const size_t src_bytes = (size_t)pto_tile_rows(src) * g->c0 * size;
    unsigned char *in = random_bytes(r, src_bytes);
    assert_int_equal(pto_tile_write(src, in, src_bytes), PTO_OK);
    pto_tile *dst = new_left(wc->profile, wc->dt, wc->rows, wc->cols, wc->valid_rows, wc->valid_cols);
    const size_t dst_bytes = (size_t)wc->rows * wc->cols * size;
    unsigned char *before = random_bytes(r, dst_bytes), *out = malloc(dst_bytes);
    assert_int_equal(pto_tile_write(dst, before, dst_bytes), PTO_OK);

    pto_img2col_config c = config_of(g);
    c.pad_bits = wc->pad_bits;
    c.repeat_time = wc->repeat_time, c.repeat_mode = wc->repeat_mode;
    c.repeat_stride = wc->repeat_stride;
    set_registers(&c);
    expect_status(pto_timg2col(dst, src, &c, wc->pos_m, wc->pos_k), PTO_OK, "pto_timg2col");
    assert_int_equal(pto_tile_read(dst, out, dst_bytes), PTO_OK);

    matrix x = matrix_of(g);
    const uint32_t block_rows = wc->valid_rows / wc->repeat_time;
    const uint32_t block_cols = wc->valid_cols / wc->repeat_time;
    for (uint32_t i = 0; i < wc->rows; ++i)
        for (uint32_t j = 0; j < wc->cols; ++j) {
            const unsigned char *got = out + ((size_t)i * wc->cols + j) * size;
            const unsigned char *want = before + ((size_t)i * wc->cols + j) * size;
            if (i < wc->valid_rows && j < wc->valid_cols) {
                uint64_t m = wc->pos_m + (uint64_t)i, k = wc->pos_k + (uint64_t)j;
                if (wc->repeat_mode == 0)
                    m = wc->pos_m + (uint64_t)(i / block_rows) * 16 * wc->repeat_stride +
                        i % block_rows;
                else
                    k = wc->pos_k + (uint64_t)(j / block_cols) * g->c0 * wc->repeat_stride +
                        j % block_cols;
                const long long e = matrix_element(g, &x, m, k);
                /* the pad element: pad_bits' low bytes, little-endian here */
                const uint32_t pad = wc->pad_bits;
                unsigned char pad_bytes[4] = {(unsigned char)pad, (unsigned char)(pad >> 8),
                                              (unsigned char)(pad >> 16),
                                              (unsigned char)(pad >> 24)};
                want = e < 0 ? pad_bytes : in + (size_t)e * size;
                if (memcmp(got, want, size) != 0)
                    fail_msg("%s %s: dst(%u, %u) = im2col(%llu, %llu) differs (source %lld)",
                             pto_profile_string(wc->profile), dtype_spelling(wc->dt), i, j,
                             (unsigned long long)m, (unsigned long long)k, e);
            } else if (memcmp(got, want, size) != 0) {
                fail_msg("%s: dst(%u, %u) outside the valid region was written",
                         pto_profile_string(wc->profile), i, j);
            }
        }
    matrix_free(&x);
    free(in);
    free(before);
    free(out);
    TILES_DESTROY(src, dst);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static const geometry kGeometries[] = {
    /* n c1 h w c0 | fh fw sh sw dh dw | pads l r t b */
    {1, 1, 3, 4, 8, 2, 2, 1, 1, 1, 1, 1, 0, 1, 0},  /* pto-isa's CPU case, as a shape */
    {1, 1, 4, 4, 8, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},
    {2, 2, 5, 6, 8, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1},
    {1, 2, 7, 5, 8, 3, 2, 2, 1, 2, 2, 2, 0, 1, 3},
    {2, 1, 6, 6, 8, 1, 1, 3, 3, 1, 1, 0, 2, 2, 0},
    {1, 1, 9, 3, 8, 2, 3, 1, 1, 3, 1, 0, 1, 0, 0},
};

/* HOST: every dtype, plain tiles, C0 = 8 (any C0 under HOST), windows
 * inside, across and past the matrix's ends. */
static void test_host_windows(void **state) {
    (void)state;
    rng r = {7};
    static const pto_dtype kDtypes[] = {PTO_INT8, PTO_UINT8, PTO_INT16, PTO_UINT16, PTO_INT32,
                                        PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    static const uint16_t kPos[][2] = {{0, 0}, {1, 8}, {5, 3}, {40, 60}, {200, 500}};
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t gi = 0; gi < COUNT(kGeometries); ++gi)
            for (size_t pi = 0; pi < COUNT(kPos); ++pi) {
                window_case wc = {PTO_PROFILE_HOST, kDtypes[d], kGeometries[gi], kPos[pi][0],
                                  kPos[pi][1], 19, 41, 17, 37, 0xA5C3B1E7u, 1, 0, 0};
                check_window(&r, &wc);
            }
}

/* A2A3 and A5: the NPU tiles, C0 = 32 bytes, each profile's dtypes. */
static void test_npu_windows(void **state) {
    (void)state;
    rng r = {11};
    static const pto_dtype kA2A3[] = {PTO_INT8, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    static const pto_dtype kA5[] = {PTO_INT8, PTO_UINT8, PTO_INT16, PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    for (int pi = 0; pi < 2; ++pi) {
        const pto_profile p = pi == 0 ? PTO_PROFILE_A2A3 : PTO_PROFILE_A5;
        const pto_dtype *dts = pi == 0 ? kA2A3 : kA5;
        const size_t n = pi == 0 ? COUNT(kA2A3) : COUNT(kA5);
        for (size_t d = 0; d < n; ++d)
            for (size_t gi = 0; gi < COUNT(kGeometries); ++gi) {
                const uint32_t c0 = 32 / (uint32_t)pto_dtype_size(dts[d]);
                geometry g = kGeometries[gi];
                g.c0 = c0;
                window_case wc = {p, dts[d], g, (uint16_t)(3 * gi), (uint16_t)(c0 * gi),
                                  32, 4 * c0, 29, 3 * c0 + 1, 0x7F80FF01u, 1, 0, 0};
                check_window(&r, &wc);
            }
    }
}

/* pto-isa's CPU ST cases (tests/cpu/st/testcase/timg2col): a FLOAT32 3x4
 * map of one channel block, a 2x2 filter, padding left and top, pad element
 * -1.0, the window at (1, 8) into a 16x16 tile of 4 valid rows; an INT8 4x4
 * map, a 2x2 filter of stride 2, the window at (0, 32) into 16x32 with 4
 * valid rows. Under every profile (C0 is 32 bytes in both). */
static void test_cpu_st_cases(void **state) {
    (void)state;
    rng r = {17};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t pi = 0; pi < COUNT(kProfiles); ++pi) {
        window_case f = {kProfiles[pi], PTO_FLOAT32, {1, 1, 3, 4, 8, 2, 2, 1, 1, 1, 1, 1, 0, 1, 0},
                         1, 8, 16, 16, 4, 16, 0xBF800000u, 1, 0, 0};
        check_window(&r, &f);
        window_case i = {kProfiles[pi], PTO_INT8, {1, 1, 4, 4, 32, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},
                         0, 32, 16, 32, 4, 32, 0, 1, 0, 0};
        check_window(&r, &i);
    }
}

/* Repeats: along M (units of 16 rows) and along K (units of C0 columns),
 * with strides that skip, overlap and match the block. */
static void test_repeat(void **state) {
    (void)state;
    rng r = {13};
    geometry g = {2, 2, 6, 7, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    static const uint16_t kStrides[] = {0, 1, 2, 5};
    for (int pi = 0; pi < 2; ++pi) {
        const pto_profile p = pi == 0 ? PTO_PROFILE_HOST : PTO_PROFILE_A5;
        for (size_t s = 0; s < COUNT(kStrides); ++s) {
            window_case rows = {p, PTO_FLOAT32, g, 2, 8, 48, 40, 48, 40, 0, 3, 0, kStrides[s]};
            check_window(&r, &rows);
            window_case cols = {p, PTO_FLOAT32, g, 5, 0, 32, 48, 30, 48, 0, 2, 1, kStrides[s]};
            check_window(&r, &cols);
            window_case one = {p, PTO_FLOAT32, g, 7, 16, 16, 48, 16, 48, 0, 1, 1, kStrides[s]};
            check_window(&r, &one);
        }
    }
}

/* Convolution: dst = im2col(x) * w, one output pixel per row and one output
 * channel per column, against the direct sum over channels and taps. The
 * values are small integers, so every order of the float sums is exact. */
static void check_convolution(pto_profile p, pto_dtype in_dt, const geometry *g, uint32_t oc,
                              uint32_t base_k) {
    assert_int_equal(pto_set_profile(p), PTO_OK);
    const bool ints = in_dt == PTO_INT8;
    const pto_dtype acc_dt = ints ? PTO_INT32 : PTO_FLOAT32;
    const uint32_t c = g->c1 * g->c0;
    const uint32_t oh = out_extent(g->h, g->pad_t + g->pad_b, g->fh, g->dh, g->sh);
    const uint32_t ow = out_extent(g->w, g->pad_l + g->pad_r, g->fw, g->dw, g->sw);
    const uint32_t m = g->n * oh * ow, k = c * g->fh * g->fw;
    rng r = {m * 31u + k};
    /* x[n][ch][h][w] and wt[o][ch][kh][kw], in -4..4 (INT8: -100..100) */
    const int range = ints ? 100 : 4;
    int *x = malloc(sizeof(int) * g->n * c * g->h * g->w);
    int *wt = malloc(sizeof(int) * oc * c * g->fh * g->fw);
    for (size_t i = 0; i < (size_t)g->n * c * g->h * g->w; ++i)
        x[i] = (int)(rng_next(&r) % (2 * range + 1)) - range;
    for (size_t i = 0; i < (size_t)oc * c * g->fh * g->fw; ++i)
        wt[i] = (int)(rng_next(&r) % (2 * range + 1)) - range;

    /* src: NC1HWC0 rows; b: row ((c1*FH + kh)*FW + kw)*C0 + c0, column o */
    const uint32_t src_rows = g->n * g->c1 * g->h * g->w;
    pto_tile *src = new_src(p, in_dt, src_rows, g->c0);
    const uint32_t src_alloc = pto_tile_rows(src);
    float *xs = calloc((size_t)src_alloc * g->c0, sizeof(float));
    int8_t *xb = calloc((size_t)src_alloc * g->c0, 1);
    for (uint32_t n = 0; n < g->n; ++n)
        for (uint32_t ch = 0; ch < c; ++ch)
            for (uint32_t y = 0; y < g->h; ++y)
                for (uint32_t z = 0; z < g->w; ++z) {
                    const size_t row = (((size_t)n * g->c1 + ch / g->c0) * g->h + y) * g->w + z;
                    const int v = x[(((size_t)n * c + ch) * g->h + y) * g->w + z];
                    xs[row * g->c0 + ch % g->c0] = (float)v;
                    xb[row * g->c0 + ch % g->c0] = (int8_t)v;
                }
    const size_t src_n = (size_t)src_alloc * g->c0;
    assert_int_equal(ints ? pto_tile_write(src, xb, src_n) : pto_tile_write_f32(src, xs, src_n),
                     PTO_OK);

    /* b's rows: ((c1*FH + kh)*FW + kw)*C0 + c0, its columns the output channels */
    const uint32_t mp = round_up(m, 16), np = round_up(oc, 16);
    float *bs = calloc((size_t)k * np, sizeof(float));
    int8_t *bb = calloc((size_t)k * np, 1);
    for (uint32_t o = 0; o < oc; ++o)
        for (uint32_t ch = 0; ch < c; ++ch)
            for (uint32_t kh = 0; kh < g->fh; ++kh)
                for (uint32_t kw = 0; kw < g->fw; ++kw) {
                    const size_t row =
                        (((size_t)(ch / g->c0) * g->fh + kh) * g->fw + kw) * g->c0 + ch % g->c0;
                    const int v = wt[(((size_t)o * c + ch) * g->fh + kh) * g->fw + kw];
                    bs[row * np + o] = (float)v;
                    bb[row * np + o] = (int8_t)v;
                }
    pto_tile *dst = new_tile_on(p, acc_dt, mp, np, PTO_LOC_ACC, PTO_LAYOUT_NZ, m, oc);
    pto_img2col_config cfg = config_of(g);
    set_registers(&cfg);
    /* K in windows of base_k columns (all of K when 0), accumulated as
     * pto-isa's split-K kernels do: TIMG2COL at pos_k, then TMATMUL_ACC. */
    const uint32_t kb = base_k != 0 ? base_k : k;
    for (uint32_t pos = 0; pos < k; pos += kb) {
        const uint32_t kv = k - pos < kb ? k - pos : kb;
        pto_tile *a = new_left(p, in_dt, mp, kb, m, kv);
        pto_tile *b = new_tile_on(p, in_dt, kb, np, PTO_LOC_RIGHT, PTO_LAYOUT_ZN, kv, oc);
        const size_t rows_n = (size_t)kv * np, whole = (size_t)kb * np;
        float *chunk_f = calloc(whole, sizeof(float));
        int8_t *chunk_i = calloc(whole, 1);
        memcpy(chunk_f, bs + (size_t)pos * np, rows_n * sizeof(float));
        memcpy(chunk_i, bb + (size_t)pos * np, rows_n);
        assert_int_equal(ints ? pto_tile_write(b, chunk_i, whole) : pto_tile_write_f32(b, chunk_f, whole),
                         PTO_OK);
        expect_status(pto_timg2col(a, src, &cfg, 0, (uint16_t)pos), PTO_OK, "pto_timg2col");
        expect_status(pos == 0 ? pto_tmatmul(dst, a, b) : pto_tmatmul_acc(dst, a, b), PTO_OK,
                      "pto_tmatmul");
        free(chunk_f), free(chunk_i);
        TILES_DESTROY(a, b);
    }

    const size_t dst_n = (size_t)mp * np;
    float *got_f = malloc(dst_n * sizeof(float));
    int32_t *got_i = malloc(dst_n * sizeof(int32_t));
    assert_int_equal(ints ? pto_tile_read(dst, got_i, dst_n * 4) : pto_tile_read_f32(dst, got_f, dst_n),
                     PTO_OK);
    for (uint32_t n = 0; n < g->n; ++n)
        for (uint32_t y = 0; y < oh; ++y)
            for (uint32_t z = 0; z < ow; ++z)
                for (uint32_t o = 0; o < oc; ++o) {
                    long long sum = 0;
                    for (uint32_t ch = 0; ch < c; ++ch)
                        for (uint32_t kh = 0; kh < g->fh; ++kh)
                            for (uint32_t kw = 0; kw < g->fw; ++kw) {
                                const long long ih = (long long)y * g->sh + kh * g->dh - g->pad_t;
                                const long long iw = (long long)z * g->sw + kw * g->dw - g->pad_l;
                                if (ih < 0 || iw < 0 || ih >= g->h || iw >= g->w) continue;
                                sum += (long long)x[(((size_t)n * c + ch) * g->h + ih) * g->w + iw] *
                                       wt[(((size_t)o * c + ch) * g->fh + kh) * g->fw + kw];
                            }
                    const size_t at = ((size_t)(n * oh + y) * ow + z) * np + o;
                    if (ints ? got_i[at] != (int32_t)sum : got_f[at] != (float)sum)
                        fail_msg("%s conv out(%u, %u, %u, %u) = %g, want %lld",
                                 pto_profile_string(p), n, y, z, o,
                                 ints ? (double)got_i[at] : (double)got_f[at], sum);
                }
    free(x), free(wt), free(xs), free(xb), free(bs), free(bb), free(got_f), free(got_i);
    TILES_DESTROY(src, dst);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

static void test_convolution(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t pi = 0; pi < COUNT(kProfiles); ++pi) {
        geometry f = {2, 2, 6, 5, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
        check_convolution(kProfiles[pi], PTO_FLOAT32, &f, 5, 0);
        geometry s = {1, 1, 9, 8, 8, 3, 2, 2, 3, 2, 1, 0, 2, 1, 0};
        check_convolution(kProfiles[pi], PTO_FLOAT32, &s, 17, 0);
        geometry i = {1, 2, 5, 5, 32, 2, 2, 1, 1, 1, 1, 0, 1, 0, 1};
        check_convolution(kProfiles[pi], PTO_INT8, &i, 3, 0);
        check_convolution(kProfiles[pi], PTO_FLOAT32, &f, 5, 24);
    }
}

/* pto-isa's NPU ST shapes (tests/npu/{a2a3,a5}/src/st/testcase/timg2col,
 * gen_data.py's twelve cases: feature map, weights, strides, dilations,
 * padding (top, bottom, left, right there), dtype; cases 5 to 8 split K in
 * windows of 64, as its kernels do), each as a convolution under A2A3 and
 * A5 against the direct one, on values of our own. */
static void test_st_shapes(void **state) {
    (void)state;
    typedef struct {
        geometry g;
        uint32_t oc, base_k;
        pto_dtype dt;
    } st_case;
    static const st_case kCases[] = {
        {{1, 2, 4, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 16, 0, PTO_BFLOAT16},
        {{1, 4, 4, 16, 16, 3, 3, 1, 1, 2, 1, 1, 1, 1, 1}, 16, 0, PTO_FLOAT16},
        {{1, 4, 8, 16, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 16, 0, PTO_FLOAT32},
        {{1, 1, 8, 16, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 16, 0, PTO_INT8},
        {{1, 4, 13, 57, 16, 3, 3, 2, 2, 2, 2, 1, 2, 1, 2}, 16, 64, PTO_BFLOAT16},
        {{1, 4, 25, 9, 16, 3, 3, 2, 1, 1, 2, 1, 1, 1, 1}, 16, 64, PTO_FLOAT16},
        {{1, 2, 14, 30, 8, 4, 4, 2, 2, 1, 1, 3, 0, 1, 2}, 16, 64, PTO_FLOAT32},
        {{1, 2, 29, 60, 32, 2, 2, 2, 2, 2, 2, 1, 0, 1, 1}, 64, 64, PTO_INT8},
        {{1, 4, 13, 57, 16, 3, 3, 2, 2, 2, 2, 1, 2, 1, 2}, 48, 0, PTO_BFLOAT16},
        {{1, 4, 25, 9, 16, 3, 3, 2, 1, 1, 2, 1, 1, 1, 1}, 64, 0, PTO_FLOAT16},
        {{1, 2, 14, 30, 8, 4, 4, 2, 2, 1, 1, 3, 0, 1, 2}, 32, 0, PTO_FLOAT32},
        {{1, 2, 29, 60, 32, 2, 2, 2, 2, 2, 2, 1, 0, 1, 1}, 64, 0, PTO_INT8},
    };
    for (size_t i = 0; i < COUNT(kCases); ++i) {
        check_convolution(PTO_PROFILE_A2A3, kCases[i].dt, &kCases[i].g, kCases[i].oc, kCases[i].base_k);
        check_convolution(PTO_PROFILE_A5, kCases[i].dt, &kCases[i].g, kCases[i].oc, kCases[i].base_k);
    }
}

/* A refusal: the status, a sentence, dst as it was. */
static void expect_refused(pto_tile *dst, const pto_tile *src, const pto_img2col_config *c,
                           pto_status want, const char *what) {
    uint64_t *snap = dst != NULL ? tile_snapshot(dst) : NULL;
    expect_status(pto_timg2col(dst, src, c, 0, 0), want, what);
    assert_true(strlen(pto_last_error()) > 0);
    if (snap != NULL) assert_tile_unchanged(dst, snap, what);
    free(snap);
}

static void test_rules(void **state) {
    (void)state;
    geometry g = {1, 1, 4, 4, 8, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
    pto_img2col_config c = config_of(&g);
    set_registers(&c);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *src = new_src(PTO_PROFILE_A5, PTO_FLOAT32, 16, 8);
    pto_tile *dst = new_left(PTO_PROFILE_A5, PTO_FLOAT32, 16, 32, 9, 32);
    expect_status(pto_timg2col(dst, src, &c, 0, 0), PTO_OK, "the valid call");
    expect_refused(NULL, src, &c, PTO_ERR_NULL_ARGUMENT, "dst NULL");
    expect_refused(dst, NULL, &c, PTO_ERR_NULL_ARGUMENT, "src NULL");
    expect_refused(dst, src, NULL, PTO_ERR_NULL_ARGUMENT, "config NULL");
    /* locations and layouts */
    pto_tile *vec_src = new_src(PTO_PROFILE_HOST, PTO_FLOAT32, 16, 8);
    expect_refused(dst, vec_src, &c, PTO_ERR_INVALID_ARGUMENT, "a vec src under A5");
    pto_tile *zz = new_left(PTO_PROFILE_A2A3, PTO_FLOAT32, 16, 32, 9, 32);
    expect_refused(zz, src, &c, PTO_ERR_INVALID_ARGUMENT, "a left ZZ dst under A5");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_refused(dst, src, &c, PTO_ERR_INVALID_ARGUMENT, "a left NZ dst under A2A3");
    expect_status(pto_timg2col(zz, src, &c, 0, 0), PTO_OK, "A2A3's left ZZ");
    /* dtypes */
    pto_tile *src16 = new_src(PTO_PROFILE_A2A3, PTO_INT16, 16, 16);
    pto_tile *dst16 = new_left(PTO_PROFILE_A2A3, PTO_INT16, 16, 32, 9, 32);
    expect_refused(dst16, src16, &c, PTO_ERR_UNSUPPORTED_DTYPE, "INT16 under A2A3");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *src_h = new_src(PTO_PROFILE_A5, PTO_FLOAT16, 16, 16);
    expect_refused(dst, src_h, &c, PTO_ERR_DTYPE_MISMATCH, "src FLOAT16, dst FLOAT32");
    /* config */
    pto_img2col_config bad = c;
    bad.stride_w = 0;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "stride 0");
    bad = c, bad.dilation_h = 0;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "dilation 0");
    bad = c, bad.filter_w = 0;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "filter 0");
    bad = c, bad.filter_h = 512;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "filter 512");
    bad = c, bad.channel_size = 0;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "channel_size 0");
    bad = c, bad.filter_h = 3, bad.dilation_h = 2;
    expect_refused(dst, src, &bad, PTO_ERR_INVALID_ARGUMENT, "a dilated filter over the map");
    /* shapes */
    bad = c, bad.channel_size = 12;
    expect_refused(dst, src, &bad, PTO_ERR_SHAPE_MISMATCH, "channel_size not a multiple of C0");
    bad = c, bad.channel_size = 16;
    expect_refused(dst, src, &bad, PTO_ERR_SHAPE_MISMATCH, "src rows not whole images");
    pto_tile *wide = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_NZ, &wide),
                     PTO_OK);
    expect_refused(dst, wide, &c, PTO_ERR_SHAPE_MISMATCH, "src cols not C0 under A5");
    bad = c, bad.repeat_time = 2;
    expect_status(pto_set_img2col_rpt(&bad), PTO_OK, "two repeats");
    expect_refused(dst, src, &c, PTO_ERR_SHAPE_MISMATCH, "9 rows in 2 blocks");
    set_registers(&c);
    /* aliasing (HOST: any tiles) */
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *both = new_src(PTO_PROFILE_HOST, PTO_FLOAT32, 16, 8);
    expect_refused(both, both, &c, PTO_ERR_ALIASING, "dst is src");
    /* the registers' own rules: a refused call leaves them as they were */
    expect_status(pto_setfmatrix(NULL), PTO_ERR_NULL_ARGUMENT, "pto_setfmatrix(NULL)");
    expect_status(pto_set_img2col_padding(NULL), PTO_ERR_NULL_ARGUMENT, "padding NULL");
    expect_status(pto_set_img2col_rpt(NULL), PTO_ERR_NULL_ARGUMENT, "rpt NULL");
    bad = c, bad.fmap_w = 0;
    expect_status(pto_setfmatrix(&bad), PTO_ERR_INVALID_ARGUMENT, "an empty map");
    bad = c, bad.repeat_mode = 2;
    expect_status(pto_set_img2col_rpt(&bad), PTO_ERR_INVALID_ARGUMENT, "repeat_mode 2");
    bad = c, bad.repeat_time = 0, bad.repeat_mode = 0;
    expect_status(pto_set_img2col_rpt(&bad), PTO_ERR_INVALID_ARGUMENT, "repeat_time 0");
    /* each field's range is its row's (src/settings.def), the field named */
    assert_non_null(strstr(pto_last_error(), "config's repeat_time 0 is outside [1, 255]"));
    bad = c, bad.fmap_h = 0;
    expect_status(pto_setfmatrix(&bad), PTO_ERR_INVALID_ARGUMENT, "no map rows");
    assert_non_null(strstr(pto_last_error(), "pto_setfmatrix: config's fmap_h 0 is outside [1, 65535]"));
    /* programs have no text form of the three: the name refused, the C
     * function named */
    expect_program_refused_with("module {\nfunc.func @k() {\n  pto.set_img2col_rpt\n  return\n}\n}\n",
                                NULL, "pto_set_img2col_rpt sets the calling thread's state");
    pto_tile *host_dst = new_left(PTO_PROFILE_HOST, PTO_FLOAT32, 9, 32, 9, 32);
    expect_status(pto_timg2col(host_dst, vec_src, &c, 0, 0), PTO_OK, "registers kept");
    TILES_DESTROY(src, dst, vec_src, zz, src16, dst16, src_h, wide, both, host_dst);
}

/* A new thread has its own registers: no feature map until it sets one. */
static void *fresh_thread(void *arg) {
    pto_tile **t = arg;
    geometry g = {1, 1, 4, 4, 8, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
    pto_img2col_config c = config_of(&g);
    pto_status *s = malloc(2 * sizeof(pto_status));
    s[0] = pto_timg2col(t[0], t[1], &c, 0, 0);
    pto_setfmatrix(&c);
    s[1] = pto_timg2col(t[0], t[1], &c, 0, 0);
    return s;
}

static void test_thread_registers(void **state) {
    (void)state;
    skip_under_qemu("img2col registers per thread", "a dynamically linked program that starts a thread can hang under qemu-user");
    geometry g = {1, 1, 4, 4, 8, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0};
    pto_img2col_config c = config_of(&g);
    set_registers(&c);
    pto_tile *t[2] = {new_left(PTO_PROFILE_HOST, PTO_FLOAT32, 9, 32, 9, 32),
                      new_src(PTO_PROFILE_HOST, PTO_FLOAT32, 16, 8)};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fresh_thread, t), 0);
    void *ret = NULL;
    assert_int_equal(pthread_join(th, &ret), 0);
    pto_status *s = ret;
    assert_int_equal(s[0], PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(s[1], PTO_OK);
    free(s);
    TILES_DESTROY(t[0], t[1]);
}

/* Programs have no text form (PTOAS has no such operation): the pages'
 * spellings are refused as not implemented. */
static void test_programs_refuse(void **state) {
    (void)state;
#define IMG2COL_T "!pto.tile_buf<vec, 16x8xf32>"
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : " IMG2COL_T "\n"
                                "  pto.timg2col ins(%t : " IMG2COL_T ") outs(%t : " IMG2COL_T ")\n"
                                "  return\n}\n",
                                NULL, "t.pto:3:3: error: instruction 'pto.timg2col' is not implemented");
#undef IMG2COL_T
}

/* timg2col is a row of the operation table (matrix_multiply): src its one
 * source, config its Config operand (a NULL one refused before the cube's
 * tiles: NullsFirst), pos_m and pos_k the attribute kind Img2colWindow, no
 * text form (NoText). The generic op_call passes a NULL config. */
static void test_timg2col_row(void **state) {
    (void)state;
    const op_info *row = op_row(OP_TIMG2COL);
    assert_int_equal(row->family, OP_FAMILY_SPECIAL);
    assert_int_equal(row->source_count, 1);
    assert_int_equal(row->tmp, OP_TMP_NONE);
    assert_int_equal(row->attr, OP_ATTR_Img2colWindow);
    assert_true((row->traits & PTO_TRAIT_NullsFirst) != 0 && (row->traits & PTO_TRAIT_NoText) != 0);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *left = NULL, *mat = NULL, *vec = tile_new(PTO_FLOAT32, 16, 8, 16, 8);
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 8, PTO_LOC_LEFT, PTO_LAYOUT_NZ, &left), PTO_OK);
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 8, PTO_LOC_MAT, PTO_LAYOUT_NZ, &mat), PTO_OK);
    expect_refused(left, mat, NULL, PTO_ERR_NULL_ARGUMENT, "cube tiles, NULL config");
    assert_non_null(strstr(pto_last_error(), "config"));
    expect_status(op_call(OP_TIMG2COL, PTO_POW_DEFAULT, left, mat, NULL, NULL), PTO_ERR_NULL_ARGUMENT,
                  "the generic call: NULL config");
    assert_non_null(strstr(pto_last_error(), "config"));
    expect_status(op_call(OP_TIMG2COL, PTO_POW_DEFAULT, vec, mat, NULL, NULL), PTO_ERR_NULL_ARGUMENT,
                  "a vec dst, NULL config: NULL first");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(left, mat, vec);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_windows),
        cmocka_unit_test(test_npu_windows),
        cmocka_unit_test(test_cpu_st_cases),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_convolution),
        cmocka_unit_test(test_st_shapes),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_thread_registers),
        cmocka_unit_test(test_programs_refuse),
        cmocka_unit_test(test_timg2col_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
