/* TCVT against a reference written here in double arithmetic: every 16-bit
 * source value (FLOAT16, BFLOAT16, INT16) for every destination, mode and
 * saturation; 32-bit sources (FLOAT32, INT32, UINT32) on a sample of random
 * values plus every rounding boundary of the destination (each FLOAT16 and
 * BFLOAT16 value, the midpoints beside it and their neighbours; integers,
 * half-integers and range limits; INT32 values at every tie position of
 * FLOAT32); on every SIMD target, through contiguous and padded tiles. Then
 * the rules: accepted pairs per profile, enum arguments, ODD, NULLs,
 * aliasing, shapes, tmp never touched.
 *
 * The reference decides the neighbours of the exact value in the
 * destination's format and picks one by the mode (tie tests compare 2x
 * with the sum of the neighbours, exact in double); integers go through
 * floor and ceil. It shares nothing with the kernel.
 *
 * Under emulation (PTO_TEST_UNDER_QEMU, PTO_TEST_UNDER_VALGRIND) every 32nd
 * 16-bit value, 2^11 random 32-bit values per kind and every 64th FLOAT16 and
 * BFLOAT16 boundary are checked (said in the log). --long: 2^28 random
 * 32-bit sources per mode for FLOAT32 -> FLOAT16, FLOAT32 -> BFLOAT16,
 * FLOAT32 -> INT32 and INT32 -> FLOAT32 on the best target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static bool g_long;

/* ---- the contract's pairs --------------------------------------------- */

typedef struct {
    pto_dtype src;
    pto_dtype dst;
    bool a2a3, a5;
} pair;

static const pair kPairs[] = {
    {PTO_FLOAT32, PTO_FLOAT16, true, true},   {PTO_FLOAT32, PTO_FLOAT32, true, true},
    {PTO_FLOAT32, PTO_BFLOAT16, true, true},  {PTO_FLOAT32, PTO_INT16, true, true},
    {PTO_FLOAT32, PTO_INT32, true, true},     {PTO_FLOAT16, PTO_FLOAT32, true, true},
    {PTO_FLOAT16, PTO_INT32, true, true},     {PTO_FLOAT16, PTO_INT16, true, true},
    {PTO_FLOAT16, PTO_INT8, true, true},      {PTO_FLOAT16, PTO_UINT8, true, true},
    {PTO_BFLOAT16, PTO_FLOAT32, true, true},  {PTO_BFLOAT16, PTO_INT32, true, true},
    {PTO_BFLOAT16, PTO_FLOAT16, false, true}, {PTO_INT16, PTO_FLOAT16, true, true},
    {PTO_INT16, PTO_FLOAT32, true, true},     {PTO_INT16, PTO_UINT8, false, true},
    {PTO_INT16, PTO_UINT32, false, true},     {PTO_INT16, PTO_INT32, false, true},
    {PTO_INT32, PTO_FLOAT32, true, true},     {PTO_INT32, PTO_INT16, true, true},
    {PTO_INT32, PTO_FLOAT16, true, false},    {PTO_INT32, PTO_UINT16, false, true},
    {PTO_INT32, PTO_UINT8, false, true},      {PTO_UINT8, PTO_FLOAT16, true, true},
    {PTO_UINT8, PTO_UINT16, false, true},     {PTO_INT8, PTO_FLOAT16, true, true},
    {PTO_INT8, PTO_INT16, false, true},       {PTO_INT8, PTO_INT32, false, true},
    {PTO_UINT32, PTO_UINT8, false, true},     {PTO_UINT32, PTO_UINT16, false, true},
    {PTO_UINT32, PTO_INT16, false, true},
};

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

static const char *dtype_name(pto_dtype dt) {
    static const char *const names[] = {"INT8",   "UINT8",   "INT16",    "UINT16", "INT32",
                                        "UINT32", "FLOAT16", "BFLOAT16", "FLOAT32"};
    return names[dt];
}
static const char *mode_name(pto_round_mode m) {
    static const char *const names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD"};
    return names[m];
}

static bool pair_accepted(pto_profile profile, pto_dtype src, pto_dtype dst) {
    for (size_t i = 0; i < COUNT(kPairs); ++i) {
        if (kPairs[i].src != src || kPairs[i].dst != dst) continue;
        return profile == PTO_PROFILE_HOST || (profile == PTO_PROFILE_A2A3 ? kPairs[i].a2a3 : kPairs[i].a5);
    }
    return false;
}

static bool mode_allowed(pto_dtype src, pto_dtype dst, pto_round_mode m) {
    return m != PTO_ROUND_ODD || (src == PTO_FLOAT32 && dst == PTO_FLOAT16);
}

/* ---- the reference ----------------------------------------------------- */

typedef enum { OV_SATURATE, OV_WRAP, OV_INT32_THEN_WRAP } overflow;

typedef struct {
    pto_dtype src, dst;
    pto_round_mode mode; /* resolved: never NONE */
    bool sat;
    overflow ov;
} spec;

/* The contract's reading of (mode, sat, profile) for a pair. */
static spec spec_of(pto_dtype src, pto_dtype dst, pto_round_mode mode, pto_saturation sat,
                    pto_profile profile) {
    const bool float_to_int = ref_is_float(src) && !ref_is_float(dst);
    spec s = {src, dst, mode, sat == PTO_SAT_ON, OV_SATURATE};
    if (mode == PTO_ROUND_NONE) s.mode = float_to_int ? PTO_ROUND_TRUNC : PTO_ROUND_RINT;
    if (sat == PTO_SAT_OFF) {
        if (!ref_is_float(src)) {
            s.ov = OV_WRAP;
        } else if (profile != PTO_PROFILE_HOST &&
                   ((src == PTO_FLOAT32 && dst == PTO_INT16) ||
                    (src == PTO_FLOAT16 && (dst == PTO_INT16 || dst == PTO_INT8 || dst == PTO_UINT8)))) {
            s.ov = OV_INT32_THEN_WRAP;
        }
    }
    return s;
}

static double source_value(pto_dtype dt, uint32_t bits) {
    return ref_is_float(dt) ? ref_to_double(dt, bits) : (double)ref_int_value(dt, bits);
}

