/* MGATHER's GatherOOB and MSCATTER's ScatterOOB and ScatterAtomicOp
 * (pto_mgather_oob, pto_mscatter_ex) against the pages' definitions written
 * here: an index past the table (capacity: the table's rows in Row mode,
 * its elements in Elem mode; an index read as a uint32) clamped to capacity
 * - 1, taken modulo capacity, zeroed (gather) or skipped (scatter); the
 * atomics combining source and table elements one at a time in row-major
 * order (ADD: integers modulo 2^bits, floats rounded once to nearest even;
 * MAX / MIN by comparison), with the page's Atomic Type Support per
 * profile; bad enums and refusals with nothing written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

static uint64_t get_bits(const void *table, size_t size, size_t k) {
    uint64_t v = 0;
    memcpy(&v, (const char *)table + k * size, size);
    return v;
}

/* The page's remap of index v (as a uint32) against capacity: the slot, or
 * -1 for ZERO / SKIP past the table. mode: 1 clamp, 2 wrap, 3 zero/skip. */
static int64_t remap(uint32_t v, size_t capacity, int mode) {
    if (v < capacity) return v;
    if (mode == 1) return (int64_t)capacity - 1;
    if (mode == 2) return (int64_t)(v % capacity);
    return -1;
}

/* The index of tile row r (Row) or element (r, c) (Elem). */
static uint32_t index_of(const pto_tile *idx, pto_coalesce m, uint32_t r, uint32_t c) {
    if (m == PTO_COALESCE_ELEM) return (uint32_t)tile_get(idx, r, c);
    return (uint32_t)(pto_tile_valid_rows(idx) == 1 ? tile_get(idx, 0, r) : tile_get(idx, r, 0));
}

/* Indices mostly in range, some past it, some negative as INT32. */
static void fill_indices(pto_tile *idx, size_t capacity, rng *r) {
    for (uint32_t i = 0; i < pto_tile_rows(idx); ++i)
        for (uint32_t j = 0; j < pto_tile_cols(idx); ++j) {
            const uint64_t k = rng_next(r) % 8;
            const uint64_t v = k == 0 ? 0xFFFFFFFFu - rng_next(r) % 4 : rng_next(r) % (2 * capacity + 3);
            tile_put(idx, i, j, v);
        }
}

static void *random_bytes(size_t n, rng *r) {
    unsigned char *t = malloc(n + 1);
    for (size_t k = 0; k < n; ++k) t[k] = (unsigned char)rng_next(r);
    return t;
}

