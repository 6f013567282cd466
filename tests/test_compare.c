/* TCMP, TCMPS, TSEL and TSELS against references written here: a compare
 * decodes both elements exactly to double and compares there (IEEE: NaN
 * unordered, -0 == +0), a select picks bits by the mask bit read with shifts.
 * Every dtype and mode on every SIMD target, through padded tiles whose
 * widths are and are not multiples of 8 (the mask's last byte keeps the
 * bits of absent columns 0), values with NaN, infinities, both zeros and
 * many equal pairs; the scalar forms with exact and rounded scalars; selects
 * in place; then the rules (NULLs, modes, dtypes per profile and A2A3's
 * INT32 modes, mask dtype and shape, scalars, aliasing, A2A3's tmp), each
 * refusal leaving every operand unchanged; then the text forms against the C
 * calls.
 *
 * Under emulation (PTO_TEST_UNDER_QEMU, PTO_TEST_UNDER_VALGRIND) the value
 * sweeps take three widths instead of seven. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,    PTO_UINT8,    PTO_INT16,   PTO_UINT16,
                                    PTO_INT32,   PTO_UINT32,   PTO_FLOAT16, PTO_BFLOAT16,
                                    PTO_FLOAT32, PTO_INT64,    PTO_UINT64};
static const pto_cmp_mode kModes[] = {PTO_CMP_EQ, PTO_CMP_NE, PTO_CMP_LT,
                                      PTO_CMP_GT, PTO_CMP_GE, PTO_CMP_LE};
static const uint32_t kWidths[] = {1, 7, 8, 13, 64, 67, 300};
static const uint32_t kEmulatedWidths[] = {7, 64, 67};

static uint32_t mask_bytes(uint32_t cols) { return (cols + 7) / 8; }

static size_t width_count(void) { return under_emulation() ? COUNT(kEmulatedWidths) : COUNT(kWidths); }
static uint32_t width_at(size_t k) { return under_emulation() ? kEmulatedWidths[k] : kWidths[k]; }

/* The reference compare: exact values, IEEE's unordered NaN. */
static bool ref_compare(pto_cmp_mode mode, double a, double b) {
    if (isnan(a) || isnan(b)) return mode == PTO_CMP_NE;
    switch (mode) {
    case PTO_CMP_EQ: return a == b;
    case PTO_CMP_NE: return a != b;
    case PTO_CMP_LT: return a < b;
    case PTO_CMP_GT: return a > b;
    case PTO_CMP_GE: return a >= b;
    case PTO_CMP_LE: return a <= b;
    }
    return false;
}

static double value_of(pto_dtype dt, uint64_t bits) { return ref_to_double(dt, bits); }

/* The reference compare of two elements of dt: floats by their exact
 * values (ref_compare), integers as integers (an 8-byte one need not be a
 * double exactly). */
static bool compare_elements(pto_cmp_mode mode, pto_dtype dt, uint64_t a, uint64_t b) {
    if (ref_is_float(dt)) return ref_compare(mode, value_of(dt, a), value_of(dt, b));
    const bool lt = ref_int_less(dt, a, b), gt = ref_int_less(dt, b, a);
    switch (mode) {
    case PTO_CMP_EQ: return !lt && !gt;
    case PTO_CMP_NE: return lt || gt;
    case PTO_CMP_LT: return lt;
    case PTO_CMP_GT: return gt;
    case PTO_CMP_GE: return !lt;
    case PTO_CMP_LE: return !gt;
    }
    return false;
}

/* Fills src0 and src1 (same shape) so that about a third of the pairs are
 * equal, some are +0 / -0, and the rest random (specials included). */
static void fill_pair(rng *r, pto_dtype dt, pto_tile *src0, pto_tile *src1) {
    tile_fill(src0, r, GEN_ANY);
    tile_fill(src1, r, GEN_ANY);
    const uint32_t rows = pto_tile_valid_rows(src0), cols = pto_tile_valid_cols(src0);
    const uint64_t sign = UINT64_C(1) << (ref_bits(dt) - 1);
    for (uint32_t i = 0; i < rows; ++i) {
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t pick = rng_below(r, 6);
            if (pick < 2) tile_put(src1, i, j, tile_get(src0, i, j));
            if (pick == 2 && ref_is_float(dt)) {
                tile_put(src0, i, j, 0);
                tile_put(src1, i, j, sign);
            }
        }
    }
}

/* The mask tile: padded on both sides of its valid region with a pattern
 * that must survive. */
static pto_tile *mask_new(uint32_t rows, uint32_t cols) {
    pto_tile *m = tile_new(PTO_UINT8, rows + 1, mask_bytes(cols) + 3, rows, mask_bytes(cols));
    for (uint32_t i = 0; i < rows + 1; ++i)
        for (uint32_t j = 0; j < mask_bytes(cols) + 3; ++j) tile_put(m, i, j, 0xA5);
    return m;
}

