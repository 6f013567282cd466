/* libpto-runtime (pto_runtime.h) on the project's own orchestrations
 * (tests/runtime/work/orchestration, written in PyPTO's form against the
 * PTO2 API) and kernels (work/kernels): dependencies through tensors and
 * set_dependencies, scopes and the runtime's tensors, views, a mixed cube
 * and vector task, two vector lanes, blocks, tasks that overlap on several
 * workers and the same bytes on one, and the errors: a cycle, a task that
 * can never run, an unknown kernel, a kernel's own error, a view outside
 * its tensor, an API name the runtime lacks; the tap (pto_runtime_set_tap)
 * reading each task's views before and after its kernel; board mode
 * (pto_runtime_set_board_mode), a mixed task with one vector lane and a
 * prefetch's workspace the run binds, under A5. Every result is checked
 * against a reference computed here (small integers: every float is
 * exact). PTO_RUNTIME_WORK names the work directory; the compiled
 * orchestrations go to PTO_RUNTIME_CACHE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pto_runtime.h"

#define N16 256 /* elements of a 16 x 16 matrix */

static const char *work_dir(void) {
    const char *w = getenv("PTO_RUNTIME_WORK");
    if (w == NULL) fail_msg("PTO_RUNTIME_WORK is not set");
    return w;
}

static pto_runtime *session(const char *orchestration, uint32_t workers) {
    pto_runtime *rt = NULL;
    if (pto_runtime_open(work_dir(), &rt) != PTO_OK) fail_msg("open: %s", pto_runtime_last_error());
    const char *cache = getenv("PTO_RUNTIME_CACHE");
    if (cache != NULL) assert_int_equal(pto_runtime_set_cache_dir(rt, cache), PTO_OK);
    assert_int_equal(pto_runtime_set_orchestration(rt, orchestration), PTO_OK);
    assert_int_equal(pto_runtime_set_workers(rt, workers), PTO_OK);
    return rt;
}

static pto_runtime_args *new_args(void) {
    pto_runtime_args *a = NULL;
    assert_int_equal(pto_runtime_args_create(&a), PTO_OK);
    return a;
}

static void done(pto_runtime *rt, pto_runtime_args *a) {
    pto_runtime_args_destroy(a);
    pto_runtime_close(rt);
}

/* The last run's tasks; the most that ran at once in *most (if not NULL). */
static uint64_t tasks_run(const pto_runtime *rt, uint32_t *most) {
    uint64_t tasks = 0;
    assert_int_equal(pto_runtime_last_run_stats(rt, &tasks, most), PTO_OK);
    return tasks;
}

/* Appends n row-major float32 tensors of the given rows x cols. */
static void add_f32(pto_runtime_args *a, float *data, uint64_t rows, uint64_t cols) {
    const uint64_t shape[2] = {rows, cols};
    if (pto_runtime_args_add_tensor(a, data, rows * cols * sizeof(float), "float32", shape, 2) != PTO_OK)
        fail_msg("add_tensor: %s", pto_runtime_last_error());
}

static void run_ok(pto_runtime *rt, pto_runtime_args *a) {
    if (pto_runtime_run(rt, a) != PTO_OK) fail_msg("run: %s", pto_runtime_last_error());
}

/* x[i] = a small integer from i and seed. */
static void fill(float *x, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) x[i] = (float)((int)((i * 7 + (size_t)seed * 13) % 9) - 4);
}

static void assert_floats(const float *got, const float *want, size_t n, const char *what) {
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) fail_msg("%s[%zu] = %g, expected %g", what, i, (double)got[i], (double)want[i]);
}

/* ------------------------------------------------------------------------ */

/* out = 2 out + y four times in order: 16 out + 15 y only if each task ran
 * after the one before. */
static void chain_run(uint32_t workers, uint32_t order, float *out) {
    float y[N16];
    fill(y, N16, 1);
    fill(out, N16, 2);
    pto_runtime *rt = session("orchestration/chain.cpp", workers);
    assert_int_equal(pto_runtime_set_order(rt, order), PTO_OK);
    pto_runtime_args *a = new_args();
    add_f32(a, y, 16, 16);
    add_f32(a, out, 16, 16);
    run_ok(rt, a);
    uint32_t most = 0;
    assert_int_equal(tasks_run(rt, &most), 4);
    assert_int_equal(most, 1); /* a chain never overlaps */
    done(rt, a);
}

static void test_chain(void **state) {
    (void)state;
    float y[N16], out0[N16], want[N16], got1[N16], got2[N16], got3[N16];
    fill(y, N16, 1);
    fill(out0, N16, 2);
    for (size_t i = 0; i < N16; i++) want[i] = 16 * out0[i] + 15 * y[i];
    chain_run(1, PTO_RUNTIME_ORDER_ALL, got1);
    chain_run(2, PTO_RUNTIME_ORDER_ALL, got2);
    /* Each task reads out as an input: PTO2's orders keep the chain too. */
    chain_run(2, PTO_RUNTIME_ORDER_PTO2, got3);
    assert_floats(got1, want, N16, "out (1 worker)");
    assert_floats(got2, want, N16, "out (2 workers)");
    assert_floats(got3, want, N16, "out (2 workers, PTO2's orders)");
    printf("[chain] four dependent tasks in order on 1 and 2 workers, and in PTO2's orders: out = 16 out + 15 y\n");
}

/* ------------------------------------------------------------------------ */

