/* Programs (PTO assembly): every text form of the generic rows gives the
 * bits of the equivalent C call, or the C call's refusal, under every
 * profile; kernels over global memory give the same results on any number of
 * blocks, launch after launch on 1 to 4 threads, each block on a zeroed
 * unified buffer; every verifier rule refuses with its status, line, column
 * and sentence; run-time faults stop before writing; the argument API's
 * errors.
 *
 * The expectations come from the C functions themselves (the oracle for a
 * text is the C call on tiles of the same shape and placement), written out
 * here independently of the library's parser. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"
#include "support/rows_kernel.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
static const pto_profile kProfiles[] = {PTO_PROFILE_HOST, PTO_PROFILE_A2A3, PTO_PROFILE_A5};

static const char *spelling(pto_dtype dt) {
    switch (dt) {
    case PTO_INT8: return "i8";
    case PTO_UINT8: return "ui8";
    case PTO_INT16: return "i16";
    case PTO_UINT16: return "ui16";
    case PTO_INT32: return "i32";
    case PTO_UINT32: return "ui32";
    case PTO_FLOAT16: return "f16";
    case PTO_BFLOAT16: return "bf16";
    case PTO_FLOAT32: return "f32";
    case PTO_INT64: return "i64";
    case PTO_UINT64: return "ui64";
    case PTO_FLOAT8_E4M3: return "f8E4M3FN";
    case PTO_FLOAT8_E5M2: return "f8E5M2";
    case PTO_HIFLOAT8: return "!pto.hif8";
    case PTO_FLOAT8_E8M0: return "!pto.f8E8M0";
    case PTO_FLOAT4_E2M1X2: return "!pto.f4E2M1x2";
    case PTO_FLOAT4_E1M2X2: return "!pto.f4E1M2x2";
    case PTO_INT4X2: return "!pto.i4x2";
    }
    return "?";
}

static pto_program *create_ok(const char *text) {
    pto_program *p = NULL;
    const pto_status s = pto_program_create(text, strlen(text), "t.pto", &p);
    if (s != PTO_OK) fail_msg("%s\n%s: %s", text, pto_status_string(s), pto_last_error());
    return p;
}

static size_t param(const pto_program *p, const char *name) {
    size_t i = 0;
    assert_int_equal(pto_program_param_find(p, name, &i), PTO_OK);
    return i;
}

/* ---- every form of every operation against its C call ---- */

typedef enum { FORM_DPS, FORM_SSA, FORM_SYNC, FORM_MANUAL, FORM_COUNT } text_form;
static const char *const kFormNames[] = {"DPS", "SSA", "synchronous", "manual"};

typedef struct {
    op_id op;
    int algo;          /* tpow: pto_pow_algorithm; tcolsum: binary_order */
    bool with_tmp;     /* the text names a tmp */
    pto_dtype dt;
    uint32_t rows, cols, valid_rows, valid_cols;
    uint32_t src1_rows, src1_valid_rows, src1_valid_cols; /* tcolexpanddiv, tpartadd, broadcasts */
    uint32_t scalar_bits; /* a Scalar row's scalar: src1's element (0, 0), set by check_case */
} op_case;

static int source_count(op_id op) { return op_row(op)->source_count; }
static bool tmp_allowed(op_id op) { return op_row(op)->tmp != OP_TMP_NONE; }

static void tile_type(char *out, size_t n, text_form form, pto_dtype dt, uint32_t rows, uint32_t cols,
                      uint32_t vr, uint32_t vc) {
    if (form == FORM_DPS)
        snprintf(out, n, "!pto.tile_buf<vec, %ux%ux%s, valid=%ux%u>", rows, cols, spelling(dt), vr, vc);
    else
        snprintf(out, n, "!pto.tile<%ux%ux%s, valid=%ux%u>", rows, cols, spelling(dt), vr, vc);
}

