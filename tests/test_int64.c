/* INT64 and UINT64: tiles of them (create, write, read, placement), tmov
 * bit for bit over valid regions, in place and between tiles of different
 * shapes, with the dtype rules (the two are distinct dtypes of one size);
 * and programs with !pto.ptr<i64> / !pto.ptr<ui64>: views, vec tiles,
 * tload / tstore / tmov, load_scalar / store_scalar of every bit pattern,
 * a tload's zero pad and the pads an 8-byte tile cannot take.
 * Elements are carried as uint64_t bit patterns here (the shared harness
 * carries 32 bits). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype k64[] = {PTO_INT64, PTO_UINT64};

static uint64_t get64(pto_tile *t, size_t i, size_t j) {
    uint64_t v;
    memcpy(&v, (const char *)pto_tile_data(t) + (i * pto_tile_cols(t) + j) * 8, 8);
    return v;
}

static void put64(pto_tile *t, size_t i, size_t j, uint64_t v) {
    memcpy((char *)pto_tile_data(t) + (i * pto_tile_cols(t) + j) * 8, &v, 8);
}

/* Values that tell 64 bits from 32: sign bits, high words, the extremes. */
static uint64_t value64(rng *r) {
    static const uint64_t kEdges[] = {0, 1, UINT64_MAX, INT64_MAX, (uint64_t)INT64_MIN,
                                      UINT64_C(0xFFFFFFFF), UINT64_C(0x100000000),
                                      UINT64_C(0x8000000000000001), UINT64_C(0x7FFFFFFF80000000)};
    const uint64_t pick = rng_next(r);
    return pick % 4 == 0 ? kEdges[(pick >> 8) % COUNT(kEdges)] : rng_next(r);
}

static pto_tile *new64(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc, rng *r) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(dt, rows, cols, &t), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, vr, vc), PTO_OK);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) put64(t, i, j, r != NULL ? value64(r) : 0);
    return t;
}

static void test_tiles(void **state) {
    (void)state;
    for (size_t d = 0; d < COUNT(k64); ++d) {
        const pto_dtype dt = k64[d];
        assert_int_equal(pto_dtype_size(dt), 8);
        assert_string_equal(pto_dtype_string(dt), dt == PTO_INT64 ? "INT64" : "UINT64");
        pto_tile *t = NULL;
        assert_int_equal(pto_tile_create(dt, 3, 5, &t), PTO_OK);
        assert_int_equal(pto_tile_dtype(t), dt);
        assert_int_equal((uintptr_t)pto_tile_data(t) % 64, 0);
        uint64_t in[15], out[15];
        rng r = {0x64 + d};
        for (size_t i = 0; i < 15; ++i) in[i] = value64(&r);
        assert_int_equal(pto_tile_write(t, in, sizeof in), PTO_OK);
        assert_int_equal(pto_tile_read(t, out, sizeof out), PTO_OK);
        assert_memory_equal(in, out, sizeof in);
        assert_int_equal(get64(t, 2, 4), in[14]);
        /* byte counts are 8 per element; float copies refuse them */
        assert_int_equal(pto_tile_write(t, in, 15 * 4), PTO_ERR_INVALID_ARGUMENT);
        float f[15] = {0};
        assert_int_equal(pto_tile_write_f32(t, f, 15), PTO_ERR_UNSUPPORTED_DTYPE);
        pto_tile_destroy(t);
        /* the byte limit counts 8-byte elements */
        const uint32_t cols = (uint32_t)(PTO_TILE_MAX_BYTES / 8);
        assert_int_equal(pto_tile_create(dt, 2, cols, &t), PTO_ERR_INVALID_ARGUMENT);
        /* placement: aligned to the element size, 8 */
        pto_buffer *b = NULL;
        assert_int_equal(pto_buffer_create(256, &b), PTO_OK);
        assert_int_equal(pto_tile_create_at(dt, 2, 4, b, 4, &t), PTO_ERR_INVALID_ARGUMENT);
        assert_int_equal(pto_tile_create_at(dt, 2, 4, b, 8, &t), PTO_OK);
        pto_tile_destroy(t);
        pto_buffer_destroy(b);
    }
}

