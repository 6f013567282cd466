/* The cube modes of SETHF32MODE and SETTF32MODE (pto_set_hf32_mode,
 * pto_set_tf32_mode): FLOAT32 matrix-multiply inputs rounded to HF32 (e8m11)
 * under A2A3 and TF32 (e8m10) under A5, each tie rule, against a reference
 * written here from the pages and pto-isa's ST goldens (float32_to_hf32,
 * float32_to_tf32: the fraction cut, the dropped bits compared with half,
 * subnormals to zero) followed by the contract's chain of fmaf over k in
 * order; tmatmul, tmatmul_acc, tmatmul_bias and tgemv on each profile's cube
 * tiles, bit for bit. The default mode, a mode switched off again, the other
 * profile's mode and HOST leave the bits of the plain matrix multiply; the
 * setters' refusals leave the modes as they were. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* Edge inputs: ties just at, below and above half of each format's last
 * bit, the fraction all ones (a carry into the exponent), the largest
 * finite value (a carry to infinity), subnormals, zeros, infinities, NaN. */
static const uint32_t kEdges[] = {
    0x3F800800u, 0x3F801800u, 0x3F8007FFu, 0x3F800801u, 0x3F801000u, 0x3F803000u, 0x3F800FFFu, 0x3F801001u,
    0x3FFFFFFFu, 0x3FFFF800u, 0x3FFFF000u, 0x7F7FFFFFu, 0x7F7FF000u, 0x00000001u, 0x807FFFFFu, 0x00400000u,
    0x80000000u, 0x00000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xBF800800u, 0xC0001000u, 0x00800000u,
};

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, loc, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}

/* One multiply's operands on `profile`'s cube tiles (GEMV: a one row): the
 * values row-major beside them. */
typedef struct {
    pto_tile *a, *b, *dst, *bias;
    uint32_t m, k, n, a_cols, b_rows, dst_rows, n_cols;
    float *va, *vb, *vd, *vbias;
} operands;

static float *values_new(size_t n) {
    float *v = calloc(n, sizeof *v);
    assert_non_null(v);
    return v;
}

static void write_values(pto_tile *t, const float *v, size_t count) {
    const pto_status st = pto_tile_write_f32(t, v, count);
    if (st != PTO_OK) fail_msg("pto_tile_write_f32: %s (%s)", pto_status_string(st), pto_last_error());
}

