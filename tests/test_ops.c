/* Every (operation, dtype) pair of the contract against the scalar reference,
 * on every SIMD target: many shapes, partial and empty valid regions, in-place
 * calls, operands of different physical shapes, and dst elements outside the
 * valid region checked unchanged. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef enum { ALIAS_NONE, ALIAS_SRC0, ALIAS_SRC1, ALIAS_ALL } alias_kind;

/* One call: the operands' physical shapes and valid regions. */
typedef struct {
    op_id op;
    pto_dtype dt;
    pto_pow_algorithm algo;
    uint32_t rows, cols, vr, vc;     /* dst */
    uint32_t r0, c0, vr0, vc0;       /* src0 (unless it is dst) */
    uint32_t r1, c1, vr1, vc1;       /* src1 (unless it is dst) */
    alias_kind alias;
    const char *target;
} op_run;

static gen_kind input_kind(op_id op, int operand) {
    switch (op) {
    case OP_TPOW: return operand == 0 ? GEN_POW_BASE : GEN_POW_EXP;
    case OP_TRSQRT: return GEN_POSITIVE;
    default: return GEN_ANY;
    }
}

static pto_tile *source_tile(const op_run *run, pto_tile *dst, int operand, rng *r) {
    const bool aliased = run->alias == ALIAS_ALL || run->alias == (operand == 0 ? ALIAS_SRC0 : ALIAS_SRC1);
    if (aliased) return dst;
    pto_tile *t = operand == 0 ? tile_new(run->dt, run->r0, run->c0, run->vr0, run->vc0)
                               : tile_new(run->dt, run->r1, run->c1, run->vr1, run->vc1);
    tile_fill(t, r, input_kind(run->op, operand));
    return t;
}

/* Scalar and Fill rows take their scalar from src1(0, 0) (op_call): a 1x1
 * tile of a random value of the dtype. */
static bool takes_scalar(op_id op) {
    return op_row(op)->family == OP_FAMILY_SCALAR || op_row(op)->family == OP_FAMILY_FILL;
}

static pto_tile *scalar_tile(const op_run *run, rng *r) {
    pto_tile *t = tile_new(run->dt, 1, 1, 1, 1);
    tile_put(t, 0, 0, exact_scalar(run->dt, gen_value(r, run->dt, GEN_ANY)));
    return t;
}

/* Element (i, j) of a source from its snapshot; 0 outside its tile (tpartadd
 * sources may be smaller than dst). */
static uint64_t source_at(const pto_tile *t, const uint64_t *snapshot, size_t i, size_t j) {
    if (t == NULL || i >= pto_tile_rows(t) || j >= pto_tile_cols(t)) return 0;
    return snapshot[i * pto_tile_cols(t) + j];
}

/* The expected value of dst(i, j) inside its valid region, from the
 * sources' contents before the call. */
/* Source `operand`'s element that dst(i, j) reads (a broadcast's expanded
 * source: its row's or column's; tcolexpanddiv's divisor: row 0). */
static uint64_t operand_at(const op_run *run, int operand, const pto_tile *t,
                           const uint64_t *snapshot, size_t i, size_t j) {
    size_t si, sj;
    op_source_index(run->op, operand, i, j, &si, &sj);
    if (run->op == OP_TCOLEXPANDDIV && operand == 1) si = 0;
    if (takes_scalar(run->op) && operand == 1) si = sj = 0; /* the scalar: src1(0, 0) */
    return source_at(t, snapshot, si, sj);
}

static uint64_t expected_at(const op_run *run, const pto_tile *src0, const uint64_t *s0,
                            const pto_tile *src1, const uint64_t *s1, size_t i, size_t j) {
    const uint64_t a = operand_at(run, 0, src0, s0, i, j);
    const uint64_t b = operand_at(run, 1, src1, s1, i, j);
    const bool partial =
        run->op == OP_TPARTADD || run->op == OP_TPARTMAX || run->op == OP_TPARTMIN || run->op == OP_TPARTMUL;
    if (!partial) return op_reference(run->op, run->dt, a, b);
    const bool in0 = i < pto_tile_valid_rows(src0) && j < pto_tile_valid_cols(src0);
    const bool in1 = i < pto_tile_valid_rows(src1) && j < pto_tile_valid_cols(src1);
    if (in0 && in1) return op_reference(run->op, run->dt, a, b);
    if (!in0 && !in1) fail_msg("%s: (%zu,%zu) is in neither source", op_name(run->op), i, j);
    return in0 ? a : b;
}

static void report_mismatch(const op_run *run, size_t i, size_t j, const pto_tile *src0,
                            const uint64_t *s0, const pto_tile *src1, const uint64_t *s1,
                            uint64_t expected, uint64_t got, bool inside) {
    const uint64_t a = operand_at(run, 0, src0, s0, i, j);
    const uint64_t b = operand_at(run, 1, src1, s1, i, j);
    fail_msg("%s %s algo %d target %s dst %ux%u valid %ux%u alias %d: (%zu,%zu) %s: "
             "a=0x%" PRIx64 " (%.9g) b=0x%" PRIx64 " (%.9g) expected 0x%" PRIx64 " (%.9g) got 0x%" PRIx64 " (%.9g)",
             op_name(run->op), pto_dtype_string(run->dt), (int)run->algo, run->target, run->rows,
             run->cols, run->vr, run->vc, (int)run->alias, i, j,
             inside ? "inside the valid region" : "outside the valid region was written", a,
             ref_to_double(run->dt, a), b, ref_to_double(run->dt, b), expected,
             ref_to_double(run->dt, expected), got, ref_to_double(run->dt, got));
}

