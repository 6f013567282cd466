/* Board mode (pto_set_board_mode): the switch and its errors, per thread;
 * the default refuses; under A2A3 and A5 board mode warns (to the handler,
 * once per occurrence, naming the rule) and gives the implementation's
 * result; HOST ignores the mode; NULLs, dtype mismatches and reads outside
 * an operand's storage stay errors; a program's partition window past its
 * view but inside its memory runs with a located warning, one past the
 * memory stays an error. Expected values are computed here from pto_c.h. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_profile kNpu[] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5};

/* What the handler saw: the number of warnings and the last one. */
typedef struct {
    int count;
    char last[1024];
} seen_warnings;

static void record_warning(const char *message, void *user_data) {
    seen_warnings *seen = user_data;
    ++seen->count;
    snprintf(seen->last, sizeof seen->last, "%s", message);
}

static void *board_mode_of_new_thread(void *arg) {
    *(int *)arg = pto_board_mode();
    return NULL;
}

static void test_board_mode_api(void **state) {
    (void)state;
    assert_int_equal(pto_board_mode(), 0);
    assert_int_equal(pto_set_board_mode(1), PTO_OK);
    assert_int_equal(pto_board_mode(), 1);
    static const int kBad[] = {2, -1, 1000};
    for (size_t i = 0; i < COUNT(kBad); ++i) {
        assert_int_equal(pto_set_board_mode(kBad[i]), PTO_ERR_INVALID_ARGUMENT);
        assert_int_equal(pto_board_mode(), 1); /* unchanged */
        assert_non_null(strstr(pto_last_error(), "pto_set_board_mode"));
    }
    /* per thread: a new thread starts with the default (not under qemu-user,
     * where a thread of a dynamically linked program can hang) */
    if (getenv("PTO_TEST_UNDER_QEMU") == NULL) {
        int other = -1;
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, board_mode_of_new_thread, &other), 0);
        assert_int_equal(pthread_join(t, NULL), 0);
        assert_int_equal(other, 0);
    } else {
        print_message("[board_mode_api] a new thread's default mode: not tested under emulation\n");
    }
    assert_int_equal(pto_set_board_mode(0), PTO_OK);
    assert_int_equal(pto_board_mode(), 0);
}

/* tadd with src1's valid region 4x8 of its 4x16 storage into a 4x16 dst:
 * refused by default and under HOST; in board mode under A2A3 and A5 one
 * warning and dst = src0 + src1 over dst's whole valid region. */
