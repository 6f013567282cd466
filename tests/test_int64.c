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

/* ---- the Scalar and Fill rows ---------------------------------------------- */

/* A Scalar row's exact result on 8-byte elements: its Binary row's with the
 * scalar as the second operand (tdivs_scalar_by_tile: as the first), and
 * texpands' the scalar itself. */
static uint64_t scalar64_expected(const char *mnemonic, bool is_signed, uint64_t a, uint64_t s,
                                  bool *known) {
    if (strcmp(mnemonic, "texpands") == 0) {
        *known = true;
        return s;
    }
    if (strcmp(mnemonic, "tdivs_scalar_by_tile") == 0) return binary64_expected("tdiv", is_signed, s, a, known);
    char binary[16];
    const size_t n = strlen(mnemonic);
    *known = false;
    if (n < 2 || n >= sizeof binary || mnemonic[n - 1] != 's') return 0;
    memcpy(binary, mnemonic, n - 1);
    binary[n - 1] = '\0';
    return binary64_expected(binary, is_signed, a, s, known);
}

/* Scalars a double gives exactly for each dtype: the extremes a double
 * holds (INT64_MIN, 2^63 - 1024, 2^64 - 2048), 2^53, small ones. */
static const double kInt64Scalars[] = {0, 1, -1, 3, -3, 0x1p53, -0x1p53, -0x1p63, 0x1p62,
                                       9223372036854774784.0};
static const double kUint64Scalars[] = {0, 1, 3, 7, 0x1p32, 0x1p53, 0x1p63, 18446744073709549568.0,
                                        4294967295.0};
/* Scalars that are no value of the dtype: out of range or not integers. */
static const double kInt64Refused[] = {0x1p63, -0x1p63 - 4096.0, 0.5, -1.5, NAN, INFINITY};
static const double kUint64Refused[] = {-1, 0x1p64, 0.5, NAN, -INFINITY};

static uint64_t scalar_bits64(pto_dtype dt, double s) {
    return dt == PTO_INT64 ? (uint64_t)(int64_t)s : (uint64_t)s;
}

/* Every Scalar and Fill row whose lists take INT64 or UINT64: against the
 * reference over the shapes of the Binary rows, in place too, each scalar
 * above; refused under a profile whose list lacks the dtype, and refused
 * scalars with PTO_ERR_INVALID_ARGUMENT, dst untouched. */