/* Writes the text of c in form; names: %s0 %s1 %tmp %dst. */
static void write_text(char *text, size_t n, const op_case *c, text_form form) {
    char t0[96], t1[96], td[96];
    tile_type(t0, sizeof t0, form, c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    tile_type(td, sizeof td, form, c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    tile_type(t1, sizeof t1, form, c->dt, c->src1_rows, c->cols, c->src1_valid_rows, c->src1_valid_cols);
    const char *tt = td; /* tmp: dst's type (the C call's tpow rule) */
    char attr[80] = "";
    if (c->op == OP_TPOW)
        snprintf(attr, sizeof attr, " {precisionType = #pto<pow_precision %s>}",
                 c->algo == PTO_POW_HIGH_PRECISION ? "high_precision" : "default");
    if (c->op == OP_TCOLEXPANDDIV) snprintf(attr, sizeof attr, " {precisionType = #pto<div_precision high_precision>}");
    if (c->op == OP_TCOLSUM) snprintf(attr, sizeof attr, " {isBinary = %s}", c->algo ? "true" : "false");
    const bool two = source_count(c->op) == 2;
    /* A Scalar row's scalar: %c, the value the C call takes (src1's element
     * (0, 0)), as a constant of the element's float type (its bits) or an
     * i64. */
    const bool scalar = op_row(c->op)->family == OP_FAMILY_SCALAR || op_row(c->op)->family == OP_FAMILY_FILL;
    const bool one = source_count(c->op) >= 1; /* a Fill row has no source */
    char constant[96] = "", scalar_type[8] = "";
    if (scalar) {
        const uint32_t bits = c->scalar_bits;
        if (c->dt == PTO_FLOAT32 || c->dt == PTO_FLOAT16 || c->dt == PTO_BFLOAT16) {
            snprintf(scalar_type, sizeof scalar_type, "%s", spelling(c->dt));
            snprintf(constant, sizeof constant, "%%c = arith.constant 0x%0*X : %s\n",
                     c->dt == PTO_FLOAT32 ? 8 : 4, bits, scalar_type);
        } else {
            snprintf(scalar_type, sizeof scalar_type, "i64");
            snprintf(constant, sizeof constant, "%%c = arith.constant %lld : i64\n",
                     (long long)ref_int_value(c->dt, bits));
        }
    }
    char operands[64], types[320];
    if (op_row(c->op)->attr_leads) { /* tdivs's scalar/tile form */
        snprintf(operands, sizeof operands, "%%c, %%s0");
        snprintf(types, sizeof types, "%s, %s", scalar_type, t0);
    } else {
        snprintf(operands, sizeof operands, "%s%s%s%s", one ? "%s0" : "", two ? ", %s1" : "",
                 scalar ? (one ? ", %c" : "%c") : "", c->with_tmp ? ", %tmp" : "");
        snprintf(types, sizeof types, "%s%s%s%s%s%s%s", one ? t0 : "", two ? ", " : "", two ? t1 : "",
                 scalar && one ? ", " : "", scalar_type, c->with_tmp ? ", " : "", c->with_tmp ? tt : "");
    }
    size_t used = (size_t)snprintf(text, n, "%s", constant);
    if (form == FORM_MANUAL) {
        /* TASSIGN as on the pages: the operands 0x1000 apart, dst after them. */
        used += (size_t)snprintf(text + used, n - used, "# Manual mode\n");
        if (one) used += (size_t)snprintf(text + used, n - used, "pto.tassign %%s0, @tile(0x%x)\n", 0x1000);
        if (two) used += (size_t)snprintf(text + used, n - used, "pto.tassign %%s1, @tile(0x%x)\n", 0x2000);
        if (c->with_tmp) used += (size_t)snprintf(text + used, n - used, "pto.tassign %%tmp, @tile(0x%x)\n", 0x3000);
        used += (size_t)snprintf(text + used, n - used, "pto.tassign %%dst, @tile(0x%x)\n", 0x4000);
    }
    switch (form) {
    case FORM_DPS:
        snprintf(text + used, n - used, "pto.%s ins(%s : %s) outs(%%dst : %s)%s\n", op_text_mnemonic(c->op), operands, types,
                 td, attr);
        break;
    case FORM_SSA:
    case FORM_MANUAL:
        snprintf(text + used, n - used, "%%dst = pto.%s %s%s : (%s) -> %s\n", op_text_mnemonic(c->op), operands, attr, types,
                 td);
        break;
    case FORM_SYNC:
        snprintf(text + used, n - used, "%%dst = %s %s%s : (%s) -> %s\n", op_text_mnemonic(c->op), operands, attr, types, td);
        break;
    default: break;
    }
}

/* The sentence of a diagnostic, after "error: ". */
static const char *sentence_of(const char *diagnostic) {
    const char *s = strstr(diagnostic, "error: ");
    return s != NULL ? s + 7 : diagnostic;
}

static void fill(pto_tile *t, rng *r, pto_dtype dt, gen_kind kind) {
    const uint32_t rows = pto_tile_rows(t), cols = pto_tile_cols(t);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) tile_put(t, i, j, gen_value(r, dt, kind));
}

static size_t g_forms_checked, g_forms_refused;

static void check_case(const op_case *c, text_form form, pto_profile profile, rng *r) {
    const gen_kind k0 = c->op == OP_TPOW ? GEN_POW_BASE : GEN_ANY;
    const gen_kind k1 = c->op == OP_TPOW ? GEN_POW_EXP : GEN_ANY;
    pto_tile *s0 = tile_new(c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    pto_tile *s1 = tile_new(c->dt, c->src1_rows, c->cols, c->src1_valid_rows, c->src1_valid_cols);
    pto_tile *tmp = tile_new(c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    pto_tile *want = tile_new(c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    pto_tile *got = tile_new(c->dt, c->rows, c->cols, c->valid_rows, c->valid_cols);
    fill(s0, r, c->dt, k0);
    fill(s1, r, c->dt, k1);
    /* tshls and tshrs: a count of zero or more, which A2A3 and A5 ask (the
     * C call and the run refuse a negative one there alike) */
    if (c->op == OP_TSHLS || c->op == OP_TSHRS) tile_put(s1, 0, 0, tile_get(s1, 0, 0) & 7u);

    /* The oracle: the C call under the same profile. A text without tmp
     * stands for the C call with a fresh tmp for tpow and A2A3's row
     * reductions (one of src's type) and none for tprelu. */
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const bool scratch = c->op == OP_TPOW ||
                         (profile == PTO_PROFILE_A2A3 && op_row(c->op)->family == OP_FAMILY_ROW_REDUCE);
    pto_tile *c_tmp = c->with_tmp || scratch ? tmp : NULL;
    pto_status expected = op_call(c->op, (pto_pow_algorithm)c->algo, want, s0, s1, c_tmp);
    char expected_sentence[512];
    snprintf(expected_sentence, sizeof expected_sentence, "%s", pto_last_error());
    /* PTOAS's text rules, stricter than the C call (docs/profiles.md): tpow's
     * high_precision under A2A3, and a tmp on an integer tpow. */
    const int is_float = c->dt == PTO_FLOAT32 || c->dt == PTO_FLOAT16 || c->dt == PTO_BFLOAT16;
    if (c->op == OP_TPOW && c->algo == PTO_POW_HIGH_PRECISION && profile == PTO_PROFILE_A2A3) {
        expected = PTO_ERR_INVALID_ARGUMENT;
        snprintf(expected_sentence, sizeof expected_sentence,
                 "precisionType high_precision of tpow is refused under A2A3 (PTOAS's rule; "
                 "leave it out or use default)");
    } else if (c->op == OP_TPOW && c->with_tmp && !is_float) {
        expected = PTO_ERR_INVALID_ARGUMENT;
        snprintf(expected_sentence, sizeof expected_sentence,
                 "tpow takes no tmp when its element type is an integer (PTOAS's rule)");
    }

    char text[2048];
    op_case with_scalar = *c;
    with_scalar.scalar_bits = tile_get(s1, 0, 0);
    write_text(text, sizeof text, &with_scalar, form);
    pto_program *p = NULL;
    const pto_status s = pto_program_create(text, strlen(text), "t.pto", &p);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (s != expected)
        fail_msg("%s form, profile %s:\n%s\nC call: %s (%s)\nprogram: %s (%s)", kFormNames[form],
                 pto_profile_string(profile), text, pto_status_string(expected), expected_sentence,
                 pto_status_string(s), pto_last_error());
    if (s != PTO_OK) {
        /* The same sentence, located at the operation (its last line). */
        assert_string_equal(sentence_of(pto_last_error()), expected_sentence);
        assert_non_null(strstr(pto_last_error(), "t.pto:"));
        ++g_forms_refused;
    } else {
        assert_int_equal(pto_program_profile(p), profile);
        pto_args *a = NULL;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        if (source_count(c->op) >= 1) assert_int_equal(pto_args_set_tile(a, param(p, "s0"), s0), PTO_OK);
        if (source_count(c->op) == 2) assert_int_equal(pto_args_set_tile(a, param(p, "%s1"), s1), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, param(p, "dst"), got), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (uint32_t i = 0; i < c->rows; ++i)
            for (uint32_t j = 0; j < c->cols; ++j)
                if (tile_get(got, i, j) != tile_get(want, i, j))
                    fail_msg("%s form, %s %s on %s: element (%u,%u) is 0x%x, the C call gives 0x%x\n%s",
                             kFormNames[form], pto_profile_string(profile), op_mnemonic(c->op),
                             pto_dtype_string(c->dt), i, j, tile_get(got, i, j), tile_get(want, i, j), text);
        assert_int_equal(pto_tile_valid_rows(got), c->valid_rows);
        assert_int_equal(pto_tile_valid_cols(got), c->valid_cols);
        pto_args_destroy(a);
        ++g_forms_checked;
    }
    pto_program_destroy(p);
    pto_tile_destroy(s0);
    pto_tile_destroy(s1);
    pto_tile_destroy(tmp);
    pto_tile_destroy(want);
    pto_tile_destroy(got);
}

static void test_every_form_matches_the_c_call(void **state) {
    (void)state;
    rng r = {0x5eed};
    for (int op = 0; op < OP_COUNT; ++op) {
        /* tfillpad's pad is dst's type's `pad=`, which these texts leave
         * null: its forms are test_tfillpad's test_program_forms. */
        if (op_tested_apart((op_id)op)) continue;
        for (int algo = 0; algo < (op == OP_TPOW || op == OP_TCOLSUM ? 2 : 1); ++algo) {
            for (size_t d = 0; d < COUNT(kDtypes); ++d) {
                for (int with_tmp = 0; with_tmp <= (tmp_allowed((op_id)op) ? 1 : 0); ++with_tmp) {
                    op_case c = {(op_id)op, algo, with_tmp != 0, kDtypes[d], 8, 24, 7, 21, 8, 7, 21, 0};
                    if (op == OP_TCOLEXPANDDIV) {
                        c.src1_rows = 1;
                        c.src1_valid_rows = 1;
                    }
                    if (op == OP_TPARTADD) {
                        c.src1_valid_rows = 5;
                        c.src1_valid_cols = 13;
                    }
                    if (op_source_expanded((op_id)op, 1)) /* one value per row or column */
                        op_source_region((op_id)op, 1, c.valid_rows, c.valid_cols, &c.src1_valid_rows,
                                         &c.src1_valid_cols);
                    for (int form = 0; form < FORM_COUNT; ++form)
                        for (size_t pr = 0; pr < COUNT(kProfiles); ++pr)
                            check_case(&c, (text_form)form, kProfiles[pr], &r);
                }
            }
        }
    }
    printf("[program forms] %zu (op, dtype, algo, tmp, form, profile) cases computed the C call's bits, %zu "
           "refused with its status and sentence\n",
           g_forms_checked, g_forms_refused);
    assert_true(g_forms_checked > 300);
    assert_true(g_forms_refused > 50);
}

/* ---- a kernel over global memory on N blocks ---- */

static const char kKernel[] =
    "// y = prelu(x ^ e, s) + x, tile by tile, rows split across blocks\n"
    "module {\n"
    "  func.func @k(%x: !pto.ptr<f32>, %e: !pto.ptr<f32>, %s: !pto.ptr<f32>, %y: !pto.ptr<f32>, %n: index) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %c40 = arith.constant 40 : index\n"
    "    %bid = pto.get_block_idx\n"
    "    %bn = pto.get_block_num\n"
    "    %b = arith.index_cast %bid : i64 to index\n"
    "    %nb = arith.index_cast %bn : i64 to index\n"
    "    %rows = arith.muli %n, %c8 : index\n"
    "    %xv = pto.make_tensor_view %x, shape = [%rows, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x40xf32>\n"
    "    %ev = pto.make_tensor_view %e, shape = [%rows, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x40xf32>\n"
    "    %sv = pto.make_tensor_view %s, shape = [%rows, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x40xf32>\n"
    "    %yv = pto.make_tensor_view %y, shape = [%rows, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x40xf32>\n"
    "    %tx = pto.alloc_tile : !pto.tile_buf<vec, 8x40xf32>\n"
    "    %te = pto.alloc_tile : !pto.tile_buf<vec, 8x40xf32>\n"
    "    %ts = pto.alloc_tile : !pto.tile_buf<vec, 8x40xf32>\n"
    "    %tp = pto.alloc_tile : !pto.tile_buf<vec, 8x40xf32>\n"
    "    %tr = pto.alloc_tile : !pto.tile_buf<vec, 8x40xf32>\n"
    "    scf.for %i = %b to %n step %nb {\n"
    "      %r = arith.muli %i, %c8 : index\n"
    "      %xp = pto.partition_view %xv, offsets = [%r, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x40xf32> -> !pto.partition_tensor_view<8x40xf32>\n"
    "      %ep = pto.partition_view %ev, offsets = [%r, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x40xf32> -> !pto.partition_tensor_view<8x40xf32>\n"
    "      %sp = pto.partition_view %sv, offsets = [%r, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x40xf32> -> !pto.partition_tensor_view<8x40xf32>\n"
    "      %yp = pto.partition_view %yv, offsets = [%r, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x40xf32> -> !pto.partition_tensor_view<8x40xf32>\n"
    "      pto.tload ins(%xp : !pto.partition_tensor_view<8x40xf32>) outs(%tx : !pto.tile_buf<vec, 8x40xf32>)\n"
    "      pto.tload ins(%ep : !pto.partition_tensor_view<8x40xf32>) outs(%te : !pto.tile_buf<vec, 8x40xf32>)\n"
    "      pto.tload ins(%sp : !pto.partition_tensor_view<8x40xf32>) outs(%ts : !pto.tile_buf<vec, 8x40xf32>)\n"
    "      pto.tpow ins(%tx, %te : !pto.tile_buf<vec, 8x40xf32>, !pto.tile_buf<vec, 8x40xf32>) outs(%tp : !pto.tile_buf<vec, 8x40xf32>) {precisionType = #pto<pow_precision high_precision>}\n"
    "      pto.tprelu ins(%tp, %ts : !pto.tile_buf<vec, 8x40xf32>, !pto.tile_buf<vec, 8x40xf32>) outs(%tr : !pto.tile_buf<vec, 8x40xf32>)\n"
    "      pto.tpartadd ins(%tr, %tx : !pto.tile_buf<vec, 8x40xf32>, !pto.tile_buf<vec, 8x40xf32>) outs(%tr : !pto.tile_buf<vec, 8x40xf32>)\n"
    "      pto.tstore ins(%tr : !pto.tile_buf<vec, 8x40xf32>) outs(%yp : !pto.partition_tensor_view<8x40xf32>)\n"
    "    }\n"
    "    return\n"
    "  }\n"
    "}\n";

static void run_kernel(const pto_program *p, uint32_t blocks, float *x, float *e, float *s, float *y, int64_t n,
                       size_t count) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "x"), x, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "e"), e, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "s"), s, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "y"), y, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_int(a, param(p, "n"), n), PTO_OK);
    const pto_status st = pto_program_launch(p, blocks, a);
    if (st != PTO_OK) fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
}

