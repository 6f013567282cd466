/* TFILLPAD: every dtype and pad value over shapes where the source's valid
 * region is empty, a corner, a band of rows or columns, or the whole tile,
 * into a dst of the same or a larger shape, in place and placed exactly on
 * dst; every element of dst compared with a reference built here from the
 * pad values' bit patterns (pto-isa's PadValueMap, written out per dtype);
 * the rules in the contract's order with the profile's shape rule; the
 * three text forms and both tile_buf spellings of `pad=`.
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
    default: break; /* tfillpad takes the nine above */
    }
    return 0;
}

/* Every element of dst after tfillpad of a source whose valid elements were
 * src_bits (vr x vc, row stride src_cols). */
static void expect_filled(const pto_tile *dst, const uint64_t *src_bits, uint32_t src_cols,
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
                uint64_t *src_bits = tile_snapshot(src);
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
    uint64_t *before_dst = dst ? tile_snapshot(dst) : NULL;
    uint64_t *before_src = src ? tile_snapshot(src) : NULL;
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
    uint64_t *bits = tile_snapshot(i32);
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
                    uint64_t *sb = tile_snapshot(cs);
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
            uint64_t *bits = tile_snapshot(s);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
