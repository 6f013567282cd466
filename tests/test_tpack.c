/* TPACK and TALIAS. TPACK: every integer (src, dst) pair each profile
 * accepts, over padded and partial valid regions whose other elements stay
 * as they were, against the definition (an integer in another integer
 * dtype: its low bytes when narrower, sign- or zero-extended by src's
 * signedness when wider); every refusal per profile in the contract's order
 * with nothing written; in place at src's start when narrowing; PTOAS's text
 * form equal to the C call. TALIAS: the original takes the alias's bytes
 * (treshape's rules), nothing moves when they share storage; its refusals;
 * the page's DPS form equal to the C call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kInts[] = {PTO_INT8,  PTO_UINT8,  PTO_INT16, PTO_UINT16,
                                  PTO_INT32, PTO_UINT32, PTO_INT64, PTO_UINT64};
static const pto_dtype kFloats[] = {PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32, PTO_FLOAT8_E4M3, PTO_HIFLOAT8};

static bool is_signed(pto_dtype dt) {
    return dt == PTO_INT8 || dt == PTO_INT16 || dt == PTO_INT32 || dt == PTO_INT64;
}

/* The definition: src's bits read as an integer of src's signedness and
 * width, that integer modulo 2^(dst's bits), as dst's bits. */
static uint64_t pack_expected(pto_dtype from, pto_dtype to, uint64_t bits) {
    const unsigned in_bits = 8u * (unsigned)pto_dtype_size(from), out_bits = 8u * (unsigned)pto_dtype_size(to);
    uint64_t value = in_bits == 64 ? bits : bits & ((UINT64_C(1) << in_bits) - 1);
    if (is_signed(from) && in_bits < 64 && (value >> (in_bits - 1)) & 1u)
        value |= ~UINT64_C(0) << in_bits; /* the negative value in two's complement */
    return out_bits == 64 ? value : value & ((UINT64_C(1) << out_bits) - 1);
}

/* Whether a profile accepts packing `from` into `to`. */
static bool pack_accepted(pto_profile profile, pto_dtype from, pto_dtype to) {
    if (profile == PTO_PROFILE_A2A3) return false;
    if (profile == PTO_PROFILE_HOST) return true;
    const size_t in = pto_dtype_size(from), out = pto_dtype_size(to);
    return (in == 4 && (out == 2 || out == 1)) || (in == 2 && out == 1);
}

/* dst's valid region packed from src's, the rest of dst as it was. */
static void expect_packed(const pto_tile *dst, const uint64_t *before, const pto_tile *src, const char *what) {
    const uint32_t vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst), cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint64_t want = i < vr && j < vc
                                      ? pack_expected(pto_tile_dtype(src), pto_tile_dtype(dst), tile_get(src, i, j))
                                      : before[(size_t)i * cols + j];
            const uint64_t got = tile_get(dst, i, j);
            if (got != want)
                fail_msg("%s: %s -> %s (%u,%u) is 0x%llx, want 0x%llx", what, pto_dtype_string(pto_tile_dtype(src)),
                         pto_dtype_string(pto_tile_dtype(dst)), i, j, (unsigned long long)got,
                         (unsigned long long)want);
        }
}

