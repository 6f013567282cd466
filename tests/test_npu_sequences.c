/* The compound instructions whose NPU implementation rounds an intermediate
 * to the element type (../shared/API.md, "v0.5 change to a v0.4 rule";
 * docs/profiles.md, "Compound instructions"): under A2A3 and A5 each gives
 * the NPU's sequence, computed here in double arithmetic rounded to the
 * register's type after every step; under HOST the single-rounding result
 * of the contract. Every float16 input where one operand varies, random
 * float32 inputs, on every SIMD target; each changed sequence must also
 * differ from the single rounding somewhere, or the test would prove
 * nothing about which path ran.
 *
 * - trsqrt under A5 (a5/TRsqrt.hpp): 1 / RN(sqrt(x)), rounded again.
 * - trem on floats under A2A3 and A5 (a2a3/TRem.hpp, a5/TRem.hpp) and trems
 *   (a2a3/TRemS.hpp with the sign correction, a5/TRemS.hpp without):
 *   q = RN32(a / b), floor, RN32(q * b), RN32(a - that); float16 (A5)
 *   narrowed toward zero; then r + b in the dtype where RN(b * r) < 0.
 * - tfmod and tfmods on floats under A2A3 and A5 (a2a3/TFmod.hpp,
 *   a2a3/TFmodS.hpp, a5/TFMod.hpp, a5/TFModS.hpp, DEFAULT precision): as
 *   trem with the quotient truncated (vconv_f322f32z, vtrc ROUND_Z) and no
 *   sign correction.
 * - tdivs in place under A2A3 (a2a3/TDivS.hpp): x * RN(1 / s). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* ---- running the calls ---- */

typedef enum { RUN_TRSQRT, RUN_TREM, RUN_TREMS, RUN_TFMOD, RUN_TFMODS, RUN_TDIVS_IN_PLACE, RUN_TDIVS_APART } run_kind;

/* Whether the kind's second operand is a tile (else b[0] is a scalar). */
static bool two_tiles(run_kind kind) { return kind == RUN_TREM || kind == RUN_TFMOD; }

static const char *kind_name(run_kind kind) {
    switch (kind) {
    case RUN_TRSQRT: return "trsqrt";
    case RUN_TREM: return "trem";
    case RUN_TREMS: return "trems";
    case RUN_TFMOD: return "tfmod";
    case RUN_TFMODS: return "tfmods";
    default: return "tdivs";
    }
}

typedef struct {
    run_kind kind;
    pto_dtype dt;
    pto_profile profile;
    size_t n;               /* a multiple of kCols */
    const uint32_t *a, *b;  /* b: the second operand, or the scalar (b[0]) */
    const uint32_t *want;
    size_t checked;
} seq_set;

enum { kCols = 256 };

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

/* The kind's call under profile (the in-place tdivs on d, which holds a),
 * asserting it succeeds; the profile is HOST again afterwards. */