/* Checks mask against the reference results want[i * cols + j] and that
 * every byte outside its valid region still holds the pattern. */
static void check_mask(const pto_tile *m, const bool *want, uint32_t rows, uint32_t cols,
                       const char *what) {
    for (uint32_t i = 0; i < pto_tile_rows(m); ++i) {
        for (uint32_t k = 0; k < pto_tile_cols(m); ++k) {
            const uint32_t got = tile_get(m, i, k);
            uint32_t expect = 0xA5;
            if (i < rows && k < mask_bytes(cols)) {
                expect = 0;
                for (uint32_t b = 0; b < 8 && 8 * k + b < cols; ++b)
                    if (want[(size_t)i * cols + 8 * k + b]) expect |= 1u << b;
            }
            if (got != expect) {
                fail_msg("%s: mask byte (%u, %u) is 0x%02x, expected 0x%02x", what, i, k, got,
                         expect);
            }
        }
    }
}

typedef struct {
    rng r;
} sweep_ctx;

static void compare_body(void *vctx, size_t target_index, const char *target) {
    (void)target_index;
    sweep_ctx *ctx = vctx;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        for (size_t w = 0; w < width_count(); ++w) {
            const uint32_t rows = 3, cols = width_at(w);
            pto_tile *src0 = tile_new(dt, rows + 1, cols + 5, rows, cols);
            pto_tile *src1 = tile_new(dt, rows, cols, rows, cols);
            fill_pair(&ctx->r, dt, src0, src1);
            bool *want = malloc((size_t)rows * cols);
            for (size_t m = 0; m < COUNT(kModes); ++m) {
                const pto_cmp_mode mode = kModes[m];
                char what[96];
                /* tile-tile */
                pto_tile *mask = mask_new(rows, cols);
                for (uint32_t i = 0; i < rows; ++i)
                    for (uint32_t j = 0; j < cols; ++j)
                        want[(size_t)i * cols + j] =
                            compare_elements(mode, dt, tile_get(src0, i, j), tile_get(src1, i, j));
                assert_int_equal(pto_tcmp(mask, src0, src1, mode), PTO_OK);
                snprintf(what, sizeof what, "%s tcmp %s mode %d cols %u", target,
                         pto_dtype_string(dt), (int)mode, cols);
                check_mask(mask, want, rows, cols, what);
                /* tile-scalar: an element's value (exact: an 8-byte integer's
                 * low bits cleared, exact_scalar), and for floats a value
                 * rounded to the dtype, NaN and -0. */
                double scalars[4];
                size_t nscalars = 0;
                scalars[nscalars++] = value_of(dt, exact_scalar(dt, tile_get(src0, 1, cols / 2)));
                if (ref_is_float(dt)) {
                    scalars[nscalars++] = 0.1;
                    scalars[nscalars++] = NAN;
                    scalars[nscalars++] = -0.0;
                } else {
                    scalars[nscalars++] = ref_is_signed(dt) ? -1 : 1;
                }
                for (size_t s = 0; s < nscalars; ++s) {
                    double sc = scalars[s];
                    if (isnan(sc) && !ref_is_float(dt)) continue;
                    const uint64_t rounded = ref_from_double(dt, sc); /* an integer's exactly */
                    for (uint32_t i = 0; i < rows; ++i)
                        for (uint32_t j = 0; j < cols; ++j)
                            want[(size_t)i * cols + j] =
                                compare_elements(mode, dt, tile_get(src0, i, j), rounded);
                    pto_tile *smask = mask_new(rows, cols);
                    assert_int_equal(pto_tcmps(smask, src0, sc, mode), PTO_OK);
                    snprintf(what, sizeof what, "%s tcmps %s mode %d cols %u scalar %g", target,
                             pto_dtype_string(dt), (int)mode, cols, sc);
                    check_mask(smask, want, rows, cols, what);
                    pto_tile_destroy(smask);
                }
                pto_tile_destroy(mask);
            }
            free(want);
            pto_tile_destroy(src0);
            pto_tile_destroy(src1);
        }
    }
}

static void test_compare_values(void **state) {
    (void)state;
    sweep_ctx ctx = {{0x7C3A1}};
    for_each_target("tcmp and tcmps against exact compares", compare_body, &ctx);
}

static bool mask_bit(const pto_tile *mask, uint32_t i, uint32_t j) {
    return (tile_get(mask, i, j / 8) >> (j % 8)) & 1;
}