static void test_tpack_values(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    /* rows, cols of src; rows, cols of dst; the common valid region */
    static const uint32_t kShapes[][6] = {{1, 1, 1, 1, 1, 1},     {4, 64, 4, 64, 4, 64},  {5, 40, 6, 37, 5, 33},
                                          {16, 8, 13, 8, 13, 7}, {3, 300, 2, 300, 2, 257}, {4, 16, 4, 16, 0, 16}};
    rng r = {0x9AC};
    size_t checked = 0, refused = 0;
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        for (size_t a = 0; a < COUNT(kInts); ++a)
            for (size_t b = 0; b < COUNT(kInts); ++b)
                for (size_t s = 0; s < COUNT(kShapes); ++s) {
                    const uint32_t *sh = kShapes[s];
                    pto_tile *src = tile_new(kInts[a], sh[0], sh[1], sh[4], sh[5]);
                    pto_tile *dst = tile_new(kInts[b], sh[2], sh[3], sh[4], sh[5]);
                    tile_fill(src, &r, GEN_ANY);
                    tile_fill(dst, &r, GEN_ANY);
                    uint64_t *before = tile_snapshot(dst), *src_before = tile_snapshot(src);
                    const pto_status st = pto_tpack(dst, src);
                    if (pack_accepted(kProfiles[p], kInts[a], kInts[b])) {
                        if (st != PTO_OK)
                            fail_msg("tpack %s -> %s on %s: %s (%s)", pto_dtype_string(kInts[a]),
                                     pto_dtype_string(kInts[b]), pto_profile_string(kProfiles[p]),
                                     pto_status_string(st), pto_last_error());
                        expect_packed(dst, before, src, "pto_tpack");
                        checked += (size_t)sh[4] * sh[5];
                    } else {
                        expect_status(st, PTO_ERR_UNSUPPORTED_DTYPE, "a pair the profile refuses");
                        assert_non_null(strstr(pto_last_error(), kProfiles[p] == PTO_PROFILE_A2A3
                                                                     ? "not supported on A2A3"
                                                                     : "on A5"));
                        assert_tile_unchanged(dst, before, "refused tpack");
                        ++refused;
                    }
                    assert_tile_unchanged(src, src_before, "tpack's src");
                    free(before);
                    free(src_before);
                    TILES_DESTROY(src, dst);
                }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[tpack] %zu elements over every integer pair (HOST 64, A5 the 4->2, 4->1, 2->1 ones); "
                  "%zu calls refused\n", checked, refused);
}

/* Edge values of each pair: the extremes of src's range and the values
 * around dst's bounds, written out. */
static void test_tpack_edges(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile *src = tile_new(PTO_INT32, 1, 8, 1, 8), *dst = tile_new(PTO_INT16, 1, 8, 1, 8);
    static const int32_t in[8] = {0, -1, 32767, 32768, -32768, -32769, 2147483647, -2147483647 - 1};
    static const int16_t want[8] = {0, -1, 32767, -32768, -32768, 32767, -1, 0};
    assert_int_equal(pto_tile_write(src, in, sizeof in), PTO_OK);
    assert_int_equal(pto_tpack(dst, src), PTO_OK);
    int16_t got[8];
    assert_int_equal(pto_tile_read(dst, got, sizeof got), PTO_OK);
    assert_memory_equal(got, want, sizeof want);
    /* widening: INT8 -128 sign-extends, UINT8 255 zero-extends */
    pto_tile *s8 = tile_new(PTO_INT8, 1, 2, 1, 2), *u8 = tile_new(PTO_UINT8, 1, 2, 1, 2);
    pto_tile *d32 = tile_new(PTO_INT32, 1, 2, 1, 2), *u64 = tile_new(PTO_UINT64, 1, 2, 1, 2);
    const int8_t s8v[2] = {-128, 127};
    const uint8_t u8v[2] = {255, 1};
    assert_int_equal(pto_tile_write(s8, s8v, sizeof s8v), PTO_OK);
    assert_int_equal(pto_tile_write(u8, u8v, sizeof u8v), PTO_OK);
    assert_int_equal(pto_tpack(d32, s8), PTO_OK);
    assert_int_equal(pto_tpack(u64, u8), PTO_OK);
    int32_t d32v[2];
    uint64_t u64v[2];
    assert_int_equal(pto_tile_read(d32, d32v, sizeof d32v), PTO_OK);
    assert_int_equal(pto_tile_read(u64, u64v, sizeof u64v), PTO_OK);
    assert_int_equal(d32v[0], -128);
    assert_int_equal(d32v[1], 127);
    assert_true(u64v[0] == 255 && u64v[1] == 1);
    assert_int_equal(pto_tpack(u64, s8), PTO_OK); /* -128 as UINT64: 2^64 - 128 */
    assert_int_equal(pto_tile_read(u64, u64v, sizeof u64v), PTO_OK);
    assert_true(u64v[0] == UINT64_MAX - 127 && u64v[1] == 127);
    TILES_DESTROY(src, dst, s8, u8, d32, u64);
}