static void test_kernel_on_blocks(void **state) {
    (void)state;
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) {
        /* Threads can hang under qemu-user: the blocks run one after another. */
        printf("[program kernel] under qemu-user: PTO_NUM_THREADS=1\n");
        setenv("PTO_NUM_THREADS", "1", 1);
    }
    pto_program *p = create_ok(kKernel);
    assert_int_equal(pto_program_param_count(p), 5);
    assert_int_equal(pto_program_param_kind(p, 0), PTO_PARAM_POINTER);
    assert_int_equal(pto_program_param_dtype(p, 0), PTO_FLOAT32);
    assert_int_equal(pto_program_param_access(p, 0), PTO_PARAM_READ);
    assert_int_equal(pto_program_param_access(p, 3), PTO_PARAM_WRITE);
    assert_int_equal(pto_program_param_kind(p, 4), PTO_PARAM_INT);
    assert_string_equal(pto_program_param_name(p, 4), "n");
    const int64_t n = 13; /* tiles of 8x40 */
    const size_t count = (size_t)n * 8 * 40;
    float *x = malloc(count * 4), *e = malloc(count * 4), *s = malloc(count * 4);
    float *want = malloc(count * 4), *y = malloc(count * 4);
    rng r = {42};
    for (size_t i = 0; i < count; ++i) {
        x[i] = (float)(rng_unit(&r) * 4.0 - 1.0);
        e[i] = (float)(rng_unit(&r) * 6.0 - 3.0);
        s[i] = (float)(rng_unit(&r) - 0.5);
    }
    /* The oracle: the same three calls per tile through the C functions. */
    pto_tile *tx = tile_new(PTO_FLOAT32, 8, 40, 8, 40), *te = tile_new(PTO_FLOAT32, 8, 40, 8, 40);
    pto_tile *ts = tile_new(PTO_FLOAT32, 8, 40, 8, 40), *tp = tile_new(PTO_FLOAT32, 8, 40, 8, 40);
    pto_tile *tr = tile_new(PTO_FLOAT32, 8, 40, 8, 40), *tmp = tile_new(PTO_FLOAT32, 8, 40, 8, 40);
    for (int64_t t = 0; t < n; ++t) {
        pto_tile_write(tx, x + t * 320, 1280);
        pto_tile_write(te, e + t * 320, 1280);
        pto_tile_write(ts, s + t * 320, 1280);
        assert_int_equal(pto_tpow(tp, tx, te, tmp, PTO_POW_HIGH_PRECISION), PTO_OK);
        assert_int_equal(pto_tprelu(tr, tp, ts, NULL), PTO_OK);
        assert_int_equal(pto_tpartadd(tr, tr, tx), PTO_OK);
        pto_tile_read(tr, want + t * 320, 1280);
    }
    static const uint32_t kBlocks[] = {1, 2, 3, 4, 13, 20};
    for (size_t b = 0; b < COUNT(kBlocks); ++b) {
        for (size_t i = 0; i < count; ++i) y[i] = -7.0f;
        run_kernel(p, kBlocks[b], x, e, s, y, n, count);
        if (memcmp(y, want, count * 4) != 0) fail_msg("%u blocks: results differ from the C calls", kBlocks[b]);
    }
    printf("[program kernel] %zu elements identical to the C calls on 1, 2, 3, 4, 13 and 20 blocks\n", count);
    pto_tile_destroy(tx);
    pto_tile_destroy(te);
    pto_tile_destroy(ts);
    pto_tile_destroy(tp);
    pto_tile_destroy(tr);
    pto_tile_destroy(tmp);

    /* A view beyond the bound memory: refused when the view is made, before
     * any store, so nothing is written. */
    for (size_t i = 0; i < count; ++i) y[i] = -7.0f;
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, x, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, e, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 2, s, count * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 3, y, (count - 1) * 4), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 4, n), PTO_OK);
    assert_int_equal(pto_program_launch(p, 2, a), PTO_ERR_OUT_OF_RANGE);
    assert_string_equal(pto_last_error(),
                        "t.pto:16:11: error: pto.make_tensor_view: the view reaches element 4159 of %y, which "
                        "holds 4159 elements");
    for (size_t i = 0; i < count; ++i) assert_true(y[i] == -7.0f);
    pto_args_destroy(a);
    pto_program_destroy(p);
    free(x);
    free(e);
    free(s);
    free(want);
    free(y);
}

