/* TRANDOM (pto_trandom) against a reference written from A5's implementation
 * (include/pto/npu/a5/TRandom.hpp): a scalar Philox-4x32 block, checked on
 * Random123's known answers, and each element's counter computed in closed
 * form from its (row, column): pass j = col / 256, lane i = (col % 256) / 4,
 * word w = col % 4, counter = start + row * (per-row advance) + 64 * j + i
 * mod 2^128. Shapes with valid cols not a multiple of 256 and several rows,
 * rounds 7 and 10, a carry through all four words, PTOAS's lit-test keys on
 * pto-isa's ST shape (4x256); the rules in order, nothing written outside the
 * valid region or on a refusal; the DPS text form equals the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* Random123's Philox-4x32 round count is 10; TRANDOM also allows 7. */
static void philox_block(const uint32_t in[4], uint32_t k0, uint32_t k1, unsigned rounds,
                         uint32_t out[4]) {
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
    for (unsigned r = 0; r < rounds; ++r) {
        if (r > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const uint64_t a = (uint64_t)0xD2511F53u * x0;
        const uint64_t b = (uint64_t)0xCD9E8D57u * x2;
        const uint32_t y0 = (uint32_t)(b >> 32) ^ x1 ^ k0;
        const uint32_t y1 = (uint32_t)b;
        const uint32_t y2 = (uint32_t)(a >> 32) ^ x3 ^ k1;
        const uint32_t y3 = (uint32_t)a;
        x0 = y0, x1 = y1, x2 = y2, x3 = y3;
    }
    out[0] = x0, out[1] = x1, out[2] = x2, out[3] = x3;
}

typedef unsigned __int128 u128;

static u128 counter_of(const uint32_t c[4]) {
    return (u128)c[0] | (u128)c[1] << 32 | (u128)c[2] << 64 | (u128)c[3] << 96;
}

/* The element (row, col) of TRANDOM's output over valid_cols columns. */
static uint32_t expected_word(const uint32_t key[2], const uint32_t counter[4], unsigned rounds,
                              uint32_t valid_cols, uint32_t row, uint32_t col) {
    const uint32_t passes = (valid_cols + 255) / 256;
    const u128 per_row = (u128)(passes - 1) * 64 + (valid_cols - 1) % 64 + 1;
    const u128 c = counter_of(counter) + row * per_row + (u128)(col / 256) * 64 + (col % 256) / 4;
    const uint32_t words[4] = {(uint32_t)c, (uint32_t)(c >> 32), (uint32_t)(c >> 64), (uint32_t)(c >> 96)};
    uint32_t out[4];
    philox_block(words, key[0], key[1], rounds, out);
    return out[col % 4];
}

static void test_known_answers(void **state) {
    (void)state;
    /* Random123's kat_vectors for philox4x32_10 */
    static const uint32_t kIn[3][6] = {
        {0, 0, 0, 0, 0, 0},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u},
    };
    static const uint32_t kOut[3][4] = {
        {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u},
    };
    for (size_t k = 0; k < 3; ++k) {
        uint32_t out[4];
        philox_block(kIn[k], kIn[k][4], kIn[k][5], 10, out);
        for (int w = 0; w < 4; ++w) assert_int_equal(out[w], kOut[k][w]);
        /* lane 0 of a call from that counter gives the same four words */
        pto_tile *t = tile_new(PTO_UINT32, 1, 8, 1, 8);
        assert_int_equal(pto_trandom(t, kIn[k][4], kIn[k][5], kIn[k][0], kIn[k][1], kIn[k][2],
                                     kIn[k][3], 10), PTO_OK);
        for (int w = 0; w < 4; ++w) assert_int_equal(tile_get(t, 0, (size_t)w), kOut[k][w]);
        pto_tile_destroy(t);
    }
}

typedef struct {
    uint32_t rows, cols, valid_rows, valid_cols;
} shape;