/* The rules in order, each refusal with nothing written. */
static void test_tpack_rules(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    rng r = {0x9AD};
    pto_tile *i32 = tile_new(PTO_INT32, 4, 16, 4, 16), *i16 = tile_new(PTO_INT16, 4, 16, 4, 16);
    tile_fill(i32, &r, GEN_ANY);
    tile_fill(i16, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(i16);
    expect_status(pto_tpack(NULL, i32), PTO_ERR_NULL_ARGUMENT, "NULL dst");
    expect_status(pto_tpack(i16, NULL), PTO_ERR_NULL_ARGUMENT, "NULL src");
    assert_non_null(strstr(pto_last_error(), "pto_tpack: src"));
    /* A2A3 before the dtypes: even a float pair names the profile */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tpack(NULL, i32), PTO_ERR_NULL_ARGUMENT, "NULL dst on A2A3");
    expect_status(pto_tpack(i16, i32), PTO_ERR_UNSUPPORTED_DTYPE, "A2A3");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_tile_unchanged(i16, kept, "refused on A2A3");
    static const pto_profile kTwo[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    for (size_t p = 0; p < COUNT(kTwo); ++p) {
        assert_int_equal(pto_set_profile(kTwo[p]), PTO_OK);
        for (size_t f = 0; f < COUNT(kFloats); ++f) {
            pto_tile *fl = tile_new(kFloats[f], 4, 16, 4, 16);
            tile_fill(fl, &r, GEN_ANY);
            uint64_t *fkept = tile_snapshot(fl);
            expect_status(pto_tpack(i16, fl), PTO_ERR_UNSUPPORTED_DTYPE, "a float src");
            assert_non_null(strstr(pto_last_error(), "integer dtypes only"));
            expect_status(pto_tpack(fl, i32), PTO_ERR_UNSUPPORTED_DTYPE, "a float dst");
            assert_non_null(strstr(pto_last_error(), "integer dtypes only"));
            assert_tile_unchanged(fl, fkept, "refused float tpack");
            free(fkept);
            pto_tile_destroy(fl);
        }
        /* INT4X2: no element of its own */
        pto_tile *i4 = tile_new(PTO_INT4X2, 4, 16, 4, 16);
        expect_status(pto_tpack(i16, i4), PTO_ERR_UNSUPPORTED_DTYPE, "INT4X2 src");
        expect_status(pto_tpack(i4, i32), PTO_ERR_UNSUPPORTED_DTYPE, "INT4X2 dst");
        pto_tile_destroy(i4);
        /* the same valid region */
        assert_int_equal(pto_tile_set_valid(i32, 4, 15), PTO_OK);
        expect_status(pto_tpack(i16, i32), PTO_ERR_SHAPE_MISMATCH, "valid cols differ");
        assert_int_equal(pto_tile_set_valid(i32, 3, 16), PTO_OK);
        expect_status(pto_tpack(i16, i32), PTO_ERR_SHAPE_MISMATCH, "valid rows differ");
        assert_int_equal(pto_tile_set_valid(i32, 4, 16), PTO_OK);
        assert_tile_unchanged(i16, kept, "refused tpack");
    }
    /* A5's sizes: 2 -> 2, 1 -> 2 and 8 -> 4 are refused, HOST takes them */
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    pto_tile *u16 = tile_new(PTO_UINT16, 4, 16, 4, 16), *i64 = tile_new(PTO_INT64, 4, 16, 4, 16);
    expect_status(pto_tpack(u16, i16), PTO_ERR_UNSUPPORTED_DTYPE, "2 -> 2 on A5");
    assert_non_null(strstr(pto_last_error(), "4 -> 2, 4 -> 1 and 2 -> 1"));
    expect_status(pto_tpack(i32, i64), PTO_ERR_UNSUPPORTED_DTYPE, "8 -> 4 on A5");
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_int_equal(pto_tpack(u16, i16), PTO_OK);
    TILES_DESTROY(u16, i64, i32, i16);
    free(kept);
}

/* In place at src's start: narrowing with rows no longer in bytes equals
 * the result on separate storage; widening, longer rows, another start are
 * refused with nothing written. */
static void test_tpack_in_place(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    rng r = {0x9AE};
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(8 * 32 * 4 + 64, &buf), PTO_OK);
    pto_tile *src = NULL, *dst = NULL, *wide = NULL, *shifted = NULL, *longer = NULL;
    assert_int_equal(pto_tile_create_at(PTO_INT32, 8, 32, buf, 0, &src), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT8, 8, 32, buf, 0, &dst), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT64, 8, 16, buf, 0, &wide), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT16, 8, 32, buf, 4, &shifted), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_INT8, 8, 136, buf, 0, &longer), PTO_OK);
    static const uint32_t kRegions[][2] = {{8, 32}, {5, 29}, {1, 1}};
    for (size_t k = 0; k < COUNT(kRegions); ++k) {
        tile_fill(src, &r, GEN_ANY);
        assert_int_equal(pto_tile_set_valid(src, kRegions[k][0], kRegions[k][1]), PTO_OK);
        assert_int_equal(pto_tile_set_valid(dst, kRegions[k][0], kRegions[k][1]), PTO_OK);
        pto_tile *copy = tile_new(PTO_INT32, 8, 32, kRegions[k][0], kRegions[k][1]);
        pto_tile *apart = tile_new(PTO_UINT8, 8, 32, kRegions[k][0], kRegions[k][1]);
        uint64_t *s = tile_snapshot(src);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 32; ++j) tile_put(copy, i, j, s[(size_t)i * 32 + j]);
        assert_int_equal(pto_tpack(apart, copy), PTO_OK);
        assert_int_equal(pto_tpack(dst, src), PTO_OK);
        for (uint32_t i = 0; i < kRegions[k][0]; ++i)
            for (uint32_t j = 0; j < kRegions[k][1]; ++j) assert_int_equal(tile_get(dst, i, j), tile_get(apart, i, j));
        free(s);
        TILES_DESTROY(copy, apart);
    }
    assert_int_equal(pto_tile_set_valid(src, 8, 16), PTO_OK);
    tile_fill(src, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(src);
    pto_tile *narrow = NULL;
    assert_int_equal(pto_tile_create_at(PTO_INT32, 8, 16, buf, 0, &narrow), PTO_OK);
    assert_int_equal(pto_tile_set_valid(wide, 8, 16), PTO_OK);
    assert_int_equal(pto_tile_set_valid(narrow, 8, 16), PTO_OK);
    expect_status(pto_tpack(wide, narrow), PTO_ERR_ALIASING, "widening in place");
    assert_non_null(strstr(pto_last_error(), "wider"));
    assert_int_equal(pto_tile_set_valid(shifted, 8, 16), PTO_OK);
    expect_status(pto_tpack(shifted, src), PTO_ERR_ALIASING, "another start");
    assert_int_equal(pto_tile_set_valid(longer, 8, 16), PTO_OK);
    expect_status(pto_tpack(longer, src), PTO_ERR_ALIASING, "longer rows at src's start");
    assert_non_null(strstr(pto_last_error(), "longer"));
    assert_tile_unchanged(src, kept, "refused tpack in place");
    free(kept);
    TILES_DESTROY(src, dst, wide, shifted, longer, narrow);
    pto_buffer_destroy(buf);
}