/* The page's Atomic Type Support: A2A3's and A5's lists; HOST their union. */
static bool atomic_takes(int atomic, pto_dtype d, int profile) {
    static const pto_dtype add_a2a3[] = {PTO_INT8, PTO_INT16, PTO_INT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    static const pto_dtype add_a5[] = {PTO_INT32, PTO_UINT32, PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
    static const pto_dtype minmax_a5[] = {PTO_INT32, PTO_UINT32, PTO_FLOAT32};
    bool in_a2a3 = false, in_a5 = false;
    if (atomic == 0) return true;
    if (atomic == 1) {
        for (size_t k = 0; k < COUNT(add_a2a3); ++k) in_a2a3 |= add_a2a3[k] == d;
        for (size_t k = 0; k < COUNT(add_a5); ++k) in_a5 |= add_a5[k] == d;
    } else {
        for (size_t k = 0; k < COUNT(minmax_a5); ++k) in_a5 |= minmax_a5[k] == d;
    }
    return profile == PTO_PROFILE_A2A3 ? in_a2a3 : profile == PTO_PROFILE_A5 ? in_a5 : in_a2a3 || in_a5;
}

static bool is_float(pto_dtype d) { return d == PTO_FLOAT16 || d == PTO_BFLOAT16 || d == PTO_FLOAT32; }

/* The table element `old` combined with the source element `s`. */
static uint64_t combine(int atomic, pto_dtype d, uint64_t old, uint64_t s) {
    if (atomic == 0) return s;
    if (is_float(d)) {
        const double a = ref_to_double(d, old), b = ref_to_double(d, s);
        static const uint64_t kQuietNan[] = {0x7E00, 0x7FC0, 0x7FC00000u}; /* FLOAT16, BFLOAT16, FLOAT32 */
        if (atomic == 1 && a + b != a + b) return kQuietNan[d == PTO_FLOAT16 ? 0 : d == PTO_BFLOAT16 ? 1 : 2];
        if (atomic == 1) return ref_from_double(d, a + b);
        return (atomic == 2 ? b > a : b < a) ? s : old;
    }
    if (atomic == 1) return ref_int_wrap(d, old + s);
    return (atomic == 2 ? ref_int_less(d, old, s) : ref_int_less(d, s, old)) ? s : old;
}

static void test_modes_values(void **state) {
    (void)state;
    /* tile rows, cols, valid rows, valid cols; table elements */
    static const uint32_t kShapes[][5] = {{1, 1, 1, 1, 1}, {8, 32, 8, 32, 40}, {8, 40, 5, 33, 100},
                                          {4, 16, 4, 16, 64}, {3, 8, 2, 3, 0}};
    rng r = {0x00B1};
    size_t calls = 0, refusals = 0;
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t t = 0; t < COUNT(kDtypes); ++t)
            for (size_t k = 0; k < COUNT(kShapes); ++k)
                for (int mode = 0; mode < 2; ++mode)
                    for (int oob = 1; oob <= 3; ++oob)
                        for (int atomic = 0; atomic < 4; ++atomic) {
                            const uint32_t *sh = kShapes[k];
                            const pto_dtype dt = kDtypes[t];
                            const size_t size = pto_dtype_size(dt), n = sh[4];
                            const pto_coalesce m = (pto_coalesce)mode;
                            const size_t capacity = m == PTO_COALESCE_ROW ? n / sh[3] : n;
                            pto_tile *tile = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                            pto_tile *idx = m == PTO_COALESCE_ELEM ? tile_new(PTO_INT32, sh[0], sh[1], sh[2], sh[3])
                                            : k % 2 ? tile_new(PTO_UINT32, sh[0], 1, sh[2], 1)
                                                    : tile_new(PTO_INT32, 1, sh[0], 1, sh[2]);
                            fill_indices(idx, capacity, &r);
                            /* a few collisions for the atomics: index 0 repeated */
                            tile_put(idx, 0, 0, 0);
                            void *table = random_bytes(n * size, &r);
                            tile_fill(tile, &r, GEN_ANY);
                            uint64_t *before = tile_snapshot(tile);
                            char what[128];
                            snprintf(what, sizeof what, "%s %s %s oob %d atomic %d %ux%u of %zu",
                                     pto_profile_string((pto_profile)p), pto_dtype_string(dt),
                                     mode ? "elem" : "row", oob, atomic, sh[2], sh[3], n);
                            /* capacity 0: every index is past the table; only ZERO / SKIP apply */
                            const bool empty_refused = capacity == 0 && oob != 3;
                            if (atomic == 0) {
                                /* gather oob numbering: 1 clamp, 2 wrap, 3 zero */
                                const pto_status s = pto_mgather_oob(tile, table, n, dt, idx, m, (pto_gather_oob)oob);
                                expect_status(s, empty_refused ? PTO_ERR_OUT_OF_RANGE : PTO_OK, what);
                                for (uint32_t i = 0; i < sh[0]; ++i)
                                    for (uint32_t j = 0; j < sh[1]; ++j) {
                                        uint64_t want = before[(size_t)i * sh[1] + j];
                                        if (!empty_refused && i < sh[2] && j < sh[3]) {
                                            const int64_t slot = remap(index_of(idx, m, i, j), capacity, oob);
                                            want = slot < 0 ? 0
                                                   : get_bits(table, size, m == PTO_COALESCE_ROW ? (size_t)slot * sh[3] + j
                                                                                                 : (size_t)slot);
                                        }
                                        if (tile_get(tile, i, j) != want)
                                            fail_msg("%s: dst (%u,%u) 0x%llx, want 0x%llx", what, i, j,
                                                     (unsigned long long)tile_get(tile, i, j), (unsigned long long)want);
                                    }
                                ++calls;
                            }
                            /* scatter oob numbering: 1 skip, 2 clamp, 3 wrap */
                            static const int kScatterOob[] = {0, 3, 1, 2};
                            const int soob = kScatterOob[oob];
                            const bool takes = atomic_takes(atomic, dt, p);
                            const bool refused = !takes || (capacity == 0 && soob != 3);
                            unsigned char *out = random_bytes(n * size, &r);
                            unsigned char *want = malloc(n * size + 1);
                            memcpy(want, out, n * size);
                            if (!refused)
                                for (uint32_t i = 0; i < sh[2]; ++i)
                                    for (uint32_t j = 0; j < sh[3]; ++j) {
                                        const int64_t slot = remap(index_of(idx, m, i, j), capacity, soob);
                                        if (slot < 0) continue;
                                        const size_t at = m == PTO_COALESCE_ROW ? (size_t)slot * sh[3] + j : (size_t)slot;
                                        const uint64_t v = combine(atomic, dt, get_bits(want, size, at), tile_get(tile, i, j));
                                        memcpy(want + at * size, &v, size);
                                    }
                            const pto_status s = pto_mscatter_ex(out, n, dt, tile, idx, m, (pto_scatter_atomic)atomic,
                                                                 (pto_scatter_oob)oob);
                            expect_status(s, !takes ? PTO_ERR_UNSUPPORTED_DTYPE
                                             : refused ? PTO_ERR_OUT_OF_RANGE : PTO_OK, what);
                            for (size_t e = 0; e < n; ++e)
                                if (get_bits(out, size, e) != get_bits(want, size, e))
                                    fail_msg("%s: table element %zu 0x%llx, want 0x%llx", what, e,
                                             (unsigned long long)get_bits(out, size, e),
                                             (unsigned long long)get_bits(want, size, e));
                            calls += 1;
                            refusals += refused;
                            free(before);
                            free(table);
                            free(out);
                            free(want);
                            TILES_DESTROY(tile, idx);
                        }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[mgather modes] %zu calls against the pages' definitions, %zu refusals\n", calls, refusals);
}

/* Hand cases: the page's modes on a 6-element table, and the atomics'
 * exactness (float16 sums in row order, rounded each time; integer wrap). */
static void test_modes_cases(void **state) {
    (void)state;
    int32_t table[6] = {10, 11, 12, 13, 14, 15};
    pto_tile *dst = tile_new(PTO_INT32, 1, 4, 1, 4), *idx = tile_new(PTO_INT32, 1, 4, 1, 4);
    static const uint64_t kIdx[] = {5, 6, 13, 0xFFFFFFFFu};
    for (uint32_t j = 0; j < 4; ++j) tile_put(idx, 0, j, kIdx[j]);
    const pto_coalesce E = PTO_COALESCE_ELEM;
    assert_int_equal(pto_mgather_oob(dst, table, 6, PTO_INT32, idx, E, PTO_GATHER_OOB_CLAMP), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 1), 15);
    assert_int_equal(tile_get(dst, 0, 3), 15); /* -1 is 4294967295 */
    assert_int_equal(pto_mgather_oob(dst, table, 6, PTO_INT32, idx, E, PTO_GATHER_OOB_WRAP), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 1), 10);
    assert_int_equal(tile_get(dst, 0, 2), 11);
    assert_int_equal(tile_get(dst, 0, 3), 13); /* 4294967295 % 6 = 3 */
    assert_int_equal(pto_mgather_oob(dst, table, 6, PTO_INT32, idx, E, PTO_GATHER_OOB_ZERO), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 0), 15);
    assert_int_equal(tile_get(dst, 0, 1), 0);
    assert_int_equal(tile_get(dst, 0, 3), 0);
    expect_status(pto_mgather_oob(dst, table, 6, PTO_INT32, idx, E, PTO_GATHER_OOB_UNDEFINED), PTO_ERR_OUT_OF_RANGE,
                  "undefined refuses");
    assert_non_null(strstr(pto_last_error(), "pto_mgather_oob: indices (0, 1) is 6"));
    /* Scatter add, indices {5, 6, 13, -1}: skip writes only slot 5. */
    for (uint32_t j = 0; j < 4; ++j) tile_put(dst, 0, j, 100 + j);
    assert_int_equal(pto_mscatter_ex(table, 6, PTO_INT32, dst, idx, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_SKIP),
                     PTO_OK);
    assert_int_equal(table[5], 115);
    assert_int_equal(table[0] + table[1] + table[2] + table[3] + table[4], 60);
    /* clamp: all four into slot 5 */
    assert_int_equal(pto_mscatter_ex(table, 6, PTO_INT32, dst, idx, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_CLAMP),
                     PTO_OK);
    assert_int_equal(table[5], 115 + 100 + 101 + 102 + 103);
    assert_int_equal(pto_mscatter_ex(table, 6, PTO_INT32, dst, idx, E, PTO_SCATTER_ATOMIC_MIN, PTO_SCATTER_OOB_CLAMP),
                     PTO_OK);
    assert_int_equal(table[5], 100);
    assert_int_equal(pto_mscatter_ex(table, 6, PTO_INT32, dst, idx, E, PTO_SCATTER_ATOMIC_NONE, PTO_SCATTER_OOB_WRAP),
                     PTO_OK);
    assert_int_equal(table[5], 100);
    assert_int_equal(table[0], 101);
    assert_int_equal(table[1], 102);
    assert_int_equal(table[3], 103);
    /* float16 add in row order, rounded each time: 2048 + 1 + 1 = 2048
     * (2049 is a tie, to even), where one rounding of 2050 would give 2050. */
    uint16_t h[1] = {0x6800}; /* 2048 */
    pto_tile *hs = tile_new(PTO_FLOAT16, 1, 2, 1, 2), *hi = tile_new(PTO_INT32, 1, 2, 1, 2);
    tile_put(hs, 0, 0, 0x3C00);
    tile_put(hs, 0, 1, 0x3C00);
    assert_int_equal(pto_mscatter_ex(h, 1, PTO_FLOAT16, hs, hi, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_UNDEFINED),
                     PTO_OK);
    assert_int_equal(h[0], 0x6800);
    /* int8 add wraps: 127 + 1 = -128 */
    int8_t b[1] = {127};
    pto_tile *bs = tile_new(PTO_INT8, 1, 1, 1, 1), *bi = tile_new(PTO_INT32, 1, 1, 1, 1);
    tile_put(bs, 0, 0, 1);
    assert_int_equal(pto_mscatter_ex(b, 1, PTO_INT8, bs, bi, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_UNDEFINED), PTO_OK);
    assert_int_equal(b[0], -128);
    /* float max with NaN: a NaN source leaves the element, a NaN element stays */
    float fv[2] = {1.0f, 0};
    memcpy(&fv[1], &(uint32_t){0x7FC00000u}, 4);
    pto_tile *fs = tile_new(PTO_FLOAT32, 1, 2, 1, 2), *fi = tile_new(PTO_INT32, 1, 2, 1, 2);
    tile_put(fs, 0, 0, 0x7FC00001u); /* NaN into 1.0 */
    tile_put(fs, 0, 1, 0x40000000u); /* 2.0 into NaN */
    tile_put(fi, 0, 1, 1);
    assert_int_equal(pto_mscatter_ex(fv, 2, PTO_FLOAT32, fs, fi, E, PTO_SCATTER_ATOMIC_MAX, PTO_SCATTER_OOB_UNDEFINED),
                     PTO_OK);
    assert_true(fv[0] == 1.0f);
    assert_true(fv[1] != fv[1]);
    TILES_DESTROY(dst, idx, hs, hi, bs, bi, fs, fi);
}