static void select_body(void *vctx, size_t target_index, const char *target) {
    (void)target_index;
    sweep_ctx *ctx = vctx;
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        const pto_dtype dt = kDtypes[d];
        for (size_t w = 0; w < width_count(); ++w) {
            const uint32_t rows = 3, cols = width_at(w);
            /* The mask is wider and taller than needed, its extra bits random. */
            pto_tile *mask = tile_new(PTO_UINT8, rows + 2, mask_bytes(cols) + 2, rows + 1,
                                      mask_bytes(cols) + 1);
            tile_fill(mask, &ctx->r, GEN_ANY);
            pto_tile *src0 = tile_new(dt, rows, cols + 3, rows, cols);
            pto_tile *src1 = tile_new(dt, rows + 2, cols, rows, cols);
            tile_fill(src0, &ctx->r, GEN_ANY);
            tile_fill(src1, &ctx->r, GEN_ANY);
            char what[96];
            for (int form = 0; form < 4; ++form) {
                /* 0: tsel into a new tile; 1: tsel in place on src0; 2: in place
                 * on src1; 3: tsels. */
                pto_tile *a = tile_new(dt, rows, cols + 3, rows, cols);
                pto_tile *b = tile_new(dt, rows + 2, cols, rows, cols);
                for (uint32_t i = 0; i < rows; ++i)
                    for (uint32_t j = 0; j < cols; ++j) {
                        tile_put(a, i, j, tile_get(src0, i, j));
                        tile_put(b, i, j, tile_get(src1, i, j));
                    }
                pto_tile *dst = form == 1 ? a : form == 2 ? b : tile_new(dt, rows + 1, cols + 2, rows, cols);
                uint64_t *before = tile_snapshot(dst);
                const double scalar = ref_is_float(dt) ? -2.5 : (ref_is_signed(dt) ? -7 : 9);
                const uint64_t scalar_bits = ref_from_double(dt, scalar);
                if (form == 3)
                    assert_int_equal(pto_tsels(dst, mask, a, NULL, scalar), PTO_OK);
                else
                    assert_int_equal(pto_tsel(dst, mask, a, b, NULL), PTO_OK);
                snprintf(what, sizeof what, "%s %s form %d cols %u", target, pto_dtype_string(dt),
                         form, cols);
                for (uint32_t i = 0; i < pto_tile_rows(dst); ++i) {
                    for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
                        uint64_t expect = before[(size_t)i * pto_tile_cols(dst) + j];
                        if (i < rows && j < cols) {
                            expect = mask_bit(mask, i, j) ? tile_get(src0, i, j)
                                     : form == 3          ? scalar_bits
                                                          : tile_get(src1, i, j);
                        }
                        if (tile_get(dst, i, j) != expect)
                            fail_msg("%s: dst (%u, %u) is 0x%" PRIx64 ", expected 0x%" PRIx64, what, i, j,
                                     tile_get(dst, i, j), expect);
                    }
                }
                free(before);
                if (form == 0 || form == 3) pto_tile_destroy(dst);
                pto_tile_destroy(a);
                pto_tile_destroy(b);
            }
            pto_tile_destroy(mask);
            pto_tile_destroy(src0);
            pto_tile_destroy(src1);
        }
    }
}

static void test_select_values(void **state) {
    (void)state;
    sweep_ctx ctx = {{0x5E1EC7}};
    for_each_target("tsel and tsels bit for bit", select_body, &ctx);
}

/* tcmp then tsel: max(a, b) by mask, NaN-free floats. */
static void test_compare_then_select(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT32, 2, 20, 2, 20);
    pto_tile *b = tile_new(PTO_FLOAT32, 2, 20, 2, 20);
    pto_tile *m = tile_new(PTO_UINT8, 2, 3, 2, 3);
    pto_tile *d = tile_new(PTO_FLOAT32, 2, 20, 2, 20);
    float va[40], vb[40], vd[40];
    for (int k = 0; k < 40; ++k) {
        va[k] = (float)((k * 7) % 11) - 5.0f;
        vb[k] = (float)((k * 3) % 13) - 6.0f;
    }
    assert_int_equal(pto_tile_write_f32(a, va, 40), PTO_OK);
    assert_int_equal(pto_tile_write_f32(b, vb, 40), PTO_OK);
    assert_int_equal(pto_tcmp(m, a, b, PTO_CMP_GE), PTO_OK);
    assert_int_equal(pto_tsel(d, m, a, b, NULL), PTO_OK);
    assert_int_equal(pto_tile_read_f32(d, vd, 40), PTO_OK);
    for (int k = 0; k < 40; ++k) assert_true(vd[k] == fmaxf(va[k], vb[k]));
    /* 20 columns: the last byte of each row holds 4 bits, its upper 4 are 0. */
    for (uint32_t i = 0; i < 2; ++i) assert_int_equal(tile_get(m, i, 2) & 0xF0, 0);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(m);
    pto_tile_destroy(d);
}

/* Every operand unchanged after a refused call. */
typedef struct {
    pto_tile *t[5];
    uint64_t *snap[5];
} frozen;
static void freeze(frozen *f, pto_tile *a, pto_tile *b, pto_tile *c, pto_tile *d, pto_tile *e) {
    pto_tile *ts[5] = {a, b, c, d, e};
    for (int k = 0; k < 5; ++k) {
        f->t[k] = ts[k];
        f->snap[k] = ts[k] ? tile_snapshot(ts[k]) : NULL;
    }
}
static void thaw(frozen *f) {
    for (int k = 0; k < 5; ++k) {
        if (!f->t[k]) continue;
        assert_tile_unchanged(f->t[k], f->snap[k], "operand of a refused call");
        free(f->snap[k]);
    }
}