static void check_call(pto_dtype dt, shape s, const uint32_t key[2], const uint32_t ctr[4],
                       unsigned rounds, pto_profile profile) {
    pto_tile *t = tile_new(dt, s.rows, s.cols, s.valid_rows, s.valid_cols);
    rng r = {s.cols * 131u + s.valid_cols + rounds};
    tile_fill(t, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(t);
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status st = pto_trandom(t, key[0], key[1], ctr[0], ctr[1], ctr[2], ctr[3], rounds);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (st != PTO_OK) fail_msg("%ux%u: %s (%s)", s.valid_rows, s.valid_cols, pto_status_string(st), pto_last_error());
    for (uint32_t i = 0; i < s.rows; ++i)
        for (uint32_t j = 0; j < s.cols; ++j) {
            const uint64_t got = tile_get(t, i, j);
            const uint64_t want = i < s.valid_rows && j < s.valid_cols
                                      ? expected_word(key, ctr, rounds, s.valid_cols, i, j)
                                      : before[(size_t)i * s.cols + j];
            if (got != want)
                fail_msg("%s %ux%u of %ux%u rounds %u (%u, %u): 0x%08llx, want 0x%08llx",
                         pto_dtype_string(dt), s.valid_rows, s.valid_cols, s.rows, s.cols, rounds,
                         i, j, (unsigned long long)got, (unsigned long long)want);
        }
    free(before);
    pto_tile_destroy(t);
}

static void test_shapes(void **state) {
    (void)state;
    static const shape kShapes[] = {
        {1, 8, 1, 8},       {1, 8, 1, 5},      {1, 64, 1, 64},     {2, 256, 2, 256},
        {3, 256, 3, 100},   {4, 256, 4, 256},  {5, 520, 4, 513},   {3, 768, 3, 700},
        {8, 1024, 7, 1023}, {2, 320, 2, 257},  {6, 64, 5, 63},     {3, 16, 0, 16},
        {3, 16, 3, 0},      {1, 4096, 1, 4096},
    };
    static const uint32_t kKeys[][2] = {{0, 0}, {0x12345678u, 0x9ABCDEF0u}, {0xFFFFFFFFu, 1}};
    static const uint32_t kCounters[][4] = {
        {0, 0, 0, 0},
        {0xFFFFFFF0u, 0xFFFFFFFFu, 0xFFFFFFFFu, 7},  /* carries through every word */
        {0xFFFFFFF0u, 0, 0, 0},                       /* carries into word 1 */
        {0xFFFFFFF0u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu},  /* wraps mod 2^128 */
        {16, 32, 48, 64},
    };
    static const pto_dtype kDtypes[] = {PTO_UINT32, PTO_INT32};
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    size_t calls = 0;
    for (size_t s = 0; s < COUNT(kShapes); ++s)
        for (size_t k = 0; k < COUNT(kKeys); ++k)
            for (size_t c = 0; c < COUNT(kCounters); ++c)
                for (unsigned rounds = 7; rounds <= 10; rounds += 3) {
                    const size_t n = s + k + c + rounds;
                    check_call(kDtypes[n % 2], kShapes[s], kKeys[k], kCounters[c], rounds,
                               kProfiles[(n / 2) % 2]);
                    ++calls;
                }
    assert_true(calls == COUNT(kShapes) * 3 * 5 * 2);
    /* PTOAS's lit-test keys and counters on pto-isa's ST shape (4x256) */
    const shape st = {4, 256, 4, 256};
    check_call(PTO_INT32, st, (const uint32_t[]){305419896u, (uint32_t)-1698898192}, (const uint32_t[]){0, 1, 2, 3}, 10, PTO_PROFILE_A5);
    check_call(PTO_UINT32, st, (const uint32_t[]){324508639u, 610839776u}, (const uint32_t[]){16, 32, 48, 64}, 7, PTO_PROFILE_A5);
}

/* Rows continue the stream: a 2x100 tile's row 1 is row 0 of a 1x100 tile
 * whose counter starts 36 further (one pass of 64 lanes, the
 * last advancing by ((100 - 1) % 64) + 1). */
static void test_rows_continue(void **state) {
    (void)state;
    pto_tile *two = tile_new(PTO_UINT32, 2, 100, 2, 100);
    pto_tile *one = tile_new(PTO_UINT32, 1, 100, 1, 100);
    assert_int_equal(pto_trandom(two, 5, 6, 0xFFFFFFF0u, 0, 0, 0, 10), PTO_OK);
    assert_int_equal(pto_trandom(one, 5, 6, 0x14, 1, 0, 0, 10), PTO_OK); /* 0xFFFFFFF0 + 36, carried */
    for (size_t j = 0; j < 100; ++j) assert_int_equal(tile_get(two, 1, j), tile_get(one, 0, j));
    TILES_DESTROY(two, one);
}

/* trandom is a row of the operation table (fill): its key and counter are
 * Words2 and Words4 operands, rounds the attribute kind Rounds. The tests'
 * generic call passes the words 1, 2 and 3, 4, 5, 6 and the row's Test
 * rounds, 10: the same words as the reference, under A2A3 refused by dtype. */
static void test_random_row(void **state) {
    (void)state;
    const op_info *row = op_row(OP_TRANDOM);
    assert_int_equal(row->family, OP_FAMILY_SPECIAL);
    assert_int_equal(row->source_count, 0);
    assert_int_equal(row->attr, OP_ATTR_Rounds);
    const uint32_t key[2] = {1, 2}, ctr[4] = {3, 4, 5, 6};
    pto_tile *t = tile_new(PTO_UINT32, 3, 16, 2, 12);
    rng r = {7};
    tile_fill(t, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(t);
    assert_int_equal(op_call(OP_TRANDOM, PTO_POW_DEFAULT, t, NULL, NULL, NULL), PTO_OK);
    for (uint32_t i = 0; i < 3; ++i)
        for (uint32_t j = 0; j < 16; ++j)
            assert_int_equal(tile_get(t, i, j), i < 2 && j < 12 ? expected_word(key, ctr, 10, 12, i, j)
                                                                : before[(size_t)i * 16 + j]);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(op_call(OP_TRANDOM, PTO_POW_DEFAULT, t, NULL, NULL, NULL), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(before);
    pto_tile_destroy(t);
}

static void test_rules(void **state) {
    (void)state;
    pto_tile *u32 = tile_new(PTO_UINT32, 2, 64, 2, 64);
    pto_tile *f32 = tile_new(PTO_FLOAT32, 2, 64, 2, 64);
    pto_tile *i16 = tile_new(PTO_INT16, 2, 64, 2, 64);
    pto_tile *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_INT32, 16, 16, PTO_LOC_MAT, PTO_LAYOUT_NZ, &cube), PTO_OK);
    uint64_t *before = tile_snapshot(u32);
    int32_t cube_before[256], cube_after[256];
    assert_int_equal(pto_tile_read(cube, cube_before, sizeof cube_before), PTO_OK);
    expect_status(pto_trandom(NULL, 0, 0, 0, 0, 0, 0, 10), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    assert_non_null(strstr(pto_last_error(), "pto_trandom: dst"));
    expect_status(pto_trandom(cube, 0, 0, 0, 0, 0, 0, 10), PTO_ERR_INVALID_ARGUMENT, "cube dst");
    static const uint32_t kBadRounds[] = {0, 1, 6, 8, 9, 11, 20, 0xFFFFFFFFu};
    for (size_t k = 0; k < COUNT(kBadRounds); ++k) {
        expect_status(pto_trandom(u32, 0, 0, 0, 0, 0, 0, kBadRounds[k]), PTO_ERR_INVALID_ARGUMENT, "rounds");
        assert_non_null(strstr(pto_last_error(), "rounds"));
    }
    /* rounds before the dtype (an enum-like argument) */
    expect_status(pto_trandom(f32, 0, 0, 0, 0, 0, 0, 8), PTO_ERR_INVALID_ARGUMENT, "rounds before dtype");
    expect_status(pto_trandom(f32, 0, 0, 0, 0, 0, 0, 10), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT32");
    expect_status(pto_trandom(i16, 0, 0, 0, 0, 0, 0, 7), PTO_ERR_UNSUPPORTED_DTYPE, "INT16");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    expect_status(pto_trandom(f32, 0, 0, 0, 0, 0, 0, 10), PTO_ERR_UNSUPPORTED_DTYPE, "A5 FLOAT32");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_trandom(u32, 0, 0, 0, 0, 0, 0, 10), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    assert_non_null(strstr(pto_last_error(), "on A2A3 (no dtype)"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_tile_unchanged(u32, before, "refused dst");
    assert_int_equal(pto_tile_read(cube, cube_after, sizeof cube_after), PTO_OK);
    assert_memory_equal(cube_before, cube_after, sizeof cube_before);
    free(before);
    TILES_DESTROY(u32, f32, i16, cube);
}

/* The DPS form (rounds given and defaulted) equals the call; A2A3, bad
 * rounds or dtypes, words of another width or count and a col_major dst
 * refused when the program is created. */
static void test_programs(void **state) {
    (void)state;
    static const char *const kForm =
        "func.func @k(%%k0 : i32, %%k1 : i32, %%c0 : i32, %%c1 : i32, %%c2 : i32, %%c3 : i32,\n"
        "             %%d : !pto.tile_buf<loc=vec, dtype=%s, rows=3, cols=320, v_row=3, v_col=300, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>) {\n"
        "  pto.trandom ins(%%k0, %%k1, %%c0, %%c1, %%c2, %%c3 %s: i32, i32, i32, i32, i32, i32)\n"
        "              outs(%%d : !pto.tile_buf<loc=vec, dtype=%s, rows=3, cols=320, v_row=3, v_col=300, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
        "  return\n}\n";
    static const char *const kNames[] = {"k0", "k1", "c0", "c1", "c2", "c3"};
    const uint32_t words[6] = {0xDEADBEEFu, 0x01234567u, 0xFFFFFFF0u, 0xFFFFFFFFu, 2, 3};
    for (int r = 0; r < 3; ++r) {
        const pto_dtype dt = r == 1 ? PTO_INT32 : PTO_UINT32;
        const unsigned rounds = r == 0 ? 7 : 10;
        const char *attr = r == 0 ? "{rounds = 7 : i32} " : r == 1 ? "{rounds = 10 : i32} " : "";
        char text[2048];
        snprintf(text, sizeof text, kForm, dtype_spelling(dt), attr, dtype_spelling(dt));
        pto_program *p = program_build(text, NULL);
        pto_tile *d = tile_new(dt, 3, 320, 3, 300);
        pto_tile *want = tile_new(dt, 3, 320, 3, 300);
        rng fill = {(uint64_t)r + 1};
        tile_fill(d, &fill, GEN_ANY);
        uint32_t *image = malloc((size_t)3 * 320 * 4);
        assert_non_null(image);
        assert_int_equal(pto_tile_read(d, image, (size_t)3 * 320 * 4), PTO_OK);
        assert_int_equal(pto_tile_write(want, image, (size_t)3 * 320 * 4), PTO_OK);
        free(image);
        assert_int_equal(pto_trandom(want, words[0], words[1], words[2], words[3], words[4], words[5], rounds), PTO_OK);
        pto_args *a = NULL;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        for (size_t k = 0; k < 6; ++k) {
            size_t id = 0;
            assert_int_equal(pto_program_param_find(p, kNames[k], &id), PTO_OK);
            /* an i32 parameter takes the word as its signed value */
            assert_int_equal(pto_args_set_int(a, id, (int64_t)(int32_t)words[k]), PTO_OK);
        }
        size_t id = 0;
        assert_int_equal(pto_program_param_find(p, "d", &id), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, id, d), PTO_OK);
        const pto_status run = pto_program_run(p, a);
        if (run != PTO_OK) fail_msg("run: %s (%s)", pto_status_string(run), pto_last_error());
        assert_memory_equal(pto_tile_data(d), pto_tile_data(want), (size_t)3 * 320 * 4);
        pto_args_destroy(a);
        TILES_DESTROY(d, want);
        pto_program_destroy(p);
    }
    char text[2048];
    snprintf(text, sizeof text, kForm, "ui32", "{rounds = 8 : i32} ", "ui32");
    expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT);
    snprintf(text, sizeof text, kForm, "f32", "", "f32");
    expect_program_refused(text, PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    snprintf(text, sizeof text, kForm, "i32", "", "i32");
    expect_program_refused(text, PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* a key word of another width */
    static const char *const kWide =
        "func.func @k(%k0 : i64, %c : i32, %d : !pto.tile_buf<vec, 1x64xi32>) {\n"
        "  pto.trandom ins(%k0, %c, %c, %c, %c, %c : i64, i32, i32, i32, i32, i32) "
        "outs(%d : !pto.tile_buf<vec, 1x64xi32>)\n  return\n}\n";
    expect_program_refused(kWide, PTO_ERR_INVALID_ARGUMENT);
    expect_program_refused_with(kWide, "k", "trandom's key0 is an i32 or ui32, not i64");
    /* the refusals name the row's words; rounds is an integer; dst is
     * row-major (PTOAS's rule), a one-row col_major tile too refused */
    static const char *const kFive =
        "func.func @k(%c : i32, %d : !pto.tile_buf<vec, 1x64xi32>) {\n"
        "  pto.trandom ins(%c, %c, %c, %c, %c : i32, i32, i32, i32, i32) "
        "outs(%d : !pto.tile_buf<vec, 1x64xi32>)\n  return\n}\n";
    expect_program_refused_with(
        kFive, "k", "takes 6 operands (key0, key1, counter0, counter1, counter2, counter3), not 5");
    static const char *const kFloatRounds =
        "func.func @k(%c : i32, %d : !pto.tile_buf<vec, 1x64xi32>) {\n"
        "  pto.trandom ins(%c, %c, %c, %c, %c, %c {rounds = 7 : f32} : i32, i32, i32, i32, i32, "
        "i32) outs(%d : !pto.tile_buf<vec, 1x64xi32>)\n  return\n}\n";
    expect_program_refused_with(kFloatRounds, "k", "trandom's rounds is an i32, not f32");
#define COL_MAJOR_ROW                                                                      \
    "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=64, v_row=1, v_col=64, blayout=col_major, " \
    "slayout=none_box, fractal=512, pad=0>"
    static const char *const kColMajor =
        "func.func @k(%c : i32, %d : " COL_MAJOR_ROW ") {\n"
        "  pto.trandom ins(%c, %c, %c, %c, %c, %c : i32, i32, i32, i32, i32, i32) "
        "outs(%d : " COL_MAJOR_ROW ")\n  return\n}\n";
#undef COL_MAJOR_ROW
    expect_program_refused_with(kColMajor, "k", "trandom's dst is a row-major vec tile");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answers),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_rows_continue),
        cmocka_unit_test(test_random_row),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
