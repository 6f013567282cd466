/* The low-precision element types through pto_tcvt: which (src, dst) pairs
 * each profile takes; decoding exhaustive over every source code (all 256 of
 * an 8-bit type, all 16 of a 4-bit one, in both nibbles); encoding against
 * a reference that picks from the format's own table of values (built here
 * from the encodings' fields, not by parsing codes) under every mode and
 * saturation, on every SIMD target; A5's fixed rounding; the packed types'
 * regions, aliasing and NaN refusals. --long: every float32 bit pattern into
 * FLOAT8_E4M3, FLOAT8_E5M2 and HIFLOAT8 under RINT and ROUND, saturating
 * and not. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static bool g_long;

/* ---- the formats' tables, from their fields ---------------------------- */

typedef struct {
    double value[256]; /* NaN where the code is a NaN */
    int codes;         /* 256 or 16 */
    uint32_t nan_code; /* the positive NaN a conversion gives (0 without NaN) */
    bool has_inf, has_nan, signed_zero;
    double beyond;      /* the first value past the largest finite (virtual) */
    uint32_t beyond_code; /* its code, whose parity decides a RINT tie */
    /* the non-negative finite values ascending, their codes; the infinity's */
    double sorted[128];
    uint32_t sorted_code[128];
    int finite;
    uint32_t inf_code;
} format_table;

/* The sorted list of a table's non-negative finite values (the positive
 * codes' half), for the reference's search. */
static void sort_table(format_table *t) {
    t->finite = 0;
    for (int c = 0; c < t->codes / 2; ++c) {
        const double v = t->value[c];
        if (isinf(v)) t->inf_code = (uint32_t)c;
        if (isnan(v) || isinf(v)) continue;
        int k = t->finite++;
        while (k > 0 && t->sorted[k - 1] > v) {
            t->sorted[k] = t->sorted[k - 1];
            t->sorted_code[k] = t->sorted_code[k - 1];
            --k;
        }
        t->sorted[k] = v;
        t->sorted_code[k] = (uint32_t)c;
    }
}

/* sign, exponent field e (bias), fraction f of p bits: IEEE-style fields. */
static double field_value(int e, int f, int p, int bias) {
    return e == 0 ? ldexp(f, 1 - bias - p) : ldexp((1 << p) + f, e - bias - p);
}

static void table_mini(format_table *t, int ebits, int p, int bias, int kind /* 0 fn, 1 ieee, 2 fp4 */) {
    const int n = 1 << (1 + ebits + p);
    t->codes = n;
    for (int c = 0; c < n; ++c) {
        const int s = c >> (ebits + p), e = (c >> p) & ((1 << ebits) - 1), f = c & ((1 << p) - 1);
        double v = field_value(e, f, p, bias);
        if (kind == 1 && e == (1 << ebits) - 1) v = f ? NAN : INFINITY;
        if (kind == 0 && e == (1 << ebits) - 1 && f == (1 << p) - 1) v = NAN;
        t->value[c] = s ? -v : v;
    }
    t->has_inf = kind == 1;
    t->has_nan = kind != 2;
    t->signed_zero = true;
    t->nan_code = kind == 0 ? 0x7F : kind == 1 ? 0x7E : 0;
    /* the value past the largest finite and its code: E5M2's infinity
     * (2^16, even code); E4M3FN's NaN code S.1111.111 as if a number (480,
     * odd); FP4's next binade (no code: parity unused, it saturates) */
    const int emax = (1 << ebits) - 1;
    if (kind == 1) t->beyond = ldexp(1, emax - bias), t->beyond_code = (uint32_t)emax << p;
    if (kind == 0) t->beyond = ldexp((2 << p) - 1, emax - bias - p), t->beyond_code = 0x7F;
    if (kind == 2) t->beyond = ldexp(1, emax - bias + 1), t->beyond_code = 0;
}

/* HiFloat8 from its fields: for each dot class, every exponent and mantissa. */
static void table_hif8(format_table *t) {
    t->codes = 256;
    for (int c = 0; c < 256; ++c) t->value[c] = NAN;
    t->value[0x00] = 0.0;
    for (int m = 1; m < 8; ++m) t->value[m] = ldexp(1, m - 23), t->value[0x80 | m] = -ldexp(1, m - 23);
    static const struct {
        int prefix, prefix_bits, exp_bits;
    } kClasses[] = {{0x1, 4, 0}, {0x1, 3, 1}, {0x1, 2, 2}, {0x2, 2, 3}, {0x3, 2, 4}};
    for (size_t k = 0; k < 5; ++k) {
        const int pb = kClasses[k].prefix_bits, eb = kClasses[k].exp_bits, mb = 7 - pb - eb;
        const int lo = eb == 0 ? 0 : 1 << (eb - 1), hi = eb == 0 ? 0 : (1 << eb) - 1;
        for (int mag = lo; mag <= hi; ++mag)
            for (int neg = 0; neg < (eb == 0 ? 1 : 2); ++neg)
                for (int m = 0; m < (1 << mb); ++m) {
                    const int exp_field = eb == 0 ? 0 : (neg << (eb - 1)) | (mag - lo);
                    const int code = (kClasses[k].prefix << (7 - pb)) | (exp_field << mb) | m;
                    const int e = neg ? -mag : mag;
                    double v = ldexp((1 << mb) + m, e - mb);
                    if (e == 15 && m == 1) v = INFINITY;
                    t->value[code] = v;
                    t->value[0x80 | code] = -v;
                }
    }
    t->has_inf = true, t->has_nan = true, t->signed_zero = false;
    t->nan_code = 0x80;
    t->beyond = ldexp(3, 14), t->beyond_code = 0x6F;
}

static format_table g_e4m3, g_e5m2, g_hif8, g_e2m1, g_e1m2;

static const format_table *table_of(pto_dtype dt) {
    switch (dt) {
    case PTO_FLOAT8_E4M3: return &g_e4m3;
    case PTO_FLOAT8_E5M2: return &g_e5m2;
    case PTO_HIFLOAT8: return &g_hif8;
    case PTO_FLOAT4_E2M1X2: return &g_e2m1;
    default: return &g_e1m2;
    }
}

static int setup_tables(void **state) {
    (void)state;
    table_mini(&g_e4m3, 4, 3, 7, 0);
    table_mini(&g_e5m2, 5, 2, 15, 1);
    table_mini(&g_e2m1, 2, 1, 1, 2);
    table_mini(&g_e1m2, 1, 2, 1, 2);
    table_hif8(&g_hif8);
    format_table *const all[] = {&g_e4m3, &g_e5m2, &g_e2m1, &g_e1m2, &g_hif8};
    for (size_t i = 0; i < COUNT(all); ++i) sort_table(all[i]);
    return 0;
}

