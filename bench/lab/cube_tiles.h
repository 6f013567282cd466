/* What the cube instruments (cube_moves.c, cube_small_m.c) share: this
 * thread's CPU time and a cube tile made or the program ended with the
 * library's sentence. */
#ifndef PTO_BENCH_LAB_CUBE_TILES_H
#define PTO_BENCH_LAB_CUBE_TILES_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pto_c.h"

/* This thread's CPU time in microseconds. */
static inline double cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* A cube tile (pto_tile_create_cube), or exit 1 with tool's name and the
 * reason. */
static inline pto_tile *cube_tile(const char *tool, pto_dtype dtype, uint32_t rows, uint32_t cols,
                                  pto_location location, pto_layout layout) {
    pto_tile *t = NULL;
    if (pto_tile_create_cube(dtype, rows, cols, location, layout, &t) != PTO_OK) {
        fprintf(stderr, "%s: pto_tile_create_cube: %s\n", tool, pto_last_error());
        exit(1);
    }
    return t;
}

#endif