#define EXPECT(call, status, text)                                                   \
    do {                                                                             \
        const pto_status got_ = (call);                                              \
        if (got_ != (status) || strstr(pto_last_error(), (text)) == NULL)            \
            fail_msg("%s: %s (%s), expected %s with \"%s\"", #call,                  \
                     pto_status_string(got_), pto_last_error(), pto_status_string(status), \
                     text);                                                          \
    } while (0)

static void test_rules(void **state) {
    (void)state;
    rng r = {0xC0FFEE};
    pto_tile *f32a = tile_new(PTO_FLOAT32, 4, 20, 4, 20);
    pto_tile *f32b = tile_new(PTO_FLOAT32, 4, 20, 4, 20);
    pto_tile *f32c = tile_new(PTO_FLOAT32, 4, 20, 4, 20);
    pto_tile *i32a = tile_new(PTO_INT32, 4, 20, 4, 20);
    pto_tile *i32b = tile_new(PTO_INT32, 4, 20, 4, 20);
    pto_tile *u8a = tile_new(PTO_UINT8, 4, 20, 4, 20);
    pto_tile *u8b = tile_new(PTO_UINT8, 4, 20, 4, 20);
    pto_tile *bf = tile_new(PTO_BFLOAT16, 4, 20, 4, 20);
    pto_tile *bf2 = tile_new(PTO_BFLOAT16, 4, 20, 4, 20);
    pto_tile *mask = tile_new(PTO_UINT8, 4, 3, 4, 3);
    pto_tile *mask_i8 = tile_new(PTO_INT8, 4, 3, 4, 3);
    pto_tile *small = tile_new(PTO_UINT8, 4, 2, 4, 2);
    pto_tile *tmp32 = tile_new(PTO_UINT32, 1, 16, 1, 16);
    pto_tile *tmpf = tile_new(PTO_FLOAT32, 1, 16, 1, 16);
    tile_fill(f32a, &r, GEN_ANY);
    tile_fill(f32b, &r, GEN_ANY);
    tile_fill(mask, &r, GEN_ANY);
    frozen fz;

    freeze(&fz, mask, f32a, f32b, NULL, NULL);
    EXPECT(pto_tcmp(NULL, f32a, f32b, PTO_CMP_EQ), PTO_ERR_NULL_ARGUMENT, "pto_tcmp: dst");
    EXPECT(pto_tcmp(mask, f32a, NULL, PTO_CMP_EQ), PTO_ERR_NULL_ARGUMENT, "src1");
    EXPECT(pto_tcmp(mask, f32a, f32b, (pto_cmp_mode)6), PTO_ERR_INVALID_ARGUMENT, "mode");
    EXPECT(pto_tcmp(mask, f32a, f32b, (pto_cmp_mode)-1), PTO_ERR_INVALID_ARGUMENT, "mode");
    EXPECT(pto_tcmp(mask_i8, f32a, f32b, PTO_CMP_EQ), PTO_ERR_UNSUPPORTED_DTYPE, "dst dtype INT8");
    EXPECT(pto_tcmp(mask, f32a, i32a, PTO_CMP_EQ), PTO_ERR_DTYPE_MISMATCH, "src1");
    EXPECT(pto_tcmp(small, f32a, f32b, PTO_CMP_EQ), PTO_ERR_SHAPE_MISMATCH, "4x3");
    EXPECT(pto_tcmps(mask, f32a, 1.0, (pto_cmp_mode)9), PTO_ERR_INVALID_ARGUMENT, "mode");
    EXPECT(pto_tcmps(small, f32a, 1.0, PTO_CMP_LT), PTO_ERR_SHAPE_MISMATCH, "pto_tcmps");
    thaw(&fz);

    /* INT32 scalars must be integers in range. */
    freeze(&fz, mask, i32a, NULL, NULL, NULL);
    EXPECT(pto_tcmps(mask, i32a, 0.5, PTO_CMP_EQ), PTO_ERR_INVALID_ARGUMENT, "scalar");
    EXPECT(pto_tcmps(mask, i32a, 4294967296.0, PTO_CMP_EQ), PTO_ERR_INVALID_ARGUMENT, "scalar");
    EXPECT(pto_tcmps(mask, i32a, NAN, PTO_CMP_EQ), PTO_ERR_INVALID_ARGUMENT, "scalar");
    thaw(&fz);

    /* A mask sharing the source's storage. */
    pto_tile *u8_1 = tile_new(PTO_UINT8, 4, 1, 4, 1);
    EXPECT(pto_tcmp(u8_1, u8_1, u8_1, PTO_CMP_EQ), PTO_ERR_ALIASING, "src0");

    /* Profiles: A2A3's INT32 modes and dtype lists. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    freeze(&fz, mask, i32a, i32b, NULL, NULL);
    assert_int_equal(pto_tcmp(mask, i32a, i32b, PTO_CMP_EQ), PTO_OK);
    assert_int_equal(pto_tcmp(mask, i32a, i32b, PTO_CMP_NE), PTO_OK);
    assert_int_equal(pto_tcmps(mask, i32a, 3, PTO_CMP_NE), PTO_OK);
    free(fz.snap[0]);
    fz.snap[0] = tile_snapshot(mask);
    EXPECT(pto_tcmp(mask, i32a, i32b, PTO_CMP_LT), PTO_ERR_UNSUPPORTED_DTYPE, "PTO_CMP_LT");
    EXPECT(pto_tcmps(mask, i32a, 3, PTO_CMP_GE), PTO_ERR_UNSUPPORTED_DTYPE, "PTO_CMP_GE");
    thaw(&fz);
    freeze(&fz, mask, u8a, u8b, bf, f32c);
    EXPECT(pto_tcmp(mask, u8a, u8b, PTO_CMP_EQ), PTO_ERR_UNSUPPORTED_DTYPE, "on A2A3");
    EXPECT(pto_tcmps(mask, bf, 1.0, PTO_CMP_EQ), PTO_ERR_UNSUPPORTED_DTYPE, "on A2A3");
    /* A2A3's tsel: tmp required, UINT32, distinct. */
    EXPECT(pto_tsel(f32c, mask, f32a, f32b, NULL), PTO_ERR_NULL_ARGUMENT, "tmp");
    EXPECT(pto_tsel(f32c, mask, f32a, f32b, tmpf), PTO_ERR_UNSUPPORTED_DTYPE, "tmp dtype");
    EXPECT(pto_tsel(u8a, mask, u8b, u8b, tmp32), PTO_ERR_UNSUPPORTED_DTYPE, "dst dtype UINT8");
    EXPECT(pto_tsels(f32c, mask, f32a, tmp32, 1.0), PTO_ERR_DTYPE_MISMATCH, "tmp");
    thaw(&fz);
    assert_int_equal(pto_tsel(f32c, mask, f32a, f32b, tmp32), PTO_OK);
    assert_int_equal(pto_tsels(f32c, mask, f32a, tmpf, 1.0), PTO_OK);
    EXPECT(pto_tsel(f32c, mask, f32a, f32b, f32c), PTO_ERR_UNSUPPORTED_DTYPE, "tmp dtype");

    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tcmp(mask, u8a, u8b, PTO_CMP_LT), PTO_OK);
    assert_int_equal(pto_tcmp(mask, i32a, i32b, PTO_CMP_LT), PTO_OK);
    assert_int_equal(pto_tsel(f32c, mask, f32a, f32b, NULL), PTO_OK);
    freeze(&fz, bf, bf2, mask, NULL, NULL);
    EXPECT(pto_tsels(bf, mask, bf2, NULL, 1.0), PTO_ERR_UNSUPPORTED_DTYPE, "on A5");
    thaw(&fz);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_tsels(bf, mask, bf2, NULL, 1.0), PTO_OK);

    /* Selects: NULLs, dtypes, mask, shapes, aliasing. */
    freeze(&fz, f32c, mask, f32a, f32b, NULL);
    EXPECT(pto_tsel(f32c, NULL, f32a, f32b, NULL), PTO_ERR_NULL_ARGUMENT, "mask");
    EXPECT(pto_tsel(f32c, mask, f32a, i32a, NULL), PTO_ERR_DTYPE_MISMATCH, "src1");
    EXPECT(pto_tsel(f32c, mask_i8, f32a, f32b, NULL), PTO_ERR_UNSUPPORTED_DTYPE, "mask dtype");
    EXPECT(pto_tsel(f32c, small, f32a, f32b, NULL), PTO_ERR_SHAPE_MISMATCH, "mask valid region");
    EXPECT(pto_tsels(f32c, small, f32a, NULL, 0), PTO_ERR_SHAPE_MISMATCH, "mask valid region");
    EXPECT(pto_tsels(i32a, mask, i32b, NULL, 0.25), PTO_ERR_INVALID_ARGUMENT, "scalar");
    pto_tile *f32_short = tile_new(PTO_FLOAT32, 4, 20, 3, 20);
    EXPECT(pto_tsel(f32c, mask, f32_short, f32b, NULL), PTO_ERR_SHAPE_MISMATCH, "src0");
    thaw(&fz);
    /* A UINT8 dst that is the mask itself. */
    pto_tile *u8_sq = tile_new(PTO_UINT8, 4, 20, 4, 20);
    EXPECT(pto_tsel(u8_sq, u8_sq, u8a, u8b, NULL), PTO_ERR_ALIASING, "mask");

    pto_tile *all[] = {f32a, f32b, f32c, i32a, i32b, u8a, u8b, bf, bf2, mask, mask_i8,
                       small, tmp32, tmpf, u8_1, f32_short, u8_sq};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
}