/* tmov copies src's valid region bit for bit and nothing else, between
 * tiles of different shapes, in place, on every profile. */
static void test_tmov(void **state) {
    (void)state;
    static const uint32_t kShapes[][6] = {
        /* dst rows, cols, src rows, cols, valid rows, cols */
        {1, 1, 1, 1, 1, 1}, {4, 16, 4, 16, 4, 16}, {5, 40, 7, 33, 5, 33},
        {3, 9, 3, 9, 2, 7}, {2, 8, 2, 8, 0, 8},    {16, 3, 16, 5, 16, 3},
    };
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    rng r = {0x7A0};
    size_t calls = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t d = 0; d < COUNT(k64); ++d)
            for (size_t s = 0; s < COUNT(kShapes); ++s) {
                const uint32_t *sh = kShapes[s];
                pto_tile *dst = new64(k64[d], sh[0], sh[1], sh[4], sh[5], &r);
                pto_tile *src = new64(k64[d], sh[2], sh[3], sh[4], sh[5], &r);
                uint64_t *before = malloc((size_t)(sh[0] * sh[1] > sh[2] * sh[3] ? sh[0] * sh[1] : sh[2] * sh[3]) * 8);
                memcpy(before, pto_tile_data(dst), (size_t)sh[0] * sh[1] * 8);
                assert_int_equal(pto_tmov(dst, src), PTO_OK);
                for (uint32_t i = 0; i < sh[0]; ++i)
                    for (uint32_t j = 0; j < sh[1]; ++j) {
                        const uint64_t want = i < sh[4] && j < sh[5] ? get64(src, i, j)
                                                                     : before[i * sh[1] + j];
                        if (get64(dst, i, j) != want)
                            fail_msg("tmov %s shape %zu: (%u,%u) is 0x%" PRIx64 ", want 0x%" PRIx64,
                                     pto_dtype_string(k64[d]), s, i, j, get64(dst, i, j), want);
                    }
                memcpy(before, pto_tile_data(src), (size_t)sh[2] * sh[3] * 8);
                assert_int_equal(pto_tmov(src, src), PTO_OK);
                assert_memory_equal(before, pto_tile_data(src), (size_t)sh[2] * sh[3] * 8);
                calls += 2;
                free(before);
                TILES_DESTROY(dst, src);
            }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* INT64 and UINT64 are two dtypes: no move between them, nor to the
     * 4-byte ones */
    pto_tile *i64 = new64(PTO_INT64, 2, 8, 2, 8, NULL), *u64 = new64(PTO_UINT64, 2, 8, 2, 8, NULL);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 2, 16, 2, 16);
    assert_int_equal(pto_tmov(i64, u64), PTO_ERR_DTYPE_MISMATCH);
    assert_int_equal(pto_tmov(f32, i64), PTO_ERR_DTYPE_MISMATCH);
    assert_non_null(strstr(pto_last_error(), "INT64"));
    TILES_DESTROY(i64, u64, f32);
    print_message("[int64] %zu tmov calls\n", calls);
}

/* ---- tcvt ---- */

/* The pairs with an 8-byte side, on every profile (TCVT's table: FP32 ->
 * I64, I32 -> I64, I64 -> FP32, I64 -> I32, A2A3 and A5 alike). */
static bool pair64(pto_dtype src, pto_dtype dst) {
    return (src == PTO_FLOAT32 && dst == PTO_INT64) || (src == PTO_INT32 && dst == PTO_INT64) ||
           (src == PTO_INT64 && (dst == PTO_FLOAT32 || dst == PTO_INT32));
}

/* m (< 2^64) rounded to float by the mode, negative deciding the directed
 * modes, as the float's bits: integer arithmetic on the magnitude. */
