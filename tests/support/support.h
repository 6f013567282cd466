/* The helpers that the tests, the fuzz harnesses and pto-bench share, once:
 * the operation list (from src/operations.def), element encodings decoded and
 * rounded exactly, ulp distances, the elementwise references that need no
 * MPFR, deterministic random numbers and the SIMD targets to run on.
 * Plain C with a C++ guard; depends on nothing but libpto's header, libm and
 * (for the targets) Highway. Lives only in tests; shares no code with src/.
 *
 * Every element is handled as its raw bit pattern zero-extended to 64 bits
 * (uint64_t), whatever its dtype's size, so one set of loops, generators and
 * references serves the 1-, 2-, 4- and 8-byte dtypes alike. */
#ifndef PTO_TEST_SUPPORT_H
#define PTO_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pto_c.h"
#include "../../src/attributes.def"
#include "../../src/operation_operands.h"
#include "../../src/operation_traits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* How many dtypes pto_dtype has (PTO_INT8 .. PTO_INT4X2): the first value
 * outside the enum; the loops over dtypes run below it. TEST_ALL_DTYPES:
 * every one of them as a set (bit 1 << dtype), as op_info's lists are. */
#define TEST_DTYPE_COUNT ((int)PTO_INT4X2 + 1)
#define TEST_ALL_DTYPES ((1u << TEST_DTYPE_COUNT) - 1u)

/* ---- operations ---- */
typedef enum {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) OP_##UPPER,
#include "../../src/operations.def"
#undef PTO_OPERATION
} op_id;
enum {
    OP_COUNT = 0
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) +1
#include "../../src/operations.def"
#undef PTO_OPERATION
};
const char *op_mnemonic(op_id op); /* "tpow", as PTO assembly spells it */
const char *op_name(op_id op);     /* "pto_tpow", the C function */
/* The mnemonic as text spells it: op_mnemonic, but a ScalarFirst row's is
 * its twin's ("tdivs" for tdivs_scalar_by_tile, with the scalar first). */
const char *op_text_mnemonic(op_id op);

/* An operation's row of operations.def, as the tests read it. */
/* OP_FAMILY_FILL: dst = scalar, no source; the tests call it as a Scalar row
 * whose src0 is ignored (the reference's a is unused). */
typedef enum {
    OP_FAMILY_SPECIAL,
    OP_FAMILY_BINARY,
    OP_FAMILY_UNARY,
    OP_FAMILY_SCALAR,
    OP_FAMILY_FILL,
    OP_FAMILY_ROW_REDUCE, /* dst(i,0) from src's row i: dst's shape differs from src's */
    OP_FAMILY_COL_REDUCE, /* dst(0,j) from src's column j */
    OP_FAMILY_ROW_EXPAND, /* one source per row (R x 1), the other dst's shape */
    OP_FAMILY_COL_EXPAND, /* one source per column (1 x C), the other dst's shape */
} op_family;
typedef enum { OP_TMP_NONE, OP_TMP_OPTIONAL, OP_TMP_REQUIRED } op_tmp_role;
/* The attribute's kind: OP_ATTR_<Kind> for each row of src/attributes.def. */
typedef enum {
#define PTO_TEST_ATTR_KIND(Kind) OP_ATTR_##Kind,
    PTO_ATTRIBUTE_KINDS(PTO_TEST_ATTR_KIND)
#undef PTO_TEST_ATTR_KIND
} op_attr_kind;
typedef struct {
    op_family family;
    int source_count;            /* 0 to 3 */
    const char *source_names[6]; /* NULL past source_count */
    op_tmp_role tmp;
    op_attr_kind attr;
    bool attr_leads;             /* the attribute's arguments come before the sources */
    uint32_t traits;             /* operations.def's Traits: PTO_TRAIT_* flags */
    uint32_t dtypes[3];          /* dst's dtypes under HOST, A2A3, A5: bit 1 << dtype */
    const char *dtype_lists[3];  /* the same as operations.def spells them: "(INT32, INT16)" */
} op_info;
const op_info *op_row(op_id op);
/* Calls the operation's C function with the operands its row has: src1
 * unless it takes one source, tmp unless it has none, algo where its
 * attribute is the pow algorithm. */
pto_status op_call(op_id op, pto_pow_algorithm algo, pto_tile *dst, pto_tile *src0,
                   pto_tile *src1, pto_tile *tmp);
/* ref_<mnemonic> of a Binary, Unary, Scalar or broadcast row (a Unary one
 * ignores b; a broadcast row's b is the expanded operand's value, and a
 * one-source broadcast's result is a, its source's); NULL for any other. */