/* ---- the reference encoder: pick from the table ------------------------ */

/* The code of x (not NaN) under mode and saturation, by searching the
 * table's non-negative finite values for the neighbours of |x|. */
static uint32_t ref_encode(const format_table *t, double x, pto_round_mode mode, bool sat) {
    const bool neg = signbit(x);
    const uint32_t sign = neg ? (uint32_t)t->codes / 2 : 0;
    const double a = fabs(x);
    const double max = t->sorted[t->finite - 1];
    const uint32_t max_code = t->sorted_code[t->finite - 1], inf_code = t->inf_code;
    /* lo: the largest value <= a; hi: the smallest >= a (a <= max here) */
    int l = 0, h = t->finite - 1;
    while (l < h) {
        const int mid = (l + h + 1) / 2;
        if (t->sorted[mid] <= a) l = mid;
        else h = mid - 1;
    }
    const double lo = t->sorted[l];
    const uint32_t lo_code = t->sorted_code[l];
    const int up_index = lo == a || l + 1 >= t->finite ? l : l + 1;
    const double hi = t->sorted[up_index];
    const uint32_t hi_code = t->sorted_code[up_index];
    const uint32_t overflow_code = sat ? max_code : t->has_inf ? inf_code : t->has_nan ? t->nan_code : max_code;
    if (isinf(a)) {
        if (t->has_inf) return sign | inf_code;
        return sign | (sat || !t->has_nan ? max_code : t->nan_code);
    }
    const bool nearest = mode == PTO_ROUND_RINT || mode == PTO_ROUND_ROUND;
    const bool away = (mode == PTO_ROUND_CEIL && !neg) || (mode == PTO_ROUND_FLOOR && neg);
    if (a > max) { /* between max and the value past it, or beyond both */
        bool up;
        if (a >= t->beyond) {
            up = nearest || away;
        } else if (nearest) {
            const double d_lo = a - max, d_hi = t->beyond - a;
            up = d_hi < d_lo || (d_hi == d_lo && (mode == PTO_ROUND_ROUND || (t->beyond_code & 1) == 0));
        } else {
            up = away;
        }
        return sign | (up ? overflow_code : max_code);
    }
    bool up = false;
    if (lo != a) {
        switch (mode) {
        case PTO_ROUND_TRUNC: up = false; break;
        case PTO_ROUND_FLOOR: up = neg; break;
        case PTO_ROUND_CEIL: up = !neg; break;
        case PTO_ROUND_ROUND: up = a - lo >= hi - a; break;
        default: up = a - lo > hi - a || (a - lo == hi - a && (hi_code & 1) == 0); break;
        }
    }
    const uint32_t code = up ? hi_code : lo_code;
    if (code == 0 && !t->signed_zero) return 0;
    return sign | code;
}

/* ---- converting through the library ------------------------------------ */