static void run_op(const op_run *run, rng *r) {
    pto_tile *dst = tile_new(run->dt, run->rows, run->cols, run->vr, run->vc);
    tile_fill(dst, r, run->alias == ALIAS_SRC1 ? input_kind(run->op, 1) : input_kind(run->op, 0));
    pto_tile *src0 = source_tile(run, dst, 0, r);
    pto_tile *src1 = takes_scalar(run->op) ? scalar_tile(run, r)
                     : op_row(run->op)->source_count == 2 ? source_tile(run, dst, 1, r)
                                                          : NULL;
    pto_tile *tmp = NULL;
    if (run->op == OP_TPOW || (run->op == OP_TPRELU && run->alias == ALIAS_NONE)) {
        tmp = tile_new(run->dt, run->rows + 1, run->cols + 2, run->vr, run->vc);
        tile_fill(tmp, r, GEN_ANY);
    }
    uint64_t *s_dst = tile_snapshot(dst);
    uint64_t *s0 = tile_snapshot(src0);
    uint64_t *s1 = src1 != NULL ? tile_snapshot(src1) : NULL;
    uint64_t *s_tmp = tmp != NULL ? tile_snapshot(tmp) : NULL;

    assert_int_equal(op_call(run->op, run->algo, dst, src0, src1, tmp), PTO_OK);

    for (size_t i = 0; i < run->rows; ++i) {
        for (size_t j = 0; j < run->cols; ++j) {
            const uint64_t got = tile_get(dst, i, j);
            const bool inside = i < run->vr && j < run->vc;
            if (!inside) {
                if (got != s_dst[i * run->cols + j])
                    report_mismatch(run, i, j, src0, s0, src1, s1, s_dst[i * run->cols + j], got,
                                    false);
                continue;
            }
            const uint64_t want = expected_at(run, src0, s0, src1, s1, i, j);
            if (!within_tolerance(run->dt, op_tolerance(run->op, run->dt, run->algo, want), want,
                                  got))
                report_mismatch(run, i, j, src0, s0, src1, s1, want, got, true);
        }
    }
    assert_int_equal(pto_tile_valid_rows(dst), run->vr);
    assert_int_equal(pto_tile_valid_cols(dst), run->vc);
    if (src0 != dst) assert_tile_unchanged(src0, s0, "src0");
    if (src1 != NULL && src1 != dst && src1 != src0) assert_tile_unchanged(src1, s1, "src1");
    if (run->op == OP_TPRELU && tmp != NULL) assert_tile_unchanged(tmp, s_tmp, "tprelu tmp");

    free(s_dst), free(s0), free(s1), free(s_tmp);
    if (src0 != dst) pto_tile_destroy(src0);
    if (src1 != dst) pto_tile_destroy(src1);
    pto_tile_destroy(tmp);
    pto_tile_destroy(dst);
}

/* ---- elementwise operations (tpow, trsqrt, tprelu, tcolexpanddiv) ---- */

typedef struct {
    uint32_t rows, cols, vr, vc;
    uint32_t pad_r, pad_c; /* sources are this much larger than dst */
    alias_kind alias;
} scenario;

static const scenario kScenarios[] = {
    {1, 1, 1, 1, 0, 0, ALIAS_NONE},      {3, 17, 3, 17, 0, 0, ALIAS_NONE},
    {13, 7, 13, 7, 0, 0, ALIAS_NONE},    {16, 16, 16, 16, 0, 0, ALIAS_NONE},
    {64, 64, 64, 64, 0, 0, ALIAS_NONE},  {16, 256, 16, 256, 0, 0, ALIAS_NONE},
    {16, 16, 5, 9, 0, 0, ALIAS_NONE},    {64, 64, 63, 33, 0, 0, ALIAS_NONE},
    {16, 256, 3, 251, 0, 0, ALIAS_NONE}, {16, 16, 0, 16, 0, 0, ALIAS_NONE},
    {16, 16, 16, 0, 0, 0, ALIAS_NONE},   {16, 16, 0, 0, 0, 0, ALIAS_NONE},
    {16, 16, 5, 9, 3, 7, ALIAS_NONE},    {13, 7, 13, 7, 4, 9, ALIAS_NONE},
    {3, 17, 3, 17, 5, 0, ALIAS_NONE},    {1, 1, 1, 1, 2, 30, ALIAS_NONE},
    {13, 7, 13, 7, 0, 0, ALIAS_SRC0},    {13, 7, 13, 7, 0, 0, ALIAS_SRC1},
    {13, 7, 13, 7, 0, 0, ALIAS_ALL},     {16, 16, 5, 9, 2, 3, ALIAS_SRC0},
    {16, 16, 5, 9, 2, 3, ALIAS_SRC1},    {16, 16, 5, 9, 0, 0, ALIAS_ALL},
    {64, 64, 64, 64, 1, 1, ALIAS_SRC1},  {64, 64, 64, 64, 0, 0, ALIAS_ALL},
    {1, 1, 1, 1, 0, 0, ALIAS_ALL},
    /* rows long enough for pow's passes over blocks, in place */
    {3, 512, 3, 512, 0, 0, ALIAS_SRC0},  {3, 512, 3, 509, 0, 0, ALIAS_SRC1},
    {2, 768, 2, 768, 0, 0, ALIAS_ALL},
};

static op_run elementwise_run(op_id op, pto_dtype dt, pto_pow_algorithm algo, const scenario *s,
                              const char *target) {
    op_run run = {op, dt, algo, s->rows, s->cols, s->vr, s->vc,
                  s->rows + s->pad_r, s->cols + s->pad_c, s->vr, s->vc,
                  s->rows + s->pad_r, s->cols + s->pad_c, s->vr, s->vc, s->alias, target};
    if (op == OP_TCOLEXPANDDIV) {
        /* A divisor row vector: 1 row, or a few with row 0 the one that counts. */
        run.r1 = 1 + s->pad_r;
        run.vr1 = 1 + s->pad_r / 2;
        run.vc1 = s->vc + s->pad_c / 2;
    }
    if (op_is_broadcast(op)) {
        /* The expanded source: one value per row or column, within a tile
         * as padded as the others; the full source may be dst (in place). */
        const int e = op_row(op)->source_count - 1;
        uint32_t *vr = e == 0 ? &run.vr0 : &run.vr1, *vc = e == 0 ? &run.vc0 : &run.vc1;
        op_source_region(op, e, s->vr, s->vc, vr, vc);
        if (e == 0) {
            run.r0 = *vr + s->pad_r + (*vr == 0);
            run.c0 = *vc + s->pad_c + (*vc == 0);
        } else {
            run.r1 = *vr + s->pad_r + (*vr == 0);
            run.c1 = *vc + s->pad_c + (*vc == 0);
        }
        if (s->alias != ALIAS_NONE) run.alias = e == 0 ? ALIAS_NONE : ALIAS_SRC0;
        /* An empty dst region still asks for a source of the region's rows
         * (row broadcasts) or columns (column broadcasts) and one value. */
        if (*vr == 0 && op_row(op)->family == OP_FAMILY_COL_EXPAND) *vr = 1;
        if (*vc == 0 && op_row(op)->family == OP_FAMILY_ROW_EXPAND) *vc = 1;
        return run;
    }
    if (op_row(op)->source_count < 2 && s->alias != ALIAS_NONE) run.alias = ALIAS_SRC0;
    return run;
}

