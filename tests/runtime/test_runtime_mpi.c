/* libpto-runtime on two ranks (mpiexec -n 2): each rank runs its own
 * orchestration (work/orchestration/exchange.cpp) in its own process on
 * tensors in its libpto-mpi window, the multi-card context (pto_mpi_context)
 * passed as a scalar and declared as memory of the run; a kernel puts this
 * rank's x into the peer's y through the context's window bases. After the
 * run and a barrier, y on rank r is twice rank 1 - r's x. Exit status 0 on
 * success; each failure prints its rank and sentence. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_mpi.h"
#include "pto_runtime.h"

static int fail(int rank, const char *what, const char *msg) {
    fprintf(stderr, "rank %d: %s: %s\n", rank, what, msg);
    pto_mpi_abort(1);
    return 1;
}

int main(int argc, char **argv) {
    if (pto_mpi_init(&argc, &argv) != PTO_OK) return fail(-1, "init", pto_mpi_last_error());
    const int rank = pto_mpi_rank();
    if (pto_mpi_size() != 2) return fail(rank, "size", "run on 2 ranks");
    pto_mpi *win = NULL;
    if (pto_mpi_window_create(1 << 16, &win) != PTO_OK) return fail(rank, "window", pto_mpi_last_error());
    float *x = (float *)pto_mpi_window_base(win);
    float *y = x + 64;  /* 256 bytes on: the same offset on every rank */
    for (int i = 0; i < 16; i++) x[i] = (float)(rank * 100 + i), y[i] = -1;
    static unsigned char ctx[PTO_MPI_CONTEXT_BYTES];
    if (pto_mpi_context(win, ctx) != PTO_OK) return fail(rank, "context", pto_mpi_last_error());

    pto_runtime *rt = NULL;
    const char *work = getenv("PTO_RUNTIME_WORK"), *cache = getenv("PTO_RUNTIME_CACHE");
    if (work == NULL) return fail(rank, "env", "PTO_RUNTIME_WORK is not set");
    if (pto_runtime_open(work, &rt) != PTO_OK) return fail(rank, "open", pto_runtime_last_error());
    if (cache != NULL) pto_runtime_set_cache_dir(rt, cache);
    pto_runtime_set_orchestration(rt, "orchestration/exchange.cpp");
    pto_runtime_set_workers(rt, 2);
    if (pto_runtime_prepare(rt) != PTO_OK) return fail(rank, "prepare", pto_runtime_last_error());
    pto_runtime_args *a = NULL;
    const uint64_t shape[2] = {1, 16};
    if (pto_runtime_args_create(&a) != PTO_OK ||
        pto_runtime_args_add_tensor(a, x, 64, "float32", shape, 2) != PTO_OK ||
        pto_runtime_args_add_tensor(a, y, 64, "float32", shape, 2) != PTO_OK ||
        pto_runtime_args_add_scalar(a, (uint64_t)rank) != PTO_OK ||
        pto_runtime_args_add_scalar(a, (uint64_t)(uintptr_t)ctx) != PTO_OK ||
        pto_runtime_args_add_memory(a, ctx, sizeof ctx) != PTO_OK)
        return fail(rank, "args", pto_runtime_last_error());
    if (pto_mpi_barrier(win) != PTO_OK) return fail(rank, "barrier", pto_mpi_last_error());
    if (pto_runtime_run(rt, a) != PTO_OK) return fail(rank, "run", pto_runtime_last_error());
    if (pto_mpi_barrier(win) != PTO_OK) return fail(rank, "barrier", pto_mpi_last_error());
    const int peer = 1 - rank;
    for (int i = 0; i < 16; i++) {
        if (x[i] != 2.0f * (float)(rank * 100 + i) || y[i] != 2.0f * (float)(peer * 100 + i)) {
            char msg[128];
            snprintf(msg, sizeof msg, "element %d: x %g, y %g; expected %g and %g", i, (double)x[i], (double)y[i],
                     2.0 * (rank * 100 + i), 2.0 * (peer * 100 + i));
            return fail(rank, "result", msg);
        }
    }
    uint64_t tasks = 0;
    pto_runtime_last_run_stats(rt, &tasks, NULL);
    printf("rank %d: 2 tasks (%llu run), y = the peer's 2 x through the context\n", rank, (unsigned long long)tasks);
    pto_runtime_args_destroy(a);
    pto_runtime_close(rt);
    pto_mpi_barrier(win);
    pto_mpi_window_destroy(win);
    pto_mpi_finalize();
    return tasks == 2 ? 0 : 1;
}
