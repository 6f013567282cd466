/* The library queries and the tile API: version, status names, dtype sizes,
 * creation (alignment, zero fill, limits, failures that leave *out alone),
 * accessors on NULL, valid regions, whole-tile copies, and the float
 * conversions (round to nearest even) on every SIMD target. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "support/harness.h"

static void assert_last_error_names(const char *function, const char *operand) {
    const char *message = pto_last_error();
    assert_non_null(message);
    if (strstr(message, function) == NULL || strstr(message, operand) == NULL)
        fail_msg("pto_last_error() \"%s\" should name %s and %s", message, function, operand);
}

static void test_version(void **state) {
    (void)state;
    char expected[32];
    snprintf(expected, sizeof(expected), "%d.%d.%d", PTO_VERSION_MAJOR, PTO_VERSION_MINOR,
             PTO_VERSION_PATCH);
    assert_string_equal(pto_version_string(), expected);
    assert_string_equal(pto_version_string(), PTO_VERSION_STRING);
    /* meson.build's project version, passed by tests/meson.build. */
    assert_string_equal(PTO_VERSION_STRING, PTO_PROJECT_VERSION);
}

static void test_status_strings(void **state) {
    (void)state;
    static const struct {
        pto_status status;
        const char *name;
    } kNames[] = {
        {PTO_OK, "PTO_OK"},
        {PTO_ERR_NULL_ARGUMENT, "PTO_ERR_NULL_ARGUMENT"},
        {PTO_ERR_INVALID_ARGUMENT, "PTO_ERR_INVALID_ARGUMENT"},
        {PTO_ERR_UNSUPPORTED_DTYPE, "PTO_ERR_UNSUPPORTED_DTYPE"},
        {PTO_ERR_DTYPE_MISMATCH, "PTO_ERR_DTYPE_MISMATCH"},
        {PTO_ERR_SHAPE_MISMATCH, "PTO_ERR_SHAPE_MISMATCH"},
        {PTO_ERR_OUT_OF_RANGE, "PTO_ERR_OUT_OF_RANGE"},
        {PTO_ERR_ALIASING, "PTO_ERR_ALIASING"},
        {PTO_ERR_OUT_OF_MEMORY, "PTO_ERR_OUT_OF_MEMORY"},
        {(pto_status)9, "PTO_STATUS_UNKNOWN"},
        {(pto_status)-1, "PTO_STATUS_UNKNOWN"},
        {(pto_status)1000, "PTO_STATUS_UNKNOWN"},
    };
    for (size_t i = 0; i < COUNT(kNames); ++i)
        assert_string_equal(pto_status_string(kNames[i].status), kNames[i].name);
    assert_int_equal(PTO_OK, 0);
    assert_int_equal(PTO_ERR_OUT_OF_MEMORY, 8);
}

static void test_dtype_size(void **state) {
    (void)state;
    static const size_t kSizes[] = {1, 1, 2, 2, 4, 4, 2, 2, 4, 8, 8, 1, 1, 1, 1, 1, 1, 1};
    assert_int_equal(COUNT(kSizes), TEST_DTYPE_COUNT);
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) assert_int_equal(pto_dtype_size((pto_dtype)dt), kSizes[dt]);
    assert_int_equal(pto_dtype_size((pto_dtype)TEST_DTYPE_COUNT), 0);
    assert_int_equal(pto_dtype_size((pto_dtype)-1), 0);
    assert_int_equal(pto_dtype_size((pto_dtype)0x7FFFFFFF), 0);
}

static void test_dtype_strings(void **state) {
    (void)state;
    static const char *const kNames[] = {"INT8",    "UINT8",    "INT16",   "UINT16",
                                         "INT32",   "UINT32",   "FLOAT16", "BFLOAT16",
                                         "FLOAT32", "INT64",    "UINT64",  "FLOAT8_E4M3",
                                         "FLOAT8_E5M2", "HIFLOAT8", "FLOAT8_E8M0",
                                         "FLOAT4_E2M1X2", "FLOAT4_E1M2X2", "INT4X2"};
    assert_int_equal(COUNT(kNames), TEST_DTYPE_COUNT);
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt)
        assert_string_equal(pto_dtype_string((pto_dtype)dt), kNames[dt]);
    static const int kOutside[] = {TEST_DTYPE_COUNT, TEST_DTYPE_COUNT + 1, -1, 1000, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof(kOutside) / sizeof(kOutside[0]); ++i)
        assert_string_equal(pto_dtype_string((pto_dtype)kOutside[i]), "UNKNOWN");
}

