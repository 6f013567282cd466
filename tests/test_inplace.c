/* The overlaps the NPU's order makes well defined (pto_c.h, "In place"):
 * pto_tcvt converting in place across element sizes, compared byte for byte
 * with the same call on separate storage, on every SIMD target and profile;
 * the overlaps that stay refused (widening, longer dst rows, another start)
 * and A2A3's refusal where its repeats-then-remainder order would read a
 * source row's remainder after a later dst row overwrote it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    pto_dtype src, dst;
} pair;

/* Narrowing and same-size pairs the samples convert in place, and others of
 * each size step. */
static const pair kPairs[] = {
    {PTO_FLOAT32, PTO_BFLOAT16}, {PTO_FLOAT32, PTO_FLOAT16}, {PTO_INT32, PTO_FLOAT16},
    {PTO_FLOAT16, PTO_INT8},     {PTO_FLOAT32, PTO_INT32},   {PTO_INT32, PTO_FLOAT32},
    {PTO_FLOAT32, PTO_INT16},    {PTO_INT32, PTO_INT16},     {PTO_INT16, PTO_INT8},
    {PTO_FLOAT16, PTO_UINT8},    {PTO_BFLOAT16, PTO_INT8},   {PTO_INT64, PTO_INT32},
};

typedef struct {
    uint32_t rows, cols, valid_rows, valid_cols;
    uint32_t dst_cols; /* dst's cols: its rows no longer in bytes than src's */
} shape;

static const shape kShapes[] = {
    {1, 1, 1, 1, 1},       {4, 8, 4, 8, 8},        {16, 128, 16, 128, 128}, {16, 128, 16, 100, 128},
    {5, 96, 3, 37, 96},    {8, 64, 8, 30, 32},     {3, 1024, 3, 1000, 1024}, {2, 2048, 2, 2048, 2048},
    {7, 40, 7, 17, 24},    {32, 256, 31, 255, 256},
};

static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

static void fill_random(rng *r, unsigned char *bytes, size_t n) {
    for (size_t i = 0; i < n; ++i) bytes[i] = (unsigned char)rng_next(r);
}

typedef struct {
    size_t compared;  /* in-place calls compared with separate storage */
    size_t refused;   /* A2A3's order refusals */
} counts;

/* One pair, shape and profile: the call on separate storage decides whether
 * the pair is offered and gives the expected bytes; the call in place must
 * give them too, with every byte outside dst's valid elements unchanged. */
