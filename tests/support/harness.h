/* Shared test machinery: running a body on every SIMD target, tiles filled
 * with generated values, element access by bit pattern, the operations
 * behind one call, their per-element reference and accuracy bounds. */
#ifndef PTO_TEST_HARNESS_H
#define PTO_TEST_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "pto_c.h"
#include "ref.h"
#include "support.h"

/* ---- targets ---- */
typedef void (*target_body)(void *ctx, size_t target_index, const char *target);
/* Selects each target in turn (best first), asserts that pto_simd_target()
 * reports it, runs body (target_index counts the targets run: 0 for the
 * first), restores the real target set and prints which targets ran. Only
 * the targets test_target_wanted accepts run; the test fails if none does. */
void for_each_target(const char *test_name, target_body body, void *ctx);
/* Whether the tests run on target `name`: every target unless
 * PTO_TEST_TARGETS lists names (separated by spaces or commas, any case),
 * then those only. The emulated aarch64 CI runs each target on one of its
 * CPU models this way instead of on all of them. */
bool test_target_wanted(const char *name);

/* Under qemu-user (PTO_TEST_UNDER_QEMU, set by tests/ci/aarch64-qemu.sh):
 * prints "[test] why: not tested under emulation" and skips the test. */
void skip_under_qemu(const char *test, const char *why);
/* Under an emulator (qemu-user: PTO_TEST_UNDER_QEMU; valgrind:
 * PTO_TEST_UNDER_VALGRIND) or asked to (PTO_TEST_SAMPLED: the sanitizer
 * builds), where the long sweeps take a sample. */
bool under_emulation(void);
/* The k-th input of a sample of n from a set of size (a power of two; k
 * itself when n == size): an odd multiplier permutes the power-of-two range,
 * a spread sample. */
size_t sample_index(size_t k, size_t n, size_t size);

/* ---- values ---- */
typedef enum {
    GEN_ANY,      /* everything: specials, subnormals, random bits, moderate values */
    GEN_POSITIVE, /* mostly positive, with the specials */
    GEN_POW_BASE, /* bases whose powers stay mostly in range */
    GEN_POW_EXP,  /* integer and fractional exponents of moderate size */
    GEN_FINITE,   /* GEN_ANY's moderate values: no NaN, infinity or magnitude of 2^20 or more */
    GEN_CHAIN     /* a long chain's sources: GEN_POW_EXP's moderate values, GEN_FINITE's 1 in 16 */
} gen_kind;
/* (Moderate: an integer, or a float of magnitude below 2^20. A long sum of
 * products of such values stays finite, so that every term of a chain shows
 * in its result: one NaN or infinity among them makes the whole sum NaN or
 * infinite, and hides the rest.) */
uint64_t gen_value(rng *r, pto_dtype dt, gen_kind kind);
/* bits as a scalar argument carries them: the C API passes scalars as
 * doubles, so an 8-byte integer keeps at most 53 significant bits (its low
 * 11 cleared: every such value of INT64 and UINT64 is a double exactly);
 * any other dtype's bits unchanged. */
uint64_t exact_scalar(pto_dtype dt, uint64_t bits);
/* The interesting values of a float type: zeros, infinities, NaN, the
 * subnormal and normal extremes. Returns how many were written (<= 16). */
size_t float_specials(pto_dtype dt, uint64_t out[16]);
/* A pow input whose result lands where the caller wants: a base x =
 * (1 + u) 2^k, k uniform in [base_lo, base_hi], and an exponent y with
 * x^y = 2^t, t uniform in [lo, hi]. */
void gen_pow_pair_log2_result(rng *r, pto_dtype dt, int base_lo, int base_hi, double lo, double hi,
                              uint64_t *a, uint64_t *b);

/* ---- tiles ---- */
pto_tile *tile_new(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t valid_rows,
                   uint32_t valid_cols);
uint64_t tile_get(const pto_tile *t, size_t row, size_t col);
void tile_put(pto_tile *t, size_t row, size_t col, uint64_t bits);
void tile_fill(pto_tile *t, rng *r, gen_kind kind);
/* Destroys the n tiles (NULLs are skipped, as pto_tile_destroy does);
 * TILES_DESTROY(a, b, ...) lists them in place. */
void tiles_destroy(size_t n, pto_tile *const *tiles);
#define TILES_DESTROY(...) \
    tiles_destroy(COUNT(((pto_tile *const[]){__VA_ARGS__})), (pto_tile *const[]){__VA_ARGS__})
/* All rows*cols elements as bit patterns (free() the result). */
uint64_t *tile_snapshot(const pto_tile *t);
/* Every element of t (the whole tile) still equals the snapshot, bitwise. */
void assert_tile_unchanged(const pto_tile *t, const uint64_t *snapshot, const char *what);
/* A call's status is `want`; else the test fails naming `what`, both
 * statuses and the call's pto_last_error(). */