static uint32_t u64_to_f32_bits(uint64_t m, bool negative, pto_round_mode mode) {
    int length = 0;
    for (uint64_t x = m; x != 0; x >>= 1) ++length;
    int shift = length > 24 ? length - 24 : 0;
    uint64_t kept = m >> shift;
    if (shift > 0) {
        const uint64_t rest = m & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
        bool up;
        switch (mode) {
        case PTO_ROUND_ROUND: up = rest >= half; break;
        case PTO_ROUND_FLOOR: up = negative && rest != 0; break;
        case PTO_ROUND_CEIL: up = !negative && rest != 0; break;
        case PTO_ROUND_TRUNC: up = false; break;
        default: up = rest > half || (rest == half && (kept & 1)); break;
        }
        kept += up;
    }
    const float f = ldexpf((float)kept, shift); /* kept <= 2^24: exact */
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits | (negative && m != 0 ? 0x80000000u : 0);
}

/* The expected element of dst for one source element (bits zero-extended). */
static uint64_t tcvt64_expected(pto_dtype src, pto_dtype dst, uint64_t in, pto_round_mode mode,
                                pto_saturation sat) {
    if (src == PTO_INT32) return (uint64_t)(int64_t)(int32_t)(uint32_t)in;
    if (src == PTO_INT64 && dst == PTO_INT32) {
        const int64_t v = (int64_t)in;
        if (sat == PTO_SAT_OFF) return (uint32_t)in;
        return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    }
    if (src == PTO_INT64) {
        const int64_t v = (int64_t)in;
        const uint64_t m = v < 0 ? UINT64_C(0) - in : in;
        return u64_to_f32_bits(m, v < 0, mode == PTO_ROUND_NONE ? PTO_ROUND_RINT : mode);
    }
    /* FLOAT32 -> INT64: rounded by the mode (NONE truncates), saturated, NaN 0 */
    float f;
    const uint32_t b = (uint32_t)in;
    memcpy(&f, &b, 4);
    if (isnan(f)) return 0;
    double v = f;
    switch (mode) {
    case PTO_ROUND_RINT: v = nearbyint(v); break;
    case PTO_ROUND_ROUND: v = round(v); break;
    case PTO_ROUND_FLOOR: v = floor(v); break;
    case PTO_ROUND_CEIL: v = ceil(v); break;
    default: v = trunc(v); break;
    }
    if (v >= 0x1p63) return (uint64_t)INT64_MAX;
    if (v < -0x1p63) return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)v;
}

/* A source element of dt: edges of every range and random bits. */
static uint64_t source_value(pto_dtype dt, rng *r) {
    if (dt == PTO_INT64) return value64(r);
    if (dt == PTO_INT32) return (uint32_t)value64(r);
    static const float kEdges[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -2.5f, 0x1p62f, 0x1p63f,
                                   -0x1p63f, 0x1.fffffep62f, -0x1.fffffep62f, 0x1p64f, 1e30f,
                                   -1e30f, INFINITY, -INFINITY, NAN, 16777217.0f, 3.0e9f};
    float f;
    uint32_t bits = (uint32_t)rng_next(r);
    const uint64_t pick = rng_next(r) % 4;
    if (pick == 0) {
        f = kEdges[rng_next(r) % COUNT(kEdges)];
        memcpy(&bits, &f, 4);
    } else if (pick == 1) {
        f = (float)ldexp(rng_unit(r) - 0.5, (int)(rng_next(r) % 70));
        memcpy(&bits, &f, 4);
    }
    return bits;
}

static uint64_t get_any(pto_tile *t, size_t i, size_t j) {
    if (pto_dtype_size(pto_tile_dtype(t)) == 8) return get64(t, i, j);
    return tile_get(t, i, j);
}

