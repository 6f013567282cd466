#include "harness.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- targets ---- */

bool test_target_wanted(const char *name) {
    const char *list = getenv("PTO_TEST_TARGETS");
    if (list == NULL || *list == '\0') return true;
    const size_t len = strlen(name);
    for (const char *p = list; *p != '\0';) {
        p += strspn(p, " ,");
        const size_t word = strcspn(p, " ,");
        if (word == len && strncasecmp(p, name, len) == 0) return true;
        p += word;
    }
    return false;
}

void for_each_target(const char *test_name, target_body body, void *ctx) {
    const size_t n = targets_count();
    assert_true(n >= 1);
    char ran[256] = "", left[256] = "";
    size_t run = 0;
    for (size_t i = 0; i < n; ++i) {
        const int64_t target = targets_at(i);
        const char *name = targets_name(target);
        char *list = test_target_wanted(name) ? ran : left;
        strncat(list, " ", 255 - strlen(list));
        strncat(list, name, 255 - strlen(list));
        if (list == left) continue;
        targets_select(target);
        assert_string_equal(pto_simd_target(), name);
        body(ctx, run++, name);
    }
    targets_select(0);
    assert_string_equal(pto_simd_target(), targets_name(targets_at(0))); /* the best again */
    if (run == 0)
        fail_msg("%s: PTO_TEST_TARGETS=\"%s\" names none of the targets here:%s", test_name,
                 getenv("PTO_TEST_TARGETS"), left);
    if (left[0] != '\0')
        print_message("[targets] %s ran on:%s (left out by PTO_TEST_TARGETS:%s)\n", test_name, ran, left);
    else
        print_message("[targets] %s ran on:%s\n", test_name, ran);
}

/* ---- values ---- */

size_t float_specials(pto_dtype dt, uint64_t out[16]) {
    int frac = 23, exp = 8;
    if (dt == PTO_FLOAT16) frac = 10, exp = 5;
    if (dt == PTO_BFLOAT16) frac = 7;
    const uint64_t sign = UINT64_C(1) << (frac + exp);
    const uint64_t inf = ((UINT64_C(1) << exp) - 1u) << frac;
    const uint64_t values[] = {
        0,                      /* +0 */
        sign,                   /* -0 */
        inf,                    /* +inf */
        sign | inf,             /* -inf */
        inf | (UINT64_C(1) << (frac - 1)), /* quiet NaN */
        sign | inf | 1u,        /* negative signalling NaN */
        1u,                     /* least subnormal */
        sign | 1u,
        (1u << frac) - 1u,      /* greatest subnormal */
        1u << frac,             /* least normal */
        inf - 1u,               /* greatest finite */
        sign | (inf - 1u),
    };
    const size_t n = COUNT(values);
    memcpy(out, values, sizeof(values));
    return n;
}

void gen_pow_pair_log2_result(rng *r, pto_dtype dt, int base_lo, int base_hi, double lo, double hi,
                              uint64_t *a, uint64_t *b) {
    const double x = ldexp(1.0 + rng_unit(r), base_lo + (int)rng_below(r, (uint32_t)(base_hi - base_lo + 1)));
    const uint64_t xb = ref_from_double(dt, x);
    const double lx = log2(ref_to_double(dt, xb));
    const double t = rng_uniform(r, lo, hi);
    *a = xb;
    *b = ref_from_double(dt, lx != 0 ? t / lx : t);
}

static uint64_t random_bits(rng *r, pto_dtype dt) {
    return ref_int_wrap(dt, rng_next(r));
}

