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
 * every thread only reads is used by all of them at once.
 *
 * Program launches share one pool of threads: several threads launch two
 * programs at once, and a child process launches after fork while its
 * parent's threads are launching. Run under ThreadSanitizer by
 * tests/run-all.sh.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pto_c.h"
#include "../support/rows_kernel.h"

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

/* ---- program launches ---- */

enum { kMostBlocks = 6, kElements = kMostBlocks * 8 * 128 };

static pto_program *programs[2]; /* ROWS_KERNEL: y = x * x + x, y = x + x + x */

static pto_program *create_program(const char *text) {
    pto_program *p = NULL;
    if (pto_program_create(text, strlen(text), "rows.pto", &p) != PTO_OK) fail_msg("%s", pto_last_error());
    return p;
}

/* PTO_NUM_THREADS: set to value, its previous value returned for restore_threads. */
static char *set_threads(const char *value) {
    const char *old = getenv("PTO_NUM_THREADS");
    char *saved = old != NULL ? strdup(old) : NULL;
    setenv("PTO_NUM_THREADS", value, 1);
    return saved;
}

static void restore_threads(char *saved) {
    if (saved != NULL) setenv("PTO_NUM_THREADS", saved, 1);
    else unsetenv("PTO_NUM_THREADS");
    free(saved);
}

static void create_programs(void) {
    programs[0] = create_program(ROWS_KERNEL("tmul"));
    programs[1] = create_program(ROWS_KERNEL("tadd"));
}

static void destroy_programs(void) {
    pto_program_destroy(programs[0]);
    pto_program_destroy(programs[1]);
}

/* Launches programs[which] on `blocks` blocks over x, y (kElements floats);
 * returns the number of elements that differ from the expected results (x
 * are small multiples of 1/2, so they are exact), or -1 if the launch failed. */
static int launch_and_count_errors(int which, uint32_t blocks, const float *x, float *y) {
    pto_program *p = programs[which];
    pto_args *a = NULL;
    int errors = -1;
    if (pto_args_create(p, &a) != PTO_OK || pto_args_set_pointer(a, 0, (void *)x, kElements * 4) != PTO_OK ||
        pto_args_set_pointer(a, 1, y, kElements * 4) != PTO_OK || pto_args_set_int(a, 2, (int64_t)blocks * 8) != PTO_OK)
        goto done;
    for (int i = 0; i < kElements; ++i) y[i] = -1.0f;
    if (pto_program_launch(p, blocks, a) != PTO_OK) goto done;
    errors = 0;
    for (int i = 0; i < kElements; ++i) {
        const float want = i >= (int)blocks * 8 * 128 ? -1.0f : which == 0 ? x[i] * x[i] + x[i] : x[i] + x[i] + x[i];
        if (y[i] != want) ++errors;
    }
done:
    pto_args_destroy(a);
    return errors;
}

typedef struct {
    unsigned id;
    int failures;
} launcher;

/* 60 launches alternating the two programs on 1 to 6 blocks, over values
 * that only this thread uses. */
static void *launch_many(void *arg) {
    launcher *w = arg;
    float x[kElements], y[kElements];
    for (int i = 0; i < kElements; ++i) x[i] = (float)((int)((unsigned)i % 29) - 14 + (int)w->id) * 0.5f;
    pthread_barrier_wait(&barrier);
    for (unsigned k = 0; k < 60; ++k) {
        const int errors = launch_and_count_errors((int)((k + w->id) % 2), 1 + (k + w->id) % kMostBlocks, x, y);
        if (errors != 0) {
            fprintf(stderr, "thread %u, launch %u: %d wrong elements (-1: the launch failed: %s)\n", w->id, k, errors,
                    pto_last_error());
            w->failures++;
        }
    }
    return NULL;
}

/* Four threads launch at once, with more pool threads (PTO_NUM_THREADS=4)
 * than this machine may have CPUs: every launch runs all its blocks. */
static void test_launches_from_several_threads(void **state) {
    (void)state;
    enum { kLaunchers = 4 };
    create_programs();
    char *saved = set_threads("4");
    assert_int_equal(pthread_barrier_init(&barrier, NULL, kLaunchers), 0);
    pthread_t threads[kLaunchers];
    launcher launchers[kLaunchers];
    for (unsigned i = 0; i < kLaunchers; i++) {
        launchers[i] = (launcher){i, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, launch_many, &launchers[i]), 0);
    }
    int failures = 0;
    for (unsigned i = 0; i < kLaunchers; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        failures += launchers[i].failures;
    }
    pthread_barrier_destroy(&barrier);
    restore_threads(saved);
    destroy_programs();
    assert_int_equal(failures, 0);
}

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

static atomic_int keep_launching;

static void *launch_until_told(void *arg) {
    launcher *w = arg;
    float x[kElements], y[kElements];
    for (int i = 0; i < kElements; ++i) x[i] = (float)(i % 9) * 0.5f;
    while (atomic_load(&keep_launching))
        if (launch_and_count_errors(0, kMostBlocks, x, y) != 0) w->failures++;
    return NULL;
}

/* A child process launches after fork: the pool's threads did not survive
 * the fork (and one of them, or a thread of the parent launching in the
 * background, may have held the pool's lock), so the child starts a pool of
 * its own. Each
 * child launches twice on 6 blocks and exits 0 if the results are right; an
 * alarm ends a child that hangs. ThreadSanitizer forbids starting threads
 * in the child of a multi-threaded process: there the child runs its blocks
 * on one thread (PTO_NUM_THREADS=1). */
static void test_launch_in_a_forked_child(void **state) {
    (void)state;
    create_programs();
    char *saved = set_threads("3");
    float x[kElements], y[kElements];
    for (int i = 0; i < kElements; ++i) x[i] = (float)(i % 13) * 0.5f;
    assert_int_equal(launch_and_count_errors(1, kMostBlocks, x, y), 0); /* the pool exists */
    atomic_store(&keep_launching, 1);
    /* Not under valgrind: a forked child's leak check would count what the
     * parent's launching thread held when it was lost (its arguments, its
     * block's state) as leaked. */
    const bool background_launches = getenv("PTO_TEST_UNDER_VALGRIND") == NULL;
    launcher background = {99, 0};
    pthread_t thread;
    if (background_launches)
        assert_int_equal(pthread_create(&thread, NULL, launch_until_told, &background), 0);
    for (int round = 0; round < 8; ++round) {
        const pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            alarm(60);
#ifdef UNDER_TSAN
            setenv("PTO_NUM_THREADS", "1", 1);
#endif
            const int errors = launch_and_count_errors(round % 2, kMostBlocks, x, y) +
                               launch_and_count_errors((round + 1) % 2, kMostBlocks - 1, x, y);
            _exit(errors == 0 ? 0 : 1);
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("round %d: the child %s %d", round, WIFEXITED(status) ? "exited with" : "was killed by signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    }
    atomic_store(&keep_launching, 0);
    if (background_launches) assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(background.failures, 0);
    assert_int_equal(launch_and_count_errors(0, kMostBlocks, x, y), 0); /* the parent's pool still works */
    restore_threads(saved);
    destroy_programs();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_mixed_calls),
        cmocka_unit_test(test_tile_handed_between_threads),
        cmocka_unit_test(test_placed_tiles_released_across_threads),
        cmocka_unit_test(test_launches_from_several_threads),
        cmocka_unit_test(test_launch_in_a_forked_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
