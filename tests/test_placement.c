/* Buffers and placed tiles (TASSIGN): the buffer API, pto_tile_create_at's
 * rules and check order, lifetime in every destruction order, the overlap
 * rules by address (identical placement, partial overlap, interleaving
 * without a shared byte, tmp anywhere, a buffer wrapping another tile's
 * storage) checked against byte-by-byte enumeration, and the operations the
 * generic loops model on tiles at unaligned offsets on every SIMD target: bit-identical to the
 * same call on owned tiles and within the contract's bounds of the
 * reference. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static pto_tile *const kSentinelTile = (pto_tile *)(uintptr_t)0x5A5A5A50;
static pto_buffer *const kSentinelBuffer = (pto_buffer *)(uintptr_t)0x5A5A5A50;

static pto_buffer *buffer_new(size_t nbytes) {
    pto_buffer *b = NULL;
    assert_int_equal(pto_buffer_create(nbytes, &b), PTO_OK);
    assert_non_null(b);
    return b;
}

static pto_tile *place(pto_buffer *b, pto_dtype dt, uint32_t rows, uint32_t cols, size_t offset,
                       uint32_t valid_rows, uint32_t valid_cols) {
    pto_tile *t = NULL;
    const pto_status s = pto_tile_create_at(dt, rows, cols, b, offset, &t);
    if (s != PTO_OK) fail_msg("pto_tile_create_at: %s (%s)", pto_status_string(s), pto_last_error());
    assert_int_equal(pto_tile_set_valid(t, valid_rows, valid_cols), PTO_OK);
    return t;
}

/* ---- the buffer API ---- */

