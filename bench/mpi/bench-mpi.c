/* pto-bench-mpi, on 2 ranks: a 1 MiB pto.comm.tput from rank 0 to rank 1
 * against the same bytes by a plain MPI_Put + MPI_Win_flush; on 4 ranks: an
 * all-reduce (sum) of 1 MiB of float32 per rank by a kernel of tput, tnotify,
 * twait and tadd (every rank's row put into every rank's gather buffer, then
 * summed in rank order) against MPI_Allreduce:
 *   mpiexec -n 2|4 build/bench/mpi/pto-bench-mpi [REPEATS]
 * Prints the median time of each and their ratio (MPI's time over the
 * kernel's: 1 or more means the kernel is as fast). A kernel's time is one
 * pto_program_launch between barriers (parsing and verification done
 * before). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"
#include "pto_mpi.h"

#define ELEMENTS 262144 /* float32: 1 MiB */

/* Peer k's part of the all-reduce: my row into row `me` of rank k's gather
 * buffer, then 1 added to rank k's signal. */
#define PEER(k)                                                                                     \
    "    %k" #k " = arith.constant " #k " : i32\n"                                                   \
    "    %live" #k " = arith.cmpi slt, %k" #k ", %n : i32\n"                                         \
    "    scf.if %live" #k " {\n"                                                                      \
    "      %dv" #k " = pto.make_tensor_view %d" #k ", shape = [%c4, %w], strides = [%w, %c1] : "      \
    "!pto.tensor_view<4x262144xf32>\n"                                                             \
    "      %row" #k " = pto.partition_view %dv" #k ", offsets = [%mei, %c0], sizes = [%c1, %w] : "   \
    "!pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x262144xf32>\n"                 \
    "      pto.comm.tput(%row" #k ", %srcv, buf(%buf) : !pto.partition_tensor_view<1x262144xf32>, "  \
    "!pto.tensor_view<1x262144xf32>, !pto.tile_buf<vec, 1x4096xf32>) "                             \
    "{atomicType = #pto<atomic_type atomic_none>}\n"                                               \
    "      %sv" #k " = pto.make_tensor_view %s" #k ", shape = [%c1, %c1], strides = [%c1, %c1] : " \
    "!pto.tensor_view<1x1xi32>\n"                                                                  \
    "      pto.comm.tnotify(%sv" #k ", %one : !pto.tensor_view<1x1xi32>, i32) "                    \
    "{notifyOp = #pto<notify_op atomic_add>}\n"                                                    \
    "    }\n"

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