/* An empty compared region writes nothing and succeeds. */
static void test_empty(void **state) {
    (void)state;
    pto_tile *src = tile_new(PTO_FLOAT32, 2, 8, 0, 8);
    pto_tile *mask = tile_new(PTO_UINT8, 2, 1, 0, 1);
    tile_put(mask, 0, 0, 0x5A);
    assert_int_equal(pto_tcmp(mask, src, src, PTO_CMP_EQ), PTO_OK);
    assert_int_equal(pto_tcmps(mask, src, 0, PTO_CMP_EQ), PTO_OK);
    assert_int_equal(tile_get(mask, 0, 0), 0x5A);
    pto_tile_destroy(src);
    pto_tile_destroy(mask);
}

/* The text forms against the C calls: PTOAS's DPS form with `#pto<cmp xx>`,
 * the pages' SSA forms with `#pto.cmp<XX>` and their shorthand; the masks as
 * PTOAS declares them, i8 tiles of the sources' shape whose first
 * ceil(C / 8) bytes a row hold the bits; tsel and tsels with and without
 * PTOAS's tmp; under A2A3 (tsel's scratch given by the program); the
 * refusals (an unknown mode, a mask that is not 8-bit, A5's shape rule). */
static const char *const kModeText[] = {"eq", "ne", "lt", "gt", "ge", "le"}; /* kModes' order */
static const char *const kModeTextUpper[] = {"EQ", "NE", "LT", "GT", "GE", "LE"};

