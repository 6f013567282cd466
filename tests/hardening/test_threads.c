/*
 * Thread safety: distinct tiles may be used concurrently from any threads,
 * pto_last_error() and the profile belong to the calling thread, and placed
 * tiles may be released on any thread.
 *
 * kThreads threads start together (so the first SIMD dispatch races too) and
 * each runs rounds of: create its own tiles, successful operations checked
 * against exact expectations, and failing calls whose messages carry a number
 * only that thread uses. Between a thread's failure and its check of
 * pto_last_error() every thread fails differently (a barrier forces the
 * interleaving), so a shared message buffer would be caught. One tile that
 * every thread only reads is used by all of them at once. Run under
 * ThreadSanitizer by tests/run-all.sh.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pto_c.h"

enum { kThreads = 8, kRounds = 40, kRows = 5, kCols = 37 };

static pthread_barrier_t barrier;
/* Read by every thread at once (tiles that are only read may be shared). */
static pto_tile *shared_slope;

/* cmocka's assertions are not thread-safe; workers report with this. */
#define EXPECT(cond, ...)                                                   \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "thread %u: ", w->id);                          \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, "\n");                                          \
            w->failures++;                                                  \
        }                                                                   \
    } while (0)

typedef struct {
    unsigned id;
    int failures;
} worker;

/* A failure whose sentence is unique to this thread and round:
 * set_valid beyond the tile names the requested region. */
static void fail_uniquely(worker *w, pto_tile *t, unsigned round, char *expected, size_t n) {
    const uint32_t rows = 1000 + w->id, cols = 2000 + round;
    const pto_status s = pto_tile_set_valid(t, rows, cols);
    EXPECT(s == PTO_ERR_OUT_OF_RANGE, "set_valid returned %s", pto_status_string(s));
    snprintf(expected, n, "valid region %ux%u", rows, cols);
}

static void run_round(worker *w, unsigned round) {
    const size_t n = (size_t)kRows * kCols;
    pto_tile *a = NULL, *b = NULL, *dst = NULL, *i32 = NULL;
    EXPECT(pto_tile_create(PTO_FLOAT32, kRows, kCols, &a) == PTO_OK, "create a");
    EXPECT(pto_tile_create(PTO_FLOAT32, kRows, kCols, &b) == PTO_OK, "create b");
    EXPECT(pto_tile_create(PTO_FLOAT32, kRows, kCols, &dst) == PTO_OK, "create dst");
    EXPECT(pto_tile_create(PTO_INT32, kRows, kCols, &i32) == PTO_OK, "create i32");
    if (a == NULL || b == NULL || dst == NULL || i32 == NULL) goto done;

    /* Values depend on the thread, so results from another thread's tiles
     * would not match. */
    float va[kRows * kCols], vb[kRows * kCols], out[kRows * kCols];
    for (size_t k = 0; k < n; k++) {
        va[k] = (float)((int)(k % 7) - 3) * (float)(w->id + 1);
        vb[k] = (float)(1u << (k % 4)) * 0.5f;
    }
    EXPECT(pto_tile_write_f32(a, va, n) == PTO_OK, "write a");
    EXPECT(pto_tile_write_f32(b, vb, n) == PTO_OK, "write b");

    /* Successful operations, checked exactly (all values are small dyadic
     * rationals, so every result is exact). */
    EXPECT(pto_tprelu(dst, a, b, NULL) == PTO_OK, "prelu");
    EXPECT(pto_tile_read_f32(dst, out, n) == PTO_OK, "read prelu");
    for (size_t k = 0; k < n; k++)
        EXPECT(out[k] == (va[k] > 0 ? va[k] : va[k] * vb[k]), "prelu element %zu", k);
    EXPECT(pto_tprelu(dst, a, shared_slope, NULL) == PTO_OK, "prelu with the shared slope");
    EXPECT(pto_tile_read_f32(dst, out, n) == PTO_OK, "read shared prelu");
    for (size_t k = 0; k < n; k++)
        EXPECT(out[k] == (va[k] > 0 ? va[k] : va[k] * -0.25f), "shared prelu element %zu", k);

    EXPECT(pto_tpartadd(dst, a, b) == PTO_OK, "partadd");
    EXPECT(pto_tile_read_f32(dst, out, n) == PTO_OK, "read partadd");
    for (size_t k = 0; k < n; k++) EXPECT(out[k] == va[k] + vb[k], "partadd element %zu", k);

    EXPECT(pto_tcolexpanddiv(dst, a, b) == PTO_OK, "colexpanddiv");
    EXPECT(pto_tile_read_f32(dst, out, n) == PTO_OK, "read colexpanddiv");
    for (size_t k = 0; k < n; k++)
        EXPECT(out[k] == va[k] / vb[k % kCols], "colexpanddiv element %zu", k);

    EXPECT(pto_trsqrt(dst, b) == PTO_OK, "rsqrt");
    pto_tile *tmp = NULL;
    EXPECT(pto_tile_create(PTO_INT32, kRows, kCols, &tmp) == PTO_OK, "create tmp");
    EXPECT(pto_tpow(i32, i32, i32, tmp, PTO_POW_DEFAULT) == PTO_OK, "pow");
    pto_tile_destroy(tmp);

    /* Failures: each thread's message must survive the others'. */
    char expected[64];
    fail_uniquely(w, a, round, expected, sizeof(expected));
    pthread_barrier_wait(&barrier);
    EXPECT(pto_tprelu(dst, a, i32, NULL) == PTO_ERR_DTYPE_MISMATCH, "mismatched prelu");
    EXPECT(strstr(pto_last_error(), "pto_tprelu") != NULL, "own prelu message");
    fail_uniquely(w, b, round, expected, sizeof(expected));
    pthread_barrier_wait(&barrier);
    EXPECT(strstr(pto_last_error(), expected) != NULL,
           "pto_last_error() is \"%s\", not this thread's \"%s\"", pto_last_error(), expected);
    /* A successful call leaves the message alone. */
    EXPECT(pto_tpartadd(dst, a, b) == PTO_OK, "partadd after failure");
    EXPECT(strstr(pto_last_error(), expected) != NULL, "message kept after success");

done:
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(dst);
    pto_tile_destroy(i32);
}

