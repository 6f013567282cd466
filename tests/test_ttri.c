/* TTRI: every dtype, both triangles, diagonals inside, on the edges of and
 * beyond the valid region, over padded regions whose other elements stay as
 * they were, against the page's formula (lower: 1 where j <= i + d; upper:
 * 0 where j < i + d; 1 and 0 of the dtype); its rules per profile in order
 * with nothing written on a refusal; PTOAS's text form with the diagonal an
 * argument or a constant and {upperOrLower = 0|1 : i32}. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kAll[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,  PTO_UINT32,
                                 PTO_INT64, PTO_UINT64, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

/* The page's element (i, j) for diagonal d. */
static uint64_t tri_expected(pto_dtype dt, long i, long j, long d, int upper) {
    const bool one = upper ? !(j < i + d) : j <= i + d;
    return ref_from_double(dt, one ? 1.0 : 0.0);
}

static void expect_triangle(const pto_tile *dst, const uint64_t *before, long d, int upper,
                            const char *what) {
    const pto_dtype dt = pto_tile_dtype(dst);
    const uint32_t vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst), cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint64_t want = i < vr && j < vc ? tri_expected(dt, i, j, d, upper) : before[(size_t)i * cols + j];
            const uint64_t got = tile_get(dst, i, j);
            if (got != want)
                fail_msg("%s: %s %s d=%ld: (%u,%u) is 0x%llx, want 0x%llx", what, pto_dtype_string(dt),
                         upper ? "upper" : "lower", d, i, j, (unsigned long long)got, (unsigned long long)want);
        }
}

static void test_ttri_values(void **state) {
    (void)state;
    static const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {32, 32, 32, 32}, {5, 40, 5, 33},
                                          {16, 8, 13, 8}, {3, 300, 2, 257}, {4, 16, 0, 16}};
    static const long kDiagonals[] = {0, 1, -1, 2, -3, 7, -7, 16, -16, 31, -31, 32, -32, 300, -300,
                                      2147483647L, -2147483647L - 1};
    rng r = {0x7A1};
    size_t elements = 0;
    for (size_t t = 0; t < COUNT(kAll); ++t)
        for (size_t s = 0; s < COUNT(kShapes); ++s)
            for (size_t k = 0; k < COUNT(kDiagonals); ++k)
                for (int upper = 0; upper < 2; ++upper) {
                    const uint32_t *sh = kShapes[s];
                    pto_tile *dst = tile_new(kAll[t], sh[0], sh[1], sh[2], sh[3]);
                    tile_fill(dst, &r, GEN_ANY);
                    uint64_t *before = tile_snapshot(dst);
                    assert_int_equal(pto_ttri(dst, (double)kDiagonals[k], upper), PTO_OK);
                    expect_triangle(dst, before, kDiagonals[k], upper, "pto_ttri");
                    elements += (size_t)sh[0] * sh[1];
                    free(before);
                    pto_tile_destroy(dst);
                }
    print_message("[ttri] %zu elements over 11 dtypes, both triangles, 17 diagonals\n", elements);
}

/* The page's C++ examples: a 16x16 float lower triangle with diagonal 0 and
 * an upper one with diagonal -1, written out. */
static void test_ttri_examples(void **state) {
    (void)state;
    pto_tile *lower = tile_new(PTO_FLOAT32, 16, 16, 16, 16), *upper = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    assert_int_equal(pto_ttri(lower, 0, 0), PTO_OK);
    assert_int_equal(pto_ttri(upper, -1, 1), PTO_OK);
    float l[256], u[256];
    assert_int_equal(pto_tile_read(lower, l, sizeof l), PTO_OK);
    assert_int_equal(pto_tile_read(upper, u, sizeof u), PTO_OK);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            assert_true(l[i * 16 + j] == (j <= i ? 1.0f : 0.0f));
            /* upper with d = -1: ones from one column left of the diagonal */
            assert_true(u[i * 16 + j] == (j >= i - 1 ? 1.0f : 0.0f));
        }
    /* +0.0, not -0.0 */
    assert_false(signbit(l[1]));
    TILES_DESTROY(lower, upper);
}

/* pto-isa's ST cases (tests/cpu/st and tests/npu/a2a3, a5/src/st/testcase/
 * ttri, gen_data.py: numpy's tril / triu with k = diagonal over the valid
 * region), each under its profile. */
typedef struct {
    pto_profile profile;
    pto_dtype dt;
    uint32_t rows, cols, vr, vc;
    int upper;
    long diagonal;
} tri_case;