/* A2A3 tprelu with the tmp its NPU takes (UINT8, rows >= dst valid rows + 1,
 * valid rows == dst valid rows, valid cols >= ceil(dst valid cols / 8)):
 * runs, and gives the C call's bits. */
static void test_a2a3_prelu_with_its_tmp(void **state) {
    (void)state;
    static const char kText[] =
        "module attributes {pto.target_arch = \"a3\"} {\n"
        "  func.func @k(%x: !pto.tile_buf<vec, 16x16xf32>, %s: !pto.tile_buf<vec, 16x16xf32>, %o: !pto.tile_buf<vec, 16x16xf32>) {\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=ui8, rows=17, cols=32, v_row=16, v_col=2, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
        "    %y = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
        "    pto.tprelu ins(%x, %s, %t : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>, "
        "!pto.tile_buf<vec, 17x32xui8, valid=16x2>) outs(%y : !pto.tile_buf<vec, 16x16xf32>)\n"
        "    pto.tprelu ins(%y, %s, %t : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>, "
        "!pto.tile_buf<vec, 17x32xui8, valid=16x2>) outs(%o : !pto.tile_buf<vec, 16x16xf32>)\n"
        "    return\n"
        "  }\n"
        "}\n";
    pto_program *p = create_ok(kText);
    assert_int_equal(pto_program_profile(p), PTO_PROFILE_A2A3);
    rng r = {7};
    pto_tile *x = tile_new(PTO_FLOAT32, 16, 16, 16, 16), *s = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    fill(x, &r, PTO_FLOAT32, GEN_ANY);
    fill(s, &r, PTO_FLOAT32, GEN_ANY);
    pto_tile *y = tile_new(PTO_FLOAT32, 16, 16, 16, 16), *want = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    assert_int_equal(pto_tprelu(y, x, s, NULL), PTO_OK);
    assert_int_equal(pto_tprelu(want, y, s, NULL), PTO_OK);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, param(p, "x"), x), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, param(p, "s"), s), PTO_OK);
    pto_tile *o = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    assert_int_equal(pto_args_set_tile(a, param(p, "o"), o), PTO_OK);
    assert_int_equal(pto_program_param_access(p, 0), PTO_PARAM_READ);
    assert_int_equal(pto_program_param_access(p, 2), PTO_PARAM_READ | PTO_PARAM_WRITE);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) assert_int_equal(tile_get(o, i, j), tile_get(want, i, j));
    pto_tile_destroy(o);
    pto_args_destroy(a);
    pto_program_destroy(p);

    /* The same text without the tmp: A2A3 requires one. */
    static const char kNoTmp[] = "module attributes {pto.target_arch = \"a3\"} {\n func.func @k() {\n"
                                 "  %y = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>\n"
                                 "  pto.tprelu ins(%y, %y : !pto.tile_buf<vec, 16x16xf16>, !pto.tile_buf<vec, 16x16xf16>) "
                                 "outs(%y : !pto.tile_buf<vec, 16x16xf16>)\n  return\n }\n}\n";
    p = (pto_program *)0x1;
    assert_int_equal(pto_program_create(kNoTmp, strlen(kNoTmp), "t.pto", &p), PTO_ERR_NULL_ARGUMENT);
    assert_string_equal(pto_last_error(), "t.pto:4:3: error: pto_tprelu: tmp is NULL, but on A2A3 tprelu needs a tmp");
    pto_tile_destroy(x);
    pto_tile_destroy(s);
    pto_tile_destroy(y);
    pto_tile_destroy(want);
}

/* ---- verifier refusals: status, line, column, sentence ---- */

typedef struct {
    pto_profile profile; /* the thread's profile at creation */
    const char *text;
    pto_status status;
    const char *diagnostic; /* after "t.pto:" */
} refusal;

#define T16 "!pto.tile<16x16xf32>"
#define B16 "!pto.tile_buf<vec, 16x16xf32>"

