/* libpto quickstart: runs tpow, trsqrt, tprelu, tcolexpanddiv and tpartadd
 * on small tiles and prints inputs and results. Uses only the public header.
 *
 *   cc quickstart.c $(pkg-config --cflags --libs pto) -o quickstart
 */
#include <math.h>
#include <pto_c.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 2
#define COLS 4
#define N (ROWS * COLS)

/* Stops the demo with the library's own explanation of what went wrong. */
static void check(pto_status s, const char *what) {
    if (s != PTO_OK) {
        fprintf(stderr, "%s failed: %s (%s)\n", what, pto_status_string(s), pto_last_error());
        exit(1);
    }
}

static pto_tile *make_f32(const float *values, uint32_t rows, uint32_t cols) {
    pto_tile *t = NULL;
    check(pto_tile_create(PTO_FLOAT32, rows, cols, &t), "pto_tile_create");
    if (values != NULL) check(pto_tile_write_f32(t, values, (size_t)rows * cols), "pto_tile_write_f32");
    return t;
}

static void print_tile(const char *name, const pto_tile *t) {
    float v[N];
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    check(pto_tile_read_f32(t, v, n), "pto_tile_read_f32");
    printf("  %-6s [%ux%u valid %ux%u]", name, pto_tile_rows(t), pto_tile_cols(t),
           pto_tile_valid_rows(t), pto_tile_valid_cols(t));
    for (size_t i = 0; i < n; ++i) {
        const char *sep = i % pto_tile_cols(t) == 0 ? "\n    " : " ";
        if (isnan(v[i])) printf("%s%10s", sep, "nan"); /* the sign of a NaN means nothing */
        else printf("%s%10.6g", sep, v[i]);
    }
    printf("\n");
}

int main(void) {
    printf("libpto %s, SIMD target %s\n\n", pto_version_string(), pto_simd_target());

    const float a[N] = {2.0f, -3.0f, 0.5f, 9.0f, -1.5f, 4.0f, 10.0f, 0.0f};
    const float b[N] = {10.0f, 3.0f, -2.0f, 0.5f, 0.25f, 0.25f, -1.0f, 0.1f};
    pto_tile *x = make_f32(a, ROWS, COLS);
    pto_tile *y = make_f32(b, ROWS, COLS);
    pto_tile *dst = make_f32(NULL, ROWS, COLS);
    pto_tile *tmp = make_f32(NULL, ROWS, COLS);
    print_tile("x", x);
    print_tile("y", y);

    printf("\nTPOW dst = x ^ y (high precision)\n");
    check(pto_tpow(dst, x, y, tmp, PTO_POW_HIGH_PRECISION), "pto_tpow");
    print_tile("dst", dst);

    printf("\nTRSQRT dst = 1 / sqrt(x)  (negative -> NaN, 0 -> inf)\n");
    check(pto_trsqrt(dst, x), "pto_trsqrt");
    print_tile("dst", dst);

    printf("\nTPRELU dst = x > 0 ? x : x * y\n");
    check(pto_tprelu(dst, x, y, NULL), "pto_tprelu");
    print_tile("dst", dst);

    printf("\nTCOLEXPANDDIV dst[i,j] = x[i,j] / y[0,j]\n");
    check(pto_tcolexpanddiv(dst, x, y), "pto_tcolexpanddiv");
    print_tile("dst", dst);

    printf("\nTPARTADD with y valid only in its 1x2 corner: sum there, copy of x elsewhere\n");
    check(pto_tile_set_valid(y, 1, 2), "pto_tile_set_valid");
    check(pto_tpartadd(dst, x, y), "pto_tpartadd");
    print_tile("dst", dst);

    printf("\nErrors are values: a 1x2 base against a 2x4 dst\n");
    pto_status s = pto_tpow(dst, y, x, tmp, PTO_POW_DEFAULT);
    printf("  %s: %s\n", pto_status_string(s), pto_last_error());

    pto_tile_destroy(x);
    pto_tile_destroy(y);
    pto_tile_destroy(dst);
    pto_tile_destroy(tmp);
    return s == PTO_ERR_SHAPE_MISMATCH ? 0 : 1;
}