#define ALL_DTYPES 0x1FFu
#define FLOAT_DTYPES ((1u << PTO_FLOAT16) | (1u << PTO_BFLOAT16) | (1u << PTO_FLOAT32))
#define F32_F16 ((1u << PTO_FLOAT16) | (1u << PTO_FLOAT32))

typedef struct {
    const char *name;
    op_id op;
    uint32_t dtypes; /* bit per pto_dtype */
    pto_pow_algorithm algo;
} elementwise_test;

static const elementwise_test kElementwise[] = {
    {"tprelu (9 dtypes)", OP_TPRELU, ALL_DTYPES, PTO_POW_DEFAULT},
    {"tcolexpanddiv (f32, f16, and as tdiv i16, i32, u16, u32)", OP_TCOLEXPANDDIV,
     F32_F16 | (1u << PTO_INT16) | (1u << PTO_INT32) | (1u << PTO_UINT16) | (1u << PTO_UINT32),
     PTO_POW_DEFAULT},
    {"trsqrt (f32, f16)", OP_TRSQRT, F32_F16, PTO_POW_DEFAULT},
    {"tpow DEFAULT (9 dtypes)", OP_TPOW, ALL_DTYPES, PTO_POW_DEFAULT},
    {"tpow HIGH_PRECISION (3 float dtypes)", OP_TPOW, FLOAT_DTYPES, PTO_POW_HIGH_PRECISION},
};

/* The calls run_op made on 8-byte dtypes (INT64, UINT64), counted to show
 * the generic loops reach them: test_eight_byte_calls. */
static size_t g_eight_byte_calls;

static void count_call(const op_run *run) { g_eight_byte_calls += pto_dtype_size(run->dt) == 8; }

static void elementwise_body(void *ctx, size_t target_index, const char *target) {
    const elementwise_test *t = ctx;
    rng r = {0x5EED0000u + (uint64_t)t->op * 977u + (uint64_t)t->algo + target_index};
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
        if (!(t->dtypes & (1u << dt))) continue;
        for (size_t s = 0; s < COUNT(kScenarios); ++s) {
            const op_run run = elementwise_run(t->op, (pto_dtype)dt, t->algo, &kScenarios[s], target);
            run_op(&run, &r);
            count_call(&run);
        }
    }
}

static void test_elementwise(void **state) {
    for_each_target(((const elementwise_test *)*state)->name, elementwise_body, *state);
}

/* ---- tmov keeps every bit ---- */

/* Every 16-bit pattern as float16, bfloat16 and int16, and float32 NaNs
 * with every payload bit and both signs, signalling ones included: the
 * copy is bit for bit on every target (the family test compares NaNs by
 * NaN-ness only). */
static void tmov_bits_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    static const pto_dtype kSixteen[] = {PTO_FLOAT16, PTO_BFLOAT16, PTO_INT16};
    for (size_t k = 0; k < COUNT(kSixteen); ++k) {
        pto_tile *src = tile_new(kSixteen[k], 256, 256, 256, 255);
        pto_tile *dst = tile_new(kSixteen[k], 256, 256, 256, 255);
        for (uint32_t i = 0; i < 65536; ++i) tile_put(src, i / 256, i % 256, i);
        assert_int_equal(pto_tmov(dst, src), PTO_OK);
        for (uint32_t i = 0; i < 65536; ++i)
            if (i % 256 < 255 && tile_get(dst, i / 256, i % 256) != i)
                fail_msg("tmov %s on %s: 0x%x became 0x%x", pto_dtype_string(kSixteen[k]), target, i,
                         tile_get(dst, i / 256, i % 256));
        pto_tile_destroy(src), pto_tile_destroy(dst);
    }
    pto_tile *src = tile_new(PTO_FLOAT32, 3, 47, 3, 47), *dst = tile_new(PTO_FLOAT32, 3, 47, 3, 47);
    for (uint32_t i = 0; i < 3 * 47; ++i) {
        const uint32_t payload = i < 23 ? 1u << i : (uint32_t)(i * 2654435761u) & 0x7FFFFFu;
        tile_put(src, i / 47, i % 47, (i & 1 ? 0xFF800000u : 0x7F800000u) | (payload ? payload : 1));
    }
    assert_int_equal(pto_tmov(dst, src), PTO_OK);
    for (uint32_t i = 0; i < 3 * 47; ++i)
        assert_int_equal(tile_get(dst, i / 47, i % 47), tile_get(src, i / 47, i % 47));
    pto_tile_destroy(src), pto_tile_destroy(dst);
}

static void test_tmov_keeps_every_bit(void **state) {
    (void)state;
    for_each_target("tmov: every 16-bit pattern, float32 NaN payloads", tmov_bits_body, NULL);
}

/* ---- tpartadd: every supported validity pattern ---- */

/* A source valid region relative to dst's R x C. */
typedef enum { P_FULL, P_ROWS, P_COLS, P_BOTH, P_EMPTY, P_NO_ROWS, P_NO_COLS } part;

static void part_region(part p, uint32_t R, uint32_t C, uint32_t *vr, uint32_t *vc) {
    const uint32_t fewer_rows = R / 2, fewer_cols = C / 3;
    switch (p) {
    case P_FULL: *vr = R, *vc = C; break;
    case P_ROWS: *vr = fewer_rows, *vc = C; break;
    case P_COLS: *vr = R, *vc = fewer_cols; break;
    case P_BOTH: *vr = fewer_rows, *vc = fewer_cols; break;
    case P_EMPTY: *vr = 0, *vc = 0; break;
    case P_NO_ROWS: *vr = 0, *vc = C; break;
    case P_NO_COLS: *vr = R, *vc = 0; break;
    }
}

typedef struct {
    part src0, src1;
    alias_kind alias;
} partadd_pattern;

