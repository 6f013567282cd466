/* The caller's floating-point environment does not change results: with
 * flush-to-zero, denormals-are-zero (x86) or default-NaN and half-precision
 * flush-to-zero (aarch64), and round-toward-zero set on the calling thread,
 * the operations and the conversions give the same bits as under the
 * defaults, and the caller's settings are back in place afterwards. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>

/* MXCSR: FTZ (bit 15), round toward zero (bits 13-14 = 11), DAZ (bit 6). */
#define HOSTILE_MODE ((1ul << 15) | (3ul << 13) | (1ul << 6))
#define HOSTILE_MODE_IF_HELD 0ul
#define MODE_REGISTER "MXCSR"
/* Each bit alone: FTZ, DAZ, round down, round up, round toward zero. */
static const unsigned long kSingleModes[] = {1ul << 15, 1ul << 6, 1ul << 13, 2ul << 13, 3ul << 13};
static unsigned long get_mode(void) { return _mm_getcsr(); }
static void set_mode(unsigned long v) { _mm_setcsr((unsigned)v); }
#define HAVE_MODE_REGISTER 1

#elif defined(__aarch64__)
/* FPCR: DN (bit 25), FZ (24), round toward zero (RMode, bits 22-23 = 11);
 * FZ16 (19) where the CPU has half-precision arithmetic (it reads as zero
 * elsewhere, e.g. on a Cortex-A57). */
#define HOSTILE_MODE ((1ul << 25) | (1ul << 24) | (3ul << 22))
#define HOSTILE_MODE_IF_HELD (1ul << 19)
#define MODE_REGISTER "FPCR"
/* Each bit alone: DN, FZ, round toward +inf, -inf, zero. */
static const unsigned long kSingleModes[] = {1ul << 25, 1ul << 24, 1ul << 22, 2ul << 22, 3ul << 22};
static unsigned long get_mode(void) {
    unsigned long v;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
    return v;
}
static void set_mode(unsigned long v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v) : "memory"); }
#define HAVE_MODE_REGISTER 1
#endif

#if HAVE_MODE_REGISTER
#define N 4096

/* HOSTILE_MODE plus the bits of HOSTILE_MODE_IF_HELD this CPU keeps. */
static unsigned long hostile_mode = HOSTILE_MODE;

static const pto_dtype kFloatTypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};

typedef struct {
    op_id op;
    pto_pow_algorithm algo;
} op_case;

static const op_case kCases[] = {
    {OP_TPOW, PTO_POW_DEFAULT}, {OP_TPOW, PTO_POW_HIGH_PRECISION}, {OP_TRSQRT, PTO_POW_DEFAULT},
    {OP_TPRELU, PTO_POW_DEFAULT}, {OP_TCOLEXPANDDIV, PTO_POW_DEFAULT}, {OP_TPARTADD, PTO_POW_DEFAULT},
};

/* Runs op over the inputs with the hostile mode set, checks the mode is
 * restored, and returns the results. */
static void run_hostile(const op_case *c, pto_dtype dt, const uint64_t *a, const uint64_t *b,
                        uint64_t *out) {
    const unsigned long saved = get_mode();
    set_mode(saved | hostile_mode);
    op_run_arrays(c->op, dt, c->algo, a, b, out, N);
    const unsigned long after = get_mode();
    set_mode(saved);
    assert_int_equal(after & hostile_mode, hostile_mode);
}

static void ops_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *plain = malloc(N * sizeof *plain),
             *hostile = malloc(N * sizeof *hostile);
    assert_true(a && b && plain && hostile);
    for (size_t t = 0; t < COUNT(kFloatTypes); ++t) {
        const pto_dtype dt = kFloatTypes[t];
        /* The listed cases, then every other operations.def row. */
        for (size_t k = 0; k < COUNT(kCases) + OP_COUNT; ++k) {
            const op_case family_case = {(op_id)(k - COUNT(kCases)), PTO_POW_DEFAULT};
            const op_case *c = k < COUNT(kCases) ? &kCases[k] : &family_case;
            if (k >= COUNT(kCases) && op_row(c->op)->family == OP_FAMILY_SPECIAL) continue;
            if (!op_accepts(c->op, PTO_PROFILE_HOST, dt)) continue;
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
                    print_error("%s dtype %d on %s: input (0x%" PRIx64 ", 0x%" PRIx64 ") gives 0x%" PRIx64 " by default but "
                                "0x%" PRIx64 " under the hostile " MODE_REGISTER " mode\n",
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
    for_each_target("every float operation under the hostile " MODE_REGISTER " mode", ops_body, NULL);
}

/* Each mode bit alone is undone, not only all of them at once: a guard that
 * looked at some of the bits (or found a mode other than the defaults by
 * arithmetic, which src/float_env.h does not: a subnormal operand or result
 * takes a microcode assist on Zen 5 while earlier floating-point work is in
 * flight, as slow as reading the register) must still see each one. The
 * best target. */
static void test_each_mode_bit_alone(void **state) {
    (void)state;
    const unsigned long all = hostile_mode;
    for (size_t m = 0; m < COUNT(kSingleModes); ++m) {
        hostile_mode = kSingleModes[m];
        print_message("[mode] " MODE_REGISTER " bits 0x%lx alone\n", hostile_mode);
        ops_body(NULL, 0, pto_simd_target());
    }
    hostile_mode = all;
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
        const unsigned long saved = get_mode();
        set_mode(saved | hostile_mode);
        const pto_status w = pto_tile_write_f32(t, in, N);
        const pto_status rd = pto_tile_read_f32(t, back_hostile, N);
        const unsigned long after = get_mode();
        set_mode(saved);
        assert_int_equal(w, PTO_OK);
        assert_int_equal(rd, PTO_OK);
        assert_int_equal(after & hostile_mode, hostile_mode);
        assert_int_equal(pto_tile_read(t, hostile, sizeof(hostile)), PTO_OK);
        assert_memory_equal(plain, hostile, sizeof(plain));
        assert_memory_equal(back_plain, back_hostile, sizeof(back_plain));
        pto_tile_destroy(t);
    }
}

static void test_conversions_ignore_caller_mode(void **state) {
    (void)state;
    for_each_target("float16/bfloat16 conversions under the hostile " MODE_REGISTER " mode",
                    conversions_body, NULL);
}

int main(void) {
    /* valgrind does not model FTZ, DAZ or the rounding bits: there the mode
     * cannot be set, so there is nothing to test (meson reports a skip). */
    const unsigned long saved = get_mode();
    set_mode(saved | HOSTILE_MODE | HOSTILE_MODE_IF_HELD);
    const unsigned long held = get_mode();
    set_mode(saved);
    hostile_mode = HOSTILE_MODE | (held & HOSTILE_MODE_IF_HELD);
    fprintf(stderr, "float_env: hostile " MODE_REGISTER " bits 0x%lx\n", hostile_mode);
    if ((held & HOSTILE_MODE) != HOSTILE_MODE) {
        fprintf(stderr, "float_env: " MODE_REGISTER " does not keep the mode bits here (0x%lx); skipped\n",
                held);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operations_ignore_caller_mode),
        cmocka_unit_test(test_conversions_ignore_caller_mode),
        cmocka_unit_test(test_each_mode_bit_alone),
    };
    return cmocka_run_group_tests_name("float_env", tests, NULL, NULL);
}
#else
int main(void) {
    fprintf(stderr, "float_env: no floating-point mode register known on this architecture\n");
    return 77; /* meson's "skipped" */
}
#endif