static const tri_case kTriCases[] = {
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 4, 8, 4, 4, 1, 0},        {PTO_PROFILE_A2A3, PTO_FLOAT32, 64, 64, 64, 64, 1, 0},
    {PTO_PROFILE_A2A3, PTO_INT32, 64, 64, 64, 64, 1, 0},        {PTO_PROFILE_A2A3, PTO_INT16, 64, 64, 64, 64, 1, 0},
    {PTO_PROFILE_A2A3, PTO_FLOAT16, 16, 256, 16, 256, 1, 0},    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 128, 1, 0},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 64, 64, 64, 64, 0, 0},      {PTO_PROFILE_A2A3, PTO_INT32, 64, 64, 64, 64, 0, 0},
    {PTO_PROFILE_A2A3, PTO_INT16, 64, 64, 64, 64, 0, 0},        {PTO_PROFILE_A2A3, PTO_FLOAT16, 16, 256, 16, 256, 0, 0},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 128, 0, 0},  {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 125, 0, 0},
    {PTO_PROFILE_A2A3, PTO_UINT32, 64, 64, 64, 64, 1, 0},       {PTO_PROFILE_A2A3, PTO_UINT32, 64, 64, 64, 64, 0, 0},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 111, 0, 2},  {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 111, 0, -2},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 111, 1, 2},  {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 111, 1, -2},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 31, 1, 444}, {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 31, 0, 444},
    {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 31, 1, -444}, {PTO_PROFILE_A2A3, PTO_FLOAT32, 128, 128, 128, 31, 0, -444},
    {PTO_PROFILE_A5, PTO_FLOAT16, 20, 32, 20, 32, 0, 0},        {PTO_PROFILE_A5, PTO_UINT8, 20, 32, 20, 32, 0, 0},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 0, 0},        {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 0, 0},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 0, 3},        {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 0, 3},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 0, -3},       {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 0, -3},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 1, 0},        {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 1, 0},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 1, 3},        {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 1, 3},
    {PTO_PROFILE_A5, PTO_FLOAT32, 32, 91, 32, 91, 1, -3},       {PTO_PROFILE_A5, PTO_FLOAT32, 128, 128, 128, 128, 1, -3},
    {PTO_PROFILE_A5, PTO_FLOAT32, 763, 32, 763, 32, 0, -41},    {PTO_PROFILE_A5, PTO_FLOAT32, 763, 32, 763, 32, 1, -41},
    {PTO_PROFILE_A5, PTO_INT64, 4, 15, 4, 15, 1, 0},            {PTO_PROFILE_A5, PTO_UINT64, 4, 15, 4, 15, 0, -1},
    {PTO_PROFILE_A5, PTO_FLOAT16, 30, 208, 30, 208, 1, 0},      {PTO_PROFILE_A5, PTO_FLOAT16, 30, 208, 30, 176, 1, 0},
    {PTO_PROFILE_A5, PTO_FLOAT16, 293, 16, 269, 16, 0, -41},    {PTO_PROFILE_A5, PTO_FLOAT16, 293, 16, 293, 16, 0, -41},
    {PTO_PROFILE_A5, PTO_FLOAT16, 293, 16, 287, 16, 0, -41},    {PTO_PROFILE_A5, PTO_INT8, 32, 128, 32, 128, 0, 0},
    {PTO_PROFILE_A5, PTO_INT8, 32, 128, 24, 112, 0, 0},         {PTO_PROFILE_A5, PTO_FLOAT16, 293, 16, 1, 16, 0, 0},
    {PTO_PROFILE_A5, PTO_FLOAT16, 293, 16, 2, 16, 0, 0},        {PTO_PROFILE_HOST, PTO_BFLOAT16, 64, 64, 64, 64, 0, 0},
};

static void test_ttri_st_cases(void **state) {
    (void)state;
    rng r = {0x7A4};
    for (size_t k = 0; k < COUNT(kTriCases); ++k) {
        const tri_case *c = &kTriCases[k];
        assert_int_equal(pto_set_profile(c->profile), PTO_OK);
        pto_tile *dst = tile_new(c->dt, c->rows, c->cols, c->vr, c->vc);
        tile_fill(dst, &r, GEN_ANY);
        uint64_t *before = tile_snapshot(dst);
        const pto_status st = pto_ttri(dst, (double)c->diagonal, c->upper);
        if (st != PTO_OK) fail_msg("ST case %zu: %s (%s)", k, pto_status_string(st), pto_last_error());
        expect_triangle(dst, before, c->diagonal, c->upper, "ST case");
        free(before);
        pto_tile_destroy(dst);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[ttri] pto-isa's %zu ST cases equal numpy's tril / triu over the valid region\n",
                  COUNT(kTriCases));
}