/* The all-reduce: rows of 262144 float32, 64 chunks of 4096 summed. */
static const char kAllReduce[] =
    "module {\n"
    "  func.func @allreduce(%src: !pto.ptr<f32>, %gath: !pto.ptr<f32>, %sig: !pto.ptr<i32>,\n"
    "      %out: !pto.ptr<f32>, %d0: !pto.ptr<f32>, %d1: !pto.ptr<f32>, %d2: !pto.ptr<f32>,\n"
    "      %d3: !pto.ptr<f32>, %s0: !pto.ptr<i32>, %s1: !pto.ptr<i32>, %s2: !pto.ptr<i32>,\n"
    "      %s3: !pto.ptr<i32>, %me: i32, %n: i32) {\n"
    "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
    "    %c4 = arith.constant 4 : index\n    %w = arith.constant 262144 : index\n"
    "    %c64 = arith.constant 64 : index\n    %c4096 = arith.constant 4096 : index\n"
    "    %one = arith.constant 1 : i32\n"
    "    %mei = arith.index_cast %me : i32 to index\n"
    "    %srcv = pto.make_tensor_view %src, shape = [%c1, %w], strides = [%w, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    PEER(0) PEER(1) PEER(2) PEER(3)
    "    %own = pto.make_tensor_view %sig, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>\n"
    "    pto.comm.twait(%own, %n : !pto.tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}\n"
    "    %gv = pto.make_tensor_view %gath, shape = [%c4, %w], strides = [%w, %c1] : !pto.tensor_view<4x262144xf32>\n"
    "    %ov = pto.make_tensor_view %out, shape = [%c1, %w], strides = [%w, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %acc = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    "    %ni = arith.index_cast %n : i32 to index\n"
    "    scf.for %ch = %c0 to %c64 step %c1 {\n"
    "      %col = arith.muli %ch, %c4096 : index\n"
    "      %r0 = pto.partition_view %gv, offsets = [%c0, %col], sizes = [%c1, %c4096] : !pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "      pto.tload ins(%r0 : !pto.partition_tensor_view<1x4096xf32>) outs(%acc : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "      scf.for %k = %c1 to %ni step %c1 {\n"
    "        %rk = pto.partition_view %gv, offsets = [%k, %col], sizes = [%c1, %c4096] : !pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "        pto.tload ins(%rk : !pto.partition_tensor_view<1x4096xf32>) outs(%t : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "        pto.tadd ins(%acc, %t : !pto.tile_buf<vec, 1x4096xf32>, !pto.tile_buf<vec, 1x4096xf32>) outs(%acc : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "      }\n"
    "      %oc = pto.partition_view %ov, offsets = [%c0, %col], sizes = [%c1, %c4096] : !pto.tensor_view<1x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "      pto.tstore ins(%acc : !pto.tile_buf<vec, 1x4096xf32>) outs(%oc : !pto.partition_tensor_view<1x4096xf32>)\n"
    "    }\n"
    "    return\n  }\n}\n";

/* The same all-reduce as a reduce-scatter then an all-gather, the way MPI
 * libraries do it: rank r owns quarter r of the row; every rank puts its
 * quarter k into row `me` of rank k's gather buffer, sums its own quarter's
 * four rows in rank order (the same bytes as above) and puts the sum into the
 * same quarter of every peer's output. Each rank moves 1.5 MiB instead of 3
 * and adds a quarter of the rows. */
#define QUARTER_IN(k, col)                                                                              \
    "    %kc" #k " = arith.constant " #col " : index\n"                                           \
    "    %dv" #k " = pto.make_tensor_view %d" #k ", shape = [%c4, %w], strides = [%w, %c1] : "       \
    "!pto.tensor_view<4x262144xf32>\n"                                                              \
    "    %dq" #k " = pto.partition_view %dv" #k ", offsets = [%mei, %kc" #k "], sizes = [%c1, %q] : " \
    "!pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x65536xf32>\n"                   \
    "    %sq" #k " = pto.partition_view %srcv, offsets = [%c0, %kc" #k "], sizes = [%c1, %q] : "      \
    "!pto.tensor_view<1x262144xf32> -> !pto.partition_tensor_view<1x65536xf32>\n"                   \
    "    pto.comm.tput(%dq" #k ", %sq" #k ", buf(%buf) : !pto.partition_tensor_view<1x65536xf32>, "    \
    "!pto.partition_tensor_view<1x65536xf32>, !pto.tile_buf<vec, 1x4096xf32>) "                     \
    "{atomicType = #pto<atomic_type atomic_none>}\n"                                                \
    "    %av" #k " = pto.make_tensor_view %a" #k ", shape = [%c1, %c1], strides = [%c1, %c1] : "     \
    "!pto.tensor_view<1x1xi32>\n"                                                                   \
    "    pto.comm.tnotify(%av" #k ", %one : !pto.tensor_view<1x1xi32>, i32) "                        \
    "{notifyOp = #pto<notify_op atomic_add>}\n"

#define QUARTER_OUT(k)                                                                               \
    "    %k" #k " = arith.constant " #k " : index\n"                                                 \
    "    %other" #k " = arith.cmpi ne, %k" #k ", %mei : index\n"                                     \
    "    scf.if %other" #k " {\n"                                                                     \
    "      %ov" #k " = pto.make_tensor_view %o" #k ", shape = [%c1, %w], strides = [%w, %c1] : "      \
    "!pto.tensor_view<1x262144xf32>\n"                                                             \
    "      %oq" #k " = pto.partition_view %ov" #k ", offsets = [%c0, %mine], sizes = [%c1, %q] : "     \
    "!pto.tensor_view<1x262144xf32> -> !pto.partition_tensor_view<1x65536xf32>\n"                  \
    "      pto.comm.tput(%oq" #k ", %myq, buf(%buf) : !pto.partition_tensor_view<1x65536xf32>, "       \
    "!pto.partition_tensor_view<1x65536xf32>, !pto.tile_buf<vec, 1x4096xf32>) "                    \
    "{atomicType = #pto<atomic_type atomic_none>}\n"                                               \
    "      %bv" #k " = pto.make_tensor_view %b" #k ", shape = [%c1, %c1], strides = [%c1, %c1] : "    \
    "!pto.tensor_view<1x1xi32>\n"                                                                  \
    "      pto.comm.tnotify(%bv" #k ", %one : !pto.tensor_view<1x1xi32>, i32) "                    \
    "{notifyOp = #pto<notify_op atomic_add>}\n"                                                    \
    "    }\n"

static const char kReduceScatter[] =
    "module {\n"
    "  func.func @allreduce_rs(%src: !pto.ptr<f32>, %gath: !pto.ptr<f32>, %sa: !pto.ptr<i32>,\n"
    "      %sb: !pto.ptr<i32>, %out: !pto.ptr<f32>, %d0: !pto.ptr<f32>, %d1: !pto.ptr<f32>,\n"
    "      %d2: !pto.ptr<f32>, %d3: !pto.ptr<f32>, %a0: !pto.ptr<i32>, %a1: !pto.ptr<i32>,\n"
    "      %a2: !pto.ptr<i32>, %a3: !pto.ptr<i32>, %b0: !pto.ptr<i32>, %b1: !pto.ptr<i32>,\n"
    "      %b2: !pto.ptr<i32>, %b3: !pto.ptr<i32>, %o0: !pto.ptr<f32>, %o1: !pto.ptr<f32>,\n"
    "      %o2: !pto.ptr<f32>, %o3: !pto.ptr<f32>, %me: i32) {\n"
    "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
    "    %c4 = arith.constant 4 : index\n    %w = arith.constant 262144 : index\n"
    "    %q = arith.constant 65536 : index\n    %c16 = arith.constant 16 : index\n"
    "    %c4096 = arith.constant 4096 : index\n"
    "    %one = arith.constant 1 : i32\n    %four = arith.constant 4 : i32\n"
    "    %three = arith.constant 3 : i32\n"
    "    %mei = arith.index_cast %me : i32 to index\n"
    "    %mine = arith.muli %mei, %q : index\n"
    "    %srcv = pto.make_tensor_view %src, shape = [%c1, %w], strides = [%w, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    QUARTER_IN(0, 0) QUARTER_IN(1, 65536) QUARTER_IN(2, 131072) QUARTER_IN(3, 196608)
    "    %own = pto.make_tensor_view %sa, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>\n"
    "    pto.comm.twait(%own, %four : !pto.tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}\n"
    "    %gv = pto.make_tensor_view %gath, shape = [%c4, %w], strides = [%w, %c1] : !pto.tensor_view<4x262144xf32>\n"
    "    %outv = pto.make_tensor_view %out, shape = [%c1, %w], strides = [%w, %c1] : !pto.tensor_view<1x262144xf32>\n"
    "    %acc = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x4096xf32>\n"
    "    scf.for %ch = %c0 to %c16 step %c1 {\n"
    "      %piece = arith.muli %ch, %c4096 : index\n"
    "      %col = arith.addi %mine, %piece : index\n"
    "      %r0 = pto.partition_view %gv, offsets = [%c0, %col], sizes = [%c1, %c4096] : !pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "      pto.tload ins(%r0 : !pto.partition_tensor_view<1x4096xf32>) outs(%acc : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "      scf.for %k = %c1 to %c4 step %c1 {\n"
    "        %rk = pto.partition_view %gv, offsets = [%k, %col], sizes = [%c1, %c4096] : !pto.tensor_view<4x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "        pto.tload ins(%rk : !pto.partition_tensor_view<1x4096xf32>) outs(%t : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "        pto.tadd ins(%acc, %t : !pto.tile_buf<vec, 1x4096xf32>, !pto.tile_buf<vec, 1x4096xf32>) outs(%acc : !pto.tile_buf<vec, 1x4096xf32>)\n"
    "      }\n"
    "      %oc = pto.partition_view %outv, offsets = [%c0, %col], sizes = [%c1, %c4096] : !pto.tensor_view<1x262144xf32> -> !pto.partition_tensor_view<1x4096xf32>\n"
    "      pto.tstore ins(%acc : !pto.tile_buf<vec, 1x4096xf32>) outs(%oc : !pto.partition_tensor_view<1x4096xf32>)\n"
    "    }\n"
    "    %myq = pto.partition_view %outv, offsets = [%c0, %mine], sizes = [%c1, %q] : !pto.tensor_view<1x262144xf32> -> !pto.partition_tensor_view<1x65536xf32>\n"
    QUARTER_OUT(0) QUARTER_OUT(1) QUARTER_OUT(2) QUARTER_OUT(3)
    "    %ownb = pto.make_tensor_view %sb, shape = [%c1, %c1], strides = [%c1, %c1] : !pto.tensor_view<1x1xi32>\n"
    "    pto.comm.twait(%ownb, %three : !pto.tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}\n"
    "    return\n  }\n}\n";

static int compare(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), compare);
    return t[n / 2];
}

/* One timed launch between barriers, with the host zeroing the signals first. */
static double timed_launch(pto_mpi *m, pto_program *p, pto_args *args, int32_t *sig, int rank) {
    sig[0] = sig[1] = 0;
    pto_mpi_barrier(m);
    const double t0 = MPI_Wtime();
    if (pto_program_launch(p, 1, args) != PTO_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, pto_last_error());
        pto_mpi_abort(1);
    }
    const double t = MPI_Wtime() - t0;
    pto_mpi_barrier(m);
    return t;
}