static operands operands_new(pto_profile profile, bool gemv, rng *r) {
    operands o;
    o.m = gemv ? 1 : 16;
    o.k = 32;
    o.n = 16;
    o.a_cols = gemv ? 128 : o.k; /* a GEMV left tile: K rounded to 512 bytes */
    o.b_rows = o.k;
    o.dst_rows = 16;
    o.n_cols = o.n;
    const pto_layout left = profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
    const uint32_t a_rows = gemv ? 1 : o.m;
    o.a = cube(PTO_FLOAT32, a_rows, o.a_cols, PTO_LOC_LEFT, left);
    o.b = cube(PTO_FLOAT32, o.b_rows, o.n_cols, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    o.dst = cube(PTO_FLOAT32, o.dst_rows, o.n_cols, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    o.bias = cube(PTO_FLOAT32, 1, o.n_cols, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    o.va = values_new((size_t)a_rows * o.a_cols);
    o.vb = values_new((size_t)o.b_rows * o.n_cols);
    o.vd = values_new((size_t)o.dst_rows * o.n_cols);
    o.vbias = values_new(o.n_cols);
    size_t e = 0;
    for (size_t i = 0; i < (size_t)a_rows * o.a_cols; ++i)
        o.va[i] = (i % 5 == 0) ? ref_f32_of(kEdges[e++ % COUNT(kEdges)])
                               : (float)rng_uniform(r, -8, 8) * (float)ldexp(1.0, (int)rng_below(r, 9) - 4);
    for (size_t i = 0; i < (size_t)o.b_rows * o.n_cols; ++i)
        o.vb[i] = (i % 7 == 3) ? ref_f32_of(kEdges[e++ % COUNT(kEdges)]) : (float)rng_uniform(r, -4, 4);
    for (size_t i = 0; i < (size_t)o.dst_rows * o.n_cols; ++i) o.vd[i] = (float)rng_uniform(r, -100, 100);
    for (size_t i = 0; i < o.n_cols; ++i) o.vbias[i] = (float)rng_uniform(r, -10, 10);
    write_values(o.a, o.va, (size_t)a_rows * o.a_cols);
    write_values(o.b, o.vb, (size_t)o.b_rows * o.n_cols);
    write_values(o.dst, o.vd, (size_t)o.dst_rows * o.n_cols);
    write_values(o.bias, o.vbias, o.n_cols);
    expect_status(pto_tile_set_valid(o.a, o.m, o.k), PTO_OK, "set_valid a");
    expect_status(pto_tile_set_valid(o.b, o.k, o.n), PTO_OK, "set_valid b");
    expect_status(pto_tile_set_valid(o.dst, o.m, o.n), PTO_OK, "set_valid dst");
    expect_status(pto_tile_set_valid(o.bias, 1, o.n), PTO_OK, "set_valid bias");
    return o;
}

static void operands_destroy(operands *o) {
    TILES_DESTROY(o->a, o->b, o->dst, o->bias);
    free(o->va);
    free(o->vb);
    free(o->vd);
    free(o->vbias);
}

/* The call's dst (its valid m x n) against the reference: each element's
 * chain from its seed over k in order of fmaf(round(a), round(b), acc). */
static size_t check_call(const operands *o, bool gemv, seed_kind seed, int fraction_bits, bool ties_away,
                         const char *what) {
    const pto_status st = gemv ? gemv_call(seed, o->dst, o->a, o->b, o->bias) : matmul_call(seed, o->dst, o->a, o->b, o->bias);
    if (st != PTO_OK) fail_msg("%s: %s (%s)", what, pto_status_string(st), pto_last_error());
    float *got = values_new((size_t)o->dst_rows * o->n_cols);
    expect_status(pto_tile_read_f32(o->dst, got, (size_t)o->dst_rows * o->n_cols), PTO_OK, "read dst");
    size_t checked = 0;
    for (uint32_t i = 0; i < o->m; ++i)
        for (uint32_t j = 0; j < o->n; ++j) {
            float acc = seed == SEED_ZERO ? 0.0f : seed == SEED_DST ? o->vd[i * o->n_cols + j] : o->vbias[j];
            for (uint32_t kk = 0; kk < o->k; ++kk)
                acc = fmaf(ref_round_f32_fraction(o->va[i * o->a_cols + kk], fraction_bits, ties_away),
                           ref_round_f32_fraction(o->vb[kk * o->n_cols + j], fraction_bits, ties_away), acc);
            const float g = got[i * o->n_cols + j];
            const bool same = isnan(acc) ? isnan(g) : ref_f32_bits(g) == ref_f32_bits(acc);
            if (!same) fail_msg("%s: dst (%u,%u) is 0x%08x, want 0x%08x", what, i, j, ref_f32_bits(g), ref_f32_bits(acc));
            ++checked;
        }
    free(got);
    return checked;
}

static void test_mode_setters(void **state) {
    (void)state;
    pto_round_mode round = PTO_ROUND_NONE;
    assert_int_equal(pto_hf32_mode(&round), 0);
    assert_int_equal(round, PTO_ROUND_ROUND); /* the pages' default CAST_ROUND */
    assert_int_equal(pto_tf32_mode(NULL), 0);
    expect_status(pto_set_hf32_mode(1, PTO_ROUND_RINT), PTO_OK, "hf32 on, RINT");
    assert_int_equal(pto_hf32_mode(&round), 1);
    assert_int_equal(round, PTO_ROUND_RINT);
    static const struct {
        int enable;
        int round;
    } kBad[] = {{2, PTO_ROUND_ROUND}, {-1, PTO_ROUND_RINT}, {1, PTO_ROUND_FLOOR}, {1, PTO_ROUND_NONE}, {0, 99}, {1, -3}};
    for (size_t k = 0; k < COUNT(kBad); ++k) {
        expect_status(pto_set_hf32_mode(kBad[k].enable, (pto_round_mode)kBad[k].round), PTO_ERR_INVALID_ARGUMENT,
                      "hf32 bad");
        if (pto_last_error()[0] == '\0') fail_msg("refused without a sentence");
        expect_status(pto_set_tf32_mode(kBad[k].enable, (pto_round_mode)kBad[k].round), PTO_ERR_INVALID_ARGUMENT,
                      "tf32 bad");
    }
    assert_int_equal(pto_hf32_mode(&round), 1); /* unchanged by the refusals */
    assert_int_equal(round, PTO_ROUND_RINT);
    assert_int_equal(pto_tf32_mode(&round), 0);
    expect_status(pto_set_hf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "hf32 off");
    assert_int_equal(pto_hf32_mode(NULL), 0);
    print_message("[cube_mode] defaults off (CAST_ROUND); %zu refused settings leave the modes\n", COUNT(kBad) * 2);
}

/* Each profile with its mode on, each tie rule: every seed of tmatmul and
 * tgemv against the reference in the mode's format. */
static void test_mode_rounding(void **state) {
    (void)state;
    rng r = {0x7F32};
    size_t checked = 0;
    static const pto_profile kProfiles[] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        const bool a2a3 = kProfiles[p] == PTO_PROFILE_A2A3;
        for (int away = 0; away <= 1; ++away) {
            const pto_round_mode round = away ? PTO_ROUND_ROUND : PTO_ROUND_RINT;
            expect_status(a2a3 ? pto_set_hf32_mode(1, round) : pto_set_tf32_mode(1, round), PTO_OK, "mode on");
            for (int gemv = 0; gemv <= 1; ++gemv)
                for (int seed = SEED_ZERO; seed <= SEED_BIAS; ++seed) {
                    operands o = operands_new(kProfiles[p], gemv, &r);
                    char what[96];
                    snprintf(what, sizeof what, "%s %s %s ties %s", pto_profile_string(kProfiles[p]),
                             gemv ? kGemvNames[seed] : kSeedNames[seed], a2a3 ? "HF32" : "TF32",
                             away ? "away" : "even");
                    checked += check_call(&o, gemv, (seed_kind)seed, a2a3 ? 11 : 10, away, what);
                    operands_destroy(&o);
                }
            expect_status(pto_set_hf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "hf32 off");
            expect_status(pto_set_tf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "tf32 off");
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[cube_mode] %zu elements of tmatmul*, tgemv* with HF32 (A2A3) and TF32 (A5) inputs, "
                  "both tie rules, equal the reference\n",
                  checked);
}

/* The bits of the plain matrix multiply: the default mode, a mode switched
 * off again, the other profile's mode, and both modes under HOST. */
static void test_mode_default_bits(void **state) {
    (void)state;
    rng r = {0xDEF};
    size_t checked = 0;
    static const pto_profile kProfiles[] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        const bool a2a3 = kProfiles[p] == PTO_PROFILE_A2A3;
        for (int step = 0; step < 3; ++step) {
            if (step == 1) { /* on, then off again */
                expect_status(pto_set_hf32_mode(1, PTO_ROUND_RINT), PTO_OK, "on");
                expect_status(pto_set_tf32_mode(1, PTO_ROUND_RINT), PTO_OK, "on");
                expect_status(pto_set_hf32_mode(0, PTO_ROUND_RINT), PTO_OK, "off");
                expect_status(pto_set_tf32_mode(0, PTO_ROUND_RINT), PTO_OK, "off");
            }
            if (step == 2) /* the other profile's mode */
                expect_status(a2a3 ? pto_set_tf32_mode(1, PTO_ROUND_ROUND) : pto_set_hf32_mode(1, PTO_ROUND_ROUND),
                              PTO_OK, "other mode on");
            for (int seed = SEED_ZERO; seed <= SEED_BIAS; ++seed) {
                operands o = operands_new(kProfiles[p], false, &r);
                checked += check_call(&o, false, (seed_kind)seed, 23, false, "plain bits");
                operands_destroy(&o);
            }
            expect_status(pto_set_hf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "off");
            expect_status(pto_set_tf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "off");
        }
    }
    /* HOST: both modes on, row-major tiles, the plain bits */
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    expect_status(pto_set_hf32_mode(1, PTO_ROUND_ROUND), PTO_OK, "on");
    expect_status(pto_set_tf32_mode(1, PTO_ROUND_ROUND), PTO_OK, "on");
    pto_tile *a = tile_new(PTO_FLOAT32, 4, 9, 4, 9), *b = tile_new(PTO_FLOAT32, 9, 5, 9, 5);
    pto_tile *d = tile_new(PTO_FLOAT32, 4, 5, 4, 5);
    for (uint32_t k = 0; k < 36; ++k) tile_put(a, k / 9, k % 9, kEdges[k % COUNT(kEdges)]);
    for (uint32_t k = 0; k < 45; ++k) tile_put(b, k / 5, k % 5, ref_f32_bits((float)rng_uniform(&r, -2, 2)));
    expect_status(pto_tmatmul(d, a, b), PTO_OK, "HOST tmatmul");
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 5; ++j) {
            float acc = 0.0f;
            for (uint32_t kk = 0; kk < 9; ++kk)
                acc = fmaf(ref_f32_of((uint32_t)tile_get(a, i, kk)), ref_f32_of((uint32_t)tile_get(b, kk, j)), acc);
            const uint32_t g = (uint32_t)tile_get(d, i, j);
            if (isnan(acc) ? !isnan(ref_f32_of(g)) : g != ref_f32_bits(acc))
                fail_msg("HOST (%u,%u) is 0x%08x, want 0x%08x", i, j, g, ref_f32_bits(acc));
            ++checked;
        }
    TILES_DESTROY(a, b, d);
    expect_status(pto_set_hf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "off");
    expect_status(pto_set_tf32_mode(0, PTO_ROUND_ROUND), PTO_OK, "off");
    print_message("[cube_mode] %zu elements keep the plain matrix multiply's bits (default, off again, the "
                  "other profile's mode, HOST)\n",
                  checked);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_setters),
        cmocka_unit_test(test_mode_rounding),
        cmocka_unit_test(test_mode_default_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