static const partadd_pattern kPartaddPatterns[] = {
    {P_FULL, P_FULL, ALIAS_NONE},    {P_FULL, P_ROWS, ALIAS_NONE},    {P_FULL, P_COLS, ALIAS_NONE},
    {P_FULL, P_BOTH, ALIAS_NONE},    {P_FULL, P_EMPTY, ALIAS_NONE},   {P_FULL, P_NO_ROWS, ALIAS_NONE},
    {P_FULL, P_NO_COLS, ALIAS_NONE}, {P_ROWS, P_FULL, ALIAS_NONE},    {P_COLS, P_FULL, ALIAS_NONE},
    {P_BOTH, P_FULL, ALIAS_NONE},    {P_EMPTY, P_FULL, ALIAS_NONE},   {P_NO_ROWS, P_FULL, ALIAS_NONE},
    {P_NO_COLS, P_FULL, ALIAS_NONE}, {P_FULL, P_BOTH, ALIAS_SRC0},    {P_BOTH, P_FULL, ALIAS_SRC1},
    {P_FULL, P_ROWS, ALIAS_SRC0},    {P_COLS, P_FULL, ALIAS_SRC1},    {P_FULL, P_FULL, ALIAS_ALL},
};

typedef struct {
    uint32_t rows, cols, vr, vc;
    bool tight; /* sources exactly as large as their valid regions (other strides) */
} partadd_dst;

static const partadd_dst kPartaddDsts[] = {
    {16, 16, 13, 11, false}, {16, 16, 13, 11, true}, {64, 64, 64, 64, false},
    {3, 17, 3, 17, true},    {1, 1, 1, 1, false},    {16, 256, 16, 256, true},
    {16, 16, 0, 0, false},   {16, 16, 7, 0, false},
};

typedef struct {
    uint64_t seed;
    op_id op;
} partial_ctx;

static void partadd_body(void *ctx, size_t target_index, const char *target) {
    const partial_ctx *pc = ctx;
    rng r = {pc->seed + target_index};
    for (int dt = 0; dt < TEST_DTYPE_COUNT; ++dt) {
        if (!op_accepts(pc->op, PTO_PROFILE_HOST, (pto_dtype)dt)) continue;
        for (size_t d = 0; d < COUNT(kPartaddDsts); ++d) {
            const partadd_dst *pd = &kPartaddDsts[d];
            for (size_t p = 0; p < COUNT(kPartaddPatterns); ++p) {
                const partadd_pattern *pp = &kPartaddPatterns[p];
                op_run run = {pc->op, (pto_dtype)dt, PTO_POW_DEFAULT, pd->rows, pd->cols,
                              pd->vr, pd->vc, 0, 0, 0, 0, 0, 0, 0, 0, pp->alias, target};
                part_region(pp->src0, pd->vr, pd->vc, &run.vr0, &run.vc0);
                part_region(pp->src1, pd->vr, pd->vc, &run.vr1, &run.vc1);
                run.r0 = pd->tight ? (run.vr0 ? run.vr0 : 1) : pd->rows + 3;
                run.c0 = pd->tight ? (run.vc0 ? run.vc0 : 1) : pd->cols + 5;
                run.r1 = pd->tight ? (run.vr1 ? run.vr1 : 1) : pd->rows + 1;
                run.c1 = pd->tight ? (run.vc1 ? run.vc1 : 1) : pd->cols + 2;
                run_op(&run, &r);
                if (pc->op == OP_TPARTADD) count_call(&run);
            }
        }
    }
}

static void test_tpartadd(void **state) {
    (void)state;
    partial_ctx ctx = {0xADD5EEDu, OP_TPARTADD};
    for_each_target("tpartadd (HOST's 11 dtypes, every supported pattern)", partadd_body, &ctx);
}

/* tpartmax, tpartmin, tpartmul: tpartadd's patterns and placements with
 * tmax's, tmin's and tmul's references where both sources are valid. */