typedef uint64_t (*op_element_reference)(pto_dtype dt, uint64_t a, uint64_t b);
op_element_reference op_binary_reference(op_id op);
/* The C function of a Binary, Unary or Scalar row (for a Unary one, a
 * function that passes src0 on and ignores src1; for a Scalar one, one that
 * passes op_scalar_value(src1)); NULL for any other. */
typedef pto_status (*op_binary_call)(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);
op_binary_call op_binary_function(op_id op);
/* The C function of a Scalar row, the scalar given; NULL for any other. */
typedef pto_status (*op_scalar_call)(pto_tile *dst, const pto_tile *src, double scalar);
op_scalar_call op_scalar_function(op_id op);
/* Whether the row is a reduction (RowReduce or ColReduce family): src's
 * valid region is the iteration domain, dst's shape follows from it. */
bool op_is_reduction(op_id op);
/* The reduction's results for src (rows x cols valid elements of dt, row
 * stride `stride`, as bits) under profile, binary_order as pto_tcolsum's:
 * out[i] for row i (row reductions) or column i (column reductions). Written
 * from the documented orders (docs/reductions.md), independently of the
 * kernels; double-precision reference sums in reduce_exact. */
void op_reduce_reference(op_id op, pto_profile profile, int binary_order, pto_dtype dt,
                         const void *src, size_t rows, size_t cols, size_t stride,
                         uint64_t *out);
/* The broadcast rows (RowExpand, ColExpand): the tests' calls give the
 * expanded (per-row or per-column) operand as the last source (src1, or src
 * of a one-source row) and the full one as src0. op_source_region: the
 * valid region source `operand` (0 or 1) has for a dst valid region vr x vc
 * (an expanded row operand vr x 1, a column operand 1 x vc, every other
 * source vr x vc); op_source_index: the element of that source dst(i, j)
 * reads ((i, 0), (0, j) or (i, j)). op_is_broadcast: a row of either
 * family. */
bool op_is_broadcast(op_id op);
bool op_source_expanded(op_id op, int operand);
void op_source_region(op_id op, int operand, uint32_t vr, uint32_t vc, uint32_t *svr,
                      uint32_t *svc);
void op_source_index(op_id op, int operand, size_t i, size_t j, size_t *si, size_t *sj);
/* Whether dst dtype dt is accepted under profile (for tpow: DEFAULT's list). */
bool op_accepts(op_id op, pto_profile profile, pto_dtype dt);
/* Whether the row converts between dtypes (tcvt): its source's dtype is not
 * dst's (every pair but FLOAT32 -> FLOAT32, which rounds to an integral
 * value), so the loops that give every operand dst's dtype and expect the
 * row's dst list to decide leave it to tests/test_tcvt.c, which checks its
 * pairs, rules and results. op_call passes PTO_ROUND_RINT and PTO_SAT_OFF. */
bool op_converts(op_id op);
/* Whether the row is one whose operands the generic loops do not model,
 * tested in a file of its own: a Special row without the CommonCall trait,
 * tcvt apart (its (src, dst) pairs have loops of their own: op_converts).
 * op_call still calls it with the attributes.def row's Test values (the
 * data-movement rows: test_tfillpad.c, test_tci.c,
 * test_reshape_transpose_concat.c, test_extract_gather.c,
 * test_element_access.c; tpows: test_tpows.c; the compares and tsels:
 * test_compare.c, a UINT8 mask of ceil(cols / 8) bytes a row). */
bool op_tested_apart(op_id op);

/* The call of a row's C function from the shared operand set (dst, src0,
 * src1, tmp, algo): what each role passes. A Scalar row's scalar is src1's
 * element (0, 0) (op_scalar_value), so that the tests' per-element
 * references see it as b. */
#define PTO_TEST_ARG_AT_1 src0
#define PTO_TEST_ARG_AT_2 src1
/* A third, fourth and fifth source (tmatmul_bias's bias, tconcatidx's
 * indices, tmatmul_mx_bias's bias): the shared set has no more tiles, so tmp
 * stands for them. */
#define PTO_TEST_ARG_AT_3 tmp
#define PTO_TEST_ARG_AT_4 tmp
#define PTO_TEST_ARG_AT_5 tmp
/* One operand of a row's Operands list (src/operation_operands.h): a source
 * at its place, tmp for a scratch tile or a second destination. */