static void scalar_rows_on(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index, (void)target;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 16, 4, 16}, {5, 40, 5, 33}, {7, 9, 3, 2}};
    rng r = {0x5C};
    size_t rows_tested = 0, elements = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        const op_info *row = op_row((op_id)op);
        if (row->family != OP_FAMILY_SCALAR && row->family != OP_FAMILY_FILL) continue;
        const bool fill = row->family == OP_FAMILY_FILL;
        for (size_t d = 0; d < COUNT(k64); ++d) {
            const pto_dtype dt = k64[d];
            if (!op_accepts((op_id)op, PTO_PROFILE_HOST, dt)) continue;
            bool known;
            (void)scalar64_expected(op_mnemonic((op_id)op), true, 0, 1, &known);
            if (!known) fail_msg("%s lists %s but the test has no reference for it", op_name((op_id)op),
                                 pto_dtype_string(dt));
            ++rows_tested;
            const double *scalars = dt == PTO_INT64 ? kInt64Scalars : kUint64Scalars;
            const size_t scalar_count = dt == PTO_INT64 ? COUNT(kInt64Scalars) : COUNT(kUint64Scalars);
            for (size_t p = 0; p < COUNT(kProfiles); ++p) {
                assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
                const bool accepted = op_accepts((op_id)op, kProfiles[p], dt);
                for (size_t s = 0; s < COUNT(kShapes); ++s)
                    for (size_t k = 0; k < scalar_count; ++k)
                        for (int in_place = 0; in_place < 2 - fill; ++in_place) {
                            const uint32_t *sh = kShapes[s];
                            pto_tile *a = new64(dt, sh[0], sh[1], sh[2], sh[3], &r);
                            pto_tile *out = in_place ? a : new64(dt, sh[0], sh[1], sh[2], sh[3], &r);
                            const size_t n = (size_t)sh[0] * sh[1];
                            uint64_t *av = malloc(n * 8), *before = malloc(n * 8);
                            memcpy(av, pto_tile_data(a), n * 8);
                            memcpy(before, pto_tile_data(out), n * 8);
                            const pto_status st = op_scalar_function((op_id)op)(out, a, scalars[k]);
                            if (!accepted) {
                                assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                                assert_non_null(strstr(pto_last_error(), pto_profile_string(kProfiles[p])));
                                assert_memory_equal(before, pto_tile_data(out), n * 8);
                            } else {
                                if (st != PTO_OK)
                                    fail_msg("%s %s scalar %.17g: %s", op_name((op_id)op), pto_dtype_string(dt),
                                             scalars[k], pto_last_error());
                                const uint64_t sb = scalar_bits64(dt, scalars[k]);
                                for (uint32_t i = 0; i < sh[0]; ++i)
                                    for (uint32_t j = 0; j < sh[1]; ++j) {
                                        const bool valid = i < sh[2] && j < sh[3];
                                        const uint64_t x = av[i * sh[1] + j];
                                        const uint64_t want =
                                            valid ? scalar64_expected(op_mnemonic((op_id)op), dt == PTO_INT64, x,
                                                                      sb, &known)
                                                  : before[i * sh[1] + j];
                                        const uint64_t got = get64(out, i, j);
                                        if (got != want)
                                            fail_msg("%s %s (%u,%u): 0x%" PRIx64 ", scalar %.17g gives 0x%" PRIx64
                                                     ", want 0x%" PRIx64,
                                                     op_name((op_id)op), pto_dtype_string(dt), i, j, x, scalars[k],
                                                     got, want);
                                        elements += valid;
                                    }
                            }
                            free(av);
                            free(before);
                            if (!in_place) pto_tile_destroy(out);
                            pto_tile_destroy(a);
                        }
            }
            /* scalars no double of the dtype's range gives: refused, nothing written */
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            const double *bad = dt == PTO_INT64 ? kInt64Refused : kUint64Refused;
            const size_t bad_count = dt == PTO_INT64 ? COUNT(kInt64Refused) : COUNT(kUint64Refused);
            for (size_t k = 0; k < bad_count; ++k) {
                pto_tile *a = new64(dt, 2, 4, 2, 4, &r), *out = new64(dt, 2, 4, 2, 4, &r);
                uint64_t before[8];
                memcpy(before, pto_tile_data(out), sizeof before);
                assert_int_equal(op_scalar_function((op_id)op)(out, a, bad[k]), PTO_ERR_INVALID_ARGUMENT);
                assert_non_null(strstr(pto_last_error(), "is not a value of"));
                assert_memory_equal(before, pto_tile_data(out), sizeof before);
                TILES_DESTROY(a, out);
            }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] %s: %zu scalar (row, dtype) pairs, %zu elements\n", target, rows_tested, elements);
    assert_true(rows_tested >= 18);
}

static void test_scalar_rows(void **state) {
    (void)state;
    for_each_target("int64 scalar rows", scalar_rows_on, NULL);
}

/* ---- reductions, broadcasts, tpartadd ------------------------------------- */

static bool is_max_row(const char *mnemonic) { return strstr(mnemonic, "max") != NULL; }
static bool is_min_row(const char *mnemonic) { return strstr(mnemonic, "min") != NULL; }

/* a combined with b as the reduction `mnemonic` does on dt. */
static uint64_t reduce64_step(const char *mnemonic, pto_dtype dt, uint64_t a, uint64_t b) {
    const bool less = dt == PTO_INT64 ? (int64_t)b < (int64_t)a : b < a;
    if (is_max_row(mnemonic)) return less ? a : b;
    if (is_min_row(mnemonic)) return less ? b : a;
    return a + b;
}

/* Is a row's 8-byte call accepted under profile; if not, the refusal and
 * dst untouched are checked. */