/* Rows in order (the contract's v0.6 row order): dst row i on source row
 * i - 1, already read, equals the result apart on HOST and A5; dst row i on
 * source row i + 1 is refused with nothing written. */
static void test_tpack_row_order(void **state) {
    (void)state;
    static const pto_profile kTwo[] = {PTO_PROFILE_HOST, PTO_PROFILE_A5};
    rng r = {0x9B2};
    for (size_t p = 0; p < COUNT(kTwo); ++p) {
        assert_int_equal(pto_set_profile(kTwo[p]), PTO_OK);
        pto_buffer *buf = NULL;
        assert_int_equal(pto_buffer_create(10 * 128, &buf), PTO_OK);
        pto_tile *src = NULL, *below = NULL, *above = NULL;
        assert_int_equal(pto_tile_create_at(PTO_INT32, 8, 32, buf, 128, &src), PTO_OK);
        assert_int_equal(pto_tile_create_at(PTO_INT16, 8, 64, buf, 0, &below), PTO_OK);
        assert_int_equal(pto_tile_create_at(PTO_INT16, 8, 64, buf, 256, &above), PTO_OK);
        assert_int_equal(pto_tile_set_valid(below, 8, 32), PTO_OK);
        assert_int_equal(pto_tile_set_valid(above, 8, 32), PTO_OK);
        tile_fill(src, &r, GEN_ANY);
        pto_tile *copy = tile_new(PTO_INT32, 8, 32, 8, 32), *apart = tile_new(PTO_INT16, 8, 64, 8, 32);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 32; ++j) tile_put(copy, i, j, tile_get(src, i, j));
        assert_int_equal(pto_tpack(apart, copy), PTO_OK);
        uint64_t *kept = tile_snapshot(src);
        expect_status(pto_tpack(above, src), PTO_ERR_ALIASING, "dst rows on later source rows");
        assert_tile_unchanged(src, kept, "refused tpack in row order");
        assert_int_equal(pto_tpack(below, src), PTO_OK);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 32; ++j) assert_int_equal(tile_get(below, i, j), tile_get(apart, i, j));
        free(kept);
        TILES_DESTROY(src, below, above, copy, apart);
        pto_buffer_destroy(buf);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* PTOAS's form (its lit test tpack_emitc.pto: i32 to i16 under a5) and the
 * HOST pairs beyond A5's: the program's result equals the C call's. */
