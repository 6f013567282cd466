/* What finding the caller's floating-point mode costs on x86-64, the part of
 * a one-element C call that the 1x1 goal (<= 4x an empty call) cannot lose:
 * each C function that computes in floating point must learn whether
 * MXCSR's FTZ, DAZ or rounding bits differ from the defaults
 * (src/float_env.h).
 *
 * Times, in ns per iteration (the best of ROUNDS batches, so other load
 * mostly drops out):
 *   - an empty loop iteration (the frame of the others);
 *   - stmxcsr and the load of its value (what FloatEnvironmentGuard does);
 *   - an arithmetic probe instead (1 + 0.75 ulp and -1 - 0.75 ulp tell the
 *     rounding bits apart; a subnormal operand tells DAZ, a tiny inexact
 *     product FTZ), its lanes normal only and with the subnormal lanes,
 *     each right after a dependent chain of four vector square roots, as a
 *     call follows the previous call's kernel. On Zen 5 the subnormal lanes
 *     wait for that chain (a microcode assist), as long as stmxcsr takes.
 *
 *   build/bench/lab/mode-read-cost [ROUNDS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__)
#include <emmintrin.h>

enum { kBatch = 10000 };

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Four dependent square roots of x's lanes: work in flight. */
static __attribute__((noinline)) __m128 chain(__m128 x) {
    for (int i = 0; i < 4; ++i) x = _mm_sqrt_ps(x);
    return x;
}

static __attribute__((noinline)) unsigned read_mxcsr(void) { return _mm_getcsr(); }

/* Whether the probe's lanes come out as under the defaults; with
 * subnormal lanes (DAZ and FTZ seen) or with normal ones only. */
static __attribute__((noinline)) int probe(int subnormal) {
    __m128 a = _mm_setr_ps(1.0f, -1.0f, subnormal ? 0x1p-149f : 1.0f,
                           subnormal ? 0x1.000002p-126f : 1.0f);
    __m128 b = _mm_setr_ps(0x1.8p-24f, -0x1.8p-24f, 0.0f, 0.0f);
    __m128 c = _mm_setr_ps(1.0f, 1.0f, 1.0f, 0.75f);
    __asm__ volatile("" : "+x"(a), "+x"(b), "+x"(c));
    const __m128 sum = _mm_add_ps(a, b);
    const __m128 product = _mm_mul_ps(a, c);
    const __m128 got = _mm_shuffle_ps(sum, product, _MM_SHUFFLE(3, 2, 1, 0));
    const __m128 want = _mm_setr_ps(0x1.000002p0f, -0x1.000002p0f, subnormal ? 0x1p-149f : 1.0f,
                                    subnormal ? 0x1.800004p-127f : 0.75f);
    const __m128i same = _mm_cmpeq_epi32(_mm_castps_si128(got), _mm_castps_si128(want));
    return _mm_movemask_epi8(same) == 0xFFFF;
}

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 200;
    if (rounds < 1) {
        fprintf(stderr, "usage: mode-read-cost [ROUNDS >= 1]\n");
        return 2;
    }
    const char *names[] = {"empty iteration", "stmxcsr", "probe, normal lanes, after a chain",
                           "probe, subnormal lanes, after a chain", "chain alone"};
    double best[5];
    volatile unsigned sink = 0;
    __m128 x = _mm_set1_ps(2.0f);
    for (int k = 0; k < 5; ++k) best[k] = 1e30;
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < 5; ++k) {
            const double t0 = now_ns();
            for (int i = 0; i < kBatch; ++i) {
                switch (k) {
                    case 0: sink += (unsigned)i; break;
                    case 1: sink += read_mxcsr(); break;
                    case 2: x = chain(x); sink += (unsigned)probe(0); break;
                    case 3: x = chain(x); sink += (unsigned)probe(1); break;
                    case 4: x = chain(x); break;
                }
            }
            const double t = (now_ns() - t0) / kBatch;
            if (t < best[k]) best[k] = t;
        }
    }
    for (int k = 0; k < 5; ++k) printf("%-40s %7.2f ns per iteration\n", names[k], best[k]);
    printf("probe's added cost after a chain: normal lanes %.2f ns, subnormal lanes %.2f ns; "
           "stmxcsr %.2f ns\n",
           best[2] - best[4], best[3] - best[4], best[1] - best[0]);
    return (int)(sink & 0) + (_mm_cvtss_f32(x) < 0);
}
#else
int main(void) {
    printf("mode-read-cost: x86-64 only (MXCSR)\n");
    return 0;
}
#endif
