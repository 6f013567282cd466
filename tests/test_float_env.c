/* The caller's floating-point environment does not change results: with
 * flush-to-zero, denormals-are-zero and round-toward-zero set on the calling
 * thread, every float operation and conversion gives the same bits as under
 * the defaults, and the caller's settings are back in place afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>

/* FTZ (bit 15), round toward zero (bits 13-14 = 11), DAZ (bit 6). */
#define HOSTILE_MODE ((1u << 15) | (3u << 13) | (1u << 6))
#define N 4096

static const pto_dtype kFloatTypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};

typedef struct {
    op_id op;
    pto_pow_algorithm algo;
} op_case;

static const op_case kCases[] = {
    {OP_TPOW, PTO_POW_DEFAULT}, {OP_TPOW, PTO_POW_HIGH_PRECISION}, {OP_TRSQRT, PTO_POW_DEFAULT},
    {OP_TPRELU, PTO_POW_DEFAULT}, {OP_TPARTADD, PTO_POW_DEFAULT},
};

/* Runs op over the inputs with the hostile mode set, checks the mode is
 * restored, and returns the results. */
static void run_hostile(const op_case *c, pto_dtype dt, const uint32_t *a, const uint32_t *b,
                        uint32_t *out) {
    const unsigned saved = _mm_getcsr();
    _mm_setcsr((saved & ~HOSTILE_MODE) | HOSTILE_MODE);
    op_run_arrays(c->op, dt, c->algo, a, b, out, N);
    const unsigned after = _mm_getcsr();
    _mm_setcsr(saved);
    assert_int_equal(after & HOSTILE_MODE, HOSTILE_MODE);
}

static void ops_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    uint32_t *a = malloc(N * 4), *b = malloc(N * 4), *plain = malloc(N * 4), *hostile = malloc(N * 4);
    assert_true(a && b && plain && hostile);
    for (size_t t = 0; t < COUNT(kFloatTypes); ++t) {
        const pto_dtype dt = kFloatTypes[t];
        for (size_t k = 0; k < COUNT(kCases); ++k) {
            const op_case *c = &kCases[k];
            if (c->op == OP_TRSQRT && dt == PTO_BFLOAT16) continue; /* not in the contract */
            rng r = {0xF10A7000u + t * 16 + k};
            for (size_t i = 0; i < N; ++i) {
                /* Subnormal inputs in half the lanes, a mix in the rest. */
                a[i] = i % 2 ? gen_value(&r, dt, GEN_ANY)
                             : (uint32_t)(rng_next(&r) & (dt == PTO_FLOAT32 ? 0x807FFFFFu : 0x83FFu));
                if (dt == PTO_BFLOAT16 && i % 2 == 0) a[i] &= 0x807Fu;
                b[i] = c->op == OP_TPOW ? gen_value(&r, dt, GEN_POW_EXP) : gen_value(&r, dt, GEN_ANY);
            }
            op_run_arrays(c->op, dt, c->algo, a, b, plain, N);
            run_hostile(c, dt, a, b, hostile);
            for (size_t i = 0; i < N; ++i) {
                if (plain[i] != hostile[i]) {
                    print_error("%s dtype %d on %s: input (0x%x, 0x%x) gives 0x%x by default but "
                                "0x%x under FTZ/DAZ/round-toward-zero\n",
                                op_name(c->op), (int)dt, target, a[i], b[i], plain[i], hostile[i]);
                    fail();
                }
            }
        }
    }
    free(a), free(b), free(plain), free(hostile);
}

static void test_operations_ignore_caller_mode(void **state) {
    (void)state;
    for_each_target("float operations under FTZ/DAZ/round-toward-zero", ops_body, NULL);
}

static void conversions_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index, (void)target;
    static const pto_dtype kNarrow[] = {PTO_FLOAT16, PTO_BFLOAT16};
    float in[N], back_plain[N], back_hostile[N];
    uint16_t plain[N], hostile[N];
    rng r = {0xC0117E27u};
    for (size_t i = 0; i < N; ++i) {
        /* Values around the float16 subnormal range and random bit patterns. */
        const uint32_t bits = i % 2 ? (uint32_t)rng_next(&r)
                                    : 0x33000000u + (uint32_t)(rng_next(&r) % 0x08000000u);
        memcpy(&in[i], &bits, 4);
    }
    for (size_t k = 0; k < COUNT(kNarrow); ++k) {
        pto_tile *t = tile_new(kNarrow[k], 64, 64, 64, 64);
        assert_int_equal(pto_tile_write_f32(t, in, N), PTO_OK);
        assert_int_equal(pto_tile_read(t, plain, sizeof(plain)), PTO_OK);
        assert_int_equal(pto_tile_read_f32(t, back_plain, N), PTO_OK);
        const unsigned saved = _mm_getcsr();
        _mm_setcsr((saved & ~HOSTILE_MODE) | HOSTILE_MODE);
        const pto_status w = pto_tile_write_f32(t, in, N);
        const pto_status rd = pto_tile_read_f32(t, back_hostile, N);
        const unsigned after = _mm_getcsr();
        _mm_setcsr(saved);
        assert_int_equal(w, PTO_OK);
        assert_int_equal(rd, PTO_OK);
        assert_int_equal(after & HOSTILE_MODE, HOSTILE_MODE);
        assert_int_equal(pto_tile_read(t, hostile, sizeof(hostile)), PTO_OK);
        assert_memory_equal(plain, hostile, sizeof(plain));
        assert_memory_equal(back_plain, back_hostile, sizeof(back_plain));
        pto_tile_destroy(t);
    }
}

static void test_conversions_ignore_caller_mode(void **state) {
    (void)state;
    for_each_target("float16/bfloat16 conversions under FTZ/DAZ/round-toward-zero",
                    conversions_body, NULL);
}

int main(void) {
    /* valgrind does not model FTZ, DAZ or the rounding bits: there the mode
     * cannot be set, so there is nothing to test (meson reports a skip). */
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | HOSTILE_MODE);
    const unsigned held = _mm_getcsr();
    _mm_setcsr(saved);
    if ((held & HOSTILE_MODE) != HOSTILE_MODE) {
        fprintf(stderr, "float_env: MXCSR does not keep FTZ/DAZ/rounding here (0x%x); skipped\n", held);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operations_ignore_caller_mode),
        cmocka_unit_test(test_conversions_ignore_caller_mode),
    };
    return cmocka_run_group_tests_name("float_env", tests, NULL, NULL);
}
#else
int main(void) {
    fprintf(stderr, "float_env: MXCSR tests apply to x86 only\n");
    return 77; /* meson's "skipped" */
}
#endif