#define PTO_TEST_OPERAND_Dst(position)
#define PTO_TEST_OPERAND_Src(position) , PTO_TEST_ARG_AT_##position
#define PTO_TEST_OPERAND_Tmp(position) , tmp
#define PTO_TEST_OPERAND_OptionalTmp(position) , tmp
#define PTO_TEST_OPERAND_Dst1(position) , tmp
#define PTO_TEST_OPERAND_SrcOnly(position)
/* A table in memory (mgather's): op_table, as many elements of dst's dtype
 * as it holds. */
#define PTO_TEST_OPERAND_Table(position) , op_table, op_table_elements(dst), op_table_dtype(dst)
#define PTO_TEST_OPERAND_TableDst(position)
/* A further destination (tquant_hif4's exp, max, scaling): tmp. */
#define PTO_TEST_OPERAND_Aux(position) , tmp
/* A configuration struct (timg2col's): NULL, which the row refuses first;
 * its own tests (test_img2col.c) pass one. */
#define PTO_TEST_OPERAND_Config(position) , NULL
/* 32-bit words (trandom's key and counter): 1, 2 ... in order. */
#define PTO_TEST_OPERAND_Words2(position) , 1u, 2u
#define PTO_TEST_OPERAND_Words4(position) , 3u, 4u, 5u, 6u
/* The first argument: dst, or src0 for a row with no tile result
 * (PTO_OPERANDS_HEAD), or op_table where the row writes a table
 * (mscatter's; src0's dtype). */
#define PTO_TEST_HEAD_Dst(name) dst
#define PTO_TEST_HEAD_SrcOnly(name) src0
#define PTO_TEST_HEAD_TableDst(name) op_table, op_table_elements(src0), op_table_dtype(src0)
#define PTO_TEST_OPERAND(position, role, name) PTO_TEST_OPERAND_##role(position)
/* An attribute's arguments, from its attributes.def row: a Double passes
 * op_scalar_value(src1), an Index op_index_value(Test), any other role the
 * row's Test column, an Out &op_out_value, Counts op_counts. LEAD: the arguments before the sources (a leading
 * row's); TRAIL: after tmp. */
#define PTO_TEST_ARG_None(test)
#define PTO_TEST_ARG_Double(test) , op_scalar_value(src1)
#define PTO_TEST_ARG_Index(test) , op_index_value((size_t)(test))
#define PTO_TEST_ARG_Bool(test) , test
#define PTO_TEST_ARG_Enum(test) , test
#define PTO_TEST_ARG_Out(test) , &op_out_value
#define PTO_TEST_ARG_Flags(test) , test
#define PTO_TEST_ARG_Word(test) , test
#define PTO_TEST_ARG_Counts(test) , op_counts
#define PTO_TEST_ARG_Int(test) , test
#define PTO_TEST_ARG_Short(test) , test
#define PTO_TEST_ATTR_ARGS(Kind, Leads, Values, Text, R0, T0, N0, B0, D0, E0, R1, T1, N1, B1, D1, E1) \
    PTO_TEST_ARG_##R0(E0) PTO_TEST_ARG_##R1(E1)
#define PTO_TEST_ATTR_LEAD(Kind, Leads, ...) PTO_TEST_LEAD_##Leads(PTO_TEST_ATTR_ARGS(Kind, Leads, __VA_ARGS__))
#define PTO_TEST_ATTR_TRAIL(Kind, Leads, ...) PTO_TEST_TRAIL_##Leads(PTO_TEST_ATTR_ARGS(Kind, Leads, __VA_ARGS__))
#define PTO_TEST_LEAD_0(args)
#define PTO_TEST_LEAD_1(args) args
#define PTO_TEST_TRAIL_0(args) args
#define PTO_TEST_TRAIL_1(args)
/* Where op_call's Out argument points: the last result of a row with no
 * tile result (tgetval). */
extern double op_out_value;
/* Where op_call's Counts argument points: the last counts of a row that
 * gives them (tmrgsort_lists's pairs taken from each list). */
extern uint16_t op_counts[4];
/* The table op_call passes for a Table or TableDst operand: memory of the
 * tests' own (no tile's), op_table_elements(t) elements of t's dtype
 * (FLOAT32 for NULL t). */
extern unsigned char op_table[4096];
size_t op_table_elements(const pto_tile *t);
pto_dtype op_table_dtype(const pto_tile *t);
/* Element (0, 0) of t as a double (0 for NULL): a Scalar row's scalar. */
double op_scalar_value(const pto_tile *t);
/* The value op_call passes for an Index argument whose Test value is
 * `test`: `test` itself, unless op_index_draw is set (the API fuzzer draws
 * indices from its input there, edge values among them). */