/* views.cpp on m, t, r; with tap (if not NULL) set for its AFTER events. */
static void views_run(uint32_t workers, float *m, float *t, float *r, pto_runtime_tap_fn tap, void *user) {
    float y[N16];
    fill(y, N16, 3);
    fill(m, 16 * 64, 4);
    memset(t, 0, N16 * sizeof(float));
    memset(r, 0, N16 * sizeof(float));
    pto_runtime *rt = session("orchestration/views.cpp", workers);
    if (tap != NULL) assert_int_equal(pto_runtime_set_tap(rt, PTO_RUNTIME_TAP_AFTER, tap, user), PTO_OK);
    pto_runtime_args *a = new_args();
    add_f32(a, m, 16, 64);
    add_f32(a, y, 16, 16);
    add_f32(a, t, 16, 16);
    add_f32(a, r, 16, 16);
    run_ok(rt, a);
    assert_int_equal(tasks_run(rt, NULL), 6);
    done(rt, a);
}

static void test_views(void **state) {
    (void)state;
    float y[N16], m0[16 * 64], want_m[16 * 64], want_t[N16], want_r[N16];
    fill(y, N16, 3);
    fill(m0, 16 * 64, 4);
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 64; c++) want_m[i * 64 + c] = (float)(c / 16 + 2) * m0[i * 64 + c];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) want_t[i * 16 + j] = want_m[j * 64 + 16 + i];
    for (int i = 0; i < N16; i++) want_r[i] = y[i] + want_t[i];
    static float m1[16 * 64], t1[N16], r1[N16], m2[16 * 64], t2[N16], r2[N16];
    views_run(1, m1, t1, r1, NULL, NULL);
    views_run(2, m2, t2, r2, NULL, NULL);
    assert_floats(m1, want_m, 16 * 64, "m");
    assert_floats(t1, want_t, N16, "t");
    assert_floats(r1, want_r, N16, "r");
    assert_memory_equal(m1, m2, sizeof m1);
    assert_memory_equal(t1, t2, sizeof t1);
    assert_memory_equal(r1, r2, sizeof r1);
    printf("[views] column blocks (row stride 64), a transposed block, a reshaped tensor: exact, "
           "the same bytes on 1 and 2 workers\n");
}

/* ------------------------------------------------------------------------ */

static void scopes_run(uint32_t workers, int64_t n, float *out) {
    float x[N16];
    fill(x, N16, 5);
    memset(out, 0, N16 * sizeof(float));
    pto_runtime *rt = session("orchestration/scopes.cpp", workers);
    pto_runtime_args *a = new_args();
    add_f32(a, x, 16, 16);
    add_f32(a, out, 16, 16);
    assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)n), PTO_OK);
    run_ok(rt, a);
    assert_int_equal(tasks_run(rt, NULL), (uint64_t)(3 * n + 1));
    done(rt, a);
}

static void test_scopes(void **state) {
    (void)state;
    const int64_t n = 5;
    float x[N16], want[N16], got1[N16], got2[N16];
    fill(x, N16, 5);
    for (int i = 0; i < N16; i++) want[i] = (float)(n * (n + 1) / 2) * x[i] + 1;
    want[N16 - 1] = 2 * (float)(n * (n + 1) / 2) * x[0];
    scopes_run(1, n, got1);
    scopes_run(2, n, got2);
    assert_floats(got1, want, N16, "out (1 worker)");
    assert_floats(got2, want, N16, "out (2 workers)");
    printf("[scopes] a tensor allocated in each of %d scopes, task OUTPUTs, an initial value, "
           "get_tensor_data and set_tensor_data after their writers\n", (int)n);
}

/* ------------------------------------------------------------------------ */

static void test_mixed(void **state) {
    (void)state;
    float a[N16], b[N16], bias[N16], x[N16], want_c[N16], want_d[N16], want_e[N16];
    static float big_x[64 * 16], want_big[64 * 16];
    fill(a, N16, 6);
    fill(b, N16, 7);
    fill(bias, N16, 8);
    fill(x, N16, 9);
    fill(big_x, 64 * 16, 10);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float s = 0;
            for (int k = 0; k < 16; k++) s += a[i * 16 + k] * b[k * 16 + j];
            want_c[i * 16 + j] = s;
            want_d[i * 16 + j] = s + bias[i * 16 + j];
        }
    for (int i = 0; i < N16; i++) want_e[i] = 2 * x[i];
    for (int i = 0; i < 64 * 16; i++) want_big[i] = 4 * big_x[i];
    for (uint32_t workers = 1; workers <= 2; workers++) {
        float c[N16] = {0}, d[N16] = {0}, e[N16] = {0};
        static float big_out[64 * 16];
        memset(big_out, 0, sizeof big_out);
        pto_runtime *rt = session("orchestration/mixed.cpp", workers);
        pto_runtime_args *args = new_args();
        add_f32(args, a, 16, 16);
        add_f32(args, b, 16, 16);
        add_f32(args, bias, 16, 16);
        add_f32(args, x, 16, 16);
        add_f32(args, c, 16, 16);
        add_f32(args, d, 16, 16);
        add_f32(args, e, 16, 16);
        add_f32(args, big_x, 64, 16);
        add_f32(args, big_out, 64, 16);
        run_ok(rt, args);
        assert_floats(c, want_c, N16, "c (cube)");
        assert_floats(d, want_d, N16, "d (mixed)");
        assert_floats(e, want_e, N16, "e (two vector lanes)");
        assert_floats(big_out, want_big, 64 * 16, "big_out (4 blocks)");
        done(rt, args);
    }
    printf("[mixed] a cube task, a mixed cube + vector task through a pipe, a vector kernel on two lanes, "
           "a task on 4 blocks\n");
}

/* ------------------------------------------------------------------------ */

static uint32_t spin_run(uint32_t workers, int64_t mode, uint32_t order) {
    const int64_t iters = 40000;
    float x[8 * 16], out[8 * 16];
    fill(x, 8 * 16, 11);
    memset(out, 0, sizeof out);
    pto_runtime *rt = session("orchestration/spin.cpp", workers);
    assert_int_equal(pto_runtime_set_order(rt, order), PTO_OK);
    pto_runtime_args *a = new_args();
    add_f32(a, x, 8, 16);
    add_f32(a, out, 8, 16);
    assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)mode), PTO_OK);
    assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)iters), PTO_OK);
    run_ok(rt, a);
    for (int i = 0; i < 8 * 16; i++)
        if (out[i] != x[i] + (float)iters) fail_msg("mode %d: out[%d] = %g", (int)mode, i, (double)out[i]);
    uint32_t most = 0;
    assert_int_equal(tasks_run(rt, &most), 8);
    done(rt, a);
    return most;
}