static void test_buffer_api(void **state) {
    (void)state;
    pto_buffer *out = kSentinelBuffer;
    assert_int_equal(pto_buffer_create(64, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_buffer_create(0, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_buffer_create"));
    assert_int_equal(pto_buffer_create(PTO_TILE_MAX_BYTES + 1, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_buffer_create(SIZE_MAX, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_ptr_equal(out, kSentinelBuffer);

    static const size_t kSizes[] = {1, 63, 64, 1000, 65536};
    for (size_t i = 0; i < COUNT(kSizes); ++i) {
        pto_buffer *b = buffer_new(kSizes[i]);
        const unsigned char *p = pto_buffer_data(b);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
        assert_int_equal(pto_buffer_size(b), kSizes[i]);
        for (size_t k = 0; k < kSizes[i]; ++k) assert_int_equal(p[k], 0);
        pto_buffer_destroy(b);
    }

    unsigned char memory[100];
    memset(memory, 0xAB, sizeof(memory));
    assert_int_equal(pto_buffer_wrap(memory, 10, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_buffer_wrap(NULL, 10, &out), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "memory"));
    assert_int_equal(pto_buffer_wrap(NULL, 0, &out), PTO_ERR_NULL_ARGUMENT); /* NULL first */
    assert_int_equal(pto_buffer_wrap(memory, 0, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_buffer_wrap(memory, PTO_TILE_MAX_BYTES + 1, &out), PTO_ERR_INVALID_ARGUMENT);
    assert_ptr_equal(out, kSentinelBuffer);
    pto_buffer *w = NULL;
    assert_int_equal(pto_buffer_wrap(memory + 3, 97, &w), PTO_OK);
    assert_ptr_equal(pto_buffer_data(w), memory + 3);
    assert_int_equal(pto_buffer_size(w), 97);
    pto_buffer_destroy(w);
    for (size_t k = 0; k < sizeof(memory); ++k) assert_int_equal(memory[k], 0xAB); /* untouched */

    pto_buffer_destroy(NULL);
    assert_null(pto_buffer_data(NULL));
    assert_int_equal(pto_buffer_size(NULL), 0);
    assert_null(pto_tile_buffer(NULL));
    assert_int_equal(pto_tile_offset(NULL), 0);
}

/* ---- pto_tile_create_at ---- */

typedef struct {
    int dtype;
    uint32_t rows, cols;
    size_t offset;
    int wrapped_misalign; /* -1: the owned 1024-byte buffer; else a wrap at this byte */
    pto_status expected;
    const char *mentions;
} create_at_case;

static const create_at_case kCreateAtCases[] = {
    {PTO_FLOAT32, 16, 16, 0, -1, PTO_OK, ""},
    {PTO_FLOAT32, 16, 16, 4, -1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
    {PTO_FLOAT32, 1, 1, 1020, -1, PTO_OK, ""},
    {PTO_FLOAT32, 1, 1, 1024, -1, PTO_ERR_OUT_OF_RANGE, "1024"},
    {PTO_UINT8, 1, 1, 1023, -1, PTO_OK, ""},
    {PTO_UINT8, 1, 1, SIZE_MAX, -1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
    {PTO_FLOAT32, 1, 1, SIZE_MAX - 3, -1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
    {PTO_UINT8, 1, 2, SIZE_MAX, -1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
    {PTO_FLOAT32, 1, 1, 2, -1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    {PTO_FLOAT16, 1, 1, 2, -1, PTO_OK, ""},
    {PTO_FLOAT16, 3, 5, 1, -1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    {PTO_INT64, 2, 4, 8, -1, PTO_OK, ""},
    {PTO_UINT64, 2, 4, 4, -1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    /* invalid before out of range */
    {PTO_FLOAT32, 1, 1, 4097, -1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    {18, 1, 1, 0, -1, PTO_ERR_INVALID_ARGUMENT, "dtype 18"},
    {PTO_FLOAT8_E4M3, 2, 3, 5, -1, PTO_OK, ""},
    {PTO_INT4X2, 1, 7, 1023, -1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
    {-1, 1, 1, 0, -1, PTO_ERR_INVALID_ARGUMENT, "dtype -1"},
    {PTO_INT8, 0, 1, 0, -1, PTO_ERR_INVALID_ARGUMENT, "zero dimension"},
    {PTO_INT8, 1, 0, 5000, -1, PTO_ERR_INVALID_ARGUMENT, "zero dimension"},
    {PTO_FLOAT32, 65536, 65536, 0, -1, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
    {PTO_UINT8, UINT32_MAX, UINT32_MAX, 0, -1, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
    /* wrapped memory: the address, not only the offset, is element-aligned */
    {PTO_FLOAT16, 1, 1, 0, 1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    {PTO_FLOAT16, 1, 1, 1, 1, PTO_OK, ""},
    {PTO_FLOAT32, 2, 3, 3, 1, PTO_OK, ""},
    {PTO_FLOAT32, 2, 3, 1, 1, PTO_ERR_INVALID_ARGUMENT, "element size"},
    {PTO_UINT8, 1, 255, 0, 1, PTO_OK, ""},
    {PTO_UINT8, 1, 256, 0, 1, PTO_OK, ""},
    {PTO_UINT8, 1, 257, 0, 1, PTO_ERR_OUT_OF_RANGE, "does not fit"},
};

static void test_create_at_rules(void **state) {
    (void)state;
    pto_buffer *owned = buffer_new(1024);
    unsigned char *memory = malloc(256 + 64);
    assert_non_null(memory);
    unsigned char *aligned = memory + (64 - (uintptr_t)memory % 64) % 64;
    for (size_t i = 0; i < COUNT(kCreateAtCases); ++i) {
        const create_at_case *c = &kCreateAtCases[i];
        pto_buffer *b = owned;
        if (c->wrapped_misalign >= 0)
            assert_int_equal(pto_buffer_wrap(aligned + c->wrapped_misalign, 256, &b), PTO_OK);
        pto_tile *out = kSentinelTile;
        const pto_status got =
            pto_tile_create_at((pto_dtype)c->dtype, c->rows, c->cols, b, c->offset, &out);
        if (got != c->expected || strstr(pto_last_error(), c->mentions) == NULL)
            fail_msg("case %zu: %s \"%s\", expected %s mentioning \"%s\"", i,
                     pto_status_string(got), pto_last_error(), pto_status_string(c->expected),
                     c->mentions);
        if (got == PTO_OK) {
            assert_ptr_equal(pto_tile_data(out), (char *)pto_buffer_data(b) + c->offset);
            assert_ptr_equal(pto_tile_buffer(out), b);
            assert_int_equal(pto_tile_offset(out), c->offset);
            assert_int_equal(pto_tile_rows(out), c->rows);
            assert_int_equal(pto_tile_valid_cols(out), c->cols);
            pto_tile_destroy(out);
        } else {
            assert_ptr_equal(out, kSentinelTile);
            assert_non_null(strstr(pto_last_error(), "pto_tile_create_at"));
        }
        if (b != owned) pto_buffer_destroy(b);
    }
    pto_tile *out = kSentinelTile;
    assert_int_equal(pto_tile_create_at(PTO_INT8, 1, 1, NULL, 0, &out), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tile_create_at((pto_dtype)TEST_DTYPE_COUNT, 0, 0, NULL, 0, &out), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tile_create_at(PTO_INT8, 1, 1, owned, 0, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_ptr_equal(out, kSentinelTile);

    /* An owned tile lives in no buffer. */
    pto_tile *t = tile_new(PTO_INT8, 2, 2, 2, 2);
    assert_null(pto_tile_buffer(t));
    assert_int_equal(pto_tile_offset(t), 0);
    pto_tile_destroy(t);
    pto_buffer_destroy(owned);
    free(memory);
}

/* Placing does not zero-fill; whole-tile copies touch exactly the tile's
 * bytes; set_valid works as on owned tiles. */
static void test_placed_tile_bytes(void **state) {
    (void)state;
    unsigned char memory[200];
    for (size_t i = 0; i < sizeof(memory); ++i) memory[i] = (unsigned char)(i * 7 + 1);
    unsigned char before[sizeof(memory)];
    memcpy(before, memory, sizeof(memory));
    pto_buffer *b = NULL;
    assert_int_equal(pto_buffer_wrap(memory, sizeof(memory), &b), PTO_OK);
    const size_t offset = 10 + (uintptr_t)memory % 2; /* an even address */
    pto_tile *t = place(b, PTO_UINT16, 3, 5, offset, 3, 5);
    assert_memory_equal(memory, before, sizeof(memory)); /* no zero-fill */
    assert_int_equal(pto_tile_set_valid(t, 4, 5), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_tile_set_valid(t, 2, 1), PTO_OK);
    uint16_t in[15], out[15];
    for (int i = 0; i < 15; ++i) in[i] = (uint16_t)(0x1111 * (i + 1));
    assert_int_equal(pto_tile_write(t, in, sizeof(in) - 1), PTO_ERR_INVALID_ARGUMENT);
    assert_memory_equal(memory, before, sizeof(memory));
    assert_int_equal(pto_tile_write(t, in, sizeof(in)), PTO_OK);
    assert_memory_equal(memory + offset, in, sizeof(in)); /* zero-copy: the caller's bytes */
    assert_memory_equal(memory, before, offset);
    assert_memory_equal(memory + offset + sizeof(in), before + offset + sizeof(in),
                        sizeof(memory) - offset - sizeof(in));
    assert_int_equal(pto_tile_read(t, out, sizeof(out)), PTO_OK);
    assert_memory_equal(out, in, sizeof(in));
    pto_tile_destroy(t);
    pto_buffer_destroy(b);
}

/* ---- lifetime ---- */

/* Two tiles in one buffer, destroyed with the buffer handle in each of the
 * six orders; whatever is alive keeps working (ASan and valgrind check the
 * frees in tests/run-all.sh). */
static void test_lifetime_every_order(void **state) {
    (void)state;
    static const int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                      {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int wrapped = 0; wrapped <= 1; ++wrapped) {
        for (int o = 0; o < 6; ++o) {
            float *memory = wrapped ? calloc(64, sizeof(float)) : NULL;
            pto_buffer *b = NULL;
            if (wrapped) {
                assert_int_equal(pto_buffer_wrap(memory, 64 * sizeof(float), &b), PTO_OK);
            } else {
                b = buffer_new(64 * sizeof(float));
            }
            pto_tile *t[2] = {place(b, PTO_FLOAT32, 2, 4, 0, 2, 4),
                              place(b, PTO_FLOAT32, 2, 4, 32 * sizeof(float), 2, 4)};
            bool alive[3] = {true, true, true}; /* buffer, t0, t1 */
            for (int step = 0; step < 3; ++step) {
                const int victim = kOrders[o][step];
                if (victim == 0) {
                    pto_buffer_destroy(b);
                } else {
                    pto_tile_destroy(t[victim - 1]);
                }
                alive[victim] = false;
                for (int k = 0; k < 2; ++k) {
                    if (!alive[k + 1]) continue;
                    const float v[8] = {1, 2, 3, 4, 5, 6, 7, (float)step};
                    float got[8];
                    assert_int_equal(pto_tile_write_f32(t[k], v, 8), PTO_OK);
                    assert_int_equal(pto_tile_read_f32(t[k], got, 8), PTO_OK);
                    assert_memory_equal(got, v, sizeof(v));
                    /* The tile's buffer stays usable while the tile lives. */
                    pto_buffer *home = pto_tile_buffer(t[k]);
                    assert_int_equal(pto_buffer_size(home), 64 * sizeof(float));
                    pto_tile *extra = place(home, PTO_FLOAT32, 1, 1, 60 * sizeof(float), 1, 1);
                    assert_int_equal(pto_tpartadd(extra, extra, extra), PTO_OK);
                    pto_tile_destroy(extra);
                }
            }
            if (wrapped) {
                /* one tile outlives the first destroy and wrote the caller's memory */
                assert_true(memory[0] == 1.0f || memory[32] == 1.0f);
                free(memory); /* never freed by libpto */
            }
        }
    }
}

/* ---- overlap ---- */

/* Byte-by-byte truth: some byte belongs to an element of both valid regions.
 * Marks a's valid bytes in a map of the span both tiles cover, then looks
 * for one of b's. */
static bool overlap_by_bytes(const pto_tile *a, const pto_tile *b) {
    const pto_tile *t[2] = {a, b};
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int k = 0; k < 2; ++k) {
        const uintptr_t p = (uintptr_t)pto_tile_data((pto_tile *)t[k]);
        const size_t bytes = (size_t)pto_tile_rows(t[k]) * pto_tile_cols(t[k]) *
                             pto_dtype_size(pto_tile_dtype(t[k]));
        if (p < lo) lo = p;
        if (p + bytes > hi) hi = p + bytes;
    }
    unsigned char *map = calloc(hi - lo, 1);
    assert_non_null(map);
    bool shared = false;
    for (int k = 0; k < 2 && !shared; ++k) {
        const uintptr_t p = (uintptr_t)pto_tile_data((pto_tile *)t[k]) - lo;
        const size_t e = pto_dtype_size(pto_tile_dtype(t[k]));
        for (uint32_t i = 0; i < pto_tile_valid_rows(t[k]) && !shared; ++i)
            for (size_t byte = 0; byte < pto_tile_valid_cols(t[k]) * e; ++byte) {
                const size_t at = p + (size_t)i * pto_tile_cols(t[k]) * e + byte;
                if (k == 0) map[at] = 1;
                else if (map[at]) { shared = true; break; }
            }
    }
    free(map);
    return shared;
}

static bool same_placement(const pto_tile *a, const pto_tile *b) {
    return pto_tile_data((pto_tile *)a) == pto_tile_data((pto_tile *)b) &&
           pto_tile_dtype(a) == pto_tile_dtype(b) && pto_tile_cols(a) == pto_tile_cols(b);
}

/* A random tile that fits in [0, size) of b, element-aligned. */
static pto_tile *random_placed(rng *r, pto_buffer *b, size_t size, pto_dtype dt,
                               uint32_t max_rows, uint32_t max_cols) {
    const size_t e = pto_dtype_size(dt);
    for (;;) {
        const uint32_t rows = 1 + rng_below(r, max_rows), cols = 1 + rng_below(r, max_cols);
        const size_t bytes = (size_t)rows * cols * e;
        if (bytes > size) continue;
        const size_t offset = rng_below(r, (uint32_t)((size - bytes) / e + 1)) * e;
        return place(b, dt, rows, cols, offset, rng_below(r, rows + 1), rng_below(r, cols + 1));
    }
}

/* dst and a source of one dtype, for an operation outside the row order
 * (taddc, its three sources one tile): ALIASING exactly when they share a
 * byte and are not identically placed (it checks aliasing before regions).
 * The row order's overlaps: tests/test_inplace.c. */
static void test_overlap_matches_bytes(void **state) {
    (void)state;
    rng r = {2024};
    pto_buffer *b = buffer_new(512);
    size_t overlapping = 0, interleaved = 0, identical = 0, apart = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const pto_dtype dt = rng_below(&r, 2) ? PTO_FLOAT32 : PTO_FLOAT16;
        const uint32_t max = trial % 3 == 0 ? 40 : 9;
        pto_tile *dst = random_placed(&r, b, trial % 4 ? 160 : 512, dt, max, max);
        pto_tile *src = random_placed(&r, b, trial % 4 ? 160 : 512, dt, max, max);
        if (trial % 7 == 0) { /* identical placement with another valid region */
            pto_tile_destroy(src);
            src = place(b, dt, pto_tile_rows(dst), pto_tile_cols(dst), pto_tile_offset(dst),
                        rng_below(&r, pto_tile_rows(dst) + 1), rng_below(&r, pto_tile_cols(dst) + 1));
        }
        const bool same = same_placement(dst, src);
        const bool shares = overlap_by_bytes(dst, src);
        const bool regions_equal = pto_tile_valid_rows(dst) == pto_tile_valid_rows(src) &&
                                   pto_tile_valid_cols(dst) == pto_tile_valid_cols(src);
        const pto_status expected = shares && !same ? PTO_ERR_ALIASING
                                    : regions_equal  ? PTO_OK
                                                     : PTO_ERR_SHAPE_MISMATCH;
        const pto_status got = pto_taddc(dst, src, src, src);
        if (got != expected)
            fail_msg("trial %d: dst %ux%u valid %ux%u at %zu, src %ux%u valid %ux%u at %zu: %s, "
                     "expected %s (%s)", trial, pto_tile_rows(dst), pto_tile_cols(dst),
                     pto_tile_valid_rows(dst), pto_tile_valid_cols(dst), pto_tile_offset(dst),
                     pto_tile_rows(src), pto_tile_cols(src), pto_tile_valid_rows(src),
                     pto_tile_valid_cols(src), pto_tile_offset(src), pto_status_string(got),
                     pto_status_string(expected), pto_last_error());
        if (same) ++identical;
        else if (shares) ++overlapping;
        else if (pto_tile_offset(src) < pto_tile_offset(dst) + (size_t)pto_tile_rows(dst) * pto_tile_cols(dst) * pto_dtype_size(dt) &&
                 pto_tile_offset(dst) < pto_tile_offset(src) + (size_t)pto_tile_rows(src) * pto_tile_cols(src) * pto_dtype_size(dt))
            ++interleaved; /* whole tiles intersect, valid elements do not */
        else ++apart;
        pto_tile_destroy(dst);
        pto_tile_destroy(src);
    }
    pto_buffer_destroy(b);
    assert_true(overlapping > 200 && interleaved > 200 && identical > 200 && apart > 200);
    print_message("[placement] overlap decided for %zu overlapping, %zu interleaved, %zu "
                  "identical, %zu apart pairs\n", overlapping, interleaved, identical, apart);
}

/* Operands of different dtypes (A2A3 tprelu's UINT8 tmp beside FLOAT32
 * operands; now and then another tmp dtype, which A2A3 refuses first) and
 * long tiles whose strides differ, where the shared byte, if any, is far in. */
static void test_overlap_mixed_and_long(void **state) {
    (void)state;
    rng r = {77};
    pto_buffer *b = buffer_new(1 << 16);
    size_t refused = 0, checked = 0, accepted = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const size_t span = trial % 2 ? 256 : (1 << 16);
        const uint32_t max_rows = trial % 2 ? 8 : 2000, max_cols = trial % 2 ? 8 : 70;
        pto_tile *dst = random_placed(&r, b, span, PTO_FLOAT32, max_rows, max_cols);
        const pto_dtype tmp_dt = trial % 4 == 3 ? (pto_dtype)rng_below(&r, 9) : PTO_UINT8;
        pto_tile *tmp = random_placed(&r, b, span, tmp_dt, max_rows, max_cols);
        const uint32_t vr = pto_tile_valid_rows(dst), vc = pto_tile_valid_cols(dst);
        pto_tile *src0 = tile_new(PTO_FLOAT32, vr ? vr : 1, vc ? vc : 1, vr, vc);
        pto_tile *src1 = tile_new(PTO_FLOAT32, vr ? vr : 1, vc ? vc : 1, vr, vc);
        /* Mostly a tmp of dst's valid rows, as A2A3 asks, where it has the rows. */
        if (trial % 3 != 0 && pto_tile_rows(tmp) >= vr)
            assert_int_equal(pto_tile_set_valid(tmp, vr, pto_tile_valid_cols(tmp)), PTO_OK);
        const bool clash = same_placement(dst, tmp) || overlap_by_bytes(dst, tmp);
        const bool tmp_fits = pto_tile_rows(tmp) >= vr + 1 &&
                              pto_tile_valid_rows(tmp) == vr &&
                              pto_tile_valid_cols(tmp) >= (vc + 7) / 8;
        const pto_status expected = tmp_dt != PTO_UINT8 ? PTO_ERR_UNSUPPORTED_DTYPE
                                    : clash            ? PTO_ERR_ALIASING
                                    : tmp_fits         ? PTO_OK
                                                       : PTO_ERR_SHAPE_MISMATCH;
        assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
        const pto_status got = pto_tprelu(dst, src0, src1, tmp);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (got != expected)
            fail_msg("trial %d: tmp %s %ux%u valid %ux%u at %zu vs dst %ux%u valid %ux%u at "
                     "%zu: %s, expected %s", trial, pto_dtype_string(tmp_dt), pto_tile_rows(tmp),
                     pto_tile_cols(tmp), pto_tile_valid_rows(tmp), pto_tile_valid_cols(tmp),
                     pto_tile_offset(tmp), pto_tile_rows(dst), pto_tile_cols(dst), vr, vc,
                     pto_tile_offset(dst), pto_status_string(got), pto_status_string(expected));
        refused += got == PTO_ERR_ALIASING;
        accepted += got == PTO_OK;
        ++checked;
        /* HOST: tmp is never written, so it may sit anywhere. */
        assert_int_equal(pto_tprelu(dst, src0, src1, tmp), PTO_OK);
        pto_tile_destroy(dst);
        pto_tile_destroy(tmp);
        pto_tile_destroy(src0);
        pto_tile_destroy(src1);
    }
    pto_buffer_destroy(b);
    assert_true(refused > 100 && refused < checked - 100);
    assert_true(accepted > 100);
    print_message("[placement] %zu mixed-dtype pairs, %zu overlapping, %zu accepted\n", checked,
                  refused, accepted);
}

/* The named cases of the placement rules in pto_c.h ("Buffers and placement"). */
static void test_overlap_cases(void **state) {
    (void)state;
    pto_buffer *b = buffer_new(4096);
    float *base = pto_buffer_data(b);
    for (int i = 0; i < 1024; ++i) base[i] = 1.0f + (float)(i % 13);
    /* Identical placement is in place, also with another valid region. */
    pto_tile *d = place(b, PTO_FLOAT32, 4, 8, 0, 4, 8);
    pto_tile *same = place(b, PTO_FLOAT32, 4, 8, 0, 4, 8);
    pto_tile *other = place(b, PTO_FLOAT32, 4, 8, 512, 4, 8);
    assert_int_equal(pto_tprelu(d, same, other, NULL), PTO_OK);
    assert_int_equal(pto_tpartadd(d, same, other), PTO_OK);
    /* Same address, other cols: not identical, and it overlaps. */
    pto_tile *skewed = place(b, PTO_FLOAT32, 2, 16, 0, 2, 16);
    assert_int_equal(pto_trsqrt(d, skewed), PTO_ERR_ALIASING); /* both cover bytes 0-127 */
    assert_non_null(strstr(pto_last_error(), "src storage overlaps dst storage"));
    assert_non_null(strstr(pto_last_error(), "dst row 0 would overwrite src row 0"));
    /* The row order: dst row i on source row i exactly (bytes 0-31), dst
     * row 1 on bytes src's valid elements do not hold. */
    assert_int_equal(pto_tile_set_valid(skewed, 2, 8), PTO_OK);
    assert_int_equal(pto_tile_set_valid(d, 2, 8), PTO_OK);
    assert_int_equal(pto_trsqrt(d, skewed), PTO_OK);
    /* An operation outside the row order keeps the rule of identical
     * placement: taddc refuses the same operands. */
    assert_int_equal(pto_taddc(d, skewed, skewed, skewed), PTO_ERR_ALIASING);
    assert_int_equal(pto_tile_set_valid(d, 1, 8), PTO_OK);
    assert_int_equal(pto_tile_set_valid(skewed, 1, 8), PTO_OK);
    assert_int_equal(pto_taddc(d, skewed, skewed, skewed), PTO_ERR_ALIASING); /* shares row 0, not identical */
    assert_non_null(strstr(pto_last_error(), "src0 storage overlaps dst storage"));
    assert_int_equal(pto_tile_set_valid(d, 4, 8), PTO_OK);
    /* Partial overlap by one element. */
    pto_tile *shifted = place(b, PTO_FLOAT32, 4, 8, 4, 4, 8);
    assert_int_equal(pto_tpartadd(d, shifted, other), PTO_ERR_ALIASING);
    assert_int_equal(pto_tpartadd(d, other, shifted), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "src1"));
    assert_null(strstr(pto_last_error(), "HOST"));
    /* Interleaved without sharing a byte: columns 0-3 and 4-7 of 8. */
    pto_tile *left = place(b, PTO_FLOAT32, 4, 8, 1024, 4, 4);
    pto_tile *right = place(b, PTO_FLOAT32, 4, 8, 1024 + 16, 4, 4);
    assert_int_equal(pto_trsqrt(left, right), PTO_OK);
    assert_int_equal(pto_tile_set_valid(left, 4, 5), PTO_OK);
    assert_int_equal(pto_tile_set_valid(right, 4, 5), PTO_OK);
    assert_int_equal(pto_trsqrt(left, right), PTO_ERR_ALIASING); /* now column 4 is shared */
    /* tmp overlapping a source or dst: fine in HOST and A5 (never written),
     * refused by A2A3 tprelu. */
    pto_tile *tmp = place(b, PTO_FLOAT32, 4, 8, 8, 4, 8);
    uint64_t *tmp_before = tile_snapshot(tmp);
    pto_tile *e = place(b, PTO_FLOAT32, 4, 8, 2048, 4, 8);
    assert_int_equal(pto_tpow(e, d, other, tmp, PTO_POW_DEFAULT), PTO_OK); /* tmp over base */
    pto_tile *tmp_on_dst = place(b, PTO_FLOAT32, 4, 8, 2048, 4, 8); /* exactly on dst */
    assert_int_equal(pto_tpow(e, other, d, tmp_on_dst, PTO_POW_DEFAULT), PTO_OK);
    assert_int_equal(pto_tpow(e, other, d, e, PTO_POW_DEFAULT), PTO_ERR_ALIASING); /* same handle */
    pto_tile *slope = place(b, PTO_FLOAT32, 4, 8, 3072, 4, 8);
    pto_tile *out = place(b, PTO_FLOAT32, 4, 8, 1536, 4, 8);
    pto_tile *tmp_big = place(b, PTO_UINT8, 9, 8, 1536, 9, 8); /* over dst's first rows */
    assert_int_equal(pto_tprelu(out, e, slope, tmp_big), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tprelu(out, e, slope, tmp_big), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tprelu(out, e, slope, tmp_big), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_tile_unchanged(tmp, tmp_before, "tmp");
    free(tmp_before);
    pto_tile *tiles[] = {d, same, other, skewed, shifted, left, right, tmp, e, tmp_on_dst, slope, out, tmp_big};
    for (size_t i = 0; i < COUNT(tiles); ++i) pto_tile_destroy(tiles[i]);
    pto_buffer_destroy(b);
}

/* A buffer may wrap another tile's storage: overlap is judged by address. */
static void test_buffer_over_tile_data(void **state) {
    (void)state;
    rng r = {5};
    pto_tile *owned = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    tile_fill(owned, &r, GEN_POSITIVE);
    pto_buffer *view = NULL;
    assert_int_equal(pto_buffer_wrap(pto_tile_data(owned), 4 * 8 * sizeof(float), &view), PTO_OK);
    pto_tile *alias = place(view, PTO_FLOAT32, 4, 8, 0, 4, 8);           /* identical */
    pto_tile *half = place(view, PTO_FLOAT32, 2, 8, 2 * 8 * sizeof(float), 2, 8); /* rows 2-3 */
    pto_tile *top = tile_new(PTO_FLOAT32, 2, 8, 2, 8);
    pto_tile *out = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    uint64_t *before = tile_snapshot(owned);
    /* identical placement: in place, same result as the same handle */
    assert_int_equal(pto_trsqrt(owned, alias), PTO_OK);
    pto_tile *check = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 8; ++j) tile_put(check, i, j, before[i * 8 + j]);
    assert_int_equal(pto_trsqrt(check, check), PTO_OK);
    uint64_t *in_place = tile_snapshot(check);
    assert_tile_unchanged(owned, in_place, "identically placed in place");
    /* a placed source partly over an owned dst, and the reverse */
    assert_int_equal(pto_tile_set_valid(owned, 2, 8), PTO_OK);
    assert_int_equal(pto_trsqrt(owned, half), PTO_OK); /* rows 0-1 vs rows 2-3: apart */
    assert_int_equal(pto_tile_set_valid(owned, 3, 8), PTO_OK);
    assert_int_equal(pto_tile_set_valid(half, 2, 8), PTO_OK);
    /* the row order: dst row 2 lies on src row 0, read first; then the
     * regions differ */
    assert_int_equal(pto_trsqrt(owned, half), PTO_ERR_SHAPE_MISMATCH);
    /* dst row 0 on src row 2, which would be overwritten before it is read */
    assert_int_equal(pto_tile_set_valid(owned, 4, 8), PTO_OK);
    assert_int_equal(pto_trsqrt(half, owned), PTO_ERR_ALIASING);
    assert_int_equal(pto_tile_set_valid(owned, 3, 8), PTO_OK);
    assert_int_equal(pto_trsqrt(half, top), PTO_OK);
    assert_int_equal(pto_tpartadd(out, owned, half), PTO_ERR_SHAPE_MISMATCH); /* only reads */
    free(before);
    free(in_place);
    pto_tile_destroy(alias);
    pto_tile_destroy(half);
    pto_buffer_destroy(view);
    pto_tile_destroy(owned);
    pto_tile_destroy(top);
    pto_tile_destroy(out);
    pto_tile_destroy(check);
}

/* ---- the operations on placed tiles ---- */

typedef struct {
    op_id op;
    pto_pow_algorithm algo;
    pto_dtype dt;
    uint32_t rows, cols, vr, vc, part_r, part_c; /* part: tpartadd's smaller src1 region */
} placed_case;

static size_t g_placed_calls;

/* Runs the case on owned tiles and on tiles placed at unaligned offsets of
 * one wrapped buffer (tmp placed exactly over src0), from the same inputs;
 * also with src0 placed exactly on dst (in place). */
static void run_placed_case(const placed_case *c, uint64_t seed) {
    const size_t e = pto_dtype_size(c->dt);
    const uint32_t src1_rows = c->op == OP_TCOLEXPANDDIV ? 1 : c->rows;
    uint32_t s1_vr = c->op == OP_TCOLEXPANDDIV ? 1 : c->op == OP_TPARTADD ? c->part_r : c->vr;
    uint32_t s1_vc = c->op == OP_TPARTADD ? c->part_c : c->vc;
    if (op_source_expanded(c->op, 1)) op_source_region(c->op, 1, c->vr, c->vc, &s1_vr, &s1_vc);
    rng r = {seed};
    pto_tile *od = tile_new(c->dt, c->rows, c->cols, c->vr, c->vc);
    pto_tile *o0 = tile_new(c->dt, c->rows, c->cols, c->vr, c->vc);
    pto_tile *o1 = tile_new(c->dt, src1_rows, c->cols, s1_vr, s1_vc);
    pto_tile *ot = tile_new(c->dt, c->rows, c->cols, c->vr, c->vc);
    const gen_kind k0 = c->op == OP_TPOW ? GEN_POW_BASE : c->op == OP_TRSQRT ? GEN_POSITIVE : GEN_ANY;
    tile_fill(od, &r, GEN_ANY);
    tile_fill(o0, &r, k0);
    tile_fill(o1, &r, c->op == OP_TPOW ? GEN_POW_EXP : GEN_ANY);
    tile_put(o1, 0, 0, exact_scalar(c->dt, tile_get(o1, 0, 0))); /* a Scalar row's scalar */
    uint64_t *in0 = tile_snapshot(o0), *in1 = tile_snapshot(o1), *ind = tile_snapshot(od);

    /* wrapped memory starting 1, 2, 4 or 8 bytes past a 64-byte boundary (as
     * far as the element size allows), tiles at odd element offsets, src1
     * ending exactly where the allocation ends (so that a read past it is
     * caught by the sanitizers) */
    const size_t slot = 4096;
    const size_t tile_bytes = (size_t)c->rows * c->cols * e;
    assert_true(tile_bytes + 7 * e <= slot);
    const size_t len = 2 * slot + 5 * e + (size_t)src1_rows * c->cols * e;
    const size_t misalign = e == 8 ? 8 : e >= 4 ? 4 : e;
    void *memory = NULL;
    assert_int_equal(posix_memalign(&memory, 64, misalign + len), 0);
    unsigned char *start = (unsigned char *)memory + misalign;
    memset(start, 0xC3, len);
    pto_buffer *b = NULL;
    assert_int_equal(pto_buffer_wrap(start, len, &b), PTO_OK);
    pto_tile *pd = place(b, c->dt, c->rows, c->cols, 0 * slot + 1 * e, c->vr, c->vc);
    pto_tile *p0 = place(b, c->dt, c->rows, c->cols, 1 * slot + 3 * e, c->vr, c->vc);
    pto_tile *p1 = place(b, c->dt, src1_rows, c->cols, 2 * slot + 5 * e, s1_vr, s1_vc);
    pto_tile *pt = place(b, c->dt, c->rows, c->cols, 1 * slot + 3 * e, c->vr, c->vc); /* on p0 */
    for (uint32_t i = 0; i < c->rows; ++i)
        for (uint32_t j = 0; j < c->cols; ++j) {
            tile_put(pd, i, j, ind[i * c->cols + j]);
            tile_put(p0, i, j, in0[i * c->cols + j]);
        }
    for (uint32_t i = 0; i < src1_rows; ++i)
        for (uint32_t j = 0; j < c->cols; ++j) tile_put(p1, i, j, in1[i * c->cols + j]);
    unsigned char *image = malloc(len);
    memcpy(image, start, len);

    pto_tile *otmp = c->op == OP_TPOW ? ot : NULL, *ptmp = c->op == OP_TPOW ? pt : NULL;
    assert_int_equal(op_call(c->op, c->algo, od, o0, o1, otmp), PTO_OK);
    assert_int_equal(op_call(c->op, c->algo, pd, p0, p1, ptmp), PTO_OK);
    ++g_placed_calls;
    /* bit-identical to owned tiles, including dst outside its valid region */
    uint64_t *owned_out = tile_snapshot(od);
    assert_tile_unchanged(pd, owned_out, "placed dst vs owned dst");
    /* nothing else in the buffer changed: sources, tmp, gaps */
    for (size_t k = 0; k < len; ++k) {
        const size_t dst_start = 1 * e;
        if (k >= dst_start && k < dst_start + tile_bytes) continue;
        if (start[k] != image[k]) fail_msg("byte %zu outside dst changed", k);
    }
    /* against the reference, where the operation is elementwise over the
     * whole region (tpartadd: the summed corner; a reduction: its column 0
     * or row 0, the rest of dst unchanged) */
    uint64_t *reduced = NULL;
    if (op_is_reduction(c->op)) {
        reduced = malloc(sizeof(uint64_t) * (c->vr > c->vc ? c->vr : c->vc));
        op_reduce_reference(c->op, PTO_PROFILE_HOST, (int)c->algo, c->dt, pto_tile_data(o0), c->vr,
                            c->vc, c->cols, reduced);
    }
    for (uint32_t i = 0; i < c->vr; ++i)
        for (uint32_t j = 0; j < c->vc; ++j) {
            size_t i0, j0, i1, j1; /* a broadcast's expanded source: its row's or column's */
            op_source_index(c->op, 0, i, j, &i0, &j0);
            op_source_index(c->op, 1, i, j, &i1, &j1);
            const uint64_t a = in0[i0 * c->cols + j0];
            uint64_t want;
            if (reduced != NULL) {
                const bool rows = op_row(c->op)->family == OP_FAMILY_ROW_REDUCE;
                want = rows && j == 0    ? reduced[i]
                       : !rows && i == 0 ? reduced[j]
                                         : ind[i * c->cols + j];
                if (tile_get(pd, i, j) != want)
                    fail_msg("%s %s (%u,%u): 0x%" PRIx64 ", reference 0x%" PRIx64, op_name(c->op),
                             pto_dtype_string(c->dt), i, j, tile_get(pd, i, j), want);
                continue;
            } else if (op_is_broadcast(c->op)) {
                want = op_reference(c->op, c->dt, a, in1[i1 * c->cols + j1]);
            } else if (c->op == OP_TCOLEXPANDDIV) {
                want = ref_div(c->dt, a, in1[j]);
            } else if (c->op == OP_TPARTADD) {
                if (i >= c->part_r || j >= c->part_c) continue;
                want = ref_add(c->dt, a, in1[i * c->cols + j]);
            } else if (op_row(c->op)->family == OP_FAMILY_SCALAR ||
                       op_row(c->op)->family == OP_FAMILY_FILL) { /* src1(0,0) is the scalar */
                want = op_reference(c->op, c->dt, a, in1[0]);
            } else {
                want = op_reference(c->op, c->dt, a, in1[i * c->cols + j]);
            }
            const uint64_t got = tile_get(pd, i, j);
            if (!within_tolerance(c->dt, op_tolerance(c->op, c->dt, c->algo, want), want, got))
                fail_msg("%s %s (%u,%u): 0x%" PRIx64 ", reference 0x%" PRIx64, op_name(c->op),
                         pto_dtype_string(c->dt), i, j, got, want);
        }

    /* in place: src0 placed exactly on dst (a different handle) gives what
     * the same handle gives */
    for (uint32_t i = 0; i < c->rows; ++i)
        for (uint32_t j = 0; j < c->cols; ++j) {
            tile_put(od, i, j, in0[i * c->cols + j]);
            tile_put(pd, i, j, in0[i * c->cols + j]);
        }
    pto_tile *on_dst = place(b, c->dt, c->rows, c->cols, pto_tile_offset(pd), c->vr, c->vc);
    assert_int_equal(op_call(c->op, c->algo, od, od, o1, otmp), PTO_OK);
    assert_int_equal(op_call(c->op, c->algo, pd, on_dst, p1, ptmp), PTO_OK);
    free(owned_out);
    owned_out = tile_snapshot(od);
    assert_tile_unchanged(pd, owned_out, "identically placed in place vs same handle");

    pto_tile *all[] = {od, o0, o1, ot, pd, p0, p1, pt, on_dst};
    for (size_t k = 0; k < COUNT(all); ++k) pto_tile_destroy(all[k]);
    pto_buffer_destroy(b);
    free(memory);
    free(image);
    free(owned_out);
    free(in0);
    free(in1);
    free(ind);
    free(reduced);
}

static bool host_supports(op_id op, pto_pow_algorithm algo, pto_dtype dt) {
    /* tcvt's source has another dtype than dst: its placed and in-place
     * cases are test_tcvt's test_rules. */
    if (op_converts(op)) return false;
    /* tfillpad writes dst's whole storage, not its valid region: its placed
     * and in-place cases are test_tfillpad's. */
    if (op_tested_apart(op)) return false;
    if (op_row(op)->family != OP_FAMILY_SPECIAL) return op_accepts(op, PTO_PROFILE_HOST, dt);
    if (op == OP_TRSQRT || op == OP_TCOLEXPANDDIV) return dt == PTO_FLOAT32 || dt == PTO_FLOAT16;
    if (op == OP_TPOW && algo == PTO_POW_HIGH_PRECISION) return ref_is_float(dt);
    return op_accepts(op, PTO_PROFILE_HOST, dt);
}

static void placed_ops_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    (void)target;
    static const uint32_t kShapes[][6] = {
        /* rows, cols, valid rows, valid cols, tpartadd src1 valid rows, cols */
        {1, 1, 1, 1, 1, 1},
        {3, 37, 3, 37, 2, 20},
        {2, 70, 2, 65, 2, 65},
        {5, 17, 4, 9, 1, 3},
    };
    for (int op = 0; op < OP_COUNT; ++op)
        for (int algo = 0; algo <= (op == OP_TPOW ? 1 : 0); ++algo)
            for (int dt = PTO_INT8; dt < TEST_DTYPE_COUNT; ++dt) {
                if (!host_supports((op_id)op, (pto_pow_algorithm)algo, (pto_dtype)dt)) continue;
                for (size_t s = 0; s < COUNT(kShapes); ++s) {
                    const placed_case c = {(op_id)op, (pto_pow_algorithm)algo, (pto_dtype)dt,
                                           kShapes[s][0], kShapes[s][1], kShapes[s][2],
                                           kShapes[s][3], kShapes[s][4], kShapes[s][5]};
                    run_placed_case(&c, 31 * target_index + 7 * s + 1000 * (uint64_t)op + (uint64_t)dt);
                }
            }
}

/* Placed tiles always go through the full check, owned ones of one shape
 * through the C functions' common call: the 1x1 rows compare the two paths. */
static void test_placed_ops_every_target(void **state) {
    (void)state;
    g_placed_calls = 0;
    for_each_target("placed tiles at unaligned offsets", placed_ops_body, NULL);
    print_message("[placement] %zu placed calls bit-identical to owned tiles\n", g_placed_calls);
}

/* tcolexpanddiv with dst placed exactly on a 1-row src1: every row divided by
 * the original row 0 (on every target: the kernel must read the divisor row
 * before it writes dst's row 0). */
static void colexpanddiv_on_divisor_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    (void)target;
    static const pto_dtype kTypes[] = {PTO_FLOAT32, PTO_FLOAT16};
    for (size_t t = 0; t < COUNT(kTypes); ++t) {
        const pto_dtype dt = kTypes[t];
        const size_t e = pto_dtype_size(dt);
        rng r = {9 + target_index};
        pto_buffer *b = buffer_new(4096);
        pto_tile *dst = place(b, dt, 4, 21, e, 4, 21);
        pto_tile *divisor = place(b, dt, 1, 21, e, 1, 21);
        pto_tile *src0 = tile_new(dt, 4, 21, 4, 21);
        tile_fill(dst, &r, GEN_ANY);
        tile_fill(src0, &r, GEN_ANY);
        uint64_t *row0 = tile_snapshot(divisor), *in = tile_snapshot(src0);
        assert_int_equal(pto_tcolexpanddiv(dst, src0, divisor), PTO_OK);
        for (uint32_t i = 0; i < 4; ++i)
            for (uint32_t j = 0; j < 21; ++j)
                assert_int_equal(ref_ulp_steps(dt, tile_get(dst, i, j),
                                               ref_div(dt, in[i * 21 + j], row0[j])), 0);
        /* a divisor row overlapping dst's row 1 partially: refused */
        pto_tile *skew = place(b, dt, 1, 21, e + 22 * e, 1, 21);
        assert_int_equal(pto_tcolexpanddiv(dst, src0, skew), PTO_ERR_ALIASING);
        free(row0);
        free(in);
        pto_tile_destroy(dst);
        pto_tile_destroy(divisor);
        pto_tile_destroy(skew);
        pto_tile_destroy(src0);
        pto_buffer_destroy(b);
    }
}

static void test_colexpanddiv_on_divisor(void **state) {
    (void)state;
    for_each_target("tcolexpanddiv with dst on its divisor row", colexpanddiv_on_divisor_body, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_api),
        cmocka_unit_test(test_create_at_rules),
        cmocka_unit_test(test_placed_tile_bytes),
        cmocka_unit_test(test_lifetime_every_order),
        cmocka_unit_test(test_overlap_cases),
        cmocka_unit_test(test_buffer_over_tile_data),
        cmocka_unit_test(test_overlap_matches_bytes),
        cmocka_unit_test(test_overlap_mixed_and_long),
        cmocka_unit_test(test_colexpanddiv_on_divisor),
        cmocka_unit_test(test_placed_ops_every_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