static void test_create_every_dtype(void **state) {
    (void)state;
    static const uint32_t kShapes[][2] = {{1, 1}, {3, 17}, {13, 7}, {64, 64}, {1, 1000}, {257, 3}};
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
        for (size_t s = 0; s < COUNT(kShapes); ++s) {
            pto_tile *t = NULL;
            assert_int_equal(pto_tile_create((pto_dtype)dt, kShapes[s][0], kShapes[s][1], &t), PTO_OK);
            assert_non_null(t);
            assert_int_equal(pto_tile_dtype(t), dt);
            assert_int_equal(pto_tile_rows(t), kShapes[s][0]);
            assert_int_equal(pto_tile_cols(t), kShapes[s][1]);
            assert_int_equal(pto_tile_valid_rows(t), kShapes[s][0]);
            assert_int_equal(pto_tile_valid_cols(t), kShapes[s][1]);
            const unsigned char *data = pto_tile_data(t);
            assert_non_null(data);
            assert_int_equal((uintptr_t)data % 64, 0);
            const size_t bytes = (size_t)kShapes[s][0] * kShapes[s][1] * pto_dtype_size((pto_dtype)dt);
            for (size_t i = 0; i < bytes; ++i)
                if (data[i] != 0) fail_msg("%s tile byte %zu is 0x%x, not zero", pto_dtype_string((pto_dtype)dt), i, data[i]);
            pto_tile_destroy(t);
        }
    }
}

/* Tiles of 4 MiB or more start on a 2 MiB boundary on Linux (for
 * transparent huge pages, src/alloc.cc), zero-filled up to their last byte. */
static void test_create_large(void **state) {
    (void)state;
    static const uint32_t kShapes[][2] = {{1024, 1024}, {1023, 1025}, {2048, 1024}};
    for (size_t s = 0; s < COUNT(kShapes); ++s) {
        pto_tile *t = NULL;
        assert_int_equal(pto_tile_create(PTO_FLOAT32, kShapes[s][0], kShapes[s][1], &t), PTO_OK);
        const unsigned char *data = pto_tile_data(t);
        assert_non_null(data);
#if defined(__linux__)
        assert_int_equal((uintptr_t)data % (2u << 20), 0);
#else
        assert_int_equal((uintptr_t)data % 64, 0);
#endif
        const size_t bytes = (size_t)kShapes[s][0] * kShapes[s][1] * sizeof(float);
        for (size_t i = 0; i < bytes; ++i)
            if (data[i] != 0) fail_msg("%ux%u tile byte %zu is 0x%x, not zero", kShapes[s][0], kShapes[s][1], i, data[i]);
        pto_tile_destroy(t);
    }
}

static void test_null_handles(void **state) {
    (void)state;
    assert_int_equal(pto_tile_dtype(NULL), 0);
    assert_int_equal(pto_tile_rows(NULL), 0);
    assert_int_equal(pto_tile_cols(NULL), 0);
    assert_int_equal(pto_tile_valid_rows(NULL), 0);
    assert_int_equal(pto_tile_valid_cols(NULL), 0);
    assert_null(pto_tile_data(NULL));
    pto_tile_destroy(NULL);
    assert_int_equal(pto_tile_set_valid(NULL, 1, 1), PTO_ERR_NULL_ARGUMENT);
    assert_last_error_names("pto_tile_set_valid", "tile");
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 1, 1, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_last_error_names("pto_tile_create", "out");
}