static void test_concurrency(void **state) {
    (void)state;
    const uint32_t independent = spin_run(2, 0, PTO_RUNTIME_ORDER_ALL);
    const uint32_t serial = spin_run(2, 1, PTO_RUNTIME_ORDER_ALL);
    const uint32_t barrier = spin_run(2, 2, PTO_RUNTIME_ORDER_ALL);
    const uint32_t one = spin_run(1, 0, PTO_RUNTIME_ORDER_ALL);
    /* Each task writes its row of the `out` it declares whole: one after
     * another unless the session keeps PTO2's orders; set_dependencies
     * still orders under PTO2's. */
    const uint32_t whole = spin_run(2, 3, PTO_RUNTIME_ORDER_ALL);
    const uint32_t whole_pto2 = spin_run(2, 3, PTO_RUNTIME_ORDER_PTO2);
    const uint32_t serial_pto2 = spin_run(2, 1, PTO_RUNTIME_ORDER_PTO2);
    /* Eight independent tasks of some milliseconds on two workers: both
     * workers run one at once (a task takes far longer than a worker takes
     * to pick the next one up). */
    assert_int_equal(independent, 2);
    assert_int_equal(serial, 1);
    assert_true(barrier >= 1 && barrier <= 2);
    assert_int_equal(one, 1);
    assert_int_equal(whole, 1);
    assert_int_equal(whole_pto2, 2);
    assert_int_equal(serial_pto2, 1);
    printf("[concurrency] 8 independent tasks on 2 workers: %u at once; chained by set_dependencies: %u; "
           "behind a dummy barrier: %u; on 1 worker: %u; each writing a row of a whole output: %u, "
           "in PTO2's orders %u (chained: %u)\n",
           independent, serial, barrier, one, whole, whole_pto2, serial_pto2);
}

/* ------------------------------------------------------------------------ */

/* errors.cpp's arguments: x, y, out (16 x 16 each) and case `which`. */
static pto_runtime_args *errors_args(float *x, float *y, float *out, int64_t which) {
    pto_runtime_args *a = new_args();
    add_f32(a, x, 16, 16);
    add_f32(a, y, 16, 16);
    add_f32(a, out, 16, 16);
    assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)which), PTO_OK);
    return a;
}

/* Runs errors.cpp with `which`; returns the status, the sentence in msg. */
static pto_status errors_run(int64_t which, char *msg, size_t n) {
    float x[N16], y[N16], out[N16];
    fill(x, N16, 12);
    fill(y, N16, 13);
    memset(out, 0, sizeof out);
    pto_runtime *rt = session("orchestration/errors.cpp", 2);
    pto_runtime_args *a = errors_args(x, y, out, which);
    const pto_status st = pto_runtime_run(rt, a);
    snprintf(msg, n, "%s", pto_runtime_last_error());
    if (st == PTO_OK) {
        for (int i = 0; i < N16; i++) assert_true(out[i] == x[i] + y[i]);
        /* The session runs again after an error, and an error leaves it
         * usable: run once more. */
        memset(out, 0, sizeof out);
        run_ok(rt, a);
        for (int i = 0; i < N16; i++) assert_true(out[i] == x[i] + y[i]);
    }
    done(rt, a);
    return st;
}

static void expect_error(int64_t which, pto_status status, const char *const *parts) {
    char msg[2048];
    const pto_status st = errors_run(which, msg, sizeof msg);
    if (st != status) fail_msg("which %d: status %d, expected %d (%s)", (int)which, st, status, msg);
    for (; *parts != NULL; parts++)
        if (strstr(msg, *parts) == NULL) fail_msg("which %d: '%s' lacks '%s'", (int)which, msg, *parts);
    printf("[errors] %d: %s\n", (int)which, msg);
}

static void test_errors(void **state) {
    (void)state;
    char msg[2048];
    assert_int_equal(errors_run(0, msg, sizeof msg), PTO_OK);
    expect_error(1, PTO_ERR_INVALID_ARGUMENT,
                 (const char *const[]){"dependency cycle", "errors.cpp:", "task 0", "task 1", "axpy.pto", NULL});
    expect_error(2, PTO_ERR_INVALID_ARGUMENT, (const char *const[]){"can never run", "task 99", "errors.cpp:", NULL});
    expect_error(3, PTO_ERR_INVALID_ARGUMENT,
                 (const char *const[]){"errors.cpp:", "kernel id 42 is not in the kernel table", NULL});
    expect_error(4, PTO_ERR_OUT_OF_RANGE, (const char *const[]){"errors.cpp:", "task 0", "axpy.pto:", "error:", NULL});
    expect_error(5, PTO_ERR_INVALID_ARGUMENT, (const char *const[]){"errors.cpp:", "view", "outside", NULL});
    expect_error(6, PTO_ERR_INVALID_ARGUMENT, (const char *const[]){"can never run", "task 0", NULL});
    expect_error(7, PTO_ERR_INVALID_ARGUMENT,
                 (const char *const[]){"errors.cpp:", "takes 3 parameters", "2 tensors and 0 scalars", NULL});
    expect_error(8, PTO_ERR_INVALID_ARGUMENT, (const char *const[]){"kernel id 42", NULL});
}

/* ------------------------------------------------------------------------ */

/* A session of errors.cpp under A5 (the calling thread's profile, which the
 * verifications take) with the kernels its cases 9 to 11 submit: 10 the
 * cube kernel board_mm.pto, 11 and 12 one_lane.pto's cube and vector
 * functions, 13 prefetch.pto. */
