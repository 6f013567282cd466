/* tscratch_table, a dummy of tests/ci/new-operation.sh, through the public
 * API alone: its two tile results and its value against the table element
 * (elements outside the valid region untouched), and two refusals in the
 * rules' order, nothing written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pto_c.h"

enum { ROWS = 2, COLS = 8, VALID_COLS = 5 };

static pto_tile *tile_of(const float *values) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, ROWS, COLS, &t), PTO_OK);
    assert_int_equal(pto_tile_write(t, values, sizeof(float) * ROWS * COLS), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, ROWS, VALID_COLS), PTO_OK);
    return t;
}

static void test_values(void **state) {
    (void)state;
    const float table[4] = {0.5f, -3.0f, 1.0f + 0x1p-12f, 8.0f};
    float s[ROWS * COLS], seven[ROWS * COLS], sum[ROWS * COLS], product[ROWS * COLS];
    for (size_t k = 0; k < ROWS * COLS; ++k) s[k] = 1.0f + 0.25f * (float)k, seven[k] = 7.0f;
    pto_tile *src = tile_of(s), *dst = tile_of(seven), *dst1 = tile_of(seven);
    double value = 0;
    assert_int_equal(pto_tscratch_table(dst, table, 4, PTO_FLOAT32, src, dst1, 2, &value), PTO_OK);
    assert_true(value == (double)table[2]);
    assert_int_equal(pto_tile_read(dst, sum, sizeof sum), PTO_OK);
    assert_int_equal(pto_tile_read(dst1, product, sizeof product), PTO_OK);
    for (size_t k = 0; k < ROWS * COLS; ++k) {
        const int valid = k % COLS < VALID_COLS;
        const float want_sum = valid ? s[k] + table[2] : 7.0f, want_product = valid ? s[k] * table[2] : 7.0f;
        assert_memory_equal(&sum[k], &want_sum, sizeof want_sum);
        assert_memory_equal(&product[k], &want_product, sizeof want_product);
    }
    pto_tile_destroy(src);
    pto_tile_destroy(dst);
    pto_tile_destroy(dst1);
}

static void test_rules(void **state) {
    (void)state;
    const float table[4] = {1, 2, 3, 4};
    float seven[ROWS * COLS], got[ROWS * COLS];
    for (size_t k = 0; k < ROWS * COLS; ++k) seven[k] = 7.0f;
    pto_tile *t = tile_of(seven), *d = tile_of(seven);
    double value = -1;
    assert_int_equal(pto_tscratch_table(d, NULL, 4, PTO_FLOAT32, t, t, 0, &value), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tscratch_table: table"));
    assert_int_equal(pto_tscratch_table(d, table, 4, PTO_FLOAT32, t, t, 4, &value), PTO_ERR_OUT_OF_RANGE);
    assert_true(value == -1);
    assert_int_equal(pto_tile_read(d, got, sizeof got), PTO_OK);
    assert_memory_equal(got, seven, sizeof got);
    pto_tile_destroy(t);
    pto_tile_destroy(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