static void test_tpack_programs(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    static const pto_dtype kPairs[][2] = {{PTO_INT32, PTO_INT16}, {PTO_UINT32, PTO_INT8},
                                          {PTO_INT16, PTO_UINT8}, {PTO_INT16, PTO_INT32},
                                          {PTO_UINT8, PTO_INT64}, {PTO_INT64, PTO_UINT16}};
    rng r = {0x9AF};
    for (size_t k = 0; k < COUNT(kPairs); ++k) {
        char text[1024];
        snprintf(text, sizeof text,
                 "func.func @k(%%s: !pto.tile_buf<loc=vec, dtype=%s, rows=6, cols=32, v_row=5, v_col=27, "
                 "blayout=row_major, slayout=none_box, fractal=512, pad=0>, "
                 "%%d: !pto.tile_buf<loc=vec, dtype=%s, rows=6, cols=32, v_row=5, v_col=27, "
                 "blayout=row_major, slayout=none_box, fractal=512, pad=0>) {\n"
                 "  pto.tpack ins(%%s : !pto.tile_buf<loc=vec, dtype=%s, rows=6, cols=32, v_row=5, v_col=27, "
                 "blayout=row_major, slayout=none_box, fractal=512, pad=0>) "
                 "outs(%%d : !pto.tile_buf<loc=vec, dtype=%s, rows=6, cols=32, v_row=5, v_col=27, "
                 "blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
                 "  return\n}\n",
                 dtype_spelling(kPairs[k][0]), dtype_spelling(kPairs[k][1]), dtype_spelling(kPairs[k][0]),
                 dtype_spelling(kPairs[k][1]));
        pto_tile *s = tile_new(kPairs[k][0], 6, 32, 5, 27), *d = tile_new(kPairs[k][1], 6, 32, 5, 27);
        pto_tile *c = tile_new(kPairs[k][1], 6, 32, 5, 27);
        tile_fill(s, &r, GEN_ANY);
        tile_fill(d, &r, GEN_ANY);
        uint64_t *before = tile_snapshot(d);
        for (uint32_t i = 0; i < 6; ++i)
            for (uint32_t j = 0; j < 32; ++j) tile_put(c, i, j, before[(size_t)i * 32 + j]);
        assert_int_equal(run_snippet_sd(text, s, d), PTO_OK);
        assert_int_equal(pto_tpack(c, s), PTO_OK);
        for (uint32_t i = 0; i < 6; ++i)
            for (uint32_t j = 0; j < 32; ++j) assert_int_equal(tile_get(d, i, j), tile_get(c, i, j));
        expect_packed(d, before, s, "pto.tpack");
        free(before);
        TILES_DESTROY(s, d, c);
    }
    /* PTOAS's lit test under a5, and the same module under a3 (refused) and
     * with a float pair (refused) */
#define T32 "!pto.tile_buf<loc=vec, dtype=i32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, " \
            "slayout=none_box, fractal=512, pad=0>"
#define T16 "!pto.tile_buf<loc=vec, dtype=i16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, " \
            "slayout=none_box, fractal=512, pad=0>"
#define F32 "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, " \
            "slayout=none_box, fractal=512, pad=0>"
#define F16 "!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, " \
            "slayout=none_box, fractal=512, pad=0>"
#define MODULE(arch, S, D)                                                                         \
    "module attributes {pto.target_arch = \"" arch "\"} {\n"                                      \
    "  func.func @k() {\n"                                                                        \
    "    %src = pto.alloc_tile : " S "\n"                                                         \
    "    %dst = pto.alloc_tile : " D "\n"                                                         \
    "    pto.tpack ins(%src : " S ") outs(%dst : " D ")\n"                                        \
    "    return\n  }\n}\n"
    pto_program *p = program_build(MODULE("a5", T32, T16), NULL);
    pto_program_destroy(p);
    expect_program_refused_with(MODULE("a3", T32, T16), NULL, "A2A3");
    expect_program_refused_with(MODULE("a5", F32, F16), NULL, "integer dtypes only");
    expect_program_refused_with(MODULE("a5", T16, T32), NULL, "dst dtype INT32 is not supported on A5");
#undef MODULE
#undef T32
#undef T16
#undef F32
#undef F16
}