void expect_status(pto_status got, pto_status want, const char *what);

/* ---- operations ---- */
/* The reference for one element: pow(a, b), rsqrt(a), prelu(a, b), a / b, a + b. */
uint64_t op_reference(op_id op, pto_dtype dt, uint64_t a, uint64_t b);

#define TOL_NAN_CLASS_ONLY UINT64_MAX
/* The contract's bound, in ulp steps from the correctly rounded reference
 * (trsqrt: 0, it is correctly rounded although the contract allows 1 ulp);
 * TOL_NAN_CLASS_ONLY where it promises nothing but NaN-ness (float32 DEFAULT
 * pow with a result that is not a normal number). */
uint64_t op_tolerance(op_id op, pto_dtype dt, pto_pow_algorithm algo, uint64_t reference);
bool within_tolerance(pto_dtype dt, uint64_t tolerance, uint64_t reference, uint64_t got);

/* Runs the operation elementwise over n values (src1 = b, ignored by
 * trsqrt; tcolexpanddiv divides by one row: out[i] = a[i] / b[i % cols] with
 * cols = 512 when n is a multiple of 512, else n) and stores the results in
 * out. Asserts PTO_OK. */
void op_run_arrays(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a,
                   const uint64_t *b, uint64_t *out, size_t n);
/* The same over a rows x cols tile (tcolexpanddiv divides by b's first
 * cols elements). */
void op_run_rows(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a, const uint64_t *b,
                 uint64_t *out, uint32_t rows, uint32_t cols);
/* The same in tiles pad columns wider than their valid region (cols): rows
 * that do not follow one another in memory. */
void op_run_padded(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a, const uint64_t *b,
                   uint64_t *out, uint32_t rows, uint32_t cols, uint32_t pad);

/* ---- programs ---- */
/* PTOAS's spelling of dt: i8 ui8 i16 ui16 i32 ui32 f16 bf16 f32 i64 ui64. */
const char *dtype_spelling(pto_dtype dt);
/* Creates the program `text` (tiles named %s and %d), binds s and d and runs
 * it, asserting the run succeeds; returns the creation status (nothing runs
 * when it is not PTO_OK). */
pto_status run_snippet_sd(const char *text, pto_tile *s, pto_tile *d);
/* The same with the snippet's tile parameters names[k] (no '%') bound to
 * tiles[k]; fails the test when the run itself fails. */
pto_status run_snippet_tiles(const char *text, size_t n, const char *const *names, pto_tile *const *tiles);
/* Runs `text` (it must compile) with the named tile and integer (index)
 * parameters bound, names without '%' (a name the text lacks is skipped:
 * one list serves several forms); returns the run's status. */
pto_status run_program_bound(const char *text, const char *const *tile_names, pto_tile *const *tiles,
                             size_t ntiles, const char *const *int_names, const int64_t *ints,
                             size_t nints);
/* The program `text` is refused with `want` and nothing is created. */
void expect_program_refused(const char *text, pto_status want);
/* Creates the program `text` with entry point `entry` (NULL: the one the
 * module names), "t.pto" in its messages; fails the test when it is
 * refused. */
pto_program *program_build(const char *text, const char *entry);
/* Creating `text` with entry `entry` fails with a message containing `want`. */
void expect_program_refused_with(const char *text, const char *entry, const char *want);
/* Runs p with its first parameter bound to nbytes of memory at data; fails
 * the test when the run fails. */
void program_run_on(pto_program *p, void *data, size_t nbytes);

/* ---- matrix multiply ---- */
/* Where each chain of a matrix multiply's dst starts: pto_tmatmul (0),
 * pto_tmatmul_acc (dst as it was), pto_tmatmul_bias (bias's row 0). */
typedef enum { SEED_ZERO, SEED_DST, SEED_BIAS } seed_kind;
/* "tmatmul", "tmatmul_acc", "tmatmul_bias". */
extern const char *const kSeedNames[3];
/* The call of `seed` (bias is read by pto_tmatmul_bias only). */
pto_status matmul_call(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                       const pto_tile *bias);
/* "tgemv", "tgemv_acc", "tgemv_bias". */
extern const char *const kGemvNames[3];
/* The GEMV call of `seed`: pto_tgemv, pto_tgemv_acc, pto_tgemv_bias. */
pto_status gemv_call(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                     const pto_tile *bias);
/* The call of `seed` (its GEMV form when `gemv`) is refused with `want` and
 * a sentence that names the function and contains `sentence`; dst (when
 * given) is unchanged. */
void expect_matmul_refused(bool gemv, seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                           const pto_tile *bias, pto_status want, const char *sentence);

#endif