static uint64_t gen_float(rng *r, pto_dtype dt, gen_kind kind) {
    const uint32_t pick = rng_below(r, 100);
    if (pick < 8) {
        uint64_t specials[16];
        return specials[rng_below(r, (uint32_t)float_specials(dt, specials))];
    }
    if (pick < 18) {
        const uint64_t bits = random_bits(r, dt);
        return kind == GEN_POSITIVE ? bits & ~(UINT64_C(1) << (ref_bits(dt) - 1)) : bits;
    }
    const double sign = rng_below(r, 2) ? -1.0 : 1.0;
    double v;
    switch (kind) {
    case GEN_POSITIVE: v = ldexp(1.0 + rng_unit(r), (int)rng_below(r, 41) - 20); break;
    case GEN_POW_BASE:
        v = ldexp(1.0 + rng_unit(r), (int)rng_below(r, 13) - 6);
        if (rng_below(r, 10) < 3) v = -v;
        break;
    case GEN_POW_EXP:
        v = rng_below(r, 2) ? (double)((int)rng_below(r, 25) - 12) : rng_unit(r) * 16.0 - 8.0;
        break;
    default: v = sign * ldexp(1.0 + rng_unit(r), (int)rng_below(r, 49) - 24); break;
    }
    return ref_from_double(dt, v);
}

/* The 8-byte integers' edges, the values that tell 64 bits from 32: sign
 * bits, high words, the extremes of both signednesses. */
static uint64_t int64_edge(rng *r) {
    static const uint64_t kEdges[] = {0, 1, UINT64_MAX, INT64_MAX, (uint64_t)INT64_MIN,
                                      UINT64_C(0xFFFFFFFF), UINT64_C(0x100000000),
                                      UINT64_C(0x8000000000000001), UINT64_C(0x7FFFFFFF80000000)};
    return kEdges[rng_below(r, (uint32_t)COUNT(kEdges))];
}

static uint64_t gen_int(rng *r, pto_dtype dt, gen_kind kind) {
    const bool is_signed = ref_is_signed(dt);
    const uint32_t pick = rng_below(r, 10);
    if (kind == GEN_POW_BASE && pick < 6)
        return ref_int_wrap(dt, (uint64_t)(is_signed ? (int64_t)rng_below(r, 9) - 4
                                                     : (int64_t)rng_below(r, 7)));
    if (kind == GEN_POW_EXP && pick < 7)
        return ref_int_wrap(dt, (uint64_t)(is_signed ? (int64_t)rng_below(r, 24) - 3
                                                     : (int64_t)rng_below(r, 21)));
    /* 32-bit random words rarely show what a 64-bit lane does with the high
     * word: a fifth of the 8-byte values are edges */
    if (ref_bits(dt) == 64 && pick < 2) return int64_edge(r);
    return random_bits(r, dt);
}

static bool value_is_moderate(pto_dtype dt, uint64_t bits) {
    return !ref_is_float(dt) || fabs(ref_to_double(dt, bits)) < 0x1p20;
}

uint64_t gen_value(rng *r, pto_dtype dt, gen_kind kind) {
    if (kind == GEN_FINITE || kind == GEN_CHAIN) {
        uint64_t bits;
        do {
            gen_kind draw = GEN_ANY;
            if (kind == GEN_CHAIN) draw = ref_is_float(dt) && rng_next(r) % 16 == 0 ? GEN_FINITE : GEN_POW_EXP;
            bits = gen_value(r, dt, draw);
        } while (!value_is_moderate(dt, bits));
        return bits;
    }
    return ref_is_float(dt) ? gen_float(r, dt, kind) : gen_int(r, dt, kind);
}

uint64_t exact_scalar(pto_dtype dt, uint64_t bits) {
    return ref_bits(dt) == 64 && !ref_is_float(dt) ? bits & ~UINT64_C(0x7FF) : bits;
}

/* ---- tiles ---- */

pto_tile *tile_new(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t valid_rows,
                   uint32_t valid_cols) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create(dt, rows, cols, &t), PTO_OK);
    assert_non_null(t);
    assert_int_equal(pto_tile_set_valid(t, valid_rows, valid_cols), PTO_OK);
    return t;
}

static size_t element_index(const pto_tile *t, size_t row, size_t col) {
    return row * pto_tile_cols(t) + col;
}

uint64_t tile_get(const pto_tile *t, size_t row, size_t col) {
    return ref_load(pto_tile_dtype(t), pto_tile_data((pto_tile *)t), element_index(t, row, col));
}