/* Refusals: bad enums, atomic dtypes per profile; nothing written. */
static void test_modes_rules(void **state) {
    (void)state;
    int32_t table[8] = {1, 2, 3, 4, 5, 6, 7, 8}, kept[8];
    memcpy(kept, table, sizeof table);
    pto_tile *src = tile_new(PTO_INT32, 1, 4, 1, 4), *idx = tile_new(PTO_INT32, 1, 4, 1, 4);
    pto_tile *u8 = tile_new(PTO_UINT8, 1, 4, 1, 4);
    uint8_t bytes[8] = {0};
    const pto_coalesce E = PTO_COALESCE_ELEM;
    for (uint32_t j = 0; j < 4; ++j) tile_put(src, 0, j, 50 + j);
    uint64_t *before = tile_snapshot(src);
    expect_status(pto_mgather_oob(src, table, 8, PTO_INT32, idx, E, (pto_gather_oob)4), PTO_ERR_INVALID_ARGUMENT, "oob 4");
    assert_non_null(strstr(pto_last_error(), "pto_mgather_oob: oob"));
    expect_status(pto_mgather_oob(src, table, 8, PTO_INT32, idx, E, (pto_gather_oob)-1), PTO_ERR_INVALID_ARGUMENT, "oob -1");
    expect_status(pto_mgather_oob(src, table, 8, PTO_INT32, idx, (pto_coalesce)2, PTO_GATHER_OOB_ZERO),
                  PTO_ERR_INVALID_ARGUMENT, "coalesce 2");
    expect_status(pto_mgather_oob(NULL, table, 8, PTO_INT32, idx, E, (pto_gather_oob)9), PTO_ERR_NULL_ARGUMENT, "NULL first");
    assert_tile_unchanged(src, before, "refused mgather_oob");
    expect_status(pto_mscatter_ex(table, 8, PTO_INT32, src, idx, E, (pto_scatter_atomic)4, PTO_SCATTER_OOB_SKIP),
                  PTO_ERR_INVALID_ARGUMENT, "atomic 4");
    assert_non_null(strstr(pto_last_error(), "pto_mscatter_ex: atomic"));
    expect_status(pto_mscatter_ex(table, 8, PTO_INT32, src, idx, E, PTO_SCATTER_ATOMIC_ADD, (pto_scatter_oob)4),
                  PTO_ERR_INVALID_ARGUMENT, "scatter oob 4");
    expect_status(pto_mscatter_ex(table, 8, PTO_FLOAT32, src, idx, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_SKIP),
                  PTO_ERR_DTYPE_MISMATCH, "table dtype");
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        expect_status(pto_mscatter_ex(bytes, 8, PTO_UINT8, u8, idx, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_SKIP),
                      PTO_ERR_UNSUPPORTED_DTYPE, "uint8 add");
        assert_non_null(strstr(pto_last_error(), "pto_mscatter_ex: atomic add takes no UINT8 src"));
        expect_status(pto_mscatter_ex(table, 8, PTO_INT32, src, idx, E, PTO_SCATTER_ATOMIC_MAX, PTO_SCATTER_OOB_SKIP),
                      p == PTO_PROFILE_A2A3 ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK, "int32 max");
        memcpy(table, kept, sizeof table);
        /* an index past the table under UNDEFINED: refused, nothing written */
        tile_put(idx, 0, 3, 8);
        expect_status(pto_mscatter_ex(table, 8, PTO_INT32, src, idx, E, PTO_SCATTER_ATOMIC_ADD, PTO_SCATTER_OOB_UNDEFINED),
                      PTO_ERR_OUT_OF_RANGE, "index 8");
        assert_memory_equal(table, kept, sizeof table);
        tile_put(idx, 0, 3, 0);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(before);
    TILES_DESTROY(src, idx, u8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_cases),
        cmocka_unit_test(test_modes_values),
        cmocka_unit_test(test_modes_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