static void test_create_limits(void **state) {
    (void)state;
    static const struct {
        int dtype;
        uint32_t rows, cols;
        pto_status expected;
        const char *mentions;
    } kCases[] = {
        {TEST_DTYPE_COUNT, 4, 4, PTO_ERR_INVALID_ARGUMENT, "dtype"},
        {-1, 4, 4, PTO_ERR_INVALID_ARGUMENT, "dtype"},
        {PTO_FLOAT32, 0, 4, PTO_ERR_INVALID_ARGUMENT, "zero"},
        {PTO_FLOAT32, 4, 0, PTO_ERR_INVALID_ARGUMENT, "zero"},
        {PTO_INT8, 0, 0, PTO_ERR_INVALID_ARGUMENT, "zero"},
        {PTO_UINT8, 1u << 14, (1u << 14) + 1, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
        {PTO_FLOAT32, 1u << 13, (1u << 13) + 1, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
        {PTO_BFLOAT16, 1, (1u << 27) + 1, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
        {PTO_UINT32, UINT32_MAX, UINT32_MAX, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
        {PTO_INT16, 1u << 31, 1u << 31, PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
        /* the limit counts 8 bytes an element */
        {PTO_INT64, 2, (uint32_t)(PTO_TILE_MAX_BYTES / 8), PTO_ERR_INVALID_ARGUMENT, "PTO_TILE_MAX_BYTES"},
    };
    assert_true(PTO_TILE_MAX_BYTES >= ((size_t)16 << 20));
    assert_true((uint64_t)PTO_TILE_MAX_BYTES < (UINT64_C(1) << 40));
    for (size_t i = 0; i < COUNT(kCases); ++i) {
        pto_tile *const sentinel = (pto_tile *)(uintptr_t)0x1234;
        pto_tile *out = sentinel;
        assert_int_equal(pto_tile_create((pto_dtype)kCases[i].dtype, kCases[i].rows, kCases[i].cols, &out),
                         kCases[i].expected);
        assert_ptr_equal(out, sentinel);
        assert_last_error_names("pto_tile_create", kCases[i].mentions);
    }
    /* Exactly PTO_TILE_MAX_BYTES is allowed. */
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(PTO_UINT8, (uint32_t)(PTO_TILE_MAX_BYTES >> 12), 1u << 12, &t), PTO_OK);
    assert_non_null(t);
    pto_tile_destroy(t);
}

/* Lowers the address-space limit so that a large tile cannot be allocated. */
static void test_create_out_of_memory(void **state) {
    (void)state;
    if (getenv("PTO_TEST_UNDER_VALGRIND") != NULL) {
        print_message("[tiles] RLIMIT_AS does not bind valgrind's allocator: out-of-memory not testable\n");
        skip();
    }
    skip_under_qemu("tiles", "qemu-user ignores RLIMIT_AS");
    struct rlimit saved;
    assert_int_equal(getrlimit(RLIMIT_AS, &saved), 0);
    long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    assert_non_null(statm);
    assert_int_equal(fscanf(statm, "%ld", &pages), 1);
    fclose(statm);
    struct rlimit low = saved;
    low.rlim_cur = (rlim_t)pages * 4096 + ((rlim_t)64 << 20);
    if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < low.rlim_cur) low.rlim_cur = saved.rlim_cur;
    assert_int_equal(setrlimit(RLIMIT_AS, &low), 0);
    pto_tile *const sentinel = (pto_tile *)(uintptr_t)0x5678;
    pto_tile *out = sentinel;
    const pto_status status = pto_tile_create(PTO_FLOAT32, 1u << 13, 1u << 13, &out);
    assert_int_equal(setrlimit(RLIMIT_AS, &saved), 0);
    assert_int_equal(status, PTO_ERR_OUT_OF_MEMORY);
    assert_ptr_equal(out, sentinel);
    assert_last_error_names("pto_tile_create", "allocate");
}

static void test_set_valid(void **state) {
    (void)state;
    pto_tile *t = tile_new(PTO_INT16, 5, 9, 5, 9);
    static const struct {
        uint32_t vr, vc;
        pto_status expected;
    } kCases[] = {
        {0, 0, PTO_OK}, {5, 9, PTO_OK}, {0, 9, PTO_OK}, {5, 0, PTO_OK}, {2, 3, PTO_OK},
        {6, 9, PTO_ERR_OUT_OF_RANGE}, {5, 10, PTO_ERR_OUT_OF_RANGE}, {6, 10, PTO_ERR_OUT_OF_RANGE},
        {UINT32_MAX, 1, PTO_ERR_OUT_OF_RANGE}, {1, UINT32_MAX, PTO_ERR_OUT_OF_RANGE},
    };
    for (size_t i = 0; i < COUNT(kCases); ++i) {
        const uint32_t before_r = pto_tile_valid_rows(t), before_c = pto_tile_valid_cols(t);
        assert_int_equal(pto_tile_set_valid(t, kCases[i].vr, kCases[i].vc), kCases[i].expected);
        if (kCases[i].expected == PTO_OK) {
            assert_int_equal(pto_tile_valid_rows(t), kCases[i].vr);
            assert_int_equal(pto_tile_valid_cols(t), kCases[i].vc);
        } else {
            assert_int_equal(pto_tile_valid_rows(t), before_r);
            assert_int_equal(pto_tile_valid_cols(t), before_c);
            assert_last_error_names("pto_tile_set_valid", "valid region");
        }
        assert_int_equal(pto_tile_rows(t), 5);
        assert_int_equal(pto_tile_cols(t), 9);
    }
    pto_tile_destroy(t);
}

static void test_write_read(void **state) {
    (void)state;
    rng r = {42};
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
        const size_t bytes = 13 * 7 * pto_dtype_size((pto_dtype)dt);
        pto_tile *t = tile_new((pto_dtype)dt, 13, 7, 13, 7);
        unsigned char in[13 * 7 * 8 + 1], out[13 * 7 * 8 + 1], before[13 * 7 * 8 + 1];
        for (size_t i = 0; i < bytes; ++i) in[i] = (unsigned char)rng_next(&r);
        assert_int_equal(pto_tile_write(t, in, bytes), PTO_OK);
        assert_memory_equal(pto_tile_data(t), in, bytes);
        memset(out, 0xEE, sizeof(out));
        assert_int_equal(pto_tile_read(t, out, bytes), PTO_OK);
        assert_memory_equal(out, in, bytes);
        assert_int_equal(out[bytes], 0xEE);

        /* Failures change neither the tile nor the buffer. */
        memcpy(before, out, sizeof(out));
        const size_t wrong[] = {bytes - 1, bytes + 1, 0, bytes / 2, SIZE_MAX};
        for (size_t w = 0; w < COUNT(wrong); ++w) {
            assert_int_equal(pto_tile_write(t, before + 1, wrong[w]), PTO_ERR_INVALID_ARGUMENT);
            assert_last_error_names("pto_tile_write", "nbytes");
            assert_int_equal(pto_tile_read(t, out, wrong[w]), PTO_ERR_INVALID_ARGUMENT);
            assert_last_error_names("pto_tile_read", "nbytes");
            assert_memory_equal(pto_tile_data(t), in, bytes);
            assert_memory_equal(out, before, sizeof(out));
        }
        assert_int_equal(pto_tile_write(NULL, in, bytes), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_write", "tile");
        assert_int_equal(pto_tile_write(t, NULL, bytes), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_write", "src");
        assert_int_equal(pto_tile_read(NULL, out, bytes), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_read", "tile");
        assert_int_equal(pto_tile_read(t, NULL, bytes), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_read", "dst");
        assert_memory_equal(pto_tile_data(t), in, bytes);
        pto_tile_destroy(t);
    }
}

static void test_f32_io_errors(void **state) {
    (void)state;
    float values[6 * 5];
    for (size_t i = 0; i < COUNT(values); ++i) values[i] = (float)i + 0.5f;
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
        pto_tile *t = tile_new((pto_dtype)dt, 6, 5, 6, 5);
        rng r = {(uint64_t)dt};
        tile_fill(t, &r, GEN_ANY);
        uint64_t *before = tile_snapshot(t);
        float out[6 * 5 + 1];
        memset(out, 0x5A, sizeof(out));
        unsigned char out_before[sizeof(out)];
        memcpy(out_before, out, sizeof(out));
        if (!ref_is_float((pto_dtype)dt)) {
            assert_int_equal(pto_tile_write_f32(t, values, 30), PTO_ERR_UNSUPPORTED_DTYPE);
            assert_last_error_names("pto_tile_write_f32", "tile");
            assert_int_equal(pto_tile_read_f32(t, out, 30), PTO_ERR_UNSUPPORTED_DTYPE);
            assert_last_error_names("pto_tile_read_f32", "tile");
        }
        const size_t wrong[] = {29, 31, 0, SIZE_MAX};
        for (size_t w = 0; w < COUNT(wrong) && ref_is_float((pto_dtype)dt); ++w) {
            assert_int_equal(pto_tile_write_f32(t, values, wrong[w]), PTO_ERR_INVALID_ARGUMENT);
            assert_last_error_names("pto_tile_write_f32", "count");
            assert_int_equal(pto_tile_read_f32(t, out, wrong[w]), PTO_ERR_INVALID_ARGUMENT);
            assert_last_error_names("pto_tile_read_f32", "count");
        }
        assert_int_equal(pto_tile_write_f32(NULL, values, 30), PTO_ERR_NULL_ARGUMENT);
        assert_int_equal(pto_tile_write_f32(t, NULL, 30), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_write_f32", "src");
        assert_int_equal(pto_tile_read_f32(NULL, out, 30), PTO_ERR_NULL_ARGUMENT);
        assert_int_equal(pto_tile_read_f32(t, NULL, 30), PTO_ERR_NULL_ARGUMENT);
        assert_last_error_names("pto_tile_read_f32", "dst");
        assert_tile_unchanged(t, before, "tile after failed f32 copies");
        assert_memory_equal(out, out_before, sizeof(out));
        free(before);
        pto_tile_destroy(t);
    }
}

/* ---- float conversions on every target ---- */

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}
static float f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* Floats that stress narrowing to dt: every value of dt, the midpoints
 * between neighbours (ties) and one float either side of each, overflow
 * around the largest value, NaNs whose payload lives only in the low bits,
 * and random floats. Returns the count written to out (capacity 2^19). */
static size_t narrowing_inputs(pto_dtype dt, float *out, rng *r) {
    size_t n = 0;
    for (uint32_t bits = 0; bits < 0x10000u; bits += 1) {
        const double v = ref_to_double(dt, bits);
        out[n++] = (float)v;
        if (!isfinite(v)) continue;
        const double next = ref_to_double(dt, bits + 1);
        if (!isfinite(next) || (bits & 0x7FFFu) == 0x7FFFu) continue;
        const float mid = (float)((v + next) / 2); /* exact in float for both types */
        out[n++] = mid;
        out[n++] = nextafterf(mid, INFINITY);
        out[n++] = nextafterf(mid, -INFINITY);
    }
    static const uint32_t kExtra[] = {0x7F800001u, 0xFF800001u, 0x7F80FFFFu, 0x7FC00000u,
                                      0x7FFFFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x00000001u,
                                      0x80000001u, 0x477FF000u, 0x477FEFFFu, 0x477FF001u,
                                      0x7F7F8000u, 0x7F7F7FFFu, 0x33000000u, 0x33000001u};
    for (size_t i = 0; i < COUNT(kExtra); ++i) out[n++] = f32_from_bits(kExtra[i]);
    while (n < (1u << 19)) out[n++] = f32_from_bits((uint32_t)rng_next(r));
    return n;
}

static void conversions_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    const size_t n = 1u << 19;
    float *in = malloc(n * sizeof(float)), *back = malloc(n * sizeof(float));
    assert_non_null(in);
    assert_non_null(back);
    static const pto_dtype kTypes[] = {PTO_FLOAT16, PTO_BFLOAT16};
    for (size_t k = 0; k < COUNT(kTypes); ++k) {
        const pto_dtype dt = kTypes[k];
        rng r = {1000 + target_index};
        assert_int_equal(narrowing_inputs(dt, in, &r), n);
        pto_tile *t = tile_new(dt, (uint32_t)(n / 512), 512, 1, 1);
        assert_int_equal(pto_tile_write_f32(t, in, n), PTO_OK);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t want = ref_from_double(dt, (double)in[i]);
            const uint32_t got = tile_get(t, i / 512, i % 512);
            const bool ok = ref_is_nan(dt, want) ? ref_is_nan(dt, got) : got == want;
            if (!ok)
                fail_msg("write_f32 %s on %s: float 0x%08x (%.9g) gave 0x%04x, expected 0x%04x",
                         pto_dtype_string(dt), target, f32_bits(in[i]), in[i], got, want);
        }
        /* Widening: every bit pattern, exactly. */
        for (size_t i = 0; i < n; ++i) tile_put(t, i / 512, i % 512, (uint32_t)(i & 0xFFFFu));
        assert_int_equal(pto_tile_read_f32(t, back, n), PTO_OK);
        for (size_t i = 0; i < 0x10000u; ++i) {
            const double want = ref_to_double(dt, (uint32_t)i);
            const bool ok = isnan(want) ? isnan(back[i])
                                        : f32_bits(back[i]) == f32_bits((float)want);
            if (!ok)
                fail_msg("read_f32 %s on %s: 0x%04zx gave %.9g, expected %.9g", pto_dtype_string(dt),
                         target, i, back[i], want);
        }
        pto_tile_destroy(t);
    }
    /* FLOAT32 tiles copy bit for bit, NaN payloads included. */
    pto_tile *t = tile_new(PTO_FLOAT32, 1, 4096, 1, 1);
    for (size_t i = 0; i < 4096; ++i) in[i] = f32_from_bits((uint32_t)(i * 0x9E3779B1u) | (i % 7 == 0 ? 0x7F800000u : 0));
    assert_int_equal(pto_tile_write_f32(t, in, 4096), PTO_OK);
    assert_int_equal(pto_tile_read_f32(t, back, 4096), PTO_OK);
    assert_memory_equal(back, in, 4096 * sizeof(float));
    assert_memory_equal(pto_tile_data(t), in, 4096 * sizeof(float));
    pto_tile_destroy(t);
    free(in);
    free(back);
}

static void test_f32_conversions(void **state) {
    (void)state;
    for_each_target("write_f32/read_f32 (f16, bf16, f32)", conversions_body, NULL);
}

/* The reference's narrowing agrees with the compiler's for float32, where
 * both exist, so the f16/bf16 variant of the same code can be trusted. */
static void test_reference_narrowing(void **state) {
    (void)state;
    rng r = {7};
    for (int i = 0; i < 1000000; ++i) {
        double x;
        const uint64_t bits = rng_next(&r);
        memcpy(&x, &bits, sizeof(x));
        if (i % 2) x = ldexp((double)(bits >> 11), (int)(bits % 340) - 220);
        const uint32_t want = f32_bits((float)x);
        const uint32_t got = ref_round_binary(x, 23, 8);
        if (isnan(x) ? !isnan(f32_from_bits(got)) : got != want)
            fail_msg("reference narrowing of %a: 0x%08x, cast gives 0x%08x", x, got, want);
    }
    assert_int_equal(ref_from_double(PTO_FLOAT16, 65520.0), 0x7C00);  /* tie at the top: inf */
    assert_int_equal(ref_from_double(PTO_FLOAT16, 65519.99), 0x7BFF);
    assert_int_equal(ref_from_double(PTO_FLOAT16, 0x1p-25), 0x0000);  /* tie to even zero */
    assert_int_equal(ref_from_double(PTO_FLOAT16, 0x1.8p-24), 0x0002);
    assert_int_equal(ref_from_double(PTO_FLOAT16, -0x1.000001p-25), 0x8001);
    assert_int_equal(ref_from_double(PTO_BFLOAT16, 1.0 + 0x1p-8), 0x3F80);
    assert_int_equal(ref_from_double(PTO_BFLOAT16, 1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
    assert_int_equal(ref_from_double(PTO_BFLOAT16, 1.0 + 0x3p-8), 0x3F82);
    assert_true(ref_to_double(PTO_FLOAT16, 0x0001) == 0x1p-24);
    assert_true(ref_to_double(PTO_BFLOAT16, 0x8001) == -0x1p-133);
    assert_int_equal(ref_ulp_steps(PTO_FLOAT16, 0x8000, 0x0000), 0);
    assert_int_equal(ref_ulp_steps(PTO_FLOAT16, 0x8001, 0x0001), 2);
    assert_int_equal(ref_ulp_steps(PTO_FLOAT16, 0x7BFE, 0x7BFF), 1);
    assert_true(ref_ulp_steps(PTO_FLOAT16, 0x7BFF, 0x7C00) == UINT64_MAX);
    assert_true(ref_ulp_steps(PTO_FLOAT16, 0x7E00, 0x7C00) == UINT64_MAX);
    assert_int_equal(ref_ulp_steps(PTO_FLOAT16, 0x7E00, 0xFE01), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_dtype_size),
        cmocka_unit_test(test_dtype_strings),
        cmocka_unit_test(test_create_every_dtype),
        cmocka_unit_test(test_create_large),
        cmocka_unit_test(test_null_handles),
        cmocka_unit_test(test_create_limits),
        cmocka_unit_test(test_create_out_of_memory),
        cmocka_unit_test(test_set_valid),
        cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_f32_io_errors),
        cmocka_unit_test(test_reference_narrowing),
        cmocka_unit_test(test_f32_conversions),
    };
    return cmocka_run_group_tests_name("tiles", tests, NULL, NULL);
}