static void test_ttri_rules(void **state) {
    (void)state;
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    /* which of kAll each profile accepts */
    static const bool kAccepted[3][11] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 1},
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    };
    rng r = {0x7A2};
    size_t calls = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        expect_status(pto_ttri(NULL, 0, 0), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        assert_non_null(strstr(pto_last_error(), "pto_ttri: dst"));
        for (size_t t = 0; t < COUNT(kAll); ++t) {
            pto_tile *dst = tile_new(kAll[t], 4, 8, 4, 8);
            tile_fill(dst, &r, GEN_ANY);
            uint64_t *kept = tile_snapshot(dst);
            /* upper before dtype, dtype before diagonal */
            expect_status(pto_ttri(dst, 0.5, 2), PTO_ERR_INVALID_ARGUMENT, "upper 2");
            expect_status(pto_ttri(dst, 0, -1), PTO_ERR_INVALID_ARGUMENT, "upper -1");
            if (!kAccepted[p][t]) {
                expect_status(pto_ttri(dst, 0.5, 0), PTO_ERR_UNSUPPORTED_DTYPE, pto_dtype_string(kAll[t]));
                assert_non_null(strstr(pto_last_error(), "A2A3"));
            } else {
                expect_status(pto_ttri(dst, 0.5, 0), PTO_ERR_INVALID_ARGUMENT, "diagonal 0.5");
                expect_status(pto_ttri(dst, 2147483648.0, 1), PTO_ERR_INVALID_ARGUMENT, "diagonal 2^31");
                expect_status(pto_ttri(dst, -2147483649.0, 1), PTO_ERR_INVALID_ARGUMENT, "diagonal -2^31 - 1");
                expect_status(pto_ttri(dst, NAN, 0), PTO_ERR_INVALID_ARGUMENT, "diagonal NaN");
                expect_status(pto_ttri(dst, INFINITY, 0), PTO_ERR_INVALID_ARGUMENT, "diagonal inf");
                assert_non_null(strstr(pto_last_error(), "diagonal"));
                calls += 5;
            }
            assert_tile_unchanged(dst, kept, "refused ttri");
            if (kAccepted[p][t]) {
                assert_int_equal(pto_ttri(dst, -2, 1), PTO_OK);
                expect_triangle(dst, kept, -2, 1, "accepted ttri");
            }
            calls += 3;
            free(kept);
            pto_tile_destroy(dst);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* a cube tile is refused before the other rules (pto_c.h, "Cube tiles") */
    pto_tile *m = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_NZ, &m), PTO_OK);
    uint64_t *kept = tile_snapshot(m);
    expect_status(pto_ttri(m, 0.5, 0), PTO_ERR_INVALID_ARGUMENT, "a cube dst");
    assert_non_null(strstr(pto_last_error(), "pto_ttri: dst"));
    assert_tile_unchanged(m, kept, "refused ttri on a cube tile");
    free(kept);
    pto_tile_destroy(m);
    print_message("[ttri] %zu calls: the rules in order on 3 profiles\n", calls + 1);
}

/* PTOAS's form (its lit test ttri_emitc.pto: the diagonal an argument,
 * {upperOrLower = 1 : i32} for the upper triangle, lower by default) and a
 * constant diagonal; a bad triangle or dtype is refused. */
