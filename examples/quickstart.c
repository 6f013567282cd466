/* libpto quickstart: a row softmax, y = exp(x - max(x)) / sum(exp(x - max(x)))
 * along each row of a 64x256 float32 matrix, computed twice:
 *  - from C calls, one PTO instruction each (trowmax, trowexpandsub, texp,
 *    trowsum, trowexpanddiv), on one 64x256 tile;
 *  - by the kernel examples/kernels/softmax.pto, the same five instructions
 *    in PTO assembly on 8-row tiles, run as a program on 2 blocks.
 * It prints a few results, the largest deviation from a softmax computed in
 * double, and whether the two results agree bit for bit (exit status 1 if
 * not). Uses only the public header.
 *
 *   cc quickstart.c $(pkg-config --cflags --libs pto) -lm -o quickstart
 *   ./quickstart [KERNEL.pto [NPY_DIR]]
 *
 * KERNEL.pto defaults to examples/kernels/softmax.pto (run from the checkout).
 * With NPY_DIR it also writes NPY_DIR/softmax-x.npy (the input) and
 * NPY_DIR/softmax-c.npy (the C calls' result), for pto-run to reproduce.
 */
#include <float.h>
#include <math.h>
#include <pto_c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 64
#define COLS 256
#define BLOCKS 2

/* Stops the demo with the library's own explanation of what went wrong. */
static void check(pto_status s, const char *what) {
    if (s != PTO_OK) {
        fprintf(stderr, "%s failed: %s (%s)\n", what, pto_status_string(s), pto_last_error());
        exit(1);
    }
}

/* Inputs in [-8, 8), from a fixed linear congruential sequence. */
static void fill_input(float *x, size_t n) {
    uint32_t state = 12345u;
    for (size_t i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        x[i] = (float)(state >> 8) / (float)(1u << 24) * 16.0f - 8.0f;
    }
}

/* The softmax from C calls: x's tile becomes y in place, max and sum are
 * one column of 64 rows. */
static void softmax_from_calls(const float *x, float *y) {
    pto_tile *t, *max, *sum;
    check(pto_tile_create(PTO_FLOAT32, ROWS, COLS, &t), "pto_tile_create");
    check(pto_tile_create(PTO_FLOAT32, ROWS, 1, &max), "pto_tile_create");
    check(pto_tile_create(PTO_FLOAT32, ROWS, 1, &sum), "pto_tile_create");
    check(pto_tile_write_f32(t, x, ROWS * COLS), "pto_tile_write_f32");
    check(pto_trowmax(max, t, NULL), "pto_trowmax");                  /* max(i) = max_j x(i,j)  */
    check(pto_trowexpandsub(t, t, max, NULL), "pto_trowexpandsub");   /* x(i,j) - max(i)        */
    check(pto_texp(t, t), "pto_texp");                                /* e^(x - max)            */
    check(pto_trowsum(sum, t, NULL), "pto_trowsum");                  /* sum(i) = sum_j e^(...) */
    check(pto_trowexpanddiv(t, t, sum, NULL), "pto_trowexpanddiv");   /* e^(...) / sum(i)       */
    check(pto_tile_read_f32(t, y, ROWS * COLS), "pto_tile_read_f32");
    pto_tile_destroy(t);
    pto_tile_destroy(max);
    pto_tile_destroy(sum);
}

/* The whole file, for pto_program_create_entry (which needs no NUL). */
static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text == NULL || fseek(f, 0, SEEK_SET) != 0 || fread(text, 1, (size_t)size, f) != (size_t)size) {
        perror(path);
        exit(1);
    }
    fclose(f);
    *length = (size_t)size;
    return text;
}

static size_t param(const pto_program *p, const char *name) {
    size_t index;
    check(pto_program_param_find(p, name, &index), "pto_program_param_find");
    return index;
}

/* The softmax by the kernel file: parsed and verified once, its pointers
 * bound to x and y (zero-copy), run on BLOCKS blocks at once. */
static void softmax_from_kernel(const char *path, float *x, float *y) {
    size_t length;
    char *text = read_file(path, &length);
    pto_program *p;
    pto_args *args;
    check(pto_program_create_entry(text, length, path, "softmax", &p), "pto_program_create_entry");
    free(text);
    check(pto_args_create(p, &args), "pto_args_create");
    check(pto_args_set_pointer(args, param(p, "x"), x, ROWS * COLS * sizeof(float)), "x");
    check(pto_args_set_pointer(args, param(p, "y"), y, ROWS * COLS * sizeof(float)), "y");
    check(pto_args_set_int(args, param(p, "m"), ROWS), "m");
    check(pto_args_set_int(args, param(p, "n"), COLS), "n");
    check(pto_program_launch(p, BLOCKS, args), "pto_program_launch");
    printf("  %s: verified under profile %s, run on %d blocks\n", path,
           pto_profile_string(pto_program_profile(p)), BLOCKS);
    pto_args_destroy(args);
    pto_program_destroy(p);
}