static double f32_of(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
static double half_of(uint32_t bits) { /* FLOAT16 */
    const int e = (bits >> 10) & 31, f = bits & 1023;
    const double v = e == 31 ? (f ? NAN : INFINITY) : e == 0 ? ldexp(f, -24) : ldexp(1024 + f, e - 25);
    return (bits & 0x8000) ? -v : v;
}
static double bf16_of(uint32_t bits) { return f32_of(bits << 16); }

/* n elements of src (bits) converted to dst by pto_tcvt on 1 x n tiles (a
 * packed side 1 x n/2 bytes); out gets dst's values (a packed dst's
 * nibbles one each). */
static pto_status convert(pto_dtype src_dt, pto_dtype dst_dt, const uint64_t *src, size_t n,
                          pto_round_mode mode, pto_saturation sat, uint64_t *out) {
    const bool packed_src = src_dt == PTO_FLOAT4_E2M1X2 || src_dt == PTO_FLOAT4_E1M2X2 || src_dt == PTO_INT4X2;
    const bool packed_dst = dst_dt == PTO_FLOAT4_E2M1X2 || dst_dt == PTO_FLOAT4_E1M2X2 || dst_dt == PTO_INT4X2;
    pto_tile *s = NULL, *d = NULL;
    assert_int_equal(pto_tile_create(src_dt, 1, (uint32_t)(packed_src ? n / 2 : n), &s), PTO_OK);
    assert_int_equal(pto_tile_create(dst_dt, 1, (uint32_t)(packed_dst ? n / 2 : n), &d), PTO_OK);
    if (packed_src) {
        for (size_t i = 0; i < n; i += 2) tile_put(s, 0, i / 2, src[i] | (src[i + 1] << 4));
    } else {
        for (size_t i = 0; i < n; ++i) tile_put(s, 0, i, src[i]);
    }
    const pto_status st = pto_tcvt(d, s, NULL, mode, sat);
    if (st == PTO_OK) {
        for (size_t i = 0; i < n; ++i)
            out[i] = packed_dst ? (tile_get(d, 0, i / 2) >> (4 * (i & 1))) & 0xF : tile_get(d, 0, i);
    }
    pto_tile_destroy(s);
    pto_tile_destroy(d);
    return st;
}

static const pto_round_mode kModes[] = {PTO_ROUND_RINT, PTO_ROUND_ROUND, PTO_ROUND_FLOOR,
                                        PTO_ROUND_CEIL, PTO_ROUND_TRUNC};

/* ---- pairs per profile ---------------------------------------------------- */

typedef struct {
    pto_dtype src, dst;
    bool a2a3, a5;
} pair_case;

static const pair_case kPairs[] = {
    {PTO_FLOAT32, PTO_FLOAT8_E4M3, false, true},   {PTO_FLOAT32, PTO_FLOAT8_E5M2, false, true},
    {PTO_FLOAT32, PTO_HIFLOAT8, false, true},      {PTO_FLOAT16, PTO_HIFLOAT8, false, true},
    {PTO_FLOAT16, PTO_INT4X2, true, false},        {PTO_BFLOAT16, PTO_FLOAT4_E1M2X2, false, true},
    {PTO_BFLOAT16, PTO_FLOAT4_E2M1X2, false, true}, {PTO_FLOAT8_E4M3, PTO_FLOAT32, false, true},
    {PTO_FLOAT8_E5M2, PTO_FLOAT32, false, true},   {PTO_HIFLOAT8, PTO_FLOAT32, false, true},
    {PTO_FLOAT4_E1M2X2, PTO_BFLOAT16, false, true}, {PTO_FLOAT4_E2M1X2, PTO_BFLOAT16, false, true},
    {PTO_INT4X2, PTO_FLOAT16, true, false},
};

static bool pair_listed(pto_dtype s, pto_dtype d, pto_profile p) {
    for (size_t i = 0; i < COUNT(kPairs); ++i)
        if (kPairs[i].src == s && kPairs[i].dst == d)
            return p == PTO_PROFILE_HOST || (p == PTO_PROFILE_A2A3 ? kPairs[i].a2a3 : kPairs[i].a5);
    return false;
}

static bool is_lowp(pto_dtype dt) { return dt >= PTO_FLOAT8_E4M3 && dt <= PTO_INT4X2; }

/* Every pair with a low-precision side, on every profile: accepted exactly
 * where the page's table lists it, else PTO_ERR_UNSUPPORTED_DTYPE naming
 * the profile; ODD refused on each. */
static void test_pairs(void **state) {
    (void)state;
    size_t accepted = 0, refused = 0;
    for (int p = 0; p < 3; ++p)
        for (int s = 0; s < TEST_DTYPE_COUNT; ++s)
            for (int d = 0; d < TEST_DTYPE_COUNT; ++d) {
                if (!is_lowp((pto_dtype)s) && !is_lowp((pto_dtype)d)) continue;
                const bool packed_s = s >= PTO_FLOAT4_E2M1X2, packed_d = d >= PTO_FLOAT4_E2M1X2;
                pto_tile *st = NULL, *dt = NULL;
                assert_int_equal(pto_tile_create((pto_dtype)s, 2, packed_s ? 4 : 8, &st), PTO_OK);
                assert_int_equal(pto_tile_create((pto_dtype)d, 2, packed_d ? 4 : 8, &dt), PTO_OK);
                if (packed_s && packed_d) assert_int_equal(pto_tile_set_valid(dt, 2, 4), PTO_OK);
                assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
                const pto_status got = pto_tcvt(dt, st, NULL, PTO_ROUND_RINT, PTO_SAT_ON);
                const pto_status odd = pto_tcvt(dt, st, NULL, PTO_ROUND_ODD, PTO_SAT_ON);
                assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
                char what[128];
                snprintf(what, sizeof what, "%s -> %s on %s", pto_dtype_string((pto_dtype)s),
                         pto_dtype_string((pto_dtype)d), pto_profile_string((pto_profile)p));
                if (pair_listed((pto_dtype)s, (pto_dtype)d, (pto_profile)p)) {
                    expect_status(got, PTO_OK, what);
                    expect_status(odd, PTO_ERR_INVALID_ARGUMENT, what);
                    ++accepted;
                } else {
                    expect_status(got, PTO_ERR_UNSUPPORTED_DTYPE, what);
                    ++refused;
                }
                pto_tile_destroy(st);
                pto_tile_destroy(dt);
            }
    /* 13 pairs under HOST, 11 under A5, 2 under A2A3 */
    assert_int_equal(accepted, 13 + 2 + 11);
    print_message("[lowp] %zu pairs accepted, %zu refused over three profiles\n", accepted, refused);
}

/* ---- decoding: every code ------------------------------------------------ */

static uint64_t f32_bits_of(double v) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

typedef struct {
    pto_dtype src, dst;
} decode_case;

static void decode_body(void *ctx, size_t index, const char *target) {
    (void)ctx, (void)index;
    static const decode_case kCases[] = {{PTO_FLOAT8_E4M3, PTO_FLOAT32}, {PTO_FLOAT8_E5M2, PTO_FLOAT32},
                                         {PTO_HIFLOAT8, PTO_FLOAT32},    {PTO_FLOAT4_E2M1X2, PTO_BFLOAT16},
                                         {PTO_FLOAT4_E1M2X2, PTO_BFLOAT16}};
    uint64_t src[512], out[512];
    for (size_t k = 0; k < COUNT(kCases); ++k) {
        const format_table *t = table_of(kCases[k].src);
        const size_t n = t->codes == 16 ? 512 : 256; /* FP4: each code in both nibbles, 32 times */
        for (size_t i = 0; i < n; ++i) src[i] = t->codes == 16 ? (i ^ (i >> 4)) & 15 : i;
        assert_int_equal(convert(kCases[k].src, kCases[k].dst, src, n, PTO_ROUND_RINT, PTO_SAT_ON, out), PTO_OK);
        for (size_t i = 0; i < n; ++i) {
            const double want = t->value[src[i]];
            const double got = kCases[k].dst == PTO_FLOAT32 ? f32_of((uint32_t)out[i]) : bf16_of((uint32_t)out[i]);
            const bool same = isnan(want) ? isnan(got) && (out[i] & 0x7FFFFFFF) == (kCases[k].dst == PTO_FLOAT32 ? 0x7FC00000u : 0x7FC0u)
                                          : got == want && signbit(got) == signbit(want);
            if (!same)
                fail_msg("[%s] %s code 0x%02x -> %s 0x%llx (%g), want %g", target,
                         pto_dtype_string(kCases[k].src), (unsigned)src[i], pto_dtype_string(kCases[k].dst),
                         (unsigned long long)out[i], got, want);
        }
    }
    /* INT4X2 -> FLOAT16: every nibble, both positions */
    for (size_t i = 0; i < 32; ++i) src[i] = (i ^ (i >> 4)) & 15;
    assert_int_equal(convert(PTO_INT4X2, PTO_FLOAT16, src, 32, PTO_ROUND_RINT, PTO_SAT_ON, out), PTO_OK);
    for (size_t i = 0; i < 32; ++i) {
        const int v = src[i] >= 8 ? (int)src[i] - 16 : (int)src[i];
        if (half_of((uint32_t)out[i]) != v) fail_msg("[%s] INT4 %d -> 0x%llx", target, v, (unsigned long long)out[i]);
    }
}

static void test_decode_every_code(void **state) {
    (void)state;
    for_each_target("lowp decode", decode_body, NULL);
}

/* ---- encoding ------------------------------------------------------------- */

static void push(uint64_t *in, size_t *n, size_t cap, uint64_t bits) {
    if (*n < cap) in[(*n)++] = bits;
}

/* float32 inputs: every value of the format, the midpoints and their
 * float32 neighbours, specials, powers of two across the range and random
 * bit patterns. */
static size_t f32_inputs(const format_table *t, uint64_t *in, size_t cap, uint64_t seed) {
    size_t n = 0;
#define PUSH(b) push(in, &n, cap, (b))
    double vals[256];
    size_t nv = 0;
    for (int c = 0; c < t->codes; ++c)
        if (!isnan(t->value[c]) && !isinf(t->value[c])) vals[nv++] = t->value[c];
    vals[nv++] = t->beyond;
    vals[nv++] = -t->beyond;
    for (size_t i = 0; i < nv; ++i)
        for (size_t j = 0; j < nv; ++j) {
            if (vals[j] <= vals[i] || signbit(vals[j]) != signbit(vals[i])) continue;
            bool next = true; /* adjacent only */
            for (size_t k = 0; k < nv; ++k)
                if (vals[k] > vals[i] && vals[k] < vals[j]) next = false;
            if (!next) continue;
            const uint32_t mid = (uint32_t)f32_bits_of((vals[i] + vals[j]) / 2);
            PUSH(mid);
            PUSH(mid + 1);
            PUSH(mid - 1);
            PUSH(mid ^ 0x80000000u);
        }
    for (size_t i = 0; i < nv; ++i) {
        const uint32_t b = (uint32_t)f32_bits_of(vals[i]);
        PUSH(b);
        PUSH(b + 1);
        PUSH(b - 1);
    }
    static const uint32_t kSpecial[] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u,
                                        0x7F7FFFFFu, 0x00000001u, 0x80800000u, 0x4F000000u, 0x33800000u};
    for (size_t i = 0; i < COUNT(kSpecial); ++i) PUSH(kSpecial[i]);
    for (int e = -40; e <= 40; ++e) {
        PUSH(f32_bits_of(ldexp(1, e)));
        PUSH(f32_bits_of(-ldexp(1.3, e)));
    }
    rng r = {seed};
    while (n < cap) {
        const uint32_t b = (uint32_t)rng_next(&r);
        /* most near the format's range: exponent within 2^-30 .. 2^20 */
        const uint32_t e = 97 + (uint32_t)(rng_next(&r) % 50);
        PUSH((rng_next(&r) & 3) ? (b & 0x807FFFFFu) | (e << 23) : b);
    }
#undef PUSH
    return n;
}