static pto_runtime *a5_session(uint32_t workers) {
    pto_runtime *rt = session("orchestration/errors.cpp", workers);
    assert_int_equal(pto_runtime_add_kernel(rt, 10, "aic", "kernels/board_mm.pto", NULL), PTO_OK);
    assert_int_equal(pto_runtime_add_kernel(rt, 11, "aic", "kernels/one_lane.pto", "one_lane_aic"), PTO_OK);
    assert_int_equal(pto_runtime_add_kernel(rt, 12, "aiv", "kernels/one_lane.pto", "one_lane_aiv"), PTO_OK);
    assert_int_equal(pto_runtime_add_kernel(rt, 13, "aiv", "kernels/prefetch.pto", NULL), PTO_OK);
    return rt;
}

/* Runs errors.cpp's case `which` on x, y and out (16 x 16 each). */
static pto_status run_case(pto_runtime *rt, int64_t which, float *x, float *y, float *out) {
    pto_runtime_args *a = errors_args(x, y, out, which);
    const pto_status st = pto_runtime_run(rt, a);
    pto_runtime_args_destroy(a);
    return st;
}

/* c = x y for 16 x 16 matrices (small integers: exact in float). */
static void matmul16(const float *x, const float *y, float *c) {
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float sum = 0;
            for (int k = 0; k < 16; k++) sum += x[i * 16 + k] * y[k * 16 + j];
            c[i * 16 + j] = sum;
        }
}

struct warnings {
    int count;
    int tmatmul_acc;  /* those naming pto_tmatmul_acc's M rule */
};

static void count_warning(const char *message, void *user) {
    struct warnings *w = user;
    w->count++;
    if (strstr(message, "pto_tmatmul_acc: board mode: a valid rows 8 differ from dst valid rows 16 (M)") != NULL)
        w->tmatmul_acc++;
}

/* Board mode (pto_runtime_set_board_mode): a cube kernel whose
 * tmatmul.acc takes a left tile of 8 valid rows into an accumulator typed
 * with 16 is refused by default, located; in board mode, on 1 and 2
 * workers, it runs as the NPU implementations do (M = the left tile's 8
 * rows: out's rows 0..7 hold 2 x y, rows 8..15 x y), each occurrence a
 * warning to the session's handler, counted; the calling thread's own board
 * mode is left off. */