static void test_tcvt(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    /* which pairs with an 8-byte side each profile accepts */
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (int a = 0; a < TEST_DTYPE_COUNT; ++a)
            for (int b = 0; b < TEST_DTYPE_COUNT; ++b) {
                const pto_dtype s = (pto_dtype)a, d = (pto_dtype)b;
                if (pto_dtype_size(s) != 8 && pto_dtype_size(d) != 8) continue;
                pto_tile *src = NULL, *dst = NULL;
                assert_int_equal(pto_tile_create(s, 2, 8, &src), PTO_OK);
                assert_int_equal(pto_tile_create(d, 2, 8, &dst), PTO_OK);
                const pto_status st = pto_tcvt(dst, src, NULL, PTO_ROUND_RINT, PTO_SAT_ON);
                if (pair64(s, d)) {
                    assert_int_equal(st, PTO_OK);
                } else {
                    assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                    assert_non_null(strstr(pto_last_error(), "is not supported on"));
                }
                assert_int_equal(pto_tcvt(dst, src, NULL, PTO_ROUND_ODD, PTO_SAT_ON),
                                 pair64(s, d) ? PTO_ERR_INVALID_ARGUMENT : PTO_ERR_UNSUPPORTED_DTYPE);
                TILES_DESTROY(src, dst);
            }
    }
    /* values: every mode and saturation, on every profile (none changes
     * these pairs), over valid regions narrower than the tiles */
    static const pto_dtype kPairs[][2] = {{PTO_FLOAT32, PTO_INT64}, {PTO_INT32, PTO_INT64},
                                          {PTO_INT64, PTO_FLOAT32}, {PTO_INT64, PTO_INT32}};
    rng r = {0xC64};
    size_t elements = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t k = 0; k < COUNT(kPairs); ++k)
            for (int mode = PTO_ROUND_NONE; mode <= PTO_ROUND_TRUNC; ++mode)
                for (int sat = PTO_SAT_OFF; sat <= PTO_SAT_ON; ++sat) {
                    const pto_dtype s = kPairs[k][0], d = kPairs[k][1];
                    pto_tile *src = NULL, *dst = NULL;
                    assert_int_equal(pto_tile_create(s, 6, 40, &src), PTO_OK);
                    assert_int_equal(pto_tile_create(d, 5, 37, &dst), PTO_OK);
                    assert_int_equal(pto_tile_set_valid(src, 5, 33), PTO_OK);
                    assert_int_equal(pto_tile_set_valid(dst, 5, 33), PTO_OK);
                    for (uint32_t i = 0; i < 6; ++i)
                        for (uint32_t j = 0; j < 40; ++j) {
                            const uint64_t v = source_value(s, &r);
                            if (s == PTO_INT64) put64(src, i, j, v);
                            else tile_put(src, i, j, (uint32_t)v);
                        }
                    assert_int_equal(pto_tcvt(dst, src, NULL, (pto_round_mode)mode, (pto_saturation)sat),
                                     PTO_OK);
                    for (uint32_t i = 0; i < 5; ++i)
                        for (uint32_t j = 0; j < 37; ++j) {
                            const uint64_t want =
                                j < 33 ? tcvt64_expected(s, d, get_any(src, i, j), (pto_round_mode)mode,
                                                         (pto_saturation)sat)
                                       : 0;
                            const uint64_t got = get_any(dst, i, j);
                            if (got != want)
                                fail_msg("%s: %s -> %s mode %d sat %d: 0x%" PRIx64 " gives 0x%" PRIx64
                                         ", want 0x%" PRIx64,
                                         pto_profile_string(kProfiles[p]), pto_dtype_string(s),
                                         pto_dtype_string(d), mode, sat, get_any(src, i, j), got, want);
                            ++elements;
                        }
                    TILES_DESTROY(src, dst);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] tcvt: %zu elements\n", elements);
}

/* ---- the table's elementwise rows ---- */

/* The exact result of a Binary row on 8-byte elements, wrapping modulo 2^64
 * as the 32-bit rows wrap modulo 2^32: x / 0 is every bit set and MIN / -1
 * is MIN (tdiv), x rem 0 is x and MIN rem -1 is 0, a remainder takes the
 * divisor's sign (trem). *known is false for a mnemonic without one here. */