static const refusal kRefusals[] = {
    /* syntax and the subset */
    {PTO_PROFILE_HOST, "", PTO_ERR_INVALID_ARGUMENT, "1:1: error: the text holds no operation"},
    {PTO_PROFILE_HOST, "%d = tfoo %a : " T16, PTO_ERR_INVALID_ARGUMENT, "1:6: error: operation 'tfoo' is not supported"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b " T16, PTO_ERR_INVALID_ARGUMENT,
     "1:20: error: expected ':', found '!pto.tile<16x16xf32>'"},
    {PTO_PROFILE_HOST, "%d = tprelu %a : " T16, PTO_ERR_INVALID_ARGUMENT, "1:6: error: tprelu takes 2 or 3 operands, not 1"},
    {PTO_PROFILE_HOST, "%d = tpartadd %a, %b, %c : " T16, PTO_ERR_INVALID_ARGUMENT,
     "1:6: error: tpartadd takes 2 operands, not 3"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : !pto.tile<16x16xf64>", PTO_ERR_INVALID_ARGUMENT,
     "1:32: error: element type 'f64' is not supported (f32, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, ui64, "
     "f8E4M3FN, f8E5M2, !pto.hif8, !pto.f8E8M0, !pto.f4E2M1x2, !pto.f4E1M2x2, !pto.i4x2)"},
    {PTO_PROFILE_HOST, "pto.tprelu ins(%a, %b : !pto.tile_buf<mat, 16x16xf32>, " B16 ") outs(%d : " B16 ")",
     PTO_ERR_INVALID_ARGUMENT, "1:25: error: %a would be a parameter in the mat memory; a snippet's tiles are vec tiles (a kernel loads the cube's tiles from global memory)"},
    {PTO_PROFILE_HOST, "pto.tprelu ins(%a, %b : !pto.tile_buf<gm, 16x16xf32>, " B16 ") outs(%d : " B16 ")",
     PTO_ERR_INVALID_ARGUMENT, "1:39: error: loc=gm is not a tile location (vec, mat, left, right, acc, bias, scaling)"},
    {PTO_PROFILE_HOST, "%d = tpow %a, %b {precisionType = #pto<pow_precision best>} : " T16, PTO_ERR_INVALID_ARGUMENT,
     "1:35: error: precisionType of tpow is #pto<pow_precision default> or #pto<pow_precision high_precision>"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b {mode = 1} : " T16, PTO_ERR_INVALID_ARGUMENT,
     "1:21: error: unknown attribute 'mode' for tprelu"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : " T16 "\n%d = tprelu %a, %b : " T16, PTO_ERR_INVALID_ARGUMENT,
     "2:1: error: %d is defined twice"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : (" T16 ", !pto.tile<16x8xf32>) -> " T16 "\n%e = tprelu %a, %b : " T16,
     PTO_ERR_INVALID_ARGUMENT,
     "2:22: error: %b is tile 16x8xf32 (valid 16x8), but is written here as tile 16x16xf32 (valid 16x16)"},
    {PTO_PROFILE_HOST, "module {\n func.func @k() {\n  %t = pto.alloc_tile : " B16 "\n  pto.tprelu ins(%t, %u : " B16 ", " B16
     ") outs(%t : " B16 ")\n  return\n }\n}",
     PTO_ERR_INVALID_ARGUMENT, "4:22: error: %u is not defined"},
    {PTO_PROFILE_HOST, "module {\n func.func @k() {\n  return\n  %c = arith.constant 1 : index\n }\n}", PTO_ERR_INVALID_ARGUMENT,
     "4:3: error: operation after return"},
    {PTO_PROFILE_HOST, "func.func @k(%n: index) {\n  scf.for %i = %n to %n step %n iter_args(%x = %n) -> index {\n  }\n  return\n}",
     PTO_ERR_INVALID_ARGUMENT, "2:3: error: the region must end with scf.yield"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : " T16 "\nfunc.func @k() {\n return\n}", PTO_ERR_INVALID_ARGUMENT,
     "2:1: error: a func.func after operations outside it"},
    {PTO_PROFILE_HOST, "/* a C comment */", PTO_ERR_INVALID_ARGUMENT, "1:1: error: unexpected character"},
    /* the operations' own rules, with the C functions' sentences */
    {PTO_PROFILE_HOST, "%d = trsqrt %a : !pto.tile<16x16xi32>", PTO_ERR_UNSUPPORTED_DTYPE,
     "1:6: error: pto_trsqrt: dst dtype INT32 is not supported (FLOAT32, FLOAT16)"},
    {PTO_PROFILE_A2A3, "%d = tpartadd %a, %b : !pto.tile<16x16xui8>", PTO_ERR_UNSUPPORTED_DTYPE,
     "1:6: error: pto_tpartadd: dst dtype UINT8 is not supported on A2A3 (INT32, INT16, FLOAT16, FLOAT32)"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf16>) -> " T16, PTO_ERR_DTYPE_MISMATCH,
     "1:6: error: pto_tprelu: src1 dtype FLOAT16 differs from dst dtype FLOAT32"},
    {PTO_PROFILE_HOST, "%d = tprelu %a, %b : (" T16 ", !pto.tile<16x16xf32, valid=8x16>) -> " T16, PTO_ERR_SHAPE_MISMATCH,
     "1:6: error: pto_tprelu: src1 valid region 8x16 differs from dst valid region 16x16"},
    {PTO_PROFILE_HOST, "pto.tassign %a, @tile(0x0)\npto.tassign %d, @tile(0x40)\n%d = tprelu %a, %a : " T16,
     PTO_ERR_ALIASING, "3:6: error: pto_tprelu: src0 storage overlaps dst storage without being placed exactly on it (same address, dtype and cols) or in row order: dst row 0 would overwrite src0 row 1 before it is read (a dst row may lie on earlier src0 rows, or exactly on its own)"},
    /* the unified buffer */
    {PTO_PROFILE_A5, "pto.tassign %a, @tile(0x3ff00)\n%d = trsqrt %a : " T16, PTO_ERR_OUT_OF_RANGE,
     "2:13: error: %a at 0x3ff00 (1024 bytes) ends beyond the 262144-byte unified buffer of A5"},
    {PTO_PROFILE_A2A3, "pto.tassign %a, @tile(0x2fe00)\n%d = trsqrt %a : " T16, PTO_ERR_OUT_OF_RANGE,
     "2:13: error: %a at 0x2fe00 (1024 bytes) ends beyond the 196608-byte unified buffer of A2A3"},
    {PTO_PROFILE_A5, "pto.tassign %a, @tile(0x1004)\n%d = trsqrt %a : " T16, PTO_ERR_INVALID_ARGUMENT,
     "2:13: error: address 0x1004 of %a is not a multiple of 32 bytes, which A5 requires"},
    {PTO_PROFILE_HOST, "pto.tassign %a, @tile(0x1002)\n%d = trsqrt %a : " T16, PTO_ERR_INVALID_ARGUMENT,
     "2:13: error: address 0x1002 of %a is not a multiple of 4 bytes (its element size)"},
    {PTO_PROFILE_A5, "%d = trsqrt %a : !pto.tile<256x256xf32>", PTO_ERR_OUT_OF_RANGE,
     "1:1: error: %d (262144 bytes) does not fit in the 262144-byte unified buffer of A5 beside the tiles live with it"},
    {PTO_PROFILE_HOST, "pto.tassign %q, @tile(0x0)\n%d = trsqrt %a : " T16, PTO_ERR_INVALID_ARGUMENT,
     "1:13: error: pto.tassign places %q, which no operation uses"},
    {PTO_PROFILE_HOST, "%d = trsqrt %a : " T16 "\npto.tassign %a, @tile(0x0)", PTO_ERR_INVALID_ARGUMENT,
     "2:23: error: pto.tassign moves %a after an operation used it: place a tile before its first use"},
    /* profiles */
    {PTO_PROFILE_A5, "module attributes {pto.target_arch = \"a3\"} {\n func.func @k() {\n  return\n }\n}",
     PTO_ERR_INVALID_ARGUMENT, "1:38: error: pto.target_arch \"a3\" differs from the profile A5 the program is created under"},
    {PTO_PROFILE_HOST, "module attributes {pto.target_arch = \"a9\"} {\n func.func @k() {\n  return\n }\n}",
     PTO_ERR_INVALID_ARGUMENT, "1:38: error: pto.target_arch \"a9\" is not a known target (\"a3\", \"a2a3\", \"a5\")"},
    {PTO_PROFILE_HOST, "module attributes {pto.target_arch = \"a3\"} {\n func.func @k() {\n  %t = pto.alloc_tile : "
     "!pto.tile_buf<vec, 16x16xui8>\n  pto.tpartadd ins(%t, %t : !pto.tile_buf<vec, 16x16xui8>, !pto.tile_buf<vec, "
     "16x16xui8>) outs(%t : !pto.tile_buf<vec, 16x16xui8>)\n  return\n }\n}",
     PTO_ERR_UNSUPPORTED_DTYPE,
     "4:3: error: pto_tpartadd: dst dtype UINT8 is not supported on A2A3 (INT32, INT16, FLOAT16, FLOAT32)"},
    /* kernels: views and tiles */
    {PTO_PROFILE_HOST, "func.func @k(%p: !pto.ptr<f16>) {\n %c1 = arith.constant 1 : index\n %v = pto.make_tensor_view %p, "
     "shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>\n return\n}",
     PTO_ERR_DTYPE_MISMATCH, "3:65: error: view element type f32 differs from the pointer's f16"},
    {PTO_PROFILE_HOST, "func.func @k(%p: !pto.ptr<f32>) {\n %c0 = arith.constant 0 : index\n %c1 = arith.constant 1 : index\n"
     " %c8 = arith.constant 8 : index\n %v = pto.make_tensor_view %p, shape = [%c8, %c8], strides = [%c8, %c1] : "
     "!pto.tensor_view<8x8xf32>\n %q = pto.partition_view %v, offsets = [%c1, %c0], sizes = [%c8, %c8] : "
     "!pto.tensor_view<8x8xf32> -> !pto.partition_tensor_view<8x8xf32>\n return\n}",
     PTO_ERR_OUT_OF_RANGE, "6:7: error: partition [1, 9) of dimension 0 is outside the view's 8"},
    {PTO_PROFILE_HOST, "func.func @k(%p: !pto.ptr<f32>) {\n %c1 = arith.constant 1 : index\n %c8 = arith.constant 8 : index\n"
     " %v = pto.make_tensor_view %p, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<8x8xf32>\n"
     " %t = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>\n pto.tload ins(%v : !pto.tensor_view<8x8xf32>) outs(%t : "
     "!pto.tile_buf<vec, 8x16xf32>)\n return\n}",
     PTO_ERR_SHAPE_MISMATCH, "6:2: error: pto.tload: the tile's valid region 8x16 does not fit in the view's 8x8 elements"},
    {PTO_PROFILE_HOST, "func.func @k(%r: index) {\n %t = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32, valid=?x?>\n return\n}",
     PTO_ERR_INVALID_ARGUMENT, "2:7: error: the type's v_row is ?, so valid_row = %r is required"},
    {PTO_PROFILE_HOST, "func.func @k(%a: index) {\n %t = pto.alloc_tile addr = %a : " B16 "\n return\n}",
     PTO_ERR_INVALID_ARGUMENT,
     "2:29: error: address %a is not a constant: tiles are placed once, when the program is verified"},
    {PTO_PROFILE_HOST, "func.func @k(%a: index, %b: i32) {\n %c = arith.addi %a, %b : index\n return\n}",
     PTO_ERR_INVALID_ARGUMENT, "2:27: error: arith.addi operands are index and i32, written as index"},
};