static void test_tpart_others(void **state) {
    (void)state;
    static const op_id kOps[] = {OP_TPARTMAX, OP_TPARTMIN, OP_TPARTMUL};
    for (size_t k = 0; k < COUNT(kOps); ++k) {
        partial_ctx ctx = {0x9A27u + k, kOps[k]};
        for_each_target(op_name(kOps[k]), partadd_body, &ctx);
    }
    /* the profiles' lists and the pattern rule, nothing written on a refusal */
    pto_tile *i8 = tile_new(PTO_INT8, 4, 8, 4, 8), *i64 = tile_new(PTO_INT64, 4, 8, 4, 8);
    pto_tile *f = tile_new(PTO_FLOAT32, 4, 8, 4, 8), *g = tile_new(PTO_FLOAT32, 4, 9, 2, 9);
    rng r = {0x9A2F};
    tile_fill(f, &r, GEN_ANY);
    uint64_t *kept = tile_snapshot(f);
    expect_status(pto_tpartmax(f, f, g), PTO_ERR_SHAPE_MISMATCH, "tpartmax src1 wider than dst");
    expect_status(pto_tpartmul(f, NULL, f), PTO_ERR_NULL_ARGUMENT, "tpartmul NULL src0");
    expect_status(pto_tpartmin(f, i8, f), PTO_ERR_DTYPE_MISMATCH, "tpartmin INT8 src0");
    expect_status(pto_tpartmul(i64, i64, i64), PTO_ERR_UNSUPPORTED_DTYPE, "tpartmul INT64");
    assert_tile_unchanged(f, kept, "refused partial operations");
    assert_int_equal(pto_tpartmax(i64, i64, i64), PTO_OK);
    assert_int_equal(pto_tpartmul(i8, i8, i8), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    expect_status(pto_tpartmul(i8, i8, i8), PTO_ERR_UNSUPPORTED_DTYPE, "tpartmul INT8 under A2A3");
    expect_status(pto_tpartmax(i64, i64, i64), PTO_ERR_UNSUPPORTED_DTYPE, "tpartmax INT64 under A2A3");
    assert_non_null(strstr(pto_last_error(), "A2A3"));
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    assert_int_equal(pto_tpartmul(i8, i8, i8), PTO_OK);
    assert_int_equal(pto_tpartmin(i64, i64, i64), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    free(kept);
    pto_tile_destroy(i8), pto_tile_destroy(i64), pto_tile_destroy(f), pto_tile_destroy(g);
}

/* ---- the 8-byte dtypes in the loops above ---- */

static size_t eight_byte_dtypes(uint32_t dtypes) {
    return ((dtypes >> PTO_INT64) & 1u) + ((dtypes >> PTO_UINT64) & 1u);
}

/* The loops above ran every row whose HOST list takes INT64 or UINT64 on
 * them: one call per scenario for each family row and dtype, one per
 * (dst, pattern) for tpartadd, on each target that ran. (The MPFR-free
 * references handle 64-bit wrapping, unsigned order and INT64_MIN / -1;
 * tests/test_int64.c keeps what only 8-byte elements have.) */
static void test_eight_byte_calls(void **state) {
    (void)state;
    size_t targets_run = 0, rows = 0, per_target = 0;
    for (size_t t = 0; t < targets_count(); ++t) targets_run += test_target_wanted(targets_name(targets_at(t)));
    for (int op = 0; op < OP_COUNT; ++op) {
        if (op_row((op_id)op)->family == OP_FAMILY_SPECIAL || op_is_reduction((op_id)op)) continue;
        const size_t dtypes = eight_byte_dtypes(op_row((op_id)op)->dtypes[PTO_PROFILE_HOST]);
        rows += dtypes != 0;
        per_target += dtypes * COUNT(kScenarios);
    }
    per_target += eight_byte_dtypes(op_row(OP_TPARTADD)->dtypes[PTO_PROFILE_HOST]) * COUNT(kPartaddDsts) *
                  COUNT(kPartaddPatterns);
    print_message("[ops] INT64/UINT64: %zu calls on %zu target(s), %zu family rows and tpartadd\n",
                  g_eight_byte_calls, targets_run, rows);
    assert_true(rows >= 19); /* 19 at 0.5: the Binary rows, tmov, the Scalar rows but tlrelu, texpands,
                              * trowexpand and tcolexpand */
    assert_int_equal(g_eight_byte_calls, per_target * targets_run);
}

/* ---- tcolexpanddiv against division, bit for bit ---- */

/* Targets with FMA divide by a column's reciprocal and a remainder
 * correction (src/kernels/broadcast.cc), falling back to division where its
 * hypotheses fail; the others divide. Both must give the plain division's
 * bits (NaN: NaN-ness) for divisors and dividends chosen at those
 * hypotheses' edges: significands of all ones or just above 1, powers of
 * two, subnormals, the reciprocal's range ends 2^-126 and 2^126, zeros,
 * infinities, NaN; dividends whose quotients lie near a midpoint of float32,
 * near overflow, near 2^-124 and in the subnormal range, and dividends near
 * 2^-101, subnormal or special. float16: every divisor bit pattern. Tiles of
 * more than 1024 columns with odd widths cross the kernel's column passes
 * and row tails. */
#define DIV_ROWS 24
#define DIV_COLS_F32 1331
#define DIV_BATCHES_F32 32
#define DIV_ROWS_F16 16
#define DIV_COLS_F16 4096

static float f32_of(uint32_t bits) { return (float)ref_to_double(PTO_FLOAT32, bits); }

static uint32_t random_sign(rng *r) { return rng_below(r, 2) ? 0x80000000u : 0u; }

/* sign | biased exponent | fraction. */
static uint32_t f32_bits(rng *r, uint32_t biased_exp, uint32_t frac) {
    return random_sign(r) | biased_exp << 23 | (frac & 0x7FFFFFu);
}

/* The kinds of value below are drawn per group of DIV_GROUP columns (a
 * vector of the widest target, from each row's start), so that vectors of
 * one kind take the kernel's fast path, or its fallback, as a whole. */
#define DIV_GROUP 16
#define DIV_KINDS 8

static uint32_t adversarial_divisor(rng *r, uint32_t kind) {
    const uint32_t frac = (uint32_t)rng_next(r);
    switch (kind) {
    case 0: return f32_bits(r, 1 + rng_below(r, 254), frac);
    case 1: { /* powers of two, subnormal ones included */
        const int e = -149 + (int)rng_below(r, 277);
        return random_sign(r) | ref_from_double(PTO_FLOAT32, ldexp(1.0, e));
    }
    case 2: return f32_bits(r, 1 + rng_below(r, 254), 0x7FFFFFu - rng_below(r, 4));
    case 3: return f32_bits(r, 1 + rng_below(r, 254), rng_below(r, 4));
    case 4: return f32_bits(r, 0, frac); /* subnormal (or zero) */
    case 5: { /* the ends of the reciprocal's range and of the format */
        static const uint32_t kEdges[] = {0x00800000u, 0x7E800000u, 0x7F7FFFFFu, 0x00000001u, 0x3F800000u};
        return random_sign(r) | (kEdges[rng_below(r, COUNT(kEdges))] + rng_below(r, 3) - 1);
    }
    case 6: {
        uint64_t specials[16];
        return specials[rng_below(r, (uint32_t)float_specials(PTO_FLOAT32, specials))];
    }
    default: return f32_bits(r, 107 + rng_below(r, 40), frac);
    }
}

static uint32_t adversarial_dividend(rng *r, uint32_t divisor, uint32_t kind) {
    const double s = fabs(ref_to_double(PTO_FLOAT32, divisor));
    const double sign = rng_below(r, 2) ? -1.0 : 1.0;
    const double frac = 1.0 + ldexp((double)(rng_next(r) & 0x7FFFFFu), -23);
    switch (kind) {
    case 0: return f32_bits(r, 1 + rng_below(r, 254), (uint32_t)rng_next(r));
    case 1: { /* a quotient just off a float32 midpoint */
        const double mid = ldexp(frac + ldexp(1.0, -24), (int)rng_below(r, 61) - 30);
        return ref_from_double(PTO_FLOAT32, sign * s * mid);
    }
    case 2: { /* a quotient near the ends of the range */
        static const int kEnds[] = {-152, -149, -140, -127, -126, -125, -124, -123, 125, 126, 127, 128};
        const int e = kEnds[rng_below(r, COUNT(kEnds))];
        return ref_from_double(PTO_FLOAT32, sign * s * ldexp(frac, e));
    }
    case 3: return ref_from_double(PTO_FLOAT32, sign * ldexp(frac, -104 + (int)rng_below(r, 7)));
    case 4: return f32_bits(r, 0, (uint32_t)rng_next(r));
    case 5: {
        uint64_t specials[16];
        return specials[rng_below(r, (uint32_t)float_specials(PTO_FLOAT32, specials))];
    }
    case 6: return (uint32_t)rng_next(r);
    default: /* exact quotients */
        return ref_from_double(PTO_FLOAT32, sign * s * (double)(1 + rng_below(r, 1000)));
    }
}

static bool same_quotient(pto_dtype dt, uint32_t got, uint32_t want) {
    return got == want || (ref_is_nan(dt, got) && ref_is_nan(dt, want));
}

/* Runs one rows x cols tcolexpanddiv and counts the elements that differ
 * from want. */
static size_t count_wrong_quotients(pto_dtype dt, const uint64_t *a, const uint64_t *s, const uint32_t *want,
                                    uint32_t rows, uint32_t cols, const char *target) {
    const size_t n = (size_t)rows * cols;
    uint64_t *got = malloc(n * sizeof(uint64_t));
    assert_non_null(got);
    op_run_rows(OP_TCOLEXPANDDIV, dt, PTO_POW_DEFAULT, a, s, got, rows, cols);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        if (same_quotient(dt, got[i], want[i])) continue;
        if (++wrong <= 10)
            print_error("tcolexpanddiv %s on %s: 0x%x / 0x%x got 0x%x want 0x%x\n", pto_dtype_string(dt), target,
                        (unsigned)a[i], (unsigned)s[i % cols], (unsigned)got[i], want[i]);
    }
    free(got);
    return wrong;
}

static void division_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    rng r = {0xD1F1DEu + target_index};
    const size_t n_max = (size_t)DIV_ROWS_F16 * DIV_COLS_F16;
    uint64_t *a = malloc(n_max * sizeof(uint64_t)), *s = malloc(n_max * sizeof(uint64_t));
    uint32_t *want = malloc(n_max * sizeof(uint32_t));
    assert_true(a && s && want);
    size_t n32 = 0, wrong32 = 0, n16 = 0, wrong16 = 0;
    uint32_t kind = 0;
    for (int batch = 0; batch < DIV_BATCHES_F32; ++batch) {
        for (uint32_t j = 0; j < DIV_COLS_F32; ++j) {
            /* Half the groups of ordinary divisors (kind 0 or 7). */
            if (j % DIV_GROUP == 0) kind = rng_below(&r, 2) ? rng_below(&r, 2) * 7 : rng_below(&r, DIV_KINDS);
            s[j] = adversarial_divisor(&r, kind);
        }
        for (size_t i = 0; i < (size_t)DIV_ROWS * DIV_COLS_F32; ++i) {
            const uint32_t sj = s[i % DIV_COLS_F32];
            /* Half the groups of dividends whose quotients are near a
             * midpoint or exact (kind 1 or 7). */
            if (i % DIV_COLS_F32 % DIV_GROUP == 0)
                kind = rng_below(&r, 2) ? 1 + rng_below(&r, 2) * 6 : rng_below(&r, DIV_KINDS);
            a[i] = adversarial_dividend(&r, sj, kind);
            want[i] = ref_from_double(PTO_FLOAT32, f32_of(a[i]) / f32_of(sj)); /* float division */
        }
        wrong32 += count_wrong_quotients(PTO_FLOAT32, a, s, want, DIV_ROWS, DIV_COLS_F32, target);
        n32 += (size_t)DIV_ROWS * DIV_COLS_F32;
    }
    /* float16: the 65536 divisors in 16 tiles, random dividends, ones whose
     * quotients lie near a float16 midpoint, and ones whose quotients are a
     * subnormal midpoint (2k+1) 2^-25, exactly where a's float16 rounding
     * allows (the kernel divides there: a quotient from the reciprocal can
     * land on the wrong side of the tie). */
    for (uint32_t first = 0; first < 0x10000u; first += DIV_COLS_F16) {
        for (uint32_t j = 0; j < DIV_COLS_F16; ++j) s[j] = first + j;
        for (size_t i = 0; i < n_max; ++i) {
            const uint32_t sj = s[i % DIV_COLS_F16];
            const double sd = ref_to_double(PTO_FLOAT16, sj);
            if (i % DIV_COLS_F16 % DIV_GROUP == 0) kind = rng_below(&r, 5);
            if (kind == 0)
                a[i] = gen_value(&r, PTO_FLOAT16, GEN_ANY);
            else if (kind == 4)
                a[i] = ref_from_double(PTO_FLOAT16, sd * ldexp(2.0 * rng_below(&r, 64) + 1, -25));
            else
                a[i] = ref_from_double(PTO_FLOAT16, sd * ldexp(1.0 + ldexp(2.0 * rng_below(&r, 1024) + 1, -11),
                                                             (int)rng_below(&r, 41) - 20));
            want[i] = ref_div(PTO_FLOAT16, a[i], sj);
        }
        wrong16 += count_wrong_quotients(PTO_FLOAT16, a, s, want, DIV_ROWS_F16, DIV_COLS_F16, target);
        n16 += n_max;
    }
    print_message("[ops] tcolexpanddiv vs division on %-6s float32 n=%zu wrong=%zu, float16 n=%zu "
                  "(every divisor) wrong=%zu\n", target, n32, wrong32, n16, wrong16);
    free(a), free(s), free(want);
    if (wrong32 + wrong16 != 0)
        fail_msg("tcolexpanddiv on %s: %zu float32 and %zu float16 quotients differ from division", target, wrong32,
                 wrong16);
}