static void compare_in_place(const pair *p, const shape *s, pto_profile profile, rng *r, counts *n) {
    const size_t ss = pto_dtype_size(p->src), ds = pto_dtype_size(p->dst);
    const size_t bytes = (size_t)s->rows * s->cols * ss;
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(bytes, &buf), PTO_OK);
    pto_tile *src = NULL, *dst = NULL, *sep_src = NULL, *sep_dst = NULL;
    const uint32_t dst_rows = (uint32_t)((bytes / ds) / s->dst_cols);
    assert_int_equal(pto_tile_create_at(p->src, s->rows, s->cols, buf, 0, &src), PTO_OK);
    assert_int_equal(pto_tile_create_at(p->dst, dst_rows, s->dst_cols, buf, 0, &dst), PTO_OK);
    assert_int_equal(pto_tile_create(p->src, s->rows, s->cols, &sep_src), PTO_OK);
    assert_int_equal(pto_tile_create(p->dst, dst_rows, s->dst_cols, &sep_dst), PTO_OK);
    assert_int_equal(pto_tile_set_valid(src, s->valid_rows, s->valid_cols), PTO_OK);
    assert_int_equal(pto_tile_set_valid(dst, s->valid_rows, s->valid_cols), PTO_OK);
    assert_int_equal(pto_tile_set_valid(sep_src, s->valid_rows, s->valid_cols), PTO_OK);
    assert_int_equal(pto_tile_set_valid(sep_dst, s->valid_rows, s->valid_cols), PTO_OK);

    unsigned char *data = pto_tile_data(src);
    fill_random(r, data, bytes);
    memcpy(pto_tile_data(sep_src), data, bytes);
    unsigned char *before = malloc(bytes);
    assert_non_null(before);
    memcpy(before, data, bytes);

    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status separate = pto_tcvt(sep_dst, sep_src, NULL, PTO_ROUND_RINT, PTO_SAT_OFF);
    const pto_status in_place = pto_tcvt(dst, src, NULL, PTO_ROUND_RINT, PTO_SAT_OFF);
    if (separate != PTO_OK) {
        /* a pair the profile does not offer: refused the same way in place */
        assert_int_equal(in_place, separate);
        assert_memory_equal(data, before, bytes);
    } else if (in_place == PTO_ERR_ALIASING) {
        /* only A2A3's order, only with whole repeats and a remainder */
        const size_t repeat = 256 / (ss > ds ? ss : ds);
        if (profile != PTO_PROFILE_A2A3 || s->valid_cols < repeat || s->valid_cols % repeat == 0 ||
            s->valid_rows < 2)
            fail_msg("%s -> %s %ux%u valid %ux%u on %s: in place refused: %s", pto_dtype_string(p->src),
                     pto_dtype_string(p->dst), s->rows, s->cols, s->valid_rows, s->valid_cols,
                     pto_profile_string(profile), pto_last_error());
        assert_non_null(strstr(pto_last_error(), "A2A3"));
        assert_memory_equal(data, before, bytes);
        n->refused++;
    } else {
        assert_int_equal(in_place, PTO_OK);
        /* expected: the old bytes with dst's valid elements replaced */
        const unsigned char *sep = pto_tile_data(sep_dst);
        for (uint32_t i = 0; i < s->valid_rows; ++i)
            memcpy(before + (size_t)i * s->dst_cols * ds, sep + (size_t)i * s->dst_cols * ds,
                   (size_t)s->valid_cols * ds);
        if (memcmp(data, before, bytes) != 0)
            fail_msg("%s -> %s %ux%u valid %ux%u on %s: in place differs from separate storage",
                     pto_dtype_string(p->src), pto_dtype_string(p->dst), s->rows, s->cols, s->valid_rows,
                     s->valid_cols, pto_profile_string(profile));
        n->compared++;
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(before);
    pto_tile_destroy(src);
    pto_tile_destroy(dst);
    pto_tile_destroy(sep_src);
    pto_tile_destroy(sep_dst);
    pto_buffer_destroy(buf);
}

static void narrowing_on_target(void *ctx, size_t target_index, const char *target) {
    (void)target;
    counts *n = ctx;
    rng r = {0x1a2b3c4d5e6f7788ull + target_index};
    for (size_t pi = 0; pi < COUNT(kPairs); ++pi)
        for (size_t si = 0; si < COUNT(kShapes); ++si)
            for (size_t fi = 0; fi < COUNT(kProfiles); ++fi)
                compare_in_place(&kPairs[pi], &kShapes[si], kProfiles[fi], &r, n);
}

static void test_tcvt_in_place_equals_separate(void **state) {
    (void)state;
    counts n = {0, 0};
    for_each_target("tcvt in place", narrowing_on_target, &n);
    printf("[tcvt in place] %zu in-place calls bit-identical to separate storage, %zu refused by A2A3's "
           "order\n",
           n.compared, n.refused);
    assert_true(n.compared > COUNT(kPairs) * COUNT(kShapes));
    assert_true(n.refused > 0);
}

