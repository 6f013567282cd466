/* The data-movement instructions beyond TMOV. TFILLPAD: every dtype and pad
 * value over shapes where the source's valid region is empty, a corner, a
 * band of rows or columns, or the whole tile, into a dst of the same or a
 * larger shape, in place and placed exactly on dst; every element of dst
 * compared with a reference built here from the pad values' bit patterns
 * (pto-isa's PadValueMap, written out per dtype); the rules in the
 * contract's order with the profile's shape rule; the three text forms and
 * both tile_buf spellings of `pad=`. TCI: every dtype, ascending and
 * descending, integer starts at and beyond each range's limits and float
 * starts that round or overflow, over one and several rows, against start
 * +/- k rounded by the tests' own rounding (ref_from_double); its rules per
 * profile; its three text forms with the start an argument or a constant,
 * and A5's one-row rule refusing a run. TEXTRACT, TGATHER, TSETVAL and
 * TGETVAL: every dtype (and every index dtype) against the pages'
 * definitions element by element, hand-computed cases, the rules in order
 * per profile with nothing written on a refusal, and program runs equal to
 * the C calls, offsets and indices out of range refusing the run.
 *
 * Under emulation (PTO_TEST_UNDER_QEMU, PTO_TEST_UNDER_VALGRIND) the value
 * sweep takes every third shape (said in the log). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* The pad's bits in dt: zero; the largest value (+inf for floats); the
 * smallest (-inf for floats, 0 for unsigned integers). */
static uint32_t pad_bits(pto_dtype dt, pto_pad_value pad) {
    if (pad == PTO_PAD_ZERO) return 0;
    const bool max = pad == PTO_PAD_MAX;
    switch (dt) {
    case PTO_INT8: return max ? 0x7Fu : 0x80u;
    case PTO_UINT8: return max ? 0xFFu : 0u;
    case PTO_INT16: return max ? 0x7FFFu : 0x8000u;
    case PTO_UINT16: return max ? 0xFFFFu : 0u;
    case PTO_INT32: return max ? 0x7FFFFFFFu : 0x80000000u;
    case PTO_UINT32: return max ? 0xFFFFFFFFu : 0u;
    case PTO_FLOAT16: return max ? 0x7C00u : 0xFC00u;
    case PTO_BFLOAT16: return max ? 0x7F80u : 0xFF80u;
    case PTO_FLOAT32: return max ? 0x7F800000u : 0xFF800000u;
    }
    return 0;
}

/* Every element of dst after tfillpad of a source whose valid elements were
 * src_bits (vr x vc, row stride src_cols). */
static void expect_filled(const pto_tile *dst, const uint32_t *src_bits, uint32_t src_cols,
                          uint32_t vr, uint32_t vc, pto_pad_value pad, const char *what) {
    const pto_dtype dt = pto_tile_dtype(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
            const uint32_t want =
                i < vr && j < vc ? src_bits[(size_t)i * src_cols + j] : pad_bits(dt, pad);
            const uint32_t got = tile_get(dst, i, j);
            if (got != want)
                fail_msg("%s: dst (%u,%u) is 0x%x, want 0x%x", what, i, j, got, want);
        }
}

typedef struct {
    uint32_t rows, cols;         /* src's shape */
    uint32_t vr, vc;             /* src's valid region */
    uint32_t dst_rows, dst_cols; /* dst's shape (HOST may be larger) */
} fill_shape;

static const fill_shape kShapes[] = {
    {1, 1, 1, 1, 1, 1},       {1, 1, 0, 0, 1, 1},     {4, 8, 4, 8, 4, 8},
    {4, 8, 2, 3, 4, 8},       {4, 8, 0, 5, 4, 8},     {4, 8, 3, 0, 4, 8},
    {16, 16, 16, 5, 16, 16},  {16, 16, 7, 16, 16, 16}, {5, 37, 4, 33, 5, 37},
    {8, 130, 3, 129, 8, 130}, {3, 5, 3, 5, 7, 70},    {6, 64, 6, 17, 9, 64},
    {2, 300, 2, 299, 2, 300}, {33, 9, 32, 1, 40, 9},  {4, 8, 2, 3, 4, 9},
};

static void test_fill_values(void **state) {
    (void)state;
    const size_t step = under_emulation() ? 3 : 1;
    rng r = {0xF1D};
    size_t checked = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        for (size_t k = d % step; k < COUNT(kShapes); k += step) {
            const fill_shape *s = &kShapes[k];
            for (int pad = PTO_PAD_ZERO; pad <= PTO_PAD_MIN; ++pad) {
                char what[160];
                snprintf(what, sizeof what, "%s %ux%u valid %ux%u into %ux%u pad %d",
                         pto_dtype_string(dt), s->rows, s->cols, s->vr, s->vc, s->dst_rows,
                         s->dst_cols, pad);
                pto_tile *src = tile_new(dt, s->rows, s->cols, s->vr, s->vc);
                tile_fill(src, &r, GEN_ANY);
                uint32_t *src_bits = tile_snapshot(src);
                /* dst's valid region (a corner) is not the domain: dst's whole
                 * shape is, and the region stays as it was. */
                pto_tile *dst = tile_new(dt, s->dst_rows, s->dst_cols, s->dst_rows / 2, s->dst_cols);
                tile_fill(dst, &r, GEN_ANY);
                assert_int_equal(pto_tfillpad(dst, src, (pto_pad_value)pad), PTO_OK);
                expect_filled(dst, src_bits, s->cols, s->vr, s->vc, (pto_pad_value)pad, what);
                assert_tile_unchanged(src, src_bits, what);
                assert_int_equal(pto_tile_valid_rows(dst), s->dst_rows / 2);
                assert_int_equal(pto_tile_valid_cols(dst), s->dst_cols);
                checked += (size_t)s->dst_rows * s->dst_cols;
                ++calls;
                if (s->rows == s->dst_rows && s->cols == s->dst_cols) {
                    /* in place, the same handle: only the padding changes */
                    assert_int_equal(pto_tfillpad(src, src, (pto_pad_value)pad), PTO_OK);
                    expect_filled(src, src_bits, s->cols, s->vr, s->vc, (pto_pad_value)pad, what);
                    /* placed exactly on dst, as a same-size dtype (the bits are kept) */
                    const pto_dtype twin = dt == PTO_FLOAT32 ? PTO_INT32 : dt == PTO_INT32 ? PTO_UINT32 : dt;
                    const size_t bytes = (size_t)s->rows * s->cols * pto_dtype_size(dt);
                    pto_buffer *b = NULL;
                    pto_tile *on = NULL, *under = NULL;
                    assert_int_equal(pto_buffer_create(bytes, &b), PTO_OK);
                    assert_int_equal(pto_tile_create_at(dt, s->rows, s->cols, b, 0, &on), PTO_OK);
                    assert_int_equal(pto_tile_create_at(twin, s->rows, s->cols, b, 0, &under), PTO_OK);
                    for (uint32_t i = 0; i < s->rows; ++i)
                        for (uint32_t j = 0; j < s->cols; ++j)
                            tile_put(under, i, j, src_bits[(size_t)i * s->cols + j]);
                    assert_int_equal(pto_tile_set_valid(under, s->vr, s->vc), PTO_OK);
                    assert_int_equal(pto_tfillpad(on, under, (pto_pad_value)pad), PTO_OK);
                    expect_filled(on, src_bits, s->cols, s->vr, s->vc, (pto_pad_value)pad, what);
                    pto_tile_destroy(on);
                    pto_tile_destroy(under);
                    pto_buffer_destroy(b);
                    calls += 2;
                }
                free(src_bits);
                pto_tile_destroy(src);
                pto_tile_destroy(dst);
            }
        }
    }
    print_message("[datamove] tfillpad: %zu calls, %zu dst elements matched the reference%s\n",
                  calls, checked, step > 1 ? " (every third shape under emulation)" : "");
}

/* A refusal: the status, a sentence naming pto_tfillpad (and `needle`), and
 * neither tile changed. */
static void expect_refused(pto_tile *dst, pto_tile *src, pto_pad_value pad, pto_status want,
                           const char *needle) {
    uint32_t *before_dst = dst ? tile_snapshot(dst) : NULL;
    uint32_t *before_src = src ? tile_snapshot(src) : NULL;
    const pto_status got = pto_tfillpad(dst, src, pad);
    if (got != want)
        fail_msg("pto_tfillpad: %s (%s), want %s", pto_status_string(got), pto_last_error(),
                 pto_status_string(want));
    if (strstr(pto_last_error(), "pto_tfillpad") == NULL || strstr(pto_last_error(), needle) == NULL)
        fail_msg("pto_tfillpad: message '%s' lacks '%s'", pto_last_error(), needle);
    if (dst) assert_tile_unchanged(dst, before_dst, "refused dst");
    if (src) assert_tile_unchanged(src, before_src, "refused src");
    free(before_dst);
    free(before_src);
}