static void *worker_main(void *arg) {
    worker *w = arg;
    pthread_barrier_wait(&barrier);
    EXPECT(pto_simd_target() != NULL, "simd target");
    EXPECT(strcmp(pto_last_error(), "") == 0, "a new thread's last error is not empty");
    for (unsigned round = 0; round < kRounds; round++) run_round(w, round);
    return NULL;
}

static void test_threads_mixed_calls(void **state) {
    (void)state;
    pthread_t threads[kThreads];
    worker workers[kThreads];
    assert_int_equal(pthread_barrier_init(&barrier, NULL, kThreads), 0);
    float slope[kRows * kCols];
    for (size_t k = 0; k < (size_t)kRows * kCols; k++) slope[k] = -0.25f;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, kRows, kCols, &shared_slope), PTO_OK);
    assert_int_equal(pto_tile_write_f32(shared_slope, slope, (size_t)kRows * kCols), PTO_OK);
    for (unsigned i = 0; i < kThreads; i++) {
        workers[i] = (worker){i, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, worker_main, &workers[i]), 0);
    }
    int failures = 0;
    for (unsigned i = 0; i < kThreads; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        failures += workers[i].failures;
    }
    pthread_barrier_destroy(&barrier);
    pto_tile_destroy(shared_slope);
    assert_int_equal(failures, 0);
}

/* Tiles created on one thread and used on another (one at a time) work. */
static void *use_foreign_tile(void *arg) {
    pto_tile *t = arg;
    const float ones[4] = {1, 1, 1, 1};
    if (pto_tile_write_f32(t, ones, 4) != PTO_OK) return t;
    if (pto_trsqrt(t, t) != PTO_OK) return t;
    pto_tile_destroy(t);
    return NULL;
}

static void test_tile_handed_between_threads(void **state) {
    (void)state;
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 2, 2, &t), PTO_OK);
    pthread_t thread;
    void *result = t;
    assert_int_equal(pthread_create(&thread, NULL, use_foreign_tile, t), 0);
    assert_int_equal(pthread_join(thread, &result), 0);
    assert_null(result);
}

/* Placed tiles of one buffer are used and destroyed on several threads while
 * the main thread destroys the buffer handle: the last release, wherever it
 * happens, frees the storage exactly once (ASan, valgrind and
 * ThreadSanitizer check it). Each thread also runs under its own profile. */
typedef struct {
    pto_tile *tile;
    pto_profile profile;
    int failures;
} placed_worker;

static void *use_and_release_placed(void *arg) {
    placed_worker *w = arg;
    int bad = 0;
    if (pto_get_profile() != PTO_PROFILE_HOST) bad++;
    if (pto_set_profile(w->profile) != PTO_OK) bad++;
    pthread_barrier_wait(&barrier);
    const float v[8] = {1, 4, 9, 16, 25, 36, 49, 64};
    float out[8];
    if (pto_tile_write_f32(w->tile, v, 8) != PTO_OK) bad++;
    if (pto_trsqrt(w->tile, w->tile) != PTO_OK) bad++;
    if (pto_tile_read_f32(w->tile, out, 8) != PTO_OK || out[1] != 0.5f) bad++;
    /* A2A3 requires tprelu's tmp; HOST and A5 do not. */
    const pto_status s = pto_tprelu(w->tile, w->tile, w->tile, NULL);
    if (s != (w->profile == PTO_PROFILE_A2A3 ? PTO_ERR_NULL_ARGUMENT : PTO_OK)) bad++;
    if (pto_get_profile() != w->profile) bad++;
    pto_tile_destroy(w->tile);
    w->failures = bad;
    return NULL;
}

static void test_placed_tiles_released_across_threads(void **state) {
    (void)state;
    assert_int_equal(pthread_barrier_init(&barrier, NULL, kThreads + 1), 0);
    for (int round = 0; round < 20; round++) {
        pto_buffer *b = NULL;
        unsigned char memory[kThreads * 40];
        if (round % 2) {
            assert_int_equal(pto_buffer_wrap(memory, sizeof(memory), &b), PTO_OK);
        } else {
            assert_int_equal(pto_buffer_create(kThreads * 32, &b), PTO_OK);
        }
        pthread_t threads[kThreads];
        placed_worker workers[kThreads];
        for (unsigned i = 0; i < kThreads; i++) {
            workers[i] = (placed_worker){NULL, (pto_profile)(i % 3), 0};
            assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 2, 4, b, i * 32, &workers[i].tile),
                             PTO_OK);
            assert_int_equal(pthread_create(&threads[i], NULL, use_and_release_placed, &workers[i]), 0);
        }
        pthread_barrier_wait(&barrier);
        pto_buffer_destroy(b); /* races with the threads' destroys */
        for (unsigned i = 0; i < kThreads; i++) {
            assert_int_equal(pthread_join(threads[i], NULL), 0);
            assert_int_equal(workers[i].failures, 0);
        }
    }
    pthread_barrier_destroy(&barrier);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_mixed_calls),
        cmocka_unit_test(test_tile_handed_between_threads),
        cmocka_unit_test(test_placed_tiles_released_across_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