static void call_under(run_kind kind, pto_profile profile, pto_tile *d, pto_tile *a, pto_tile *b, double scalar) {
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    pto_status st = PTO_OK;
    switch (kind) {
    case RUN_TRSQRT: st = pto_trsqrt(d, a); break;
    case RUN_TREM: st = pto_trem(d, a, b); break;
    case RUN_TREMS: st = pto_trems(d, a, scalar); break;
    case RUN_TFMOD: st = pto_tfmod(d, a, b); break;
    case RUN_TFMODS: st = pto_tfmods(d, a, scalar); break;
    case RUN_TDIVS_IN_PLACE: st = pto_tdivs(d, d, scalar); break;
    case RUN_TDIVS_APART: st = pto_tdivs(d, a, scalar); break;
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_status(st, PTO_OK, "the call");
}

static void seq_body(void *ctx, size_t target_index, const char *target) {
    (void)target_index;
    seq_set *s = ctx;
    const uint32_t rows = (uint32_t)(s->n / kCols);
    pto_tile *a = tile_new(s->dt, rows, kCols, rows, kCols);
    pto_tile *b = tile_new(s->dt, rows, kCols, rows, kCols);
    pto_tile *d = tile_new(s->dt, rows, kCols, rows, kCols);
    for (size_t k = 0; k < s->n; ++k) {
        tile_put(a, k / kCols, k % kCols, s->a[k]);
        tile_put(b, k / kCols, k % kCols, s->b[two_tiles(s->kind) ? k : 0]);
        if (s->kind == RUN_TDIVS_IN_PLACE) tile_put(d, k / kCols, k % kCols, s->a[k]);
    }
    call_under(s->kind, s->profile, d, a, b, ref_to_double(s->dt, s->b[0]));
    for (size_t k = 0; k < s->n; ++k) {
        const uint32_t got = tile_get(d, k / kCols, k % kCols);
        if (!same_result(s->dt, s->want[k], got))
            fail_msg("%s %s under %s on %s, element %zu: a = 0x%x (%.17g), b = 0x%x (%.17g): expected 0x%x, got 0x%x",
                     pto_dtype_string(s->dt), kind_name(s->kind), pto_profile_string(s->profile), target, k,
                     s->a[k], ref_to_double(s->dt, s->a[k]), s->b[two_tiles(s->kind) ? k : 0],
                     ref_to_double(s->dt, s->b[two_tiles(s->kind) ? k : 0]), s->want[k], got);
    }
    s->checked += s->n;
    TILES_DESTROY(a, b, d);
}

/* Runs one set on every target; returns how many elements were checked. */
static size_t run_set(seq_set *s, const char *name) {
    s->checked = 0;
    for_each_target(name, seq_body, s);
    return s->checked;
}

/* How many of n results differ (NaN-ness aside) between two result arrays. */
static size_t count_differences(pto_dtype dt, const uint32_t *x, const uint32_t *y, size_t n) {
    size_t d = 0;
    for (size_t k = 0; k < n; ++k) d += !same_result(dt, x[k], y[k]);
    return d;
}

/* Every float16 bit pattern (NaN included), n = 65536 = 256 x 256. */
static uint32_t *all_half(void) {
    uint32_t *v = malloc(65536 * sizeof *v);
    assert_non_null(v);
    for (uint32_t k = 0; k < 65536; ++k) v[k] = k;
    return v;
}

/* n float32 values: random bits (every class), and random magnitudes in
 * [2^lo, 2^hi) of either sign. */
static uint32_t *random_f32(rng *r, size_t n, int lo, int hi) {
    uint32_t *v = malloc(n * sizeof *v);
    assert_non_null(v);
    for (size_t k = 0; k < n; ++k) {
        if (rng_below(r, 8) == 0) {
            v[k] = (uint32_t)rng_next(r);
        } else {
            const double m = ldexp(1.0 + rng_unit(r), (int)rng_between(r, lo, hi - 1));
            v[k] = ref_from_double(PTO_FLOAT32, rng_below(r, 2) ? m : -m);
        }
    }
    return v;
}

/* ---- trsqrt ---- */

static void check_trsqrt(pto_dtype dt, const uint32_t *x, size_t n) {
    uint32_t *npu = malloc(n * 4), *once = malloc(n * 4);
    assert_true(npu && once);
    for (size_t k = 0; k < n; ++k) npu[k] = ref_npu_rsqrt(dt, x[k]), once[k] = ref_rsqrt(dt, x[k]);
    const size_t differ = count_differences(dt, npu, once, n);
    if (differ == 0) fail_msg("%s trsqrt: the A5 sequence never differs from one rounding", pto_dtype_string(dt));
    seq_set s = {RUN_TRSQRT, dt, PTO_PROFILE_A5, n, x, x, npu, 0};
    run_set(&s, "trsqrt under A5: 1 / sqrt rounded");
    s.profile = PTO_PROFILE_A2A3, s.want = once; /* one vrsqrt: one rounding */
    run_set(&s, "trsqrt under A2A3: one rounding");
    s.profile = PTO_PROFILE_HOST;
    run_set(&s, "trsqrt under HOST: one rounding");
    print_message("[npu_sequences] trsqrt %s: %zu inputs, A5 = RN(1 / RN(sqrt x)) (%zu differ from one "
                  "rounding), A2A3 and HOST correctly rounded\n",
                  pto_dtype_string(dt), n, differ);
    free(npu), free(once);
}

static void test_trsqrt(void **state) {
    (void)state;
    uint32_t *h = all_half();
    check_trsqrt(PTO_FLOAT16, h, 65536);
    free(h);
    rng r = {0x5C2A7001u};
    const size_t n = under_emulation() ? 4096 : 65536 * 2;
    uint32_t *f = random_f32(&r, n, -126, 128);
    for (size_t k = 0; k < n; ++k) f[k] &= 0x7FFFFFFFu; /* mostly positive: the interesting half */
    for (size_t k = 0; k < n; k += 97) f[k] |= 0x80000000u;
    check_trsqrt(PTO_FLOAT32, f, n);
    free(f);
}

/* ---- trem ---- */

/* trem over pairs (a[k], b[k]) under HOST (ref_trem) and the NPU profiles
 * that accept dt. */
static void check_trem(pto_dtype dt, const uint32_t *a, const uint32_t *b, size_t n) {
    uint32_t *npu = malloc(n * 4), *exact = malloc(n * 4);
    assert_true(npu && exact);
    for (size_t k = 0; k < n; ++k) npu[k] = ref_npu_rem(dt, a[k], b[k], true), exact[k] = ref_trem(dt, a[k], b[k]);
    const size_t differ = count_differences(dt, npu, exact, n);
    if (differ == 0) fail_msg("%s trem: the NPU sequence never differs from the exact one", pto_dtype_string(dt));
    seq_set s = {RUN_TREM, dt, PTO_PROFILE_A5, n, a, b, npu, 0};
    run_set(&s, "trem under A5: the NPU sequence");
    if (dt == PTO_FLOAT32) {
        s.profile = PTO_PROFILE_A2A3;
        run_set(&s, "trem under A2A3: the NPU sequence");
    }
    s.profile = PTO_PROFILE_HOST, s.want = exact;
    run_set(&s, "trem under HOST: exact");
    print_message("[npu_sequences] trem %s: %zu pairs, the NPU sequence under %s (%zu differ from the "
                  "exact remainder), HOST exact\n",
                  pto_dtype_string(dt), n, dt == PTO_FLOAT32 ? "A2A3 and A5" : "A5", differ);
    free(npu), free(exact);
}

/* The divisors of the float16 sweeps: small and large, of both signs,
 * zeros, the smallest subnormal, infinities, NaN. */
static size_t half_divisors(uint32_t out[32]) {
    static const double kB[] = {3.0, -3.0, 0.1, -0.7, 1.0, 7.5, -1000.0, 1e-4, 2.0, 0.0, -0.0, 60000.0, 0.33325};
    size_t n = 0;
    for (size_t k = 0; k < COUNT(kB); ++k) out[n++] = ref_from_double(PTO_FLOAT16, kB[k]);
    out[n++] = 1;       /* smallest subnormal */
    out[n++] = 0x8001u; /* its negative */
    out[n++] = 0x7C00u; /* +inf */
    out[n++] = 0xFC00u; /* -inf */
    out[n++] = 0x7E00u; /* NaN */
    return n;
}

static void test_trem_f16(void **state) {
    (void)state;
    uint32_t bs[32];
    const size_t nb = half_divisors(bs);
    const size_t n = 65536 * nb;
    uint32_t *a = malloc(n * 4), *b = malloc(n * 4);
    assert_true(a && b);
    for (size_t k = 0; k < n; ++k) a[k] = (uint32_t)(k % 65536), b[k] = bs[k / 65536];
    check_trem(PTO_FLOAT16, a, b, n);
    free(a), free(b);
}

static void test_trem_f32(void **state) {
    (void)state;
    rng r = {0x7E3F3201u};
    const size_t n = under_emulation() ? 4096 : 65536 * 2;
    /* Dividends up to 2^60 over divisors in [2^-20, 2^20): quotients whose
     * float32 rounding and floor move the result, and ordinary ones. */
    uint32_t *a = random_f32(&r, n, -20, 60), *b = random_f32(&r, n, -20, 20);
    check_trem(PTO_FLOAT32, a, b, n);
    free(a), free(b);
}

/* One scalar op's sweep: check(dt, a, n, s) for each scalar of `scalars`
 * returns how many NPU results differ from the single-rounding ones; some
 * must, or the sweep proves nothing about which path ran. */
typedef size_t (*scalar_check)(pto_dtype dt, const uint32_t *a, size_t n, uint32_t s_bits);

static void sweep_scalars(const char *op, pto_dtype dt, const uint32_t *a, size_t n, const uint32_t *scalars,
                          size_t count, scalar_check check) {
    size_t differ = 0;
    for (size_t k = 0; k < count; ++k) differ += check(dt, a, n, scalars[k]);
    if (differ == 0) fail_msg("%s %s: the NPU sequences never differ from one rounding", pto_dtype_string(dt), op);
    print_message("[npu_sequences] %s %s: %zu inputs by %zu scalars under each profile that accepts it (%zu NPU results "
                  "differ from one rounding)\n", op, pto_dtype_string(dt), n, count, differ);
}

/* The values as dt's bit patterns. */
static void bits_of(pto_dtype dt, const double *values, size_t count, uint32_t *out) {
    for (size_t k = 0; k < count; ++k) out[k] = ref_from_double(dt, values[k]);
}

/* ---- trems ---- */

/* trems of every a by the scalar s, under HOST, A2A3 (float32, with the
 * sign correction) and A5 (without). Returns how many NPU results differ
 * from the exact remainder. */
static size_t check_trems(pto_dtype dt, const uint32_t *a, size_t n, uint32_t s_bits) {
    uint32_t *a2a3 = malloc(n * 4), *a5 = malloc(n * 4), *exact = malloc(n * 4);
    assert_true(a2a3 && a5 && exact);
    for (size_t k = 0; k < n; ++k) {
        a2a3[k] = ref_npu_rem(dt, a[k], s_bits, true);
        a5[k] = ref_npu_rem(dt, a[k], s_bits, false);
        exact[k] = ref_trems(dt, a[k], s_bits);
    }
    const uint32_t scalar[1] = {s_bits};
    seq_set s = {RUN_TREMS, dt, PTO_PROFILE_A5, n, a, scalar, a5, 0};
    run_set(&s, "trems under A5: the NPU sequence without sign correction");
    if (dt == PTO_FLOAT32) {
        s.profile = PTO_PROFILE_A2A3, s.want = a2a3;
        run_set(&s, "trems under A2A3: the NPU sequence with sign correction");
    }
    s.profile = PTO_PROFILE_HOST, s.want = exact;
    run_set(&s, "trems under HOST: exact");
    const size_t differ = count_differences(dt, a5, exact, n) +
                          (dt == PTO_FLOAT32 ? count_differences(dt, a2a3, exact, n) : 0);
    free(a2a3), free(a5), free(exact);
    return differ;
}

/* A scalar op's sweeps: every float16 input by the float16 divisors, then
 * random float32 dividends by a few float32 scalars (seed: the random ones). */
static void scalar_sweeps(const char *op, scalar_check check, uint32_t seed) {
    uint32_t bs[32];
    const size_t nb = half_divisors(bs);
    uint32_t *h = all_half();
    sweep_scalars(op, PTO_FLOAT16, h, 65536, bs, nb, check);
    free(h);
    rng r = {seed};
    const size_t n = under_emulation() ? 4096 : 65536;
    uint32_t *a = random_f32(&r, n, -20, 60);
    static const double kS[] = {3.0, -3.0, 0.1, -1.0e-5, 1234.5678, 0.0, INFINITY};
    bits_of(PTO_FLOAT32, kS, COUNT(kS), bs);
    sweep_scalars(op, PTO_FLOAT32, a, n, bs, COUNT(kS), check);
    free(a);
}

static void test_trems(void **state) {
    (void)state;
    scalar_sweeps("trems", check_trems, 0x7E35F320u);
}

/* ---- tfmod, tfmods ---- */

/* tfmod (two tiles) or tfmods (b[0] the scalar) over n inputs under HOST
 * (exact fmod) and the NPU profiles that accept dt (float32 both, float16
 * A5). Returns how many NPU results differ from the exact fmod. */
static size_t check_fmod(run_kind kind, pto_dtype dt, const uint32_t *a, const uint32_t *b, size_t n) {
    uint32_t *npu = malloc(n * 4), *exact = malloc(n * 4);
    assert_true(npu && exact);
    for (size_t k = 0; k < n; ++k) {
        const uint32_t bk = b[kind == RUN_TFMOD ? k : 0];
        npu[k] = ref_npu_fmod(dt, a[k], bk), exact[k] = ref_tfmod(dt, a[k], bk);
    }
    seq_set s = {kind, dt, PTO_PROFILE_A5, n, a, b, npu, 0};
    run_set(&s, "tfmod under A5: the NPU sequence");
    if (dt == PTO_FLOAT32) {
        s.profile = PTO_PROFILE_A2A3;
        run_set(&s, "tfmod under A2A3: the NPU sequence");
    }
    s.profile = PTO_PROFILE_HOST, s.want = exact;
    run_set(&s, "tfmod under HOST: exact");
    const size_t differ = count_differences(dt, npu, exact, n);
    free(npu), free(exact);
    return differ;
}

static void test_tfmod(void **state) {
    (void)state;
    uint32_t bs[32];
    const size_t nb = half_divisors(bs);
    size_t n = 65536 * nb;
    uint32_t *a = malloc(n * 4), *b = malloc(n * 4);
    assert_true(a && b);
    for (size_t k = 0; k < n; ++k) a[k] = (uint32_t)(k % 65536), b[k] = bs[k / 65536];
    size_t differ = check_fmod(RUN_TFMOD, PTO_FLOAT16, a, b, n);
    print_message("[npu_sequences] tfmod float16: %zu pairs, %zu NPU results differ from the exact fmod\n", n,
                  differ);
    free(a), free(b);
    if (differ == 0) fail_msg("float16 tfmod: the NPU sequence never differs from the exact fmod");
    rng r = {0x7F0D3201u};
    n = under_emulation() ? 4096 : 65536 * 2;
    a = random_f32(&r, n, -20, 60), b = random_f32(&r, n, -20, 20);
    differ = check_fmod(RUN_TFMOD, PTO_FLOAT32, a, b, n);
    print_message("[npu_sequences] tfmod float32: %zu pairs, %zu NPU results differ from the exact fmod\n", n,
                  differ);
    if (differ == 0) fail_msg("float32 tfmod: the NPU sequence never differs from the exact fmod");
    free(a), free(b);
}

static size_t check_tfmods(pto_dtype dt, const uint32_t *a, size_t n, uint32_t s_bits) {
    const uint32_t scalar[1] = {s_bits};
    return check_fmod(RUN_TFMODS, dt, a, scalar, n);
}

static void test_tfmods(void **state) {
    (void)state;
    scalar_sweeps("tfmods", check_tfmods, 0x7F0D5320u);
}

/* ---- tdivs ---- */

/* tdivs of every a by s: in place under A2A3 x * RN(1 / s); apart under
 * A2A3, and in place under A5 and HOST, one rounding. */
static size_t check_tdivs(pto_dtype dt, const uint32_t *a, size_t n, uint32_t s_bits) {
    uint32_t *npu = malloc(n * 4), *once = malloc(n * 4);
    assert_true(npu && once);
    for (size_t k = 0; k < n; ++k) npu[k] = ref_npu_divs_in_place(dt, a[k], s_bits), once[k] = ref_div(dt, a[k], s_bits);
    const uint32_t scalar[1] = {s_bits};
    seq_set s = {RUN_TDIVS_IN_PLACE, dt, PTO_PROFILE_A2A3, n, a, scalar, npu, 0};
    run_set(&s, "tdivs in place under A2A3: times the rounded reciprocal");
    s.want = once, s.profile = PTO_PROFILE_A5;
    run_set(&s, "tdivs in place under A5: one rounding");
    s.profile = PTO_PROFILE_HOST;
    run_set(&s, "tdivs in place under HOST: one rounding");
    s.kind = RUN_TDIVS_APART, s.profile = PTO_PROFILE_A2A3;
    run_set(&s, "tdivs apart under A2A3: one rounding");
    const size_t differ = count_differences(dt, npu, once, n);
    free(npu), free(once);
    return differ;
}

static void test_tdivs(void **state) {
    (void)state;
    static const double kS[] = {3.0, -7.0, 0.1, 1e-3, 1e-7, 65504.0, 0.0, INFINITY, 1.5};
    uint32_t bs[COUNT(kS)];
    uint32_t *h = all_half();
    bits_of(PTO_FLOAT16, kS, COUNT(kS), bs);
    sweep_scalars("tdivs", PTO_FLOAT16, h, 65536, bs, COUNT(kS), check_tdivs);
    free(h);
    rng r = {0x7D1F5u};
    const size_t n = under_emulation() ? 4096 : 65536;
    uint32_t *a = random_f32(&r, n, -126, 128);
    bits_of(PTO_FLOAT32, kS, COUNT(kS), bs);
    sweep_scalars("tdivs", PTO_FLOAT32, a, n, bs, COUNT(kS), check_tdivs);
    free(a);
}

/* ---- worked examples, by hand ---- */

/* One element of dt through the call under profile; returns dst's bits. */
static uint32_t one_element(run_kind kind, pto_dtype dt, pto_profile profile, double a, double b) {
    pto_tile *ta = tile_new(dt, 1, 1, 1, 1), *tb = tile_new(dt, 1, 1, 1, 1), *td = tile_new(dt, 1, 1, 1, 1);
    tile_put(ta, 0, 0, ref_from_double(dt, a)), tile_put(td, 0, 0, ref_from_double(dt, a));
    tile_put(tb, 0, 0, ref_from_double(dt, b));
    call_under(kind, profile, td, ta, tb, b);
    const uint32_t got = tile_get(td, 0, 0);
    TILES_DESTROY(ta, tb, td);
    return got;
}

/* Values worked out by hand from the NPU sequences (docs/profiles.md), not
 * from the references above. */
static void test_worked_examples(void **state) {
    (void)state;
    /* 1e10f / 3 = 3333333248 (float32), floor the same, times 3 =
     * 9999999744 -> 1e10f exactly after rounding: 1e10f - 1e10f = +0. The
     * exact remainder of 10000000000 by 3 is 1. */
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT32, PTO_PROFILE_A2A3, 1e10, 3), 0x00000000u);
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT32, PTO_PROFILE_A5, 1e10, 3), 0x00000000u);
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT32, PTO_PROFILE_HOST, 1e10, 3), 0x3F800000u);
    /* float16 -3 * 2^-24 rem 3 on A5: floor(q) = -1, r = 3 - 1.79e-7 in
     * float32, narrowed toward zero to 2.998046875 (0x41FF); HOST rounds
     * the exact 2.99999982 to 3 (0x4200). */
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT16, PTO_PROFILE_A5, -3.0 / 16777216.0, 3), 0x41FFu);
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT16, PTO_PROFILE_HOST, -3.0 / 16777216.0, 3), 0x4200u);
    /* trems -1 by 3: A2A3 corrects -1 + 3 = 2; A5's trems has no correction
     * but floor(-1/3) = -1 already gives -1 + 3 = 2 (0x40000000). A tiny
     * negative a (-2^-149) by 3: q rounds to -0, floor(-0) = -0, p = -0,
     * r = -2^-149 - (-0) = -2^-149 under A5 (no correction: the other sign
     * than the scalar), 3 - 2^-149 rounded = 3 under A2A3. */
    assert_int_equal(one_element(RUN_TREMS, PTO_FLOAT32, PTO_PROFILE_A5, -1, 3), 0x40000000u);
    assert_int_equal(one_element(RUN_TREMS, PTO_FLOAT32, PTO_PROFILE_A5, -0x1p-149, 3), 0x80000001u);
    assert_int_equal(one_element(RUN_TREMS, PTO_FLOAT32, PTO_PROFILE_A2A3, -0x1p-149, 3), 0x40400000u);
    /* trem by +inf: 0 * inf in the product gives NaN on the NPU profiles;
     * HOST gives a (1). */
    assert_true(ref_is_nan(PTO_FLOAT32, one_element(RUN_TREM, PTO_FLOAT32, PTO_PROFILE_A5, 1, INFINITY)));
    assert_int_equal(one_element(RUN_TREM, PTO_FLOAT32, PTO_PROFILE_HOST, 1, INFINITY), 0x3F800000u);
    /* float16 5 / 3 in place on A2A3: RN16(1/3) = 0.333251953125, times 5
     * = 1.666259765625, rounded to 1.666015625 (0x3EAA); 5 / 3 rounded once
     * is 1.6669921875 (0x3EAB), as A2A3 apart from src and A5 give. */
    assert_int_equal(one_element(RUN_TDIVS_IN_PLACE, PTO_FLOAT16, PTO_PROFILE_A2A3, 5, 3), 0x3EAAu);
    assert_int_equal(one_element(RUN_TDIVS_APART, PTO_FLOAT16, PTO_PROFILE_A2A3, 5, 3), 0x3EABu);
    assert_int_equal(one_element(RUN_TDIVS_IN_PLACE, PTO_FLOAT16, PTO_PROFILE_A5, 5, 3), 0x3EABu);
    /* trsqrt of float16 1 + 2^-10 on A5: its sqrt, just below 1 + 2^-11,
     * rounds to 1, and 1 / 1 = 1 (0x3C00); 1 / sqrt = 0.99951208 rounded
     * once is 0.99951171875 (0x3BFF), as A2A3 and HOST give. */
    assert_int_equal(one_element(RUN_TRSQRT, PTO_FLOAT16, PTO_PROFILE_A5, 1 + 0x1p-10, 0), 0x3C00u);
    assert_int_equal(one_element(RUN_TRSQRT, PTO_FLOAT16, PTO_PROFILE_A2A3, 1 + 0x1p-10, 0), 0x3BFFu);
    assert_int_equal(one_element(RUN_TRSQRT, PTO_FLOAT16, PTO_PROFILE_HOST, 1 + 0x1p-10, 0), 0x3BFFu);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trsqrt),   cmocka_unit_test(test_trem_f16), cmocka_unit_test(test_trem_f32),
        cmocka_unit_test(test_trems),    cmocka_unit_test(test_tfmod),     cmocka_unit_test(test_tfmods),
        cmocka_unit_test(test_tdivs),
        cmocka_unit_test(test_worked_examples),
    };
    return cmocka_run_group_tests_name("npu_sequences", tests, NULL, NULL);
}