extern size_t (*op_index_draw)(size_t test);
size_t op_index_value(size_t test);

/* ---- element types ---- */
bool ref_is_float(pto_dtype dt);
bool ref_is_signed(pto_dtype dt);
unsigned ref_bits(pto_dtype dt); /* element width in bits */
/* Float types: explicit fraction bits, and the exponents of the smallest and
 * the largest normal numbers (FLOAT16: 10, -14, 15). */
int ref_frac_bits(pto_dtype dt);
int ref_min_exponent(pto_dtype dt);
int ref_max_exponent(pto_dtype dt);

/* Element i of a row-major buffer of dt, as bits; and its store. */
uint64_t ref_load(pto_dtype dt, const void *p, size_t i);
void ref_store(pto_dtype dt, void *p, size_t i, uint64_t bits);

/* The fractal box of a tile of dt in `location` and `layout`, in elements
 * (pto_c.h, "Cube tiles"): 16 x 16 in acc, else 16 x 32/size (NZ, ZZ) or
 * 32/size x 16 (ZN, NN); 1 x 1 for PTO_LAYOUT_ND. A tile of one row has
 * boxes of one row. */
void ref_box_shape(pto_dtype dt, pto_location location, pto_layout layout, size_t *rows,
                   size_t *cols);
/* Where element (r, c) of a rows x cols tile of dt in `location` and
 * `layout` lies in its storage, in elements: the offset formula of pto_c.h,
 * "Cube tiles", written out (r*cols + c for PTO_LAYOUT_ND). */
size_t ref_image_offset(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location location,
                        pto_layout layout, size_t r, size_t c);
/* The same for tile t: the image element of its row-major element k. */
size_t ref_tile_image_element(const pto_tile *t, size_t k);

/* Decoding is exact for every float type. Integers decode to their value
 * (rounded to a double for 8-byte ones beyond 2^53). */
double ref_to_double(pto_dtype dt, uint64_t bits);
/* Rounds once to nearest even (float types); NaN stays NaN, overflow gives
 * infinity, subnormals are kept. FLOAT32 goes through a cast. Integers take
 * the low bits of the truncated value. */
uint64_t ref_from_double(pto_dtype dt, double x);
/* The same rounding written out for any binary format: frac_bits explicit
 * fraction bits, exp_bits exponent bits (FLOAT16: 10, 5; BFLOAT16: 7, 8). */
uint64_t ref_round_binary(double x, int frac_bits, int exp_bits);
/* A cube mode's input format (SETHF32MODE, SETTF32MODE), as pto-isa's ST
 * goldens float32_to_hf32 / float32_to_tf32 compute it: x with
 * fraction_bits explicit fraction bits (23: x itself), to nearest with ties
 * to even or away from zero; zeros and subnormals to zero of their sign;
 * infinities and NaN kept. */
float ref_round_f32_fraction(float x, int fraction_bits, bool ties_away);
/* A float32's bits and the float32 of bits. */
uint32_t ref_f32_bits(float x);
float ref_f32_of(uint32_t b);

/* An integer's value, sign-extended as the type says (a UINT64 value above
 * INT64_MAX comes out negative: order them with ref_int_less). */
int64_t ref_int_value(pto_dtype dt, uint64_t bits);
bool ref_int_less(pto_dtype dt, uint64_t a, uint64_t b); /* a < b as values of dt */
uint64_t ref_int_wrap(pto_dtype dt, uint64_t value);     /* modulo 2^bits */

bool ref_is_nan(pto_dtype dt, uint64_t bits);
/* True for a finite non-zero value at or above the smallest normal. */
bool ref_is_normal(pto_dtype dt, uint64_t bits);
/* Float types: how many representable values lie between a and b (+0 == -0,
 * a NaN is 0 away from a NaN and UINT64_MAX from anything else, an infinity
 * UINT64_MAX from anything but itself). Integers:
 * 0 when equal, UINT64_MAX otherwise. */
uint64_t ref_ulp_steps(pto_dtype dt, uint64_t a, uint64_t b);
/* |got - exact| in units of the ulp of the type at exact (finite values;
 * non-finite ones fall back to ulp steps from the rounded exact value, and
 * UINT64_MAX steps read as infinity). */
double ref_ulp_error(pto_dtype dt, uint64_t got, double exact);