static void test_board_mode(void **state) {
    (void)state;
    float x[N16], y[N16], out[N16], want[N16];
    fill(x, N16, 21);
    fill(y, N16, 22);
    matmul16(x, y, want);
    for (int i = 0; i < 8 * 16; i++) want[i] *= 2;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);

    pto_runtime *rt = a5_session(2);
    assert_int_equal(pto_runtime_prepare(rt), PTO_ERR_SHAPE_MISMATCH);
    const char *msg = pto_runtime_last_error();
    assert_non_null(strstr(msg, "kernel 10"));
    assert_non_null(strstr(msg, "board_mm.pto:39:5: error: pto_tmatmul_acc: a valid rows 8 differ from dst valid rows 16"));
    printf("[board] default: %s\n", msg);
    pto_runtime_close(rt);

    for (uint32_t workers = 1; workers <= 2; workers++) {
        struct warnings w = {0, 0};
        rt = a5_session(workers);
        assert_int_equal(pto_runtime_set_board_mode(rt, 1), PTO_OK);
        assert_int_equal(pto_runtime_set_warning_handler(rt, count_warning, &w), PTO_OK);
        if (pto_runtime_prepare(rt) != PTO_OK) fail_msg("board prepare: %s", pto_runtime_last_error());
        const int at_prepare = w.count;
        assert_true(at_prepare >= 1);
        memset(out, 0, sizeof out);
        if (run_case(rt, 9, x, y, out) != PTO_OK) fail_msg("board run: %s", pto_runtime_last_error());
        assert_floats(out, want, N16, "board out");
        assert_true(w.count > at_prepare);
        assert_int_equal(w.tmatmul_acc, w.count);
        uint64_t counted = 0;
        assert_int_equal(pto_runtime_board_warnings(rt, &counted), PTO_OK);
        assert_int_equal(counted, (uint64_t)w.count);
        assert_int_equal(pto_board_mode(), 0);
        assert_int_equal(pto_runtime_set_board_mode(rt, 0), PTO_ERR_INVALID_ARGUMENT);  /* prepared */
        printf("[board] %u worker%s: %d warnings (%d at prepare)\n", workers, workers > 1 ? "s" : "", w.count,
               at_prepare);
        pto_runtime_close(rt);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* A mixed task with one vector lane ({aic, aiv, INVALID_KERNEL_ID}) under
 * A5 runs the block's cube and one vector core: its vector function's
 * read-modify-write of out (out += x y) is applied once, not by two vector
 * cores; on 1 and 2 workers. */
static void test_one_vector_lane(void **state) {
    (void)state;
    float x[N16], y[N16], out[N16], want[N16];
    fill(x, N16, 23);
    fill(y, N16, 24);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (uint32_t workers = 1; workers <= 2; workers++) {
        pto_runtime *rt = a5_session(workers);
        assert_int_equal(pto_runtime_set_board_mode(rt, 1), PTO_OK);  /* kernel 10 verifies */
        assert_int_equal(pto_runtime_set_warning_handler(rt, count_warning, &(struct warnings){0, 0}), PTO_OK);
        matmul16(x, y, want);
        for (int i = 0; i < N16; i++) {
            out[i] = (float)(i % 5);
            want[i] += (float)(i % 5);
        }
        if (run_case(rt, 10, x, y, out) != PTO_OK) fail_msg("one lane: %s", pto_runtime_last_error());
        assert_floats(out, want, N16, "one lane out");
        assert_int_equal(tasks_run(rt, NULL), 1);
        pto_runtime_close(rt);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* A kernel whose pto.make_prefetch_async_context takes its workspace from
 * a parameter after the task's tensors (PyPTO's SDMA workspace, which the
 * NPU's runtime passes): the run binds it, and the kernel copies x to out;
 * on 1 and 2 workers. */
static void test_prefetch_workspace(void **state) {
    (void)state;
    float x[N16], y[N16], out[N16];
    fill(x, N16, 25);
    fill(y, N16, 26);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    for (uint32_t workers = 1; workers <= 2; workers++) {
        pto_runtime *rt = a5_session(workers);
        assert_int_equal(pto_runtime_set_board_mode(rt, 1), PTO_OK);  /* kernel 10 verifies */
        assert_int_equal(pto_runtime_set_warning_handler(rt, count_warning, &(struct warnings){0, 0}), PTO_OK);
        memset(out, 0, sizeof out);
        if (run_case(rt, 11, x, y, out) != PTO_OK) fail_msg("prefetch: %s", pto_runtime_last_error());
        assert_floats(out, x, N16, "prefetch out");
        assert_int_equal(tasks_run(rt, NULL), 1);
        pto_runtime_close(rt);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* The orchestration's argument count against its config; a compile error
 * naming a missing API name; a kernel libpto refuses, located; the
 * compiled orchestration found in the cache by a second session. */
static void test_prepare_errors(void **state) {
    (void)state;
    pto_runtime *rt = session("orchestration/errors.cpp", 1);
    pto_runtime_args *a = new_args();
    float x[N16] = {0};
    add_f32(a, x, 16, 16);
    assert_int_equal(pto_runtime_run(rt, a), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_runtime_last_error(), "takes 4 arguments"));
    printf("[prepare] %s\n", pto_runtime_last_error());
    const char *library = pto_runtime_orchestration_library(rt);
    char first[1024];
    snprintf(first, sizeof first, "%s", library);
    assert_true(first[0] == '/');
    pto_runtime *again = session("orchestration/errors.cpp", 1);
    assert_int_equal(pto_runtime_prepare(again), PTO_OK);
    assert_string_equal(pto_runtime_orchestration_library(again), first);
    pto_runtime_close(again);
    pto_runtime_close(rt);

    rt = session("orchestration/missing_api.cpp", 1);
    assert_int_equal(pto_runtime_prepare(rt), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_runtime_last_error(), "missing_api.cpp:"));
    assert_non_null(strstr(pto_runtime_last_error(), "rt_submit_vector_task"));
    printf("[prepare] %s\n", pto_runtime_last_error());
    assert_int_equal(pto_runtime_run(rt, a), PTO_ERR_INVALID_ARGUMENT);
    pto_runtime_close(rt);

    rt = session("orchestration/chain.cpp", 1);
    assert_int_equal(pto_runtime_add_kernel(rt, 7, "aiv", "kernels/refused.pto", NULL), PTO_OK);
    assert_int_equal(pto_runtime_prepare(rt), PTO_ERR_SHAPE_MISMATCH);
    assert_non_null(strstr(pto_runtime_last_error(), "kernel 7"));
    assert_non_null(strstr(pto_runtime_last_error(), "refused.pto:"));
    printf("[prepare] %s\n", pto_runtime_last_error());
    pto_runtime_close(rt);
    pto_runtime_args_destroy(a);
}

/* random.cpp's generator (xorshift64*). */
static uint32_t draw(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * UINT64_C(0x2545F4914F6CDD1D)) >> 32);
}

/* random.cpp's tasks one after another, each as axpy.pto runs on one
 * block: 8-row tiles in order, each loaded (x, then y) before it is
 * stored. */
static void random_reference(float *m, uint64_t seed, int n) {
    uint64_t state = seed | 1;
    for (int k = 0; k < n; k++) {
        const uint32_t h = 1 + draw(&state) % 16;
        uint32_t row[3], col[3];
        for (int i = 0; i < 3; i++) {
            row[i] = draw(&state) % (64 - h + 1);
            col[i] = 16 * (draw(&state) % 4);
        }
        const float alpha = draw(&state) % 2 == 0 ? -0.5f : 0.25f;
        for (uint32_t r0 = 0; r0 < h; r0 += 8) {
            const uint32_t rows = h - r0 < 8 ? h - r0 : 8;
            float tx[8][16], ty[8][16];
            for (uint32_t r = 0; r < rows; r++)
                for (int c = 0; c < 16; c++) {
                    tx[r][c] = m[(row[0] + r0 + r) * 64 + col[0] + c];
                    ty[r][c] = m[(row[1] + r0 + r) * 64 + col[1] + c];
                }
            for (uint32_t r = 0; r < rows; r++)
                for (int c = 0; c < 16; c++) {
                    volatile float scaled = tx[r][c] * alpha; /* two roundings, as tmuls then tadd */
                    m[(row[2] + r0 + r) * 64 + col[2] + c] = scaled + ty[r][c];
                }
        }
    }
}

/* Random views with every kind of overlap (random.cpp): the bytes of the
 * tasks run in order, on 1, 2 and 3 workers. */
static void test_random_views(void **state) {
    (void)state;
    static float m[64 * 64], want[64 * 64];
    const int n = 60;
    uint32_t most_seen = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        fill(want, 64 * 64, (int)seed);
        random_reference(want, seed, n);
        for (uint32_t workers = 1; workers <= 3; workers++) {
            fill(m, 64 * 64, (int)seed);
            pto_runtime *rt = session("orchestration/random.cpp", workers);
            pto_runtime_args *a = new_args();
            add_f32(a, m, 64, 64);
            assert_int_equal(pto_runtime_args_add_scalar(a, seed), PTO_OK);
            assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)n), PTO_OK);
            run_ok(rt, a);
            uint32_t most = 0;
            assert_int_equal(tasks_run(rt, &most), (uint64_t)n);
            if (most > most_seen) most_seen = most;
            if (memcmp(m, want, sizeof m) != 0) {
                for (int i = 0; i < 64 * 64; i++)
                    if (memcmp(&m[i], &want[i], sizeof(float)) != 0)
                        fail_msg("seed %d, %u workers: m[%d][%d] = %g, in order %g", (int)seed, workers, i / 64,
                                 i % 64, (double)m[i], (double)want[i]);
            }
            done(rt, a);
        }
    }
    printf("[random views] 4 seeds x %d tasks on overlapping views: the in-order bytes on 1, 2 and 3 workers "
           "(at most %u tasks at once)\n", n, most_seen);
}