static uint32_t expected_nan(const format_table *t, bool neg) {
    return t->signed_zero && neg ? (uint32_t)t->codes / 2 | t->nan_code : t->nan_code;
}

typedef struct {
    pto_dtype src, dst;
} encode_case;

static void check_encode(pto_dtype src_dt, pto_dtype dst_dt, const uint64_t *in, size_t n, const char *target) {
    const format_table *t = table_of(dst_dt);
    uint64_t *out = malloc(n * sizeof *out);
    assert_non_null(out);
    for (size_t m = 0; m < COUNT(kModes); ++m)
        for (int sat = 0; sat < 2; ++sat) {
            assert_int_equal(convert(src_dt, dst_dt, in, n, kModes[m], (pto_saturation)sat, out), PTO_OK);
            for (size_t i = 0; i < n; ++i) {
                const double x = src_dt == PTO_FLOAT32 ? f32_of((uint32_t)in[i])
                                 : src_dt == PTO_FLOAT16 ? half_of((uint32_t)in[i])
                                                         : bf16_of((uint32_t)in[i]);
                const uint32_t want = isnan(x) ? expected_nan(t, signbit(x)) : ref_encode(t, x, kModes[m], sat);
                if (out[i] != want)
                    fail_msg("[%s] %s 0x%llx (%.10g) -> %s mode %d sat %d: 0x%02llx, want 0x%02x", target,
                             pto_dtype_string(src_dt), (unsigned long long)in[i], x, pto_dtype_string(dst_dt),
                             (int)kModes[m], sat, (unsigned long long)out[i], want);
            }
        }
    free(out);
}

static void encode_body(void *ctx, size_t index, const char *target) {
    (void)ctx, (void)index;
    enum { kN = 6000 };
    uint64_t *in = malloc(kN * sizeof *in);
    assert_non_null(in);
    static const encode_case kF32[] = {{PTO_FLOAT32, PTO_FLOAT8_E4M3}, {PTO_FLOAT32, PTO_FLOAT8_E5M2},
                                       {PTO_FLOAT32, PTO_HIFLOAT8}};
    for (size_t k = 0; k < COUNT(kF32); ++k) {
        const size_t n = f32_inputs(table_of(kF32[k].dst), in, kN, 77 + k);
        check_encode(kF32[k].src, kF32[k].dst, in, n, target);
        /* Row widths around whole vectors and pairs of vectors (4 to 16
         * float32 lanes): the paired path, one leftover vector and the
         * element tail each end a row somewhere here. */
        static const size_t kWidths[] = {1, 3, 4, 5, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 40, 47, 48, 49, 63, 65, 80};
        for (size_t w = 0; w < COUNT(kWidths); ++w) check_encode(kF32[k].src, kF32[k].dst, in + 31 * w, kWidths[w], target);
    }
    /* FLOAT16 -> HIFLOAT8: every FLOAT16 pattern */
    for (uint32_t base = 0; base < 65536; base += kN) {
        size_t n = 0;
        for (uint32_t b = base; b < 65536 && n < kN; ++b) in[n++] = b;
        check_encode(PTO_FLOAT16, PTO_HIFLOAT8, in, n & ~(size_t)1, target);
    }
    free(in);
}

static void test_encode(void **state) {
    (void)state;
    for_each_target("lowp encode", encode_body, NULL);
}

/* BFLOAT16 -> FP4 over every BFLOAT16 pattern but the NaNs (refused), on
 * every target. */
static void fp4_body(void *ctx, size_t index, const char *target) {
    (void)ctx, (void)index;
    enum { kN = 8192 };
    uint64_t *in = malloc(kN * sizeof *in);
    assert_non_null(in);
    static const pto_dtype kFp4[] = {PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2};
    for (size_t k = 0; k < 2; ++k)
        for (uint32_t base = 0; base < 65536; base += kN) {
            size_t n = 0;
            for (uint32_t b = base; b < base + kN; ++b)
                if ((b & 0x7FFF) <= 0x7F80) in[n++] = b;
            n &= ~(size_t)1;
            check_encode(PTO_BFLOAT16, kFp4[k], in, n, target);
        }
    free(in);
}

/* BFLOAT16 -> FP4 (fp4_body), and FLOAT16 -> INT4X2 over every FLOAT16
 * pattern. */