static void test_rules(void **state) {
    (void)state;
    rng r = {0x5A};
    pto_tile *dst = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *src = tile_new(PTO_FLOAT32, 4, 8, 2, 3);
    pto_tile *i32 = tile_new(PTO_INT32, 4, 8, 2, 3), *i16 = tile_new(PTO_INT16, 4, 8, 2, 3);
    pto_tile *big = tile_new(PTO_FLOAT32, 5, 8, 5, 8), *wide = tile_new(PTO_FLOAT32, 4, 9, 4, 4);
    tile_fill(dst, &r, GEN_ANY);
    tile_fill(src, &r, GEN_ANY);
    tile_fill(i32, &r, GEN_ANY);
    /* NULLs, then the pad, then dtypes, aliasing, shapes */
    expect_refused(NULL, src, PTO_PAD_ZERO, PTO_ERR_NULL_ARGUMENT, "dst");
    expect_refused(dst, NULL, PTO_PAD_ZERO, PTO_ERR_NULL_ARGUMENT, "src");
    expect_refused(NULL, NULL, (pto_pad_value)9, PTO_ERR_NULL_ARGUMENT, "dst");
    expect_refused(dst, src, PTO_PAD_NULL, PTO_ERR_INVALID_ARGUMENT, "PTO_PAD_NULL");
    expect_refused(dst, src, (pto_pad_value)4, PTO_ERR_INVALID_ARGUMENT, "pad");
    expect_refused(dst, src, (pto_pad_value)-1, PTO_ERR_INVALID_ARGUMENT, "pad");
    expect_refused(dst, i16, PTO_PAD_NULL, PTO_ERR_INVALID_ARGUMENT, "pad");
    expect_refused(dst, i16, PTO_PAD_MAX, PTO_ERR_DTYPE_MISMATCH, "INT16");
    expect_refused(dst, big, PTO_PAD_MAX, PTO_ERR_SHAPE_MISMATCH, "5x8");
    /* a same-size source of another dtype: its bits */
    uint32_t *bits = tile_snapshot(i32);
    assert_int_equal(pto_tfillpad(dst, i32, PTO_PAD_MIN), PTO_OK);
    expect_filled(dst, bits, 8, 2, 3, PTO_PAD_MIN, "INT32 into FLOAT32");
    free(bits);
    /* HOST: a wider dst (TFILLPAD_EXPAND); A2A3 and A5: the shapes are equal */
    pto_tile *small = tile_new(PTO_FLOAT32, 4, 4, 4, 4);
    tile_fill(small, &r, GEN_ANY);
    bits = tile_snapshot(small);
    assert_int_equal(pto_tfillpad(wide, small, PTO_PAD_MAX), PTO_OK);
    expect_filled(wide, bits, 4, 4, 4, PTO_PAD_MAX, "4x4 into 4x9");
    free(bits);
    for (int p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        expect_refused(wide, small, PTO_PAD_MAX, PTO_ERR_SHAPE_MISMATCH,
                       pto_profile_string((pto_profile)p));
        assert_int_equal(pto_tfillpad(dst, src, PTO_PAD_ZERO), PTO_OK);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    }
    /* placement: a source overlapping dst's padding (outside dst's valid
     * region) is refused; one placed exactly on dst or beside it is not */
    pto_buffer *b = NULL;
    pto_tile *pd = NULL, *ps = NULL, *apart = NULL;
    assert_int_equal(pto_buffer_create(4096, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, b, 0, &pd), PTO_OK);
    assert_int_equal(pto_tile_set_valid(pd, 1, 8), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, b, 3 * 8 * 4, &ps), PTO_OK);
    assert_int_equal(pto_tile_set_valid(ps, 1, 2), PTO_OK);
    expect_refused(pd, ps, PTO_PAD_ZERO, PTO_ERR_ALIASING, "src");
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, b, 4 * 8 * 4, &apart), PTO_OK);
    assert_int_equal(pto_tile_set_valid(apart, 4, 8), PTO_OK);
    assert_int_equal(pto_tfillpad(pd, apart, PTO_PAD_ZERO), PTO_OK);
    /* every dtype under every profile, a source of each same-size dtype;
     * one of another size refused */
    size_t cells = 0;
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p)
        for (size_t d = 0; d < COUNT(kDtypes); ++d)
            for (size_t e = 0; e < COUNT(kDtypes); ++e) {
                pto_tile *cd = tile_new(kDtypes[d], 2, 3, 2, 3), *cs = tile_new(kDtypes[e], 2, 3, 1, 2);
                tile_fill(cs, &r, GEN_ANY);
                const bool same = pto_dtype_size(kDtypes[d]) == pto_dtype_size(kDtypes[e]);
                assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
                if (same) {
                    uint32_t *sb = tile_snapshot(cs);
                    assert_int_equal(pto_tfillpad(cd, cs, PTO_PAD_MAX), PTO_OK);
                    expect_filled(cd, sb, 3, 1, 2, PTO_PAD_MAX, "dtype cell");
                    free(sb);
                } else {
                    expect_refused(cd, cs, PTO_PAD_MAX, PTO_ERR_DTYPE_MISMATCH, "differs in size");
                }
                assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
                pto_tile_destroy(cd);
                pto_tile_destroy(cs);
                ++cells;
            }
    print_message("[datamove] tfillpad: %zu (profile, dst dtype, src dtype) cells as the rules say\n", cells);
    pto_tile_destroy(pd);
    pto_tile_destroy(ps);
    pto_tile_destroy(apart);
    pto_buffer_destroy(b);
    pto_tile_destroy(dst);
    pto_tile_destroy(src);
    pto_tile_destroy(i32);
    pto_tile_destroy(i16);
    pto_tile_destroy(big);
    pto_tile_destroy(wide);
    pto_tile_destroy(small);
}

/* ---- tci ---------------------------------------------------------------- */

static const pto_dtype kTciDtypes[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32,
                                       PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* The range of an integer dtype. */
static double int_min(pto_dtype dt) {
    return ref_is_signed(dt) ? -ldexp(1, (int)ref_bits(dt) - 1) : 0;
}
static double int_max(pto_dtype dt) {
    return ref_is_signed(dt) ? ldexp(1, (int)ref_bits(dt) - 1) - 1 : ldexp(1, (int)ref_bits(dt)) - 1;
}

/* Element k of tci(start, descending) in dt: integers the low bits of
 * start +/- k, float types start rounded to dt, then +/- k rounded once. */
static uint32_t tci_expected(pto_dtype dt, double start, bool descending, uint64_t k) {
    if (!ref_is_float(dt)) {
        const uint64_t v = descending ? (uint64_t)(int64_t)start - k : (uint64_t)(int64_t)start + k;
        return ref_bits(dt) == 16 ? (uint32_t)(v & 0xFFFFu) : (uint32_t)v;
    }
    const double s = ref_to_double(dt, ref_from_double(dt, start));
    return ref_from_double(dt, descending ? s - (double)k : s + (double)k);
}

/* Every element of dst: the sequence over its valid region, `before`
 * elsewhere. */
static void expect_sequence(const pto_tile *dst, const uint32_t *before, double start,
                            bool descending, const char *what) {
    const pto_dtype dt = pto_tile_dtype(dst);
    const uint32_t vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
            const uint32_t want = i < vr && j < vc
                                      ? tci_expected(dt, start, descending, (uint64_t)i * vc + j)
                                      : before[(size_t)i * pto_tile_cols(dst) + j];
            const uint32_t got = tile_get(dst, i, j);
            if (got != want && !(ref_is_float(dt) && ref_is_nan(dt, got) && ref_is_nan(dt, want)))
                fail_msg("%s: dst (%u,%u) is 0x%x, want 0x%x", what, i, j, got, want);
        }
}

static void test_tci_values(void **state) {
    (void)state;
    static const double kStarts[] = {0, 1, -1, 7, 100, -32768, 32767, 65535, -2147483648.0,
                                     2147483647.0, 4294967295.0, 0.5, -2.75, 1e-3, 2048, 16777216,
                                     3e38, -1e30, 70000};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {1, 64, 1, 64}, {1, 300, 1, 257},
                                          {4, 16, 3, 16}, {5, 40, 5, 33}, {2, 8, 0, 8}};
    rng r = {0x7C1};
    size_t calls = 0, elements = 0;
    for (size_t d = 0; d < COUNT(kTciDtypes); ++d) {
        const pto_dtype dt = kTciDtypes[d];
        for (size_t s = 0; s < COUNT(kStarts); ++s) {
            const double start = kStarts[s];
            /* (range first: a cast of a double beyond int64_t is undefined) */
            const pto_status want = ref_is_float(dt) || (start >= int_min(dt) && start <= int_max(dt) &&
                                                         start == (double)(int64_t)start)
                                        ? PTO_OK
                                        : PTO_ERR_INVALID_ARGUMENT;
            for (size_t k = 0; k < COUNT(kShapes); ++k)
                for (int down = 0; down <= 1; ++down) {
                    char what[128];
                    snprintf(what, sizeof what, "%s start %.17g %ux%u valid %ux%u %s",
                             pto_dtype_string(dt), start, kShapes[k][0], kShapes[k][1], kShapes[k][2],
                             kShapes[k][3], down ? "descending" : "ascending");
                    pto_tile *t = tile_new(dt, kShapes[k][0], kShapes[k][1], kShapes[k][2], kShapes[k][3]);
                    tile_fill(t, &r, GEN_ANY);
                    uint32_t *before = tile_snapshot(t);
                    const pto_status got = pto_tci(t, start, down);
                    if (got != want)
                        fail_msg("%s: %s (%s), want %s", what, pto_status_string(got), pto_last_error(),
                                 pto_status_string(want));
                    if (got == PTO_OK)
                        expect_sequence(t, before, start, down != 0, what);
                    else
                        assert_tile_unchanged(t, before, what);
                    elements += (size_t)kShapes[k][2] * kShapes[k][3];
                    ++calls;
                    free(before);
                    pto_tile_destroy(t);
                }
        }
    }
    print_message("[datamove] tci: %zu calls, %zu sequence elements matched the reference\n", calls,
                  elements);
}