static void test_verifier_refusals(void **state) {
    (void)state;
    for (size_t i = 0; i < COUNT(kRefusals); ++i) {
        const refusal *c = &kRefusals[i];
        assert_int_equal(pto_set_profile(c->profile), PTO_OK);
        pto_program *p = (pto_program *)0x1;
        const pto_status s = pto_program_create(c->text, strlen(c->text), "t.pto", &p);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        if (s != c->status || strncmp(pto_last_error(), "t.pto:", 6) != 0 ||
            strcmp(pto_last_error() + 6, c->diagnostic) != 0)
            fail_msg("case %zu:\n%s\nwant %s: t.pto:%s\ngot  %s: %s", i, c->text, pto_status_string(c->status),
                     c->diagnostic, pto_status_string(s), pto_last_error());
        assert_ptr_equal(p, (pto_program *)0x1); /* *out unchanged */
    }
    printf("[program refusals] %zu texts refused with the expected status, line, column and sentence\n",
           COUNT(kRefusals));
}

/* ---- run-time checks ---- */

static void test_run_time_faults(void **state) {
    (void)state;
    /* Dynamic valid regions: checked when the operation runs. */
    static const char kDynamic[] =
        "func.func @k(%r: index, %c: index, %q: index) {\n"
        "  %a = pto.alloc_tile valid_row = %r valid_col = %c : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, "
        "v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
        "  %d = pto.alloc_tile valid_row = %q valid_col = %c : !pto.tile_buf<vec, 16x16xf32, valid=?x?>\n"
        "  pto.trsqrt ins(%a : !pto.tile_buf<vec, 16x16xf32, valid=?x?>) outs(%d : !pto.tile_buf<vec, 16x16xf32, valid=?x?>)\n"
        "  %z = arith.divsi %r, %q : index\n"
        "  return\n"
        "}\n";
    pto_program *p = create_ok(kDynamic);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 0, 4), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 1, 8), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 4), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 3), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_SHAPE_MISMATCH);
    assert_string_equal(pto_last_error(),
                        "t.pto:4:3: error: pto_trsqrt: src valid region 4x8 differs from dst valid region 3x8");
    assert_int_equal(pto_args_set_int(a, 0, 17), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    assert_string_equal(pto_last_error(), "t.pto:2:8: error: valid region 17x8 of %a is outside its 16x16");
    assert_int_equal(pto_args_set_int(a, 0, 0), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 0), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "t.pto:5:8: error: integer division by zero");
    pto_args_destroy(a);
    pto_program_destroy(p);

    /* Dynamic regions of a snippet's tiles: the bound tiles' regions, a
     * result's included (its contents are not read). */
    p = create_ok("%d = tprelu %a, %b : !pto.tile<16x16xf32, valid=?x?>");
    assert_int_equal(pto_program_param_valid_rows(p, 2), -1);
    pto_tile *ta = tile_new(PTO_FLOAT32, 16, 16, 8, 8), *tb = tile_new(PTO_FLOAT32, 16, 16, 8, 8);
    pto_tile *td = tile_new(PTO_FLOAT32, 16, 16, 8, 8);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, 0, ta), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, 1, tb), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, 2, td), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    assert_int_equal(pto_tile_valid_rows(td), 8);
    assert_int_equal(pto_tile_set_valid(td, 4, 8), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_SHAPE_MISMATCH);
    assert_string_equal(pto_last_error(),
                        "t.pto:1:6: error: pto_tprelu: src0 valid region 8x8 differs from dst valid region 4x8");
    pto_args_destroy(a);
    pto_program_destroy(p);
    pto_tile_destroy(ta);
    pto_tile_destroy(tb);
    pto_tile_destroy(td);

    static const char kLoop[] = "func.func @k(%s: index) {\n  %c0 = arith.constant 0 : index\n"
                                "  scf.for %i = %c0 to %s step %s {\n  }\n  return\n}\n";
    p = create_ok(kLoop);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 0, -2), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "t.pto:3:3: error: scf.for: step -2 is not positive");
    pto_args_destroy(a);
    pto_program_destroy(p);
}

/* ---- the argument API ---- */