static bool accepted_or_refused(op_id op, pto_profile profile, pto_dtype dt, pto_status st,
                                const uint64_t *before, const pto_tile *dst) {
    const size_t n = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst);
    if (!op_accepts(op, profile, dt)) {
        assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
        assert_non_null(strstr(pto_last_error(), pto_profile_string(profile)));
        assert_memory_equal(before, pto_tile_data((pto_tile *)dst), n * 8);
        return false;
    }
    if (st != PTO_OK) fail_msg("%s %s: %s", op_name(op), pto_dtype_string(dt), pto_last_error());
    return true;
}

/* Every row reduction, column reduction and one-source broadcast whose
 * lists take INT64 or UINT64, and tpartadd: wrapping sums, signed and
 * unsigned max and min, copies of the one value per row or column. */
static void reduce_expand_rows_on(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index, (void)target;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 16, 4, 16}, {5, 40, 5, 33}, {7, 9, 3, 2}};
    rng r = {0x4ED};
    size_t rows_tested = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        const op_info *row = op_row((op_id)op);
        const bool reduce = row->family == OP_FAMILY_ROW_REDUCE || row->family == OP_FAMILY_COL_REDUCE;
        const bool expand = (row->family == OP_FAMILY_ROW_EXPAND || row->family == OP_FAMILY_COL_EXPAND) &&
                            row->source_count == 1;
        const bool by_row = row->family == OP_FAMILY_ROW_REDUCE || row->family == OP_FAMILY_ROW_EXPAND;
        const bool partadd = op == OP_TPARTADD;
        if (!reduce && !expand && !partadd) continue;
        const char *mnemonic = op_mnemonic((op_id)op);
        for (size_t d = 0; d < COUNT(k64); ++d) {
            const pto_dtype dt = k64[d];
            if (!op_accepts((op_id)op, PTO_PROFILE_HOST, dt)) {
                if (reduce || expand) fail_msg("%s does not list %s under HOST", op_name((op_id)op), pto_dtype_string(dt));
                continue;
            }
            ++rows_tested;
            for (size_t p = 0; p < COUNT(kProfiles); ++p) {
                assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
                for (size_t s = 0; s < COUNT(kShapes); ++s) {
                    const uint32_t R = kShapes[s][0], C = kShapes[s][1], vr = kShapes[s][2], vc = kShapes[s][3];
                    pto_tile *src = NULL, *dst = NULL, *part = NULL;
                    /* a tmp A2A3's reductions require (HOST and A5 ignore it) */
                    pto_tile *tmp = new64(dt, 8, 64, 8, 64, NULL);
                    if (reduce) {
                        src = new64(dt, R, C, vr, vc, &r);
                        dst = by_row ? new64(dt, R, 1, vr, 1, &r) : new64(dt, 1, C, 1, vc, &r);
                    } else if (expand) {
                        src = by_row ? new64(dt, R, 1, vr, 1, &r) : new64(dt, 1, C, 1, vc, &r);
                        dst = new64(dt, R, C, vr, vc, &r);
                    } else {
                        src = new64(dt, R, C, vr, vc, &r);
                        part = new64(dt, R, C, (vr + 1) / 2, (vc + 1) / 2, &r);
                        dst = new64(dt, R, C, vr, vc, &r);
                    }
                    const size_t n = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst);
                    uint64_t *before = malloc(n * 8);
                    memcpy(before, pto_tile_data(dst), n * 8);
                    /* tpartadd: the full source first, then second */
                    const int calls = partadd ? 2 : 1;
                    for (int c = 0; c < calls; ++c) {
                        memcpy(pto_tile_data(dst), before, n * 8);
                        const pto_status st = partadd ? (c == 0 ? pto_tpartadd(dst, src, part)
                                                                : pto_tpartadd(dst, part, src))
                                                      : op_call((op_id)op, PTO_POW_DEFAULT, dst, src, NULL, tmp);
                        if (!accepted_or_refused((op_id)op, kProfiles[p], dt, st, before, dst)) continue;
                        for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
                            for (uint32_t j = 0; j < pto_tile_cols(dst); ++j) {
                                uint64_t want = before[i * pto_tile_cols(dst) + j];
                                if (reduce && by_row && j == 0 && i < vr) {
                                    want = get64(src, i, 0);
                                    for (uint32_t k = 1; k < vc; ++k) want = reduce64_step(mnemonic, dt, want, get64(src, i, k));
                                } else if (reduce && !by_row && i == 0 && j < vc) {
                                    want = get64(src, 0, j);
                                    for (uint32_t k = 1; k < vr; ++k) want = reduce64_step(mnemonic, dt, want, get64(src, k, j));
                                } else if (expand && i < vr && j < vc) {
                                    want = by_row ? get64(src, i, 0) : get64(src, 0, j);
                                } else if (partadd && i < vr && j < vc) {
                                    want = get64(src, i, j);
                                    if (i < (vr + 1) / 2 && j < (vc + 1) / 2) want += get64(part, i, j);
                                }
                                const uint64_t got = get64(dst, i, j);
                                if (got != want)
                                    fail_msg("%s %s %ux%u valid %ux%u (%u,%u): 0x%" PRIx64 ", want 0x%" PRIx64,
                                             op_name((op_id)op), pto_dtype_string(dt), R, C, vr, vc, i, j, got, want);
                            }
                    }
                    free(before);
                    pto_tile_destroy(src);
                    pto_tile_destroy(dst);
                    if (part != NULL) pto_tile_destroy(part);
                    pto_tile_destroy(tmp);
                }
            }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] %s: %zu reduction, broadcast and tpartadd (row, dtype) pairs\n", target, rows_tested);
    assert_true(rows_tested >= 18);
}