static uint64_t binary64_expected(const char *mnemonic, bool is_signed, uint64_t a, uint64_t b,
                                  bool *known) {
    const int64_t sa = (int64_t)a, sb = (int64_t)b;
    *known = true;
    if (strcmp(mnemonic, "tadd") == 0) return a + b;
    if (strcmp(mnemonic, "tsub") == 0) return a - b;
    if (strcmp(mnemonic, "tmul") == 0) return a * b;
    if (strcmp(mnemonic, "tmax") == 0) return is_signed ? (sa > sb ? a : b) : (a > b ? a : b);
    if (strcmp(mnemonic, "tmin") == 0) return is_signed ? (sa < sb ? a : b) : (a < b ? a : b);
    if (strcmp(mnemonic, "tdiv") == 0) {
        if (b == 0) return UINT64_MAX;
        if (!is_signed) return a / b;
        if (sb == -1) return UINT64_C(0) - a;
        return (uint64_t)(sa / sb);
    }
    if (strcmp(mnemonic, "trem") == 0) {
        if (b == 0) return a;
        if (!is_signed) return a % b;
        if (sb == -1) return 0;
        const int64_t r = sa % sb;
        return (uint64_t)(r != 0 && (r < 0) != (sb < 0) ? r + sb : r);
    }
    *known = false;
    return 0;
}

/* Every Binary row whose lists take INT64 or UINT64: against the reference
 * above over valid regions narrower than the tiles (rows that do not follow
 * each other) and whole contiguous tiles, in place too; refused under a
 * profile whose list lacks the dtype, with the list quoted. */
static void binary_rows_on(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index, (void)target;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 16, 4, 16}, {5, 40, 5, 33}, {7, 9, 3, 2}};
    rng r = {0xB1};
    size_t rows_tested = 0, elements = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        const op_info *row = op_row((op_id)op);
        if (row->family != OP_FAMILY_BINARY) continue;
        for (size_t d = 0; d < COUNT(k64); ++d) {
            const pto_dtype dt = k64[d];
            if (!op_accepts((op_id)op, PTO_PROFILE_HOST, dt)) continue;
            bool known;
            (void)binary64_expected(op_mnemonic((op_id)op), true, 0, 1, &known);
            if (!known) fail_msg("%s lists %s but the test has no reference for it", op_name((op_id)op),
                                 pto_dtype_string(dt));
            ++rows_tested;
            for (size_t p = 0; p < COUNT(kProfiles); ++p) {
                assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
                const bool accepted = op_accepts((op_id)op, kProfiles[p], dt);
                for (size_t s = 0; s < COUNT(kShapes); ++s)
                    for (int in_place = 0; in_place < 2; ++in_place) {
                        const uint32_t *sh = kShapes[s];
                        pto_tile *a = new64(dt, sh[0], sh[1], sh[2], sh[3], &r);
                        pto_tile *b = new64(dt, sh[0], sh[1], sh[2], sh[3], &r);
                        /* small divisors and equal operands, beside the random bits */
                        for (uint32_t i = 0; i < sh[2]; ++i)
                            for (uint32_t j = 0; j < sh[3]; ++j) {
                                const uint64_t pick = rng_next(&r) % 8;
                                if (pick == 0) put64(b, i, j, (uint64_t)(int64_t)(rng_next(&r) % 7) - 3);
                                if (pick == 1) put64(b, i, j, get64(a, i, j));
                            }
                        pto_tile *out = in_place ? a : new64(dt, sh[0], sh[1], sh[2], sh[3], &r);
                        const size_t n = (size_t)sh[0] * sh[1];
                        uint64_t *av = malloc(n * 8), *before = malloc(n * 8);
                        memcpy(av, pto_tile_data(a), n * 8);
                        memcpy(before, pto_tile_data(out), n * 8);
                        const pto_status st = op_binary_function((op_id)op)(out, a, b);
                        if (!accepted) {
                            assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                            assert_non_null(strstr(pto_last_error(), pto_profile_string(kProfiles[p])));
                            assert_memory_equal(before, pto_tile_data(out), n * 8);
                        } else {
                            assert_int_equal(st, PTO_OK);
                            for (uint32_t i = 0; i < sh[0]; ++i)
                                for (uint32_t j = 0; j < sh[1]; ++j) {
                                    const bool valid = i < sh[2] && j < sh[3];
                                    const uint64_t want =
                                        valid ? binary64_expected(op_mnemonic((op_id)op), dt == PTO_INT64,
                                                                  av[i * sh[1] + j], get64(b, i, j), &known)
                                              : before[i * sh[1] + j];
                                    const uint64_t got = get64(out, i, j);
                                    if (got != want)
                                        fail_msg("%s %s (%u,%u): 0x%" PRIx64 ", 0x%" PRIx64
                                                 " gives 0x%" PRIx64 ", want 0x%" PRIx64,
                                                 op_name((op_id)op), pto_dtype_string(dt), i, j,
                                                 av[i * sh[1] + j], get64(b, i, j), got, want);
                                    elements += valid;
                                }
                        }
                        free(av);
                        free(before);
                        if (!in_place) pto_tile_destroy(out);
                        TILES_DESTROY(a, b);
                    }
            }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] %s: %zu (row, dtype) pairs, %zu elements\n", target, rows_tested, elements);
    assert_true(rows_tested >= 14);
}