static void test_tci_rules(void **state) {
    (void)state;
    pto_tile *rowt = tile_new(PTO_INT32, 1, 8, 1, 8), *block = tile_new(PTO_INT32, 2, 8, 1, 8);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *i8 = tile_new(PTO_INT8, 1, 8, 1, 8);
    assert_int_equal(pto_tci(NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tci: dst"));
    assert_int_equal(pto_tci(rowt, 0, 2), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "descending"));
    assert_int_equal(pto_tci(i8, 0, 2), PTO_ERR_INVALID_ARGUMENT); /* the enum before the dtype */
    assert_int_equal(pto_tci(i8, 0, 0), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tci(rowt, 0.5, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "start"));
    assert_int_equal(pto_tci(rowt, 4294967296.0, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tci(block, 0, 0), PTO_OK); /* HOST: every valid row */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tci(block, 0, 0), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tci(f32, 1.5, 1), PTO_OK);
    assert_int_equal(pto_tci(rowt, 3, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tci(f32, 1.5, 1), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_int_equal(pto_tci(block, 0, 0), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tci(rowt, 3, 1), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(rowt);
    pto_tile_destroy(block);
    pto_tile_destroy(f32);
    pto_tile_destroy(i8);
}

/* The three forms of tci, the scalar a function argument. */
static void test_tci_program_forms(void **state) {
    (void)state;
    static const char *const kForms[] = {
        "func.func @k(%%s : %s, %%d : !pto.tile_buf<vec, 1x40x%s>) {\n"
        "  pto.tci ins(%%s {descending = %s} : %s) outs(%%d : !pto.tile_buf<vec, 1x40x%s>)\n"
        "  return\n}\n",
        "func.func @k(%%s : %s, %%d : !pto.tile_buf<vec, 1x40x%s>) {\n"
        "  pto.tci ins(%%s : %s) outs(%%d : !pto.tile_buf<vec, 1x40x%s>) {descending = %s}\n"
        "  return\n}\n",
    };
    static const pto_dtype kForm[] = {PTO_INT32, PTO_INT16, PTO_UINT32, PTO_FLOAT32};
    size_t runs = 0;
    for (size_t d = 0; d < COUNT(kForm); ++d)
        for (int down = 0; down <= 1; ++down) {
            const char *t = dtype_spelling(kForm[d]);
            /* the scalar's type: MLIR's signless integers (i32 for ui32) */
            const char *st = kForm[d] == PTO_UINT32 ? "i32" : t;
            const char *order = down ? "true" : "false";
            char texts[4][512];
            snprintf(texts[0], sizeof texts[0], kForms[0], st, t, order, st, t);
            snprintf(texts[1], sizeof texts[1], kForms[1], st, t, st, t, order);
            /* the SSA and synchronous forms as snippets (%d their result),
             * the start a constant */
            const char *value = kForm[d] == PTO_FLOAT32 ? "-3.5" : "1000";
            snprintf(texts[2], sizeof texts[2], "%%s = arith.constant %s : %s\n"
                     "%%d = pto.tci %%s {descending = %s} : %s -> !pto.tile<1x40x%s>\n",
                     value, st, order, st, t);
            snprintf(texts[3], sizeof texts[3], "%%s = arith.constant %s : %s\n"
                     "%%d = tci %%s {descending = %s} : !pto.tile<1x40x%s>\n", value, st, order, t);
            const double start = kForm[d] == PTO_FLOAT32 ? -3.5 : 1000;
            for (size_t f = 0; f < COUNT(texts); ++f) {
                pto_program *p = NULL;
                const pto_status st = pto_program_create(texts[f], strlen(texts[f]), "t.pto", &p);
                if (st != PTO_OK) fail_msg("%s: %s (%s)", texts[f], pto_status_string(st), pto_last_error());
                pto_tile *dst = tile_new(kForm[d], 1, 40, 1, 40);
                uint32_t *before = tile_snapshot(dst);
                pto_args *a = NULL;
                size_t is = 0, id = 0;
                assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
                assert_int_equal(pto_args_create(p, &a), PTO_OK);
                if (f < 2 && kForm[d] == PTO_FLOAT32) {
                    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
                    assert_int_equal(pto_args_set_float(a, is, start), PTO_OK);
                } else if (f < 2) {
                    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
                    assert_int_equal(pto_args_set_int(a, is, (int64_t)start), PTO_OK);
                }
                assert_int_equal(pto_args_set_tile(a, id, dst), PTO_OK);
                const pto_status run = pto_program_run(p, a);
                if (run != PTO_OK) fail_msg("%s: run %s (%s)", texts[f], pto_status_string(run), pto_last_error());
                expect_sequence(dst, before, start, down != 0, texts[f]);
                free(before);
                pto_args_destroy(a);
                pto_tile_destroy(dst);
                pto_program_destroy(p);
                ++runs;
            }
        }
    static const char *const kBad[] = {
        "func.func @k(%s : i32, %d : !pto.tile_buf<vec, 1x8xi32>) {\n"
        "  pto.tci ins(%s {descending = maybe} : i32) outs(%d : !pto.tile_buf<vec, 1x8xi32>)\n  return\n}\n",
        "func.func @k(%s : i32, %d : !pto.tile_buf<vec, 1x8xi32>) {\n"
        "  pto.tci ins(%s {ascending = true} : i32) outs(%d : !pto.tile_buf<vec, 1x8xi32>)\n  return\n}\n",
        "func.func @k(%s : i8, %d : !pto.tile_buf<vec, 1x8xi8>) {\n"
        "  pto.tci ins(%s : i8) outs(%d : !pto.tile_buf<vec, 1x8xi8>)\n  return\n}\n",
    };
    static const pto_status kBadStatus[] = {PTO_ERR_INVALID_ARGUMENT, PTO_ERR_INVALID_ARGUMENT,
                                            PTO_ERR_UNSUPPORTED_DTYPE};
    for (size_t k = 0; k < COUNT(kBad); ++k) expect_program_refused(kBad[k], kBadStatus[k]);
    /* A5's one-row rule: an instruction with a scalar operand is checked
     * again when it runs (the scalar's rule needs its value), so the region
     * rule refuses the run, before any write. */
    static const char kTwoRows[] =
        "module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%s : i32, %d : !pto.tile_buf<vec, 2x8xi32>) {\n"
        "  pto.tci ins(%s : i32) outs(%d : !pto.tile_buf<vec, 2x8xi32>)\n  return\n}\n}\n";
    pto_program *p = NULL;
    assert_int_equal(pto_program_create(kTwoRows, strlen(kTwoRows), "t.pto", &p), PTO_OK);
    pto_tile *two = tile_new(PTO_INT32, 2, 8, 2, 8);
    uint32_t *before = tile_snapshot(two);
    pto_args *a = NULL;
    size_t is = 0, id = 0;
    assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
    assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_int(a, is, 5), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, id, two), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_tile_unchanged(two, before, "A5 two-row tci");
    free(before);
    pto_args_destroy(a);
    pto_tile_destroy(two);
    pto_program_destroy(p);
    print_message("[datamove] tci: %zu program runs in 4 spellings matched the reference, %zu texts refused\n",
                  runs, COUNT(kBad));
}

/* ---- treshape ------------------------------------------------------------ */

/* The bytes of tile t, rows*cols*size of them (free() the result). */
static unsigned char *tile_bytes(const pto_tile *t, size_t *n) {
    *n = (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
    unsigned char *out = malloc(*n);
    assert_non_null(out);
    assert_int_equal(pto_tile_read(t, out, *n), PTO_OK);
    return out;
}

static void test_treshape(void **state) {
    (void)state;
    typedef struct {
        pto_dtype src_dt;
        uint32_t src_rows, src_cols;
        pto_dtype dst_dt;
        uint32_t dst_rows, dst_cols;
    } reshape_case;
    static const reshape_case kCases[] = {
        {PTO_FLOAT32, 16, 1, PTO_FLOAT32, 1, 16},  {PTO_FLOAT32, 1, 16, PTO_FLOAT32, 16, 1},
        {PTO_FLOAT16, 4, 8, PTO_FLOAT32, 2, 8},    {PTO_INT8, 3, 8, PTO_UINT16, 4, 3},
        {PTO_BFLOAT16, 5, 7, PTO_BFLOAT16, 7, 5}, {PTO_UINT32, 2, 3, PTO_INT8, 1, 24},
    };
    rng r = {0x2E5};
    for (size_t k = 0; k < COUNT(kCases); ++k) {
        const reshape_case *c = &kCases[k];
        pto_tile *src = tile_new(c->src_dt, c->src_rows, c->src_cols, 1, 1);
        pto_tile *dst = tile_new(c->dst_dt, c->dst_rows, c->dst_cols, 0, 0);
        tile_fill(src, &r, GEN_ANY);
        size_t ns = 0, nd = 0;
        unsigned char *want = tile_bytes(src, &ns);
        assert_int_equal(pto_treshape(dst, src), PTO_OK); /* valid regions play no part */
        unsigned char *got = tile_bytes(dst, &nd);
        assert_int_equal(ns, nd);
        assert_memory_equal(got, want, ns);
        assert_int_equal(pto_tile_valid_rows(dst), 0);
        free(want);
        free(got);
        pto_tile_destroy(src);
        pto_tile_destroy(dst);
    }
    /* the rules: NULLs, overlap without one start, the total size */
    pto_tile *a = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *b = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    assert_int_equal(pto_treshape(NULL, a), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_treshape(a, NULL), PTO_ERR_NULL_ARGUMENT);
    uint32_t *before = tile_snapshot(a);
    assert_int_equal(pto_treshape(a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "pto_treshape: src 4x8 FLOAT16 is 64 bytes"));
    assert_tile_unchanged(a, before, "refused treshape");
    free(before);
    pto_buffer *buf = NULL;
    pto_tile *whole = NULL, *view = NULL, *shifted = NULL;
    assert_int_equal(pto_buffer_create(256, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &whole), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT16, 8, 8, buf, 0, &view), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 64, &shifted), PTO_OK);
    rng r2 = {0x11};
    tile_fill(whole, &r2, GEN_ANY);
    before = tile_snapshot(whole);
    assert_int_equal(pto_treshape(view, whole), PTO_OK); /* one start: nothing to write */
    assert_tile_unchanged(whole, before, "treshape onto its own bytes");
    assert_int_equal(pto_treshape(shifted, whole), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_treshape: src"));
    assert_tile_unchanged(whole, before, "refused overlapping treshape");
    free(before);
    pto_tile_destroy(whole);
    pto_tile_destroy(view);
    pto_tile_destroy(shifted);
    pto_buffer_destroy(buf);
    /* programs: PTOAS's column vector to row (its paged-attention sample's
     * spelling), the synchronous form and DPS */
    static const char *const kForms[] = {
        "%d = pto.treshape %s : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, v_row=16, v_col=1, "
        "blayout=col_major, slayout=none_box, fractal=512, pad=0> -> !pto.tile_buf<loc=vec, dtype=f32, "
        "rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n",
        /* the synchronous form names the result's type only: its source
         * comes from a DPS-declared tile of the snippet */
        "pto.tmov ins(%s : !pto.tile_buf<vec, 16x1xf32>) outs(%m : !pto.tile_buf<vec, 16x1xf32>)\n"
        "%d = treshape %m : !pto.tile<1x16xf32>\n",
        "pto.treshape ins(%s : !pto.tile_buf<vec, 16x1xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)\n",
    };
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        const char *text = kForms[f];
        pto_tile *s = tile_new(PTO_FLOAT32, 16, 1, 16, 1), *d = tile_new(PTO_FLOAT32, 1, 16, 1, 16);
        tile_fill(s, &r, GEN_ANY);
        size_t n = 0;
        unsigned char *want = tile_bytes(s, &n);
        if (run_snippet_sd(text, s, d) != PTO_OK)
            fail_msg("%s: %s", text, pto_last_error());
        size_t m = 0;
        unsigned char *got = tile_bytes(d, &m);
        assert_memory_equal(got, want, n);
        free(want);
        free(got);
        pto_tile_destroy(s);
        pto_tile_destroy(d);
    }
    expect_program_refused("%d = pto.treshape %s : !pto.tile<4x8xf32> -> !pto.tile<4x8xf16>\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] treshape: %zu reshapes byte for byte, its rules, 3 text forms\n",
                  COUNT(kCases));
    pto_tile_destroy(a);
    pto_tile_destroy(b);
}

/* ---- ttrans --------------------------------------------------------------- */

static void test_ttrans(void **state) {
    (void)state;
    /* src shape, src valid region, dst shape */
    static const uint32_t kShapes[][6] = {
        {1, 1, 1, 1, 1, 1},     {4, 8, 4, 8, 8, 4},     {3, 37, 3, 37, 40, 8},
        {16, 16, 5, 16, 16, 8}, {33, 70, 33, 65, 66, 40}, {64, 32, 64, 32, 32, 64},
        {7, 9, 0, 9, 9, 7},
    };
    rng r = {0x7A5};
    size_t elements = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t *s = kShapes[k];
            pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
            pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[3], s[2]);
            pto_tile *tmp = tile_new(PTO_UINT8, 1, 1, 1, 1);
            tile_fill(src, &r, GEN_ANY);
            tile_fill(dst, &r, GEN_ANY);
            uint32_t *before = tile_snapshot(dst);
            assert_int_equal(pto_ttrans(dst, src, tmp), PTO_OK);
            for (uint32_t i = 0; i < s[4]; ++i)
                for (uint32_t j = 0; j < s[5]; ++j) {
                    const uint32_t want = i < s[3] && j < s[2] ? tile_get(src, j, i) : before[(size_t)i * s[5] + j];
                    if (tile_get(dst, i, j) != want)
                        fail_msg("ttrans %s %ux%u: dst (%u,%u) 0x%x, want 0x%x", pto_dtype_string(kDtypes[d]),
                                 s[2], s[3], i, j, tile_get(dst, i, j), want);
                }
            elements += (size_t)s[2] * s[3];
            free(before);
            pto_tile_destroy(src);
            pto_tile_destroy(dst);
            pto_tile_destroy(tmp);
        }
    /* the rules, in order */
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *dst = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
    pto_tile *tmp = tile_new(PTO_FLOAT32, 1, 8, 1, 8), *h = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *i32 = tile_new(PTO_INT32, 4, 8, 4, 8), *sq = tile_new(PTO_FLOAT32, 8, 8, 8, 8);
    uint32_t *before = tile_snapshot(dst);
    assert_int_equal(pto_ttrans(dst, src, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_ttrans: tmp"));
    assert_int_equal(pto_ttrans(dst, h, tmp), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_ttrans(dst, src, src), PTO_ERR_ALIASING);
    assert_int_equal(pto_ttrans(sq, sq, tmp), PTO_ERR_ALIASING);
    assert_int_equal(pto_tile_set_valid(dst, 4, 8), PTO_OK);
    assert_int_equal(pto_ttrans(dst, src, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "not src's 4x8 transposed"));
    assert_tile_unchanged(dst, before, "refused ttrans");
    assert_int_equal(pto_tile_set_valid(dst, 8, 4), PTO_OK);
    assert_int_equal(pto_ttrans(dst, i32, tmp), PTO_OK); /* a same-size dtype: its bits */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_ttrans(dst, src, tmp), PTO_OK); /* 8 floats: 32-byte rows */
    pto_tile *odd = tile_new(PTO_FLOAT32, 4, 6, 4, 6), *odd_dst = tile_new(PTO_FLOAT32, 6, 8, 6, 4);
    assert_int_equal(pto_ttrans(odd_dst, odd, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "A5"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_ttrans(odd_dst, odd, tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS with and without tmp, the SSA form */
    static const char *const kForms[] = {
        "pto.ttrans ins(%s, %t : !pto.tile_buf<vec, 4x8xf32>, !pto.tile_buf<vec, 1x8xf32>) "
        "outs(%d : !pto.tile_buf<vec, 8x8xf32, valid=8x4>)\n",
        "pto.ttrans ins(%s : !pto.tile_buf<vec, 4x8xf32>) outs(%d : !pto.tile_buf<vec, 8x8xf32, valid=8x4>)\n",
        "%d = pto.ttrans %s : !pto.tile<4x8xf32> -> !pto.tile<8x8xf32, valid=8x4>\n",
    };
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        pto_tile *s = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *d = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
        pto_tile *want = tile_new(PTO_FLOAT32, 8, 8, 8, 4);
        tile_fill(s, &r, GEN_ANY);
        assert_int_equal(pto_ttrans(want, s, tmp), PTO_OK);
        pto_program *p = NULL;
        if (pto_program_create(kForms[f], strlen(kForms[f]), "t.pto", &p) != PTO_OK)
            fail_msg("%s: %s", kForms[f], pto_last_error());
        pto_args *a = NULL;
        size_t is = 0, id = 0, it = 0;
        assert_int_equal(pto_program_param_find(p, "s", &is), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, is, s), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, id, d), PTO_OK);
        if (pto_program_param_find(p, "t", &it) == PTO_OK)
            assert_int_equal(pto_args_set_tile(a, it, tmp), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 4; ++j) assert_int_equal(tile_get(d, i, j), tile_get(want, i, j));
        pto_args_destroy(a);
        pto_program_destroy(p);
        pto_tile_destroy(s);
        pto_tile_destroy(d);
        pto_tile_destroy(want);
    }
    expect_program_refused("%d = pto.ttrans %s : !pto.tile<4x8xf32> -> !pto.tile<8x8xf32>\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] ttrans: %zu elements transposed as the reference, its rules, 3 text forms\n",
                  elements);
    free(before);
    pto_tile *all[] = {src, dst, tmp, h, i32, sq, odd, odd_dst};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- tconcat -------------------------------------------------------------- */

static void test_tconcat(void **state) {
    (void)state;
    /* rows, src0 valid cols, src1 valid cols (each source's tile is wider) */
    static const uint32_t kShapes[][3] = {{1, 1, 1}, {4, 8, 8}, {3, 0, 5}, {3, 5, 0}, {7, 13, 30}, {2, 64, 1}};
    rng r = {0xC0C};
    size_t elements = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t rows = kShapes[k][0], c0 = kShapes[k][1], c1 = kShapes[k][2];
            pto_tile *a = tile_new(kDtypes[d], rows + 1, c0 + 3, rows, c0);
            pto_tile *b = tile_new(kDtypes[d], rows, c1 + 1, rows, c1);
            pto_tile *dst = tile_new(kDtypes[d], rows + 2, c0 + c1 + 2, rows, c0 + c1);
            tile_fill(a, &r, GEN_ANY);
            tile_fill(b, &r, GEN_ANY);
            tile_fill(dst, &r, GEN_ANY);
            uint32_t *before = tile_snapshot(dst);
            assert_int_equal(pto_tconcat(dst, a, b), PTO_OK);
            const uint32_t cols = pto_tile_cols(dst);
            for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
                for (uint32_t j = 0; j < cols; ++j) {
                    const uint32_t want = i >= rows || j >= c0 + c1 ? before[(size_t)i * cols + j]
                                          : j < c0                ? tile_get(a, i, j)
                                                                  : tile_get(b, i, j - c0);
                    if (tile_get(dst, i, j) != want)
                        fail_msg("tconcat %s %u rows %u+%u: dst (%u,%u) 0x%x, want 0x%x",
                                 pto_dtype_string(kDtypes[d]), rows, c0, c1, i, j, tile_get(dst, i, j), want);
                }
            elements += (size_t)rows * (c0 + c1);
            free(before);
            pto_tile_destroy(a);
            pto_tile_destroy(b);
            pto_tile_destroy(dst);
        }
    /* the rules, in order */
    pto_tile *a = tile_new(PTO_INT32, 4, 8, 4, 3), *b = tile_new(PTO_INT32, 4, 8, 4, 5);
    pto_tile *dst = tile_new(PTO_INT32, 4, 8, 4, 8), *f = tile_new(PTO_FLOAT32, 4, 8, 4, 5);
    uint32_t *before = tile_snapshot(dst);
    assert_int_equal(pto_tconcat(dst, a, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tconcat(dst, a, f), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tconcat(dst, a, dst), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_tconcat: src1"));
    assert_int_equal(pto_tile_set_valid(b, 4, 4), PTO_OK);
    assert_int_equal(pto_tconcat(dst, a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "src0 valid cols 3 + src1 valid cols 4"));
    assert_int_equal(pto_tile_set_valid(b, 3, 5), PTO_OK);
    assert_int_equal(pto_tconcat(dst, a, b), PTO_ERR_SHAPE_MISMATCH);
    assert_tile_unchanged(dst, before, "refused tconcat");
    assert_int_equal(pto_tile_set_valid(b, 4, 5), PTO_OK);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_tconcat(dst, a, b), PTO_OK);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* in place: src0 is dst's first columns already */
    pto_buffer *buf = NULL;
    pto_tile *pd = NULL, *p0 = NULL;
    assert_int_equal(pto_buffer_create(256, &buf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &pd), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &p0), PTO_OK);
    assert_int_equal(pto_tile_set_valid(p0, 4, 3), PTO_OK);
    tile_fill(p0, &r, GEN_ANY);
    uint32_t *first = tile_snapshot(p0);
    assert_int_equal(pto_tconcat(pd, p0, b), PTO_OK);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 8; ++j)
            assert_int_equal(tile_get(pd, i, j), j < 3 ? first[i * 8 + j] : tile_get(b, i, j - 3));
    free(first);
    /* programs: DPS and SSA */
    static const char *const kForms[] = {
        "pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 4x8xi32, valid=4x3>, !pto.tile_buf<vec, 4x8xi32, valid=4x5>) "
        "outs(%d : !pto.tile_buf<vec, 4x8xi32>)\n",
        "%d = pto.tconcat %a, %b : (!pto.tile<4x8xi32, valid=4x3>, !pto.tile<4x8xi32, valid=4x5>) -> !pto.tile<4x8xi32>\n",
    };
    pto_tile *want = tile_new(PTO_INT32, 4, 8, 4, 8);
    assert_int_equal(pto_tconcat(want, a, b), PTO_OK);
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_program *p = NULL;
        if (pto_program_create(kForms[k], strlen(kForms[k]), "t.pto", &p) != PTO_OK)
            fail_msg("%s: %s", kForms[k], pto_last_error());
        pto_args *args = NULL;
        size_t ia = 0, ib = 0, id = 0;
        assert_int_equal(pto_program_param_find(p, "a", &ia), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "b", &ib), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
        assert_int_equal(pto_args_create(p, &args), PTO_OK);
        pto_tile *out = tile_new(PTO_INT32, 4, 8, 4, 8);
        assert_int_equal(pto_args_set_tile(args, ia, a), PTO_OK);
        assert_int_equal(pto_args_set_tile(args, ib, b), PTO_OK);
        assert_int_equal(pto_args_set_tile(args, id, out), PTO_OK);
        assert_int_equal(pto_program_run(p, args), PTO_OK);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        pto_tile_destroy(out);
        pto_args_destroy(args);
        pto_program_destroy(p);
    }
    expect_program_refused("pto.tconcat ins(%a, %b : !pto.tile_buf<vec, 4x8xi32>, !pto.tile_buf<vec, 4x8xi32>) "
                           "outs(%d : !pto.tile_buf<vec, 4x8xi32>)\n",
                           PTO_ERR_SHAPE_MISMATCH);
    print_message("[datamove] tconcat: %zu elements as the reference, its rules, in place, 2 text forms\n",
                  elements);
    free(before);
    pto_tile *all[] = {a, b, dst, f, pd, p0, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
    pto_buffer_destroy(buf);
}