static void test_colexpanddiv_is_division(void **state) {
    (void)state;
    for_each_target("tcolexpanddiv against division, bit for bit", division_body, NULL);
}

/* Why float16 needs no correction step (src/kernels/broadcast.cc): with
 * y = RN32(1/s) and q = RN32(a y), RN16(q) = RN16(a/s) for every pair of
 * finite nonzero float16 a and s with |q| >= 2^-14. That is IEEE arithmetic
 * alone, so it is checked here for every pair of positive finite float16
 * values (signs are exact), against RN16(RN32(a/s)) = RN16(a/s) (24 >=
 * 2*11+2 bits). Under emulation a spread sample of 256 divisors. The pairs
 * below 2^-14 where the two differ are counted too: the kernel divides
 * there, and natively there must be some, or the comparison proves nothing. */

/* x (>= 0) rounded to float16's grid, ties to even, as a float: multiples
 * of 2^-24 below 2^-14; above, x's bits rounded to 10 fraction bits (65520
 * and above become 65536, float16's infinity). ref_from_double gives the
 * same rounding at about 31 ns a call: a minute for the 2 * 10^9 roundings
 * below. */
static float on_float16_grid(float x) {
    if (x < 0x1p-14f) return rintf(x * 0x1p24f) * 0x1p-24f;
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    b = (b + 0xFFFu + ((b >> 13) & 1u)) & ~0x1FFFu;
    memcpy(&x, &b, sizeof(x));
    return x;
}