static void test_encode_packed(void **state) {
    (void)state;
    for_each_target("lowp fp4 encode", fp4_body, NULL);
    enum { kN = 8192 };
    uint64_t *in = malloc(kN * sizeof *in), *out = malloc(kN * sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    for (uint32_t base = 0; base < 65536; base += kN) {
        for (size_t i = 0; i < kN; ++i) in[i] = base + i;
        for (size_t m = 0; m < COUNT(kModes); ++m) {
            assert_int_equal(convert(PTO_FLOAT16, PTO_INT4X2, in, kN, kModes[m], PTO_SAT_OFF, out), PTO_OK);
            for (size_t i = 0; i < kN; ++i) {
                const double x = half_of((uint32_t)in[i]);
                double r = x;
                switch (kModes[m]) {
                case PTO_ROUND_ROUND: r = round(x); break;
                case PTO_ROUND_FLOOR: r = floor(x); break;
                case PTO_ROUND_CEIL: r = ceil(x); break;
                case PTO_ROUND_TRUNC: r = trunc(x); break;
                default: r = nearbyint(x); break;
                }
                const int v = isnan(x) ? 0 : r < -8 ? -8 : r > 7 ? 7 : (int)r;
                if (out[i] != ((unsigned)v & 15u))
                    fail_msg("FLOAT16 0x%llx (%g) -> INT4 mode %d: 0x%llx, want %d", (unsigned long long)in[i], x,
                             (int)kModes[m], (unsigned long long)out[i], v);
            }
        }
    }
    free(in);
    free(out);
}

/* Under A5 the FP8 pairs round to nearest even and the HiFloat8 pairs half
 * away from zero whatever the mode asks (A5's TCvt.hpp). */
static void test_a5_fixed_rounding(void **state) {
    (void)state;
    uint64_t in[2048], out[2048], host[2048];
    const size_t n = f32_inputs(&g_hif8, in, 2048, 5);
    static const struct {
        pto_dtype dst;
        pto_round_mode as;
    } kCases[] = {{PTO_FLOAT8_E4M3, PTO_ROUND_RINT}, {PTO_FLOAT8_E5M2, PTO_ROUND_RINT}, {PTO_HIFLOAT8, PTO_ROUND_ROUND}};
    for (size_t k = 0; k < COUNT(kCases); ++k)
        for (size_t m = 0; m < COUNT(kModes); ++m) {
            assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
            const pto_status st = convert(PTO_FLOAT32, kCases[k].dst, in, n, kModes[m], PTO_SAT_ON, out);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            assert_int_equal(st, PTO_OK);
            assert_int_equal(convert(PTO_FLOAT32, kCases[k].dst, in, n, kCases[k].as, PTO_SAT_ON, host), PTO_OK);
            assert_memory_equal(out, host, n * sizeof out[0]);
        }
}

/* The packed types' rules: regions, aliasing, NaN into FP4, nothing written
 * on a refusal. */
static void test_packed_rules(void **state) {
    (void)state;
    pto_tile *bf = NULL, *f4 = NULL, *f16 = NULL;
    assert_int_equal(pto_tile_create(PTO_BFLOAT16, 2, 16, &bf), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT4_E2M1X2, 2, 8, &f4), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT16, 2, 16, &f16), PTO_OK);
    for (size_t j = 0; j < 8; ++j) tile_put(f4, 0, j, 0xA5), tile_put(f4, 1, j, 0x5A);
    uint64_t *before = tile_snapshot(f4);
    /* 13 bf16 values do not fill 8 bytes (an odd count takes ceil(13 / 2) = 7) */
    assert_int_equal(pto_tile_set_valid(bf, 2, 13), PTO_OK);
    expect_status(pto_tcvt(f4, bf, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_ERR_SHAPE_MISMATCH, "odd count");
    assert_non_null(strstr(pto_last_error(), "twice"));
    assert_int_equal(pto_tile_set_valid(bf, 2, 16), PTO_OK);
    assert_int_equal(pto_tile_set_valid(f4, 1, 8), PTO_OK);
    expect_status(pto_tcvt(f4, bf, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_ERR_SHAPE_MISMATCH, "rows");
    assert_int_equal(pto_tile_set_valid(f4, 2, 8), PTO_OK);
    /* a NaN at (1, 5) */
    tile_put(bf, 1, 5, 0x7FC1);
    expect_status(pto_tcvt(f4, bf, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_ERR_OUT_OF_RANGE, "NaN");
    assert_non_null(strstr(pto_last_error(), "src (1, 5) is a NaN"));
    assert_tile_unchanged(f4, before, "refused conversions");
    tile_put(bf, 1, 5, 0xFF80); /* -inf: the largest negative */
    tile_put(bf, 0, 3, 0x4040); /* 3.0 */
    expect_status(pto_tcvt(f4, bf, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK, "-inf");
    assert_int_equal((tile_get(f4, 1, 2) >> 4) & 15, 0xF); /* value 5: -6 */
    assert_int_equal((tile_get(f4, 0, 1) >> 4) & 15, 0x5); /* value 3: 3.0 */
    assert_int_equal(tile_get(f4, 0, 0), 0);
    /* a packed pair in place is refused */
    pto_buffer *b = NULL;
    pto_tile *p16 = NULL, *p4 = NULL;
    assert_int_equal(pto_buffer_create(256, &b), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 1, 16, b, 0, &p16), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT4X2, 1, 8, b, 0, &p4), PTO_OK);
    expect_status(pto_tcvt(p4, p16, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_ERR_ALIASING, "in place");
    expect_status(pto_tcvt(p16, p4, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_ERR_ALIASING, "in place");
    pto_tile *const tiles[] = {bf, f4, f16, p16, p4};
    tiles_destroy(COUNT(tiles), tiles);
    pto_buffer_destroy(b);
    free(before);
}

/* An odd count of values beside a packed tile (HOST and A5; A5's TCVT and
 * its ST goldens, pto-isa tests/npu/a5/src/st/testcase/tcvt): the packed
 * side has ceil(n / 2) valid bytes. Unpacking converts n values, the last
 * byte's high nibble unread; packing writes the whole bytes only, the last
 * value unread (a NaN there is no refusal) and the boundary byte as it
 * was. A2A3 keeps twice the bytes. */
static pto_status tcvt_under(pto_profile profile, pto_tile *dst, const pto_tile *src) {
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status st = pto_tcvt(dst, src, NULL, PTO_ROUND_RINT, PTO_SAT_ON);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    return st;
}

static void test_packed_odd(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    for (size_t k = 0; k < COUNT(kProfiles); ++k) {
        pto_tile *bf = NULL, *f4 = NULL;
        assert_int_equal(pto_tile_create(PTO_BFLOAT16, 2, 16, &bf), PTO_OK);
        assert_int_equal(pto_tile_create(PTO_FLOAT4_E2M1X2, 2, 8, &f4), PTO_OK);
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 16; ++j)
                tile_put(bf, i, j, f32_bits_of((double)(i * 16 + j) / 3.0 - 5.0) >> 16);
        tile_put(bf, 1, 14, 0x7FC0); /* a NaN as the last value: not converted */
        for (uint32_t j = 0; j < 8; ++j) tile_put(f4, 0, j, 0xA5), tile_put(f4, 1, j, 0x5A);
        assert_int_equal(pto_tile_set_valid(bf, 2, 15), PTO_OK);
        const pto_status packed = tcvt_under(kProfiles[k], f4, bf);
        expect_status(packed, PTO_OK, "15 values into 8 bytes");
        for (uint32_t i = 0; i < 2; ++i) {
            for (uint32_t b = 0; b < 7; ++b) {
                const uint32_t lo = ref_encode(&g_e2m1, bf16_of((uint32_t)tile_get(bf, i, 2 * b)), PTO_ROUND_RINT, true);
                const uint32_t hi = ref_encode(&g_e2m1, bf16_of((uint32_t)tile_get(bf, i, 2 * b + 1)), PTO_ROUND_RINT, true);
                if (tile_get(f4, i, b) != (lo | hi << 4))
                    fail_msg("%s: byte (%u, %u) 0x%02llx, want 0x%02x", pto_profile_string(kProfiles[k]), i, b,
                             (unsigned long long)tile_get(f4, i, b), lo | hi << 4);
            }
            assert_int_equal(tile_get(f4, i, 7), i == 0 ? 0xA5 : 0x5A); /* the boundary byte as it was */
        }
        /* unpacking: 15 values from 8 bytes, the last byte's high nibble unread */
        for (uint32_t j = 0; j < 8; ++j) tile_put(f4, 0, j, 0x3C + 17 * j), tile_put(f4, 1, j, 0xF0 - 13 * j);
        for (uint32_t j = 0; j < 16; ++j) tile_put(bf, 0, j, 0x1234), tile_put(bf, 1, j, 0x1234);
        const pto_status unpacked = tcvt_under(kProfiles[k], bf, f4);
        expect_status(unpacked, PTO_OK, "8 bytes into 15 values");
        for (uint32_t i = 0; i < 2; ++i) {
            for (uint32_t j = 0; j < 15; ++j) {
                const uint32_t code = (uint32_t)(tile_get(f4, i, j / 2) >> (4 * (j & 1))) & 15u;
                assert_true(bf16_of((uint32_t)tile_get(bf, i, j)) == g_e2m1.value[code]);
            }
            assert_int_equal(tile_get(bf, i, 15), 0x1234); /* outside dst's valid region */
        }
        /* 15 values and 7 bytes: refused, nothing written */
        assert_int_equal(pto_tile_set_valid(f4, 2, 7), PTO_OK);
        uint64_t *before = tile_snapshot(f4);
        const pto_status short_dst = tcvt_under(kProfiles[k], f4, bf);
        expect_status(short_dst, PTO_ERR_SHAPE_MISMATCH, "15 values into 7 bytes");
        assert_non_null(strstr(pto_last_error(), "or an odd count with one byte for the last"));
        assert_tile_unchanged(f4, before, "a refused odd count");
        free(before);
        pto_tile *const tiles[] = {bf, f4};
        tiles_destroy(COUNT(tiles), tiles);
    }
    /* A2A3 (FLOAT16 <-> INT4X2): the unpacked side's valid cols twice the bytes */
    pto_tile *h = NULL, *i4 = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT16, 1, 16, &h), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_INT4X2, 1, 8, &i4), PTO_OK);
    assert_int_equal(pto_tile_set_valid(h, 1, 15), PTO_OK);
    const pto_status a2a3 = tcvt_under(PTO_PROFILE_A2A3, i4, h);
    expect_status(a2a3, PTO_ERR_SHAPE_MISMATCH, "A2A3: 15 values into 8 bytes");
    assert_null(strstr(pto_last_error(), "odd count"));
    expect_status(pto_tcvt(i4, h, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_OK, "HOST: 15 values into 8 bytes");
    pto_tile *const rest[] = {h, i4};
    tiles_destroy(COUNT(rest), rest);
}