/* Dispatch predicates, read after the task's dependencies (predicate.cpp). */
static void test_predicate(void **state) {
    (void)state;
    for (uint32_t workers = 1; workers <= 2; workers++) {
        int32_t flags[2] = {1, 0};
        float x[16], out1[16], out2[16];
        fill(x, 16, 15);
        for (int i = 0; i < 16; i++) out1[i] = out2[i] = -1;
        pto_runtime *rt = session("orchestration/predicate.cpp", workers);
        pto_runtime_args *a = new_args();
        const uint64_t shape[2] = {1, 2};
        assert_int_equal(pto_runtime_args_add_tensor(a, flags, sizeof flags, "int32", shape, 2), PTO_OK);
        add_f32(a, x, 1, 16);
        add_f32(a, out1, 1, 16);
        add_f32(a, out2, 1, 16);
        run_ok(rt, a);
        for (int i = 0; i < 16; i++) {
            assert_true(out1[i] == 2 * x[i]);
            assert_true(out2[i] == 3 * x[i]);
        }
        assert_int_equal(flags[1], 7);
        assert_int_equal(tasks_run(rt, NULL), 2); /* the second task's kernel did not run */
        done(rt, a);
    }
    printf("[predicate] a kernel run and one skipped by their predicates; set_tensor_data after the skipped "
           "task's read, the third task's predicate after it\n");
}

/* A scalar bound to a kernel's pointer parameter: the memory the caller
 * declared (out = table), and an address in no memory of the run refused. */
static void test_scalar_pointer(void **state) {
    (void)state;
    float table[16], out[16] = {0};
    fill(table, 16, 14);
    for (int declared = 1; declared >= 0; declared--) {
        pto_runtime *rt = session("orchestration/memory.cpp", 2);
        pto_runtime_args *a = new_args();
        add_f32(a, out, 1, 16);
        assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)(uintptr_t)table), PTO_OK);
        if (declared) {
            assert_int_equal(pto_runtime_args_add_memory(a, table, sizeof table), PTO_OK);
            run_ok(rt, a);
            assert_floats(out, table, 16, "out");
        } else {
            assert_int_equal(pto_runtime_run(rt, a), PTO_ERR_OUT_OF_RANGE);
            assert_non_null(strstr(pto_runtime_last_error(), "memory.cpp:"));
            assert_non_null(strstr(pto_runtime_last_error(), "lies in no tensor or memory of the run"));
            printf("[scalar pointer] %s\n", pto_runtime_last_error());
        }
        done(rt, a);
    }
    pto_runtime_args *a = new_args();
    assert_int_equal(pto_runtime_args_add_memory(a, NULL, 16), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_memory(a, table, 0), PTO_ERR_INVALID_ARGUMENT);
    pto_runtime_args_destroy(a);
}

/* ------------------------------------------------------------------------ */

/* What a tap saw (pto_runtime_set_tap). */
struct tap_log {
    int before, after;          /* events seen */
    int order_ok;               /* every AFTER follows its task's BEFORE, the tasks one by one */
    int64_t last_before;        /* the task of the last BEFORE (-1: none) */
    int checked;                /* axpy tasks whose out = alpha x + y was checked */
    int runtime_tensors;        /* views of tensors the run allocated */
    int wrong;                  /* views or fields not as expected */
    char what[256];             /* the first of them */
    int stop_at;                /* return nonzero at this task's AFTER (-1: never) */
    const float *caller[4];     /* the caller's arrays */
    size_t caller_bytes[4];
    const float *out0, *y;      /* chain.cpp: out before the run, y */
};

static void tap_wrong(struct tap_log *log, const char *what, uint64_t task) {
    if (log->wrong++ == 0) snprintf(log->what, sizeof log->what, "task %llu: %s", (unsigned long long)task, what);
}

static float view_at(const pto_runtime_view *v, uint64_t r, uint64_t c) {
    return ((const float *)v->data)[r * v->strides[0] + c * v->strides[1]];
}

/* Checks the fields every task of axpy.pto (kernel 0) shows, and with
 * three distinct tensors, out = alpha x + y on the views. */