static void test_reduce_expand_rows(void **state) {
    (void)state;
    for_each_target("int64 reductions and broadcasts", reduce_expand_rows_on, NULL);
}

/* ---- compares and selects ------------------------------------------------- */

static bool compare64(pto_cmp_mode mode, pto_dtype dt, uint64_t a, uint64_t b) {
    const bool lt = dt == PTO_INT64 ? (int64_t)a < (int64_t)b : a < b;
    const bool gt = dt == PTO_INT64 ? (int64_t)a > (int64_t)b : a > b;
    switch (mode) {
    case PTO_CMP_NE: return a != b;
    case PTO_CMP_LT: return lt;
    case PTO_CMP_GT: return gt;
    case PTO_CMP_GE: return !lt;
    case PTO_CMP_LE: return !gt;
    default: return a == b;
    }
}

static pto_tile *new_mask(uint32_t rows, uint32_t vr, uint32_t vc, rng *r) {
    pto_tile *m = NULL;
    assert_int_equal(pto_tile_create(PTO_UINT8, rows, 8, &m), PTO_OK);
    uint8_t *bytes = pto_tile_data(m);
    for (size_t k = 0; k < (size_t)rows * 8; ++k) bytes[k] = (uint8_t)rng_next(r);
    assert_int_equal(pto_tile_set_valid(m, vr, (vc + 7) / 8), PTO_OK);
    return m;
}

static bool mask_bit(pto_tile *m, size_t i, size_t j) {
    return (((const uint8_t *)pto_tile_data(m))[i * 8 + j / 8] >> (j % 8)) & 1;
}

/* tcmp and tcmps in every mode (the scalars above, equal elements too),
 * tsel and tsels: the mask's bits of the valid columns, 0 past them in the
 * last byte, nothing else written; under each profile as its lists say. */