/* A magnitude bit pattern's value; the pattern of infinity stands for
 * 2^(emax + 1), where IEEE 754's unbounded rounding puts it. */
static double magnitude_value(pto_dtype dt, uint32_t magnitude, uint32_t inf_bits) {
    if (magnitude == inf_bits) return ldexp(1.0, ref_max_exponent(dt) + 1);
    return ref_to_double(dt, magnitude);
}

/* Which of the two neighbours lo < |x| < hi (magnitudes) the mode picks:
 * true for hi. */
static bool pick_upper(pto_round_mode mode, bool negative, double twice, double sum, uint32_t lo) {
    switch (mode) {
    case PTO_ROUND_RINT: return twice > sum || (twice == sum && (lo & 1u));
    case PTO_ROUND_ROUND: return twice >= sum;
    case PTO_ROUND_FLOOR: return negative;
    case PTO_ROUND_CEIL: return !negative;
    case PTO_ROUND_ODD: return (lo & 1u) == 0;
    default: return false; /* TRUNC */
    }
}

static uint32_t ref_to_float(pto_dtype dt, double x, pto_round_mode mode, bool sat) {
    const unsigned width = ref_bits(dt);
    const uint32_t sign_bit = 1u << (width - 1);
    const uint32_t inf_bits = ((1u << (width - 1 - ref_frac_bits(dt))) - 1u) << ref_frac_bits(dt);
    if (isnan(x)) return inf_bits | (1u << (ref_frac_bits(dt) - 1));
    const bool negative = signbit(x) != 0;
    const uint32_t sign = negative ? sign_bit : 0;
    const double ax = fabs(x);
    if (isinf(ax)) return sign | inf_bits;
    const uint32_t c = ref_from_double(dt, ax) & ~sign_bit;
    const double cv = magnitude_value(dt, c, inf_bits);
    uint32_t chosen = c;
    if (cv != ax || c == inf_bits) {
        /* at or beyond infinity's stand-in: between the largest finite and it */
        const bool beyond = c == inf_bits;
        const uint32_t lo = beyond ? c - 1 : cv < ax ? c : c - 1;
        const uint32_t hi = beyond ? c : cv < ax ? c + 1 : c;
        const double sum = magnitude_value(dt, lo, inf_bits) + magnitude_value(dt, hi, inf_bits);
        chosen = pick_upper(mode, negative, 2 * ax, sum, lo) ? hi : lo;
    }
    if (chosen == inf_bits && sat) chosen = inf_bits - 1;
    return sign | chosen;
}

/* x rounded to an integer by the mode (x finite). */
static double round_integer(double x, pto_round_mode mode) {
    const double fl = floor(x), ce = ceil(x);
    if (fl == x) return x;
    const double d = x - fl; /* exact: |x| < 2^53 here */
    switch (mode) {
    case PTO_ROUND_FLOOR: return fl;
    case PTO_ROUND_CEIL: return ce;
    case PTO_ROUND_TRUNC: return x < 0 ? ce : fl;
    case PTO_ROUND_ROUND: return d < 0.5 ? fl : d > 0.5 ? ce : (x < 0 ? fl : ce);
    default: return d < 0.5 ? fl : d > 0.5 ? ce : (fmod(fl, 2.0) == 0 ? fl : ce);
    }
}

static uint32_t ref_to_int(pto_dtype dt, double x, pto_round_mode mode, overflow ov) {
    if (isnan(x)) return 0;
    const unsigned n = ref_bits(dt);
    const double lo = ref_is_signed(dt) ? -ldexp(1.0, (int)n - 1) : 0.0;
    const double hi = ldexp(1.0, ref_is_signed(dt) ? (int)n - 1 : (int)n) - 1;
    double r = isinf(x) ? x : round_integer(x, mode);
    if (r < lo || r > hi) {
        if (ov == OV_SATURATE) {
            r = r < lo ? lo : hi;
        } else if (ov == OV_INT32_THEN_WRAP) {
            r = r < -2147483648.0 ? -2147483648.0 : r > 2147483647.0 ? 2147483647.0 : r;
        }
    }
    return ref_int_wrap(dt, (uint64_t)(int64_t)r);
}

static uint32_t reference(const spec *s, uint32_t bits) {
    const double x = source_value(s->src, bits);
    if (!ref_is_float(s->dst)) return ref_to_int(s->dst, x, s->mode, s->ov);
    if (s->src == PTO_FLOAT32 && s->dst == PTO_FLOAT32 && isfinite(x))
        return ref_to_float(PTO_FLOAT32, copysign(round_integer(x, s->mode), x), s->mode, false);
    return ref_to_float(s->dst, x, s->mode, s->sat);
}

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    if (want == got) return true;
    return ref_is_nan(dt, want) && ref_is_nan(dt, got);
}

/* ---- running ----------------------------------------------------------- */

/* Converts n source values through a 1 x n tile pair (or, with pad > 0,
 * through rows of `row` valid elements in tiles pad columns wider). */
static void run_convert(pto_dtype src, pto_dtype dst, pto_round_mode mode, pto_saturation sat,
                        const uint32_t *in, uint32_t *out, size_t n, uint32_t row, uint32_t pad) {
    const uint32_t cols = row, rows = (uint32_t)((n + row - 1) / row);
    pto_tile *s = tile_new(src, rows, cols + pad, rows, cols);
    pto_tile *d = tile_new(dst, rows, cols + pad, rows, cols);
    if (pad == 0) {
        /* packed through the tile's bytes */
        const size_t total = (size_t)rows * cols;
        void *bytes = calloc(total, 4);
        assert_non_null(bytes);
        for (size_t i = 0; i < n; ++i) ref_store(src, bytes, i, in[i]);
        assert_int_equal(pto_tile_write(s, bytes, total * pto_dtype_size(src)), PTO_OK);
        assert_int_equal(pto_tcvt(d, s, NULL, mode, sat), PTO_OK);
        assert_int_equal(pto_tile_read(d, bytes, total * pto_dtype_size(dst)), PTO_OK);
        for (size_t i = 0; i < n; ++i) out[i] = ref_load(dst, bytes, i);
        free(bytes);
    } else {
        for (size_t i = 0; i < (size_t)rows * cols; ++i)
            tile_put(s, i / cols, i % cols, i < n ? in[i] : 0);
        assert_int_equal(pto_tcvt(d, s, NULL, mode, sat), PTO_OK);
        for (size_t i = 0; i < n; ++i) out[i] = tile_get(d, i / cols, i % cols);
    }
    pto_tile_destroy(s);
    pto_tile_destroy(d);
}

