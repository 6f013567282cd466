/* libpto-mpi's bindings on N ranks (tests/mpi/test_mpi.py's `bindings`
 * case runs it under mpiexec; every rank prints "bindings: ok" or the
 * failed check and exits 1).
 *
 * A pointer bound to a kernel lies inside one window for its whole byte
 * length, else pto_program_launch refuses it naming the parameter, and
 * nothing is written anywhere:
 *   - rank 1 binds rank 0's copy of the window with the window's size +
 *     4096 bytes and puts 64 floats at byte offset = the window's size
 *     (those addresses would stand for rank 1's own window);
 *   - rank 0 does the same with the last rank's copy (the addresses past
 *     it stand for no rank);
 *   - every rank binds its own window with the same length, and the bytes
 *     just past it (libpto-mpi's failure word);
 *   - the context's entry for rank N (past the last rank), bound or reached
 *     by pto.addptr from the own window, is refused naming rank N and the
 *     number of ranks;
 * and the put of the same kernel inside the window lands in the peer's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"
#include "pto_mpi.h"

#define WINDOW 16384
#define FLOATS (WINDOW / 4 + 1024) /* the view: window + 4096 bytes */

static const char kPut[] =
    "module {\n"
    "  func.func @put(%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>, %off: index) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %cn = arith.constant 5120 : index\n"
    "    %dv = pto.make_tensor_view %dst, shape = [%c1, %cn], strides = [%cn, %c1] : "
    "!pto.tensor_view<1x5120xf32>\n"
    "    %row = pto.partition_view %dv, offsets = [%c0, %off], sizes = [%c1, %c64] : "
    "!pto.tensor_view<1x5120xf32> -> !pto.partition_tensor_view<1x64xf32>\n"
    "    %sv = pto.make_tensor_view %src, shape = [%c1, %c64], strides = [%c64, %c1] : "
    "!pto.tensor_view<1x64xf32>\n"
    "    %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
    "    pto.comm.tput(%row, %sv, buf(%buf) : !pto.partition_tensor_view<1x64xf32>, "
    "!pto.tensor_view<1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) "
    "{atomicType = #pto<atomic_type atomic_none>}\n"
    "    return\n"
    "  }\n"
    "}\n";

/* A put through a pointer moved by %delta elements (PyPTO's
 * windowsIn[peer] - windowsIn[me]). */
static const char kMoved[] =
    "module {\n"
    "  func.func @moved(%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>, %delta: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %p = pto.addptr %dst, %delta : !pto.ptr<f32> -> !pto.ptr<f32>\n"
    "    %dv = pto.make_tensor_view %p, shape = [%c1, %c64], strides = [%c64, %c1] : "
    "!pto.tensor_view<1x64xf32>\n"
    "    %sv = pto.make_tensor_view %src, shape = [%c1, %c64], strides = [%c64, %c1] : "
    "!pto.tensor_view<1x64xf32>\n"
    "    %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
    "    pto.comm.tput(%dv, %sv, buf(%buf) : !pto.tensor_view<1x64xf32>, "
    "!pto.tensor_view<1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) "
    "{atomicType = #pto<atomic_type atomic_none>}\n"
    "    return\n"
    "  }\n"
    "}\n";

static int g_rank = -1;
static int g_failures = 0;

static void check(int ok, const char *what, const char *detail) {
    if (ok)
        return;
    printf("rank %d: FAILED: %s%s%s\n", g_rank, what, detail != NULL ? ": " : "",
           detail != NULL ? detail : "");
    fflush(stdout);
    ++g_failures;
}

static pto_program *build(const char *text) {
    pto_program *p = NULL;
    if (pto_program_create(text, strlen(text), "bindings.pto", &p) != PTO_OK) {
        printf("rank %d: FAILED: the kernel does not verify: %s\n", g_rank, pto_last_error());
        exit(1);
    }
    return p;
}

/* Launches a kernel of two pointers and an index; its status and sentence. */
static pto_status launch(pto_program *p, void *dst, size_t dst_bytes, float *src, int64_t index,
                         char *sentence, size_t cap) {
    pto_args *args = NULL;
    pto_status s = pto_args_create(p, &args);
    if (s == PTO_OK)
        s = pto_args_set_pointer(args, 0, dst, dst_bytes);
    if (s == PTO_OK)
        s = pto_args_set_pointer(args, 1, src, 64 * sizeof(float));
    if (s == PTO_OK)
        s = pto_args_set_int(args, 2, index);
    if (s == PTO_OK)
        s = pto_program_launch(p, 1, args);
    snprintf(sentence, cap, "%s", s == PTO_OK ? "" : pto_last_error());
    pto_args_destroy(args);
    return s;
}

/* Whether every byte of [at, at + n) is `byte`. */
static int all_bytes(const unsigned char *at, size_t n, unsigned char byte) {
    for (size_t i = 0; i < n; ++i)
        if (at[i] != byte)
            return 0;
    return 1;
}