static void test_arguments(void **state) {
    (void)state;
    pto_program *p = create_ok("%d = tprelu %a, %b : " T16);
    pto_program *other = create_ok("%d = trsqrt %a : " T16);
    size_t i = 99;
    assert_int_equal(pto_program_param_count(p), 3);
    assert_int_equal(pto_program_param_count(NULL), 0);
    assert_null(pto_program_param_name(p, 3));
    assert_null(pto_program_param_name(NULL, 0));
    assert_int_equal(pto_program_param_access(p, 0), PTO_PARAM_READ);
    assert_int_equal(pto_program_param_access(p, 2), PTO_PARAM_WRITE);
    assert_int_equal(pto_program_param_rows(p, 2), 16);
    assert_int_equal(pto_program_param_rows(p, 7), 0);
    assert_int_equal(pto_program_param_valid_rows(p, 2), 16);
    assert_int_equal(pto_program_param_valid_cols(p, 7), 0);
    assert_int_equal(pto_program_param_find(p, "%b", &i), PTO_OK);
    assert_int_equal(i, 1);
    assert_int_equal(pto_program_param_find(p, "zz", &i), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_program_param_find: the program has no parameter %zz");
    assert_int_equal(i, 1);
    assert_int_equal(pto_program_param_find(NULL, "a", &i), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_program_param_find(p, NULL, &i), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_program_create(NULL, 0, NULL, &p), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_program_create("x", 1, NULL, NULL), PTO_ERR_NULL_ARGUMENT);
    pto_program *q = NULL;
    assert_int_equal(pto_program_create("%d = trsqrt", 11, NULL, &q), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "<string>:1:6: error: trsqrt takes 1 or 2 operands, not 0");

    pto_args *a = NULL;
    assert_int_equal(pto_args_create(NULL, &a), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_args_create(p, NULL), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    pto_tile *t = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    pto_tile *half = tile_new(PTO_FLOAT16, 16, 16, 16, 16);
    pto_tile *narrow = tile_new(PTO_FLOAT32, 16, 8, 16, 8);
    pto_tile *partial = tile_new(PTO_FLOAT32, 16, 16, 8, 16);
    float mem[4];
    assert_int_equal(pto_args_set_tile(NULL, 0, t), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_args_set_tile(a, 3, t), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_args_set_tile: index 3 is not a parameter (the program has 3)");
    assert_int_equal(pto_args_set_pointer(a, 0, mem, sizeof mem), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_args_set_pointer: parameter %a is a tile, not a pointer");
    assert_int_equal(pto_args_set_int(a, 0, 1), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_args_set_float(a, 0, 1.0), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_args_set_tile(a, 0, half), PTO_ERR_DTYPE_MISMATCH);
    assert_string_equal(pto_last_error(), "pto_args_set_tile: tile dtype FLOAT16 differs from %a's FLOAT32");
    assert_int_equal(pto_args_set_tile(a, 0, narrow), PTO_ERR_SHAPE_MISMATCH);
    assert_int_equal(pto_args_set_tile(a, 0, partial), PTO_ERR_SHAPE_MISMATCH);
    assert_string_equal(pto_last_error(), "pto_args_set_tile: tile valid region 8x16 differs from %a's 16x16");
    assert_int_equal(pto_args_set_tile(a, 0, t), PTO_OK);
    /* %b is read and unbound */
    assert_int_equal(pto_program_run(p, a), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_program_launch: parameter %b is read but not bound");
    assert_int_equal(pto_args_set_tile(a, 1, t), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK); /* %d unbound: its result is dropped */
    assert_int_equal(pto_program_run(other, a), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_program_launch: args were made for another program");
    assert_int_equal(pto_program_launch(p, 0, a), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_program_launch(p, 65537, a), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_program_launch(p, 4, a), PTO_OK);
    assert_int_equal(pto_args_set_tile(a, 2, partial), PTO_ERR_SHAPE_MISMATCH);
    pto_tile *d = tile_new(PTO_FLOAT32, 16, 16, 16, 16);
    assert_int_equal(pto_args_set_tile(a, 2, d), PTO_OK);
    assert_int_equal(pto_program_launch(p, 2, a), PTO_ERR_INVALID_ARGUMENT);
    assert_string_equal(pto_last_error(), "pto_program_launch: tile %d is written, so it cannot be bound for 2 "
                                          "blocks (each block would write it)");
    assert_int_equal(pto_args_set_tile(a, 2, NULL), PTO_OK); /* unbinds */
    assert_int_equal(pto_program_launch(p, 2, a), PTO_OK);
    assert_int_equal(pto_program_launch(NULL, 1, a), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_program_launch(p, 1, NULL), PTO_ERR_NULL_ARGUMENT);
    pto_args_destroy(a);
    pto_args_destroy(NULL);
    pto_program_destroy(NULL);

    /* Scalars: ranges of the declared types; pointers: size and alignment. */
    pto_program *k = create_ok("func.func @k(%p: !pto.ptr<i16>, %a: i8, %b: i1, %c: index, %f: f32) {\n return\n}");
    assert_int_equal(pto_program_param_dtype(k, 0), PTO_INT16);
    assert_int_equal(pto_program_param_dtype(k, 1), PTO_INT8);
    assert_int_equal(pto_program_param_kind(k, 4), PTO_PARAM_FLOAT);
    assert_int_equal(pto_args_create(k, &a), PTO_OK);
    char bytes[9];
    assert_int_equal(pto_args_set_pointer(a, 0, bytes, 3), PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_args_set_pointer(a, 0, bytes + ((uintptr_t)bytes % 2 == 0 ? 1 : 0), 2),
                     PTO_ERR_INVALID_ARGUMENT);
    assert_int_equal(pto_args_set_pointer(a, 0, NULL, 2), PTO_ERR_NULL_ARGUMENT);
    assert_int_equal(pto_args_set_int(a, 1, 127), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 1, 128), PTO_ERR_OUT_OF_RANGE);
    assert_string_equal(pto_last_error(), "pto_args_set_int: 128 does not fit %a's type i8");
    assert_int_equal(pto_args_set_int(a, 1, -128), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 2), PTO_ERR_OUT_OF_RANGE);
    assert_int_equal(pto_args_set_int(a, 3, INT64_MIN), PTO_OK);
    assert_int_equal(pto_args_set_float(a, 4, 0.1), PTO_OK);
    pto_args_destroy(a);
    pto_program_destroy(k);

    pto_tile_destroy(t);
    pto_tile_destroy(half);
    pto_tile_destroy(narrow);
    pto_tile_destroy(partial);
    pto_tile_destroy(d);
    pto_program_destroy(p);
    pto_program_destroy(other);
}

/* ---- one program, several threads ---- */

typedef struct {
    const pto_program *p;
    int failures;
} thread_ctx;

static void *run_many(void *arg) {
    thread_ctx *ctx = arg;
    pto_tile *a = NULL, *b = NULL, *d = NULL, *want = NULL;
    pto_tile_create(PTO_FLOAT32, 16, 16, &a);
    pto_tile_create(PTO_FLOAT32, 16, 16, &b);
    pto_tile_create(PTO_FLOAT32, 16, 16, &d);
    pto_tile_create(PTO_FLOAT32, 16, 16, &want);
    float va[256], vb[256], vd[256], vw[256];
    for (int i = 0; i < 256; ++i) {
        va[i] = (float)(i - 128) / 7.0f;
        vb[i] = (float)((uintptr_t)ctx % 97 + (unsigned)i) / 31.0f;
    }
    pto_tile_write_f32(a, va, 256);
    pto_tile_write_f32(b, vb, 256);
    pto_tprelu(want, a, b, NULL);
    pto_tile_read_f32(want, vw, 256);
    pto_args *args = NULL;
    pto_args_create(ctx->p, &args);
    pto_args_set_tile(args, 0, a);
    pto_args_set_tile(args, 1, b);
    pto_args_set_tile(args, 2, d);
    for (int k = 0; k < 200; ++k) {
        if (pto_program_run(ctx->p, args) != PTO_OK) ++ctx->failures;
        pto_tile_read_f32(d, vd, 256);
        if (memcmp(vd, vw, sizeof vd) != 0) ++ctx->failures;
    }
    pto_args_destroy(args);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(d);
    pto_tile_destroy(want);
    return NULL;
}

static void test_concurrent_runs(void **state) {
    (void)state;
    skip_under_qemu("program threads", "threads can hang under qemu-user");
    pto_program *p = create_ok("pto.tassign %a, @tile(0x0)\n%d = tprelu %a, %b : " T16);
    pthread_t threads[4];
    thread_ctx ctx[4];
    for (int i = 0; i < 4; ++i) {
        ctx[i] = (thread_ctx){p, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, run_many, &ctx[i]), 0);
    }
    for (int i = 0; i < 4; ++i) {
        pthread_join(threads[i], NULL);
        assert_int_equal(ctx[i].failures, 0);
    }
    pto_program_destroy(p);
}

/* ---- launches: the threads and unified buffers kept between them ---- */

/* y = x * x + x, block b on rows 8b..8b+7 (support/rows_kernel.h). */
static const char kRowsKernel[] = ROWS_KERNEL("tmul");

/* Stores %t to y before anything writes %t (so it stores what the block's
 * unified buffer held there: zeros), then loads x into %t (leaving it for
 * whichever block runs next on the same thread). */
static const char kStoreBeforeWrite[] =
    ROWS_OF_BLOCK("z")
    "  %t = pto.alloc_tile : " ROWS_T8 "\n"
    "  pto.tstore ins(%t : " ROWS_T8 ") outs(%yp : " ROWS_P8 ")\n"
    "  pto.tload ins(%xp : " ROWS_P8 ") outs(%t : " ROWS_T8 ")\n"
    "  return\n}\n";

static void launch_rows(const pto_program *p, uint32_t blocks, const float *x, float *y) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "x"), (void *)x, (size_t)blocks * 8 * 128 * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, param(p, "y"), y, (size_t)blocks * 8 * 128 * 4), PTO_OK);
    assert_int_equal(pto_args_set_int(a, param(p, "m"), (int64_t)blocks * 8), PTO_OK);
    const pto_status st = pto_program_launch(p, blocks, a);
    if (st != PTO_OK) fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
}

