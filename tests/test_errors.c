/* Argument checking of every operation: every status each one can
 * return, the documented order of checks (the first failing rule decides),
 * pto_last_error() naming the function and the operand, nothing written on
 * failure, and the per-thread error message. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* A tile operand: dtype (NO_TILE passes NULL), shape and valid region, or
 * the very handle of an earlier operand. */
#define NO_TILE (-1)
typedef struct {
    int dtype;
    uint32_t rows, cols, vr, vc;
    int same_as; /* index of an earlier operand, or -1 */
} operand_spec;

#define T(dt, r, c, vr, vc) {dt, r, c, vr, vc, -1}
#define FULL(dt) T(dt, 16, 16, 16, 16)
#define ONE(dt) T(dt, 1, 1, 1, 1)
#define SAME(index) {0, 0, 0, 0, 0, index}
#define NUL {NO_TILE, 0, 0, 0, 0, -1}
enum { DST, SRC0, SRC1, TMP };

typedef struct {
    op_id op;
    int algo;
    operand_spec operand[4]; /* dst, src0 (base), src1 (exp), tmp */
    pto_status expected;
    const char *names; /* what pto_last_error() must mention besides the function */
} error_case;

#define F32 PTO_FLOAT32
#define F16 PTO_FLOAT16
#define BF16 PTO_BFLOAT16
#define I32 PTO_INT32
#define U8 PTO_UINT8