/* Whether the profile changes a pair's results: A2A3 and A5 differ from HOST
 * only in SAT_OFF float -> integer pairs narrowed through INT32. */
static bool profile_matters(pto_dtype src, pto_dtype dst) {
    return (src == PTO_FLOAT32 && dst == PTO_INT16) ||
           (src == PTO_FLOAT16 && (dst == PTO_INT16 || dst == PTO_INT8 || dst == PTO_UINT8));
}

typedef struct {
    const char *what;
    size_t checked, wrong;
} tally;

/* One pair over the inputs: every mode and saturation, under HOST and,
 * where the profile matters, A2A3 and A5; the reference computed once per
 * case and compared on every SIMD target. */
static void sweep_pair(tally *t, pto_dtype src, pto_dtype dst, const uint32_t *in, size_t n) {
    uint32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    const int last_profile = profile_matters(src, dst) ? PTO_PROFILE_A5 : PTO_PROFILE_HOST;
    for (int profile = PTO_PROFILE_HOST; profile <= last_profile; ++profile) {
        if (!pair_accepted((pto_profile)profile, src, dst)) continue;
        assert_int_equal(pto_set_profile((pto_profile)profile), PTO_OK);
        for (int m = PTO_ROUND_NONE; m <= PTO_ROUND_ODD; ++m) {
            if (!mode_allowed(src, dst, (pto_round_mode)m)) continue;
            for (int sat = PTO_SAT_OFF; sat <= PTO_SAT_ON; ++sat) {
                const spec s = spec_of(src, dst, (pto_round_mode)m, (pto_saturation)sat,
                                       (pto_profile)profile);
                for (size_t i = 0; i < n; ++i) want[i] = reference(&s, in[i]);
                for (size_t k = 0; k < targets_count(); ++k) {
                    if (!test_target_wanted(targets_name(targets_at(k)))) continue;
                    targets_select(targets_at(k));
                    run_convert(src, dst, (pto_round_mode)m, (pto_saturation)sat, in, got, n,
                                n > 4096 ? 4096 : (uint32_t)n, 0);
                    size_t wrong = 0;
                    for (size_t i = 0; i < n; ++i) {
                        if (same_result(dst, want[i], got[i])) continue;
                        if (wrong++ < 3)
                            print_message("[%s %s %s] %s -> %s %s sat %d: src 0x%x gives 0x%x, "
                                          "want 0x%x\n",
                                          t->what, pto_simd_target(),
                                          pto_profile_string((pto_profile)profile),
                                          dtype_name(src), dtype_name(dst),
                                          mode_name((pto_round_mode)m), sat, in[i], got[i], want[i]);
                    }
                    t->checked += n;
                    t->wrong += wrong;
                }
                targets_select(0);
            }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(want);
    free(got);
}

static void print_targets(const char *what) {
    char names[256] = "";
    for (size_t k = 0; k < targets_count(); ++k) {
        if (!test_target_wanted(targets_name(targets_at(k)))) continue;
        strncat(names, " ", sizeof names - strlen(names) - 1);
        strncat(names, targets_name(targets_at(k)), sizeof names - strlen(names) - 1);
    }
    print_message("[tcvt] %s ran on:%s\n", what, names);
}

/* ---- every 16-bit source ----------------------------------------------- */

static void test_every_16bit_source(void **state) {
    (void)state;
    const size_t step = under_emulation() ? 32 : 1;
    const size_t n = 65536 / step;
    uint32_t *in = malloc(n * sizeof *in), bytes[256];
    assert_non_null(in);
    for (size_t i = 0; i < n; ++i) in[i] = (uint32_t)(i * step);
    for (uint32_t b = 0; b < 256; ++b) bytes[b] = b;
    if (step != 1)
        print_message("[tcvt] under emulation: every %zuth 16-bit source value\n", step);
    tally t = {"16-bit", 0, 0};
    for (size_t p = 0; p < COUNT(kPairs); ++p) {
        const unsigned width = ref_bits(kPairs[p].src);
        if (width == 16) sweep_pair(&t, kPairs[p].src, kPairs[p].dst, in, n);
        if (width == 8) sweep_pair(&t, kPairs[p].src, kPairs[p].dst, bytes, 256);
    }
    print_targets("16-bit and 8-bit sources");
    print_message("[tcvt] 16-bit and 8-bit sources: %zu conversions, %zu wrong\n", t.checked, t.wrong);
    free(in);
    assert_int_equal(t.wrong, 0);
}

/* ---- 32-bit sources: a sample and the boundaries ----------------------- */

typedef struct {
    uint32_t *v;
    size_t n, cap;
} values;

static void push(values *s, uint32_t x) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1 << 16;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        assert_non_null(s->v);
    }
    s->v[s->n++] = x;
}

static uint32_t f32_bits(double x) {
    union {
        float f;
        uint32_t u;
    } v = {(float)x};
    return v.u;
}

/* The float32 values at and beside every value of a narrower float type and
 * the midpoints between neighbours (each exact in float32), both signs. */
static void push_narrow_boundaries(values *s, pto_dtype narrow, uint32_t step) {
    const uint32_t shift = 23u - (uint32_t)ref_frac_bits(narrow);
    for (uint32_t b = 0; b < 0x8000u; b += step) {
        const double v = ref_to_double(narrow, b);
        if (!isfinite(v)) continue;
        const uint32_t f = f32_bits(v);
        /* the midpoint above v; above FLOAT16's largest value, 65520 */
        const double next = ref_to_double(narrow, b + 1);
        const uint32_t mid = narrow == PTO_BFLOAT16 ? f + (1u << (shift - 1))
                             : isfinite(next)       ? f32_bits((v + next) / 2)
                                                    : f32_bits(65520.0);
        const uint32_t cands[] = {f, f - 1, f + 1, mid, mid - 1, mid + 1};
        for (size_t k = 0; k < COUNT(cands); ++k) {
            if (b == 0 && k == 1) continue;
            push(s, cands[k]);
            push(s, cands[k] | 0x80000000u);
        }
    }
}

