/* pto-bench's small-tile row for callgrind: N runs of small_tile_rows.pto
 * (64x128 float32 as 1-row tiles: tload, tmul, tadd, tmax, tstore a row),
 * or the same sequence of direct C calls (pto_tile_write, pto_tmul,
 * pto_tadd, pto_tmax, pto_tile_read), so that the instructions of each
 * side can be counted per row (counts, unlike times, do not depend on other
 * load): run with N and with 0, subtract, divide by 64 N.
 *
 *   valgrind --tool=callgrind build/bench/lab/small-tile-rows program|direct N FILE.pto
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"

enum { kRows = 64, kCols = 128 };

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "program") != 0 && strcmp(argv[1], "direct") != 0)) {
        fprintf(stderr, "usage: small-tile-rows program|direct N FILE.pto\n");
        return 2;
    }
    const long runs = atol(argv[2]);
    FILE *f = fopen(argv[3], "rb");
    if (f == NULL) {
        fprintf(stderr, "small-tile-rows: cannot read %s\n", argv[3]);
        return 2;
    }
    static char text[8192];
    const size_t length = fread(text, 1, sizeof text, f);
    fclose(f);
    static float x[kRows * kCols], y[kRows * kCols];
    for (size_t i = 0; i < kRows * kCols; ++i) x[i] = (float)(i % 17) * 0.25f - 2.0f;
    pto_program *p = NULL;
    pto_args *args = NULL;
    pto_tile *t = NULL, *u = NULL;
    size_t index;
    if (pto_program_create(text, length, argv[3], &p) != PTO_OK || pto_args_create(p, &args) != PTO_OK ||
        pto_program_param_find(p, "x", &index) != PTO_OK ||
        pto_args_set_pointer(args, index, x, sizeof x) != PTO_OK ||
        pto_program_param_find(p, "y", &index) != PTO_OK ||
        pto_args_set_pointer(args, index, y, sizeof y) != PTO_OK ||
        pto_tile_create(PTO_FLOAT32, 1, kCols, &t) != PTO_OK ||
        pto_tile_create(PTO_FLOAT32, 1, kCols, &u) != PTO_OK) {
        fprintf(stderr, "small-tile-rows: %s\n", pto_last_error());
        return 1;
    }
    const int program = strcmp(argv[1], "program") == 0;
    for (long r = 0; r < runs; ++r) {
        if (program) {
            if (pto_program_run(p, args) != PTO_OK) return 1;
            continue;
        }
        for (size_t i = 0; i < kRows; ++i) {
            pto_tile_write(t, x + i * kCols, kCols * sizeof(float));
            pto_tmul(u, t, t);
            pto_tadd(u, u, t);
            pto_tmax(u, u, t);
            pto_tile_read(u, y + i * kCols, kCols * sizeof(float));
        }
    }
    printf("%s: %ld runs of %d rows, y[%d] = %g\n", argv[1], runs, kRows, kRows * kCols - 1,
           (double)y[kRows * kCols - 1]);
    pto_tile_destroy(t);
    pto_tile_destroy(u);
    pto_args_destroy(args);
    pto_program_destroy(p);
    return 0;
}
