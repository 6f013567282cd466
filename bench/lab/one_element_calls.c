/* one-element-calls: N calls of one operation on 1x1 float32 tiles, for
 * counting the instructions of one call under callgrind, where times are
 * unreliable (a shared machine) but counts are not:
 *
 *   valgrind --tool=callgrind --toggle-collect=pto_tprelu \
 *       build/bench/lab/one-element-calls tprelu 10000
 *
 * divides to the instructions per call (callgrind runs the AVX2 kernels).
 * OP: tpow, tpow-high, trsqrt, tprelu, tcolexpanddiv, tpartadd or empty
 * (empty_call, the floor pto-bench compares a 1x1 call with). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "pto_c.h"

static pto_tile *one_element(float value) {
    pto_tile *t = NULL;
    if (pto_tile_create(PTO_FLOAT32, 1, 1, &t) != PTO_OK) {
        fprintf(stderr, "one-element-calls: %s\n", pto_last_error());
        exit(1);
    }
    pto_tile_write_f32(t, &value, 1);
    return t;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: one-element-calls OP N\n");
        return 2;
    }
    const char *op = argv[1];
    const long n = atol(argv[2]);
    pto_tile *dst = one_element(0.0f), *a = one_element(2.0f), *b = one_element(0.5f);
    pto_tile *tmp = one_element(0.0f);
    pto_status status = PTO_OK;
    for (long i = 0; i < n && status == PTO_OK; ++i) {
        if (strcmp(op, "tpow") == 0) status = pto_tpow(dst, a, b, tmp, PTO_POW_DEFAULT);
        else if (strcmp(op, "tpow-high") == 0) status = pto_tpow(dst, a, b, tmp, PTO_POW_HIGH_PRECISION);
        else if (strcmp(op, "trsqrt") == 0) status = pto_trsqrt(dst, a);
        else if (strcmp(op, "tprelu") == 0) status = pto_tprelu(dst, a, b, NULL);
        else if (strcmp(op, "tcolexpanddiv") == 0) status = pto_tcolexpanddiv(dst, a, b);
        else if (strcmp(op, "tpartadd") == 0) status = pto_tpartadd(dst, a, b);
        else if (strcmp(op, "empty") == 0) empty_call(pto_tile_data(dst), a, b);
        else {
            fprintf(stderr, "one-element-calls: unknown operation %s\n", op);
            return 2;
        }
    }
    if (status != PTO_OK) {
        fprintf(stderr, "one-element-calls: %s\n", pto_last_error());
        return 1;
    }
    pto_tile_destroy(dst);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(tmp);
    return 0;
}