/* ---- programs with named arguments -------------------------------------- */

/* Runs text with the named tiles and integer (index) arguments bound; the
 * run's status (the program must compile). */
static pto_status run_bound(const char *text, const char *const *tile_names, pto_tile *const *tiles,
                            size_t ntiles, const char *const *int_names, const int64_t *ints,
                            size_t nints) {
    pto_program *p = NULL;
    const pto_status st = pto_program_create(text, strlen(text), "t.pto", &p);
    if (st != PTO_OK) fail_msg("%s: %s (%s)", text, pto_status_string(st), pto_last_error());
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t k = 0; k < ntiles; ++k) {
        size_t at = 0;
        if (pto_program_param_find(p, tile_names[k], &at) != PTO_OK) continue; /* a form without it */
        assert_int_equal(pto_args_set_tile(a, at, tiles[k]), PTO_OK);
    }
    for (size_t k = 0; k < nints; ++k) {
        size_t at = 0;
        if (pto_program_param_find(p, int_names[k], &at) != PTO_OK) continue;
        assert_int_equal(pto_args_set_int(a, at, ints[k]), PTO_OK);
    }
    const pto_status run = pto_program_run(p, a);
    pto_args_destroy(a);
    pto_program_destroy(p);
    return run;
}

/* dst's every element: want(i, j) inside its valid region, as before outside. */
static void expect_region(const pto_tile *dst, const uint32_t *before, const uint32_t *want,
                          const char *what) {
    const uint32_t cols = pto_tile_cols(dst), vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t w = i < vr && j < vc ? want[(size_t)i * vc + j] : before[(size_t)i * cols + j];
            if (tile_get(dst, i, j) != w)
                fail_msg("%s: dst (%u,%u) 0x%x, want 0x%x", what, i, j, tile_get(dst, i, j), w);
        }
}