/* ---- talias ---- */

/* The original takes the alias's rows x cols bytes; at the alias's address
 * nothing is written; treshape's refusals, nothing written. */
static void test_talias(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};
    rng r = {0x9B0};
    for (size_t p = 0; p < COUNT(kProfiles); ++p) {
        assert_int_equal(pto_set_profile(kProfiles[p]), PTO_OK);
        pto_tile *original = tile_new(PTO_INT32, 4, 8, 3, 5), *alias = tile_new(PTO_FLOAT16, 8, 8, 2, 2);
        tile_fill(original, &r, GEN_ANY);
        tile_fill(alias, &r, GEN_ANY);
        unsigned char bytes[128], got[128];
        memcpy(bytes, pto_tile_data(alias), sizeof bytes);
        assert_int_equal(pto_talias(original, alias), PTO_OK);
        memcpy(got, pto_tile_data(original), sizeof got);
        assert_memory_equal(got, bytes, sizeof bytes);
        /* valid regions neither read nor changed */
        assert_int_equal(pto_tile_valid_rows(original), 3);
        assert_int_equal(pto_tile_valid_cols(original), 5);
        /* refusals */
        uint64_t *kept = tile_snapshot(original);
        expect_status(pto_talias(NULL, alias), PTO_ERR_NULL_ARGUMENT, "NULL original");
        expect_status(pto_talias(original, NULL), PTO_ERR_NULL_ARGUMENT, "NULL alias");
        assert_non_null(strstr(pto_last_error(), "pto_talias: alias"));
        pto_tile *small = tile_new(PTO_FLOAT16, 8, 7, 8, 7);
        expect_status(pto_talias(original, small), PTO_ERR_SHAPE_MISMATCH, "another size");
        assert_non_null(strstr(pto_last_error(), "an alias has the original's size"));
        assert_tile_unchanged(original, kept, "refused talias");
        free(kept);
        TILES_DESTROY(original, alias, small);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    /* shared storage: at one address nothing moves; overlapping elsewhere is refused */
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(256, &buf), PTO_OK);
    pto_tile *original = NULL, *alias = NULL, *shifted = NULL;
    assert_int_equal(pto_tile_create_at(PTO_INT32, 4, 8, buf, 0, &original), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT8, 8, 16, buf, 0, &alias), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_UINT8, 8, 16, buf, 64, &shifted), PTO_OK);
    tile_fill(original, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(original);
    assert_int_equal(pto_talias(original, alias), PTO_OK);
    assert_tile_unchanged(original, kept, "talias at one address");
    expect_status(pto_talias(original, shifted), PTO_ERR_ALIASING, "overlapping storage");
    assert_non_null(strstr(pto_last_error(), "alias's storage"));
    assert_tile_unchanged(original, kept, "refused talias");
    free(kept);
    TILES_DESTROY(original, alias, shifted);
    pto_buffer_destroy(buf);
}