static void push_float_specials(values *s) {
    const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                           0xFFC00000u, 0x7F800001u, 0x7FBFFFFFu, 0x00000001u, 0x807FFFFFu,
                           0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u, 0x33000000u, 0x33000001u};
    for (size_t k = 0; k < COUNT(sp); ++k) push(s, sp[k]);
}

/* Integers k, k +- 1/2 and their float32 neighbours near 0 and near the
 * limits of every integer type, and the limits themselves. */
static void push_integer_boundaries(values *s) {
    static const double centres[] = {0, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                                     2147483520.0, 2147483648.0, 4294967296.0};
    for (size_t c = 0; c < COUNT(centres); ++c) {
        for (int d = -6; d <= 6; ++d) {
            for (int sign = -1; sign <= 1; sign += 2) {
                const double x = sign * (centres[c] + d * 0.5);
                const uint32_t f = f32_bits(x);
                push(s, f);
                push(s, f + 1);
                if ((f & 0x7FFFFFFFu) != 0) push(s, f - 1);
            }
        }
    }
}

/* INT32 values at every position relative to float32's grid: m * 2^k + d
 * with d at and around 0 and the tie. */
static void push_int32_boundaries(values *s, rng *r) {
    const uint32_t limits[] = {0, 1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                               0x7FFFFFC0u, 0x7FFFFF80u, 0x00FFFFFFu, 0x01000000u, 0x01000001u};
    for (size_t k = 0; k < COUNT(limits); ++k) push(s, limits[k]);
    for (int k = 1; k <= 8; ++k) {
        for (int t = 0; t < 64; ++t) {
            const int64_t m = rng_between(r, (int64_t)1 << 23, ((int64_t)1 << 24) - 1);
            const int64_t base = m << k;
            const int64_t half = (int64_t)1 << (k - 1);
            const int64_t ds[] = {0, 1, -1, half, half - 1, half + 1};
            for (size_t j = 0; j < COUNT(ds); ++j) {
                const int64_t x = base + ds[j];
                if (x > INT32_MAX) continue;
                push(s, (uint32_t)x);
                push(s, (uint32_t)(-x));
            }
        }
    }
    /* Around INT16, UINT16, UINT8 limits for the integer narrowings. */
    const int64_t centres[] = {0, 127, 255, 32767, 65535};
    for (size_t c = 0; c < COUNT(centres); ++c)
        for (int d = -3; d <= 3; ++d) {
            push(s, (uint32_t)(centres[c] + d));
            push(s, (uint32_t)(-(centres[c] + d)));
        }
}

static void test_32bit_sources(void **state) {
    (void)state;
    const bool emulated = under_emulation();
    const size_t random_count = emulated ? (1u << 11) : (1u << 15);
    const uint32_t boundary_step = emulated ? 64 : 1;
    if (emulated)
        print_message("[tcvt] under emulation: %zu random 32-bit sources per kind, every %uth "
                      "FLOAT16/BFLOAT16 boundary\n", random_count, boundary_step);
    rng r = {0x7C77};
    values random_f32 = {NULL, 0, 0}, to_f16 = {NULL, 0, 0}, to_bf16 = {NULL, 0, 0};
    values to_int = {NULL, 0, 0}, i32 = {NULL, 0, 0};
    for (size_t i = 0; i < random_count; ++i) {
        push(&random_f32, (uint32_t)rng_next(&r));
        push(&random_f32, gen_value(&r, PTO_FLOAT32, GEN_ANY));
    }
    push_float_specials(&random_f32);
    /* each destination: the random values, the specials and its own
     * boundaries */
    values *const kinds[] = {&to_f16, &to_bf16, &to_int};
    for (size_t k = 0; k < COUNT(kinds); ++k)
        for (size_t i = 0; i < random_f32.n; ++i) push(kinds[k], random_f32.v[i]);
    push_narrow_boundaries(&to_f16, PTO_FLOAT16, boundary_step);
    push_narrow_boundaries(&to_bf16, PTO_BFLOAT16, boundary_step);
    push_integer_boundaries(&to_int);
    for (size_t i = 0; i < random_count; ++i) {
        push(&i32, (uint32_t)rng_next(&r));
        push(&i32, (uint32_t)rng_between(&r, -70000, 70000));
    }
    push_int32_boundaries(&i32, &r);
    print_message("[tcvt] 32-bit sources: FLOAT32 %zu to FLOAT16, %zu to BFLOAT16, %zu to "
                  "integers and FLOAT32; INT32/UINT32 %zu\n", to_f16.n, to_bf16.n, to_int.n, i32.n);
    tally t = {"32-bit", 0, 0};
    for (size_t p = 0; p < COUNT(kPairs); ++p) {
        const pair *pr = &kPairs[p];
        if (pr->src == PTO_FLOAT32) {
            const values *v = pr->dst == PTO_FLOAT16 ? &to_f16 : pr->dst == PTO_BFLOAT16 ? &to_bf16 : &to_int;
            sweep_pair(&t, pr->src, pr->dst, v->v, v->n);
        } else if (pr->src == PTO_INT32 || pr->src == PTO_UINT32) {
            sweep_pair(&t, pr->src, pr->dst, i32.v, i32.n);
        }
    }
    print_targets("32-bit sources");
    print_message("[tcvt] 32-bit sources: %zu conversions, %zu wrong\n", t.checked, t.wrong);
    free(random_f32.v);
    free(to_f16.v);
    free(to_bf16.v);
    free(to_int.v);
    free(i32.v);
    assert_int_equal(t.wrong, 0);
}

/* ---- padded tiles: rows that do not follow one another ------------------ */