static void compare_rows_on(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index, (void)target;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {4, 16, 4, 16}, {5, 40, 5, 33}, {7, 9, 3, 2}};
    static const pto_cmp_mode kModes[] = {PTO_CMP_EQ, PTO_CMP_NE, PTO_CMP_LT, PTO_CMP_GT, PTO_CMP_GE, PTO_CMP_LE};
    rng r = {0xC64};
    size_t masks = 0;
    for (size_t d = 0; d < COUNT(k64); ++d) {
        const pto_dtype dt = k64[d];
        const double *scalars = dt == PTO_INT64 ? kInt64Scalars : kUint64Scalars;
        const size_t scalar_count = dt == PTO_INT64 ? COUNT(kInt64Scalars) : COUNT(kUint64Scalars);
        for (size_t p = 0; p < COUNT(kProfiles); ++p) {
            const pto_profile profile = kProfiles[p];
            assert_int_equal(pto_set_profile(profile), PTO_OK);
            for (size_t s = 0; s < COUNT(kShapes); ++s) {
                const uint32_t R = kShapes[s][0], C = kShapes[s][1], vr = kShapes[s][2], vc = kShapes[s][3];
                pto_tile *a = new64(dt, R, C, vr, vc, &r), *b = new64(dt, R, C, vr, vc, &r);
                for (uint32_t i = 0; i < vr; ++i)
                    for (uint32_t j = 0; j < vc; ++j)
                        if (rng_next(&r) % 4 == 0) put64(b, i, j, get64(a, i, j));
                for (size_t m = 0; m < COUNT(kModes); ++m)
                    for (int scalar_form = 0; scalar_form < 2; ++scalar_form) {
                        pto_tile *mask = new_mask(R, vr, vc, &r);
                        uint8_t before[8 * 8];
                        memcpy(before, pto_tile_data(mask), (size_t)R * 8);
                        const double sc = scalars[rng_next(&r) % scalar_count];
                        const op_id op = scalar_form ? OP_TCMPS : OP_TCMP;
                        const pto_status st = scalar_form ? pto_tcmps(mask, a, sc, kModes[m])
                                                          : pto_tcmp(mask, a, b, kModes[m]);
                        if (!op_accepts(op, profile, dt)) {
                            assert_int_equal(st, PTO_ERR_UNSUPPORTED_DTYPE);
                            assert_memory_equal(before, pto_tile_data(mask), (size_t)R * 8);
                        } else {
                            if (st != PTO_OK) fail_msg("%s: %s", op_name(op), pto_last_error());
                            ++masks;
                            for (uint32_t i = 0; i < R; ++i)
                                for (uint32_t j = 0; j < 64; ++j) {
                                    const bool written = i < vr && j < (vc + 7) / 8 * 8;
                                    const bool want =
                                        !written ? (before[i * 8 + j / 8] >> (j % 8)) & 1
                                        : j >= vc ? false
                                                  : compare64(kModes[m], dt, get64(a, i, j),
                                                              scalar_form ? scalar_bits64(dt, sc) : get64(b, i, j));
                                    if (mask_bit(mask, i, j) != want)
                                        fail_msg("%s %s mode %d (%u,%u): bit %d, want %d", op_name(op),
                                                 pto_dtype_string(dt), (int)kModes[m], i, j, mask_bit(mask, i, j), want);
                                }
                        }
                        /* the selects by this mask (a random one where the compare was refused) */
                        pto_tile *out = new64(dt, R, C, vr, vc, &r);
                        const size_t n = (size_t)R * C;
                        uint64_t *was = malloc(n * 8);
                        memcpy(was, pto_tile_data(out), n * 8);
                        pto_tile *tmp = NULL;
                        assert_int_equal(pto_tile_create(PTO_UINT32, 1, 8, &tmp), PTO_OK);
                        const pto_status sel = scalar_form ? pto_tsels(out, mask, a, tmp, sc)
                                                           : pto_tsel(out, mask, a, b, tmp);
                        const bool sel_accepted = scalar_form ? op_accepts(OP_TSELS, profile, dt)
                                                              : profile != PTO_PROFILE_A2A3;
                        if (!sel_accepted) {
                            assert_int_equal(sel, PTO_ERR_UNSUPPORTED_DTYPE);
                            assert_memory_equal(was, pto_tile_data(out), n * 8);
                        } else {
                            if (sel != PTO_OK) fail_msg("select: %s", pto_last_error());
                            for (uint32_t i = 0; i < R; ++i)
                                for (uint32_t j = 0; j < C; ++j) {
                                    const uint64_t want =
                                        !(i < vr && j < vc) ? was[i * C + j]
                                        : mask_bit(mask, i, j) ? get64(a, i, j)
                                        : scalar_form ? scalar_bits64(dt, sc)
                                                      : get64(b, i, j);
                                    if (get64(out, i, j) != want)
                                        fail_msg("%s %s (%u,%u): 0x%" PRIx64 ", want 0x%" PRIx64,
                                                 scalar_form ? "pto_tsels" : "pto_tsel", pto_dtype_string(dt), i, j,
                                                 get64(out, i, j), want);
                                }
                        }
                        free(was);
                        TILES_DESTROY(mask, out, tmp);
                    }
                TILES_DESTROY(a, b);
            }
        }
        /* a scalar no double of the range gives */
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        pto_tile *a = new64(dt, 1, 8, 1, 8, &r), *mask = new_mask(1, 1, 8, &r);
        assert_int_equal(pto_tcmps(mask, a, dt == PTO_INT64 ? 0x1p63 : -1.0, PTO_CMP_EQ), PTO_ERR_INVALID_ARGUMENT);
        TILES_DESTROY(a, mask);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[int64] %s: %zu masks\n", target, masks);
    assert_true(masks > 0);
}