static int tap_axpy(const pto_runtime_task *t, void *user) {
    struct tap_log *log = user;
    if (t->kernel_id != 0 || strcmp(t->kernel, "axpy") != 0 || strcmp(t->kernel_file, "kernels/axpy.pto") != 0 ||
        strstr(t->site_file, ".cpp") == NULL || t->site_line <= 0 || t->blocks != 1)
        tap_wrong(log, "kernel, site or blocks", t->id);
    if (t->tensor_count != 3 || t->scalar_count != 2 || t->scalars[1] == 0)
        return tap_wrong(log, "tensor or scalar count", t->id), 0;
    for (uint32_t i = 0; i < 3; i++) {
        const pto_runtime_view *v = &t->tensors[i];
        const char *lo = v->tensor, *at = v->data;
        if (strcmp(v->dtype, "float32") != 0 || v->element_size != 4 || v->ndims != 2 || at < lo ||
            at >= lo + v->tensor_bytes || (v->written != 0) != (i == 2))
            tap_wrong(log, "a view's dtype, dimensions, place or written flag", t->id);
        int mine = 0;
        for (int k = 0; k < 4; k++)
            if (log->caller[k] != NULL && (const void *)log->caller[k] == v->tensor) mine = 1;
        if (!mine && t->event == PTO_RUNTIME_TAP_AFTER) log->runtime_tensors++;
    }
    if (t->event == PTO_RUNTIME_TAP_BEFORE) {
        if (t->start_ns != 0 || t->end_ns != 0 || log->last_before != -1) log->order_ok = 0;
        log->last_before = (int64_t)t->id;
        log->before++;
        return 0;
    }
    if (t->start_ns == 0 || t->end_ns < t->start_ns) tap_wrong(log, "start_ns and end_ns", t->id);
    if ((log->before > 0 && log->last_before != (int64_t)t->id)) log->order_ok = 0;
    log->last_before = -1;
    log->after++;
    const pto_runtime_view *x = &t->tensors[0], *y = &t->tensors[1], *out = &t->tensors[2];
    if (x->data != out->data && y->data != out->data) {
        uint32_t bits = (uint32_t)t->scalars[0];
        float alpha;
        memcpy(&alpha, &bits, 4);
        for (uint64_t r = 0; r < out->shape[0]; r++)
            for (uint64_t c = 0; c < out->shape[1]; c++)
                if (view_at(out, r, c) != alpha * view_at(x, r, c) + view_at(y, r, c))
                    return tap_wrong(log, "out != alpha x + y on the views", t->id), 0;
        log->checked++;
    }
    return log->stop_at == (int)t->id ? 1 : 0;
}

static struct tap_log new_log(void) {
    struct tap_log log;
    memset(&log, 0, sizeof log);
    log.order_ok = 1;
    log.last_before = -1;
    log.stop_at = -1;
    return log;
}

/* chain.cpp's four dependent tasks (out = 2 out + y in place): before each,
 * out holds the tasks before it; after it, its own update; one by one. */
static int tap_chain(const pto_runtime_task *t, void *user) {
    struct tap_log *log = user;
    const pto_runtime_view *out = &t->tensors[t->event == PTO_RUNTIME_TAP_BEFORE ? 0 : 2];
    const float k = (float)(t->id + (t->event == PTO_RUNTIME_TAP_AFTER)); /* tasks applied */
    const float scale = (float)(1 << (int)k);
    for (int i = 0; i < N16; i++)
        if (view_at(out, (uint64_t)i / 16, (uint64_t)i % 16) != scale * log->out0[i] + (scale - 1) * log->y[i])
            return tap_wrong(log, "out is not what the tasks before gave", t->id), 0;
    return tap_axpy(t, user);
}

/* The first tensor of each task, as a tap sees it. */
struct tap_first {
    int seen;
    uint64_t strides[6][2];
    const void *data[6], *tensor[6];
};

static int tap_record_first(const pto_runtime_task *t, void *user) {
    struct tap_first *got = user;
    if (got->seen < 6 && t->tensor_count > 0) {
        got->data[got->seen] = t->tensors[0].data;
        got->tensor[got->seen] = t->tensors[0].tensor;
        got->strides[got->seen][0] = t->tensors[0].strides[0];
        got->strides[got->seen][1] = t->tensors[0].strides[1];
    }
    got->seen++;
    return 0;
}

static void test_tap(void **state) {
    (void)state;
    /* chain.cpp on 1 and 2 workers: BEFORE and AFTER, in place. */
    for (uint32_t workers = 1; workers <= 2; workers++) {
        float y[N16], out[N16], out0[N16];
        fill(y, N16, 1);
        fill(out, N16, 2);
        memcpy(out0, out, sizeof out);
        struct tap_log log = new_log();
        log.caller[0] = y;
        log.caller[1] = out;
        log.out0 = out0;
        log.y = y;
        pto_runtime *rt = session("orchestration/chain.cpp", workers);
        assert_int_equal(pto_runtime_set_tap(rt, PTO_RUNTIME_TAP_BEFORE | PTO_RUNTIME_TAP_AFTER, tap_chain, &log),
                         PTO_OK);
        pto_runtime_args *a = new_args();
        add_f32(a, y, 16, 16);
        add_f32(a, out, 16, 16);
        run_ok(rt, a);
        if (log.wrong) fail_msg("%d workers: %s", (int)workers, log.what);
        assert_int_equal(log.before, 4);
        assert_int_equal(log.after, 4);
        assert_true(log.order_ok);
        assert_int_equal(log.runtime_tensors, 0);
        /* Without a tap the session runs as before and calls nothing. */
        assert_int_equal(pto_runtime_set_tap(rt, 0, NULL, NULL), PTO_OK);
        run_ok(rt, a);
        assert_int_equal(log.after, 4);
        done(rt, a);
    }

    /* scopes.cpp: every task's out = alpha x + y read through the views in
     * the tap, most of them on tensors the run allocated and frees. */
    {
        const int64_t n = 4;
        float x[N16], out[N16];
        fill(x, N16, 5);
        memset(out, 0, sizeof out);
        struct tap_log log = new_log();
        log.caller[0] = x;
        log.caller[1] = out;
        pto_runtime *rt = session("orchestration/scopes.cpp", 2);
        assert_int_equal(pto_runtime_set_tap(rt, PTO_RUNTIME_TAP_AFTER, tap_axpy, &log), PTO_OK);
        pto_runtime_args *a = new_args();
        add_f32(a, x, 16, 16);
        add_f32(a, out, 16, 16);
        assert_int_equal(pto_runtime_args_add_scalar(a, (uint64_t)n), PTO_OK);
        run_ok(rt, a);
        if (log.wrong) fail_msg("scopes: %s", log.what);
        assert_int_equal(log.before, 0);
        assert_int_equal(log.after, 3 * n + 1);
        assert_int_equal(log.checked, 3 * n + 1);
        /* Each turn: acc, tmp (x's task); tmp, tmp, zero; tmp, zero, acc; then acc, ones (out's). */
        assert_int_equal(log.runtime_tensors, 8 * n + 2);
        done(rt, a);
        printf("[tap] %d tasks' out = alpha x + y checked in the tap, %d views of the run's own tensors\n",
               log.checked, log.runtime_tensors);
    }

    /* views.cpp: a column block's and a transposed block's strides. */
    {
        static float m[16 * 64], t[N16], r[N16];
        struct tap_first got;
        memset(&got, 0, sizeof got);
        views_run(1, m, t, r, tap_record_first, &got);
        assert_int_equal(got.seen, 6);
        for (int j = 0; j < 4; j++) {
            assert_ptr_equal(got.data[j], m + 16 * j);
            assert_ptr_equal(got.tensor[j], m);
            assert_int_equal(got.strides[j][0], 64);
            assert_int_equal(got.strides[j][1], 1);
        }
        assert_ptr_equal(got.data[4], m + 16); /* block 1 transposed */
        assert_int_equal(got.strides[4][0], 1);
        assert_int_equal(got.strides[4][1], 64);
    }

    /* A tap that stops the run after task 1: the error names the task, and
     * no task after it ran. */
    {
        float y[N16], out[N16], out0[N16];
        fill(y, N16, 1);
        fill(out, N16, 2);
        memcpy(out0, out, sizeof out);
        struct tap_log log = new_log();
        log.stop_at = 1;
        pto_runtime *rt = session("orchestration/chain.cpp", 1);
        assert_int_equal(pto_runtime_set_tap(rt, PTO_RUNTIME_TAP_AFTER, tap_axpy, &log), PTO_OK);
        pto_runtime_args *a = new_args();
        add_f32(a, y, 16, 16);
        add_f32(a, out, 16, 16);
        assert_int_equal(pto_runtime_run(rt, a), PTO_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(pto_runtime_last_error(), "task 1"));
        assert_non_null(strstr(pto_runtime_last_error(), "the tap stopped the run after the task"));
        printf("[tap] %s\n", pto_runtime_last_error());
        assert_int_equal(log.after, 2);
        for (int i = 0; i < N16; i++) assert_true(out[i] == 4 * out0[i] + 3 * y[i]); /* two tasks */
        done(rt, a);
    }

    /* The refusals. */
    pto_runtime *rt = session("orchestration/chain.cpp", 1);
    assert_int_equal(pto_runtime_set_tap(NULL, PTO_RUNTIME_TAP_AFTER, tap_axpy, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_runtime_set_tap(rt, 0, tap_axpy, NULL), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_set_tap(rt, 4, tap_axpy, NULL), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_runtime_last_error(), "pto_runtime_set_tap"));
    pto_runtime_close(rt);
}