void tile_put(pto_tile *t, size_t row, size_t col, uint64_t bits) {
    ref_store(pto_tile_dtype(t), pto_tile_data(t), element_index(t, row, col), bits);
}

void tile_fill(pto_tile *t, rng *r, gen_kind kind) {
    const pto_dtype dt = pto_tile_dtype(t);
    for (size_t i = 0; i < pto_tile_rows(t); ++i)
        for (size_t j = 0; j < pto_tile_cols(t); ++j) tile_put(t, i, j, gen_value(r, dt, kind));
}

void tiles_destroy(size_t n, pto_tile *const *tiles) {
    for (size_t k = 0; k < n; ++k) pto_tile_destroy(tiles[k]);
}

uint64_t *tile_snapshot(const pto_tile *t) {
    const size_t rows = pto_tile_rows(t), cols = pto_tile_cols(t);
    uint64_t *snapshot = malloc(rows * cols * sizeof(uint64_t));
    assert_non_null(snapshot);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) snapshot[i * cols + j] = tile_get(t, i, j);
    return snapshot;
}

void assert_tile_unchanged(const pto_tile *t, const uint64_t *snapshot, const char *what) {
    const size_t rows = pto_tile_rows(t), cols = pto_tile_cols(t);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
            if (tile_get(t, i, j) != snapshot[i * cols + j])
                fail_msg("%s: element (%zu,%zu) changed from 0x%" PRIx64 " to 0x%" PRIx64, what, i, j,
                         snapshot[i * cols + j], tile_get(t, i, j));
}

void expect_status(pto_status got, pto_status want, const char *what) {
    if (got != want)
        fail_msg("%s: %s, want %s (%s)", what, pto_status_string(got), pto_status_string(want),
                 pto_last_error());
}

/* ---- operations ---- */

uint64_t op_reference(op_id op, pto_dtype dt, uint64_t a, uint64_t b) {
    switch (op) {
    case OP_TPOW: return ref_pow(dt, a, b);
    case OP_TRSQRT: return ref_rsqrt(dt, a);
    case OP_TPRELU: return ref_prelu(dt, a, b);
    case OP_TCOLEXPANDDIV: return ref_tdiv(dt, a, b);
    case OP_TPARTADD: return ref_add(dt, a, b);
    case OP_TPARTMAX: return ref_tmax(dt, a, b);
    case OP_TPARTMIN: return ref_tmin(dt, a, b);
    case OP_TPARTMUL: return ref_tmul(dt, a, b);
    default: /* a family row: its ref_<mnemonic>, from the table in operations.c */
        return op_binary_reference(op)(dt, a, b);
    }
}

uint64_t op_tolerance(op_id op, pto_dtype dt, pto_pow_algorithm algo, uint64_t reference) {
    if (!ref_is_float(dt)) return 0;
    if (op != OP_TPOW) return 0;
    if (algo == PTO_POW_HIGH_PRECISION) return 0; /* correctly rounded */
    if (dt == PTO_FLOAT32) return ref_is_normal(dt, reference) ? 8 : TOL_NAN_CLASS_ONLY;
    return 1;
}

bool within_tolerance(pto_dtype dt, uint64_t tolerance, uint64_t reference, uint64_t got) {
    if (tolerance == TOL_NAN_CLASS_ONLY) return ref_is_nan(dt, reference) == ref_is_nan(dt, got);
    return ref_ulp_steps(dt, reference, got) <= tolerance;
}

void op_run_arrays(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a,
                   const uint64_t *b, uint64_t *out, size_t n) {
    assert_true(n > 0);
    const uint32_t cols = n % 512 == 0 ? 512 : (uint32_t)n;
    op_run_rows(op, dt, algo, a, b, out, (uint32_t)(n / cols), cols);
}

void op_run_rows(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a, const uint64_t *b,
                 uint64_t *out, uint32_t rows, uint32_t cols) {
    op_run_padded(op, dt, algo, a, b, out, rows, cols, 0);
}