static void test_compare_rows(void **state) {
    (void)state;
    for_each_target("int64 compares and selects", compare_rows_on, NULL);
}

/* ---- tgather and tscatter --------------------------------------------------- */

static pto_tile *new_indices(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t bound, rng *r) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(dt, rows, cols, &t), PTO_OK);
    for (size_t k = 0; k < (size_t)rows * cols; ++k) {
        const uint32_t v = (uint32_t)(rng_next(r) % bound);
        if (pto_dtype_size(dt) == 4)
            memcpy((char *)pto_tile_data(t) + k * 4, &v, 4);
        else {
            const uint16_t h = (uint16_t)v;
            memcpy((char *)pto_tile_data(t) + k * 2, &h, 2);
        }
    }
    return t;
}

static uint32_t index_at(pto_tile *t, size_t k) {
    if (pto_dtype_size(pto_tile_dtype(t)) == 4) {
        uint32_t v;
        memcpy(&v, (const char *)pto_tile_data(t) + k * 4, 4);
        return v;
    }
    uint16_t h;
    memcpy(&h, (const char *)pto_tile_data(t) + k * 2, 2);
    return h;
}

/* 8-byte data gathered and scattered by INT32 and UINT32 indices (A5's
 * pairing, HOST's too); 2-byte indices refused; A2A3 refuses the data. */
