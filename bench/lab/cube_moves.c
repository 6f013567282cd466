/* What the cube's layout moves cost through the C API, per call: the moves
 * a bfloat16 GEMM step makes (examples/kernels/gemm.pto's 128 x 128 x 64
 * step) under A5, against the same matrix multiply on row-major tiles
 * under HOST (the product alone):
 *   - pto_tile_write of a 128 x 64 row-major array into a mat NZ tile (a
 *     tload's gather of 32-byte rows into column strips);
 *   - pto_tmov of a 128 x 64 mat NZ tile to a left NZ tile (one copy);
 *   - pto_tmov of a 64 x 128 mat NZ tile to a right ZN tile (a transpose of
 *     each box);
 *   - pto_tmatmul and pto_tmatmul_acc on left NZ, right ZN and acc NZ
 *     tiles (each stages its operands row-major and writes acc back);
 *   - pto_tmatmul and pto_tmatmul_acc on vec ND tiles under HOST.
 * Microseconds of this thread's CPU time per call, the best of ROUNDS
 * batches (so that other load mostly drops out); the figures depend on
 * nothing but the library, so LD_LIBRARY_PATH compares two builds.
 *
 *   taskset -c 1 build/bench/lab/cube-moves [ROUNDS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cube_tiles.h"
#include "pto_c.h"

enum { kBatch = 200 };

static pto_tile *cube(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_location location,
                      pto_layout layout) {
    return cube_tile("cube-moves", dtype, rows, cols, location, layout);
}

enum Step { kWrite, kMovLeft, kMovRight, kMatmul, kMatmulAcc };

struct Tiles {
    pto_tile *mat_a, *mat_b, *left, *right, *acc;
    uint16_t *values;
};

static pto_status run(enum Step step, struct Tiles *t) {
    switch (step) {
        case kWrite: return pto_tile_write(t->mat_a, t->values, 128 * 64 * 2);
        case kMovLeft: return pto_tmov(t->left, t->mat_a);
        case kMovRight: return pto_tmov(t->right, t->mat_b);
        case kMatmul: return pto_tmatmul(t->acc, t->left, t->right);
        default: return pto_tmatmul_acc(t->acc, t->left, t->right);
    }
}

static double best_us(enum Step step, struct Tiles *t, int rounds) {
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        const double t0 = cpu_us();
        for (int i = 0; i < kBatch; ++i) {
            if (run(step, t) != PTO_OK) {
                fprintf(stderr, "cube-moves: %s\n", pto_last_error());
                exit(1);
            }
        }
        const double us = (cpu_us() - t0) / kBatch;
        if (us < best) best = us;
    }
    return best;
}

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 15;
    struct Tiles cube_tiles, plain;
    uint16_t *values = calloc(128 * 128, sizeof *values);
    for (int i = 0; i < 128 * 128; ++i) values[i] = (uint16_t)(0x3f80 + (i % 127));  /* bf16 near 1 */
    cube_tiles.values = plain.values = values;
    cube_tiles.mat_a = cube(PTO_BFLOAT16, 128, 64, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    cube_tiles.mat_b = cube(PTO_BFLOAT16, 64, 128, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    cube_tiles.left = cube(PTO_BFLOAT16, 128, 64, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    cube_tiles.right = cube(PTO_BFLOAT16, 64, 128, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    cube_tiles.acc = cube(PTO_FLOAT32, 128, 128, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    plain.mat_a = plain.mat_b = NULL;
    plain.left = cube(PTO_BFLOAT16, 128, 64, PTO_LOC_VEC, PTO_LAYOUT_ND);
    plain.right = cube(PTO_BFLOAT16, 64, 128, PTO_LOC_VEC, PTO_LAYOUT_ND);
    plain.acc = cube(PTO_FLOAT32, 128, 128, PTO_LOC_VEC, PTO_LAYOUT_ND);
    if (pto_tile_write(cube_tiles.mat_b, values, 64 * 128 * 2) != PTO_OK ||
        pto_tile_write(plain.left, values, 128 * 64 * 2) != PTO_OK ||
        pto_tile_write(plain.right, values, 64 * 128 * 2) != PTO_OK) {
        fprintf(stderr, "cube-moves: %s\n", pto_last_error());
        return 1;
    }
    printf("libpto %s, SIMD target %s; us of CPU per call, best of %d batches of %d\n",
           pto_version_string(), pto_simd_target(), rounds, kBatch);
    pto_set_profile(PTO_PROFILE_A5);
    const struct { enum Step step; const char *what; } moves[] = {
        {kWrite, "pto_tile_write 128x64 bf16 row-major -> mat NZ"},
        {kMovLeft, "pto_tmov mat NZ -> left NZ, 128x64 bf16"},
        {kMovRight, "pto_tmov mat NZ -> right ZN, 64x128 bf16"},
        {kMatmul, "pto_tmatmul 128x64x128, left NZ, right ZN, acc NZ"},
        {kMatmulAcc, "pto_tmatmul_acc 128x64x128, the same tiles"},
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; ++i)
        printf("  %-52s %8.2f\n", moves[i].what, best_us(moves[i].step, &cube_tiles, rounds));
    pto_set_profile(PTO_PROFILE_HOST);
    printf("  %-52s %8.2f\n", "pto_tmatmul 128x64x128, vec ND tiles (HOST)",
           best_us(kMatmul, &plain, rounds));
    printf("  %-52s %8.2f\n", "pto_tmatmul_acc 128x64x128, vec ND tiles (HOST)",
           best_us(kMatmulAcc, &plain, rounds));
    pto_tile *all[] = {cube_tiles.mat_a, cube_tiles.mat_b, cube_tiles.left, cube_tiles.right,
                       cube_tiles.acc, plain.left, plain.right, plain.acc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) pto_tile_destroy(all[i]);
    free(values);
    return 0;
}