static void test_binary_rows(void **state) {
    (void)state;
    for_each_target("int64 binary rows", binary_rows_on, NULL);
}

/* A kernel over !pto.ptr<T> (T = i64 or ui64), memory as 8 rows of 8: a 4x8
 * tile with a vr x vc valid region loaded from rows 0..3, moved, stored to
 * rows 4..(4 + vr) (tstore's view as large as the valid region, as PTOAS's
 * verifier asks); element 64 copied to 65 through a scalar register. The
 * tile's type takes `pad`. */
static void kernel_text(char *out, size_t cap, const char *t, const char *pad, uint32_t vr,
                        uint32_t vc) {
    char tile[160];
    snprintf(tile, sizeof tile, "!pto.tile_buf<loc=vec, dtype=%s, rows=4, cols=8, v_row=%u, v_col=%u, "
             "blayout=row_major, slayout=none_box, fractal=512, pad=%s>", t, vr, vc, pad);
    snprintf(out, cap,
             "module {\n"
             "  func.func @k(%%p: !pto.ptr<%s>) {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%c4 = arith.constant 4 : index\n"
             "    %%c8 = arith.constant 8 : index\n"
             "    %%c32 = arith.constant 32 : index\n"
             "    %%c64 = arith.constant 64 : index\n"
             "    %%c65 = arith.constant 65 : index\n"
             "    %%cvr = arith.constant %u : index\n"
             "    %%cvc = arith.constant %u : index\n"
             "    %%v = pto.make_tensor_view %%p, shape = [%%c8, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?x%s>\n"
             "    %%a = pto.partition_view %%v, offsets = [%%c0, %%c0], sizes = [%%c4, %%c8] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<4x8x%s>\n"
             "    %%b = pto.partition_view %%v, offsets = [%%c4, %%c0], sizes = [%%cvr, %%cvc] : !pto.tensor_view<?x?x%s> -> !pto.partition_tensor_view<%ux%ux%s>\n"
             "    %%s = pto.alloc_tile : %s\n"
             "    %%d = pto.alloc_tile : %s\n"
             "    pto.tload ins(%%a : !pto.partition_tensor_view<4x8x%s>) outs(%%s : %s)\n"
             "    pto.tmov ins(%%s : %s) outs(%%d : %s)\n"
             "    pto.tstore ins(%%d : %s) outs(%%b : !pto.partition_tensor_view<%ux%ux%s>)\n"
             "    %%x = pto.load_scalar %%p[%%c64] : !pto.ptr<%s> -> i64\n"
             "    pto.store_scalar %%x, %%p[%%c65] : !pto.ptr<%s>, i64\n"
             "    return\n"
             "  }\n"
             "}\n",
             t, vr, vc, t, t, t, t, vr, vc, t, tile, tile, t, tile, tile, tile, tile, vr, vc, t, t, t);
}