#define TB_F32 "!pto.tile_buf<vec, 3x20xf32>"
#define TB_I8 "!pto.tile_buf<vec, 3x20xi8>"
#define T_F32 "!pto.tile<3x20xf32>"
#define T_I8 "!pto.tile<3x20xi8>"

/* The packed bytes of `got` (an i8 tile of the sources' shape) equal the C
 * call's mask `want`. */
static void expect_mask(const char *text, const pto_tile *got, const pto_tile *want) {
    for (uint32_t i = 0; i < pto_tile_valid_rows(want); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(want); ++j)
            if (tile_get(got, i, j) != tile_get(want, i, j))
                fail_msg("%s: mask byte (%u,%u) 0x%x, the C call's 0x%x", text, i, j, tile_get(got, i, j),
                         tile_get(want, i, j));
}

static void expect_same_tile(const char *text, const pto_tile *got, const pto_tile *want) {
    for (uint32_t i = 0; i < pto_tile_valid_rows(want); ++i)
        for (uint32_t j = 0; j < pto_tile_valid_cols(want); ++j)
            if (tile_get(got, i, j) != tile_get(want, i, j))
                fail_msg("%s: (%u,%u) 0x%x, the C call's 0x%x", text, i, j, tile_get(got, i, j), tile_get(want, i, j));
}

