/* PTO assembly's spellings of one instruction as the pages write them:
 * texpands with the scalar alone and in its SSA and synchronous forms,
 * tdivs in its tile/scalar and scalar/tile orders; each run against the
 * value computed here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* texpands in the pages' spellings: the scalar alone, `: f32 -> T` (SSA)
 * and `: f32, T` (synchronous); the valid region filled. The result is a
 * tile the snippet only writes: it starts zero-filled and is copied back
 * whole (pto_program_run). */
static void test_texpands_spellings(void **state) {
    (void)state;
    static const char *const texts[] = {
        "%c = arith.constant -2.5 : f32\n"
        "%dst = pto.texpands %c : f32 -> !pto.tile<4x8xf32, valid=3x5>\n",
        "%c = arith.constant -2.5 : f32\n"
        "%dst = texpands %c : f32, !pto.tile<4x8xf32, valid=3x5>\n",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
        pto_program *p = program_build(texts[k], NULL);
        pto_tile *t = NULL;
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 4, 8, &t), PTO_OK);
        assert_int_equal(pto_tile_set_valid(t, 3, 5), PTO_OK);
        float *data = pto_tile_data(t);
        for (int i = 0; i < 32; ++i) data[i] = (float)i;
        pto_args *a = NULL;
        size_t index = 0;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "dst", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, t), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (int i = 0; i < 32; ++i) {
            const bool inside = i / 8 < 3 && i % 8 < 5;
            if (data[i] != (inside ? -2.5f : 0.0f))
                fail_msg("form %zu: element %d is %g", k, i, (double)data[i]);
        }
        pto_args_destroy(a);
        pto_tile_destroy(t);
        pto_program_destroy(p);
    }
    expect_program_refused_with("%dst = pto.texpands : f32 -> !pto.tile<4x8xf32>\n", NULL, "");
    expect_program_refused_with("%c = arith.constant 1 : i32\n"
            "%dst = pto.texpands %c : i32 -> !pto.tile<4x8xf32>\n",
            NULL, "texpands takes a float scalar for a tile of FLOAT32");
}

/* tdivs in both of the pages' forms, each spelt as the page writes it: the
 * tile/scalar form src / scalar, the scalar/tile form scalar / src (the row
 * pto_tdivs_scalar_by_tile); the last with MLIR's locations as PyPTO writes
 * them after each operation (`loc(...)`, nothing the program means). */
static void test_tdivs_both_orders(void **state) {
    (void)state;
    static const char *const texts[] = {
        "%c = arith.constant 3.0 : f32\n%dst = tdivs %src, %c : !pto.tile<2x4xf32>, f32\n",
        "%c = arith.constant 3.0 : f32\n%dst = tdivs %c, %src : f32, !pto.tile<2x4xf32>\n",
        "%c = arith.constant 3.0 : f32\n"
        "%dst = pto.tdivs %c, %src : (f32, !pto.tile<2x4xf32>) -> !pto.tile<2x4xf32>\n",
        "func.func @k(%src: !pto.tile_buf<vec, 2x4xf32>, %dst: !pto.tile_buf<vec, 2x4xf32>) {\n"
        "  %c = arith.constant 3.0 : f32\n"
        "  pto.tdivs ins(%c, %src : f32, !pto.tile_buf<vec, 2x4xf32>) outs(%dst : !pto.tile_buf<vec, 2x4xf32>)\n"
        "  return\n}\n",
        /* as PyPTO writes it: MLIR locations after the operations, skipped */
        "func.func @k(%src: !pto.tile_buf<vec, 2x4xf32>, %dst: !pto.tile_buf<vec, 2x4xf32>) {\n"
        "  %c = arith.constant 3.0 : f32 loc(\"/m/decode (1).py\":107:13)\n"
        "  pto.tdivs ins(%c, %src : f32, !pto.tile_buf<vec, 2x4xf32>) outs(%dst : !pto.tile_buf<vec, 2x4xf32>)"
        " loc(fused[\"a.py\":1:2, callsite(\"b.py\":3:4 at \"c.py\":5:6)])\n"
        "  return loc(unknown)\n} loc(\"m.py\":1:1)\n",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
        pto_program *p = program_build(texts[k], NULL);
        pto_tile *src = NULL, *dst = NULL;
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 2, 4, &src), PTO_OK);
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 2, 4, &dst), PTO_OK);
        float *s = pto_tile_data(src), *d = pto_tile_data(dst);
        for (int i = 0; i < 8; ++i) s[i] = (float)(i + 1);
        pto_args *a = NULL;
        size_t index = 0;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "src", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, src), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "dst", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, dst), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (int i = 0; i < 8; ++i) {
            const float want = k == 0 ? (float)(i + 1) / 3.0f : 3.0f / (float)(i + 1);
            if (d[i] != want) fail_msg("form %zu: element %d is %.9g, not %.9g", k, i, (double)d[i], (double)want);
        }
        pto_args_destroy(a);
        pto_tile_destroy(src);
        pto_tile_destroy(dst);
        pto_program_destroy(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_texpands_spellings),
        cmocka_unit_test(test_tdivs_both_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