static void test_gather_scatter(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    static const pto_dtype kIndexDtypes[] = {PTO_INT32, PTO_UINT32};
    rng r = {0x6A7};
    for (size_t d = 0; d < COUNT(k64); ++d)
        for (size_t p = 0; p < COUNT(kProfiles); ++p)
            for (size_t x = 0; x < COUNT(kIndexDtypes); ++x) {
                const pto_dtype dt = k64[d];
                assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
                /* gather: dst 3x8 from a 4x10 src */
                pto_tile *src = new64(dt, 4, 10, 4, 10, &r), *dst = new64(dt, 3, 8, 3, 8, &r);
                pto_tile *idx = new_indices(kIndexDtypes[x], 3, 8, 40, &r);
                pto_tile *tmp = new_indices(kIndexDtypes[x], 3, 8, 1, &r);
                uint64_t before[24];
                memcpy(before, pto_tile_data(dst), sizeof before);
                pto_status st = pto_tgather(dst, src, idx, tmp);
                if (accepted_or_refused(OP_TGATHER, kProfiles[p], dt, st, before, dst))
                    for (size_t k = 0; k < 24; ++k)
                        assert_int_equal(get64(dst, k / 8, k % 8), get64(src, index_at(idx, k) / 10, index_at(idx, k) % 10));
                /* scatter: a 3x8 src into a 4x10 dst, zeroed first, later indices winning */
                pto_tile *sdst = new64(dt, 4, 10, 4, 10, &r);
                uint64_t sbefore[40];
                memcpy(sbefore, pto_tile_data(sdst), sizeof sbefore);
                st = pto_tscatter(sdst, dst, idx);
                if (accepted_or_refused(OP_TSCATTER, kProfiles[p], dt, st, sbefore, sdst)) {
                    uint64_t want[40] = {0};
                    for (size_t k = 0; k < 24; ++k) want[index_at(idx, k)] = get64(dst, k / 8, k % 8);
                    assert_memory_equal(want, pto_tile_data(sdst), sizeof want);
                }
                /* 2-byte indices for 8-byte data: refused where the data is accepted */
                pto_tile *narrow = new_indices(PTO_INT16, 3, 8, 40, &r);
                if (op_accepts(OP_TGATHER, kProfiles[p], dt)) {
                    assert_int_equal(pto_tgather(dst, src, narrow, NULL), PTO_ERR_DTYPE_MISMATCH);
                    assert_non_null(strstr(pto_last_error(), "4 bytes wide"));
                }
                if (op_accepts(OP_TSCATTER, kProfiles[p], dt))
                    assert_int_equal(pto_tscatter(sdst, dst, narrow), PTO_ERR_DTYPE_MISMATCH);
                TILES_DESTROY(src, dst, idx, tmp, sdst, narrow);
            }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
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

/* A program's tadds on an i64 tile with an i64 parameter as the scalar:
 * rows 0..3 of 8x8 memory plus the scalar into rows 4..7. An integer no
 * double holds (2^53 + 1) is refused when the instruction runs, naming it. */
static const char kTaddsKernel[] =
    "module {\n"
    "  func.func @k(%p: !pto.ptr<i64>, %s: i64) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c4 = arith.constant 4 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %v = pto.make_tensor_view %p, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xi64>\n"
    "    %a = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi64> -> !pto.partition_tensor_view<4x8xi64>\n"
    "    %b = pto.partition_view %v, offsets = [%c4, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xi64> -> !pto.partition_tensor_view<4x8xi64>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi64>\n"
    "    %d = pto.alloc_tile : !pto.tile_buf<vec, 4x8xi64>\n"
    "    pto.tload ins(%a : !pto.partition_tensor_view<4x8xi64>) outs(%t : !pto.tile_buf<vec, 4x8xi64>)\n"
    "    pto.tadds ins(%t, %s : !pto.tile_buf<vec, 4x8xi64>, i64) outs(%d : !pto.tile_buf<vec, 4x8xi64>)\n"
    "    pto.tstore ins(%d : !pto.tile_buf<vec, 4x8xi64>) outs(%b : !pto.partition_tensor_view<4x8xi64>)\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_program_scalars(void **state) {
    (void)state;
    static const int64_t kScalars[] = {0, -1, INT64_MIN, INT64_C(9007199254740992), INT64_C(9007199254740993),
                                       INT64_MAX};
    rng r = {0x5CA};
    pto_program *p = program_build(kTaddsKernel, NULL);
    for (size_t k = 0; k < COUNT(kScalars); ++k) {
        uint64_t mem[64], before[64];
        for (size_t i = 0; i < 64; ++i) mem[i] = value64(&r);
        memcpy(before, mem, sizeof mem);
        pto_args *a = NULL;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_args_set_pointer(a, 0, mem, sizeof mem), PTO_OK);
        assert_int_equal(pto_args_set_int(a, 1, kScalars[k]), PTO_OK);
        const pto_status st = pto_program_run(p, a);
        pto_args_destroy(a);
        const bool exact = (double)kScalars[k] < 0x1p63 && (int64_t)(double)kScalars[k] == kScalars[k];
        if (!exact) {
            assert_int_equal(st, PTO_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(pto_last_error(), "is not exactly a double"));
            assert_memory_equal(mem + 32, before + 32, 32 * 8);
            continue;
        }
        if (st != PTO_OK) fail_msg("scalar %" PRId64 ": %s", kScalars[k], pto_last_error());
        for (size_t i = 0; i < 32; ++i) assert_int_equal(mem[32 + i], before[i] + (uint64_t)kScalars[k]);
        assert_memory_equal(mem, before, 32 * 8);
    }
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiles),
        cmocka_unit_test(test_tmov),
        cmocka_unit_test(test_programs),
        cmocka_unit_test(test_tcvt),
        cmocka_unit_test(test_binary_rows),
        cmocka_unit_test(test_scalar_rows),
        cmocka_unit_test(test_reduce_expand_rows),
        cmocka_unit_test(test_compare_rows),
        cmocka_unit_test(test_gather_scatter),
        cmocka_unit_test(test_program_scalars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