static void test_programs(void **state) {
    (void)state;
    static const char *const kSpellings[] = {"i64", "si64", "ui64"};
    static const pto_dtype kDtypes[] = {PTO_INT64, PTO_INT64, PTO_UINT64};
    rng r = {0xB64};
    char text[4096];
    for (size_t s = 0; s < COUNT(kSpellings); ++s) {
        /* a full valid region (no pad), and 3x5 valid with a zero pad */
        for (int padded = 0; padded < 2; ++padded) {
            const uint32_t vr = padded ? 3 : 4, vc = padded ? 5 : 8;
            kernel_text(text, sizeof text, kSpellings[s], padded ? "1" : "0", vr, vc);
            pto_program *p = program_build(text, NULL);
            assert_int_equal(pto_program_param_dtype(p, 0), kDtypes[s]);
            uint64_t mem[66];
            for (size_t i = 0; i < COUNT(mem); ++i) mem[i] = value64(&r);
            uint64_t before[66];
            memcpy(before, mem, sizeof mem);
            program_run_on(p, mem, sizeof mem);
            /* tstore writes the tile's valid region; with a zero pad the
             * whole 4x8 moves through tmov, but only vr x vc is stored */
            for (size_t i = 0; i < 4; ++i)
                for (size_t j = 0; j < 8; ++j) {
                    const uint64_t want = i < vr && j < vc ? before[i * 8 + j] : before[32 + i * 8 + j];
                    if (mem[32 + i * 8 + j] != want)
                        fail_msg("%s padded %d: element (%zu,%zu) is 0x%" PRIx64 ", want 0x%" PRIx64,
                                 kSpellings[s], padded, i, j, mem[32 + i * 8 + j], want);
                }
            assert_memory_equal(mem, before, 32 * 8);
            assert_int_equal(mem[65], before[64]);
            assert_int_equal(mem[64], before[64]);
            pto_program_destroy(p);
        }
        /* an 8-byte tile pads with zero or not at all */
        for (int pad = 2; pad <= 3; ++pad) {
            char pad_text[4];
            snprintf(pad_text, sizeof pad_text, "%d", pad);
            kernel_text(text, sizeof text, kSpellings[s], pad_text, 3, 5);
            expect_program_refused_with(text, NULL, "pads with zero or not at all");
        }
    }
    /* a view of i64 over a pointer of ui64, and an i32 register stored into
     * an i64 element, are refused */
    kernel_text(text, sizeof text, "i64", "0", 4, 8);
    char *view = strstr(text, "%p, shape");
    assert_non_null(view);
    char mixed[4096];
    snprintf(mixed, sizeof mixed, "%.*s", (int)(strstr(text, "!pto.ptr<i64>") - text), text);
    strcat(mixed, "!pto.ptr<ui64>");
    strcat(mixed, strstr(text, "!pto.ptr<i64>") + strlen("!pto.ptr<i64>"));
    expect_program_refused_with(mixed, NULL, "differs from the pointer's ui64");
    expect_program_refused_with("module {\n  func.func @k(%p: !pto.ptr<i64>) {\n"
                                "    %c0 = arith.constant 0 : index\n"
                                "    %x = pto.load_scalar %p[%c0] : !pto.ptr<i64> -> i32\n"
                                "    return\n  }\n}\n",
                                NULL, "is not the element type of !pto.ptr<i64>");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiles),
        cmocka_unit_test(test_tmov),
        cmocka_unit_test(test_programs),
        cmocka_unit_test(test_tcvt),
        cmocka_unit_test(test_binary_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