void op_run_padded(op_id op, pto_dtype dt, pto_pow_algorithm algo, const uint64_t *a, const uint64_t *b,
                   uint64_t *out, uint32_t rows, uint32_t cols, uint32_t pad) {
    const size_t n = (size_t)rows * cols;
    /* A broadcast row computes the pairs (a[i], b[i]) as one column (row
     * broadcasts: each row's own value) or one row (column broadcasts). */
    if (op_is_broadcast(op) && !(op_row(op)->family == OP_FAMILY_ROW_EXPAND ? cols == 1 : rows == 1)) {
        if (op_row(op)->family == OP_FAMILY_ROW_EXPAND)
            rows = (uint32_t)n, cols = 1;
        else
            rows = 1, cols = (uint32_t)n;
    }
    /* tcolexpanddiv's divisor is one row: b's first cols elements. */
    const uint32_t rows1 = op == OP_TCOLEXPANDDIV ? 1 : rows;
    pto_tile *dst = tile_new(dt, rows, cols + pad, rows, cols);
    pto_tile *src0 = tile_new(dt, rows, cols + pad, rows, cols);
    pto_tile *src1 = tile_new(dt, rows1, cols + pad, rows1, cols);
    pto_tile *tmp = op == OP_TPOW ? tile_new(dt, rows, cols + pad, rows, cols) : NULL;
    for (size_t i = 0; i < n; ++i) {
        tile_put(src0, i / cols, i % cols, a[i]);
        if (i / cols < rows1) tile_put(src1, i / cols, i % cols, b != NULL ? b[i] : 0);
    }
    assert_int_equal(op_call(op, algo, dst, src0, src1, tmp), PTO_OK);
    for (size_t i = 0; i < n; ++i) out[i] = tile_get(dst, i / cols, i % cols);
    pto_tile_destroy(dst);
    pto_tile_destroy(src0);
    pto_tile_destroy(src1);
    pto_tile_destroy(tmp);
}

bool under_emulation(void) {
    return getenv("PTO_TEST_UNDER_QEMU") != NULL || getenv("PTO_TEST_UNDER_VALGRIND") != NULL ||
           getenv("PTO_TEST_SAMPLED") != NULL;
}

size_t sample_index(size_t k, size_t n, size_t size) {
    return n == size ? k : (k * 0x9E3779B1u) & (size - 1);
}

void skip_under_qemu(const char *test, const char *why) {
    if (getenv("PTO_TEST_UNDER_QEMU") == NULL) return;
    print_message("[%s] %s: not tested under emulation\n", test, why);
    skip();
}

/* ---- programs ---- */

const char *dtype_spelling(pto_dtype dt) {
    static const char *const names[] = {"i8",  "ui8", "i16", "ui16", "i32", "ui32",
                                        "f16", "bf16", "f32", "i64", "ui64"};
    return (unsigned)dt < COUNT(names) ? names[dt] : "?";
}

pto_status run_snippet_tiles(const char *text, size_t n, const char *const *names, pto_tile *const *tiles) {
    pto_program *p = NULL;
    const pto_status st = pto_program_create(text, strlen(text), "t.pto", &p);
    if (st != PTO_OK) return st;
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t k = 0; k < n; ++k) {
        size_t index = 0;
        if (pto_program_param_find(p, names[k], &index) != PTO_OK) fail_msg("%s: no parameter %s", text, names[k]);
        assert_int_equal(pto_args_set_tile(a, index, tiles[k]), PTO_OK);
    }
    const pto_status run = pto_program_run(p, a);
    if (run != PTO_OK) fail_msg("%s: run %s (%s)", text, pto_status_string(run), pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    return PTO_OK;
}

pto_status run_snippet_sd(const char *text, pto_tile *s, pto_tile *d) {
    const char *const names[] = {"s", "d"};
    pto_tile *const tiles[] = {s, d};
    return run_snippet_tiles(text, 2, names, tiles);
}