/* The most threads a test asks for: 1 under qemu-user, where threads can hang. */
static int most_threads(int wanted) { return getenv("PTO_TEST_UNDER_QEMU") != NULL ? 1 : wanted; }

/* PTO_NUM_THREADS: its value now (for restore_threads), set to n, restored. */
static char *saved_threads(void) {
    const char *v = getenv("PTO_NUM_THREADS");
    return v != NULL ? strdup(v) : NULL;
}

static void set_threads(int n) {
    char value[16];
    snprintf(value, sizeof value, "%d", n);
    setenv("PTO_NUM_THREADS", value, 1);
}

static void restore_threads(char *saved) {
    if (saved != NULL) setenv("PTO_NUM_THREADS", saved, 1);
    else unsetenv("PTO_NUM_THREADS");
    free(saved);
}

/* 100 launches on each of 1 to 4 threads (PTO_NUM_THREADS, read at each
 * launch) reuse the same threads and buffers: every launch gives the same
 * bits, which are x * x + x (exact for these x). */
static void test_launches_reuse_their_threads(void **state) {
    (void)state;
    enum { kBlocks = 7, kCount = kBlocks * 8 * 128 };
    pto_program *p = create_ok(kRowsKernel);
    float *x = malloc(kCount * 4), *y = malloc(kCount * 4), *want = malloc(kCount * 4);
    for (int i = 0; i < kCount; ++i) {
        x[i] = (float)(i % 33 - 16) * 0.5f;
        want[i] = x[i] * x[i] + x[i];
    }
    char *saved = saved_threads();
    for (int threads = 1; threads <= most_threads(4); ++threads) {
        set_threads(threads);
        for (int k = 0; k < 100; ++k) {
            for (int i = 0; i < kCount; ++i) y[i] = -1.0f;
            launch_rows(p, kBlocks, x, y);
            if (memcmp(y, want, kCount * 4) != 0) fail_msg("%d threads, launch %d: results differ", threads, k);
        }
    }
    restore_threads(saved);
    free(x);
    free(y);
    free(want);
    pto_program_destroy(p);
}

/* Each block starts on a zero-filled unified buffer over the bytes its
 * program's tiles occupy, though threads keep their buffers between blocks
 * and launches: a tile stored before it is written stores zeros, after
 * another program's blocks filled that memory (kRowsKernel's two tiles
 * cover the same bytes) and after this program's own earlier blocks on the
 * same thread (16 blocks on at most 4 threads). */
static void test_each_block_starts_on_zeros(void **state) {
    (void)state;
    enum { kBlocks = 16, kCount = kBlocks * 8 * 128 };
    pto_program *dirty = create_ok(kRowsKernel);
    pto_program *z = create_ok(kStoreBeforeWrite);
    float *x = malloc(kCount * 4), *y = malloc(kCount * 4);
    for (int i = 0; i < kCount; ++i) x[i] = (float)(i % 7 + 1);
    char *saved = saved_threads();
    for (int threads = 1; threads <= most_threads(4); ++threads) {
        set_threads(threads);
        for (int k = 0; k < 20; ++k) {
            launch_rows(dirty, kBlocks, x, y);
            for (int i = 0; i < kCount; ++i) y[i] = -1.0f;
            launch_rows(z, kBlocks, x, y);
            for (int i = 0; i < kCount; ++i)
                if (y[i] != 0.0f) fail_msg("%d threads, launch %d: element %d is %g, not 0", threads, k, i, y[i]);
        }
    }
    restore_threads(saved);
    free(x);
    free(y);
    pto_program_destroy(dirty);
    pto_program_destroy(z);
}

/* PTOAS lowers every E4M3-like and E5M2-like MLIR float to pto-isa's
 * float8_e4m3_t and float8_e5m2_t: each spelling names that dtype. */
static void test_float8_spellings(void **state) {
    (void)state;
    static const struct {
        const char *spelled;
        pto_dtype dt;
    } kSpellings[] = {{"f8E4M3FN", PTO_FLOAT8_E4M3},       {"f8E4M3", PTO_FLOAT8_E4M3},
                      {"f8E4M3FNUZ", PTO_FLOAT8_E4M3},     {"f8E4M3B11FNUZ", PTO_FLOAT8_E4M3},
                      {"f8E5M2", PTO_FLOAT8_E5M2},         {"f8E5M2FNUZ", PTO_FLOAT8_E5M2}};
    for (size_t i = 0; i < COUNT(kSpellings); ++i) {
        char text[256];
        snprintf(text, sizeof text, "func.func @k(%%p: !pto.ptr<%s>) {\n  return\n}\n", kSpellings[i].spelled);
        pto_program *p = create_ok(text);
        assert_int_equal(pto_program_param_dtype(p, param(p, "p")), kSpellings[i].dt);
        pto_program_destroy(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_form_matches_the_c_call),
        cmocka_unit_test(test_kernel_on_blocks),
        cmocka_unit_test(test_a2a3_prelu_with_its_tmp),
        cmocka_unit_test(test_verifier_refusals),
        cmocka_unit_test(test_run_time_faults),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_concurrent_runs),
        cmocka_unit_test(test_launches_reuse_their_threads),
        cmocka_unit_test(test_each_block_starts_on_zeros),
        cmocka_unit_test(test_float8_spellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