/* The C API's own refusals. */
static void test_api_errors(void **state) {
    (void)state;
    pto_runtime *rt = NULL;
    assert_int_equal(pto_runtime_open(NULL, &rt), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_runtime_open("/nonexistent/pto-runtime", &rt), PTO_ERR_INVALID_ARGUMENT);
    assert_null(rt);
    rt = session("orchestration/chain.cpp", 1);
    assert_int_equal(pto_runtime_add_kernel(rt, 0, "aiv", "kernels/axpy.pto", NULL), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_add_kernel(rt, 9, "aie", "kernels/axpy.pto", NULL), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_add_kernel(rt, -1, "aiv", "kernels/axpy.pto", NULL), PTO_ERR_INVALID_ARGUMENT);
    const char *bad[] = {"shape(0,"};
    assert_int_equal(pto_runtime_set_kernel_dims(rt, 0, bad, 1), PTO_ERR_INVALID_ARGUMENT);
    const char *big[] = {"shape(40,0)"};
    assert_int_equal(pto_runtime_set_kernel_dims(rt, 0, big, 1), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_set_kernel_dims(rt, 99, NULL, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_set_workers(rt, 0), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_runtime_set_workers(rt, 1025), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_runtime_set_order(rt, 2), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_runtime_last_error(), "order 2"));
    assert_int_equal(pto_runtime_set_order(NULL, PTO_RUNTIME_ORDER_PTO2), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_runtime_load_table(rt, "kernels/missing_table.txt"), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_load_table(rt, "orchestration/chain.cpp"), PTO_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(pto_runtime_last_error(), "chain.cpp:1:"));
    pto_runtime_close(rt);
    pto_runtime_close(NULL);

    pto_runtime_args *a = new_args();
    float x[N16];
    const uint64_t shape[2] = {16, 16};
    const uint64_t huge[2] = {UINT64_C(1) << 32, 16};
    const uint64_t wrap[2] = {UINT32_MAX, UINT32_MAX};
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "float64", shape, 2), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x - 4, "float32", shape, 2), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "float32", shape, 0), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "float32", shape, 6), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "float32", huge, 2), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "int64", wrap, 2), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_runtime_args_add_tensor(a, NULL, sizeof x, "float32", shape, 2), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "torch.float32", shape, 2), PTO_OK);
    assert_int_equal(pto_runtime_args_add_scalar(a, 1), PTO_OK);
    assert_int_equal(pto_runtime_args_add_tensor(a, x, sizeof x, "float32", shape, 2), PTO_ERR_INVALID_ARGUMENT);
    pto_runtime_args_destroy(a);
    pto_runtime_args_destroy(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain),   cmocka_unit_test(test_views),        cmocka_unit_test(test_scopes),
        cmocka_unit_test(test_mixed),   cmocka_unit_test(test_concurrency),  cmocka_unit_test(test_random_views),
        cmocka_unit_test(test_errors),          cmocka_unit_test(test_board_mode),
        cmocka_unit_test(test_one_vector_lane), cmocka_unit_test(test_prefetch_workspace),
        cmocka_unit_test(test_prepare_errors), cmocka_unit_test(test_predicate), cmocka_unit_test(test_scalar_pointer),
        cmocka_unit_test(test_tap),             cmocka_unit_test(test_api_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