/* ---- per-element references, bits in and bits out ---- */
/* rsqrt is exact: the rounding is decided with integer arithmetic. */
uint64_t ref_rsqrt(pto_dtype dt, uint64_t x);
uint64_t ref_prelu(pto_dtype dt, uint64_t x, uint64_t slope);
uint64_t ref_div(pto_dtype dt, uint64_t a, uint64_t b);
uint64_t ref_add(pto_dtype dt, uint64_t a, uint64_t b);
/* e^(a - b) correctly rounded (the difference exact) */
uint64_t ref_expdif(pto_dtype dt, uint64_t a, uint64_t b);
/* The compound instructions' NPU sequences (docs/profiles.md, "Compound
 * instructions under A2A3 and A5"), in double arithmetic rounded to the
 * register's type after every step: A5's trsqrt RN(1 / RN(sqrt x)); trem and
 * trems on FLOAT32 and FLOAT16 (q = RN32(a / b), floor, RN32(q * b),
 * RN32(a - that), FLOAT16 narrowed toward zero, then, with sign_correction,
 * RN(r + b) where RN(b * r) < 0); A2A3's tdivs in place x * RN(1 / s). */
uint64_t ref_npu_rsqrt(pto_dtype dt, uint64_t x);
uint64_t ref_npu_rem(pto_dtype dt, uint64_t a, uint64_t b, bool sign_correction);
/* tfmod and tfmods on FLOAT32 and FLOAT16: as ref_npu_rem with the quotient
 * truncated toward zero (A2A3's vconv_f322f32z, A5's vtrc ROUND_Z) and no sign
 * correction. */
uint64_t ref_npu_fmod(pto_dtype dt, uint64_t a, uint64_t b);
uint64_t ref_npu_divs_in_place(pto_dtype dt, uint64_t x, uint64_t s);
/* The reference of every operation outside the Special family:
 * ref_<mnemonic>(dt, a, b), the correctly rounded (or, for integers, wrapped)
 * result for one element (reference.c); a Unary row's ignores b. */
#define PTO_REFERENCE_DECL_Special(mnemonic)
#define PTO_REFERENCE_DECL_RowReduce(mnemonic)
#define PTO_REFERENCE_DECL_ColReduce(mnemonic)
#define PTO_REFERENCE_DECL_Unary(mnemonic) PTO_REFERENCE_DECL_Binary(mnemonic)
#define PTO_REFERENCE_DECL_Scalar(mnemonic) PTO_REFERENCE_DECL_Binary(mnemonic)
#define PTO_REFERENCE_DECL_Fill(mnemonic) PTO_REFERENCE_DECL_Binary(mnemonic)
#define PTO_REFERENCE_DECL_RowExpand(mnemonic) PTO_REFERENCE_DECL_Binary(mnemonic)
#define PTO_REFERENCE_DECL_ColExpand(mnemonic) PTO_REFERENCE_DECL_Binary(mnemonic)
#define PTO_REFERENCE_DECL_Binary(mnemonic) uint64_t ref_##mnemonic(pto_dtype dt, uint64_t a, uint64_t b);
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_REFERENCE_DECL_##Fam(mnemonic)
#include "../../src/operations.def"
#undef PTO_OPERATION
/* Integer power with wrap-around and the contract's negative exponents. */
uint64_t ref_ipow(int64_t base, int64_t exp);

/* ---- deterministic random numbers (splitmix64) ---- */
typedef struct {
    uint64_t state;
} rng;
uint64_t rng_next(rng *r);
uint32_t rng_below(rng *r, uint32_t n);              /* uniform in [0, n) */
double rng_unit(rng *r);                             /* uniform in [0, 1) */
double rng_uniform(rng *r, double lo, double hi);    /* uniform in [lo, hi) */
int64_t rng_between(rng *r, int64_t lo, int64_t hi); /* uniform in [lo, hi] */

/* ---- SIMD targets ----
 * Those this CPU supports and libpto was compiled for (Highway's
 * SupportedAndGeneratedTargets), best first, as the CPU reports them before
 * any selection. Selecting one mocks Highway's supported-target set, which
 * libpto.so shares through libhwy.so, so the library's next dispatch picks it. */
size_t targets_count(void);
int64_t targets_at(size_t index);
const char *targets_name(int64_t target);
/* The target of that name (case-insensitive), or 0 when there is none. */
int64_t targets_find(const char *name);
/* Makes `target` the only supported one; 0 restores the CPU's real set. */
void targets_select(int64_t target);

/* pto_tile_create with any int as the dtype, converted in C (as a C caller
 * passes an out-of-range value; in C++ an enum object cannot hold it). */
pto_status tile_create_any_dtype(int dtype, uint32_t rows, uint32_t cols, pto_tile **out);

#ifdef __cplusplus
}
#endif

#endif