int main(int argc, char **argv) {
    if (pto_mpi_init(&argc, &argv) != PTO_OK) {
        printf("pto_mpi_init: %s\n", pto_mpi_last_error());
        return 1;
    }
    pto_mpi *w = NULL;
    if (pto_mpi_window_create(WINDOW, &w) != PTO_OK) {
        printf("pto_mpi_window_create: %s\n", pto_mpi_last_error());
        pto_mpi_abort(1);
    }
    g_rank = pto_mpi_window_rank(w);
    const int n = pto_mpi_window_ranks(w);
    const size_t size = pto_mpi_window_size(w);
    unsigned char *base = pto_mpi_window_base(w);
    check(size == WINDOW, "the window's size", NULL);
    memset(base, 0xAB, size);
    float src[64];
    for (int i = 0; i < 64; ++i)
        src[i] = (float)(i + 1);
    pto_program *put = build(kPut), *moved = build(kMoved);
    char sentence[1024], want[256];
    pto_mpi_barrier(w);

    /* Past a peer's window: rank 1 into rank 0's (then its own addresses),
     * rank 0 into the last rank's (then no rank's). */
    const int target = g_rank == 1 ? 0 : g_rank == 0 ? n - 1 : -1;
    if (target >= 0) {
        void *dst = pto_mpi_peer_address(w, target, base);
        pto_status s = launch(put, dst, (size_t)FLOATS * 4, src, WINDOW / 4, sentence, sizeof(sentence));
        check(s == PTO_ERR_OUT_OF_RANGE, "a binding past a peer's window is refused", sentence);
        check(strstr(sentence, "%dst, bound to 5120 elements, does not lie inside one window") != NULL,
              "the refusal names the parameter", sentence);
        snprintf(want, sizeof(want), "rank %d's window do not lie inside it (the window holds %d bytes)",
                 target, WINDOW);
        check(strstr(sentence, want) != NULL, "the refusal names the rank and the window", sentence);
        printf("rank %d: refused: %s\n", g_rank, sentence);
    }
    /* Past the own window: refused the same way, naming the own rank. */
    {
        pto_status s = launch(put, base, (size_t)FLOATS * 4, src, WINDOW / 4, sentence, sizeof(sentence));
        snprintf(want, sizeof(want), "20480 bytes at offset 0 of rank %d's window do not lie inside it",
                 g_rank);
        check(s == PTO_ERR_OUT_OF_RANGE && strstr(sentence, want) != NULL,
              "a binding past the own window is refused", sentence);
        /* Just past it: libpto-mpi's own bytes, not the process's memory. */
        s = launch(put, base + size, 256, src, 0, sentence, sizeof(sentence));
        snprintf(want, sizeof(want), "256 bytes at offset %d of rank %d's window do not lie inside it",
                 WINDOW, g_rank);
        check(s == PTO_ERR_OUT_OF_RANGE && strstr(sentence, want) != NULL,
              "a binding just past the own window is refused", sentence);
    }
    pto_mpi_barrier(w);
    check(all_bytes(base, size, 0xAB), "no window's byte is written by a refused binding", NULL);
    pto_mpi_barrier(w);

    /* The context's entry for rank n: no rank's window. */
    unsigned char context[PTO_MPI_CONTEXT_BYTES];
    check(pto_mpi_context(w, context) == PTO_OK, "pto_mpi_context", pto_mpi_last_error());
    if (n < 64) {
        uint64_t past = 0, mine = 0;
        memcpy(&past, context + 32 + 8 * n, 8);
        memcpy(&mine, context + 32 + 8 * g_rank, 8);
        snprintf(want, sizeof(want), "stands for rank %d's window, and the window has %d ranks (0..%d)",
                 n, n, n - 1);
        pto_status s = launch(put, (void *)(uintptr_t)past, 256, src, 0, sentence, sizeof(sentence));
        check(s == PTO_ERR_OUT_OF_RANGE && strstr(sentence, want) != NULL,
              "a binding of the context's entry past the last rank names the rank", sentence);
        const int64_t delta = ((int64_t)past - (int64_t)mine) / 4;
        s = launch(moved, base, 256, src, delta, sentence, sizeof(sentence));
        char located[128];
        snprintf(located, sizeof(located), "pto.addptr: offset %lld moves %%dst from rank %d's window",
                 (long long)delta, g_rank);
        check(s == PTO_ERR_OUT_OF_RANGE && strstr(sentence, want) != NULL &&
                  strstr(sentence, located) != NULL && strstr(sentence, "bindings.pto:") != NULL,
              "pto.addptr to the context's entry past the last rank names the rank", sentence);
        printf("rank %d: refused: %s\n", g_rank, sentence);
    }
    pto_mpi_barrier(w);
    check(all_bytes(base, size, 0xAB), "no window's byte is written by a refused put", NULL);
    pto_mpi_barrier(w);

    /* Inside the window: rank r puts into the last 64 floats of the next
     * rank's window (a binding of exactly the window). */
    const int next = (g_rank + 1) % n;
    pto_program *inside = NULL;
    {
        char text[sizeof(kPut) + 16];
        snprintf(text, sizeof(text), "%s", kPut);
        /* The same kernel on a view of exactly the window: 4096 floats. */
        char *at;
        while ((at = strstr(text, "5120")) != NULL)
            memcpy(at, "4096", 4);
        inside = build(text);
    }
    pto_status s = launch(inside, pto_mpi_peer_address(w, next, base), size, src, WINDOW / 4 - 64,
                          sentence, sizeof(sentence));
    check(s == PTO_OK, "a put inside the peer's window", sentence);
    pto_mpi_barrier(w);
    check(memcmp(base + size - 256, src, 256) == 0, "the put landed at the window's end", NULL);
    check(all_bytes(base, size - 256, 0xAB), "and nowhere else", NULL);

    pto_program_destroy(put);
    pto_program_destroy(moved);
    pto_program_destroy(inside);
    pto_mpi_barrier(w);
    pto_mpi_window_destroy(w);
    if (g_failures == 0)
        printf("rank %d: bindings: ok\n", g_rank);
    fflush(stdout);
    pto_mpi_finalize();
    return g_failures == 0 ? 0 : 1;
}