static void test_float16_reciprocal_rounds_like_division(void **state) {
    (void)state;
    enum { kFinite = 0x7C00 }; /* positive finite float16 bit patterns, zero included */
    static float value[kFinite];
    for (uint32_t bits = 0; bits < kFinite; ++bits) value[bits] = (float)ref_to_double(PTO_FLOAT16, bits);
    const size_t divisors = under_emulation() ? 256 : 0x8000;
    size_t pairs = 0, wrong = 0, below = 0;
    for (size_t k = 0; k < divisors; ++k) {
        const size_t sb = sample_index(k, divisors, 0x8000);
        if (sb == 0 || sb >= kFinite) continue;
        const float s = value[sb];
        const float y = 1.0f / s;
        size_t wrong_here = 0, below_here = 0;
        for (uint32_t ab = 1; ab < kFinite; ++ab) {
            const float a = value[ab];
            const float q = a * y;
            const int differs = on_float16_grid(q) != on_float16_grid(a / s);
            wrong_here += differs & (q >= 0x1p-14f);
            below_here += differs & (q < 0x1p-14f);
        }
        if (wrong_here != 0 && wrong < 5)
            print_error("float16 divisor 0x%zx: %zu quotients at or above 2^-14 round apart\n", sb, wrong_here);
        pairs += kFinite - 1, wrong += wrong_here, below += below_here;
    }
    print_message("[ops] float16 a * RN32(1/s) against a / s: %zu pairs, %zu differ at or above 2^-14, "
                  "%zu below (where the kernel divides)\n", pairs, wrong, below);
    assert_int_equal(wrong, 0);
    if (!under_emulation()) assert_true(below > 0);
}

/* ---- trem, trems: the remainder's sign, zero divisors, exact results ---- */

/* Hand-computed remainders (not the reference's): src1's sign, x rem 0 = x,
 * MIN rem -1 = 0; float zeros of src1's sign, NaN for a zero divisor or an
 * infinite dividend, a tiny remainder rounding to the divisor. */
typedef struct {
    pto_dtype dt;
    uint32_t a, b, want;
} rem_case;

static const rem_case kRemCases[] = {
    {PTO_INT32, 7, 2, 1},
    {PTO_INT32, (uint32_t)-7, 2, 1},
    {PTO_INT32, 7, (uint32_t)-2, (uint32_t)-1},
    {PTO_INT32, (uint32_t)-7, (uint32_t)-2, (uint32_t)-1},
    {PTO_INT32, (uint32_t)-8, 2, 0},
    {PTO_INT32, 12345, 0, 12345},
    {PTO_INT32, (uint32_t)-5, 0, (uint32_t)-5},
    {PTO_INT32, 0x80000000u, (uint32_t)-1, 0},
    {PTO_INT32, 0x80000000u, 3, 1},           /* -2147483648 = -715827883 * 3 + 1 */
    {PTO_INT32, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}, /* MAX - MIN = -1 */
    {PTO_INT16, 0xFFF9u, 3, 2},                /* -7 */
    {PTO_INT16, 0x8000u, 0xFFFFu, 0},
    {PTO_INT16, 0x8000u, 0, 0x8000u},
    {PTO_UINT16, 0xFFFFu, 10, 5},
    {PTO_UINT16, 77, 0, 77},
    {PTO_UINT32, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu},
    {PTO_UINT32, 9, 0, 9},
    {PTO_FLOAT32, 0xC0F00000u, 0x40000000u, 0x3F000000u}, /* -7.5 rem 2 = 0.5 */
    {PTO_FLOAT32, 0x40F00000u, 0xC0000000u, 0xBF000000u}, /* 7.5 rem -2 = -0.5 */
    {PTO_FLOAT32, 0xC0F00000u, 0xC0000000u, 0xBFC00000u}, /* -7.5 rem -2 = -1.5 */
    {PTO_FLOAT32, 0xC0800000u, 0x40000000u, 0x00000000u}, /* -4 rem 2 = +0 */
    {PTO_FLOAT32, 0x40800000u, 0xC0000000u, 0x80000000u}, /* 4 rem -2 = -0 */
    {PTO_FLOAT32, 0x80000000u, 0x40000000u, 0x00000000u}, /* -0 rem 2 = +0 */
    {PTO_FLOAT32, 0x40A00000u, 0x00000000u, 0x7FC00000u}, /* 5 rem 0: NaN */
    {PTO_FLOAT32, 0x7F800000u, 0x40000000u, 0x7FC00000u}, /* inf rem 2: NaN */
    {PTO_FLOAT32, 0x7FC00000u, 0x40000000u, 0x7FC00000u}, /* NaN rem 2: NaN */
    {PTO_FLOAT32, 0x40400000u, 0x7F800000u, 0x40400000u}, /* 3 rem inf = 3 */
    {PTO_FLOAT32, 0xC0400000u, 0x7F800000u, 0x7F800000u}, /* -3 rem inf = inf */
    {PTO_FLOAT32, 0x8DA24260u, 0x3F800000u, 0x3F800000u}, /* -1e-30 rem 1: 1 - 1e-30 rounds to 1 */
    {PTO_FLOAT32, 0x00000001u, 0xBF800000u, 0xBF800000u}, /* least subnormal rem -1 */
    {PTO_FLOAT32, 0x4B800000u, 0x40400000u, 0x3F800000u}, /* 2^24 rem 3 = 1 (exact) */
    {PTO_FLOAT32, 0xCB800000u, 0x40400000u, 0x40000000u}, /* -2^24 rem 3 = 2 */
    {PTO_FLOAT16, 0xC780u, 0x4000u, 0x3800u},             /* -7.5 rem 2 = 0.5 */
    {PTO_FLOAT16, 0x4400u, 0xC000u, 0x8000u},             /* 4 rem -2 = -0 */
    {PTO_FLOAT16, 0x8001u, 0x3C00u, 0x3C00u},             /* -2^-24 rem 1: 1 - 2^-24 rounds to 1 */
    {PTO_FLOAT16, 0x3C00u, 0x0000u, 0x7E00u},             /* 1 rem 0: NaN */
};

