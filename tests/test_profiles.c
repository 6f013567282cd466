/* Target profiles: the profile API, every row of the profile table in pto_c.h for
 * every operation, dtype and algorithm with the exact status, the sentence
 * (which names the profile exactly where HOST would have accepted the call)
 * and operands unchanged on refusal; accepted calls compute what HOST
 * computes (A2A3 tpow HIGH_PRECISION: what DEFAULT computes); A2A3 and A5
 * tprelu's dtype and tmp rules (the NPU implementations' where the pages are
 * silent) with their sentences and order; profiles are per thread.
 *
 * The expectations are written out here from pto_c.h, independently of the
 * library's own table. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

/* ---- the profile API ---- */

static void test_profile_api(void **state) {
    (void)state;
    assert_int_equal(pto_get_profile(), PTO_PROFILE_HOST);
    assert_string_equal(pto_profile_string(PTO_PROFILE_HOST), "HOST");
    assert_string_equal(pto_profile_string(PTO_PROFILE_A2A3), "A2A3");
    assert_string_equal(pto_profile_string(PTO_PROFILE_A5), "A5");
    assert_string_equal(pto_profile_string((pto_profile)3), "PTO_PROFILE_UNKNOWN");
    assert_string_equal(pto_profile_string((pto_profile)-1), "PTO_PROFILE_UNKNOWN");
    for (size_t i = 0; i < COUNT(kProfiles); ++i) {
        assert_int_equal(pto_set_profile(kProfiles[i]), PTO_OK);
        assert_int_equal(pto_get_profile(), kProfiles[i]);
    }
    static const int kBad[] = {3, -1, 1000, INT32_MIN};
    for (size_t i = 0; i < COUNT(kBad); ++i) {
        assert_int_equal(pto_set_profile((pto_profile)kBad[i]), PTO_ERR_INVALID_ARGUMENT);
        assert_int_equal(pto_get_profile(), PTO_PROFILE_A5); /* unchanged */
        assert_non_null(strstr(pto_last_error(), "pto_set_profile"));
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* ---- the table, from pto_c.h ---- */

/* The lists a refusal quotes, with their parentheses (as operations.def
 * spells a row's list). */
static const char *const kA2A3PowList = "(INT32, INT16, INT8, UINT32, UINT16, UINT8, FLOAT32)";
static const char *const kA2A3PartAddList = "(INT32, INT16, FLOAT16, FLOAT32)";
static const char *const kNpuPreluList = "(FLOAT16, FLOAT32)";
static const char *const kA2A3ColExpandDivList = "(FLOAT32, FLOAT16)";

static bool is_f32_or_f16(pto_dtype dt) { return dt == PTO_FLOAT32 || dt == PTO_FLOAT16; }
/* tpow's and tprelu's "all dtypes": the nine of 1, 2 and 4 bytes. */
/* One of the nine dtypes of 1, 2 and 4 bytes (not the 8-byte integers nor
 * the low-precision types). */
static bool is_narrow(pto_dtype dt) { return dt < PTO_INT64; }

static bool host_accepts(op_id op, int algo, pto_dtype dt) {
    if (op_row(op)->family != OP_FAMILY_SPECIAL) return op_accepts(op, PTO_PROFILE_HOST, dt);
    switch (op) {
    case OP_TPOW: return is_narrow(dt) && (algo == PTO_POW_DEFAULT || ref_is_float(dt));
    case OP_TRSQRT: return is_f32_or_f16(dt);
    case OP_TCOLEXPANDDIV: /* HOST and A5: the integers too (../shared/API.md v0.6) */
        return is_f32_or_f16(dt) || dt == PTO_INT16 || dt == PTO_INT32 || dt == PTO_UINT16 ||
               dt == PTO_UINT32;
    case OP_TPRELU: return is_narrow(dt);
    case OP_TPARTADD: return dt <= PTO_UINT64; /* the 8-byte integers too */
    default: return false;
    }
}

/* A row's list as a refusal quotes it: operations.def's spelling with ALL
 * written out as the nine dtypes it names. */
static const char *quoted_list(const char *list) {
    static char out[256];
    if (strcmp(list, "(NONE)") == 0) return "(no dtype)"; /* a profile without the instruction */
    const char *all = strstr(list, "ALL");
    if (all == NULL) return list;
    snprintf(out, sizeof out, "%.*sINT8, UINT8, INT16, UINT16, INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32%s",
             (int)(all - list), list, all + 3);
    return out;
}

/* NULL where the profile accepts the dtype, else the list the sentence quotes
 * (only used when HOST accepts: otherwise the HOST sentence applies). */
static bool profile_accepts(pto_profile p, op_id op, int algo, pto_dtype dt,
                            const char **list) {
    *list = NULL;
    if (p == PTO_PROFILE_HOST) return host_accepts(op, algo, dt);
    if (op_row(op)->family != OP_FAMILY_SPECIAL) { /* operations.def's list, as it spells it */
        *list = quoted_list(op_row(op)->dtype_lists[p]);
        return op_accepts(op, p, dt);
    }
    if (op == OP_TPRELU) { /* A2A3 and A5 alike */
        *list = kNpuPreluList;
        return dt == PTO_FLOAT16 || dt == PTO_FLOAT32;
    }
    if (p != PTO_PROFILE_A2A3) return host_accepts(op, algo, dt);
    switch (op) {
    case OP_TPOW:
        *list = kA2A3PowList;
        return is_narrow(dt) && dt != PTO_FLOAT16 && dt != PTO_BFLOAT16; /* either algorithm */
    case OP_TCOLEXPANDDIV:
        *list = kA2A3ColExpandDivList;
        return is_f32_or_f16(dt);
    case OP_TPARTADD:
        *list = kA2A3PartAddList;
        return dt == PTO_INT32 || dt == PTO_INT16 || dt == PTO_FLOAT16 || dt == PTO_FLOAT32;
    default: return host_accepts(op, algo, dt);
    }
}

/* ---- operands ---- */

enum { kRows = 3, kCols = 19 };

typedef struct {
    pto_tile *dst, *src0, *src1, *tmp;
} operands;

/* Operands every rule accepts in every profile, filled from a fixed seed so
 * that two calls see the same inputs. */
static operands make_operands(op_id op, pto_dtype dt, uint64_t seed) {
    rng r = {seed};
    operands o = {NULL, NULL, NULL, NULL};
    /* A reduction's dst: an [R,1] tile for rows, [1,C] for columns; A2A3's
     * row reductions take a tmp of dst's dtype (one 32-byte block at least). */
    const op_family family = op_row(op)->family;
    o.dst = family == OP_FAMILY_ROW_REDUCE   ? tile_new(dt, kRows, 1, kRows, 1)
            : family == OP_FAMILY_COL_REDUCE ? tile_new(dt, 1, kCols, 1, kCols)
                                             : tile_new(dt, kRows, kCols, kRows, kCols);
    if (family == OP_FAMILY_ROW_REDUCE) o.tmp = tile_new(dt, kRows, 64, kRows, 64);
    o.src0 = tile_new(dt, kRows, kCols, kRows, kCols);
    o.src1 = op == OP_TCOLEXPANDDIV ? tile_new(dt, 1, kCols, 1, kCols)
                                    : tile_new(dt, kRows, kCols, kRows, kCols);
    if (op_is_broadcast(op)) { /* the last source is the expanded one */
        const int e = op_row(op)->source_count - 1;
        uint32_t vr, vc;
        op_source_region(op, e, kRows, kCols, &vr, &vc);
        pto_tile **t = e == 0 ? &o.src0 : &o.src1;
        pto_tile_destroy(*t);
        *t = tile_new(dt, kRows, kCols, vr, vc);
    }
    if (op == OP_TPOW) o.tmp = tile_new(dt, kRows, kCols, kRows, kCols);
    /* A2A3: a UINT8 tmp, rows >= dst valid_rows + 1, valid_rows == dst
     * valid_rows, valid_cols >= ceil(dst valid_cols / 8). */
    if (op == OP_TPRELU) o.tmp = tile_new(PTO_UINT8, kRows + 1, 3, kRows, 3);
    tile_fill(o.dst, &r, GEN_ANY);
    tile_fill(o.src0, &r, op == OP_TPOW ? GEN_POW_BASE : GEN_ANY);
    tile_fill(o.src1, &r, op == OP_TPOW ? GEN_POW_EXP : GEN_ANY);
    tile_put(o.src1, 0, 0, exact_scalar(dt, tile_get(o.src1, 0, 0))); /* a Scalar row's scalar */
    /* tshls and tshrs: a count of zero or more, which A2A3 and A5 ask */
    if (op == OP_TSHLS || op == OP_TSHRS) tile_put(o.src1, 0, 0, tile_get(o.src1, 0, 0) & 7u);
    /* tshl and tshr on 64-bit lanes: counts below 64, where HOST and A5 agree
     * (A5 takes larger ones mod 64: test_bitwise.c's test_a5_wide_shift_counts) */
    if ((op == OP_TSHL || op == OP_TSHR) && (dt == PTO_INT64 || dt == PTO_UINT64))
        for (uint32_t i = 0; i < kRows; ++i)
            for (uint32_t j = 0; j < kCols; ++j) tile_put(o.src1, i, j, tile_get(o.src1, i, j) & 63u);
    if (o.tmp != NULL) tile_fill(o.tmp, &r, GEN_ANY);
    return o;
}

static void free_operands(operands *o) {
    pto_tile_destroy(o->dst);
    pto_tile_destroy(o->src0);
    pto_tile_destroy(o->src1);
    pto_tile_destroy(o->tmp);
}

static pto_status call(op_id op, int algo, operands *o) {
    return op_call(op, (pto_pow_algorithm)algo, o->dst, o->src0, o->src1, o->tmp);
}

static void assert_same_tile(const pto_tile *a, const pto_tile *b, const char *what) {
    const uint64_t *snapshot = tile_snapshot(a);
    assert_tile_unchanged(b, snapshot, what);
    free((void *)snapshot);
}

/* One (profile, op, algo, dtype) cell of the table. */
static void check_cell(pto_profile p, op_id op, int algo, pto_dtype dt, size_t *refusals) {
    const uint64_t seed = 1000 + (uint64_t)op * 100 + (uint64_t)algo * 10 + (uint64_t)dt;
    const char *list;
    const bool accepted = profile_accepts(p, op, algo, dt, &list);
    const bool host = host_accepts(op, algo, dt);
    operands o = make_operands(op, dt, seed);
    uint64_t *before[4] = {tile_snapshot(o.dst), tile_snapshot(o.src0), tile_snapshot(o.src1),
                           o.tmp ? tile_snapshot(o.tmp) : NULL};
    assert_int_equal(pto_set_profile(p), PTO_OK);
    const pto_status got = call(op, algo, &o);
    char message[256];
    snprintf(message, sizeof(message), "%s", pto_last_error());
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    char where[128];
    snprintf(where, sizeof(where), "%s %s algo %d dtype %d", pto_profile_string(p),
             op_name(op), algo, (int)dt);

    if (!accepted) {
        if (got != PTO_ERR_UNSUPPORTED_DTYPE)
            fail_msg("%s: status %s, expected PTO_ERR_UNSUPPORTED_DTYPE", where,
                     pto_status_string(got));
        if (host) {
            /* Only the profile refuses: the sentence names it and its list. */
            char expected[512];
            snprintf(expected, sizeof(expected), "%s: dst dtype %s is not supported on %s %s",
                     op_name(op), pto_dtype_string(dt), pto_profile_string(p), list);
            if (strcmp(message, expected) != 0)
                fail_msg("%s: sentence \"%s\", expected \"%s\"", where, message, expected);
        } else if (strstr(message, "A2A3") != NULL || strstr(message, "A5") != NULL ||
                   strstr(message, op_name(op)) != message) {
            fail_msg("%s: HOST would refuse too, so \"%s\" must not name a profile", where,
                     message);
        }
        assert_tile_unchanged(o.dst, before[0], where);
        assert_tile_unchanged(o.src0, before[1], where);
        assert_tile_unchanged(o.src1, before[2], where);
        if (o.tmp) assert_tile_unchanged(o.tmp, before[3], where);
        ++*refusals;
    } else {
        if (got != PTO_OK) fail_msg("%s: status %s (%s), expected PTO_OK", where,
                                    pto_status_string(got), message);
        if (op_is_reduction(op)) {
            /* A reduction's float sums follow the profile's order: compare
             * with that order's reference (reduce_ref.c). */
            uint64_t want[kRows > kCols ? kRows : kCols];
            op_reduce_reference(op, p, algo, dt, pto_tile_data(o.src0), kRows, kCols, kCols, want);
            const bool rows = op_row(op)->family == OP_FAMILY_ROW_REDUCE;
            for (uint32_t k = 0; k < (rows ? kRows : kCols); ++k)
                assert_int_equal(rows ? tile_get(o.dst, k, 0) : tile_get(o.dst, 0, k), want[k]);
            if (o.tmp) assert_tile_unchanged(o.tmp, before[3], "tmp is never written");
            for (int k = 0; k < 4; ++k) free(before[k]);
            free_operands(&o);
            return;
        }
        /* Profiles change validation only, except A2A3's "precision option
         * is ignored" and the compound instructions' NPU sequences
         * (../shared/API.md, v0.5; docs/profiles.md): compare with HOST on
         * the same inputs, or with the sequence's own calls under HOST. */
        const int host_algo = p == PTO_PROFILE_A2A3 ? PTO_POW_DEFAULT : algo;
        const bool float_dt = dt == PTO_FLOAT32 || dt == PTO_FLOAT16;
        if ((op == OP_TREM || op == OP_TREMS || op == OP_TFMOD || op == OP_TFMODS) && float_dt &&
            p != PTO_PROFILE_HOST) {
            /* The float remainders' NPU sequences have no composition of C
             * calls (no floor or trunc): tests/test_npu_sequences.c checks
             * their values. */
            if (o.tmp) assert_tile_unchanged(o.tmp, before[3], "tmp is never written");
            for (int k = 0; k < 4; ++k) free(before[k]);
            free_operands(&o);
            return;
        }
        operands h = make_operands(op, dt, seed);
        if ((op == OP_TROWEXPANDEXPDIF || op == OP_TCOLEXPANDEXPDIF) && p != PTO_PROFILE_HOST) {
            /* The NPU's sequence: the difference rounded to the dtype, then
             * exp. */
            assert_int_equal(call(op == OP_TROWEXPANDEXPDIF ? OP_TROWEXPANDSUB : OP_TCOLEXPANDSUB, 0, &h), PTO_OK);
            assert_int_equal(pto_texp(h.dst, h.dst), PTO_OK);
        } else if (op == OP_TRSQRT && p == PTO_PROFILE_A5) {
            /* A5's vsqrt, then vdiv of 1 by it. */
            assert_int_equal(pto_tsqrt(h.dst, h.src0), PTO_OK);
            assert_int_equal(pto_trecip(h.dst, h.dst), PTO_OK);
        } else {
            assert_int_equal(call(op, host_algo, &h), PTO_OK);
        }
        assert_same_tile(h.dst, o.dst, where);
        if (o.tmp) assert_tile_unchanged(o.tmp, before[3], "tmp is never written");
        free_operands(&h);
    }
    for (int k = 0; k < 4; ++k) free(before[k]);
    free_operands(&o);
}

static void test_profile_table(void **state) {
    (void)state;
    size_t cells = 0, refusals = 0;
    for (size_t pi = 0; pi < COUNT(kProfiles); ++pi)
        for (int op = 0; op < OP_COUNT; ++op)
            for (int algo = 0; algo <= (op == OP_TPOW ? 1 : 0); ++algo)
                for (int dt = PTO_INT8; dt < TEST_DTYPE_COUNT; ++dt) {
                    /* tcvt's cells are (src, dst) pairs, not dst dtypes:
                     * test_tcvt checks every pair under every profile. */
                    if (op_converts((op_id)op)) continue;
                    /* tfillpad's cells (all nine everywhere; its source may
                     * differ from dst in dtype): test_tfillpad's test_rules. */
                    if (op_tested_apart((op_id)op)) continue;
                    check_cell(kProfiles[pi], (op_id)op, algo, (pto_dtype)dt, &refusals);
                    ++cells;
                }
    /* The operations past the five of 0.3 (their rows' lists, refused where
     * a list lacks the dtype). */
    size_t family_cells = 0, family_refusals = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        if (op_row((op_id)op)->family == OP_FAMILY_SPECIAL) continue;
        for (int p = 0; p < 3; ++p) {
            family_cells += TEST_DTYPE_COUNT; /* every dtype, as the loop above visits them */
            family_refusals +=
                TEST_DTYPE_COUNT - (size_t)__builtin_popcount(op_row((op_id)op)->dtypes[p] & TEST_ALL_DTYPES);
        }
    }
    /* 3 profiles x (2 tpow algorithms + 4 ops) x 18 dtypes. */
    assert_int_equal(cells - family_cells, 3 * 6 * 18);
    /* HOST refuses 8+2 tpow cells (HIGH_PRECISION's 8 integers, DEFAULT's
     * INT64 and UINT64), 9 trsqrt, 5 tcolexpanddiv (INT8, UINT8, BFLOAT16
     * and the 8-byte integers) and 2 tprelu (the 8-byte integers); A5 those
     * and 9 tprelu; A2A3 4+4 tpow (FLOAT16, BFLOAT16 and the 8-byte integers
     * under either algorithm), 9 trsqrt, 9 tcolexpanddiv, 9 tprelu, 7
     * tpartadd; and every profile each of the six cells' 7 low-precision
     * dtypes. */
    assert_int_equal(refusals - family_refusals,
                     (8 + 2 + 9 + 5 + 2) + (8 + 2 + 9 + 5 + 9) + (4 + 4 + 9 + 9 + 9 + 7) +
                         3 * 6 * 7);
    print_message("[profiles] %zu table cells, %zu refusals checked\n", cells, refusals);
}

/* ---- A2A3 / A5 tprelu ---- */

typedef struct {
    const char *what;
    pto_profile profile;
    uint32_t dst_rows, dst_cols; /* dst, src0 and src1: FLOAT32, whole tile valid */
    int tmp_kind; /* 0 NULL, 1 separate, 2 same handle as dst, 3 as src0, 4 as src1 */
    int in_place; /* 0 none, 1 dst == src0, 2 dst == src1, 3 src0 == src1 */
    uint32_t tmp_rows, tmp_valid_rows, tmp_valid_cols; /* tmp has tmp_valid_cols cols */
    pto_dtype tmp_dtype;
    pto_status expected;
    bool names_profile;
    const char *sentence; /* the exact sentence, where written out */
} prelu_case;

static const prelu_case kPreluCases[] = {
    {"A2A3 valid", PTO_PROFILE_A2A3, 4, 8, 1, 0, 12, 4, 3, PTO_UINT8, PTO_OK, false, NULL},
    {"A2A3 tmp at its minimum", PTO_PROFILE_A2A3, 4, 16, 1, 0, 5, 4, 2, PTO_UINT8, PTO_OK, false, NULL},
    {"A2A3 tmp rows at their minimum", PTO_PROFILE_A2A3, 12, 2, 1, 0, 13, 12, 1, PTO_UINT8, PTO_OK, false, NULL},
    /* the page's "tmp valid rows >= dst valid cols + 1" is no rule (v0.4):
     * PTOAS's own PReLU sample has this tmp for a 32x32 dst */
    {"A2A3 tmp valid rows below dst cols + 1", PTO_PROFILE_A2A3, 32, 32, 1, 0, 33, 32, 4, PTO_UINT8, PTO_OK,
     false, NULL},
    {"A2A3 tmp FLOAT32", PTO_PROFILE_A2A3, 4, 8, 1, 0, 12, 4, 3, PTO_FLOAT32,
     PTO_ERR_UNSUPPORTED_DTYPE, true, "pto_tprelu: tmp dtype FLOAT32 is not supported on A2A3 (UINT8)"},
    {"A2A3 tmp INT8", PTO_PROFILE_A2A3, 4, 8, 1, 0, 12, 4, 3, PTO_INT8,
     PTO_ERR_UNSUPPORTED_DTYPE, true, "pto_tprelu: tmp dtype INT8 is not supported on A2A3 (UINT8)"},
    {"A2A3 tmp NULL", PTO_PROFILE_A2A3, 4, 8, 0, 0, 0, 0, 0, PTO_UINT8, PTO_ERR_NULL_ARGUMENT, true, NULL},
    {"A2A3 tmp valid rows above dst's", PTO_PROFILE_A2A3, 4, 8, 1, 0, 12, 9, 3, PTO_UINT8,
     PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp valid rows 9 differs from dst valid rows 4, which A2A3 requires them to equal"},
    {"A2A3 tmp valid rows 0", PTO_PROFILE_A2A3, 4, 8, 1, 0, 12, 0, 3, PTO_UINT8, PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp valid rows 0 differs from dst valid rows 4, which A2A3 requires them to equal"},
    {"A2A3 tmp rows = dst valid rows", PTO_PROFILE_A2A3, 12, 2, 1, 0, 12, 12, 1, PTO_UINT8,
     PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp rows 12 is less than dst valid rows 12 + 1, which A2A3 requires"},
    {"A2A3 tmp valid cols short of the mask", PTO_PROFILE_A2A3, 4, 17, 1, 0, 20, 4, 2, PTO_UINT8,
     PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp valid cols 2 is less than ceil(dst valid cols 17 / 8) = 3, which A2A3 requires"},
    /* order of the three tmp shape rules: rows, then valid rows, then cols */
    {"A2A3 tmp short by all three rules", PTO_PROFILE_A2A3, 12, 17, 1, 0, 12, 11, 1, PTO_UINT8,
     PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp rows 12 is less than dst valid rows 12 + 1, which A2A3 requires"},
    {"A2A3 tmp wrong in valid rows and cols", PTO_PROFILE_A2A3, 12, 9, 1, 0, 13, 11, 1, PTO_UINT8,
     PTO_ERR_SHAPE_MISMATCH, true,
     "pto_tprelu: tmp valid rows 11 differs from dst valid rows 12, which A2A3 requires them to equal"},
    {"A2A3 dst == src0", PTO_PROFILE_A2A3, 4, 8, 1, 1, 12, 4, 3, PTO_UINT8, PTO_ERR_ALIASING, true, NULL},
    {"A2A3 dst == src1", PTO_PROFILE_A2A3, 4, 8, 1, 2, 12, 4, 3, PTO_UINT8, PTO_ERR_ALIASING, true, NULL},
    {"A2A3 src0 == src1", PTO_PROFILE_A2A3, 4, 8, 1, 3, 12, 4, 3, PTO_UINT8, PTO_ERR_ALIASING, true, NULL},
    {"A2A3 tmp == dst", PTO_PROFILE_A2A3, 4, 8, 2, 0, 0, 0, 0, PTO_UINT8, PTO_ERR_UNSUPPORTED_DTYPE, true,
     "pto_tprelu: tmp dtype FLOAT32 is not supported on A2A3 (UINT8)"},
    /* order: the tmp dtype (dtype step) before aliasing, aliasing before
     * the tmp shape rules (region step) */
    {"A2A3 dst == src0, FLOAT32 tmp", PTO_PROFILE_A2A3, 4, 8, 1, 1, 12, 4, 3, PTO_FLOAT32,
     PTO_ERR_UNSUPPORTED_DTYPE, true, "pto_tprelu: tmp dtype FLOAT32 is not supported on A2A3 (UINT8)"},
    {"A2A3 dst == src0, short tmp", PTO_PROFILE_A2A3, 4, 8, 1, 1, 12, 2, 3, PTO_UINT8, PTO_ERR_ALIASING, true, NULL},
    {"A5 tmp NULL", PTO_PROFILE_A5, 4, 8, 0, 0, 0, 0, 0, PTO_UINT8, PTO_OK, false, NULL},
    {"A5 tmp of any dtype and shape", PTO_PROFILE_A5, 4, 8, 1, 0, 1, 1, 1, PTO_UINT16, PTO_OK, false, NULL},
    {"A5 FLOAT32 tmp", PTO_PROFILE_A5, 4, 8, 1, 0, 12, 9, 3, PTO_FLOAT32, PTO_OK, false, NULL},
    {"A5 in place", PTO_PROFILE_A5, 4, 8, 0, 1, 0, 0, 0, PTO_UINT8, PTO_OK, false, NULL},
    {"A5 tmp == dst", PTO_PROFILE_A5, 4, 8, 2, 0, 0, 0, 0, PTO_UINT8, PTO_ERR_ALIASING, false,
     "pto_tprelu: tmp is the same tile as dst"},
    {"A5 tmp == src0", PTO_PROFILE_A5, 4, 8, 3, 0, 0, 0, 0, PTO_UINT8, PTO_ERR_ALIASING, false, NULL},
    {"HOST in place, tmp NULL", PTO_PROFILE_HOST, 4, 8, 0, 2, 0, 0, 0, PTO_UINT8, PTO_OK, false, NULL},
    {"HOST short FLOAT32 tmp", PTO_PROFILE_HOST, 12, 17, 1, 0, 1, 1, 1, PTO_FLOAT32, PTO_OK, false, NULL},
};

static void test_tprelu_profiles(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(kPreluCases); ++i) {
        const prelu_case *c = &kPreluCases[i];
        const uint32_t rows = c->dst_rows, cols = c->dst_cols;
        rng r = {77 + i};
        pto_tile *dst = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
        pto_tile *src0 = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
        pto_tile *src1 = tile_new(PTO_FLOAT32, rows, cols, rows, cols);
        pto_tile *own_tmp = c->tmp_kind == 1 ? tile_new(c->tmp_dtype, c->tmp_rows, c->tmp_valid_cols,
                                                        c->tmp_valid_rows, c->tmp_valid_cols)
                                             : NULL;
        tile_fill(dst, &r, GEN_ANY);
        tile_fill(src0, &r, GEN_ANY);
        tile_fill(src1, &r, GEN_ANY);
        pto_tile *a = src0, *b = src1, *d = dst;
        if (c->in_place == 1) a = dst;
        if (c->in_place == 2) b = dst;
        if (c->in_place == 3) b = src0;
        pto_tile *tmp = c->tmp_kind == 1 ? own_tmp : c->tmp_kind == 2 ? d
                        : c->tmp_kind == 3 ? a : c->tmp_kind == 4 ? b : NULL;
        uint64_t *snap[3] = {tile_snapshot(dst), tile_snapshot(src0), tile_snapshot(src1)};
        assert_int_equal(pto_set_profile(c->profile), PTO_OK);
        const pto_status got = pto_tprelu(d, a, b, tmp);
        const char *message = pto_last_error();
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (got != c->expected)
            fail_msg("%s: status %s, expected %s (%s)", c->what, pto_status_string(got),
                     pto_status_string(c->expected), message);
        if (got != PTO_OK) {
            const bool named = strstr(message, pto_profile_string(c->profile)) != NULL;
            if (named != c->names_profile)
                fail_msg("%s: \"%s\" should %sname the profile", c->what, message,
                         c->names_profile ? "" : "not ");
            if (c->sentence != NULL && strcmp(message, c->sentence) != 0)
                fail_msg("%s: sentence \"%s\", expected \"%s\"", c->what, message, c->sentence);
            assert_tile_unchanged(dst, snap[0], c->what);
            assert_tile_unchanged(src0, snap[1], c->what);
            assert_tile_unchanged(src1, snap[2], c->what);
        } else {
            for (uint32_t row = 0; row < rows; ++row)
                for (uint32_t col = 0; col < cols; ++col) {
                    const uint32_t x = snap[a == dst ? 0 : 1][row * cols + col];
                    const uint32_t s = snap[b == dst ? 0 : b == src0 ? 1 : 2][row * cols + col];
                    assert_int_equal(ref_ulp_steps(PTO_FLOAT32, tile_get(d, row, col),
                                                   ref_prelu(PTO_FLOAT32, x, s)), 0);
                }
        }
        for (int k = 0; k < 3; ++k) free(snap[k]);
        pto_tile_destroy(dst);
        pto_tile_destroy(src0);
        pto_tile_destroy(src1);
        pto_tile_destroy(own_tmp);
    }
    print_message("[profiles] %zu tprelu tmp/aliasing cases\n", COUNT(kPreluCases));
}

/* The check order holds with profiles: NULL before dtype, dst's dtype
 * (unsupported by the profile) before another operand's mismatch. */
static void test_profile_check_order(void **state) {
    (void)state;
    pto_tile *u8 = tile_new(PTO_UINT8, 2, 2, 2, 2), *i32 = tile_new(PTO_INT32, 2, 2, 2, 2);
    pto_tile *f16 = tile_new(PTO_FLOAT16, 2, 2, 2, 2), *f32 = tile_new(PTO_FLOAT32, 2, 2, 2, 2);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tpartadd(u8, i32, i32), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_non_null(strstr(pto_last_error(), "on A2A3"));
    assert_int_equal(pto_tpartadd(i32, u8, i32), PTO_ERR_DTYPE_MISMATCH);
    assert_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_tpow(f16, f32, f32, NULL, PTO_POW_DEFAULT), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_tpow(f16, f32, f32, f16, (pto_pow_algorithm)5), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_tpow(f16, f32, f32, f16, PTO_POW_DEFAULT), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_int_equal(pto_tprelu(NULL, f32, f32, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "dst is NULL"));
    assert_int_equal(pto_tprelu(f32, f16, f32, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "tmp"));
    /* tprelu's dtype step: dst's dtype (refused by the profile), then a
     * source differing from dst, then tmp's dtype. */
    assert_int_equal(pto_tprelu(i32, f32, f32, f32), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_string_equal(pto_last_error(),
                        "pto_tprelu: dst dtype INT32 is not supported on A2A3 (FLOAT16, FLOAT32)");
    assert_int_equal(pto_tprelu(f32, f16, f32, i32), PTO_ERR_DTYPE_MISMATCH);
    assert_string_equal(pto_last_error(), "pto_tprelu: src0 dtype FLOAT16 differs from dst dtype FLOAT32");
    pto_tile *f32b = tile_new(PTO_FLOAT32, 2, 2, 2, 2), *f32c = tile_new(PTO_FLOAT32, 2, 2, 2, 1);
    assert_int_equal(pto_tprelu(f32, f32b, f32c, i32), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_string_equal(pto_last_error(), "pto_tprelu: tmp dtype INT32 is not supported on A2A3 (UINT8)");
    /* the region step: src1's region before the tmp shape rules */
    assert_int_equal(pto_tprelu(f32, f32b, f32c, u8), PTO_ERR_SHAPE_MISMATCH);
    assert_string_equal(pto_last_error(),
                        "pto_tprelu: src1 valid region 2x1 differs from dst valid region 2x2");
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tprelu(u8, u8, u8, NULL), PTO_ERR_UNSUPPORTED_DTYPE);
    assert_string_equal(pto_last_error(),
                        "pto_tprelu: dst dtype UINT8 is not supported on A5 (FLOAT16, FLOAT32)");
    pto_tile_destroy(f32b);
    pto_tile_destroy(f32c);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(u8);
    pto_tile_destroy(i32);
    pto_tile_destroy(f16);
    pto_tile_destroy(f32);
}

/* ---- per thread ---- */

typedef struct {
    pto_profile profile;
    int failures;
    pthread_barrier_t *barrier;
} thread_arg;

static void *profile_worker(void *p) {
    thread_arg *a = p;
    if (pto_get_profile() != PTO_PROFILE_HOST) a->failures++; /* a new thread starts at HOST */
    if (pto_set_profile(a->profile) != PTO_OK) a->failures++;
    pthread_barrier_wait(a->barrier); /* every thread has set its own */
    pto_tile *d = NULL, *s = NULL;
    if (pto_tile_create(PTO_UINT8, 2, 2, &d) != PTO_OK || pto_tile_create(PTO_UINT8, 2, 2, &s) != PTO_OK)
        a->failures++;
    for (int round = 0; round < 200; ++round) {
        if (pto_get_profile() != a->profile) a->failures++;
        const pto_status expected = a->profile == PTO_PROFILE_A2A3 ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK;
        if (pto_tpartadd(d, s, s) != expected) a->failures++;
    }
    pto_tile_destroy(d);
    pto_tile_destroy(s);
    return NULL;
}

static void test_profile_per_thread(void **state) {
    (void)state;
    skip_under_qemu("profiles", "a dynamically linked program that starts a thread can hang under qemu-user");
    enum { kThreads = 6 };
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, kThreads);
    pthread_t threads[kThreads];
    thread_arg args[kThreads];
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK); /* not inherited */
    for (int i = 0; i < kThreads; ++i) {
        args[i] = (thread_arg){kProfiles[i % 3], 0, &barrier};
        assert_int_equal(pthread_create(&threads[i], NULL, profile_worker, &args[i]), 0);
    }
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(threads[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    assert_int_equal(pto_get_profile(), PTO_PROFILE_A2A3);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pthread_barrier_destroy(&barrier);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_api),
        cmocka_unit_test(test_profile_table),
        cmocka_unit_test(test_tprelu_profiles),
        cmocka_unit_test(test_profile_check_order),
        cmocka_unit_test(test_profile_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
