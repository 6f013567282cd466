/* tscratch_fma, a dummy of tests/ci/new-operation.sh, through the public API
 * alone: its C function against fmaf (elements outside dst's valid region
 * untouched), two refusals in the rules' order, and its text form run from
 * a .pto snippet through pto_program_create, pto_args_* and pto_program_run,
 * bit for bit the C call's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pto_c.h"

enum { ROWS = 3, COLS = 8, VALID_COLS = 5 };

/* A rows x cols FLOAT32 tile holding values, valid_cols valid columns. */
static pto_tile *tile_of(const float *values, uint32_t valid_cols) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, ROWS, COLS, &t), PTO_OK);
    assert_int_equal(pto_tile_write(t, values, sizeof(float) * ROWS * COLS), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, ROWS, valid_cols), PTO_OK);
    return t;
}

static void fill(float *values, float first, float step) {
    for (size_t k = 0; k < ROWS * COLS; ++k) values[k] = first + step * (float)k;
}

static void test_values(void **state) {
    (void)state;
    float a[ROWS * COLS], b[ROWS * COLS], d[ROWS * COLS], out[ROWS * COLS];
    fill(a, 1.0f + 0x1p-12f, 0.375f);
    fill(b, -(1.0f + 0x1p-11f), -0.25f);
    fill(d, 7.0f, 0.0f);
    pto_tile *ta = tile_of(a, VALID_COLS), *tb = tile_of(b, VALID_COLS), *td = tile_of(d, VALID_COLS);
    const float scalar = 1.0f + 0x1p-12f;
    assert_int_equal(pto_tscratch_fma(td, ta, tb, scalar), PTO_OK);
    assert_int_equal(pto_tile_read(td, out, sizeof out), PTO_OK);
    for (size_t k = 0; k < ROWS * COLS; ++k) {
        const float want = k % COLS < VALID_COLS ? fmaf(scalar, a[k], b[k]) : d[k];
        assert_memory_equal(&out[k], &want, sizeof want);
    }
    pto_tile_destroy(ta);
    pto_tile_destroy(tb);
    pto_tile_destroy(td);
}

static void test_rules(void **state) {
    (void)state;
    float a[ROWS * COLS];
    fill(a, 1.0f, 1.0f);
    pto_tile *t = tile_of(a, VALID_COLS), *i32 = NULL;
    assert_int_equal(pto_tile_create(PTO_INT32, ROWS, COLS, &i32), PTO_OK);
    assert_int_equal(pto_tscratch_fma(NULL, t, t, 1.0), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tscratch_fma(i32, t, t, 1.0), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "pto_tscratch_fma"));
    pto_tile_destroy(t);
    pto_tile_destroy(i32);
}

static const char kProgram[] =
    "%c = arith.constant 1.5 : f32\n"
    "pto.tscratch_fma ins(%a, %b, %c : !pto.tile_buf<vec, 3x8xf32>, !pto.tile_buf<vec, 3x8xf32>, f32) "
    "outs(%d : !pto.tile_buf<vec, 3x8xf32>)\n";

static void bind(pto_program *program, pto_args *args, const char *name, pto_tile *tile) {
    size_t at = 0;
    assert_int_equal(pto_program_param_find(program, name, &at), PTO_OK);
    assert_int_equal(pto_args_set_tile(args, at, tile), PTO_OK);
}

static void test_program(void **state) {
    (void)state;
    float a[ROWS * COLS], b[ROWS * COLS], zero[ROWS * COLS] = {0}, want[ROWS * COLS], got[ROWS * COLS];
    fill(a, -2.0f, 0.3f);
    fill(b, 5.0f, -0.7f);
    pto_tile *ta = tile_of(a, COLS), *tb = tile_of(b, COLS), *td = tile_of(zero, COLS);
    pto_tile *tw = tile_of(zero, COLS);
    assert_int_equal(pto_tscratch_fma(tw, ta, tb, 1.5), PTO_OK);
    pto_program *program = NULL;
    const pto_status created = pto_program_create(kProgram, strlen(kProgram), "scratch_fma.pto", &program);
    if (created != PTO_OK) fail_msg("tscratch_fma's text: %s (%s)", pto_status_string(created), pto_last_error());
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(program, &args), PTO_OK);
    bind(program, args, "a", ta);
    bind(program, args, "b", tb);
    bind(program, args, "d", td);
    assert_int_equal(pto_program_run(program, args), PTO_OK);
    assert_int_equal(pto_tile_read(tw, want, sizeof want), PTO_OK);
    assert_int_equal(pto_tile_read(td, got, sizeof got), PTO_OK);
    assert_memory_equal(got, want, sizeof want);
    pto_args_destroy(args);
    pto_program_destroy(program);
    pto_tile_destroy(ta);
    pto_tile_destroy(tb);
    pto_tile_destroy(td);
    pto_tile_destroy(tw);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