/* tmov carries the types as bytes where TMOV's page lists them: vec to vec
 * on HOST every one but FLOAT8_E8M0, A2A3 INT4X2, A5 the 8- and 4-bit
 * floats but FLOAT8_E8M0; the cube's moves on A2A3 INT4X2 only, on A5 all
 * but INT4X2. */
static void test_tmov_bytes(void **state) {
    (void)state;
    for (int p = 0; p < 3; ++p)
        for (int d = PTO_FLOAT8_E4M3; d <= PTO_INT4X2; ++d) {
            const pto_dtype dt = (pto_dtype)d;
            const bool vec_ok = dt != PTO_FLOAT8_E8M0 &&
                                (p == PTO_PROFILE_HOST || (p == PTO_PROFILE_A2A3) == (dt == PTO_INT4X2));
            pto_tile *s = tile_new(dt, 3, 40, 3, 37), *t = tile_new(dt, 3, 40, 3, 37);
            for (uint32_t i = 0; i < 3; ++i)
                for (uint32_t j = 0; j < 40; ++j) tile_put(s, i, j, (i * 40 + j) * 7 & 0xFF);
            uint64_t *before = tile_snapshot(t);
            assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
            const pto_status got = pto_tmov(t, s);
            pto_tile *m = NULL, *l = NULL;
            assert_int_equal(pto_tile_create_cube(dt, 16, 32, PTO_LOC_MAT, PTO_LAYOUT_NZ, &m), PTO_OK);
            assert_int_equal(pto_tile_create_cube(dt, 16, 32, PTO_LOC_LEFT,
                                                  p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ, &l),
                             PTO_OK);
            const pto_status cube = pto_tmov(l, m);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            char what[96];
            snprintf(what, sizeof what, "tmov %s on %s", pto_dtype_string(dt), pto_profile_string((pto_profile)p));
            expect_status(got, vec_ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            for (uint32_t i = 0; i < 3; ++i)
                for (uint32_t j = 0; j < 40; ++j)
                    assert_int_equal(tile_get(t, i, j),
                                     vec_ok && j < 37 ? tile_get(s, i, j) : before[i * 40 + j]);
            const bool cube_ok = p == PTO_PROFILE_HOST || (p == PTO_PROFILE_A2A3) == (dt == PTO_INT4X2);
            expect_status(cube, cube_ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            pto_tile *const tiles[] = {s, t, m, l};
            tiles_destroy(COUNT(tiles), tiles);
            free(before);
        }
}

/* TINSERT (Vec -> Vec) of the low-precision types: their bytes under HOST
 * and A5 (the page's A5 list), refused under A2A3 with nothing written; a
 * packed tile's index_col counts bytes. */
static void test_tinsert_bytes(void **state) {
    (void)state;
    static const pto_dtype kLow[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8,
                                     PTO_FLOAT8_E8M0, PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5, PTO_PROFILE_A2A3};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t d = 0; d < COUNT(kLow); ++d) {
            pto_tile *src = tile_new(kLow[d], 4, 32, 3, 18), *dst = tile_new(kLow[d], 8, 64, 8, 64);
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 32; ++j) tile_put(src, i, j, (i * 32 + j) * 7 + 3);
            for (uint32_t i = 0; i < 8; ++i)
                for (uint32_t j = 0; j < 64; ++j) tile_put(dst, i, j, 0xA5);
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            const pto_status st = pto_tinsert(dst, src, 2, 32);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            const bool ok = kProfiles[p] != PTO_PROFILE_A2A3;
            char what[96];
            snprintf(what, sizeof what, "tinsert %s on %s", pto_dtype_string(kLow[d]),
                     pto_profile_string(kProfiles[p]));
            expect_status(st, ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            for (uint32_t i = 0; i < 8; ++i)
                for (uint32_t j = 0; j < 64; ++j) {
                    const bool in = ok && i >= 2 && i < 5 && j >= 32 && j < 50;
                    assert_int_equal(tile_get(dst, i, j), in ? tile_get(src, i - 2, j - 32) : 0xA5);
                }
            TILES_DESTROY(src, dst);
        }
}

/* TEXTRACT (Vec -> Vec) of the low-precision types: their bytes under HOST
 * and A5 (A5's Vec -> Vec implementation), refused under A2A3 with nothing
 * written; a packed tile's index_col counts bytes, and under A5 a packed
 * window starts and spans whole 32-byte blocks unless it is 1x1. */
static void test_textract_bytes(void **state) {
    (void)state;
    static const pto_dtype kLow[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8,
                                     PTO_FLOAT8_E8M0, PTO_FLOAT4_E2M1X2, PTO_FLOAT4_E1M2X2};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5, PTO_PROFILE_A2A3};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t d = 0; d < COUNT(kLow); ++d) {
            const bool packed = kLow[d] == PTO_FLOAT4_E2M1X2 || kLow[d] == PTO_FLOAT4_E1M2X2;
            pto_tile *src = tile_new(kLow[d], 8, 64, 7, 64), *dst = tile_new(kLow[d], 4, 32, 3, 32);
            pto_tile *one = tile_new(kLow[d], 1, 32, 1, 1);
            for (uint32_t i = 0; i < 8; ++i)
                for (uint32_t j = 0; j < 64; ++j) tile_put(src, i, j, (i * 64 + j) * 7 + 3);
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 32; ++j) tile_put(dst, i, j, 0xA5);
            for (uint32_t j = 0; j < 32; ++j) tile_put(one, 0, j, 0x5A);
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            const pto_status st = pto_textract(dst, src, 4, 32);
            /* 1x1: any byte, under A5 also where dst's 32 cols pass src's edge (its scalar copy) */
            const pto_status scalar = pto_textract(one, src, 6, 41);
            const pto_status odd = pto_textract(dst, src, 4, 16);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            const bool ok = kProfiles[p] != PTO_PROFILE_A2A3;
            char what[96];
            snprintf(what, sizeof what, "textract %s on %s", pto_dtype_string(kLow[d]),
                     pto_profile_string(kProfiles[p]));
            expect_status(st, ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            expect_status(scalar, ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            /* index_col 16 of a 32-byte-wide window: A5 refuses it for FP4 only */
            const pto_status want_odd = !ok ? PTO_ERR_UNSUPPORTED_DTYPE
                                        : packed && kProfiles[p] == PTO_PROFILE_A5 ? PTO_ERR_OUT_OF_RANGE
                                                                                    : PTO_OK;
            expect_status(odd, want_odd, what);
            const uint32_t col = want_odd == PTO_OK ? 16 : 32;
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 32; ++j)
                    assert_int_equal(tile_get(dst, i, j),
                                     ok && i < 3 ? tile_get(src, 4 + i, col + j) : 0xA5);
            assert_int_equal(tile_get(one, 0, 0), ok ? tile_get(src, 6, 41) : 0x5A);
            for (uint32_t j = 1; j < 32; ++j) assert_int_equal(tile_get(one, 0, j), 0x5A);
            TILES_DESTROY(src, dst, one);
        }
    /* A5: a packed window of 16 bytes (not 1x1) is refused, nothing written */
    pto_tile *src = tile_new(PTO_FLOAT4_E2M1X2, 2, 64, 2, 64), *dst = tile_new(PTO_FLOAT4_E2M1X2, 2, 32, 2, 16);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_textract(dst, src, 0, 0), PTO_ERR_SHAPE_MISMATCH, "A5 FP4 window of 16 bytes");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_textract(dst, src, 0, 0), PTO_OK);
    for (uint32_t j = 0; j < 32; ++j) assert_int_equal(tile_get(dst, 1, j), j < 16 ? tile_get(src, 1, j) : 0);
    TILES_DESTROY(src, dst);
}