static const error_case kCases[] = {
    /* ---- pto_tpow ---- */
    {OP_TPOW, 0, {NUL, FULL(F32), FULL(F32), FULL(F32)}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TPOW, 0, {FULL(F32), NUL, FULL(F32), FULL(F32)}, PTO_ERR_NULL_ARGUMENT, "base"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), NUL, FULL(F32)}, PTO_ERR_NULL_ARGUMENT, "exp"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "tmp"},
    {OP_TPOW, 2, {FULL(F32), FULL(F32), FULL(F32), FULL(F32)}, PTO_ERR_INVALID_ARGUMENT, "algo"},
    {OP_TPOW, -1, {FULL(I32), FULL(I32), FULL(I32), FULL(I32)}, PTO_ERR_INVALID_ARGUMENT, "algo"},
    {OP_TPOW, 1, {FULL(I32), FULL(I32), FULL(I32), FULL(I32)}, PTO_ERR_UNSUPPORTED_DTYPE, "HIGH_PRECISION"},
    {OP_TPOW, 0, {FULL(F32), FULL(F16), FULL(F32), FULL(F32)}, PTO_ERR_DTYPE_MISMATCH, "base"},
    {OP_TPOW, 1, {FULL(F32), FULL(F32), FULL(BF16), FULL(F32)}, PTO_ERR_DTYPE_MISMATCH, "exp"},
    {OP_TPOW, 0, {FULL(U8), FULL(U8), FULL(U8), FULL(PTO_INT8)}, PTO_ERR_DTYPE_MISMATCH, "tmp"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F32), SAME(DST)}, PTO_ERR_ALIASING, "tmp"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F32), SAME(SRC0)}, PTO_ERR_ALIASING, "base"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F32), SAME(SRC1)}, PTO_ERR_ALIASING, "exp"},
    {OP_TPOW, 0, {FULL(F32), T(F32, 16, 16, 16, 8), FULL(F32), FULL(F32)}, PTO_ERR_SHAPE_MISMATCH, "base valid region 16x8"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), T(F32, 32, 32, 17, 16), FULL(F32)}, PTO_ERR_SHAPE_MISMATCH, "exp"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F32), T(F32, 16, 16, 0, 0)}, PTO_ERR_SHAPE_MISMATCH, "tmp"},
    {OP_TPOW, 0, {T(F32, 16, 16, 0, 0), FULL(F32), T(F32, 16, 16, 0, 0), FULL(F32)}, PTO_ERR_SHAPE_MISMATCH, "base"},
    /* order: NULL, enum, unsupported, mismatched, aliasing, regions */
    {OP_TPOW, 7, {FULL(F32), FULL(F32), FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "tmp"},
    {OP_TPOW, 2, {FULL(I32), FULL(F32), FULL(F16), SAME(DST)}, PTO_ERR_INVALID_ARGUMENT, "algo"},
    {OP_TPOW, 1, {FULL(I32), FULL(F32), FULL(I32), SAME(DST)}, PTO_ERR_UNSUPPORTED_DTYPE, "dst"},
    {OP_TPOW, 0, {FULL(F32), FULL(F32), FULL(F16), SAME(DST)}, PTO_ERR_DTYPE_MISMATCH, "exp"},
    {OP_TPOW, 0, {FULL(F32), T(F32, 16, 16, 1, 1), FULL(F32), SAME(SRC1)}, PTO_ERR_ALIASING, "tmp"},
    {OP_TPOW, 0, {FULL(F32), T(F32, 16, 16, 1, 1), T(F32, 16, 16, 2, 2), FULL(F32)}, PTO_ERR_SHAPE_MISMATCH, "base"},

    /* ---- pto_trsqrt ---- */
    {OP_TRSQRT, 0, {NUL, FULL(F32), NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TRSQRT, 0, {FULL(F32), NUL, NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "src"},
    {OP_TRSQRT, 0, {FULL(I32), FULL(I32), NUL, NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "INT32"},
    {OP_TRSQRT, 0, {FULL(BF16), FULL(BF16), NUL, NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16"},
    {OP_TRSQRT, 0, {FULL(F32), FULL(F16), NUL, NUL}, PTO_ERR_DTYPE_MISMATCH, "src"},
    {OP_TRSQRT, 0, {FULL(F16), FULL(PTO_UINT16), NUL, NUL}, PTO_ERR_DTYPE_MISMATCH, "src"},
    {OP_TRSQRT, 0, {FULL(F32), T(F32, 16, 16, 15, 16), NUL, NUL}, PTO_ERR_SHAPE_MISMATCH, "src valid region 15x16"},
    {OP_TRSQRT, 0, {T(F16, 8, 8, 0, 8), T(F16, 8, 8, 0, 7), NUL, NUL}, PTO_ERR_SHAPE_MISMATCH, "src"},
    {OP_TRSQRT, 0, {FULL(PTO_INT8), FULL(F32), NUL, NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "dst"},
    {OP_TRSQRT, 0, {FULL(F32), T(F16, 16, 16, 1, 1), NUL, NUL}, PTO_ERR_DTYPE_MISMATCH, "src"},

    /* ---- pto_tprelu ---- */
    {OP_TPRELU, 0, {NUL, FULL(F32), FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TPRELU, 0, {FULL(F32), NUL, FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "src0"},
    {OP_TPRELU, 0, {FULL(F32), FULL(F32), NUL, FULL(F32)}, PTO_ERR_NULL_ARGUMENT, "src1"},
    {OP_TPRELU, 0, {FULL(I32), FULL(PTO_UINT32), FULL(I32), NUL}, PTO_ERR_DTYPE_MISMATCH, "src0"},
    {OP_TPRELU, 0, {FULL(BF16), FULL(BF16), FULL(F16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src1"},
    {OP_TPRELU, 0, {FULL(F32), FULL(F32), FULL(F32), SAME(DST)}, PTO_ERR_ALIASING, "tmp"},
    {OP_TPRELU, 0, {FULL(F32), FULL(F32), FULL(F32), SAME(SRC0)}, PTO_ERR_ALIASING, "src0"},
    {OP_TPRELU, 0, {FULL(U8), FULL(U8), FULL(U8), SAME(SRC1)}, PTO_ERR_ALIASING, "src1"},
    {OP_TPRELU, 0, {FULL(F32), T(F32, 20, 20, 16, 17), FULL(F32), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPRELU, 0, {FULL(F32), FULL(F32), T(F32, 16, 16, 16, 15), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1"},
    {OP_TPRELU, 0, {FULL(F32), FULL(F16), FULL(F32), SAME(DST)}, PTO_ERR_DTYPE_MISMATCH, "src0"},
    {OP_TPRELU, 0, {FULL(F32), T(F32, 16, 16, 3, 3), FULL(F32), SAME(SRC0)}, PTO_ERR_ALIASING, "tmp"},
    {OP_TPRELU, 0, {NUL, FULL(F32), FULL(F16), SAME(SRC0)}, PTO_ERR_NULL_ARGUMENT, "dst"},

    /* ---- pto_tcolexpanddiv ---- */
    {OP_TCOLEXPANDDIV, 0, {NUL, FULL(F32), T(F32, 1, 16, 1, 16), NUL}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), NUL, T(F32, 1, 16, 1, 16), NUL}, PTO_ERR_NULL_ARGUMENT, "src0"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), FULL(F32), NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "src1"},
    {OP_TCOLEXPANDDIV, 0, {FULL(BF16), FULL(BF16), T(BF16, 1, 16, 1, 16), NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16"},
    {OP_TCOLEXPANDDIV, 0, {FULL(PTO_INT8), FULL(PTO_INT8), T(PTO_INT8, 1, 16, 1, 16), NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "dst"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F16), FULL(F32), T(F16, 1, 16, 1, 16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src0"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F16), FULL(F16), T(F32, 1, 16, 1, 16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src1"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), T(F32, 16, 16, 16, 9), T(F32, 1, 16, 1, 16), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), FULL(F32), T(F32, 1, 16, 0, 16), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), FULL(F32), T(F32, 4, 16, 4, 15), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1 valid cols 15"},
    {OP_TCOLEXPANDDIV, 0, {T(F16, 4, 4, 0, 0), T(F16, 4, 4, 0, 0), T(F16, 4, 4, 0, 0), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), T(F32, 16, 16, 15, 16), T(F32, 1, 16, 0, 0), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TCOLEXPANDDIV, 0, {FULL(PTO_UINT8), FULL(F16), T(F16, 1, 16, 1, 16), NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "dst"},
    {OP_TCOLEXPANDDIV, 0, {FULL(F32), T(F32, 16, 16, 1, 1), T(F16, 1, 16, 0, 0), NUL}, PTO_ERR_DTYPE_MISMATCH, "src1"},

    /* ---- pto_tpartadd ---- */
    {OP_TPARTADD, 0, {NUL, FULL(F32), FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TPARTADD, 0, {FULL(F32), NUL, FULL(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "src0"},
    {OP_TPARTADD, 0, {FULL(F32), FULL(F32), NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "src1"},
    {OP_TPARTADD, 0, {FULL(PTO_INT16), FULL(PTO_UINT16), FULL(PTO_INT16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {FULL(F16), FULL(F16), FULL(BF16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src1"},
    /* refused validity patterns, dst valid 8x8 */
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 4, 8), T(F32, 16, 16, 8, 4), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0 valid region 4x8"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 8, 8), T(F32, 16, 16, 9, 8), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1 valid region 9x8"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 8, 8), T(F32, 16, 16, 8, 9), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 9, 8), T(F32, 16, 16, 8, 8), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0 valid region 9x8"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 8, 9), T(F32, 16, 16, 8, 8), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 9, 4), T(F32, 16, 16, 8, 8), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 16, 16), T(F32, 16, 16, 16, 16), NUL}, PTO_ERR_SHAPE_MISMATCH, "dst valid region 8x8"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F32, 16, 16, 0, 0), T(F32, 16, 16, 7, 7), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {T(I32, 16, 16, 0, 0), T(I32, 16, 16, 0, 0), T(I32, 16, 16, 1, 1), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1"},
    {OP_TPARTADD, 0, {T(U8, 16, 16, 8, 0), T(U8, 16, 16, 8, 1), T(U8, 16, 16, 8, 0), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {T(F32, 16, 16, 8, 8), T(F16, 16, 16, 1, 1), T(F32, 16, 16, 9, 9), NUL}, PTO_ERR_DTYPE_MISMATCH, "src0"},

    /* ---- one element: each rule that a common call (all operands owned, of
     * dst's dtype and region; the C functions skip the full check for it)
     * is decided by, broken once ---- */
    {OP_TPOW, 0, {ONE(F32), ONE(F32), ONE(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "tmp"},
    {OP_TPOW, 0, {ONE(F32), NUL, ONE(F32), ONE(F32)}, PTO_ERR_NULL_ARGUMENT, "base"},
    {OP_TPOW, 2, {ONE(F32), ONE(F32), ONE(F32), ONE(F32)}, PTO_ERR_INVALID_ARGUMENT, "algo"},
    {OP_TPOW, -1, {ONE(F32), ONE(F32), ONE(F32), ONE(F32)}, PTO_ERR_INVALID_ARGUMENT, "algo -1"},
    {OP_TPOW, 1, {ONE(I32), ONE(I32), ONE(I32), ONE(I32)}, PTO_ERR_UNSUPPORTED_DTYPE, "HIGH_PRECISION"},
    {OP_TPOW, 0, {ONE(F32), ONE(F32), ONE(F32), ONE(F16)}, PTO_ERR_DTYPE_MISMATCH, "tmp"},
    {OP_TPOW, 0, {ONE(F32), ONE(F32), ONE(F32), SAME(DST)}, PTO_ERR_ALIASING, "tmp"},
    {OP_TPOW, 1, {ONE(F32), ONE(F32), ONE(F32), SAME(SRC1)}, PTO_ERR_ALIASING, "exp"},
    {OP_TPOW, 0, {ONE(F32), ONE(F32), ONE(F32), T(F32, 1, 2, 1, 2)}, PTO_ERR_SHAPE_MISMATCH, "tmp valid region 1x2"},
    {OP_TRSQRT, 0, {ONE(F32), NUL, NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "src"},
    {OP_TRSQRT, 0, {ONE(I32), ONE(I32), NUL, NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "INT32"},
    {OP_TRSQRT, 0, {ONE(F16), ONE(F32), NUL, NUL}, PTO_ERR_DTYPE_MISMATCH, "src"},
    {OP_TRSQRT, 0, {ONE(F32), T(F32, 2, 1, 2, 1), NUL, NUL}, PTO_ERR_SHAPE_MISMATCH, "src valid region 2x1"},
    {OP_TPRELU, 0, {ONE(F32), ONE(F32), NUL, NUL}, PTO_ERR_NULL_ARGUMENT, "src1"},
    {OP_TPRELU, 0, {ONE(F32), ONE(F32), ONE(BF16), NUL}, PTO_ERR_DTYPE_MISMATCH, "src1"},
    {OP_TPRELU, 0, {ONE(F32), ONE(F32), ONE(F32), SAME(SRC1)}, PTO_ERR_ALIASING, "src1"},
    {OP_TPRELU, 0, {ONE(F32), ONE(F32), T(F32, 1, 1, 0, 0), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1 valid region 0x0"},
    {OP_TCOLEXPANDDIV, 0, {NUL, ONE(F32), ONE(F32), NUL}, PTO_ERR_NULL_ARGUMENT, "dst"},
    {OP_TCOLEXPANDDIV, 0, {ONE(BF16), ONE(BF16), ONE(BF16), NUL}, PTO_ERR_UNSUPPORTED_DTYPE, "BFLOAT16"},
    {OP_TCOLEXPANDDIV, 0, {ONE(F32), ONE(F32), T(F32, 1, 1, 0, 0), NUL}, PTO_ERR_SHAPE_MISMATCH, "src1 valid region 0x0"},
    {OP_TCOLEXPANDDIV, 0, {ONE(F32), T(F32, 1, 2, 1, 2), ONE(F32), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {ONE(F32), ONE(PTO_INT32), ONE(F32), NUL}, PTO_ERR_DTYPE_MISMATCH, "src0"},
    {OP_TPARTADD, 0, {ONE(F32), T(F32, 2, 2, 2, 1), ONE(F32), NUL}, PTO_ERR_SHAPE_MISMATCH, "src0 valid region 2x1"},
};

static pto_tile *make_operand(const operand_spec *spec, pto_tile *const made[], rng *r) {
    if (spec->same_as >= 0) return made[spec->same_as];
    if (spec->dtype == NO_TILE) return NULL;
    pto_tile *t = tile_new((pto_dtype)spec->dtype, spec->rows, spec->cols, spec->vr, spec->vc);
    tile_fill(t, r, GEN_ANY);
    return t;
}

static void run_error_case(const error_case *c, size_t index, rng *r) {
    pto_tile *t[4] = {NULL, NULL, NULL, NULL};
    uint64_t *snapshot[4] = {NULL, NULL, NULL, NULL};
    uint32_t valid[4][2];
    for (int k = 0; k < 4; ++k) {
        t[k] = make_operand(&c->operand[k], t, r);
        if (t[k] != NULL) snapshot[k] = tile_snapshot(t[k]);
        valid[k][0] = pto_tile_valid_rows(t[k]);
        valid[k][1] = pto_tile_valid_cols(t[k]);
    }
    const pto_status got = op_call(c->op, (pto_pow_algorithm)c->algo, t[DST], t[SRC0], t[SRC1], t[TMP]);
    const char *message = pto_last_error();
    if (got != c->expected)
        fail_msg("case %zu (%s): status %s, expected %s; last error \"%s\"", index, op_name(c->op),
                 pto_status_string(got), pto_status_string(c->expected), message);
    if (strstr(message, op_name(c->op)) == NULL || strstr(message, c->names) == NULL)
        fail_msg("case %zu: last error \"%s\" should mention \"%s\" and \"%s\"", index, message,
                 op_name(c->op), c->names);
    for (int k = 0; k < 4; ++k) {
        if (t[k] == NULL || c->operand[k].same_as >= 0) continue;
        assert_tile_unchanged(t[k], snapshot[k], "operand of a refused call");
        assert_int_equal(pto_tile_valid_rows(t[k]), valid[k][0]);
        assert_int_equal(pto_tile_valid_cols(t[k]), valid[k][1]);
    }
    for (int k = 0; k < 4; ++k) {
        free(snapshot[k]);
        if (c->operand[k].same_as < 0) pto_tile_destroy(t[k]);
    }
}

/* The families' refusals (Binary, Unary, Scalar, RowReduce, ColReduce), for
 * each of their rows: each
 * operand NULL, a dtype its HOST list lacks (where it lacks one), each
 * source's dtype and valid region apart from dst's, and two rules broken at
 * once (the first in the contract's order decides). */
static size_t family_cases(op_id op, error_case *out) {
    size_t n = 0;
    const op_info *row = op_row(op);
    if (row->family == OP_FAMILY_SPECIAL) return 0;
    const int operands = 1 + row->source_count; /* dst and the sources */
    /* An accepted dtype, one of another width, and a refused one if any. */
    int ok = -1, other = -1, refused = -1;
    for (int dt = PTO_FLOAT32; dt >= PTO_INT8; --dt) {
        if (!op_accepts(op, PTO_PROFILE_HOST, (pto_dtype)dt)) {
            if (refused < 0) refused = dt;
        } else if (ok < 0) {
            ok = dt;
        }
    }
    for (int dt = PTO_INT8; dt < TEST_DTYPE_COUNT; ++dt)
        if (dt != ok && op_accepts(op, PTO_PROFILE_HOST, (pto_dtype)dt)) other = dt;
    assert_true(ok >= 0 && other >= 0);
    const operand_spec full = FULL(ok), nul = NUL;
    /* A source of another valid region: narrower where the family compares
     * (a row reduction compares rows with dst's, a column one columns). */
    const operand_spec wrong_type = FULL(other);
    const operand_spec narrow_rows = T(ok, 16, 16, 8, 16), narrow_cols = T(ok, 16, 16, 16, 8);
    const operand_spec narrow = row->family == OP_FAMILY_ROW_REDUCE ? narrow_rows : narrow_cols;
    operand_spec second = operands == 3 ? full : nul; /* src1, where there is one */
    /* A broadcast's last source is the expanded one (op_source_region); its
     * narrow form lacks a row (row broadcasts) or half the columns. */
    operand_spec expanded = full, expanded_narrow = narrow, expanded_wrong = wrong_type;
    if (op_is_broadcast(op)) {
        uint32_t vr, vc;
        op_source_region(op, row->source_count - 1, 16, 16, &vr, &vc);
        expanded = (operand_spec)T(ok, 16, 16, vr, vc);
        expanded_wrong = (operand_spec)T(other, 16, 16, vr, vc);
        expanded_narrow = row->family == OP_FAMILY_ROW_EXPAND ? (operand_spec)T(ok, 16, 16, 15, 1)
                                                              : (operand_spec)T(ok, 16, 16, 1, 8);
        if (operands == 3) second = expanded;
    }
    const char *const names[3] = {"dst", row->source_names[0], row->source_names[1]};
    const operand_spec first = operands == 2 && op_is_broadcast(op) ? expanded : full;
    for (int k = 0; k < operands; ++k) { /* NULL operands */
        error_case c = {op, 0, {full, first, second, nul}, PTO_ERR_NULL_ARGUMENT, names[k]};
        c.operand[k] = nul;
        out[n++] = c;
    }
    if (refused >= 0) {
        const operand_spec bad = FULL(refused);
        out[n++] = (error_case){op, 0, {bad, bad, operands == 3 ? bad : nul, nul},
                                PTO_ERR_UNSUPPORTED_DTYPE, "dst"};
        if (operands >= 2)
            out[n++] = (error_case){op, 0, {bad, nul, nul, nul}, PTO_ERR_NULL_ARGUMENT, names[1]};
    }
    for (int k = 1; k < operands; ++k) { /* sources apart from dst */
        const bool last = k == operands - 1;
        error_case c = {op, 0, {full, first, second, nul}, PTO_ERR_DTYPE_MISMATCH, names[k]};
        c.operand[k] = last ? expanded_wrong : wrong_type;
        out[n++] = c;
        c.operand[k] = last ? expanded_narrow : narrow;
        c.expected = PTO_ERR_SHAPE_MISMATCH;
        out[n++] = c;
    }
    if (operands < 2) return n; /* a Fill row: dst's rules only */
    /* dtype before region: the last source of another dtype, src0 of another
     * region where there are two. */
    error_case both = {op, 0, {full, narrow, second, nul}, PTO_ERR_DTYPE_MISMATCH,
                       names[operands - 1]};
    both.operand[operands - 1] = wrong_type;
    out[n++] = both;
    return n;
}

/* A Scalar row's scalar: an integer dtype takes an integer value in its
 * range, after the dtype rules and before the aliasing and region rules. */
static size_t scalar_refusals(op_id op) {
    op_scalar_call call = op_scalar_function(op);
    if (call == NULL) return 0;
    int dt = -1; /* the narrowest integer dtype the row accepts */
    for (int d = PTO_INT8; d <= PTO_UINT32 && dt < 0; ++d)
        if (op_accepts(op, PTO_PROFILE_HOST, (pto_dtype)d)) dt = d;
    if (dt < 0) return 0;
    const double too_big = ldexp(1.0, (int)ref_bits((pto_dtype)dt));
    const double bad[] = {1.5, NAN, INFINITY, too_big, -too_big};
    const char *const said[] = {"scalar 1.5 ", "scalar nan ", "scalar inf ", "scalar ", "scalar -"};
    pto_tile *dst = tile_new((pto_dtype)dt, 4, 8, 4, 8), *src = tile_new((pto_dtype)dt, 4, 8, 4, 8);
    pto_tile *narrow = tile_new((pto_dtype)dt, 4, 8, 4, 7);
    pto_tile *other = tile_new(dt == PTO_FLOAT32 ? PTO_INT32 : PTO_FLOAT32, 4, 8, 4, 8);
    uint64_t *before = tile_snapshot(dst);
    for (size_t i = 0; i < COUNT(bad); ++i) {
        assert_int_equal(call(dst, src, bad[i]), PTO_ERR_INVALID_ARGUMENT);
        if (strstr(pto_last_error(), op_name(op)) == NULL || strstr(pto_last_error(), said[i]) == NULL)
            fail_msg("%s: \"%s\" should name the scalar (%s)", op_name(op), pto_last_error(), said[i]);
        /* the scalar before the region rule, the dtype rules before it */
        assert_int_equal(call(dst, narrow, bad[i]), PTO_ERR_INVALID_ARGUMENT);
        if (op_row(op)->source_count > 0) /* a Fill row has no source to refuse */
            assert_int_equal(call(dst, other, bad[i]), PTO_ERR_DTYPE_MISMATCH);
        assert_tile_unchanged(dst, before, "dst of a refused scalar call");
    }
    /* the range's ends are values of the dtype */
    const double low = ref_is_signed((pto_dtype)dt) ? -too_big / 2 : 0;
    const double high = (ref_is_signed((pto_dtype)dt) ? too_big / 2 : too_big) - 1;
    assert_int_equal(call(dst, src, low), PTO_OK);
    assert_int_equal(call(dst, src, high), PTO_OK);
    free(before);
    pto_tile_destroy(dst), pto_tile_destroy(src), pto_tile_destroy(narrow), pto_tile_destroy(other);
    return 3 * COUNT(bad);
}

static void test_operation_errors(void **state) {
    (void)state;
    rng r = {99};
    bool seen[OP_COUNT][PTO_ERR_OUT_OF_MEMORY + 1] = {{false}};
    for (size_t i = 0; i < COUNT(kCases); ++i) {
        run_error_case(&kCases[i], i, &r);
        seen[kCases[i].op][kCases[i].expected] = true;
    }
    size_t family_count = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        error_case cases[16];
        const size_t n = family_cases((op_id)op, cases);
        for (size_t i = 0; i < n; ++i) {
            run_error_case(&cases[i], COUNT(kCases) + family_count + i, &r);
            seen[op][cases[i].expected] = true;
        }
        const size_t refusals = scalar_refusals((op_id)op);
        if (refusals != 0) seen[op][PTO_ERR_INVALID_ARGUMENT] = true;
        family_count += n + refusals;
    }
    /* Every status each operation can return was produced at least once:
     * the five of 0.3 as listed, every other row those of its family. */
    static const pto_status kReachable[5][6] = {
        {PTO_ERR_NULL_ARGUMENT, PTO_ERR_INVALID_ARGUMENT, PTO_ERR_UNSUPPORTED_DTYPE,
         PTO_ERR_DTYPE_MISMATCH, PTO_ERR_ALIASING, PTO_ERR_SHAPE_MISMATCH},
        {PTO_ERR_NULL_ARGUMENT, PTO_ERR_UNSUPPORTED_DTYPE, PTO_ERR_DTYPE_MISMATCH, PTO_ERR_SHAPE_MISMATCH},
        {PTO_ERR_NULL_ARGUMENT, PTO_ERR_DTYPE_MISMATCH, PTO_ERR_ALIASING, PTO_ERR_SHAPE_MISMATCH},
        {PTO_ERR_NULL_ARGUMENT, PTO_ERR_UNSUPPORTED_DTYPE, PTO_ERR_DTYPE_MISMATCH, PTO_ERR_SHAPE_MISMATCH},
        {PTO_ERR_NULL_ARGUMENT, PTO_ERR_DTYPE_MISMATCH, PTO_ERR_SHAPE_MISMATCH},
    };
    static const pto_status kFamilyReachable[6] = {PTO_ERR_NULL_ARGUMENT, PTO_ERR_DTYPE_MISMATCH,
                                                   PTO_ERR_SHAPE_MISMATCH};
    static const pto_status kFillReachable[6] = {PTO_ERR_NULL_ARGUMENT, PTO_ERR_INVALID_ARGUMENT};
    for (int op = 0; op < OP_COUNT; ++op) {
        /* tcvt's statuses (its source of another dtype, its two enums, ODD)
         * are test_tcvt's test_rules and test_pairs_per_profile; tfillpad's
         * (its pad, a source of dst's size) test_tfillpad's test_rules. */
        if (op_converts((op_id)op) || op_tested_apart((op_id)op)) continue;
        const op_family family = op_row((op_id)op)->family;
        const pto_status *reachable = family == OP_FAMILY_SPECIAL ? kReachable[op]
                                      : family == OP_FAMILY_FILL  ? kFillReachable
                                                                  : kFamilyReachable;
        assert_true(op_row((op_id)op)->family != OP_FAMILY_SPECIAL || op < 5);
        for (int k = 0; k < 6 && reachable[k] != PTO_OK; ++k)
            if (!seen[op][reachable[k]])
                fail_msg("%s never returned %s", op_name((op_id)op), pto_status_string(reachable[k]));
    }
    print_message("[errors] %zu refused calls checked (%zu of them the families')\n",
                  COUNT(kCases) + family_count, family_count);
}

/* One-element calls that differ from a common call only where the full
 * check decides: a profile other than HOST, placed tiles whose elements share
 * bytes without identical placement, an empty valid region (accepted, with
 * nothing written). */
static void test_one_element_full_path(void **state) {
    (void)state;
    rng r = {7};
    pto_tile *d = tile_new(F32, 1, 1, 1, 1), *a = tile_new(F32, 1, 1, 1, 1);
    pto_tile *b = tile_new(F32, 1, 1, 1, 1);
    tile_fill(a, &r, GEN_ANY);
    tile_fill(b, &r, GEN_ANY);
    uint64_t *before = tile_snapshot(d);

    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tprelu(d, a, b, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(pto_last_error(), "pto_tprelu: tmp is NULL, but on A2A3"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    assert_tile_unchanged(d, before, "dst of a refused one-element call");

    pto_buffer *buffer = NULL;
    assert_int_equal(pto_buffer_create(64, &buffer), PTO_OK);
    pto_tile *placed_dst = NULL, *overlapping = NULL;
    assert_int_equal(pto_tile_create_at(F32, 1, 1, buffer, 0, &placed_dst), PTO_OK);
    assert_int_equal(pto_tile_create_at(F32, 1, 2, buffer, 0, &overlapping), PTO_OK);
    /* row 0 of both at one address, src's 8 bytes long: not exactly on dst's row 0 */
    assert_int_equal(pto_trsqrt(placed_dst, overlapping), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_trsqrt: src storage overlaps dst storage"));
    assert_int_equal(pto_tpartadd(placed_dst, a, overlapping), PTO_ERR_ALIASING);
    assert_non_null(strstr(pto_last_error(), "pto_tpartadd: src1 storage overlaps dst storage"));

    assert_int_equal(pto_tile_set_valid(d, 0, 0), PTO_OK);
    assert_int_equal(pto_tile_set_valid(a, 0, 0), PTO_OK);
    assert_int_equal(pto_trsqrt(d, a), PTO_OK);
    assert_tile_unchanged(d, before, "dst with an empty valid region");

    free(before);
    pto_tile_destroy(placed_dst);
    pto_tile_destroy(overlapping);
    pto_buffer_destroy(buffer);
    pto_tile_destroy(d);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
}

/* Integer dtypes with HIGH_PRECISION are refused; every float dtype with
 * either algorithm and every integer with DEFAULT is accepted. */
static void test_tpow_dtype_algorithm_matrix(void **state) {
    (void)state;
    for (int dt = 0; dt <= PTO_FLOAT32; ++dt) {
        for (int algo = 0; algo <= 1; ++algo) {
            pto_tile *d = tile_new((pto_dtype)dt, 4, 4, 4, 4), *b = tile_new((pto_dtype)dt, 4, 4, 4, 4);
            pto_tile *e = tile_new((pto_dtype)dt, 4, 4, 4, 4), *tmp = tile_new((pto_dtype)dt, 4, 4, 4, 4);
            const pto_status want = algo == 1 && !ref_is_float((pto_dtype)dt) ? PTO_ERR_UNSUPPORTED_DTYPE : PTO_OK;
            assert_int_equal(pto_tpow(d, b, e, tmp, (pto_pow_algorithm)algo), want);
            if (want != PTO_OK) assert_non_null(strstr(pto_last_error(), "pto_tpow"));
            pto_tile_destroy(d), pto_tile_destroy(b), pto_tile_destroy(e), pto_tile_destroy(tmp);
        }
    }
}

/* A successful call leaves the last error alone. */
static void test_success_keeps_last_error(void **state) {
    (void)state;
    assert_int_equal(pto_trsqrt(NULL, NULL), PTO_ERR_NULL_ARGUMENT);
    char before[256];
    strncpy(before, pto_last_error(), sizeof(before) - 1);
    before[sizeof(before) - 1] = '\0';
    pto_tile *t = tile_new(PTO_FLOAT32, 2, 2, 2, 2);
    assert_int_equal(pto_trsqrt(t, t), PTO_OK);
    assert_string_equal(pto_last_error(), before);
    pto_tile_destroy(t);
}

typedef struct {
    char initial[256];
    char after[256];
} thread_report;

static void *thread_main(void *arg) {
    thread_report *report = arg;
    strncpy(report->initial, pto_last_error(), sizeof(report->initial) - 1);
    (void)pto_tile_set_valid(NULL, 1, 1);
    strncpy(report->after, pto_last_error(), sizeof(report->after) - 1);
    return NULL;
}

static void test_last_error_is_per_thread(void **state) {
    (void)state;
    skip_under_qemu("errors", "a dynamically linked program that starts a thread can hang under qemu-user");
    pto_tile *t = tile_new(PTO_FLOAT32, 4, 4, 4, 4);
    assert_int_equal(pto_tpow(t, NULL, t, NULL, PTO_POW_DEFAULT), PTO_ERR_NULL_ARGUMENT);
    char mine[256];
    strncpy(mine, pto_last_error(), sizeof(mine) - 1);
    mine[sizeof(mine) - 1] = '\0';
    assert_non_null(strstr(mine, "pto_tpow"));
    assert_non_null(strstr(mine, "base"));

    thread_report report;
    memset(&report, 0, sizeof(report));
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, thread_main, &report), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_string_equal(report.initial, "");
    assert_non_null(strstr(report.after, "pto_tile_set_valid"));
    assert_string_equal(pto_last_error(), mine);
    pto_tile_destroy(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operation_errors),
        cmocka_unit_test(test_tpow_dtype_algorithm_matrix),
        cmocka_unit_test(test_one_element_full_path),
        cmocka_unit_test(test_success_keeps_last_error),
        cmocka_unit_test(test_last_error_is_per_thread),
    };
    return cmocka_run_group_tests_name("errors", tests, NULL, NULL);
}