pto_status run_program_bound(const char *text, const char *const *tile_names, pto_tile *const *tiles,
                             size_t ntiles, const char *const *int_names, const int64_t *ints,
                             size_t nints) {
    pto_program *p = NULL;
    const pto_status st = pto_program_create(text, strlen(text), "t.pto", &p);
    if (st != PTO_OK) fail_msg("%s: %s (%s)", text, pto_status_string(st), pto_last_error());
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t k = 0; k < ntiles; ++k) {
        size_t at = 0;
        if (pto_program_param_find(p, tile_names[k], &at) != PTO_OK) continue;
        assert_int_equal(pto_args_set_tile(a, at, tiles[k]), PTO_OK);
    }
    for (size_t k = 0; k < nints; ++k) {
        size_t at = 0;
        if (pto_program_param_find(p, int_names[k], &at) != PTO_OK) continue;
        assert_int_equal(pto_args_set_int(a, at, ints[k]), PTO_OK);
    }
    const pto_status run = pto_program_run(p, a);
    pto_args_destroy(a);
    pto_program_destroy(p);
    return run;
}

pto_program *program_build(const char *text, const char *entry) {
    pto_program *p = NULL;
    pto_status s = pto_program_create_entry(text, strlen(text), "t.pto", entry, &p);
    if (s != PTO_OK)
        fail_msg("refused: %s\n%s", pto_last_error(), text);
    return p;
}

void expect_program_refused_with(const char *text, const char *entry, const char *want) {
    pto_program *p = NULL;
    pto_status s = pto_program_create_entry(text, strlen(text), "t.pto", entry, &p);
    if (s == PTO_OK || strstr(pto_last_error(), want) == NULL)
        fail_msg("want '%s', got %s: %s\n%s", want, pto_status_string(s),
                 s == PTO_OK ? "" : pto_last_error(), text);
}

void program_run_on(pto_program *p, void *data, size_t nbytes) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, data, nbytes), PTO_OK);
    if (pto_program_run(p, a) != PTO_OK)
        fail_msg("run: %s", pto_last_error());
    pto_args_destroy(a);
}

void expect_program_refused(const char *text, pto_status want) {
    pto_program *p = NULL;
    const pto_status st = pto_program_create(text, strlen(text), "t.pto", &p);
    if (st != want)
        fail_msg("%s: %s (%s), want %s", text, pto_status_string(st), pto_last_error(),
                 pto_status_string(want));
    assert_null(p);
}

const char *const kSeedNames[3] = {"tmatmul", "tmatmul_acc", "tmatmul_bias"};

pto_status matmul_call(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                       const pto_tile *bias) {
    switch (seed) {
    case SEED_ZERO: return pto_tmatmul(dst, a, b);
    case SEED_DST: return pto_tmatmul_acc(dst, a, b);
    default: return pto_tmatmul_bias(dst, a, b, bias);
    }
}

const char *const kGemvNames[3] = {"tgemv", "tgemv_acc", "tgemv_bias"};

pto_status gemv_call(seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                     const pto_tile *bias) {
    switch (seed) {
    case SEED_ZERO: return pto_tgemv(dst, a, b);
    case SEED_DST: return pto_tgemv_acc(dst, a, b);
    default: return pto_tgemv_bias(dst, a, b, bias);
    }
}

void expect_matmul_refused(bool gemv, seed_kind seed, pto_tile *dst, const pto_tile *a, const pto_tile *b,
                           const pto_tile *bias, pto_status want, const char *sentence) {
    const char *name = gemv ? kGemvNames[seed] : kSeedNames[seed];
    uint64_t *before = dst ? tile_snapshot(dst) : NULL;
    const pto_status st = gemv ? gemv_call(seed, dst, a, b, bias) : matmul_call(seed, dst, a, b, bias);
    char function[32];
    snprintf(function, sizeof function, "pto_%s: ", name);
    if (st != want || strstr(pto_last_error(), sentence) == NULL ||
        strncmp(pto_last_error(), function, strlen(function)) != 0)
        fail_msg("%s under %s: %s (%s), expected %s with \"%s\"", name, pto_profile_string(pto_get_profile()),
                 pto_status_string(st), pto_last_error(), pto_status_string(want), sentence);
    if (dst) {
        assert_tile_unchanged(dst, before, "a refused matrix multiply's dst");
        free(before);
    }
}