/* ---- textract ------------------------------------------------------------ */

/* The window's elements, by the page's definition: dst[i,j] = src[row + i, col + j]. */
static uint32_t *window_of(const pto_tile *src, uint32_t vr, uint32_t vc, size_t row, size_t col) {
    uint32_t *w = malloc(sizeof(uint32_t) * ((size_t)vr * vc + 1));
    for (uint32_t i = 0; i < vr; ++i)
        for (uint32_t j = 0; j < vc; ++j) w[(size_t)i * vc + j] = tile_get(src, row + i, col + j);
    return w;
}

static void test_textract(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols; dst rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][8] = {
        {1, 1, 1, 1, 1, 1, 1, 1},       {8, 16, 8, 16, 4, 8, 4, 8},   {8, 16, 6, 13, 4, 8, 2, 5},
        {16, 64, 16, 64, 16, 64, 16, 64}, {33, 70, 33, 65, 9, 40, 9, 33}, {5, 37, 5, 37, 5, 37, 0, 3},
        {64, 9, 64, 9, 64, 1, 64, 1},
    };
    rng r = {0xE7};
    size_t elements = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t k = 0; k < COUNT(kShapes); ++k) {
            const uint32_t *s = kShapes[k];
            pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
            tile_fill(src, &r, GEN_ANY);
            uint32_t *src_bits = tile_snapshot(src);
            /* the corners of the offsets the window allows, and one between */
            const uint32_t rmax = s[2] - s[6], cmax = s[3] - s[7];
            const size_t offsets[][2] = {{0, 0}, {rmax, cmax}, {0, cmax}, {rmax, 0}, {rmax / 2, cmax / 3}};
            for (size_t o = 0; o < COUNT(offsets); ++o) {
                pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[6], s[7]);
                tile_fill(dst, &r, GEN_ANY);
                uint32_t *before = tile_snapshot(dst);
                uint32_t *want = window_of(src, s[6], s[7], offsets[o][0], offsets[o][1]);
                char what[128];
                snprintf(what, sizeof what, "textract %s %ux%u at (%zu, %zu)", pto_dtype_string(kDtypes[d]),
                         s[6], s[7], offsets[o][0], offsets[o][1]);
                const pto_status got = pto_textract(dst, src, offsets[o][0], offsets[o][1]);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                expect_region(dst, before, want, what);
                assert_tile_unchanged(src, src_bits, what);
                elements += (size_t)s[6] * s[7];
                ++calls;
                free(before);
                free(want);
                pto_tile_destroy(dst);
            }
            free(src_bits);
            pto_tile_destroy(src);
        }
    /* the rules, in order */
    pto_tile *src = tile_new(PTO_FLOAT32, 8, 16, 6, 16), *dst = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *h = tile_new(PTO_FLOAT16, 8, 16, 8, 16);
    tile_fill(src, &r, GEN_ANY);
    tile_fill(dst, &r, GEN_ANY);
    uint32_t *before = tile_snapshot(dst);
    assert_int_equal(pto_textract(dst, NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_textract: src"));
    assert_int_equal(pto_textract(NULL, src, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_textract(dst, h, 99, 0), PTO_ERR_DTYPE_MISMATCH); /* before the offsets */
    assert_int_equal(pto_textract(dst, dst, 0, 0), PTO_ERR_ALIASING);
    assert_int_equal(pto_textract(dst, src, 3, 0), PTO_ERR_OUT_OF_RANGE); /* 3 + 4 rows > 6 valid */
    assert_non_null(strstr(pto_last_error(), "outside src's valid region 6x16"));
    assert_int_equal(pto_textract(dst, src, 0, 9), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_textract(dst, src, (size_t)-1, 0), PTO_ERR_OUT_OF_RANGE); /* no wrap-around */
    assert_int_equal(pto_textract(dst, src, 0, (size_t)-4), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(dst, before, "refused textract");
    assert_int_equal(pto_textract(dst, src, 2, 8), PTO_OK);
    /* A2A3 and A5: dst's shape within src's; A2A3: 32-byte rows and index_col */
    pto_tile *wide = tile_new(PTO_FLOAT32, 4, 24, 4, 8), *odd = tile_new(PTO_FLOAT32, 8, 12, 8, 12);
    pto_tile *tall = tile_new(PTO_FLOAT32, 8, 8, 4, 8), *one = tile_new(PTO_FLOAT32, 1, 8, 1, 1);
    pto_tile *b8 = tile_new(PTO_INT8, 8, 32, 8, 32), *b8d = tile_new(PTO_INT8, 2, 32, 2, 3);
    assert_int_equal(pto_textract(wide, src, 0, 0), PTO_OK); /* HOST: the valid regions only */
    assert_int_equal(pto_textract(tall, src, 2, 0), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 1), PTO_OK);
    assert_int_equal(pto_textract(b8d, b8, 0, 0), PTO_OK);
    for (int p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_textract(wide, src, 0, 0), PTO_ERR_SHAPE_MISMATCH);
        assert_non_null(strstr(pto_last_error(), pto_profile_string((pto_profile)p)));
        /* the page's bound: index_row + dst rows (8) <= src rows (8) */
        assert_int_equal(pto_textract(tall, src, 2, 0), PTO_ERR_OUT_OF_RANGE);
        assert_int_equal(pto_textract(tall, src, 0, 0), PTO_OK);
        assert_int_equal(pto_textract(dst, src, 2, 8), PTO_OK);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 0), PTO_ERR_SHAPE_MISMATCH); /* 48-byte rows */
    assert_int_equal(pto_textract(b8d, b8, 0, 0), PTO_ERR_SHAPE_MISMATCH); /* 3 int8 columns */
    assert_int_equal(pto_textract(dst, src, 0, 4), PTO_ERR_OUT_OF_RANGE);  /* 16 bytes in */
    assert_non_null(strstr(pto_last_error(), "32 bytes"));
    assert_int_equal(pto_textract(one, src, 5, 3), PTO_OK); /* a 1x1 window: any offset */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_textract(dst, odd, 0, 1), PTO_OK);
    assert_int_equal(pto_textract(dst, src, 0, 4), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS (the offsets arguments), SSA and synchronous (constants) */
    static const char *const kForms[] = {
        "func.func @k(%s : !pto.tile_buf<vec, 8x16xf32, valid=6x16>, %r : index, %c : index, "
        "%d : !pto.tile_buf<vec, 4x8xf32>) {\n"
        "  pto.textract ins(%s, %r, %c : !pto.tile_buf<vec, 8x16xf32, valid=6x16>, index, index) "
        "outs(%d : !pto.tile_buf<vec, 4x8xf32>)\n  return\n}\n",
        "%r = arith.constant 2 : index\n%c = arith.constant 5 : index\n"
        "%d = pto.textract %s, %r, %c : (!pto.tile<8x16xf32, valid=6x16>, index, index) -> !pto.tile<4x8xf32>\n",
        "%r = arith.constant 2 : index\n%c = arith.constant 5 : index\n"
        "%d = textract %s[%r, %c] : !pto.tile<8x16xf32, valid=6x16> -> !pto.tile<4x8xf32>\n",
    };
    pto_tile *want = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    assert_int_equal(pto_textract(want, src, 2, 5), PTO_OK);
    static const char *const kTileNames[] = {"s", "d"};
    static const char *const kIntNames[] = {"r", "c"};
    for (size_t f = 0; f < COUNT(kForms); ++f) {
        pto_tile *out = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        pto_tile *tiles[] = {src, out};
        const int64_t ints[] = {2, 5};
        const pto_status run = run_bound(kForms[f], kTileNames, tiles, 2, kIntNames, ints, 2);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[f], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        pto_tile_destroy(out);
    }
    /* offsets out of range refuse the run (checked when it runs), a negative one too */
    {
        pto_tile *out = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
        tile_fill(out, &r, GEN_ANY);
        uint32_t *kept = tile_snapshot(out);
        pto_tile *tiles[] = {src, out};
        const int64_t far[] = {3, 0}, negative[] = {0, -1};
        assert_int_equal(run_bound(kForms[0], kTileNames, tiles, 2, kIntNames, far, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_textract"));
        assert_int_equal(run_bound(kForms[0], kTileNames, tiles, 2, kIntNames, negative, 2), PTO_ERR_OUT_OF_RANGE);
        assert_tile_unchanged(out, kept, "refused textract run");
        free(kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("%r = arith.constant 0 : index\n"
                           "%d = pto.textract %s, %r : (!pto.tile<8x16xf32>, index) -> !pto.tile<4x8xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("%r = arith.constant 0 : index\n"
                           "%d = pto.textract %s, %r, %r : (!pto.tile<8x16xf32>, index, index) -> !pto.tile<4x8xf16>\n",
                           PTO_ERR_DTYPE_MISMATCH);
    print_message("[datamove] textract: %zu calls, %zu elements as the definition, its rules per profile, "
                  "3 text forms and 2 refused runs\n", calls, elements);
    free(before);
    pto_tile *all[] = {src, dst, h, wide, odd, tall, one, b8, b8d, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- tgather -------------------------------------------------------------- */

static const pto_dtype kIndexDtypes[] = {PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32};

/* Random flat offsets of elements of src's valid region, in an index tile of
 * dt with valid region vr x vc. */
static void fill_indices(pto_tile *idx, const pto_tile *src, rng *r) {
    const uint32_t cols = pto_tile_cols(src), svr = pto_tile_valid_rows(src), svc = pto_tile_valid_cols(src);
    for (uint32_t i = 0; i < pto_tile_valid_rows(idx); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(idx); ++j) {
            const uint32_t row = (uint32_t)(rng_next(r) % svr), col = (uint32_t)(rng_next(r) % svc);
            tile_put(idx, i, j, row * cols + col);
        }
}

static void test_tgather(void **state) {
    (void)state;
    /* src rows, cols, valid rows, valid cols; dst rows, cols, valid rows, valid cols */
    static const uint32_t kShapes[][8] = {
        {1, 1, 1, 1, 1, 1, 1, 1},    {16, 16, 16, 16, 16, 16, 16, 16}, {8, 37, 5, 30, 3, 64, 3, 64},
        {4, 8, 4, 8, 9, 70, 7, 65}, {64, 64, 64, 64, 2, 8, 0, 8},     {2, 300, 2, 300, 1, 256, 1, 256},
    };
    rng r = {0x6A7};
    size_t elements = 0, calls = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d)
        for (size_t x = 0; x < COUNT(kIndexDtypes); ++x)
            for (size_t k = 0; k < COUNT(kShapes); ++k) {
                const uint32_t *s = kShapes[k];
                /* 16-bit indices reach 65535 elements at most */
                pto_tile *src = tile_new(kDtypes[d], s[0], s[1], s[2], s[3]);
                pto_tile *dst = tile_new(kDtypes[d], s[4], s[5], s[6], s[7]);
                pto_tile *idx = tile_new(kIndexDtypes[x], s[6] + 1, s[7] + 2, s[6], s[7]);
                tile_fill(src, &r, GEN_ANY);
                tile_fill(dst, &r, GEN_ANY);
                fill_indices(idx, src, &r);
                uint32_t *before = tile_snapshot(dst);
                uint32_t *want = malloc(sizeof(uint32_t) * ((size_t)s[6] * s[7] + 1));
                for (uint32_t i = 0; i < s[6]; ++i)
                    for (uint32_t j = 0; j < s[7]; ++j) {
                        const uint32_t flat = tile_get(idx, i, j);
                        want[(size_t)i * s[7] + j] = tile_get(src, flat / s[1], flat % s[1]);
                    }
                char what[128];
                snprintf(what, sizeof what, "tgather %s by %s, %ux%u from %ux%u", pto_dtype_string(kDtypes[d]),
                         pto_dtype_string(kIndexDtypes[x]), s[6], s[7], s[2], s[3]);
                /* HOST: a tmp or none (never touched) */
                pto_tile *tmp = (x + k) % 2 ? NULL : tile_new(PTO_UINT8, 1, 1, 1, 1);
                const pto_status got = pto_tgather(dst, src, idx, tmp);
                pto_tile_destroy(tmp);
                if (got != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(got), pto_last_error());
                expect_region(dst, before, want, what);
                elements += (size_t)s[6] * s[7];
                ++calls;
                free(before);
                free(want);
                pto_tile_destroy(src);
                pto_tile_destroy(dst);
                pto_tile_destroy(idx);
            }
    /* hand-computed: src 2x4 int32 0..7, indices 7 0 5 / 2 2 4 */
    pto_tile *src = tile_new(PTO_INT32, 2, 4, 2, 4), *dst = tile_new(PTO_INT32, 2, 3, 2, 3);
    pto_tile *idx = tile_new(PTO_INT32, 2, 3, 2, 3), *tmp = tile_new(PTO_INT32, 2, 3, 2, 3);
    for (uint32_t k = 0; k < 8; ++k) tile_put(src, k / 4, k % 4, 100 + k);
    static const uint32_t kIdx[] = {7, 0, 5, 2, 2, 4};
    for (uint32_t k = 0; k < 6; ++k) tile_put(idx, k / 3, k % 3, kIdx[k]);
    assert_int_equal(pto_tgather(dst, src, idx, tmp), PTO_OK);
    static const uint32_t kWant[] = {107, 100, 105, 102, 102, 104};
    for (uint32_t k = 0; k < 6; ++k) assert_int_equal(tile_get(dst, k / 3, k % 3), kWant[k]);
    /* the rules, in order */
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 4, 2, 4), *fidx = tile_new(PTO_FLOAT32, 2, 3, 2, 3);
    pto_tile *i16 = tile_new(PTO_INT16, 2, 3, 2, 3), *narrow = tile_new(PTO_INT32, 2, 2, 2, 2);
    tile_fill(dst, &r, GEN_ANY);
    uint32_t *before = tile_snapshot(dst);
    assert_int_equal(pto_tgather(dst, src, NULL, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tgather: indices"));
    assert_int_equal(pto_tgather(dst, f, idx, NULL), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, fidx, NULL), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "indices dtype FLOAT32"));
    assert_int_equal(pto_tgather(dst, src, idx, dst), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(dst, dst, idx, NULL), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(dst, src, dst, NULL), PTO_ERR_ALIASING);
    assert_int_equal(pto_tgather(narrow, src, idx, NULL), PTO_ERR_SHAPE_MISMATCH);
    tile_put(idx, 1, 2, 8); /* one past the last element */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "indices (1, 2) is 8"));
    tile_put(idx, 1, 2, 0xFFFFFFFFu); /* -1 */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "is -1"));
    assert_int_equal(pto_tile_set_valid(src, 2, 3), PTO_OK);
    tile_put(idx, 1, 2, 3); /* row 0, col 3: outside src's valid columns */
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(dst, before, "refused tgather");
    assert_int_equal(pto_tile_set_valid(src, 2, 4), PTO_OK);
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_OK);
    /* A2A3: tmp required, of indices' dtype and valid shape; 32-bit indices;
     * contiguous dst rows. A5: contiguous dst and indices rows. */
    pto_tile *wide = tile_new(PTO_INT32, 2, 8, 2, 3), *widx = tile_new(PTO_INT32, 2, 8, 2, 3);
    pto_tile *i8 = tile_new(PTO_INT8, 2, 3, 2, 3), *i8s = tile_new(PTO_INT8, 2, 4, 2, 4);
    assert_int_equal(pto_tgather(wide, src, widx, NULL), PTO_OK); /* HOST */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tgather(dst, src, idx, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tgather(i8, i8s, idx, tmp), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgather(dst, src, i16, tmp), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tgather(dst, src, idx, f), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tgather(wide, src, widx, tmp), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, idx, narrow), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_tgather(dst, src, idx, tmp), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tgather(i8, i8s, idx, NULL), PTO_OK);
    for (uint32_t k = 0; k < 6; ++k) tile_put(i16, k / 3, k % 3, kIdx[k]);
    assert_int_equal(pto_tgather(dst, src, i16, NULL), PTO_OK);
    assert_int_equal(pto_tgather(wide, src, widx, NULL), PTO_ERR_SHAPE_MISMATCH);
    pto_tile *cidx = tile_new(PTO_INT32, 2, 8, 2, 8), *cdst = tile_new(PTO_INT32, 2, 8, 2, 8);
    assert_int_equal(pto_tgather(cdst, src, cidx, NULL), PTO_OK);
    assert_int_equal(pto_tile_set_valid(cdst, 2, 8), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: DPS with tmp (PTOAS's form) and without, the SSA form */
    tile_put(idx, 1, 2, 6);
    pto_tile *want = tile_new(PTO_INT32, 2, 3, 2, 3);
    assert_int_equal(pto_tgather(want, src, idx, NULL), PTO_OK);
    static const char *const kForms[] = {
        "pto.tgather ins(%s, %i, %t : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xi32>, "
        "!pto.tile_buf<vec, 2x3xi32>) outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
        "pto.tgather ins(%s, %i : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xi32>) "
        "outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
        "%d = pto.tgather %s, %i : (!pto.tile<2x4xi32>, !pto.tile<2x3xi32>) -> !pto.tile<2x3xi32>\n",
    };
    static const char *const kNames[] = {"s", "i", "t", "d"};
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        pto_tile *out = tile_new(PTO_INT32, 2, 3, 2, 3);
        pto_tile *tiles[] = {src, idx, tmp, out};
        const pto_status run = run_bound(kForms[k], kNames, tiles, 4, NULL, NULL, 0);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", kForms[k], pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 3; ++j) assert_int_equal(tile_get(out, i, j), tile_get(want, i, j));
        /* an index out of range refuses the run, nothing written */
        tile_put(idx, 0, 1, 8);
        uint32_t *kept = tile_snapshot(out);
        assert_int_equal(run_bound(kForms[k], kNames, tiles, 4, NULL, NULL, 0), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tgather"));
        assert_tile_unchanged(out, kept, "refused tgather run");
        tile_put(idx, 0, 1, 0);
        free(kept);
        pto_tile_destroy(out);
    }
    expect_program_refused("pto.tgather ins(%s, %i : !pto.tile_buf<vec, 2x4xi32>, !pto.tile_buf<vec, 2x3xf32>) "
                           "outs(%d : !pto.tile_buf<vec, 2x3xi32>)\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    print_message("[datamove] tgather: %zu calls (9 dtypes x 4 index dtypes), %zu elements as the definition, "
                  "its rules per profile, 3 text forms and 3 refused runs\n", calls, elements);
    free(before);
    pto_tile *all[] = {src, dst, idx, tmp, f, fidx, i16, narrow, wide, widx, i8, i8s, cidx, cdst, want};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* ---- tsetval / tgetval ----------------------------------------------------- */

static bool same_value(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static void test_tsetval_tgetval(void **state) {
    (void)state;
    rng r = {0x5E7};
    size_t sets = 0, gets = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        pto_tile *t = tile_new(dt, 5, 12, 4, 9);
        tile_fill(t, &r, GEN_ANY);
        /* tgetval: every valid element, exactly its value */
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 9; ++j) {
                double got = -12345;
                assert_int_equal(pto_tgetval(t, (size_t)i * 12 + j, &got), PTO_OK);
                const double want = ref_is_float(dt) ? ref_to_double(dt, tile_get(t, i, j))
                                                     : (double)ref_int_value(dt, tile_get(t, i, j));
                if (!same_value(got, want))
                    fail_msg("tgetval %s (%u,%u): %.17g, want %.17g", pto_dtype_string(dt), i, j, got, want);
                ++gets;
            }
        /* tsetval: values of the dtype (its edges and random ones), and for
         * float dtypes values that round; only the element changes */
        for (int v = 0; v < 40; ++v) {
            const uint32_t i = (uint32_t)(rng_next(&r) % 4), j = (uint32_t)(rng_next(&r) % 9);
            const uint32_t bits = gen_value(&r, dt, GEN_ANY);
            double value = ref_is_float(dt) ? ref_to_double(dt, bits) : (double)ref_int_value(dt, bits);
            if (ref_is_float(dt) && v % 5 == 4) value = value / 3.0 + 1e-3;
            uint32_t *before = tile_snapshot(t);
            assert_int_equal(pto_tsetval(t, (size_t)i * 12 + j, value), PTO_OK);
            const uint32_t want = ref_from_double(dt, value);
            const uint32_t got = tile_get(t, i, j);
            if (got != want && !(ref_is_float(dt) && isnan(value) && isnan(ref_to_double(dt, got))))
                fail_msg("tsetval %s %.17g: 0x%x, want 0x%x", pto_dtype_string(dt), value, got, want);
            before[(size_t)i * 12 + j] = got;
            assert_tile_unchanged(t, before, "tsetval's other elements");
            double back = 0;
            assert_int_equal(pto_tgetval(t, (size_t)i * 12 + j, &back), PTO_OK);
            assert_true(same_value(back, ref_is_float(dt) ? ref_to_double(dt, got) : (double)ref_int_value(dt, got)));
            free(before);
            ++sets;
        }
        pto_tile_destroy(t);
    }
    /* hand-computed: FLOAT16 1/3 rounds to 0x3555; INT8 -128; row 1 col 2 of 4 columns is index 6 */
    pto_tile *h = tile_new(PTO_FLOAT16, 2, 4, 2, 4), *b = tile_new(PTO_INT8, 2, 4, 2, 4);
    assert_int_equal(pto_tsetval(h, 6, 1.0 / 3.0), PTO_OK);
    assert_int_equal(tile_get(h, 1, 2), 0x3555);
    assert_int_equal(pto_tsetval(b, 7, -128), PTO_OK);
    assert_int_equal(tile_get(b, 1, 3), 0x80);
    double out = 0;
    assert_int_equal(pto_tgetval(b, 7, &out), PTO_OK);
    assert_true(out == -128.0);
    /* the rules, in order; nothing written on a refusal */
    assert_int_equal(pto_tile_set_valid(b, 1, 3), PTO_OK);
    uint32_t *before = tile_snapshot(b);
    assert_int_equal(pto_tsetval(NULL, 0, 0), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tsetval(b, 99, 300), PTO_ERR_INVALID_ARGUMENT); /* the value before the index */
    assert_non_null(strstr(pto_last_error(), "value 300"));
    assert_int_equal(pto_tsetval(b, 0, 1.5), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tsetval(b, 3, 1), PTO_ERR_OUT_OF_RANGE); /* col 3 of valid 3 */
    assert_non_null(strstr(pto_last_error(), "index 3 (row 0, col 3"));
    assert_int_equal(pto_tsetval(b, 4, 1), PTO_ERR_OUT_OF_RANGE); /* row 1 of valid 1 */
    assert_int_equal(pto_tsetval(b, (size_t)-1, 1), PTO_ERR_OUT_OF_RANGE);
    assert_tile_unchanged(b, before, "refused tsetval");
    out = 42;
    assert_int_equal(pto_tgetval(NULL, 0, &out), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tgetval(b, 0, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tgetval: out"));
    assert_int_equal(pto_tgetval(b, 3, &out), PTO_ERR_OUT_OF_RANGE);
    assert_true(out == 42); /* not written */
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        assert_int_equal(pto_tsetval(b, 2, -5), PTO_OK);
        assert_int_equal(pto_tgetval(b, 2, &out), PTO_OK);
        assert_true(out == -5);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* programs: an element read into a scalar and written into another tile
     * (tgetval, tsetval), equal to the C calls; offsets out of range refuse
     * the run */
    static const char kCopy[] =
        "func.func @k(%%s : !pto.tile_buf<vec, 4x8x%s>, %%i : index, %%j : index, %%d : !pto.tile_buf<vec, 4x8x%s>) {\n"
        "  %%v = pto.tgetval ins(%%s, %%i : !pto.tile_buf<vec, 4x8x%s>, index) outs : %s\n"
        "  pto.tsetval ins(%%j, %%v : index, %s) outs(%%d : !pto.tile_buf<vec, 4x8x%s>)\n  return\n}\n";
    size_t runs = 0;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        const char *t = dtype_spelling(dt);
        /* the scalar's type: a signless integer for an integer dtype */
        const char *st = ref_is_float(dt) ? t : pto_dtype_size(dt) == 1 ? "i8" : pto_dtype_size(dt) == 2 ? "i16" : "i32";
        char text[1024];
        snprintf(text, sizeof text, kCopy, t, t, t, st, st, t);
        pto_tile *s = tile_new(dt, 4, 8, 4, 8), *dp = tile_new(dt, 4, 8, 4, 8), *dc = tile_new(dt, 4, 8, 4, 8);
        tile_fill(s, &r, GEN_ANY);
        tile_fill(dp, &r, GEN_ANY);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j) tile_put(dc, i, j, tile_get(dp, i, j));
        double v = 0;
        assert_int_equal(pto_tgetval(s, 13, &v), PTO_OK);
        if (ref_is_float(dt) && isnan(v)) {
            tile_put(s, 1, 5, 0); /* a NaN's payload need not survive a scalar register */
            assert_int_equal(pto_tgetval(s, 13, &v), PTO_OK);
        }
        assert_int_equal(pto_tsetval(dc, 30, v), PTO_OK);
        static const char *const kNames[] = {"s", "d"};
        static const char *const kInts[] = {"i", "j"};
        pto_tile *tiles[] = {s, dp};
        const int64_t ints[] = {13, 30};
        const pto_status run = run_bound(text, kNames, tiles, 2, kInts, ints, 2);
        if (run != PTO_OK) fail_msg("%s: run %s (%s)", text, pto_status_string(run), pto_last_error());
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 8; ++j)
                if (tile_get(dp, i, j) != tile_get(dc, i, j))
                    fail_msg("%s program: (%u,%u) 0x%x, the C calls 0x%x", t, i, j, tile_get(dp, i, j), tile_get(dc, i, j));
        ++runs;
        uint32_t *kept = tile_snapshot(dp);
        const int64_t far[] = {32, 0}, past[] = {0, 32}, negative[] = {-1, 0};
        assert_int_equal(run_bound(text, kNames, tiles, 2, kInts, far, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tgetval"));
        assert_int_equal(run_bound(text, kNames, tiles, 2, kInts, past, 2), PTO_ERR_OUT_OF_RANGE);
        assert_non_null(strstr(pto_last_error(), "pto_tsetval"));
        assert_int_equal(run_bound(text, kNames, tiles, 2, kInts, negative, 2), PTO_ERR_OUT_OF_RANGE);
        assert_tile_unchanged(dp, kept, "refused tgetval/tsetval run");
        free(kept);
        pto_tile_destroy(s);
        pto_tile_destroy(dp);
        pto_tile_destroy(dc);
    }
    expect_program_refused("func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %i : index) {\n"
                           "  %v = pto.tgetval ins(%s, %i : !pto.tile_buf<vec, 4x8xf32>, index) outs : f16\n"
                           "  return\n}\n",
                           PTO_ERR_DTYPE_MISMATCH);
    expect_program_refused("%i = arith.constant 0 : index\n%v = arith.constant 1.0 : f32\n"
                           "%d = pto.tsetval %i, %v : (index, f32) -> !pto.tile<4x8xf32>\n",
                           PTO_ERR_INVALID_ARGUMENT);
    print_message("[datamove] tsetval/tgetval: %zu sets and %zu gets as the reference over 9 dtypes, their rules, "
                  "%zu program copies equal to the C calls, 3 refused runs each\n", sets, gets, runs);
    free(before);
    pto_tile_destroy(h);
    pto_tile_destroy(b);
}

/* ---- programs: the three text forms ------------------------------------ */

static void test_program_forms(void **state) {
    (void)state;
    static const pto_dtype kForms[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT8, PTO_UINT16, PTO_INT32};
    rng r = {0x7E};
    size_t runs = 0;
    for (size_t k = 0; k < COUNT(kForms); ++k) {
        const pto_dtype dt = kForms[k];
        const char *t = dtype_spelling(dt);
        for (int pad = PTO_PAD_ZERO; pad <= PTO_PAD_MIN; ++pad) {
            pto_tile *s = tile_new(dt, 5, 24, 3, 7);
            tile_fill(s, &r, GEN_ANY);
            uint32_t *bits = tile_snapshot(s);
            char texts[4][640];
            snprintf(texts[0], sizeof texts[0],
                     "%%d = tfillpad %%s : !pto.tile<5x24x%s, valid=3x7> -> !pto.tile<5x24x%s, pad=%d>\n",
                     t, t, pad);
            snprintf(texts[1], sizeof texts[1],
                     "%%d = pto.tfillpad %%s : (!pto.tile<5x24x%s, valid=3x7>) -> "
                     "!pto.tile<5x24x%s, valid=5x24, pad=%d>\n",
                     t, t, pad);
            snprintf(texts[2], sizeof texts[2],
                     "pto.tfillpad ins(%%s : !pto.tile_buf<vec, 5x24x%s, valid=3x7>) "
                     "outs(%%d : !pto.tile_buf<vec, 5x24x%s, pad=%d>)\n",
                     t, t, pad);
            snprintf(texts[3], sizeof texts[3],
                     "pto.tfillpad ins(%%s : !pto.tile_buf<loc=vec, dtype=%s, rows=5, cols=24, v_row=3, "
                     "v_col=7, blayout=row_major, slayout=none_box, fractal=512, pad=0>) "
                     "outs(%%d : !pto.tile_buf<loc=vec, dtype=%s, rows=5, cols=24, v_row=5, v_col=24, "
                     "blayout=row_major, slayout=none_box, fractal=512, pad=%d>)\n",
                     t, t, pad);
            for (size_t f = 0; f < COUNT(texts); ++f) {
                pto_tile *d = tile_new(dt, 5, 24, 5, 24);
                tile_fill(d, &r, GEN_ANY);
                const pto_status st = run_snippet_sd(texts[f], s, d);
                if (st != PTO_OK) fail_msg("%s: %s (%s)", texts[f], pto_status_string(st), pto_last_error());
                expect_filled(d, bits, 24, 3, 7, (pto_pad_value)pad, texts[f]);
                ++runs;
                pto_tile_destroy(d);
            }
            free(bits);
            pto_tile_destroy(s);
        }
    }
    /* refusals: dst's pad null (the C call's rule), a pad outside 0..3, a
     * source wider than dst's shape, A5's equal shapes */
    static const char *const kBad[] = {
        "pto.tfillpad ins(%s : !pto.tile_buf<vec, 4x8xf32>) outs(%d : !pto.tile_buf<vec, 4x8xf32>)\n",
        "%d = pto.tfillpad %s : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xf32, pad=0>\n",
        "pto.tfillpad ins(%s : !pto.tile_buf<vec, 4x8xf32>) outs(%d : !pto.tile_buf<vec, 4x8xf32, pad=4>)\n",
        "%d = pto.tfillpad %s : (!pto.tile<4x9xf32>) -> !pto.tile<4x8xf32, pad=1>\n",
        "%d = pto.tfillpad %s : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xf16, pad=1>\n",
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "func.func @k(%s : !pto.tile_buf<vec, 4x8xf32>, %d : !pto.tile_buf<vec, 4x16xf32, pad=2>) {\n"
        "  pto.tfillpad ins(%s : !pto.tile_buf<vec, 4x8xf32>) outs(%d : !pto.tile_buf<vec, 4x16xf32, pad=2>)\n"
        "  return\n}\n}\n",
    };
    static const pto_status kBadStatus[] = {PTO_ERR_INVALID_ARGUMENT, PTO_ERR_INVALID_ARGUMENT,
                                            PTO_ERR_INVALID_ARGUMENT, PTO_ERR_SHAPE_MISMATCH,
                                            PTO_ERR_DTYPE_MISMATCH,   PTO_ERR_SHAPE_MISMATCH};
    for (size_t k = 0; k < COUNT(kBad); ++k) expect_program_refused(kBad[k], kBadStatus[k]);
    print_message("[datamove] tfillpad: %zu program runs matched the reference (4 spellings), %zu texts refused\n",
                  runs, COUNT(kBad));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_values),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_program_forms),
        cmocka_unit_test(test_tci_values),
        cmocka_unit_test(test_tci_rules),
        cmocka_unit_test(test_tci_program_forms),
        cmocka_unit_test(test_treshape),
        cmocka_unit_test(test_ttrans),
        cmocka_unit_test(test_tconcat),
        cmocka_unit_test(test_textract),
        cmocka_unit_test(test_tgather),
        cmocka_unit_test(test_tsetval_tgetval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