/* TGATHER's index and mask-pattern forms of the 8-bit floats (A5's
 * TGather.hpp lists FP8 and HiFloat8): their bytes under HOST and A5,
 * refused under A2A3 with nothing written. */
static void test_tgather_bytes(void **state) {
    (void)state;
    static const pto_dtype kLow[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5, PTO_PROFILE_A2A3};
    for (size_t p = 0; p < COUNT(kProfiles); ++p)
        for (size_t d = 0; d < COUNT(kLow); ++d) {
            pto_tile *src = tile_new(kLow[d], 4, 64, 4, 64), *dst = tile_new(kLow[d], 2, 32, 2, 32);
            pto_tile *idx = tile_new(PTO_INT32, 2, 32, 2, 32), *half = tile_new(kLow[d], 4, 32, 4, 32);
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 64; ++j) tile_put(src, i, j, (i * 64 + j) * 5 + 1);
            for (uint32_t i = 0; i < 2; ++i)
                for (uint32_t j = 0; j < 32; ++j) {
                    tile_put(idx, i, j, (i * 97 + j * 7) % 256);
                    tile_put(dst, i, j, 0xA5);
                }
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 32; ++j) tile_put(half, i, j, 0xA5);
            assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
            const pto_tile *tmp = kProfiles[p] == PTO_PROFILE_A2A3 ? idx : NULL;
            const pto_status st = pto_tgather(dst, src, idx, (pto_tile *)tmp);
            const pto_status mask = pto_tgather_mask(half, src, PTO_MASK_P1010, PTO_GATHER_ROW);
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            const bool ok = kProfiles[p] != PTO_PROFILE_A2A3;
            char what[96];
            snprintf(what, sizeof what, "tgather %s on %s", pto_dtype_string(kLow[d]),
                     pto_profile_string(kProfiles[p]));
            expect_status(st, ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            expect_status(mask, ok ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE, what);
            for (uint32_t i = 0; i < 2; ++i)
                for (uint32_t j = 0; j < 32; ++j) {
                    const uint32_t k = (i * 97 + j * 7) % 256;
                    assert_int_equal(tile_get(dst, i, j), ok ? tile_get(src, k / 64, k % 64) : 0xA5);
                }
            /* P1010 keeps the odd columns of each row, packed row after row */
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 32; ++j)
                    assert_int_equal(tile_get(half, i, j), ok ? tile_get(src, i, 2 * j + 1) : 0xA5);
            TILES_DESTROY(src, dst, idx, half);
        }
}