/* The largest relative deviation of y from a softmax of x computed in double. */
static double largest_deviation(const float *x, const float *y) {
    double worst = 0.0;
    for (size_t i = 0; i < ROWS; ++i) {
        const float *row = x + i * COLS;
        double max = row[0], sum = 0.0;
        for (size_t j = 1; j < COLS; ++j)
            if (row[j] > max) max = row[j];
        for (size_t j = 0; j < COLS; ++j) sum += exp(row[j] - max);
        for (size_t j = 0; j < COLS; ++j) {
            const double exact = exp(row[j] - max) / sum;
            const double deviation = fabs(y[i * COLS + j] - exact) / exact;
            if (deviation > worst) worst = deviation;
        }
    }
    return worst;
}

/* The ROWS x COLS float32 array as a .npy file: format 1.0, its header padded
 * with spaces to a multiple of 64 bytes as NumPy writes it (pto-run writes the
 * same header, so equal arrays are equal files). */
static void write_npy(const char *dir, const char *name, const float *data) {
    char path[4096], header[128];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    memset(header, ' ', sizeof(header));
    memcpy(header, "\x93NUMPY\x01\x00", 8);          /* magic, version 1.0 */
    header[8] = (char)(sizeof(header) - 10);          /* the dict's length, little-endian */
    header[9] = 0;
    const int n = snprintf(header + 10, sizeof(header) - 10,
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", ROWS,
                           COLS);
    header[10 + n] = ' ';                              /* snprintf's terminating NUL */
    header[sizeof(header) - 1] = '\n';
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(header, 1, sizeof(header), f) != sizeof(header) ||
        fwrite(data, sizeof(float), ROWS * COLS, f) != ROWS * COLS || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    printf("  wrote %s\n", path);
}

int main(int argc, char **argv) {
    const char *kernel = argc > 1 ? argv[1] : "examples/kernels/softmax.pto";
    static float x[ROWS * COLS], y_calls[ROWS * COLS], y_kernel[ROWS * COLS];
    printf("libpto %s, SIMD target %s\n\n", pto_version_string(), pto_simd_target());
    printf("Row softmax of a %dx%d float32 matrix, y = exp(x - max(x)) / sum(exp(x - max(x)))\n",
           ROWS, COLS);
    fill_input(x, ROWS * COLS);

    /* The C calls check the rules of the profile the kernel declares (A5). */
    pto_set_profile(PTO_PROFILE_A5);
    softmax_from_calls(x, y_calls);
    printf("  C calls: trowmax, trowexpandsub, texp, trowsum, trowexpanddiv on one %dx%d tile\n",
           ROWS, COLS);
    softmax_from_kernel(kernel, x, y_kernel);

    printf("\n  x[0][0..3] %10.6f %10.6f %10.6f %10.6f\n", x[0], x[1], x[2], x[3]);
    printf("  y[0][0..3] %10.6g %10.6g %10.6g %10.6g\n", y_calls[0], y_calls[1], y_calls[2],
           y_calls[3]);
    printf("  largest relative deviation from a softmax in double: %.3g (float32's epsilon %.3g)\n",
           largest_deviation(x, y_calls), (double)FLT_EPSILON);
    const int same = memcmp(y_calls, y_kernel, sizeof(y_calls)) == 0;
    printf("  C calls and the kernel on %d blocks: %s\n", BLOCKS,
           same ? "the same bits" : "DIFFERENT bits");

    if (argc > 2) {
        write_npy(argv[2], "softmax-x.npy", x);
        write_npy(argv[2], "softmax-c.npy", y_calls);
    }

    printf("\nErrors are values: trowexpanddiv by a 32-row column against 64 rows\n");
    pto_tile *t, *half;
    check(pto_tile_create(PTO_FLOAT32, ROWS, COLS, &t), "pto_tile_create");
    check(pto_tile_create(PTO_FLOAT32, ROWS / 2, 1, &half), "pto_tile_create");
    pto_status s = pto_trowexpanddiv(t, t, half, NULL);
    printf("  %s: %s\n", pto_status_string(s), pto_last_error());
    pto_tile_destroy(t);
    pto_tile_destroy(half);
    return same && s == PTO_ERR_SHAPE_MISMATCH ? 0 : 1;
}
