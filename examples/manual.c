/* libpto manual mode: the instruction pages' "Manual" examples on a CPU.
 *
 * On the NPU a kernel may bind its tiles to addresses of the on-chip buffer
 * itself (TASSIGN(tile, 0x1000), pto.tassign %arg0, @tile(0x1000)). Here one
 * buffer stands for that memory: the program's own array, wrapped without a
 * copy, so results land directly in it. The same program runs twice: under
 * the A2A3 profile, which refuses it because the PReLU tmp shares memory
 * with the output (the TPRELU page: "for A3, 2 source Tile, destination
 * Tile, temporary space must in different memory range without
 * overlapping"), and under A5, where tmp is not used and the program runs.
 *
 *   cc manual.c $(pkg-config --cflags --libs pto) -o manual
 */
#include <pto_c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 16
#define COLS 16
#define UB_BYTES 0x8000

/* The "unified buffer": the program's own memory. */
static _Alignas(64) float ub[UB_BYTES / sizeof(float)];

static float *at(size_t address) { return ub + address / sizeof(float); }

static int check(pto_status s, const char *what) {
    if (s != PTO_OK) fprintf(stderr, "%s: %s (%s)\n", what, pto_status_string(s), pto_last_error());
    return s == PTO_OK;
}

/* TASSIGN(tile, address) for a rows x cols tile. */
static pto_tile *tassign_as(pto_buffer *buffer, size_t address, pto_dtype dtype, uint32_t rows,
                            uint32_t cols) {
    pto_tile *t = NULL;
    return check(pto_tile_create_at(dtype, rows, cols, buffer, address, &t), "TASSIGN") ? t : NULL;
}
static pto_tile *tassign(pto_buffer *buffer, size_t address, uint32_t rows) {
    return tassign_as(buffer, address, PTO_FLOAT32, rows, COLS);
}

/* The kernel: TPARTADD as on its page (src0 0x1000, src1 0x2000, dst 0x3000),
 * then TPRELU of the sum with a slope at 0x4000, writing 0x5000, its tmp
 * reusing 0x5000: UINT8, ROWS + 1 rows of which ROWS valid (A3 wants tmp rows
 * >= dst valid rows + 1 and valid rows == dst valid rows) and 2 columns (one
 * mask bit per element of a dst row). */
static pto_status run_kernel(pto_buffer *ub_buffer) {
    pto_tile *src0 = tassign(ub_buffer, 0x1000, ROWS), *src1 = tassign(ub_buffer, 0x2000, ROWS);
    pto_tile *sum = tassign(ub_buffer, 0x3000, ROWS), *slope = tassign(ub_buffer, 0x4000, ROWS);
    pto_tile *out = tassign(ub_buffer, 0x5000, ROWS);
    pto_tile *tmp = tassign_as(ub_buffer, 0x5000, PTO_UINT8, ROWS + 1, (COLS + 7) / 8);
    if (tmp != NULL && pto_tile_set_valid(tmp, ROWS, (COLS + 7) / 8) != PTO_OK) {
        pto_tile_destroy(tmp);
        tmp = NULL;
    }
    pto_status s = PTO_ERR_NULL_ARGUMENT;
    if (src0 && src1 && sum && slope && out && tmp) {
        s = pto_tpartadd(sum, src0, src1);
        if (s == PTO_OK) s = pto_tprelu(out, sum, slope, tmp);
    }
    pto_tile *all[] = {src0, src1, sum, slope, out, tmp};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) pto_tile_destroy(all[i]);
    return s;
}

int main(void) {
    /* Inputs written straight into the "on-chip" addresses. */
    for (int i = 0; i < ROWS * COLS; ++i) {
        at(0x1000)[i] = (float)(i % 7) - 3.0f;
        at(0x2000)[i] = (float)(i % 5) - 2.0f;
        at(0x4000)[i] = 0.25f;
    }
    pto_buffer *ub_buffer = NULL;
    if (!check(pto_buffer_wrap(ub, sizeof(ub), &ub_buffer), "pto_buffer_wrap")) return 1;

    /* A2A3: TPARTADD runs, TPRELU is refused before it writes anything. */
    check(pto_set_profile(PTO_PROFILE_A2A3), "pto_set_profile");
    const pto_status a2a3 = run_kernel(ub_buffer);
    printf("A2A3: %s\n  %s\n", pto_status_string(a2a3), pto_last_error());

    /* A5: the same program runs; the results are in ub at 0x5000. */
    check(pto_set_profile(PTO_PROFILE_A5), "pto_set_profile");
    const pto_status a5 = run_kernel(ub_buffer);
    printf("A5:   %s\n", pto_status_string(a5));
    int wrong = 0;
    for (int i = 0; i < ROWS * COLS; ++i) {
        const float x = at(0x1000)[i] + at(0x2000)[i];
        const float want = x > 0 ? x : x * 0.25f;
        wrong += at(0x3000)[i] != x || at(0x5000)[i] != want;
    }
    printf("  ub[0x5000..]: %g %g %g %g %g %g %g ...\n", at(0x5000)[0], at(0x5000)[1],
           at(0x5000)[2], at(0x5000)[3], at(0x5000)[4], at(0x5000)[5], at(0x5000)[6]);
    pto_buffer_destroy(ub_buffer);
    /* (The example doubles as a test: it fails unless A2A3 refused the
     * overlap and A5 computed every element.) */
    return a2a3 == PTO_ERR_ALIASING && a5 == PTO_OK && wrong == 0 ? 0 : 1;
}
