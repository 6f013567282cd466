/* The C row of bench/bindings/run.sh: ns per pto_trsqrt call on float32
 * 1x1 and 64x64 tiles (best of 31 rounds), printed as "c CASE NS". */
#include <pto_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run(const char *name, unsigned n, long iters) {
    pto_tile *dst, *src;
    if (pto_tile_create(PTO_FLOAT32, n, n, &dst) || pto_tile_create(PTO_FLOAT32, n, n, &src)) exit(1);
    float *v = pto_tile_data(src);
    for (unsigned i = 0; i < n * n; i++) v[i] = (float)(i + 1);
    double rounds[31];
    for (int r = 0; r < 31; r++) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) {
            if (pto_trsqrt(dst, src) != PTO_OK) exit(1);
        }
        rounds[r] = (now_ns() - t0) / iters;
    }
    qsort(rounds, 31, sizeof rounds[0], cmp);
    printf("c %s %.1f\n", name, rounds[0]);
    pto_tile_destroy(dst);
    pto_tile_destroy(src);
}

int main(void) {
    run("trsqrt_1x1", 1, 200000);
    run("trsqrt_64x64", 64, 2000);
    return 0;
}
