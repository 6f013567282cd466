/* tscratch_table, a dummy of tests/ci/new-operation.sh, through the public
 * API alone: its two tile results and its value against the table element
 * (elements outside the valid region untouched), two refusals in the rules'
 * order, nothing written; and its text form, which the program front end
 * reads by the row's operand roles (the table a view of a pointer's memory,
 * the value the operation's %result), against the C call. */
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

#define TILE "!pto.tile_buf<vec, 2x8xf32, valid=2x5>"
static const char kText[] =
    "func.func @k(%t : !pto.ptr<f32>, %i : index, %s : " TILE ", %d : " TILE ", %d1 : " TILE ",\n"
    "             %o : " TILE ") {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %c4 = arith.constant 4 : index\n"
    "  %tv = pto.make_tensor_view %t, shape = [%c4], strides = [%c1] : !pto.tensor_view<?xf32>\n"
    "  %v = pto.tscratch_table ins(%tv, %s, %i : !pto.tensor_view<?xf32>, " TILE ", index)\n"
    "       outs(%d, %d1 : " TILE ", " TILE ") : f32\n"
    "  pto.tsetval ins(%c0, %v : index, f32) outs(%o : " TILE ")\n"
    "  return\n}\n";

/* The program with the table, index and tiles bound; its status. */
static pto_status run_text(float *table, int64_t index, pto_tile *s, pto_tile *d, pto_tile *d1, pto_tile *o) {
    pto_program *p = NULL;
    if (pto_program_create(kText, strlen(kText), "scratch_table.pto", &p) != PTO_OK)
        fail_msg("%s", pto_last_error());
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    static const char *const kTiles[] = {"s", "d", "d1", "o"};
    pto_tile *tiles[] = {s, d, d1, o};
    size_t at = 0;
    assert_int_equal(pto_program_param_find(p, "t", &at), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, at, table, 4 * sizeof *table), PTO_OK);
    assert_int_equal(pto_program_param_find(p, "i", &at), PTO_OK);
    assert_int_equal(pto_args_set_int(args, at, index), PTO_OK);
    for (size_t k = 0; k < 4; ++k) {
        assert_int_equal(pto_program_param_find(p, kTiles[k], &at), PTO_OK);
        assert_int_equal(pto_args_set_tile(args, at, tiles[k]), PTO_OK);
    }
    const pto_status status = pto_program_run(p, args);
    pto_args_destroy(args);
    pto_program_destroy(p);
    return status;
}

static void test_program(void **state) {
    (void)state;
    float table[4] = {0.5f, -3.0f, 1.0f + 0x1p-12f, 8.0f};
    float s[ROWS * COLS], seven[ROWS * COLS], got[ROWS * COLS], want[ROWS * COLS];
    for (size_t k = 0; k < ROWS * COLS; ++k) s[k] = 1.0f - 0.375f * (float)k, seven[k] = 7.0f;
    pto_tile *src = tile_of(s), *d = tile_of(seven), *d1 = tile_of(seven), *o = tile_of(seven);
    pto_tile *cd = tile_of(seven), *cd1 = tile_of(seven);
    double value = 0;
    assert_int_equal(pto_tscratch_table(cd, table, 4, PTO_FLOAT32, src, cd1, 1, &value), PTO_OK);
    const pto_status status = run_text(table, 1, src, d, d1, o);
    if (status != PTO_OK) fail_msg("%s: %s", pto_status_string(status), pto_last_error());
    const pto_tile *pairs[2][2] = {{d, cd}, {d1, cd1}};
    for (size_t k = 0; k < 2; ++k) {
        assert_int_equal(pto_tile_read(pairs[k][0], got, sizeof got), PTO_OK);
        assert_int_equal(pto_tile_read(pairs[k][1], want, sizeof want), PTO_OK);
        assert_memory_equal(got, want, sizeof got);
    }
    assert_int_equal(pto_tile_read(o, got, sizeof got), PTO_OK);
    assert_true(got[0] == (float)value && value == (double)table[1]);
    /* An index past the table: the C call's refusal when it runs, nothing written. */
    assert_int_equal(run_text(table, 4, src, d, d1, o), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "pto_tscratch_table: index 4"));
    assert_int_equal(pto_tile_read(d, got, sizeof got), PTO_OK);
    assert_int_equal(pto_tile_read(cd, want, sizeof want), PTO_OK);
    assert_memory_equal(got, want, sizeof got);
    print_message("[scratch_table] its text form computed the C call's tiles and value\n");
    pto_tile *all[] = {src, d, d1, o, cd, cd1};
    for (size_t k = 0; k < 6; ++k) pto_tile_destroy(all[k]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