static bool rem_matches(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

static void rem_cases_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx, (void)target_index;
    for (size_t k = 0; k < COUNT(kRemCases); ++k) {
        const rem_case *c = &kRemCases[k];
        assert_true(rem_matches(c->dt, c->want, ref_trem(c->dt, c->a, c->b)));
        pto_tile *a = tile_new(c->dt, 1, 3, 1, 3), *b = tile_new(c->dt, 1, 3, 1, 3);
        pto_tile *dst = tile_new(c->dt, 1, 3, 1, 3);
        for (uint32_t j = 0; j < 3; ++j) tile_put(a, 0, j, c->a), tile_put(b, 0, j, c->b);
        assert_int_equal(pto_trem(dst, a, b), PTO_OK);
        const uint32_t got = tile_get(dst, 0, 1);
        const double scalar = ref_is_float(c->dt) ? ref_to_double(c->dt, c->b)
                                                  : (double)ref_int_value(c->dt, c->b);
        assert_int_equal(pto_trems(dst, a, scalar), PTO_OK);
        const uint32_t got_scalar = tile_get(dst, 0, 2);
        if (!rem_matches(c->dt, c->want, got) || !rem_matches(c->dt, c->want, got_scalar))
            fail_msg("%s on %s: 0x%x rem 0x%x = 0x%x (trems 0x%x), want 0x%x",
                     pto_dtype_string(c->dt), target, c->a, c->b, got, got_scalar, c->want);
        pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst);
    }
}

static void test_trem_cases(void **state) {
    (void)state;
    for_each_target("trem cases", rem_cases_body, NULL);
}

/* Every float16 dividend against sampled divisors, and float32 pairs whose
 * exponents lie far apart (where src1 + fmod rounds), against the reference. */
static void rem_sweep_body(void *ctx, size_t target_index, const char *target) {
    (void)ctx;
    const size_t divisors = under_emulation() ? 8 : 96;
    pto_tile *a = tile_new(PTO_FLOAT16, 256, 256, 256, 256), *b = tile_new(PTO_FLOAT16, 256, 256, 256, 256);
    pto_tile *dst = tile_new(PTO_FLOAT16, 256, 256, 256, 256);
    for (uint32_t i = 0; i < 65536; ++i) tile_put(a, i / 256, i % 256, i);
    for (size_t k = 0; k < divisors; ++k) {
        const uint32_t d = (uint32_t)sample_index(k, divisors, 65536);
        for (uint32_t i = 0; i < 65536; ++i) tile_put(b, i / 256, i % 256, d);
        assert_int_equal(pto_trem(dst, a, b), PTO_OK);
        for (uint32_t i = 0; i < 65536; ++i) {
            const uint32_t want = ref_trem(PTO_FLOAT16, i, d), got = tile_get(dst, i / 256, i % 256);
            if (!rem_matches(PTO_FLOAT16, want, got))
                fail_msg("float16 on %s: 0x%x rem 0x%x = 0x%x, want 0x%x", target, i, d, got, want);
        }
    }
    pto_tile_destroy(a), pto_tile_destroy(b), pto_tile_destroy(dst);
    rng r = {0x7EE70000u + target_index};
    enum { kPairs = 4096 };
    pto_tile *fa = tile_new(PTO_FLOAT32, 64, 64, 64, 64), *fb = tile_new(PTO_FLOAT32, 64, 64, 64, 64);
    pto_tile *fd = tile_new(PTO_FLOAT32, 64, 64, 64, 64);
    for (uint32_t i = 0; i < kPairs; ++i) {
        const double x = ldexp(1.0 + rng_unit(&r), (int)rng_below(&r, 120) - 60) * (rng_below(&r, 2) ? -1 : 1);
        const double y = ldexp(1.0 + rng_unit(&r), (int)rng_below(&r, 120) - 60) * (rng_below(&r, 2) ? -1 : 1);
        tile_put(fa, i / 64, i % 64, ref_from_double(PTO_FLOAT32, x));
        tile_put(fb, i / 64, i % 64, ref_from_double(PTO_FLOAT32, y));
    }
    assert_int_equal(pto_trem(fd, fa, fb), PTO_OK);
    for (uint32_t i = 0; i < kPairs; ++i) {
        const uint32_t x = tile_get(fa, i / 64, i % 64), y = tile_get(fb, i / 64, i % 64);
        const uint32_t want = ref_trem(PTO_FLOAT32, x, y), got = tile_get(fd, i / 64, i % 64);
        if (want != got)
            fail_msg("float32 on %s: 0x%x rem 0x%x = 0x%x, want 0x%x", target, x, y, got, want);
    }
    pto_tile_destroy(fa), pto_tile_destroy(fb), pto_tile_destroy(fd);
}

static void test_trem_sweep(void **state) {
    (void)state;
    for_each_target("trem sweep", rem_sweep_body, NULL);
}

int main(void) {
    /* The five of 0.3 as listed, then every other operations.def row in the
     * dtypes HOST accepts for it. */
    elementwise_test family[OP_COUNT];
    char family_names[OP_COUNT][48];
    size_t family_count = 0;
    for (int op = 0; op < OP_COUNT; ++op) {
        if (op_row((op_id)op)->family == OP_FAMILY_SPECIAL) continue;
        if (op_is_reduction((op_id)op)) {
            /* No per-element reference: test_reduce checks every reduction
             * against its order's reference, on every target and shape. */
            print_message("[ops] %s: not elementwise, checked by test_reduce\n",
                          op_mnemonic((op_id)op));
            continue;
        }
        snprintf(family_names[family_count], sizeof(family_names[0]), "%s (HOST dtypes)",
                 op_mnemonic((op_id)op));
        family[family_count] = (elementwise_test){family_names[family_count], (op_id)op,
                                                  op_row((op_id)op)->dtypes[PTO_PROFILE_HOST],
                                                  PTO_POW_DEFAULT};
        ++family_count;
    }
    struct CMUnitTest tests[COUNT(kElementwise) + OP_COUNT + 7];
    size_t n = 0;
    for (size_t i = 0; i < COUNT(kElementwise); ++i)
        tests[n++] = (struct CMUnitTest){kElementwise[i].name, test_elementwise, NULL, NULL,
                                         (void *)&kElementwise[i]};
    for (size_t i = 0; i < family_count; ++i)
        tests[n++] = (struct CMUnitTest){family[i].name, test_elementwise, NULL, NULL, &family[i]};
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_tpartadd);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_tpart_others);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_eight_byte_calls);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_tmov_keeps_every_bit);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_colexpanddiv_is_division);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_float16_reciprocal_rounds_like_division);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_trem_cases);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_trem_sweep);
    return _cmocka_run_group_tests("ops", tests, n, NULL, NULL);
}