/* A program's pto.tcvt through a packed type: a packed tile's cols count
 * its bytes (PTOAS's logical extent twice that), the values as pto_tcvt's,
 * a NaN into FP4 refused when it runs. */
static void test_program_packed(void **state) {
    (void)state;
    static const char kText[] =
        "func.func @k(%s: !pto.tile_buf<vec, 2x64xbf16>, %d: !pto.tile_buf<vec, 2x32x!pto.f4E2M1x2>,\n"
        "             %b: !pto.tile_buf<vec, 2x64xbf16>) {\n"
        "  pto.tcvt ins(%s {rmode = #pto<round_mode CAST_RINT>} : !pto.tile_buf<vec, 2x64xbf16>) "
        "outs(%d : !pto.tile_buf<vec, 2x32x!pto.f4E2M1x2>)\n"
        "  pto.tcvt ins(%d {rmode = #pto<round_mode CAST_RINT>} : !pto.tile_buf<vec, 2x32x!pto.f4E2M1x2>) "
        "outs(%b : !pto.tile_buf<vec, 2x64xbf16>)\n"
        "  return\n}\n";
    pto_tile *src = tile_new(PTO_BFLOAT16, 2, 64, 2, 64), *fp4 = tile_new(PTO_FLOAT4_E2M1X2, 2, 32, 2, 32),
             *back = tile_new(PTO_BFLOAT16, 2, 64, 2, 64);
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 64; ++j) tile_put(src, i, j, f32_bits_of((double)(i * 64 + j) / 9.0 - 7.0) >> 16);
    const char *const names[] = {"s", "d", "b"};
    pto_tile *const tiles[] = {src, fp4, back};
    assert_int_equal(run_program_bound(kText, names, tiles, 3, NULL, NULL, 0), PTO_OK);
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 64; ++j) {
            const double x = bf16_of((uint32_t)tile_get(src, i, j));
            const uint32_t code = ref_encode(&g_e2m1, x, PTO_ROUND_RINT, true);
            assert_int_equal((tile_get(fp4, i, j / 2) >> (4 * (j & 1))) & 15, code);
            assert_true(bf16_of((uint32_t)tile_get(back, i, j)) == g_e2m1.value[code]);
        }
    tile_put(src, 1, 5, 0x7FC0);
    uint64_t *before = tile_snapshot(fp4);
    assert_int_equal(run_program_bound(kText, names, tiles, 3, NULL, NULL, 0), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "src (1, 5) is a NaN"));
    assert_tile_unchanged(fp4, before, "a NaN into FP4 in a program");
    free(before);
    /* an odd count of values short of the packed tile's bytes: refused with its sentence */
    static const char kOdd[] =
        "func.func @k(%s: !pto.tile_buf<vec, 2x64xbf16, valid=2x61>, %d: !pto.tile_buf<vec, 2x32x!pto.f4E2M1x2>) {\n"
        "  pto.tcvt ins(%s {rmode = #pto<round_mode CAST_RINT>} : !pto.tile_buf<vec, 2x64xbf16, valid=2x61>) "
        "outs(%d : !pto.tile_buf<vec, 2x32x!pto.f4E2M1x2>)\n"
        "  return\n}\n";
    tile_put(src, 1, 5, 0x3F80);
    assert_int_equal(pto_tile_set_valid(src, 2, 61), PTO_OK);
    before = tile_snapshot(fp4);
    const pto_status odd = run_program_bound(kOdd, names, tiles, 2, NULL, NULL, 0);
    assert_int_not_equal(odd, PTO_OK);
    if (strstr(pto_last_error(), "twice") == NULL) fail_msg("odd count: %s", pto_last_error());
    assert_tile_unchanged(fp4, before, "an odd count into FP4 in a program");
    free(before);
    tiles_destroy(3, tiles);
}

/* --long: every float32 pattern, every mode and saturation, on the best
 * target. */
static void test_every_f32(void **state) {
    (void)state;
    if (!g_long) {
        print_message("[lowp] every float32 pattern: --long (the long suite)\n");
        return;
    }
    enum { kN = 1 << 16 };
    uint64_t *in = malloc(kN * sizeof *in), *out = malloc(kN * sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    static const pto_dtype kDst[] = {PTO_FLOAT8_E4M3, PTO_FLOAT8_E5M2, PTO_HIFLOAT8};
    for (size_t k = 0; k < COUNT(kDst); ++k) {
        const format_table *t = table_of(kDst[k]);
        for (uint64_t base = 0; base < (uint64_t)1 << 32; base += kN) {
            for (size_t i = 0; i < kN; ++i) in[i] = base + i;
            for (size_t m = 0; m < COUNT(kModes); ++m)
                for (int sat = 0; sat < 2; ++sat) {
                    assert_int_equal(convert(PTO_FLOAT32, kDst[k], in, kN, kModes[m], (pto_saturation)sat, out), PTO_OK);
                    for (size_t i = 0; i < kN; ++i) {
                        const double x = f32_of((uint32_t)in[i]);
                        const uint32_t want = isnan(x) ? expected_nan(t, signbit(x)) : ref_encode(t, x, kModes[m], sat);
                        if (out[i] != want)
                            fail_msg("FLOAT32 0x%08llx -> %s mode %d sat %d: 0x%02llx, want 0x%02x",
                                     (unsigned long long)in[i], pto_dtype_string(kDst[k]), (int)kModes[m], sat,
                                     (unsigned long long)out[i], want);
                    }
                }
        }
        print_message("[lowp] every float32 pattern into %s checked\n", pto_dtype_string(kDst[k]));
    }
    free(in);
    free(out);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--long") == 0) g_long = true;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_decode_every_code),
        cmocka_unit_test(test_encode),
        cmocka_unit_test(test_encode_packed),
        cmocka_unit_test(test_a5_fixed_rounding),
        cmocka_unit_test(test_packed_rules),
        cmocka_unit_test(test_packed_odd),
        cmocka_unit_test(test_tmov_bytes),
        cmocka_unit_test(test_tinsert_bytes),
        cmocka_unit_test(test_textract_bytes),
        cmocka_unit_test(test_tgather_bytes),
        cmocka_unit_test(test_program_packed),
        cmocka_unit_test(test_every_f32),
    };
    return cmocka_run_group_tests(tests, setup_tables, NULL);
}
