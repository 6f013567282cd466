/* One small-M tile product of a decode step's projections, per call, from
 * bf16 (or f16) operands in the cube's layouts: pto_tmatmul_acc on a left
 * M x K tile (NZ under A5, ZZ under A2A3), a right K x N tile (ZN) and an
 * acc M x N float32 tile (NZ), against the same product's float32 and
 * bf16 chains on row-major vec tiles under HOST (the matrix kernel alone).
 * The Qwen3-32B decode's projection kernels make 16 x 64 x 256 products
 * (PyPTO's export: a 16 x 128 activation tile and a 128 x 256 weight tile,
 * each split in two along K by textract), accumulated along K.
 *
 * Per shape and case: us of this thread's CPU time per call and GFLOP/s,
 * the median (and the least and most) of ROUNDS batches of calls; CPU time
 * so that a shared machine gives the rate while the probe runs.
 *
 *   taskset -c 1 build/bench/lab/cube-small-m [ROUNDS] [f16]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cube_tiles.h"
#include "pto_c.h"

enum { kMaxRounds = 101 };

static pto_tile *cube(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_location location,
                      pto_layout layout) {
    return cube_tile("cube-small-m", dtype, rows, cols, location, layout);
}

static void must(pto_status s) {
    if (s != PTO_OK) {
        fprintf(stderr, "cube-small-m: %s\n", pto_last_error());
        exit(1);
    }
}

/* Values near 1 in the source dtype's bits, so that the sums stay finite. */
static void fill(pto_tile *t, pto_dtype dtype, size_t count, unsigned seed) {
    uint16_t *v = malloc(count * sizeof *v);
    const uint16_t one = dtype == PTO_BFLOAT16 ? 0x3f80 : 0x3c00;
    for (size_t i = 0; i < count; ++i) v[i] = (uint16_t)(one + (i * 7 + seed) % 61);
    must(pto_tile_write(t, v, count * sizeof *v));
    free(v);
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median, least and most us per call of `rounds` batches of `batch`
 * calls of dst = a b (+ dst). */
static void time_calls(pto_tile *dst, pto_tile *a, pto_tile *b, int rounds, int batch,
                       double out[3]) {
    double us[kMaxRounds];
    must(pto_tmatmul(dst, a, b));  /* warm the caches and the staging */
    for (int r = 0; r < rounds; ++r) {
        const double t0 = cpu_us();
        for (int i = 0; i < batch; ++i) must(pto_tmatmul_acc(dst, a, b));
        us[r] = (cpu_us() - t0) / batch;
    }
    qsort(us, (size_t)rounds, sizeof us[0], by_value);
    out[0] = us[rounds / 2], out[1] = us[0], out[2] = us[rounds - 1];
}

static void report(const char *what, double flop, const double us[3]) {
    printf("  %-34s %8.2f us (%6.2f-%6.2f)  %6.1f GFLOP/s (%5.1f-%5.1f)\n", what, us[0], us[1],
           us[2], flop / us[0] / 1e3, flop / us[2] / 1e3, flop / us[1] / 1e3);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 21;
    if (rounds < 1) rounds = 1;
    if (rounds > kMaxRounds) rounds = kMaxRounds;
    const pto_dtype src = argc > 2 && strcmp(argv[2], "f16") == 0 ? PTO_FLOAT16 : PTO_BFLOAT16;
    static const uint32_t shapes[][3] = {
        {16, 64, 256}, {16, 128, 256}, {1, 64, 256}, {32, 64, 256}, {16, 256, 512},
    };
    printf("libpto %s, SIMD target %s, %s sources; us of CPU per call, median (least-most) of "
           "%d batches\n",
           pto_version_string(), pto_simd_target(), src == PTO_BFLOAT16 ? "bf16" : "f16", rounds);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const uint32_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        const double flop = 2.0 * m * k * n;
        const int batch = (int)(2e8 / flop) + 1; /* a few ms a batch */
        double us[3];
        printf("M x K x N = %u x %u x %u, tmatmul_acc (%d calls a batch)\n", m, k, n, batch);
        const pto_profile profiles[2] = {PTO_PROFILE_A5, PTO_PROFILE_A2A3};
        const pto_layout lefts[2] = {PTO_LAYOUT_NZ, PTO_LAYOUT_ZZ};
        const char *names[2] = {"A5: left NZ, right ZN, acc NZ", "A2A3: left ZZ, right ZN, acc NZ"};
        for (int p = 0; p < 2; ++p) {
            pto_tile *a = cube(src, m, k, PTO_LOC_LEFT, lefts[p]);
            pto_tile *b = cube(src, k, n, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
            pto_tile *acc = cube(PTO_FLOAT32, m, n, PTO_LOC_ACC, PTO_LAYOUT_NZ);
            fill(a, src, (size_t)m * k, 1);
            fill(b, src, (size_t)k * n, 2);
            pto_set_profile(profiles[p]);
            time_calls(acc, a, b, rounds, batch, us);
            report(names[p], flop, us);
            pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(acc);
        }
        pto_set_profile(PTO_PROFILE_HOST);
        {
            pto_tile *a = cube(src, m, k, PTO_LOC_VEC, PTO_LAYOUT_ND);
            pto_tile *b = cube(src, k, n, PTO_LOC_VEC, PTO_LAYOUT_ND);
            pto_tile *acc = cube(PTO_FLOAT32, m, n, PTO_LOC_VEC, PTO_LAYOUT_ND);
            fill(a, src, (size_t)m * k, 1);
            fill(b, src, (size_t)k * n, 2);
            time_calls(acc, a, b, rounds, batch, us);
            report("HOST: vec ND tiles, same sources", flop, us);
            pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(acc);
        }
        {
            pto_tile *a = cube(PTO_FLOAT32, m, k, PTO_LOC_VEC, PTO_LAYOUT_ND);
            pto_tile *b = cube(PTO_FLOAT32, k, n, PTO_LOC_VEC, PTO_LAYOUT_ND);
            pto_tile *acc = cube(PTO_FLOAT32, m, n, PTO_LOC_VEC, PTO_LAYOUT_ND);
            float *v = malloc((size_t)k * (m > n ? m : n) * sizeof *v);
            for (size_t i = 0; i < (size_t)k * (m > n ? m : n); ++i) v[i] = 1.0f + (float)(i % 61) / 64;
            must(pto_tile_write(a, v, (size_t)m * k * sizeof *v));
            must(pto_tile_write(b, v, (size_t)k * n * sizeof *v));
            free(v);
            time_calls(acc, a, b, rounds, batch, us);
            report("HOST: vec ND tiles, float32", flop, us);
            pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(acc);
        }
    }
    return 0;
}