static void test_board_mode_binary(void **state) {
    (void)state;
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    rng r = {0xB0A2D};
    for (size_t p = 0; p < COUNT(kNpu) + 1; ++p) {
        const pto_profile profile = p < COUNT(kNpu) ? kNpu[p] : PTO_PROFILE_HOST;
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        pto_tile *dst = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *a = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
        pto_tile *b = tile_new(PTO_FLOAT32, 4, 16, 4, 8), *small = tile_new(PTO_FLOAT32, 2, 16, 2, 8);
        pto_tile *f16 = tile_new(PTO_FLOAT16, 4, 16, 4, 8);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 16; ++j) {
                float x = (float)(i * 16 + j), y = (float)(1000 + 3 * j + i);
                uint32_t xb, yb;
                memcpy(&xb, &x, 4);
                memcpy(&yb, &y, 4);
                tile_put(a, i, j, xb);
                tile_put(b, i, j, yb);
            }
        tile_fill(dst, &r, GEN_ANY);
        uint64_t *kept = tile_snapshot(dst);
        /* the default refuses, writing nothing */
        expect_status(pto_tadd(dst, a, b), PTO_ERR_SHAPE_MISMATCH, "tadd of other valid regions, default");
        assert_tile_unchanged(dst, kept, "refused tadd");
        assert_int_equal(seen.count, 0);
        assert_int_equal(pto_set_board_mode(1), PTO_OK);
        if (profile == PTO_PROFILE_HOST) {
            expect_status(pto_tadd(dst, a, b), PTO_ERR_SHAPE_MISMATCH, "tadd under HOST in board mode");
            assert_int_equal(seen.count, 0);
        } else {
            assert_int_equal(pto_tadd(dst, a, b), PTO_OK);
            assert_int_equal(seen.count, 1);
            assert_non_null(strstr(seen.last, "pto_tadd: board mode: "));
            assert_non_null(strstr(seen.last, "src1 valid region 4x8 differs from dst valid region 4x16"));
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 16; ++j) {
                    const float want = (float)(i * 16 + j) + (float)(1000 + 3 * j + i);
                    uint32_t got_bits = (uint32_t)tile_get(dst, i, j);
                    float got;
                    memcpy(&got, &got_bits, 4);
                    if (got != want) fail_msg("%s board tadd (%u,%u): %g, want %g", pto_profile_string(profile), i, j, got, want);
                }
            seen.count = 0;
            /* still errors: a source too small to read dst's region from, NULL, a dtype mismatch */
            tile_fill(dst, &r, GEN_ANY);
            free(kept);
            kept = tile_snapshot(dst);
            expect_status(pto_tadd(dst, a, small), PTO_ERR_SHAPE_MISMATCH, "board tadd past src1's storage");
            expect_status(pto_tadd(dst, a, NULL), PTO_ERR_NULL_ARGUMENT, "board tadd NULL");
            expect_status(pto_tadd(dst, a, f16), PTO_ERR_DTYPE_MISMATCH, "board tadd dtypes");
            assert_tile_unchanged(dst, kept, "refused board tadd");
            assert_int_equal(seen.count, 0);
        }
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        free(kept);
        TILES_DESTROY(dst, a, b, small, f16);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

/* Every Binary row: src0's valid region 2x8 of its 4x8 storage into a 4x8
 * dst. Refused by default; in board mode under A2A3 and A5 the rows whose
 * NPU implementations only PTO_ASSERT the regions (all but taddrelu) warn
 * once and give what the same call gives with src0's whole 4x8 valid (the
 * implementation reads src0's storage at dst's positions); taddrelu, which
 * pto-isa does not implement, stays refused. tand's result is also checked
 * bit by bit against a & b. */
typedef pto_status (*binary_fn)(pto_tile *, const pto_tile *, const pto_tile *);
typedef struct {
    const char *name;
    binary_fn fn;
    pto_dtype dtype;
    bool relaxed;
} binary_row;

static void put_number(pto_tile *t, uint32_t i, uint32_t j, int v) {
    if (pto_tile_dtype(t) == PTO_INT32) {
        tile_put(t, i, j, (uint32_t)v);
    } else {
        float f = (float)v;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        tile_put(t, i, j, bits);
    }
}

