/* pto-bench-mpi: a 1 MiB pto.comm.tput from rank 0 to rank 1 against the same
 * bytes by a plain MPI_Put + MPI_Win_flush, on two ranks of one job:
 *   mpiexec -n 2 build/bench/mpi/pto-bench-mpi [REPEATS]
 * Prints the median time of each and their ratio (MPI_Put's time over the
 * tput's: 1 or more means the tput is as fast). Rank 0 times; rank 1 only
 * holds its window. The tput's time is one pto_program_launch (parsing and
 * verification done before). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"
#include "pto_mpi.h"

#define ELEMENTS 262144 /* float32: 1 MiB */

static const char kText[] =
    "module {\n"
    "  func.func @put(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %n = arith.constant 262144 : index\n"
    "    %sv = pto.make_tensor_view %src, shape = [%c1, %n], strides = [%n, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %dv = pto.make_tensor_view %dst, shape = [%c1, %n], strides = [%n, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x1024xf32>\n"
    "    pto.comm.tput(%dv, %sv, buf(%buf) : !pto.tensor_view<1x262144xf32>, "
    "!pto.tensor_view<1x262144xf32>, !pto.tile_buf<vec, 1x1024xf32>) "
    "{atomicType = #pto<atomic_type atomic_none>}\n"
    "    return\n  }\n}\n";

static int compare(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), compare);
    return t[n / 2];
}

int main(int argc, char **argv) {
    if (pto_mpi_init(&argc, &argv) != PTO_OK) {
        fprintf(stderr, "pto-bench-mpi: %s\n", pto_mpi_last_error());
        return 1;
    }
    const int repeats = argc > 1 ? atoi(argv[1]) : 50;
    const int rank = pto_mpi_rank();
    if (pto_mpi_size() != 2 || repeats < 1) {
        if (rank == 0) fprintf(stderr, "pto-bench-mpi: run on 2 ranks, REPEATS >= 1\n");
        pto_mpi_finalize();
        return 2;
    }
    const size_t bytes = ELEMENTS * sizeof(float);
    pto_mpi *m = NULL;
    pto_program *p = NULL;
    pto_args *args = NULL;
    if (pto_mpi_window_create(2 * bytes, &m) != PTO_OK ||
        pto_program_create(kText, sizeof kText - 1, "bench.pto", &p) != PTO_OK ||
        pto_args_create(p, &args) != PTO_OK) {
        fprintf(stderr, "pto-bench-mpi: %s %s\n", pto_mpi_last_error(), pto_last_error());
        pto_mpi_abort(1);
    }
    char *base = pto_mpi_window_base(m);
    float *src = (float *)base, *dst = (float *)(base + bytes);
    for (int i = 0; i < ELEMENTS; ++i) src[i] = (float)i;
    pto_args_set_pointer(args, 0, src, bytes);
    pto_args_set_pointer(args, 1, pto_mpi_peer_address(m, 1, dst), bytes);
    /* The plain MPI baseline: a window of its own. */
    char *plain = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &plain, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    double *t_put = calloc((size_t)repeats, sizeof(double));
    double *t_pto = calloc((size_t)repeats, sizeof(double));
    pto_mpi_barrier(m);
    if (rank == 0) {
        for (int r = 0; r < repeats; ++r) {
            double t0 = MPI_Wtime();
            MPI_Put(src, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
            MPI_Win_flush(1, win);
            t_put[r] = MPI_Wtime() - t0;
            t0 = MPI_Wtime();
            if (pto_program_launch(p, 1, args) != PTO_OK) {
                fprintf(stderr, "%s\n", pto_last_error());
                pto_mpi_abort(1);
            }
            t_pto[r] = MPI_Wtime() - t0;
        }
        const double a = median(t_put, repeats), b = median(t_pto, repeats);
        printf("1 MiB rank 0 -> 1, median of %d: MPI_Put+flush %.1f us, pto.comm.tput %.1f us, "
               "ratio %.2f (MPI_Put time / tput time)\n",
               repeats, a * 1e6, b * 1e6, a / b);
    }
    pto_mpi_barrier(m);
    if (rank == 1 && memcmp(dst, src, bytes) != 0 && ((float *)dst)[ELEMENTS - 1] != ELEMENTS - 1)
        fprintf(stderr, "pto-bench-mpi: rank 1's copy differs\n");
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(t_put);
    free(t_pto);
    pto_args_destroy(args);
    pto_program_destroy(p);
    pto_mpi_window_destroy(m);
    pto_mpi_finalize();
    return 0;
}