static pto_program *create_program(const char *text, size_t length, const char *name, pto_args **args) {
    pto_program *p = NULL;
    if (pto_program_create(text, length, name, &p) != PTO_OK || pto_args_create(p, args) != PTO_OK) {
        fprintf(stderr, "pto-bench-mpi: %s\n", pto_last_error());
        pto_mpi_abort(1);
    }
    return p;
}

/* 4 ranks: the two all-reduce kernels against MPI_Allreduce (rank 0 prints). */
static int bench_allreduce(int repeats) {
    const int rank = pto_mpi_rank(), ranks = pto_mpi_size();
    const size_t row = ELEMENTS * sizeof(float);
    /* The window: src, gath (4 rows), out, two signals. */
    pto_mpi *m = NULL;
    if (pto_mpi_window_create(6 * row + 64, &m) != PTO_OK) {
        fprintf(stderr, "pto-bench-mpi: %s\n", pto_mpi_last_error());
        pto_mpi_abort(1);
    }
    pto_args *args = NULL, *rs_args = NULL;
    pto_program *p = create_program(kAllReduce, sizeof kAllReduce - 1, "allreduce.pto", &args);
    pto_program *rs = create_program(kReduceScatter, sizeof kReduceScatter - 1, "allreduce_rs.pto", &rs_args);
    char *base = pto_mpi_window_base(m);
    float *src = (float *)base, *gath = (float *)(base + row), *out = (float *)(base + 5 * row);
    int32_t *sig = (int32_t *)(base + 6 * row);
    for (int i = 0; i < ELEMENTS; ++i) src[i] = (float)((i % 97) + rank);
    pto_args_set_pointer(args, 0, src, row);
    pto_args_set_pointer(args, 1, gath, 4 * row);
    pto_args_set_pointer(args, 2, sig, 4);
    pto_args_set_pointer(args, 3, out, row);
    pto_args_set_pointer(rs_args, 0, src, row);
    pto_args_set_pointer(rs_args, 1, gath, 4 * row);
    pto_args_set_pointer(rs_args, 2, sig, 4);
    pto_args_set_pointer(rs_args, 3, sig + 1, 4);
    pto_args_set_pointer(rs_args, 4, out, row);
    for (int k = 0; k < 4; ++k) {
        pto_args_set_pointer(args, 4 + (size_t)k, pto_mpi_peer_address(m, k, gath), 4 * row);
        pto_args_set_pointer(args, 8 + (size_t)k, pto_mpi_peer_address(m, k, sig), 4);
        pto_args_set_pointer(rs_args, 5 + (size_t)k, pto_mpi_peer_address(m, k, gath), 4 * row);
        pto_args_set_pointer(rs_args, 9 + (size_t)k, pto_mpi_peer_address(m, k, sig), 4);
        pto_args_set_pointer(rs_args, 13 + (size_t)k, pto_mpi_peer_address(m, k, sig + 1), 4);
        pto_args_set_pointer(rs_args, 17 + (size_t)k, pto_mpi_peer_address(m, k, out), row);
    }
    pto_args_set_int(args, 12, rank);
    pto_args_set_int(args, 13, ranks);
    pto_args_set_int(rs_args, 21, rank);
    float *mpi_out = malloc(row);
    double *t_mpi = calloc((size_t)repeats, sizeof(double));
    double *t_pto = calloc((size_t)repeats, sizeof(double));
    double *t_rs = calloc((size_t)repeats, sizeof(double));
    for (int r = 0; r < repeats; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        MPI_Allreduce(src, mpi_out, ELEMENTS, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        t_mpi[r] = MPI_Wtime() - t0;
        memset(out, 0, row);
        t_pto[r] = timed_launch(m, p, args, sig, rank);
        /* Integers below 2^24: every sum exact, whatever the order. */
        if (r == 0 && memcmp(out, mpi_out, row) != 0) fprintf(stderr, "rank %d: the sums differ\n", rank);
        memset(out, 0, row);
        t_rs[r] = timed_launch(m, rs, rs_args, sig, rank);
        if (r == 0 && memcmp(out, mpi_out, row) != 0)
            fprintf(stderr, "rank %d: the reduce-scatter's sums differ\n", rank);
    }
    if (rank == 0) {
        const double a = median(t_mpi, repeats), b = median(t_pto, repeats), c = median(t_rs, repeats);
        printf("all-reduce of 1 MiB float32 on 4 ranks, median of %d: MPI_Allreduce %.1f us; "
               "every row to every rank %.1f us, ratio %.2f; reduce-scatter + all-gather %.1f us, "
               "ratio %.2f (MPI_Allreduce time / kernel time)\n",
               repeats, a * 1e6, b * 1e6, a / b, c * 1e6, a / c);
    }
    free(mpi_out);
    free(t_mpi);
    free(t_pto);
    free(t_rs);
    pto_args_destroy(args);
    pto_args_destroy(rs_args);
    pto_program_destroy(p);
    pto_program_destroy(rs);
    pto_mpi_window_destroy(m);
    return 0;
}

int main(int argc, char **argv) {
    if (pto_mpi_init(&argc, &argv) != PTO_OK) {
        fprintf(stderr, "pto-bench-mpi: %s\n", pto_mpi_last_error());
        return 1;
    }
    const int repeats = argc > 1 ? atoi(argv[1]) : 50;
    const int rank = pto_mpi_rank();
    if ((pto_mpi_size() != 2 && pto_mpi_size() != 4) || repeats < 1) {
        if (rank == 0) fprintf(stderr, "pto-bench-mpi: run on 2 or 4 ranks, REPEATS >= 1\n");
        pto_mpi_finalize();
        return 2;
    }
    if (pto_mpi_size() == 4) {
        const int rc = bench_allreduce(repeats);
        pto_mpi_finalize();
        return rc;
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