static void test_board_mode_every_binary_row(void **state) {
    (void)state;
    static const binary_row kRows[] = {
        {"pto_tadd", pto_tadd, PTO_FLOAT32, true},     {"pto_tsub", pto_tsub, PTO_FLOAT32, true},
        {"pto_tmul", pto_tmul, PTO_FLOAT32, true},     {"pto_tdiv", pto_tdiv, PTO_FLOAT32, true},
        {"pto_tmax", pto_tmax, PTO_FLOAT32, true},     {"pto_tmin", pto_tmin, PTO_FLOAT32, true},
        {"pto_trem", pto_trem, PTO_FLOAT32, true},     {"pto_tfmod", pto_tfmod, PTO_FLOAT32, true},
        {"pto_tsubrelu", pto_tsubrelu, PTO_FLOAT32, true},
        {"pto_tand", pto_tand, PTO_INT32, true},       {"pto_tor", pto_tor, PTO_INT32, true},
        {"pto_txor", pto_txor, PTO_INT32, true},       {"pto_tshl", pto_tshl, PTO_INT32, true},
        {"pto_tshr", pto_tshr, PTO_INT32, true},
        {"pto_taddrelu", pto_taddrelu, PTO_FLOAT32, false},
    };
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    for (size_t p = 0; p < COUNT(kNpu); ++p) {
        const pto_profile profile = kNpu[p];
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        for (size_t k = 0; k < COUNT(kRows); ++k) {
            const binary_row *row = &kRows[k];
            /* taddrelu has no dtype under A5 (only A2A3 runs it) */
            if (row->fn == pto_taddrelu && profile == PTO_PROFILE_A5) continue;
            pto_tile *dst = tile_new(row->dtype, 4, 8, 4, 8), *want = tile_new(row->dtype, 4, 8, 4, 8);
            pto_tile *a = tile_new(row->dtype, 4, 8, 2, 8), *b = tile_new(row->dtype, 4, 8, 4, 8);
            for (uint32_t i = 0; i < 4; ++i)
                for (uint32_t j = 0; j < 8; ++j) {
                    put_number(a, i, j, (int)(i * 8 + j) * 3 + 7);
                    put_number(b, i, j, (int)(j % 5) + 1); /* a shift count, a divisor */
                    put_number(dst, i, j, -1);
                }
            uint64_t *kept = tile_snapshot(dst);
            char what[96];
            snprintf(what, sizeof what, "%s %s src0 2x8 into 4x8, default", pto_profile_string(profile), row->name);
            expect_status(row->fn(dst, a, b), PTO_ERR_SHAPE_MISMATCH, what);
            assert_tile_unchanged(dst, kept, what);
            assert_int_equal(pto_set_board_mode(1), PTO_OK);
            snprintf(what, sizeof what, "%s %s src0 2x8 into 4x8, board mode", pto_profile_string(profile), row->name);
            if (!row->relaxed) {
                expect_status(row->fn(dst, a, b), PTO_ERR_SHAPE_MISMATCH, what);
                assert_tile_unchanged(dst, kept, what);
                assert_int_equal(seen.count, 0);
                assert_int_equal(pto_set_board_mode(0), PTO_OK);
            } else {
                if (row->fn(dst, a, b) != PTO_OK) fail_msg("%s: %s", what, pto_last_error());
                assert_int_equal(seen.count, 1);
                char prefix[64];
                snprintf(prefix, sizeof prefix, "%s: board mode: ", row->name);
                assert_non_null(strstr(seen.last, prefix));
                assert_non_null(strstr(seen.last, "src0 valid region 2x8 differs from dst valid region 4x8"));
                seen.count = 0;
                /* the same call with src0's storage all valid, by default */
                assert_int_equal(pto_set_board_mode(0), PTO_OK);
                assert_int_equal(pto_tile_set_valid(a, 4, 8), PTO_OK);
                assert_int_equal(row->fn(want, a, b), PTO_OK);
                for (uint32_t i = 0; i < 4; ++i)
                    for (uint32_t j = 0; j < 8; ++j) {
                        if (tile_get(dst, i, j) != tile_get(want, i, j))
                            fail_msg("%s (%u,%u): %#llx, want %#llx", what, i, j,
                                     (unsigned long long)tile_get(dst, i, j),
                                     (unsigned long long)tile_get(want, i, j));
                        if (row->fn == pto_tand) {
                            const uint64_t and_bits = tile_get(a, i, j) & tile_get(b, i, j);
                            if (tile_get(dst, i, j) != and_bits)
                                fail_msg("%s (%u,%u): not a & b", what, i, j);
                        }
                    }
            }
            free(kept);
            TILES_DESTROY(dst, want, a, b);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

/* tgather's index form with indices past src's valid region: refused by
 * default; in board mode under A2A3 and A5 one past the valid region but
 * inside src's rows x cols reads that element of src's storage (a warning
 * naming it), one past the storage (the rows x cols, 2048 of a 32x64 src)
 * or negative stays refused, nothing written. */
static void test_board_mode_tgather_index(void **state) {
    (void)state;
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    for (size_t p = 0; p < COUNT(kNpu); ++p) {
        const pto_profile profile = kNpu[p];
        assert_int_equal(pto_set_profile(profile), PTO_OK);
        pto_tile *src = tile_new(PTO_FLOAT32, 32, 64, 16, 64), *dst = tile_new(PTO_FLOAT32, 1, 8, 1, 8);
        pto_tile *idx = tile_new(PTO_INT32, 1, 8, 1, 8), *tmp = tile_new(PTO_INT32, 1, 8, 1, 8);
        for (uint32_t i = 0; i < 32; ++i)
            for (uint32_t j = 0; j < 64; ++j) put_number(src, i, j, (int)(i * 64 + j));
        /* indices 0, 7, ..., one at row 20 (past the 16 valid rows) */
        static const int kIdx[8] = {0, 7, 64, 1023, 20 * 64 + 3, 5, 31 * 64 + 63, 2};
        for (uint32_t j = 0; j < 8; ++j) tile_put(idx, 0, j, (uint32_t)kIdx[j]);
        for (uint32_t j = 0; j < 8; ++j) put_number(dst, 0, j, -1);
        uint64_t *kept = tile_snapshot(dst);
        pto_tile *scratch = profile == PTO_PROFILE_A2A3 ? tmp : NULL;
        expect_status(pto_tgather(dst, src, idx, scratch), PTO_ERR_OUT_OF_RANGE, "tgather past the valid rows, default");
        assert_non_null(strstr(pto_last_error(), "indices (0, 4) is 1283"));
        assert_tile_unchanged(dst, kept, "refused tgather");
        assert_int_equal(pto_set_board_mode(1), PTO_OK);
        assert_int_equal(pto_tgather(dst, src, idx, scratch), PTO_OK);
        assert_int_equal(seen.count, 1);
        assert_non_null(strstr(seen.last, "pto_tgather: board mode: indices (0, 4) is 1283"));
        for (uint32_t j = 0; j < 8; ++j) {
            uint64_t want;
            float f = (float)kIdx[j];
            uint32_t bits;
            memcpy(&bits, &f, 4);
            want = bits;
            if (tile_get(dst, 0, j) != want) fail_msg("%s board tgather [%u]", pto_profile_string(profile), j);
        }
        seen.count = 0;
        /* past the storage: 2048 of a 32x64 src, and a negative index */
        for (uint32_t j = 0; j < 8; ++j) put_number(dst, 0, j, -1);
        free(kept);
        kept = tile_snapshot(dst);
        static const int kPast[2] = {32 * 64, -1};
        for (size_t q = 0; q < 2; ++q) {
            tile_put(idx, 0, 6, (uint32_t)kPast[q]);
            expect_status(pto_tgather(dst, src, idx, scratch), PTO_ERR_OUT_OF_RANGE, "board tgather past src's storage");
            assert_non_null(strstr(pto_last_error(), "indices (0, 6)"));
            assert_non_null(strstr(pto_last_error(), "src's 32x64 storage"));
            assert_tile_unchanged(dst, kept, "refused board tgather");
            assert_int_equal(seen.count, 0);
        }
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        free(kept);
        TILES_DESTROY(src, dst, idx, tmp);
    }
    /* HOST ignores the mode */
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_set_board_mode(1), PTO_OK);
    pto_tile *src = tile_new(PTO_FLOAT32, 4, 8, 2, 8), *dst = tile_new(PTO_FLOAT32, 1, 8, 1, 8);
    pto_tile *idx = tile_new(PTO_INT32, 1, 8, 1, 8);
    for (uint32_t j = 0; j < 8; ++j) tile_put(idx, 0, j, j == 3 ? 3 * 8 : 0);
    expect_status(pto_tgather(dst, src, idx, NULL), PTO_ERR_OUT_OF_RANGE, "HOST tgather in board mode");
    assert_int_equal(seen.count, 0);
    assert_int_equal(pto_set_board_mode(0), PTO_OK);
    TILES_DESTROY(src, dst, idx);
    pto_set_warning_handler(NULL, NULL);
}

/* tsetval at an index outside dst's valid region but inside its rows x
 * cols: refused by default, written in board mode under A2A3 and A5 (with a
 * warning); past rows x cols refused in both. */
static void test_board_mode_tsetval(void **state) {
    (void)state;
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    for (size_t p = 0; p < COUNT(kNpu); ++p) {
        assert_int_equal(pto_set_profile(kNpu[p]), PTO_OK);
        pto_tile *dst = tile_new(PTO_INT32, 4, 8, 2, 8);
        expect_status(pto_tsetval(dst, 3 * 8 + 5, 7), PTO_ERR_OUT_OF_RANGE, "tsetval outside, default");
        assert_int_equal(pto_set_board_mode(1), PTO_OK);
        assert_int_equal(pto_tsetval(dst, 3 * 8 + 5, 7), PTO_OK);
        assert_int_equal(tile_get(dst, 3, 5), 7);
        assert_int_equal(seen.count, 1);
        assert_non_null(strstr(seen.last, "pto_tsetval: board mode: index 29"));
        expect_status(pto_tsetval(dst, 4 * 8, 7), PTO_ERR_OUT_OF_RANGE, "board tsetval past the tile");
        assert_int_equal(seen.count, 1);
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        seen.count = 0;
        pto_tile_destroy(dst);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

static float f32_at(const pto_tile *t, uint32_t i, uint32_t j) {
    const uint32_t bits = (uint32_t)tile_get(t, i, j);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static void f32_put(pto_tile *t, uint32_t i, uint32_t j, float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    tile_put(t, i, j, bits);
}

/* trowexpandmul whose expanded source has 8 valid rows for dst's 2, and
 * tcolexpand whose source has 4 valid cols for dst's 8: refused by default,
 * computed in board mode under A2A3 and A5 from the operands' storage (dst's
 * rows, a 32-byte block per row; src's row 0 at dst's columns). */
static void test_board_mode_broadcasts(void **state) {
    (void)state;
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    for (size_t p = 0; p < COUNT(kNpu); ++p) {
        assert_int_equal(pto_set_profile(kNpu[p]), PTO_OK);
        pto_tile *dst = tile_new(PTO_FLOAT32, 2, 8, 2, 8), *full = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
        pto_tile *e = tile_new(PTO_FLOAT32, 8, 8, 8, 8), *col = tile_new(PTO_FLOAT32, 1, 8, 1, 4);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 8; ++j) {
                if (i < 2) f32_put(full, i, j, (float)(1 + i * 8 + j));
                f32_put(e, i, j, (float)(2 + i + j));
                if (i == 0) f32_put(col, 0, j, (float)(10 + j));
            }
        expect_status(pto_trowexpandmul(dst, full, e, NULL), PTO_ERR_SHAPE_MISMATCH, "trowexpandmul rows, default");
        expect_status(pto_tcolexpand(dst, col), PTO_ERR_SHAPE_MISMATCH, "tcolexpand cols, default");
        assert_int_equal(pto_set_board_mode(1), PTO_OK);
        assert_int_equal(pto_trowexpandmul(dst, full, e, NULL), PTO_OK);
        assert_int_equal(seen.count, 1);
        assert_non_null(strstr(seen.last, "pto_trowexpandmul: board mode: src1 valid rows 8 differs from dst valid rows 2"));
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 8; ++j)
                assert_true(f32_at(dst, i, j) == (float)(1 + i * 8 + j) * (float)(2 + i + j));
        assert_int_equal(pto_tcolexpand(dst, col), PTO_OK);
        assert_int_equal(seen.count, 2);
        assert_non_null(strstr(seen.last, "pto_tcolexpand: board mode: src valid cols 4 differs from dst valid cols 8"));
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 8; ++j) assert_true(f32_at(dst, i, j) == (float)(10 + j));
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        seen.count = 0;
        TILES_DESTROY(dst, full, e, col);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, loc, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}

/* tmatmul_acc with a's 8 valid rows for dst's 16 (and, separately, b's 8
 * valid cols for dst's 16): refused by default; in board mode under A2A3
 * and A5 the implementations' M x N (a's valid rows by b's valid cols) is
 * accumulated over K = a's valid cols and the rest of dst kept. */
static void test_board_mode_matmul_acc(void **state) {
    (void)state;
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    enum { N = 16 };
    float av[N * N], bv[N * N], dv[N * N], got[N * N];
    for (int i = 0; i < N * N; ++i) {
        av[i] = (float)(i % 7 - 3);
        bv[i] = (float)(i % 5 - 2);
        dv[i] = (float)(i % 11);
    }
    for (size_t p = 0; p < COUNT(kNpu); ++p) {
        assert_int_equal(pto_set_profile(kNpu[p]), PTO_OK);
        const pto_layout left = kNpu[p] == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
        for (int narrow_b = 0; narrow_b < 2; ++narrow_b) {
            pto_tile *a = cube(PTO_FLOAT16, N, N, PTO_LOC_LEFT, left);
            pto_tile *b = cube(PTO_FLOAT16, N, N, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
            pto_tile *dst = cube(PTO_FLOAT32, N, N, PTO_LOC_ACC, PTO_LAYOUT_NZ);
            assert_int_equal(pto_tile_write_f32(a, av, N * N), PTO_OK);
            assert_int_equal(pto_tile_write_f32(b, bv, N * N), PTO_OK);
            assert_int_equal(pto_tile_write_f32(dst, dv, N * N), PTO_OK);
            const uint32_t m = narrow_b ? N : 8, n = narrow_b ? 8 : N;
            assert_int_equal(narrow_b ? pto_tile_set_valid(b, N, n) : pto_tile_set_valid(a, m, N), PTO_OK);
            expect_status(pto_tmatmul_acc(dst, a, b), PTO_ERR_SHAPE_MISMATCH, "tmatmul_acc M or N, default");
            assert_int_equal(pto_set_board_mode(1), PTO_OK);
            const pto_status st = pto_tmatmul_acc(dst, a, b);
            if (st != PTO_OK) fail_msg("board tmatmul_acc: %s", pto_last_error());
            assert_int_equal(seen.count, 1);
            assert_non_null(strstr(seen.last, narrow_b ? "pto_tmatmul_acc: board mode: b valid cols 8 differ from dst valid cols 16 (N)"
                                                       : "pto_tmatmul_acc: board mode: a valid rows 8 differ from dst valid rows 16 (M)"));
            assert_int_equal(pto_tile_read_f32(dst, got, N * N), PTO_OK);
            for (uint32_t i = 0; i < N; ++i)
                for (uint32_t j = 0; j < N; ++j) {
                    double want = dv[i * N + j];
                    if (i < m && j < n)
                        for (uint32_t k = 0; k < N; ++k) want += (double)av[i * N + k] * bv[k * N + j];
                    if (got[i * N + j] != (float)want)
                        fail_msg("%s board tmatmul_acc (%u,%u): %g, want %g", pto_profile_string(kNpu[p]), i, j,
                                 got[i * N + j], want);
                }
            assert_int_equal(pto_set_board_mode(0), PTO_OK);
            seen.count = 0;
            TILES_DESTROY(a, b, dst);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

/* A kernel that loads rows [ROW, ROW + 2) of a 2x8 view of %a (16 floats
 * bound) and stores them to %b. */
#define WINDOW_KERNEL(ROW)                                                                        \
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {\n"                                     \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                       \
    "  %c2 = arith.constant 2 : index\n  %c8 = arith.constant 8 : index\n"                       \
    "  %row = arith.constant " ROW " : index\n"                                                  \
    "  %va = pto.make_tensor_view %a, shape = [%c2, %c8], strides = [%c8, %c1]"                  \
    " : !pto.tensor_view<?x?xf32>\n"                                                             \
    "  %vb = pto.make_tensor_view %b, shape = [%c2, %c8], strides = [%c8, %c1]"                  \
    " : !pto.tensor_view<?x?xf32>\n"                                                             \
    "  %pa = pto.partition_view %va, offsets = [%row, %c0], sizes = [%c2, %c8]"                  \
    " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>\n"                      \
    "  %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c2, %c8]"                   \
    " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x8xf32>\n"                      \
    "  %t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32>\n"                                      \
    "  pto.tload ins(%pa : !pto.partition_tensor_view<2x8xf32>) outs(%t : !pto.tile_buf<vec, 2x8xf32>)\n" \
    "  pto.tstore ins(%t : !pto.tile_buf<vec, 2x8xf32>) outs(%pb : !pto.partition_tensor_view<2x8xf32>)\n" \
    "  return\n}\n"

/* Creates (verifies) and launches the kernel on 2 blocks in the given board
 * mode: a window the text fixes is checked at creation, against its view
 * (default) or, in board mode, at the run against the bound memory. */
static pto_status run_window(const char *text, float *a, size_t a_floats, float *b, int board) {
    pto_program *p = NULL;
    assert_int_equal(pto_set_board_mode(board), PTO_OK);
    pto_status s = pto_program_create(text, strlen(text), "window.pto", &p);
    if (s == PTO_OK) {
        pto_args *args = NULL;
        assert_int_equal(pto_args_create(p, &args), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 0, a, a_floats * sizeof *a), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 1, b, 16 * sizeof *b), PTO_OK);
        s = pto_program_launch(p, 2, args);
        pto_args_destroy(args);
        pto_program_destroy(p);
    }
    assert_int_equal(pto_set_board_mode(0), PTO_OK);
    return s;
}

/* A program's partition window past its view: refused by default and under
 * HOST, run in board mode under A2A3 and A5 where it lies inside the bound
 * memory (a warning with the instruction's location per occurrence: one per
 * block), refused where it does not. */
static void test_board_mode_program_window(void **state) {
    (void)state;
    skip_under_qemu("board_mode_program_window", "a program's run starts threads, which can hang under qemu-user");
    seen_warnings seen = {0};
    pto_set_warning_handler(record_warning, &seen);
    float a[32], b[16];
    for (int i = 0; i < 32; ++i) a[i] = (float)i;
    const pto_profile kAll[] = {PTO_PROFILE_A2A3, PTO_PROFILE_A5, PTO_PROFILE_HOST};
    for (size_t p = 0; p < COUNT(kAll); ++p) {
        assert_int_equal(pto_set_profile(kAll[p]), PTO_OK);
        memset(b, 0, sizeof b);
        expect_status(run_window(WINDOW_KERNEL("2"), a, 32, b, 0), PTO_ERR_OUT_OF_RANGE, "window past its view, default");
        assert_non_null(strstr(pto_last_error(), "window.pto:"));
        assert_non_null(strstr(pto_last_error(), "is outside the view's 2"));
        assert_int_equal(seen.count, 0);
        const pto_status board = run_window(WINDOW_KERNEL("2"), a, 32, b, 1);
        if (kAll[p] == PTO_PROFILE_HOST) {
            assert_int_equal(board, PTO_ERR_OUT_OF_RANGE);
            assert_int_equal(seen.count, 0);
        } else {
            if (board != PTO_OK) fail_msg("board window: %s", pto_last_error());
            for (int i = 0; i < 16; ++i) assert_true(b[i] == (float)(16 + i));
            assert_int_equal(seen.count, 2); /* once per block */
            assert_non_null(strstr(seen.last, "window.pto:"));
            assert_non_null(strstr(seen.last, ": warning: board mode: pto.partition_view: [2, 4) of dimension 0"));
            seen.count = 0;
            /* past the bound memory (16 floats): still an error */
            expect_status(run_window(WINDOW_KERNEL("2"), a, 16, b, 1), PTO_ERR_OUT_OF_RANGE, "board window past memory");
            assert_int_equal(seen.count, 0);
        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_set_warning_handler(NULL, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_mode_api),
        cmocka_unit_test(test_board_mode_binary),
        cmocka_unit_test(test_board_mode_every_binary_row),
        cmocka_unit_test(test_board_mode_tgather_index),
        cmocka_unit_test(test_board_mode_tsetval),
        cmocka_unit_test(test_board_mode_broadcasts),
        cmocka_unit_test(test_board_mode_matmul_acc),
        cmocka_unit_test(test_board_mode_program_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