static void test_program_forms(void **state) {
    (void)state;
    rng r = {0xC0DE7E};
    size_t runs = 0;
    const uint32_t R = 3, C = 20, M = 3;
    pto_tile *a = tile_new(PTO_FLOAT32, R, C, R, C), *b = tile_new(PTO_FLOAT32, R, C, R, C);
    pto_tile *want = tile_new(PTO_UINT8, R, M, R, M), *got = tile_new(PTO_INT8, R, C, R, C);
    const char *const ab_d[] = {"a", "b", "d"};
    pto_tile *const ab_got[] = {a, b, got};
    for (int profile = 0; profile < 2; ++profile) {
        assert_int_equal(pto_set_profile(profile ? PTO_PROFILE_A2A3 : PTO_PROFILE_HOST), PTO_OK);
        for (size_t k = 0; k < COUNT(kModes); ++k) {
            fill_pair(&r, PTO_FLOAT32, a, b);
            char text[3][512];
            snprintf(text[0], sizeof text[0],
                     "pto.tcmp ins(%%a, %%b {cmpMode = #pto<cmp %s>} : " TB_F32 ", " TB_F32 ") outs(%%d : " TB_I8 ")\n",
                     kModeText[k]);
            snprintf(text[1], sizeof text[1], "%%d = tcmp %%a, %%b {cmpMode = #pto.cmp<%s>} : " T_F32 " -> " T_I8 "\n",
                     kModeTextUpper[k]);
            snprintf(text[2], sizeof text[2],
                     "%%d = pto.tcmp %%a, %%b {cmpMode = #pto<cmp %s>} : (" T_F32 ", " T_F32 ") -> " T_I8 "\n",
                     kModeText[k]);
            assert_int_equal(pto_tcmp(want, a, b, kModes[k]), PTO_OK);
            for (size_t f = 0; f < COUNT(text); ++f, ++runs) {
                assert_int_equal(run_snippet_tiles(text[f], 3, ab_d, ab_got), PTO_OK);
                expect_mask(text[f], got, want);
            }
            /* tcmps against 0.25, in the DPS and SSA forms */
            snprintf(text[0], sizeof text[0],
                     "%%c = arith.constant 0.25 : f32\n"
                     "pto.tcmps ins(%%a, %%c {cmpMode = #pto<cmp %s>} : " TB_F32 ", f32) outs(%%d : " TB_I8 ")\n",
                     kModeText[k]);
            snprintf(text[1], sizeof text[1],
                     "%%c = arith.constant 0.25 : f32\n"
                     "%%d = pto.tcmps %%a, %%c {cmpMode = #pto.cmp<%s>} : (" T_F32 ", f32) -> " T_I8 "\n",
                     kModeTextUpper[k]);
            snprintf(text[2], sizeof text[2],
                     "%%c = arith.constant 0.25 : f32\n"
                     "%%d = tcmps %%a, %%c {cmpMode = #pto.cmp<%s>} : " T_F32 " -> " T_I8 "\n",
                     kModeTextUpper[k]);
            assert_int_equal(pto_tcmps(want, a, 0.25, kModes[k]), PTO_OK);
            const char *const a_d[] = {"a", "d"};
            pto_tile *const a_got[] = {a, got};
            for (size_t f = 0; f < COUNT(text); ++f, ++runs) {
                assert_int_equal(run_snippet_tiles(text[f], 2, a_d, a_got), PTO_OK);
                expect_mask(text[f], got, want);
            }
        }
        /* tsel and tsels on the mask of a > b, spelt as PTOAS's i8 tile */
        fill_pair(&r, PTO_FLOAT32, a, b);
        assert_int_equal(pto_tcmp(want, a, b, PTO_CMP_GT), PTO_OK);
        pto_tile *m = tile_new(PTO_INT8, R, C, R, C), *d = tile_new(PTO_FLOAT32, R, C, R, C);
        pto_tile *wd = tile_new(PTO_FLOAT32, R, C, R, C), *tmp = tile_new(PTO_UINT32, 1, 8, 1, 8);
        for (uint32_t i = 0; i < R; ++i)
            for (uint32_t j = 0; j < C; ++j) tile_put(m, i, j, j < M ? tile_get(want, i, j) : 0x5A);
        assert_int_equal(pto_tsel(wd, want, a, b, tmp), PTO_OK);
        const char *sel[] = {
            "%t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xi8>\n"
            "pto.tsel ins(%m, %a, %b, %t : " TB_I8 ", " TB_F32 ", " TB_F32 ", !pto.tile_buf<vec, 1x64xi8>) outs(%d : " TB_F32 ")\n",
            "pto.tsel ins(%m, %a, %b : " TB_I8 ", " TB_F32 ", " TB_F32 ") outs(%d : " TB_F32 ")\n",
            "%d = pto.tsel %m, %a, %b : (" T_I8 ", " T_F32 ", " T_F32 ") -> " T_F32 "\n",
        };
        const char *const mab_d[] = {"m", "a", "b", "d"};
        pto_tile *const mab_got[] = {m, a, b, d};
        for (size_t f = 0; f < COUNT(sel); ++f, ++runs) {
            assert_int_equal(run_snippet_tiles(sel[f], 4, mab_d, mab_got), PTO_OK);
            expect_same_tile(sel[f], d, wd);
        }
        /* the pages' shorthand, the mask computed in the program */
        const char *chain = "%m = tcmp %a, %b {cmpMode = #pto.cmp<GT>} : " T_F32 " -> " T_I8 "\n"
                            "%d = tsel %m, %a, %b : " T_F32 "\n";
        assert_int_equal(run_snippet_tiles(chain, 4, mab_d, mab_got), PTO_OK);
        expect_same_tile(chain, d, wd);
        expect_mask(chain, m, want);
        ++runs;
        for (uint32_t i = 0; i < R; ++i)
            for (uint32_t j = 0; j < C; ++j) tile_put(m, i, j, j < M ? tile_get(want, i, j) : 0x5A);
        pto_tile *stmp = tile_new(PTO_FLOAT32, R, C, R, C);
        assert_int_equal(pto_tsels(wd, want, a, stmp, -1.5), PTO_OK);
        const char *sels[] = {
            "%c = arith.constant -1.5 : f32\n%t = pto.alloc_tile : " TB_F32 "\n"
            "pto.tsels ins(%m, %a, %t, %c : " TB_I8 ", " TB_F32 ", " TB_F32 ", f32) outs(%d : " TB_F32 ")\n",
            "%c = arith.constant -1.5 : f32\n"
            "pto.tsels ins(%m, %a, %c : " TB_I8 ", " TB_F32 ", f32) outs(%d : " TB_F32 ")\n",
            "%c = arith.constant -1.5 : f32\n"
            "%d = pto.tsels %m, %a, %c : (" T_I8 ", " T_F32 ", f32) -> " T_F32 "\n",
        };
        const char *const ma_d[] = {"m", "a", "d"};
        pto_tile *const ma_got[] = {m, a, d};
        /* A2A3's tsels needs a tmp: the forms without one are refused there. */
        for (size_t f = 0; f < COUNT(sels); ++f) {
            if (profile == 1 && f > 0) {
                expect_program_refused(sels[f], PTO_ERR_NULL_ARGUMENT);
                continue;
            }
            assert_int_equal(run_snippet_tiles(sels[f], 3, ma_d, ma_got), PTO_OK);
            expect_same_tile(sels[f], d, wd);
            ++runs;
        }
        pto_tile_destroy(m), pto_tile_destroy(d), pto_tile_destroy(wd), pto_tile_destroy(tmp);
        pto_tile_destroy(stmp);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* refused: an unknown mode, a float mask, a mask too narrow for the
     * packed bits, A5's one shape */
    expect_program_refused("pto.tcmp ins(%a, %b {cmpMode = #pto<cmp gtx>} : " TB_F32 ", " TB_F32 ") outs(%d : " TB_I8 ")\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("pto.tcmp ins(%a, %b : " TB_F32 ", " TB_F32 ") outs(%d : " TB_F32 ")\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    expect_program_refused("pto.tcmp ins(%a, %b : " TB_F32 ", " TB_F32 ") outs(%d : !pto.tile_buf<vec, 3x2xi8>)\n",
                           PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_program_refused("pto.tcmp ins(%a, %b : " TB_F32 ", " TB_F32 ") outs(%d : !pto.tile_buf<vec, 3x8xi8>)\n",
                           PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(want), pto_tile_destroy(got);
    print_message("[compare] %zu program runs equal to the C calls\n", runs);
}

/* tsel's text read by its row (MaskSrc, OwnScratch): one column, whose two
 * mask words A2A3's scratch holds though dst's valid region is one column
 * wide; the shorthand with PTOAS's tmp after tcmp, the mask's and the tmp's
 * own types standing; each equal to the C calls under HOST and A2A3. */
static void test_program_tsel_row(void **state) {
    (void)state;
#define TB_COL "!pto.tile_buf<vec, 3x1xf32>"
    static const char *const kTexts[] = {
        "pto.tsel ins(%m, %a, %b : !pto.tile_buf<vec, 3x1xi8>, " TB_COL ", " TB_COL ") outs(%d : " TB_COL ")\n",
        "%m = tcmp %a, %b {cmpMode = #pto.cmp<GT>} : !pto.tile<3x1xf32> -> !pto.tile<3x1xi8>\n"
        "%t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xi8>\n"
        "%d = pto.tsel %m, %a, %b, %t : !pto.tile<3x1xf32>\n",
    };
#undef TB_COL
    rng r = {0x75E1};
    pto_tile *a = tile_new(PTO_FLOAT32, 3, 1, 3, 1), *b = tile_new(PTO_FLOAT32, 3, 1, 3, 1);
    pto_tile *m = tile_new(PTO_INT8, 3, 1, 3, 1), *mask = tile_new(PTO_UINT8, 3, 1, 3, 1);
    pto_tile *d = tile_new(PTO_FLOAT32, 3, 1, 3, 1), *want = tile_new(PTO_FLOAT32, 3, 1, 3, 1);
    pto_tile *tmp = tile_new(PTO_UINT32, 1, 8, 1, 8);
    fill_pair(&r, PTO_FLOAT32, a, b);
    assert_int_equal(pto_tcmp(mask, a, b, PTO_CMP_GT), PTO_OK);
    for (uint32_t i = 0; i < 3; ++i) tile_put(m, i, 0, tile_get(mask, i, 0));
    const char *const names[] = {"m", "a", "b", "d"};
    pto_tile *const tiles[] = {m, a, b, d};
    for (int profile = 0; profile < 2; ++profile) {
        assert_int_equal(pto_set_profile(profile ? PTO_PROFILE_A2A3 : PTO_PROFILE_HOST), PTO_OK);
        assert_int_equal(pto_tsel(want, mask, a, b, tmp), PTO_OK);
        for (size_t f = 0; f < COUNT(kTexts); ++f) {
            const pto_status st = run_snippet_tiles(kTexts[f], 4, names, tiles);
            if (st != PTO_OK) fail_msg("%s: %s", kTexts[f], pto_last_error());
            expect_same_tile(kTexts[f], d, want);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    TILES_DESTROY(a, b, m, mask, d, want, tmp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_values), cmocka_unit_test(test_select_values),
        cmocka_unit_test(test_compare_then_select), cmocka_unit_test(test_rules),
        cmocka_unit_test(test_empty), cmocka_unit_test(test_program_forms),
        cmocka_unit_test(test_program_tsel_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