/* The page's DPS form, `pto.talias ins(%alias : S) outs(%original : D)`,
 * equals the C call. */
static void test_talias_programs(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    static const char kText[] =
        "func.func @k(%s: !pto.tile_buf<vec, 8x8xf16>, %d: !pto.tile_buf<vec, 4x8xi32>) {\n"
        "  pto.talias ins(%s : !pto.tile_buf<vec, 8x8xf16>) outs(%d : !pto.tile_buf<vec, 4x8xi32>)\n"
        "  return\n}\n";
    rng r = {0x9B1};
    pto_tile *s = tile_new(PTO_FLOAT16, 8, 8, 8, 8), *d = tile_new(PTO_INT32, 4, 8, 4, 8);
    pto_tile *c = tile_new(PTO_INT32, 4, 8, 4, 8);
    tile_fill(s, &r, GEN_ANY);
    tile_fill(d, &r, GEN_ANY);
    assert_int_equal(run_snippet_sd(kText, s, d), PTO_OK);
    assert_int_equal(pto_talias(c, s), PTO_OK);
    assert_memory_equal(pto_tile_data(d), pto_tile_data(c), 128);
    TILES_DESTROY(s, d, c);
    expect_program_refused(
        "func.func @k(%s: !pto.tile_buf<vec, 8x8xf16>, %d: !pto.tile_buf<vec, 4x4xi32>) {\n"
        "  pto.talias ins(%s : !pto.tile_buf<vec, 8x8xf16>) outs(%d : !pto.tile_buf<vec, 4x4xi32>)\n"
        "  return\n}\n",
        PTO_ERR_SHAPE_MISMATCH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tpack_values),   cmocka_unit_test(test_tpack_edges),
        cmocka_unit_test(test_tpack_rules),    cmocka_unit_test(test_tpack_in_place),
        cmocka_unit_test(test_tpack_row_order),
        cmocka_unit_test(test_tpack_programs), cmocka_unit_test(test_talias),
        cmocka_unit_test(test_talias_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