static void padded_body(void *ctx, size_t index, const char *target) {
    (void)index, (void)ctx;
    static const pair kSome[] = {{PTO_FLOAT32, PTO_FLOAT16, 1, 1}, {PTO_FLOAT32, PTO_BFLOAT16, 1, 1},
                                 {PTO_FLOAT32, PTO_INT32, 1, 1},  {PTO_INT32, PTO_FLOAT32, 1, 1},
                                 {PTO_FLOAT16, PTO_INT8, 1, 1},   {PTO_BFLOAT16, PTO_FLOAT32, 1, 1},
                                 {PTO_INT16, PTO_FLOAT16, 1, 1},  {PTO_FLOAT32, PTO_INT16, 1, 1}};
    static const uint32_t kRows[] = {1, 3, 7, 13, 67};
    rng r = {0x9AD};
    uint32_t in[7 * 67], want[7 * 67], got[7 * 67];
    for (size_t p = 0; p < COUNT(kSome); ++p) {
        for (size_t k = 0; k < COUNT(kRows); ++k) {
            const uint32_t row = kRows[k];
            const size_t n = (size_t)row * 7;
            for (size_t i = 0; i < n; ++i) in[i] = gen_value(&r, kSome[p].src, GEN_ANY);
            const pto_round_mode mode = (pto_round_mode)(1 + (k + p) % 5);
            const spec s = spec_of(kSome[p].src, kSome[p].dst, mode, PTO_SAT_OFF, PTO_PROFILE_HOST);
            for (size_t i = 0; i < n; ++i) want[i] = reference(&s, in[i]);
            run_convert(kSome[p].src, kSome[p].dst, mode, PTO_SAT_OFF, in, got, n, row, 5);
            for (size_t i = 0; i < n; ++i) {
                if (!same_result(kSome[p].dst, want[i], got[i]))
                    fail_msg("[%s] padded %s -> %s %s row %u: src 0x%x gives 0x%x, want 0x%x", target,
                             dtype_name(kSome[p].src), dtype_name(kSome[p].dst), mode_name(mode), row,
                             in[i], got[i], want[i]);
            }
        }
    }
}

static void test_padded_tiles(void **state) {
    (void)state;
    for_each_target("tcvt padded tiles", padded_body, NULL);
}

/* ---- hand-checked values ------------------------------------------------ */

static void test_known_values(void **state) {
    (void)state;
    typedef struct {
        pto_dtype src, dst;
        pto_round_mode mode;
        pto_saturation sat;
        uint32_t in, want;
    } known;
    static const known kKnown[] = {
        /* 65520 is FLOAT16's overflow threshold: RINT -> inf, TRUNC -> 65504 */
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_RINT, PTO_SAT_OFF, 0x477FF000u, 0x7C00u},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_TRUNC, PTO_SAT_OFF, 0x477FF000u, 0x7BFFu},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_RINT, PTO_SAT_ON, 0x477FF000u, 0x7BFFu},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_FLOOR, PTO_SAT_OFF, 0xC77FF000u, 0xFC00u},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_CEIL, PTO_SAT_OFF, 0xC77FF000u, 0xFBFFu},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_ODD, PTO_SAT_OFF, 0x3F800001u, 0x3C01u},
        {PTO_FLOAT32, PTO_FLOAT16, PTO_ROUND_ODD, PTO_SAT_OFF, 0x3F802000u, 0x3C01u},
        /* 1 + 2^-8 to BFLOAT16: a tie, even down (RINT), away up (ROUND) */
        {PTO_FLOAT32, PTO_BFLOAT16, PTO_ROUND_RINT, PTO_SAT_OFF, 0x3F808000u, 0x3F80u},
        {PTO_FLOAT32, PTO_BFLOAT16, PTO_ROUND_ROUND, PTO_SAT_OFF, 0x3F808000u, 0x3F81u},
        {PTO_FLOAT32, PTO_BFLOAT16, PTO_ROUND_NONE, PTO_SAT_OFF, 0x3F818000u, 0x3F82u},
        /* -2.5 to INT32 */
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_RINT, PTO_SAT_ON, 0xC0200000u, 0xFFFFFFFEu},
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_ROUND, PTO_SAT_ON, 0xC0200000u, 0xFFFFFFFDu},
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_NONE, PTO_SAT_ON, 0xC0200000u, 0xFFFFFFFEu},
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_FLOOR, PTO_SAT_ON, 0xC0200000u, 0xFFFFFFFDu},
        /* 2^31 and NaN to INT32 */
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_RINT, PTO_SAT_OFF, 0x4F000000u, 0x7FFFFFFFu},
        {PTO_FLOAT32, PTO_INT32, PTO_ROUND_RINT, PTO_SAT_OFF, 0x7FC00000u, 0u},
        /* 300.7 to INT8 through FLOAT16 (300.75): saturates on HOST */
        {PTO_FLOAT16, PTO_INT8, PTO_ROUND_TRUNC, PTO_SAT_OFF, 0x5CB3u, 0x7Fu},
        {PTO_FLOAT16, PTO_INT8, PTO_ROUND_ROUND, PTO_SAT_ON, 0xDCB3u, 0x80u},
        /* 2^24 + 1 to FLOAT32: ties to even below, CEIL up */
        {PTO_INT32, PTO_FLOAT32, PTO_ROUND_RINT, PTO_SAT_OFF, 0x01000001u, 0x4B800000u},
        {PTO_INT32, PTO_FLOAT32, PTO_ROUND_CEIL, PTO_SAT_OFF, 0x01000001u, 0x4B800001u},
        {PTO_INT32, PTO_FLOAT32, PTO_ROUND_FLOOR, PTO_SAT_OFF, 0xFEFFFFFFu, 0xCB800001u},
        /* INT32 -> INT16: wraps without saturation, clamps with */
        {PTO_INT32, PTO_INT16, PTO_ROUND_RINT, PTO_SAT_OFF, 0x00012345u, 0x2345u},
        {PTO_INT32, PTO_INT16, PTO_ROUND_RINT, PTO_SAT_ON, 0x00012345u, 0x7FFFu},
        /* FLOAT32 -> FLOAT32 rounds to integral, keeps -0 */
        {PTO_FLOAT32, PTO_FLOAT32, PTO_ROUND_TRUNC, PTO_SAT_OFF, 0xBE99999Au, 0x80000000u},
        {PTO_FLOAT32, PTO_FLOAT32, PTO_ROUND_ROUND, PTO_SAT_OFF, 0x40200000u, 0x40400000u},
    };
    for (size_t k = 0; k < COUNT(kKnown); ++k) {
        const known *c = &kKnown[k];
        uint32_t got;
        run_convert(c->src, c->dst, c->mode, c->sat, &c->in, &got, 1, 1, 0);
        if (got != c->want)
            fail_msg("%s -> %s %s sat %d: 0x%x gives 0x%x, want 0x%x", dtype_name(c->src),
                     dtype_name(c->dst), mode_name(c->mode), c->sat, c->in, got, c->want);
    }
    /* Under A5 with SAT_OFF, FLOAT16 -> INT8 goes through INT32: 300 -> 44. */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    uint32_t in = 0x5CB0u, got; /* 300.0 */
    run_convert(PTO_FLOAT16, PTO_INT8, PTO_ROUND_TRUNC, PTO_SAT_OFF, &in, &got, 1, 1, 0);
    assert_int_equal(got, 44u);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* ---- rules ------------------------------------------------------------- */