/* A refusal that writes nothing and names its reason. */
static void expect_refused(pto_tile *dst, const pto_tile *src, const char *reason) {
    const size_t bytes = (size_t)pto_tile_rows(src) * pto_tile_cols(src) * pto_dtype_size(pto_tile_dtype(src));
    unsigned char *before = malloc(bytes);
    assert_non_null(before);
    memcpy(before, pto_tile_data((pto_tile *)src), bytes);
    assert_int_equal(pto_tcvt(dst, src, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_ALIASING);
    if (strstr(pto_last_error(), reason) == NULL)
        fail_msg("pto_last_error() \"%s\" should say \"%s\"", pto_last_error(), reason);
    assert_memory_equal(pto_tile_data((pto_tile *)src), before, bytes);
    free(before);
}

static void test_tcvt_overlaps_still_refused(void **state) {
    (void)state;
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(16384, &buf), PTO_OK);
    unsigned char *bytes = pto_buffer_data(buf);
    for (size_t i = 0; i < 16384; ++i) bytes[i] = (unsigned char)(i * 7 + 3);
    pto_tile *bf = NULL, *f32 = NULL, *f32_wide = NULL, *f16_off = NULL, *f16_long = NULL;
    assert_int_equal(pto_tile_create_at(PTO_BFLOAT16, 8, 64, buf, 0, &bf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 8, 64, buf, 0, &f32), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 8, 128, buf, 0, &f32_wide), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 8, 64, buf, 64, &f16_off), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 8, 160, buf, 0, &f16_long), PTO_OK);
    assert_int_equal(pto_tile_set_valid(f32_wide, 8, 64), PTO_OK);
    assert_int_equal(pto_tile_set_valid(f16_long, 8, 64), PTO_OK);
    for (size_t fi = 0; fi < COUNT(kProfiles); ++fi) {
        assert_int_equal(pto_set_profile(kProfiles[fi]), PTO_OK);
        /* widening: dst's FLOAT32 elements over src's BFLOAT16 */
        expect_refused(f32, bf, "wider");
        /* another start address */
        expect_refused(f16_off, f32, "row order");
        /* dst rows (320 bytes) longer than src's (256 bytes) */
        expect_refused(f16_long, f32, "longer");
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* dst rows shorter in bytes and the same start: in place */
    pto_tile *f16_short = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 8, 64, buf, 0, &f16_short), PTO_OK);
    assert_int_equal(pto_tcvt(f16_short, f32_wide, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    pto_tile_destroy(f16_short);
    pto_tile_destroy(bf);
    pto_tile_destroy(f32);
    pto_tile_destroy(f32_wide);
    pto_tile_destroy(f16_off);
    pto_tile_destroy(f16_long);
    pto_buffer_destroy(buf);
}

/* The A2A3 order's refusal names both rows and the columns; without a
 * remainder, with fewer columns than one repeat or with one row, A2A3
 * converts in place. */
static void test_tcvt_a2a3_order(void **state) {
    (void)state;
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(16 * 128 * 4, &buf), PTO_OK);
    pto_tile *f32 = NULL, *bf = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 16, 128, buf, 0, &f32), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_BFLOAT16, 16, 128, buf, 0, &bf), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tile_set_valid(f32, 16, 100), PTO_OK);
    assert_int_equal(pto_tile_set_valid(bf, 16, 100), PTO_OK);
    expect_refused(bf, f32, "dst row 1's whole 256-byte repeats (columns 0..63) overwrite src row 0's columns 64..99");
    static const uint32_t kAccepted[][2] = {{16, 128}, {16, 64}, {16, 50}, {1, 100}};
    for (size_t k = 0; k < COUNT(kAccepted); ++k) {
        assert_int_equal(pto_tile_set_valid(f32, kAccepted[k][0], kAccepted[k][1]), PTO_OK);
        assert_int_equal(pto_tile_set_valid(bf, kAccepted[k][0], kAccepted[k][1]), PTO_OK);
        assert_int_equal(pto_tcvt(bf, f32, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tile_set_valid(f32, 16, 100), PTO_OK);
    assert_int_equal(pto_tile_set_valid(bf, 16, 100), PTO_OK);
    assert_int_equal(pto_tcvt(bf, f32, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(f32);
    pto_tile_destroy(bf);
    pto_buffer_destroy(buf);
}


/* A program places its tiles: PyPTO's int8 quantisation chain converts at one
 * address, f32 -> i32 -> f32 -> f16 -> i8, and stores the int8 rows. The
 * result must be the chain's on separate storage (each step rounds once). */
#define TILE(T) "!pto.tile_buf<vec, 16x64x" T ">"
static const char kChain[] =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @quant(%x: !pto.ptr<f32>, %y: !pto.ptr<i8>) attributes {pto.entry} {\n"
    "  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
    "  %c64 = arith.constant 64 : index\n  %a0 = arith.constant 0 : i64\n"
    "  %xv = pto.make_tensor_view %x, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xf32>\n"
    "  %yv = pto.make_tensor_view %y, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<16x64xi8>\n"
    "  %f = pto.alloc_tile addr = %a0 : " TILE("f32") "\n"
    "  %i = pto.alloc_tile addr = %a0 : " TILE("i32") "\n"
    "  %g = pto.alloc_tile addr = %a0 : " TILE("f32") "\n"
    "  %h = pto.alloc_tile addr = %a0 : " TILE("f16") "\n"
    "  %b = pto.alloc_tile addr = %a0 : " TILE("i8") "\n"
    "  pto.tload ins(%xv : !pto.tensor_view<16x64xf32>) outs(%f : " TILE("f32") ")\n"
    "  pto.tcvt ins(%f {rmode = #pto<round_mode RINT>} : " TILE("f32") ") outs(%i : " TILE("i32") ")\n"
    "  pto.tcvt ins(%i {rmode = #pto<round_mode RINT>} : " TILE("i32") ") outs(%g : " TILE("f32") ")\n"
    "  pto.tcvt ins(%g {rmode = #pto<round_mode RINT>} : " TILE("f32") ") outs(%h : " TILE("f16") ")\n"
    "  pto.tcvt ins(%h {rmode = #pto<round_mode TRUNC>} : " TILE("f16") ") outs(%b : " TILE("i8") ")\n"
    "  pto.tstore ins(%b : " TILE("i8") ") outs(%yv : !pto.tensor_view<16x64xi8>)\n"
    "  return\n}\n}\n";
#undef TILE

static void test_program_chain_in_place(void **state) {
    (void)state;
    pto_program *p = program_build(kChain, NULL);
    float x[16 * 64];
    int8_t y[16 * 64];
    rng r = {77};
    for (int k = 0; k < 16 * 64; ++k) x[k] = (float)rng_uniform(&r, -130.0, 130.0);
    memset(y, 0x55, sizeof y);
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, x, sizeof x), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, y, sizeof y), PTO_OK);
    assert_int_equal(pto_program_run(p, args), PTO_OK);
    /* the same chain on separate tiles, through the C calls */
    pto_tile *f = NULL, *i = NULL, *g = NULL, *h = NULL, *b = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 64, &f), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_INT32, 16, 64, &i), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 64, &g), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT16, 16, 64, &h), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_INT8, 16, 64, &b), PTO_OK);
    memcpy(pto_tile_data(f), x, sizeof x);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tcvt(i, f, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_int_equal(pto_tcvt(g, i, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_int_equal(pto_tcvt(h, g, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_int_equal(pto_tcvt(b, h, NULL, PTO_ROUND_TRUNC, PTO_SAT_OFF), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_memory_equal(y, pto_tile_data(b), sizeof y);
    pto_tile_destroy(f);
    pto_tile_destroy(i);
    pto_tile_destroy(g);
    pto_tile_destroy(h);
    pto_tile_destroy(b);
    pto_args_destroy(args);
    pto_program_destroy(p);
}

/* ---- the row order ------------------------------------------------------ */

/* Whether dst reads only row i of each source for its row i: the rows the
 * row order covers (pto_c.h, "Overlap"). */
static bool reads_rows_in_order(op_id op) {
    const op_family f = op_row(op)->family;
    if (op_converts(op)) return false; /* tcvt: its own tests above */
    return f == OP_FAMILY_BINARY || f == OP_FAMILY_UNARY || f == OP_FAMILY_SCALAR ||
           f == OP_FAMILY_ROW_EXPAND || op == OP_TPOW || op == OP_TRSQRT || op == OP_TPRELU ||
           op == OP_TPARTADD;
}

typedef struct {
    size_t offset; /* bytes into the buffer */
    uint32_t rows, cols, vr, vc;
} placement;

/* Written from the rule, row pair by row pair: dst row i may share bytes
 * with source rows r < i, and with row i only when both start at one byte
 * and are as long; or identically placed, in place. */
static bool row_order_holds(const placement *src, const placement *dst, size_t e) {
    /* identical placement (element (i, j) on element (i, j)) is in place */
    if (src->offset == dst->offset && src->cols == dst->cols) return true;
    for (uint32_t i = 0; i < dst->vr; ++i)
        for (uint32_t r = 0; r < src->vr; ++r) {
            const size_t d0 = dst->offset + (size_t)i * dst->cols * e, d1 = d0 + (size_t)dst->vc * e;
            const size_t s0 = src->offset + (size_t)r * src->cols * e, s1 = s0 + (size_t)src->vc * e;
            if (d0 >= s1 || s0 >= d1) continue;
            if (r > i || (r == i && (d0 != s0 || d1 != s1))) return false;
        }
    return true;
}

static pto_tile *place_at(pto_buffer *b, pto_dtype dt, const placement *p) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create_at(dt, p->rows, p->cols, b, p->offset, &t), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, p->vr, p->vc), PTO_OK);
    return t;
}

/* An owned tile holding a placed tile's bytes (rows x cols). */
static pto_tile *owned_copy(pto_tile *placed) {
    pto_tile *t = tile_new(pto_tile_dtype(placed), pto_tile_rows(placed), pto_tile_cols(placed),
                           pto_tile_valid_rows(placed), pto_tile_valid_cols(placed));
    memcpy(pto_tile_data(t), pto_tile_data(placed),
           (size_t)pto_tile_rows(placed) * pto_tile_cols(placed) * pto_dtype_size(pto_tile_dtype(placed)));
    return t;
}

enum { kBufferBytes = 4096 };

/* A source placed near dst: k whole dst rows earlier or later, shifted by a
 * few elements, with its own row length, or apart. */
static placement near(rng *r, const placement *dst, uint32_t vr, uint32_t vc, size_t e) {
    for (;;) {
        placement p;
        p.vr = vr;
        p.vc = vc;
        p.cols = vc + rng_below(r, 3) * (rng_below(r, 2) ? 1 : 4);
        if (p.cols < dst->cols && rng_below(r, 2)) p.cols = dst->cols;
        p.rows = vr + rng_below(r, 2);
        const int64_t rows_moved = (int64_t)rng_below(r, 5) - 2;
        const int64_t shift = rng_below(r, 3) == 0 ? (int64_t)rng_below(r, 5) - 2 : 0;
        const int64_t at = (int64_t)dst->offset + (rows_moved * dst->cols + shift) * (int64_t)e;
        const size_t bytes = (size_t)p.rows * p.cols * e;
        if (at < 0 || (size_t)at + bytes > kBufferBytes) continue;
        p.offset = (size_t)at;
        return p;
    }
}

typedef struct {
    size_t accepted_shared; /* overlapping calls run and compared with separate storage */
    size_t refused;         /* overlaps out of row order, refused */
} row_counts;

static void row_order_case(op_id op, pto_profile profile, rng *r, row_counts *n) {
    const pto_dtype dt = op_accepts(op, PTO_PROFILE_HOST, PTO_FLOAT32) ? PTO_FLOAT32 : PTO_INT32;
    if (!op_accepts(op, profile, dt)) return;
    /* TANDS and TORS keep src apart from dst on the NPU profiles (pto_c.h):
     * no overlap to compare there */
    if ((op == OP_TANDS || op == OP_TORS) && profile != PTO_PROFILE_HOST) return;
    const size_t e = pto_dtype_size(dt);
    const int sources = op_row(op)->source_count;
    placement d;
    d.vr = 1 + rng_below(r, 6);
    d.vc = 1 + rng_below(r, 12);
    d.cols = d.vc + rng_below(r, 4);
    d.rows = d.vr + rng_below(r, 2);
    d.offset = (1024 + rng_below(r, 1024)) / e * e;
    placement sp[2];
    bool in_buffer[2] = {false, false};
    for (int k = 0; k < sources; ++k) {
        uint32_t vr, vc;
        op_source_region(op, k, d.vr, d.vc, &vr, &vc);
        sp[k] = near(r, &d, vr, vc, e);
        in_buffer[k] = rng_below(r, 4) != 0;
    }
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(kBufferBytes, &buf), PTO_OK);
    unsigned char *bytes = pto_buffer_data(buf);
    for (size_t i = 0; i < kBufferBytes / e; ++i) {
        const uint64_t v = gen_value(r, dt, GEN_POSITIVE);
        memcpy(bytes + i * e, &v, e); /* little-endian: the low bytes of the pattern */
    }
    pto_tile *dst = place_at(buf, dt, &d);
    pto_tile *src[2] = {NULL, NULL}, *sep_src[2] = {NULL, NULL};
    bool rule = true;
    for (int k = 0; k < sources; ++k) {
        if (in_buffer[k]) {
            src[k] = place_at(buf, dt, &sp[k]);
            rule = rule && row_order_holds(&sp[k], &d, e);
        } else {
            src[k] = tile_new(dt, sp[k].rows, sp[k].cols, sp[k].vr, sp[k].vc);
            tile_fill(src[k], r, GEN_POSITIVE);
        }
        sep_src[k] = owned_copy(src[k]);
    }
    pto_tile *sep_dst = owned_copy(dst);
    pto_tile *tmp = op_row(op)->tmp == OP_TMP_NONE ? NULL : tile_new(dt, d.rows, d.cols, d.vr, d.vc);
    unsigned char *before = malloc(kBufferBytes);
    assert_non_null(before);
    memcpy(before, bytes, kBufferBytes);

    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status want = op_call(op, PTO_POW_DEFAULT, sep_dst, sep_src[0], sep_src[1], tmp);
    const pto_status got = op_call(op, PTO_POW_DEFAULT, dst, src[0], src[1], tmp);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (!rule) {
        if (got != PTO_ERR_ALIASING)
            fail_msg("%s on %s: dst %ux%u valid %ux%u at %zu, src0 %ux%u valid %ux%u at %zu, a "
                     "source out of row order: %s (%s)",
                     op_name(op), pto_profile_string(profile), d.rows, d.cols, d.vr, d.vc, d.offset,
                     sp[0].rows, sp[0].cols, sp[0].vr, sp[0].vc, sp[0].offset,
                     pto_status_string(got), pto_last_error());
        assert_memory_equal(bytes, before, kBufferBytes);
        n->refused++;
    } else {
        if (got != want)
            fail_msg("%s on %s: dst %ux%u valid %ux%u at %zu, src0 %ux%u valid %ux%u at %zu%s: %s in "
                     "the buffer, %s apart (%s)",
                     op_name(op), pto_profile_string(profile), d.rows, d.cols, d.vr, d.vc, d.offset,
                     sp[0].rows, sp[0].cols, sp[0].vr, sp[0].vc, sp[0].offset,
                     in_buffer[0] ? "" : " (apart)", pto_status_string(got), pto_status_string(want),
                     pto_last_error());
        if (got == PTO_OK) {
            const unsigned char *sep = pto_tile_data(sep_dst);
            for (uint32_t i = 0; i < d.vr; ++i)
                memcpy(before + d.offset + (size_t)i * d.cols * e, sep + (size_t)i * d.cols * e,
                       (size_t)d.vc * e);
            if (memcmp(bytes, before, kBufferBytes) != 0)
                fail_msg("%s on %s: dst %ux%u valid %ux%u at %zu: the result in place differs from "
                         "separate storage", op_name(op), pto_profile_string(profile), d.rows, d.cols,
                         d.vr, d.vc, d.offset);
            bool shared = false;
            for (int k = 0; k < sources; ++k) shared = shared || in_buffer[k];
            if (shared) n->accepted_shared++;
        }
    }
    free(before);
    for (int k = 0; k < sources; ++k) {
        pto_tile_destroy(src[k]);
        pto_tile_destroy(sep_src[k]);
    }
    pto_tile_destroy(dst);
    pto_tile_destroy(sep_dst);
    pto_tile_destroy(tmp);
    pto_buffer_destroy(buf);
}

static void row_order_on_target(void *ctx, size_t target_index, const char *target) {
    (void)target;
    row_counts *n = ctx;
    rng r = {0x0dd5eed + target_index};
    const pto_profile profiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    for (int op = 0; op < OP_COUNT; ++op) {
        if (!reads_rows_in_order((op_id)op)) continue;
        for (int trial = 0; trial < 60; ++trial)
            row_order_case((op_id)op, profiles[trial % 2], &r, n);
    }
}

static void test_row_order(void **state) {
    (void)state;
    row_counts n = {0, 0};
    for_each_target("row order", row_order_on_target, &n);
    printf("[row order] %zu calls with sources on dst's rows equal to separate storage, %zu out of "
           "row order refused\n", n.accepted_shared, n.refused);
    assert_true(n.accepted_shared > 100);
    assert_true(n.refused > 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tcvt_in_place_equals_separate),
        cmocka_unit_test(test_tcvt_overlaps_still_refused),
        cmocka_unit_test(test_tcvt_a2a3_order),
        cmocka_unit_test(test_program_chain_in_place),
        cmocka_unit_test(test_row_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