static void test_ttri_programs(void **state) {
    (void)state;
#define LONG_TYPE                                                                                   \
    "!pto.tile_buf<loc=vec, dtype=i32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, " \
    "slayout=none_box, fractal=512, pad=0>"
    static const char kText[] =
        "func.func @k(%diag: i32, %l: " LONG_TYPE ", %u: " LONG_TYPE ", %h: !pto.tile_buf<vec, 8x16xf16>) {\n"
        "  %m2 = arith.constant -2 : i32\n"
        "  pto.ttri ins(%diag : i32) outs(%l : " LONG_TYPE ")\n"
        "  pto.ttri ins(%diag {upperOrLower = 1 : i32} : i32) outs(%u : " LONG_TYPE ")\n"
        "  pto.ttri ins(%m2 {upperOrLower = 0 : i32} : i32) outs(%h : !pto.tile_buf<vec, 8x16xf16>)\n"
        "  return\n"
        "}\n";
#undef LONG_TYPE
    pto_program *p = NULL;
    const pto_status built = pto_program_create(kText, strlen(kText), "t.pto", &p);
    if (built != PTO_OK) fail_msg("ttri program: %s (%s)", pto_status_string(built), pto_last_error());
    static const int32_t kDiagonals[] = {0, 3, -5, 20};
    rng r = {0x7A3};
    for (size_t k = 0; k < COUNT(kDiagonals); ++k) {
        pto_tile *l = tile_new(PTO_INT32, 8, 16, 8, 16), *u = tile_new(PTO_INT32, 8, 16, 8, 16);
        pto_tile *h = tile_new(PTO_FLOAT16, 8, 16, 8, 16);
        tile_fill(l, &r, GEN_ANY);
        tile_fill(u, &r, GEN_ANY);
        tile_fill(h, &r, GEN_ANY);
        pto_args *a = NULL;
        size_t at[4];
        static const char *const kParams[] = {"diag", "l", "u", "h"};
        for (size_t q = 0; q < 4; ++q) assert_int_equal(pto_program_param_find(p, kParams[q], &at[q]), PTO_OK);
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_args_set_int(a, at[0], kDiagonals[k]), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, at[1], l), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, at[2], u), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, at[3], h), PTO_OK);
        const pto_status st = pto_program_run(p, a);
        if (st != PTO_OK) fail_msg("ttri program: %s (%s)", pto_status_string(st), pto_last_error());
        pto_args_destroy(a);
        const long d = kDiagonals[k];
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 16; ++j) {
                assert_int_equal(tile_get(l, i, j), tri_expected(PTO_INT32, i, j, d, 0));
                assert_int_equal(tile_get(u, i, j), tri_expected(PTO_INT32, i, j, d, 1));
                assert_int_equal(tile_get(h, i, j), (long)j <= (long)i - 2 ? 0x3C00u : 0u);
            }
        TILES_DESTROY(l, u, h);
    }
    pto_program_destroy(p);
    /* the page's SSA form, a constant diagonal, both triangles */
    static const char *const kSsa[] = {
        "%k = arith.constant 2 : i32\n%t = pto.ttri %k : i32 -> !pto.tile<3x5xf32>\n",
        "%k = arith.constant 2 : i32\n%t = pto.ttri %k {upperOrLower = 1 : i32} : i32 -> !pto.tile<3x5xf32>\n",
    };
    static const char *const kT[] = {"t"};
    for (int upper = 0; upper < 2; ++upper) {
        pto_tile *t = tile_new(PTO_FLOAT32, 3, 5, 3, 5);
        pto_tile *bound[] = {t};
        const pto_status st = run_program_bound(kSsa[upper], kT, bound, 1, NULL, NULL, 0);
        if (st != PTO_OK) fail_msg("%s: %s (%s)", kSsa[upper], pto_status_string(st), pto_last_error());
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t j = 0; j < 5; ++j) assert_int_equal(tile_get(t, i, j), tri_expected(PTO_FLOAT32, i, j, 2, upper));
        pto_tile_destroy(t);
    }
    expect_program_refused("%d = arith.constant 0 : i32\n"
                           "%t = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>\n"
                           "pto.ttri ins(%d {upperOrLower = 2 : i32} : i32) outs(%t : !pto.tile_buf<vec, 4x8xf32>)\n",
                           PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused("module attributes {pto.target_arch = \"a2a3\"} {\n"
                           "func.func @k(%d : i32, %t : !pto.tile_buf<vec, 4x32xi8>) {\n"
                           "  pto.ttri ins(%d : i32) outs(%t : !pto.tile_buf<vec, 4x32xi8>)\n"
                           "  return\n}\n}\n",
                           PTO_ERR_UNSUPPORTED_DTYPE);
    /* PTOAS's A5 verifier takes no 8-byte element type (the C function does) */
    static const char kI64[] = "module attributes {pto.target_arch = \"%s\"} {\n"
                               "func.func @k(%%d : i32, %%t : !pto.tile_buf<vec, 4x8xi64>) {\n"
                               "  pto.ttri ins(%%d : i32) outs(%%t : !pto.tile_buf<vec, 4x8xi64>)\n"
                               "  return\n}\n}\n";
    char text[512];
    snprintf(text, sizeof text, kI64, "a5");
    expect_program_refused_with(text, "k", "PTOAS's rule");
    snprintf(text, sizeof text, kI64, "a2a3");
    expect_program_refused(text, PTO_ERR_UNSUPPORTED_DTYPE);
    pto_tile *t64 = tile_new(PTO_INT64, 4, 8, 4, 8);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_ttri(t64, 1, 0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(t64);
    print_message("[ttri] PTOAS's form: 4 diagonals x 3 tiles, and the page's SSA form, equal the page's "
                  "triangles; 4 refused programs\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ttri_values),
        cmocka_unit_test(test_ttri_examples),
        cmocka_unit_test(test_ttri_st_cases),
        cmocka_unit_test(test_ttri_rules),
        cmocka_unit_test(test_ttri_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