static void expect_error(pto_status got, pto_status want, const char *fragment) {
    assert_int_equal(got, want);
    const char *msg = pto_last_error();
    if (strstr(msg, "pto_tcvt") == NULL || (fragment != NULL && strstr(msg, fragment) == NULL))
        fail_msg("error \"%s\" lacks \"%s\"", msg, fragment ? fragment : "pto_tcvt");
}

static void test_pairs_per_profile(void **state) {
    (void)state;
    size_t accepted[3] = {0, 0, 0};
    for (int profile = PTO_PROFILE_HOST; profile <= PTO_PROFILE_A5; ++profile) {
        assert_int_equal(pto_set_profile((pto_profile)profile), PTO_OK);
        for (size_t a = 0; a < COUNT(kDtypes); ++a) {
            for (size_t b = 0; b < COUNT(kDtypes); ++b) {
                pto_tile *s = tile_new(kDtypes[a], 2, 8, 2, 8), *d = tile_new(kDtypes[b], 2, 8, 2, 8);
                uint64_t *before = tile_snapshot(d);
                const pto_status st = pto_tcvt(d, s, NULL, PTO_ROUND_RINT, PTO_SAT_ON);
                if (pair_accepted((pto_profile)profile, kDtypes[a], kDtypes[b])) {
                    assert_int_equal(st, PTO_OK);
                    ++accepted[profile];
                } else {
                    char text[96];
                    snprintf(text, sizeof text, "converting %s to %s", dtype_name(kDtypes[a]),
                             dtype_name(kDtypes[b]));
                    expect_error(st, PTO_ERR_UNSUPPORTED_DTYPE, text);
                    assert_non_null(strstr(pto_last_error(), pto_profile_string((pto_profile)profile)));
                    assert_tile_unchanged(d, before, "dst of a refused pair");
                }
                free(before);
                pto_tile_destroy(s);
                pto_tile_destroy(d);
            }
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[tcvt] accepted pairs: HOST %zu, A2A3 %zu, A5 %zu\n", accepted[0], accepted[1],
                  accepted[2]);
    assert_int_equal(accepted[0], COUNT(kPairs));
}

static void test_rules(void **state) {
    (void)state;
    pto_tile *s = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *d = tile_new(PTO_FLOAT16, 4, 8, 4, 8);
    pto_tile *tmp = tile_new(PTO_UINT8, 1, 1, 1, 1);
    rng r = {3};
    tile_fill(s, &r, GEN_ANY);
    tile_fill(tmp, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(d), *tmp_before = tile_snapshot(tmp);
    expect_error(pto_tcvt(NULL, s, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_NULL_ARGUMENT, "dst");
    expect_error(pto_tcvt(d, NULL, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_NULL_ARGUMENT, "src");
    expect_error(pto_tcvt(d, s, NULL, (pto_round_mode)7, PTO_SAT_OFF), PTO_ERR_INVALID_ARGUMENT, "mode");
    expect_error(pto_tcvt(d, s, NULL, (pto_round_mode)-1, PTO_SAT_OFF), PTO_ERR_INVALID_ARGUMENT, "mode");
    expect_error(pto_tcvt(d, s, NULL, PTO_ROUND_RINT, (pto_saturation)2), PTO_ERR_INVALID_ARGUMENT, "sat");
    /* NULLs before enums, enums before the pair */
    expect_error(pto_tcvt(NULL, s, NULL, (pto_round_mode)9, PTO_SAT_OFF), PTO_ERR_NULL_ARGUMENT, "dst");
    pto_tile *i8 = tile_new(PTO_INT8, 4, 8, 4, 8);
    expect_error(pto_tcvt(i8, s, NULL, (pto_round_mode)9, PTO_SAT_OFF), PTO_ERR_INVALID_ARGUMENT, "mode");
    expect_error(pto_tcvt(i8, s, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_UNSUPPORTED_DTYPE,
                 "converting FLOAT32 to INT8");
    /* ODD: FLOAT32 -> FLOAT16 only; the refusal names the pair */
    assert_int_equal(pto_tcvt(d, s, NULL, PTO_ROUND_ODD, PTO_SAT_OFF), PTO_OK);
    free(before);
    before = tile_snapshot(d);
    pto_tile *bf = tile_new(PTO_BFLOAT16, 4, 8, 4, 8), *f32 = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    expect_error(pto_tcvt(bf, s, NULL, PTO_ROUND_ODD, PTO_SAT_OFF), PTO_ERR_INVALID_ARGUMENT,
                 "FLOAT32 to BFLOAT16");
    expect_error(pto_tcvt(f32, d, NULL, PTO_ROUND_ODD, PTO_SAT_OFF), PTO_ERR_INVALID_ARGUMENT,
                 "FLOAT16 to FLOAT32");
    /* tmp: any dtype and shape, neither read nor written, a distinct handle */
    assert_int_equal(pto_tcvt(d, s, tmp, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_tile_unchanged(tmp, tmp_before, "tmp");
    free(before);
    before = tile_snapshot(d);
    expect_error(pto_tcvt(d, s, d, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_ALIASING, "tmp");
    expect_error(pto_tcvt(d, s, (pto_tile *)s, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_ALIASING, "tmp");
    /* shapes */
    pto_tile *small = tile_new(PTO_FLOAT16, 4, 8, 3, 8);
    expect_error(pto_tcvt(small, s, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_SHAPE_MISMATCH, NULL);
    pto_tile *wide = tile_new(PTO_FLOAT16, 4, 16, 4, 8); /* other physical shape, same region: fine */
    assert_int_equal(pto_tcvt(wide, s, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    assert_tile_unchanged(d, before, "dst after refusals");
    /* aliasing: one buffer, FLOAT32 and INT32 on the same bytes (in place,
     * same size) is allowed; FLOAT32 and FLOAT16 sharing bytes is not */
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *pf = NULL, *pi = NULL, *ph = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 4, 8, buf, 0, &pf), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &pi), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT16, 4, 8, buf, 64, &ph), PTO_OK);
    float *pfd = pto_tile_data(pf);
    for (int i = 0; i < 32; ++i) pfd[i] = (float)i * 1.5f - 7.25f;
    assert_int_equal(pto_tcvt(pi, pf, NULL, PTO_ROUND_RINT, PTO_SAT_ON), PTO_OK);
    const int32_t *pid = pto_tile_data(pi);
    for (int i = 0; i < 32; ++i)
        assert_int_equal(pid[i], (int32_t)(rint((double)i * 1.5 - 7.25)));
    expect_error(pto_tcvt(ph, pf, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_ERR_ALIASING, NULL);
    pto_tile_destroy(pf);
    pto_tile_destroy(pi);
    pto_tile_destroy(ph);
    pto_buffer_destroy(buf);
    /* an empty region: accepted, nothing written */
    pto_tile *e_src = tile_new(PTO_FLOAT32, 2, 2, 0, 2), *e_dst = tile_new(PTO_INT32, 2, 2, 0, 2);
    assert_int_equal(pto_tcvt(e_dst, e_src, NULL, PTO_ROUND_RINT, PTO_SAT_OFF), PTO_OK);
    pto_tile_destroy(e_src);
    pto_tile_destroy(e_dst);
    free(before);
    free(tmp_before);
    pto_tile_destroy(s);
    pto_tile_destroy(d);
    pto_tile_destroy(tmp);
    pto_tile_destroy(i8);
    pto_tile_destroy(bf);
    pto_tile_destroy(f32);
    pto_tile_destroy(small);
    pto_tile_destroy(wide);
}

/* ---- programs: the three text forms ------------------------------------ */

static void test_program_forms(void **state) {
    (void)state;
    typedef struct {
        pto_dtype src, dst;
        const char *rmode;     /* the attribute's text, "" for none */
        const char *sat;       /* "" for none */
        pto_round_mode mode;   /* what the C call takes for them */
        pto_saturation c_sat;
    } form_case;
    static const form_case kCases[] = {
        {PTO_FLOAT32, PTO_INT32, "#pto<round_mode FLOOR>", "#pto<saturation_mode ON>", PTO_ROUND_FLOOR, PTO_SAT_ON},
        {PTO_FLOAT32, PTO_BFLOAT16, "#pto<round_mode ROUND>", "", PTO_ROUND_ROUND, PTO_SAT_ON},
        {PTO_FLOAT32, PTO_FLOAT16, "#pto<round_mode ODD>", "#pto<saturation_mode OFF>", PTO_ROUND_ODD, PTO_SAT_OFF},
        {PTO_FLOAT32, PTO_INT32, "", "", PTO_ROUND_RINT, PTO_SAT_ON}, /* PTOAS's default CAST_RINT */
        {PTO_FLOAT32, PTO_INT32, "#pto<round_mode CAST_RINT>", "", PTO_ROUND_RINT, PTO_SAT_ON},
        {PTO_FLOAT32, PTO_INT16, "#pto.round_mode<CAST_TRUNC>", "", PTO_ROUND_TRUNC, PTO_SAT_OFF},
        {PTO_FLOAT16, PTO_INT8, "#pto<round_mode TRUNC>", "", PTO_ROUND_TRUNC, PTO_SAT_OFF},
        {PTO_BFLOAT16, PTO_FLOAT32, "#pto<round_mode NONE>", "", PTO_ROUND_NONE, PTO_SAT_ON},
        {PTO_INT32, PTO_FLOAT32, "#pto<round_mode CEIL>", "", PTO_ROUND_CEIL, PTO_SAT_ON},
    };
    rng r = {0xF0};
    size_t runs = 0;
    for (int profile = PTO_PROFILE_HOST; profile <= PTO_PROFILE_A5; ++profile) {
        for (size_t k = 0; k < COUNT(kCases); ++k) {
            const form_case *c = &kCases[k];
            pto_tile *s = tile_new(c->src, 5, 24, 5, 21), *want = tile_new(c->dst, 5, 24, 5, 21);
            tile_fill(s, &r, GEN_ANY);
            assert_int_equal(pto_set_profile((pto_profile)profile), PTO_OK);
            const pto_status expected = pto_tcvt(want, s, NULL, c->mode, c->c_sat);
            char ts[96], td[96], tbs[96], tbd[96], attrs[160] = "";
            snprintf(ts, sizeof ts, "!pto.tile<5x24x%s, valid=5x21>", dtype_spelling(c->src));
            snprintf(td, sizeof td, "!pto.tile<5x24x%s, valid=5x21>", dtype_spelling(c->dst));
            snprintf(tbs, sizeof tbs, "!pto.tile_buf<vec, 5x24x%s, valid=5x21>", dtype_spelling(c->src));
            snprintf(tbd, sizeof tbd, "!pto.tile_buf<vec, 5x24x%s, valid=5x21>", dtype_spelling(c->dst));
            if (*c->rmode || *c->sat)
                snprintf(attrs, sizeof attrs, " {%s%s%s%s%s}", *c->rmode ? "rmode = " : "", c->rmode,
                         *c->rmode && *c->sat ? ", " : "", *c->sat ? "sat_mode = " : "", c->sat);
            char texts[4][512];
            snprintf(texts[0], sizeof texts[0], "%%d = tcvt %%s%s : %s -> %s\n", attrs, ts, td);
            snprintf(texts[1], sizeof texts[1], "%%d = pto.tcvt %%s%s : (%s) -> %s\n", attrs, ts, td);
            snprintf(texts[2], sizeof texts[2], "pto.tcvt ins(%%s%s : %s) outs(%%d : %s)\n", attrs, tbs, tbd);
            snprintf(texts[3], sizeof texts[3], "pto.tcvt ins(%%s : %s) outs(%%d : %s)%s\n", tbs, tbd, attrs);
            for (size_t f = 0; f < COUNT(texts); ++f) {
                pto_tile *got = tile_new(c->dst, 5, 24, 5, 21);
                const pto_status st = run_snippet_sd(texts[f], s, got);
                if (st != expected)
                    fail_msg("%s: program %s (%s), C call %s", texts[f], pto_status_string(st),
                             pto_last_error(), pto_status_string(expected));
                if (st == PTO_OK) {
                    for (uint32_t i = 0; i < 5; ++i)
                        for (uint32_t j = 0; j < 21; ++j)
                            if (tile_get(got, i, j) != tile_get(want, i, j))
                                fail_msg("%s: (%u,%u) 0x%x, the C call 0x%x", texts[f], i, j,
                                         tile_get(got, i, j), tile_get(want, i, j));
                    ++runs;
                }
                pto_tile_destroy(got);
            }
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
            pto_tile_destroy(s);
            pto_tile_destroy(want);
        }
    }
    /* refusals: an unknown mode, a pair the profile lacks, PTOAS's shape rule */
    static const char *const kBad[] = {
        "%d = pto.tcvt %s {rmode = #pto<round_mode NEAREST>} : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xi32>\n",
        "%d = pto.tcvt %s {sat_mode = #pto<saturation_mode MAYBE>} : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xi32>\n",
        "%d = pto.tcvt %s {rounding = #pto<round_mode RINT>} : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xi32>\n",
        "%d = pto.tcvt %s : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xi8>\n",
        "%d = pto.tcvt %s {rmode = #pto<round_mode ODD>} : (!pto.tile<4x8xf32>) -> !pto.tile<4x8xbf16>\n",
        "%d = pto.tcvt %s : (!pto.tile<4x16xf32, valid=4x8>) -> !pto.tile<4x8xf16>\n",
    };
    static const pto_status kBadStatus[] = {PTO_ERR_INVALID_ARGUMENT, PTO_ERR_INVALID_ARGUMENT,
                                            PTO_ERR_INVALID_ARGUMENT, PTO_ERR_UNSUPPORTED_DTYPE,
                                            PTO_ERR_INVALID_ARGUMENT, PTO_ERR_INVALID_ARGUMENT};
    for (size_t k = 0; k < COUNT(kBad); ++k) expect_program_refused(kBad[k], kBadStatus[k]);
    print_message("[tcvt] %zu program runs matched the C call (4 text forms x 3 profiles), %zu texts refused\n",
                  runs, COUNT(kBad));
}

/* ---- long: 2^28 random sources per mode -------------------------------- */

static void test_long_random(void **state) {
    (void)state;
    if (!g_long) {
        print_message("[tcvt] the 2^28 random sweep runs in the long suite (--long)\n");
        return;
    }
    static const pair kLong[] = {{PTO_FLOAT32, PTO_FLOAT16, 1, 1},
                                 {PTO_FLOAT32, PTO_BFLOAT16, 1, 1},
                                 {PTO_FLOAT32, PTO_INT32, 1, 1},
                                 {PTO_INT32, PTO_FLOAT32, 1, 1}};
    const size_t block = 1u << 16, total = (size_t)1 << 28;
    uint32_t *in = malloc(block * 4), *got = malloc(block * 4);
    assert_non_null(in);
    assert_non_null(got);
    size_t wrong = 0, checked = 0;
    for (size_t p = 0; p < COUNT(kLong); ++p) {
        for (int m = PTO_ROUND_RINT; m <= PTO_ROUND_ODD; ++m) {
            if (!mode_allowed(kLong[p].src, kLong[p].dst, (pto_round_mode)m)) continue;
            rng r = {0x10C6 + p * 16 + (uint64_t)m};
            const pto_saturation sat = (m & 1) ? PTO_SAT_ON : PTO_SAT_OFF;
            const spec s = spec_of(kLong[p].src, kLong[p].dst, (pto_round_mode)m, sat, PTO_PROFILE_HOST);
            for (size_t done = 0; done < total; done += block) {
                for (size_t i = 0; i < block; ++i) in[i] = (uint32_t)rng_next(&r);
                run_convert(kLong[p].src, kLong[p].dst, (pto_round_mode)m, sat, in, got, block, 4096, 0);
                for (size_t i = 0; i < block; ++i) {
                    const uint32_t want = reference(&s, in[i]);
                    if (same_result(kLong[p].dst, want, got[i])) continue;
                    if (wrong++ < 5)
                        print_message("[tcvt long] %s -> %s %s: 0x%x gives 0x%x, want 0x%x\n",
                                      dtype_name(kLong[p].src), dtype_name(kLong[p].dst),
                                      mode_name((pto_round_mode)m), in[i], got[i], want);
                }
                checked += block;
            }
            print_message("[tcvt long] %s -> %s %s (%s): %zu sources\n", dtype_name(kLong[p].src),
                          dtype_name(kLong[p].dst), mode_name((pto_round_mode)m),
                          sat == PTO_SAT_ON ? "SAT_ON" : "SAT_OFF", total);
        }
    }
    print_message("[tcvt long] %zu conversions on %s, %zu wrong\n", checked, pto_simd_target(), wrong);
    free(in);
    free(got);
    assert_int_equal(wrong, 0);
}

int main(int argc, char **argv) {
    g_long = argc > 1 && strcmp(argv[1], "--long") == 0;
    const struct CMUnitTest core[] = {
        cmocka_unit_test(test_pairs_per_profile), cmocka_unit_test(test_rules),
        cmocka_unit_test(test_known_values),      cmocka_unit_test(test_padded_tiles),
        cmocka_unit_test(test_every_16bit_source), cmocka_unit_test(test_32bit_sources),
        cmocka_unit_test(test_program_forms),
    };
    const struct CMUnitTest long_only[] = {cmocka_unit_test(test_long_random)};
    if (g_long) return cmocka_run_group_tests(long_only, NULL, NULL);
    return cmocka_run_group_tests(core, NULL, NULL);
}
