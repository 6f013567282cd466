/*
 * pto_c.h - the libpto C ABI.
 *
 * libpto runs the PTO tile instructions on ordinary CPUs with SIMD kernels
 * chosen at run time: elementwise arithmetic and math functions, fills,
 * reductions, broadcasts, conversion, compare and select, element access, data
 * movement, sorting, fused arithmetic and matrix multiply, as C calls (below)
 * and as PTO assembly programs (pto_program_create).
 * ops-families:begin (tools/gen-operations.py --write-committed)
 * The 148 operations of libpto's table (src/operations.def), by group, in
 * the order of the sections below; each section gives its group's common
 * rules:
 *   elementwise tile-tile (23): tsubrelu, taddrelu, tadd, tsub, tmul,
 *     tdiv, tmax, tmin, trem, tand, tor, txor, tshl, tshr, tfmod, tpow,
 *     tprelu, tpartadd, tpartmax, tpartmin, tpartmul, tpartargmax,
 *     tpartargmin
 *   elementwise unary (10): tmov, tabs, tneg, trelu, tsqrt, trecip, texp,
 *     tlog, tnot, trsqrt
 *   elementwise tile-scalar (16): tadds, tsubs, tmuls, tdivs,
 *     tdivs_scalar_by_tile, tmaxs, tmins, trems, tlrelu, tands, tors,
 *     txors, tshls, tshrs, tfmods, tpows
 *   fill (4): texpands, tci, ttri, trandom
 *   reductions (10): trowsum, trowmax, trowmin, tcolsum, tcolmax, tcolmin,
 *     trowprod, tcolprod, tpairreducesum, thistogram
 *   index reductions (4): trowargmax, trowargmin, tcolargmax, tcolargmin
 *   broadcasts (16): trowexpand, trowexpandadd, trowexpandsub,
 *     trowexpandmul, trowexpanddiv, trowexpandmax, trowexpandmin,
 *     trowexpandexpdif, tcolexpand, tcolexpandadd, tcolexpandsub,
 *     tcolexpandmul, tcolexpandmax, tcolexpandmin, tcolexpandexpdif,
 *     tcolexpanddiv
 *   conversion (2): tcvt, tpack
 *   compare and select (4): tcmp, tcmps, tsel, tsels
 *   element access (12): textract, tinsert, tgather, tgather_mask,
 *     tgather_cmp, tgatherb, tscatter, tscatter_mask, tgetval, tsetval,
 *     mgather, mscatter
 *   data movement (11): tfillpad, treshape, talias, ttrans, tconcat,
 *     tconcatidx, tinterleave, tdeinterleave, tdeinterleave_single,
 *     tfillpad_inplace, tfillpad_expand
 *   sorting (3): tsort32, tmrgsort, tmrgsort_lists
 *   fused arithmetic (11): taxpy, taddc, tsubc, taddsc, tsubsc,
 *     tfusedmuladd, tfusedmuladdrelu, tmuladddst, taddreluconv,
 *     tsubreluconv, tadddeqrelu
 *   matrix multiply (14): tmatmul, tmatmul_acc, tmatmul_bias, tgemv,
 *     tgemv_acc, tgemv_bias, tmatmul_mx, tmatmul_mx_acc, tgemv_mx,
 *     tgemv_mx_acc, tmatmul_mx_bias, tgemv_mx_bias, tmatmul_mx_hif4,
 *     timg2col
 *   quantisation (4): tquant, tdequant, tquant_hif4, tquant_mx
 *   the fixpipe's conversions (4): tmov_fp, textract_fp, tinsert_fp,
 *     tmov_fp_ex
 * Five are settings of the calling thread (src/settings.def), which later
 * instructions read: setfmatrix, set_img2col_padding, set_img2col_rpt,
 * set_quant_scalar and set_quant_vector.
 * ops-families:end
 *
 * Conventions shared by every function below:
 *  - Every fallible call returns a pto_status; PTO_OK is 0. On failure nothing
 *    observable changes (no operand is written) and pto_last_error() returns a
 *    sentence, for the calling thread, naming the function, the operand and the
 *    rule that failed.
 *  - No call aborts, asserts, prints or exits on bad input.
 *  - Indices, offsets, counts and byte sizes (index_row, index_col, an
 *    element index, a placement offset, nbytes, count, table_elements, a
 *    program's scalar indices, offsets and strides) are checked without
 *    overflow: where a sum or product of the caller's number with a shape
 *    or an element size does not fit, the number is out of range
 *    (PTO_ERR_OUT_OF_RANGE, or the status the function's text names) and
 *    nothing is written. SIZE_MAX, SIZE_MAX - 1, 2^63 and 2^32 are refused
 *    exactly as the bound + 1 is. A byte count of caller memory (a text's
 *    length, a bound pointer's nbytes, a table's bytes) that runs past the
 *    end of the address space is PTO_ERR_INVALID_ARGUMENT.
 *  - Distinct tiles may be used concurrently from any threads. A tile that one
 *    thread writes must not be used by another thread at the same time. The
 *    same holds for storage: bytes that one thread writes (through any tile or
 *    buffer over them) must not be used by another thread at the same time.
 *  - Each thread has its own target profile (pto_set_profile), HOST until set.
 *  - Denormal (subnormal) numbers are honoured: nothing flushes to zero.
 *    Results do not depend on the calling thread's floating-point mode
 *    (flush-to-zero, denormals-are-zero, rounding direction): calls that
 *    compute in floating point run with the IEEE defaults and restore the
 *    caller's mode before returning.
 *
 * This header is C11 and C++ compatible and declares only pto_* / PTO_* names.
 */
#ifndef PTO_C_H
#define PTO_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTO_VERSION_MAJOR 0
#define PTO_VERSION_MINOR 6
#define PTO_VERSION_PATCH 0
#define PTO_VERSION_STRING "0.6.0"

/* Largest tile, in bytes (rows * cols * element size), that pto_tile_create
 * and pto_tile_create_at accept, and largest buffer that pto_buffer_create and
 * pto_buffer_wrap accept: 256 MiB. Larger requests fail with
 * PTO_ERR_INVALID_ARGUMENT before anything is allocated. */
#define PTO_TILE_MAX_BYTES ((size_t)1 << 28)

#if defined(_WIN32)
#define PTO_API
#elif defined(__GNUC__)
#define PTO_API __attribute__((visibility("default")))
#else
#define PTO_API
#endif

/* ------------------------------------------------------------------------ */
/* Types                                                                     */
/* ------------------------------------------------------------------------ */

/* A tile: an opaque handle created by pto_tile_create, freed by pto_tile_destroy. */
typedef struct pto_tile pto_tile;

/* Element types. INT64 and UINT64 (0.5) come after FLOAT32, so every earlier
 * value keeps its number: 8-byte two's complement and unsigned integers.
 * "All nine dtypes" below means every dtype but these two and the
 * low-precision ones (0.6, below); an operation that takes them says so. */
typedef enum pto_dtype {
    PTO_INT8 = 0,
    PTO_UINT8 = 1,
    PTO_INT16 = 2,
    PTO_UINT16 = 3,
    PTO_INT32 = 4,
    PTO_UINT32 = 5,
    PTO_FLOAT16 = 6,  /* IEEE binary16 */
    PTO_BFLOAT16 = 7, /* bfloat16: the upper half of an IEEE binary32 */
    PTO_FLOAT32 = 8,
    PTO_INT64 = 9,
    PTO_UINT64 = 10,
    PTO_FLOAT8_E4M3 = 11,
    PTO_FLOAT8_E5M2 = 12,
    PTO_HIFLOAT8 = 13,
    PTO_FLOAT8_E8M0 = 14,   /* MX scale */
    PTO_FLOAT4_E2M1X2 = 15, /* two values a byte */
    PTO_FLOAT4_E1M2X2 = 16, /* two values a byte */
    PTO_INT4X2 = 17         /* two values a byte */
} pto_dtype;

/* The low-precision types (0.6) follow UINT64, one byte an element each
 * (pto_dtype_size 1). Their encodings:
 * - FLOAT8_E4M3: OCP FP8 E4M3FN: bias 7, subnormals, no infinity, NaN
 *   S.1111.111 only; the largest finite 448.
 * - FLOAT8_E5M2: OCP FP8 E5M2, IEEE-like: bias 15, subnormals, infinities,
 *   NaNs; the largest finite 57344.
 * - HIFLOAT8: Ascend's HiFloat8: sign, a prefix-coded dot field D (11: 4
 *   exponent bits and 1 mantissa bit, 10: 3 and 2, 01: 2 and 3, 001: 1 and
 *   3, 0001: 0 and 3), the exponent in sign-magnitude with an implicit
 *   leading 1, the mantissa with an implicit 1; 0000mmm below that is
 *   2^(m - 23) (m = 1..7), 0x00 zero, 0x80 NaN, 0x6F/0xEF infinity; the
 *   largest finite 2^15, the smallest 2^-22.
 * - FLOAT8_E8M0: OCP E8M0FNU, the MX scale: 2^(e - 127) for e = 0..254,
 *   0xFF NaN; no sign, no zero.
 * - FLOAT4_E2M1X2, FLOAT4_E1M2X2: two 4-bit floats a byte, element 2k in
 *   the low nibble of byte k, 2k + 1 in the high one; E2M1 is OCP FP4
 *   E2M1FN (0, 0.5, 1, 1.5, 2, 3, 4, 6 and negatives), E1M2 has 0, 0.25 ..
 *   1.75 in steps of 0.25 and negatives; neither has infinity or NaN.
 * - INT4X2: two 4-bit two's complement integers (-8..7) a byte, packed as
 *   the FLOAT4 types.
 * A tile of a packed type counts its cols in bytes (a row of cols bytes
 * holds 2 * cols values), as pto-isa's and PTOAS's x2 types do. */

/* Result of every fallible call. */
typedef enum pto_status {
    PTO_OK = 0,
    PTO_ERR_NULL_ARGUMENT = 1,     /* a required pointer or handle is NULL */
    PTO_ERR_INVALID_ARGUMENT = 2,  /* bad enum value, zero dimension, size overflow, wrong byte/element count */
    PTO_ERR_UNSUPPORTED_DTYPE = 3, /* the operation does not support this element type (or this algorithm for it) */
    PTO_ERR_DTYPE_MISMATCH = 4,    /* operands' element types differ where they must be equal */
    PTO_ERR_SHAPE_MISMATCH = 5,    /* valid regions violate the operation's runtime checks */
    PTO_ERR_OUT_OF_RANGE = 6,      /* a valid region larger than the tile */
    PTO_ERR_ALIASING = 7,          /* operands share storage where the operation forbids it */
    PTO_ERR_OUT_OF_MEMORY = 8
} pto_status;

/* Algorithm choice for pto_tpow on floating-point tiles. */
typedef enum pto_pow_algorithm {
    PTO_POW_DEFAULT = 0,       /* faster, lower precision (float32: <= 8 ulp for normal results) */
    PTO_POW_HIGH_PRECISION = 1 /* slower, correctly rounded (so <= 1 ulp, and exact when representable) */
} pto_pow_algorithm;

/* Rounding of pto_tcvt (the page's RoundMode, same values). */
typedef enum pto_round_mode {
    PTO_ROUND_NONE = 0,  /* the target's default: TRUNC for float -> integer, RINT otherwise */
    PTO_ROUND_RINT = 1,  /* to nearest, ties to even */
    PTO_ROUND_ROUND = 2, /* to nearest, ties away from zero */
    PTO_ROUND_FLOOR = 3, /* toward -infinity */
    PTO_ROUND_CEIL = 4,  /* toward +infinity */
    PTO_ROUND_TRUNC = 5, /* toward zero */
    PTO_ROUND_ODD = 6    /* toward zero, then the last bit set if inexact (FLOAT32 -> FLOAT16 only) */
} pto_round_mode;

/* Saturation of pto_tcvt (the page's SaturationMode; note PTOAS's text
 * attribute numbers ON 0 and OFF 1, the text spells them). */
typedef enum pto_saturation {
    PTO_SAT_OFF = 0, /* out-of-range results as each profile documents (pto_tcvt) */
    PTO_SAT_ON = 1   /* out-of-range results clamp to the destination's range */
} pto_saturation;

/* The value pto_tfillpad writes outside the source's valid region (the
 * page's PadValue; PTOAS's tile_buf `pad=` numbers them the same way). */
typedef enum pto_pad_value {
    PTO_PAD_NULL = 0, /* no padding: refused by pto_tfillpad (vector tiles need a value) */
    PTO_PAD_ZERO = 1, /* all bits zero (+0 for float dtypes) */
    PTO_PAD_MAX = 2,  /* +infinity for float dtypes, the largest value for integers */
    PTO_PAD_MIN = 3   /* -infinity for float dtypes, the smallest value for integers (0 unsigned) */
} pto_pad_value;
/* Comparison of pto_tcmp and pto_tcmps (the pages' CmpMode; PTOAS's text
 * attribute `cmpMode = #pto<cmp EQ>`). Float compares are IEEE 754's: every
 * compare with a NaN is false except PTO_CMP_NE, which is true; -0 equals +0. */
typedef enum pto_cmp_mode {
    PTO_CMP_EQ = 0, /* src0 == src1 */
    PTO_CMP_NE = 1, /* src0 != src1 */
    PTO_CMP_LT = 2, /* src0 < src1 */
    PTO_CMP_GT = 3, /* src0 > src1 */
    PTO_CMP_GE = 4, /* src0 >= src1 */
    PTO_CMP_LE = 5  /* src0 <= src1 */
} pto_cmp_mode;
/* Which elements of each group pto_tgather_mask keeps (the pages'
 * MaskPattern, numbered as the NPUs' vreduce pattern modes and PTOAS's
 * `#pto.mask_pattern<P0101>`): read right to left, bit k of the name set
 * keeps column k of every group of two (P0101, P1010) or four columns. */
typedef enum pto_mask_pattern {
    PTO_MASK_P0101 = 1, /* columns 0, 2, 4, ...: the first of every two */
    PTO_MASK_P1010 = 2, /* columns 1, 3, 5, ...: the second of every two */
    PTO_MASK_P0001 = 3, /* columns 0, 4, 8, ...: the first of every four */
    PTO_MASK_P0010 = 4, /* columns 1, 5, 9, ...: the second of every four */
    PTO_MASK_P0100 = 5, /* columns 2, 6, 10, ...: the third of every four */
    PTO_MASK_P1000 = 6, /* columns 3, 7, 11, ...: the fourth of every four */
    PTO_MASK_P1111 = 7  /* every column */
} pto_mask_pattern;
/* Which way pto_tgather_mask applies its pattern (the page's GatherAxis;
 * PTOAS's "row" and "col"). */
typedef enum pto_gather_axis {
    PTO_GATHER_ROW = 0, /* the columns of every row, packed from dst's first element */
    PTO_GATHER_COL = 1  /* whole rows, kept by their row number, into dst's rows */
} pto_gather_axis;
/* Which byte of each source element pto_thistogram counts (the page's
 * HistByte; PTOAS's {byte = N : i32}): byte k is bits 8k+7 .. 8k. */
typedef enum pto_hist_byte {
    PTO_HIST_BYTE0 = 0, /* bits 7-0, the least significant */
    PTO_HIST_BYTE1 = 1, /* bits 15-8 (a UINT16 element's most significant) */
    PTO_HIST_BYTE2 = 2, /* bits 23-16 */
    PTO_HIST_BYTE3 = 3  /* bits 31-24 (a UINT32 element's most significant) */
} pto_hist_byte;
/* How pto_mgather and pto_mscatter index global memory (the pages'
 * Coalesce; PTOAS's #pto<coalesce row|elem>). */
typedef enum pto_coalesce {
    PTO_COALESCE_ROW = 0, /* one index per tile row: a whole table row of the tile's valid cols */
    PTO_COALESCE_ELEM = 1 /* one index per element: a flat element offset into the table */
} pto_coalesce;
/* What pto_mgather_oob does with an index past the table (the page's
 * GatherOOB, numbered as it numbers them; PTOAS's #pto<gather_oob ...>).
 * The capacity is the table's rows in Row mode, its elements in Elem mode. */
typedef enum pto_gather_oob {
    PTO_GATHER_OOB_UNDEFINED = 0, /* the caller's guarantee: libpto refuses an index past the table */
    PTO_GATHER_OOB_CLAMP = 1,     /* the index becomes capacity - 1 */
    PTO_GATHER_OOB_WRAP = 2,      /* the index becomes index % capacity */
    PTO_GATHER_OOB_ZERO = 3       /* the destination elements get all-zero bits */
} pto_gather_oob;
/* What pto_mscatter_ex does with an index past the table (the page's
 * ScatterOOB, numbered as it numbers them; PTOAS's #pto<scatter_oob ...>). */
typedef enum pto_scatter_oob {
    PTO_SCATTER_OOB_UNDEFINED = 0, /* the caller's guarantee: libpto refuses an index past the table */
    PTO_SCATTER_OOB_SKIP = 1,      /* that row or element is not written */
    PTO_SCATTER_OOB_CLAMP = 2,     /* the index becomes capacity - 1 */
    PTO_SCATTER_OOB_WRAP = 3       /* the index becomes index % capacity */
} pto_scatter_oob;
/* How pto_mscatter_ex combines a source element with the table's (the
 * page's ScatterAtomicOp, numbered as it numbers them; PTOAS's
 * #pto<scatter_atomic_op ...>). */
typedef enum pto_scatter_atomic {
    PTO_SCATTER_ATOMIC_NONE = 0, /* a plain store: the last writer in row order wins */
    PTO_SCATTER_ATOMIC_ADD = 1,  /* table += src */
    PTO_SCATTER_ATOMIC_MAX = 2,  /* table = max(table, src) */
    PTO_SCATTER_ATOMIC_MIN = 3   /* table = min(table, src) */
} pto_scatter_atomic;

/* Target profiles: whose rules the operations enforce (see "Target profiles"
 * below). */
typedef enum pto_profile {
    PTO_PROFILE_HOST = 0, /* the v0.1 rules: everything libpto can compute (the default) */
    PTO_PROFILE_A2A3 = 1, /* HOST rules plus the pages' A2A3 (A3) implementation checks */
    PTO_PROFILE_A5 = 2    /* HOST rules plus the pages' A5 implementation checks */
} pto_profile;

/* Where a tile lives (pto-isa's TileType, PTOAS's tile_buf `loc=`): the
 * vector unit's unified buffer, or one of the cube's memories (see "Cube
 * tiles" in this header). */
typedef enum pto_location {
    PTO_LOC_VEC = 0,   /* unified buffer: every tile of pto_tile_create and pto_tile_create_at */
    PTO_LOC_MAT = 1,   /* L1, where the cube's operands are staged */
    PTO_LOC_LEFT = 2,  /* L0A: a matrix multiply's a */
    PTO_LOC_RIGHT = 3, /* L0B: a matrix multiply's b */
    PTO_LOC_ACC = 4,   /* L0C: a matrix multiply's dst */
    PTO_LOC_BIAS = 5,  /* the bias table: pto_tmatmul_bias's bias */
    PTO_LOC_SCALING = 6 /* loc=scaling: MX scales (ZZ, NN) or the fixpipe's quantisation row (ND) */
} pto_location;

/* How a tile's elements lie in its storage: row-major, or a fractal layout,
 * a grid of boxes (pto-isa's BLayout: the boxes in column order for NZ and
 * NN, row order for ZN and ZZ; SLayout: each box's elements along its rows
 * for NZ and ZZ, down its columns for ZN and NN). "Cube tiles" in this header gives
 * the boxes and each element's offset. */
typedef enum pto_layout {
    PTO_LAYOUT_ND = 0, /* row-major, no boxes: every tile of pto_tile_create and pto_tile_create_at */
    PTO_LAYOUT_NZ = 1, /* boxes in column order, row-major inside (the NPU's acc, A5's left) */
    PTO_LAYOUT_ZN = 2, /* boxes in row order, column-major inside (the NPU's right) */
    PTO_LAYOUT_ZZ = 3, /* boxes in row order, row-major inside (A2A3's left) */
    PTO_LAYOUT_NN = 4  /* boxes in column order, column-major inside */
} pto_layout;

/* A buffer: an opaque byte arena (standing, e.g., for the on-chip unified
 * buffer) in which tiles are placed with pto_tile_create_at. Created by
 * pto_buffer_create or pto_buffer_wrap, released by pto_buffer_destroy. */
typedef struct pto_buffer pto_buffer;

/* ------------------------------------------------------------------------ */
/* Library                                                                   */
/* ------------------------------------------------------------------------ */

/* The library's version, "MAJOR.MINOR.PATCH" (PTO_VERSION_STRING of the build). */
PTO_API const char *pto_version_string(void);

/* The enumerator's name, e.g. "PTO_ERR_SHAPE_MISMATCH"; "PTO_STATUS_UNKNOWN" for
 * a value outside the enum. Never NULL. */
PTO_API const char *pto_status_string(pto_status s);

/* A sentence describing this thread's most recent failure, or "" if no call on
 * this thread has failed yet. The pointer stays valid until this thread's next
 * libpto call. A successful call does not clear it. (The sentence's 1 KiB is
 * taken at the thread's first failure; where it cannot be had, a sentence
 * saying that the failure's sentence was lost for lack of memory.) */
PTO_API const char *pto_last_error(void);

/* Name of the SIMD target the kernels dispatch to now, e.g. "AVX2", "AVX3",
 * "SSE4" or "EMU128" (the portable fallback). Never NULL. */
PTO_API const char *pto_simd_target(void);

/* Bytes per element of dtype (1 for the low-precision types, whose packed
 * ones count a byte of two values as an element); 0 for a value outside the
 * enum. */
PTO_API size_t pto_dtype_size(pto_dtype dtype);

/* ------------------------------------------------------------------------ */
/* Target profiles                                                           */
/* ------------------------------------------------------------------------ */
/*
 * A profile makes the operations enforce, on top of the HOST rules, the
 * implementation checks that the instruction pages list for one NPU target,
 * and where the pages are silent what that target's implementation refuses,
 * so that a program run on a CPU is refused where that target would refuse
 * it (README.md, "Target profiles", cites the source of each rule). A
 * profile changes validation only, except where a page says a target
 * ignores an option (TPOW's HIGH_PRECISION on A2A3 computes exactly DEFAULT)
 * and where an NPU implementation rounds an intermediate to the element type
 * before using it again (since 0.5): under A2A3 and A5 *expdif, trem and
 * trems on floats, under A5 trsqrt, under A2A3 tdivs in place compute that
 * sequence, each step correctly rounded (docs/profiles.md, "Compound
 * instructions under A2A3 and A5"); HOST rounds once.
 * What each profile adds (the operations below say it again):
 *
 *   op             A2A3                                      A5
 *   tpow           dtypes INT32, INT16, INT8, UINT32,        as HOST
 *                  UINT16, UINT8, FLOAT32 only; HIGH_PRECISION
 *                  accepted for each of them, computed as DEFAULT
 *   trsqrt         as HOST                                   as HOST
 *   tprelu         dtypes FLOAT16, FLOAT32 only; tmp         dtypes FLOAT16,
 *                  required, UINT8, rows >= dst valid_rows   FLOAT32 only; tmp
 *                  + 1, valid_rows == dst valid_rows,        unused: may be
 *                  valid_cols >= ceil(dst valid_cols / 8);   NULL, any dtype
 *                  dst, src0, src1, tmp pairwise             or shape
 *                  non-overlapping (no in place)
 *   tcolexpanddiv  as HOST                                   as HOST
 *   tpartadd       dtypes INT32, INT16, FLOAT16, FLOAT32     as HOST
 *   tcvt           the page's A2A3 (src, dst) pairs;         the A5 pairs;
 *                  SAT_OFF float -> INT16/INT8/UINT8         SAT_OFF as A2A3
 *                  narrowed through INT32 (pto_tcvt)
 *   tcmp, tcmps    sources INT32, FLOAT16, FLOAT32 (tcmps    the A5 lists
 *                  also UINT16, INT16); INT32 with EQ and    (pto_tcmp)
 *                  NE only (pto_tcmp)
 *   tsel, tsels    16- and 32-bit dtypes; tmp required       the A5 lists;
 *                  (pto_tsel)                                tmp unused
 *   textract       dst rows x cols within src's; 32-byte      dst rows x cols
 *                  rows; even 1-byte valid cols; index_col   within src's
 *                  32-byte aligned (pto_textract)
 *   tgather        2- and 4-byte dtypes, INT32/UINT32        contiguous dst
 *                  indices; tmp required; contiguous dst     and indices rows
 *                  rows (pto_tgather)
 *   tgatherb       dst valid cols whole 32-byte blocks       a row's last
 *                  (pto_tgatherb)                            block may be short
 *   tscatter       as HOST                                   as HOST
 *   tmatmul,       cube tiles only: a left ZZ, b right ZN,   as A2A3 with a
 *   tmatmul_acc,   dst acc NZ, bias a bias row; a [M, K],    left NZ
 *   tmatmul_bias   b [K, N], dst [M, N]; M, K, N 1 to 4095
 *                  (pto_tmatmul)
 *   tgemv,         cube tiles only, as tmatmul; K, N 1 to    as A2A3 with a
 *   tgemv_acc,     4095 (M is 1); tiles of any shape         left NZ
 *   tgemv_bias     (pto_tgemv)
 *
 * A refusal that HOST would not make for the identical call names the
 * profile in pto_last_error(), and a dtype refusal lists what the profile
 * accepts, e.g.
 *   "pto_tpartadd: dst dtype UINT8 is not supported on A2A3 (INT32, INT16, FLOAT16, FLOAT32)".
 * Profile checks belong to the same steps of the check order as the others
 * (a profile's dtype rule is part of the dtype step, and so on).
 */

/* Sets the calling thread's profile; other threads are not affected.
 * Errors: PTO_ERR_INVALID_ARGUMENT for a value outside the enum (the profile
 * is then unchanged). */
PTO_API pto_status pto_set_profile(pto_profile profile);

/* The calling thread's profile; PTO_PROFILE_HOST until the thread sets one. */
PTO_API pto_profile pto_get_profile(void);

/* The profile's name: "HOST", "A2A3" or "A5"; "PTO_PROFILE_UNKNOWN" for a
 * value outside the enum. Never NULL. */
PTO_API const char *pto_profile_string(pto_profile p);

/* Board mode (since 0.6). Generated kernels sometimes break a rule that an
 * NPU implementation checks only in a debug build (a PTO_ASSERT) or not at
 * all, and a board runs them anyway. By default every rule is checked and
 * the call refused. In board mode, under PTO_PROFILE_A2A3 and
 * PTO_PROFILE_A5 only, these rules are not refused: the operation does what
 * that profile's implementation does, and each occurrence is reported as a
 * warning naming the rule (to the thread's warning handler, else one line on
 * stderr). docs/profiles.md ("Board mode") cites each rule's source:
 *   - the Binary rows tadd, tsub, tmul, tdiv, tmax, tmin, trem, tfmod,
 *     tsubrelu, tand, tor, txor, tshl and tshr with a source whose valid
 *     region differs from dst's: dst's valid region is computed, each
 *     source read at the same (row, col) of its storage (taddrelu, which
 *     has no pto-isa implementation, is not relaxed);
 *   - tmatmul, tmatmul_acc and tmatmul_bias whose a or b valid rows or cols
 *     differ from dst's: M, K, N are a's valid rows, a's valid cols and b's
 *     valid cols, as the implementations take them (dst's M x N written);
 *   - tcolexpand with src's valid cols other than dst's (src not empty):
 *     dst's valid cols are written from src's row 0;
 *   - the two-source RowExpand rows (trowexpandmul, trowexpandadd, ...)
 *     whose expanded operand has other valid rows than dst, or valid cols
 *     neither 1 nor a 32-byte block: its rows read from its storage, a
 *     32-byte block per row where its valid cols are not 1;
 *   - tsetval (and pto_tgetval) at an index outside the tile's valid region
 *     but inside its rows x cols;
 *   - tgather (its index form) with an index outside src's valid region
 *     but inside its rows x cols: that element of src's storage is read;
 *   - in programs, a pto.partition_view window past its view but inside the
 *     memory bound to its pointer.
 * Not relaxed, as the implementations leave them undefined or refuse them:
 * the Unary and Scalar rows' valid regions (a2a3/TAddS.hpp writes nothing on
 * a mismatch), integer division by zero in a program's scalar arithmetic,
 * row reductions of an empty region, a matrix multiply's M, K or N outside
 * 1 to 4095, and pto.load_scalar / pto.store_scalar outside the bound
 * memory.
 * A rule whose operation would then read or write outside an operand's
 * storage (or outside every allocation), NULLs, bad enums and every rule
 * an implementation enforces at compile time (static_assert) stay errors.
 * HOST ignores the mode. A program is checked in the mode of the thread
 * that creates it, and its run-time checks in the mode of the thread that
 * launches it (its blocks' threads take that thread's mode and handler). */

/* A warning: "function: board mode: sentence" (a program's partition
 * window: "FILE:LINE:COL: warning: board mode: sentence"). Called on the thread that ran the operation,
 * one call at a time across threads; message is valid during the call. */
typedef void (*pto_warning_fn)(const char *message, void *user_data);

/* Sets the calling thread's board mode: 1 on, 0 off (the default).
 * Errors: PTO_ERR_INVALID_ARGUMENT for any other value (the mode is then
 * unchanged). */
PTO_API pto_status pto_set_board_mode(int on);

/* The calling thread's board mode: 1 on, 0 off. */
PTO_API int pto_board_mode(void);

/* The cube modes of pto-isa's SETHF32MODE and SETTF32MODE: per thread, off
 * by default, they round the FLOAT32 inputs a and b of pto_tmatmul,
 * pto_tmatmul_acc, pto_tmatmul_bias, pto_tgemv, pto_tgemv_acc and
 * pto_tgemv_bias to the cube's reduced format before the matrix multiply's
 * fixed order of fused multiply-adds (dst, the seed and bias stay float32):
 * - HF32 (pto_set_hf32_mode) under PTO_PROFILE_A2A3: e8m11, 11 explicit
 *   fraction bits (pto-isa's SetMadTF32Mode: "a2/a3 : e8m11"; its A2A3
 *   ST golden float32_to_hf32).
 * - TF32 (pto_set_tf32_mode) under PTO_PROFILE_A5: e8m10, 10 explicit
 *   fraction bits ("a5 : e8m10"; the page: "TF32 mantissa truncation", its
 *   "(7-bit mantissa)" contradicted by the implementation and its A5 ST
 *   golden float32_to_tf32).
 * Each input is rounded to nearest, ties by `round`: PTO_ROUND_ROUND
 * (pto-isa's CAST_ROUND, the pages' default: ties away from zero, as the
 * implementation sets the mode register's round bit for it) or
 * PTO_ROUND_RINT (CAST_RINT: ties to even); a carry past the largest
 * finite value gives infinity; subnormals and zeros become zero of their
 * sign (the ST goldens); infinities and NaN are kept. The other profile's
 * mode changes nothing (SETTF32MODE is a no-op on A2/A3; A5's cube format is
 * TF32), nor does either under HOST (the pages: the CPU simulator "does not
 * affect IEEE 754 rounding"), nor on FLOAT16, BFLOAT16 or INT8 inputs. A
 * launch's blocks run in the launching thread's modes. Programs have no
 * text form of SETHF32MODE or SETTF32MODE (PTOAS defines no op for them):
 * set the mode in C before the launch.
 * Errors: PTO_ERR_INVALID_ARGUMENT for enable not 0 or 1 or another round
 * mode (the modes are then unchanged). The getters return 1 (on) or 0
 * (off) and, when round is not NULL, store the mode's round there. */
PTO_API pto_status pto_set_hf32_mode(int enable, pto_round_mode round);
PTO_API int pto_hf32_mode(pto_round_mode *round);
PTO_API pto_status pto_set_tf32_mode(int enable, pto_round_mode round);
PTO_API int pto_tf32_mode(pto_round_mode *round);

/* Sets the calling thread's warning handler, called with user_data; NULL
 * restores the default (each warning one line on stderr). */
PTO_API void pto_set_warning_handler(pto_warning_fn handler, void *user_data);

/* ------------------------------------------------------------------------ */
/* Tiles                                                                     */
/* ------------------------------------------------------------------------ */
/*
 * A tile is a rows x cols row-major array of one element type, contiguous (the
 * row stride is cols elements), with a valid region valid_rows x valid_cols
 * anchored at (0, 0). The valid region starts as the whole tile. (A cube
 * tile, of pto_tile_create_cube, may lie in a fractal layout instead: "Cube
 * tiles" below.)
 * A tile made by pto_tile_create owns its storage, 64-byte aligned and
 * zero-filled at creation. A tile made by pto_tile_create_at is placed in a
 * buffer (see "Buffers and placement" below): its storage is bytes of that
 * buffer, aligned to the element size only, and left as they were.
 */

/* Creates a tile and stores its handle in *out.
 * Errors: PTO_ERR_NULL_ARGUMENT if out is NULL; PTO_ERR_INVALID_ARGUMENT for a
 * dtype outside the enum, rows or cols of 0, or rows*cols*size above
 * PTO_TILE_MAX_BYTES (decided before any allocation); PTO_ERR_OUT_OF_MEMORY.
 * On failure *out is left unchanged. */
PTO_API pto_status pto_tile_create(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_tile **out);

/* Frees the tile and, for an owned tile, its storage. A placed tile releases
 * its reference to its buffer (whose storage is freed when the buffer handle
 * and every tile placed in it are destroyed). NULL is a no-op. Safe to call
 * from any thread, in any order with the buffer and its other tiles. */
PTO_API void pto_tile_destroy(pto_tile *tile);

/* Sets the valid region. A 0 dimension is allowed (an empty region).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_OUT_OF_RANGE if valid_rows > rows or
 * valid_cols > cols (the region is then unchanged). */
PTO_API pto_status pto_tile_set_valid(pto_tile *tile, uint32_t valid_rows, uint32_t valid_cols);

/* Accessors. On NULL they return 0 (pto_tile_dtype returns (pto_dtype)0). */
PTO_API pto_dtype pto_tile_dtype(const pto_tile *tile);
PTO_API uint32_t pto_tile_rows(const pto_tile *tile);
PTO_API uint32_t pto_tile_cols(const pto_tile *tile);
PTO_API uint32_t pto_tile_valid_rows(const pto_tile *tile);
PTO_API uint32_t pto_tile_valid_cols(const pto_tile *tile);

/* The tile's storage: rows*cols elements in the tile's encoding. For an owned
 * tile 64-byte aligned and owned by the tile; for a placed tile the buffer's
 * data plus the tile's offset. NULL for NULL. */
PTO_API void *pto_tile_data(pto_tile *tile);

/* Copies the whole tile (not just the valid region) from src, in the tile's own
 * element encoding, row-major: element (r, c) at r*cols + c of src (a cube
 * tile's fractal image is laid out from it, see "Cube tiles"). nbytes must
 * equal rows*cols*pto_dtype_size(dtype).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for a wrong nbytes;
 * PTO_ERR_OUT_OF_MEMORY for a tile in a fractal layout whose row-major copy
 * cannot be allocated (the tile is then unchanged). */
PTO_API pto_status pto_tile_write(pto_tile *tile, const void *src, size_t nbytes);

/* Copies the whole tile into dst. Same rules as pto_tile_write. */
PTO_API pto_status pto_tile_read(const pto_tile *tile, void *dst, size_t nbytes);

/* Copies the whole tile from count floats, row-major as pto_tile_write,
 * narrowing with round-to-nearest-even (NaN stays NaN, overflow gives
 * infinity). Only FLOAT16, BFLOAT16 and FLOAT32 tiles. count must equal
 * rows*cols.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_UNSUPPORTED_DTYPE for an integer
 * tile; PTO_ERR_INVALID_ARGUMENT for a wrong count; PTO_ERR_OUT_OF_MEMORY as
 * pto_tile_write. */
PTO_API pto_status pto_tile_write_f32(pto_tile *tile, const float *src, size_t count);

/* Copies the whole tile into count floats (widening is exact). Same rules as
 * pto_tile_write_f32. */
PTO_API pto_status pto_tile_read_f32(const pto_tile *tile, float *dst, size_t count);

/* ------------------------------------------------------------------------ */
/* Cube tiles                                                                */
/* ------------------------------------------------------------------------ */
/*
 * The cube (the NPU's matrix unit) reads a matrix multiply's operands from
 * memories of its own, in fractal layouts: a is a left tile, b a right tile,
 * dst an acc tile, bias a bias row (pto_location). A cube tile, made by
 * pto_tile_create_cube, carries its location and layout; everything else
 * about it is a tile's (dtype, shape, valid region anchored at (0, 0),
 * pto_tile_set_valid, pto_tile_destroy).
 *
 * Storage: owned, 64-byte aligned, zero-filled at creation, rows*cols
 * elements that are exactly the byte image the NPU's memory holds. With
 * E-byte elements, a box is IR x IC elements: 16 x 16 in acc (1024 bytes);
 * elsewhere 512 bytes, 16 x 32/E for NZ and ZZ, 32/E x 16 for ZN and NN;
 * a tile of one row has boxes of one row (IR = 1). Element (r, c) is element
 *   r*cols + c                          of an ND tile, and with
 *   br = r / IR, ir = r % IR, bc = c / IC, ic = c % IC,
 *   in = ir*IC + ic (NZ, ZZ) or ic*IR + ir (ZN, NN),
 *   bc*rows*IC + br*IR*IC + in          of an NZ or NN tile,
 *   br*IR*cols + bc*IR*IC + in          of a ZZ or ZN tile
 * of pto_tile_data. pto_tile_write, pto_tile_read, pto_tile_write_f32 and
 * pto_tile_read_f32 exchange the tile's values row-major whatever its layout
 * (element (r, c) at r*cols + c of the caller's array), so a caller fills
 * and reads a cube tile as any other and never computes an offset; the byte
 * image is pto_tile_data's.
 *
 * What takes them: pto_tmatmul, pto_tmatmul_acc, pto_tmatmul_bias and
 * pto_tgemv, pto_tgemv_acc, pto_tgemv_bias (under each profile, see "Matrix
 * multiply"), pto_tmov, which moves between
 * the cube's memories (mat to left, right or bias; acc to vec or mat), and
 * pto_textract, a window of a mat tile into a left or right tile (and, on
 * vec tiles, a window of an NZ or ND tile into an NZ one), and pto_tinsert
 * of a vec NZ tile into a mat or vec NZ tile and of a vec ZN tile into a
 * mat ZN tile.
 * Every other operation refuses a tile whose location is not PTO_LOC_VEC,
 * or a vec tile in NZ or ZN, before its other rules, with
 * PTO_ERR_INVALID_ARGUMENT, e.g. "pto_tadd: src0 is a left NZ tile; only
 * pto_tmov, pto_textract, pto_tinsert and the matrix multiplies ... take the
 * cube's tiles ...", and so does pto_args_set_tile (a program's tile parameters are
 * vec tiles); pto_tile_create_at places vec tiles only (a cube tile is
 * never in a buffer: pto_tile_buffer is NULL, pto_tile_offset 0).
 * Programs (pto_program_create) model the same memories and layouts in their
 * own tiles (docs/pto-assembly.md, "The cube").
 */

/* Creates a cube tile (or, for PTO_LOC_VEC and PTO_LAYOUT_ND, a tile as
 * pto_tile_create makes) and stores its handle in *out. Mat, left, right and
 * acc tiles take any layout, bias tiles ND, vec tiles ND or, as A5's vec
 * moves lay them out (pto_tmov), NZ or ZN with 512-byte boxes (such a vec
 * tile is taken by pto_tmov, pto_textract and pto_tinsert only, as the cube's
 * tiles are); a scaling tile is the
 * fixpipe's quantisation row (ND, one row) or MX scales (ZZ or NN, boxes of
 * 32 bytes). The profile is not looked at: what each profile's matrix
 * multiply and tmov accept are their own rules (HOST takes every layout, to
 * experiment with).
 * Errors, in order: PTO_ERR_NULL_ARGUMENT if out is NULL;
 * PTO_ERR_INVALID_ARGUMENT for a dtype, shape or size pto_tile_create
 * refuses, a location or layout outside its enum, a bias tile not ND, a vec
 * tile neither ND, NZ nor ZN,
 * a scaling tile neither ND, ZZ nor NN, a bias or ND scaling tile of more
 * than one row, or a fractal layout whose boxes do not
 * tile rows x cols (rows a multiple of IR unless 1, cols of IC; e.g. a
 * FLOAT32 NZ left tile has 16 x 8 boxes: 16 x 24 is accepted, 16 x 12 is
 * not); PTO_ERR_OUT_OF_MEMORY. On failure *out is left unchanged. */
PTO_API pto_status pto_tile_create_cube(pto_dtype dtype, uint32_t rows, uint32_t cols,
                                        pto_location location, pto_layout layout,
                                        pto_tile **out);

/* The tile's location and layout: PTO_LOC_VEC and PTO_LAYOUT_ND for every
 * tile of pto_tile_create and pto_tile_create_at, and for NULL. */
PTO_API pto_location pto_tile_location(const pto_tile *tile);
PTO_API pto_layout pto_tile_layout(const pto_tile *tile);


/* ------------------------------------------------------------------------ */
/* Buffers and placement                                                     */
/* ------------------------------------------------------------------------ */
/*
 * Manual placement (the pages' TASSIGN(tile, 0x1000), pto.tassign): a buffer
 * is a byte arena and pto_tile_create_at makes a tile whose elements are the
 * bytes [offset, offset + rows*cols*size) of it. A buffer may wrap the
 * caller's own memory, so a placed tile reads and writes the caller's arrays
 * directly (zero-copy).
 *
 * Lifetime: a buffer's storage lives until the buffer handle and every tile
 * placed in it are destroyed, in any order (reference counted; tiles may be
 * destroyed from other threads).
 *
 * Overlap: tiles may be placed so that their storage overlaps (that is how a
 * program reuses on-chip memory); it is legal until an operation would read
 * and write overlapping storage. Two operands overlap when some byte belongs
 * to an element of both valid regions (row stride = cols), judged by memory
 * addresses whatever buffers or tiles they come from; tiles that interleave
 * without sharing a byte do not overlap. See the operations' common rules.
 */

/* Creates a buffer of nbytes zero-filled bytes, 64-byte aligned, owned by the
 * library, and stores its handle in *out.
 * Errors, in this order: PTO_ERR_NULL_ARGUMENT if out is NULL;
 * PTO_ERR_INVALID_ARGUMENT if nbytes is 0 or above PTO_TILE_MAX_BYTES
 * (decided before any allocation); PTO_ERR_OUT_OF_MEMORY.
 * On failure *out is left unchanged. */
PTO_API pto_status pto_buffer_create(size_t nbytes, pto_buffer **out);

/* Makes a buffer over the caller's nbytes bytes at memory, without copying,
 * and stores its handle in *out. libpto never frees, reallocates or (by
 * itself) writes that memory; the caller keeps it alive and unmoved until the
 * buffer and every tile placed in it are destroyed. memory needs no alignment
 * beyond what the tiles placed in it need (see pto_tile_create_at).
 * Errors, in this order: PTO_ERR_NULL_ARGUMENT if out or memory is NULL;
 * PTO_ERR_INVALID_ARGUMENT if nbytes is 0 or above PTO_TILE_MAX_BYTES;
 * PTO_ERR_OUT_OF_MEMORY (for the handle). On failure *out is left unchanged. */
PTO_API pto_status pto_buffer_wrap(void *memory, size_t nbytes, pto_buffer **out);

/* Releases the buffer handle. The storage (for pto_buffer_create) is freed
 * once every tile placed in it is destroyed too; wrapped memory is never
 * freed. NULL is a no-op. */
PTO_API void pto_buffer_destroy(pto_buffer *buffer);

/* The buffer's first byte: the owned storage or the wrapped memory. NULL for
 * NULL. */
PTO_API void *pto_buffer_data(pto_buffer *buffer);

/* The buffer's size in bytes; 0 for NULL. */
PTO_API size_t pto_buffer_size(const pto_buffer *buffer);

/* TASSIGN: creates a rows x cols tile whose elements are the bytes
 * [offset, offset + rows*cols*pto_dtype_size(dtype)) of buffer, and stores
 * its handle in *out. The bytes are not changed (no zero-fill). The tile
 * holds a reference to the buffer, so the buffer's storage outlives the
 * buffer handle while the tile exists.
 * Errors, in this order: PTO_ERR_NULL_ARGUMENT if buffer or out is NULL;
 * PTO_ERR_INVALID_ARGUMENT for a dtype outside the enum, rows or cols of 0,
 * rows*cols*size above PTO_TILE_MAX_BYTES (as pto_tile_create), or an offset
 * such that pto_buffer_data(buffer) + offset is not a multiple of the element
 * size; PTO_ERR_OUT_OF_RANGE if the tile does not fit inside the buffer
 * (offset + bytes > pto_buffer_size, computed without overflow);
 * PTO_ERR_OUT_OF_MEMORY (for the handle). On failure *out is left unchanged. */
PTO_API pto_status pto_tile_create_at(pto_dtype dtype, uint32_t rows, uint32_t cols,
                                      pto_buffer *buffer, size_t offset, pto_tile **out);

/* The buffer a placed tile lives in; NULL for an owned tile or NULL. It is
 * the handle pto_tile_create_at was given, and it stays usable with
 * pto_buffer_data, pto_buffer_size and pto_tile_create_at while the tile
 * exists, even after pto_buffer_destroy on it (the tile holds a reference).
 * It is no new handle: destroy each buffer exactly once, as created. */
PTO_API pto_buffer *pto_tile_buffer(pto_tile *tile);

/* A placed tile's byte offset in its buffer; 0 for an owned tile or NULL. */
PTO_API size_t pto_tile_offset(const pto_tile *tile);

/* ------------------------------------------------------------------------ */
/* Operations                                                                */
/* ------------------------------------------------------------------------ */
/*
 * Rules common to every operation, except where its section or comment says
 * otherwise:
 *  - Every tile argument except an optional tmp must be non-NULL
 *    (PTO_ERR_NULL_ARGUMENT).
 *  - The iteration domain is dst's valid region; elements of dst outside it
 *    are never written. A call that passes every check with an empty dst valid
 *    region returns PTO_OK and writes nothing.
 *  - dst may be the very same handle as any source (in place); the result is
 *    the same as with a separate dst. A source placed exactly on dst (same
 *    start address, dtype and cols; rows and valid regions may differ as the
 *    operation's shape rules allow) is in place too, with the same result.
 *    Any other overlap between dst's valid elements and a source's valid
 *    elements (some byte belonging to both) is PTO_ERR_ALIASING in every
 *    profile, except in row order (since 0.6): where dst row i reads only
 *    row i of each source (the elementwise tile-tile, tile-scalar and unary
 *    operations, pto_tpow, pto_tpows, pto_trsqrt, pto_tprelu, pto_tpartadd,
 *    the row broadcasts and their R x 1 operand, pto_tcvt, pto_textract's
 *    window, pto_tmov), a source may share bytes with dst so that each dst
 *    row lies only on earlier source rows, or exactly on its own (same
 *    start and byte length): written in row order, no source row is
 *    overwritten before it is read, and the result is the one with a
 *    separate dst. A source row that would be overwritten first is
 *    PTO_ERR_ALIASING naming both rows; under PTO_PROFILE_A2A3 so is a
 *    later dst row whose whole 256-byte repeats cover an earlier source
 *    row's remaining columns (A2A3 runs every row's repeats before any
 *    row's remainder). Column broadcasts, reductions and the other
 *    operations keep the rule above.
 *  - tmp is never written (its contents are unchanged), so a tmp may overlap
 *    any operand except where a profile forbids it (A2A3 tprelu); but a tmp
 *    must be a handle distinct from dst and every source (PTO_ERR_ALIASING)
 *    in every profile.
 *  - Operands may have different physical shapes; only valid regions matter.
 *    Operands need no alignment beyond their element size.
 *  - Checks run before any write, in this order, and the first failing one
 *    decides the status: NULL handles; enum arguments; element types (dst's
 *    type unsupported by the operation or the profile, then another operand's
 *    type differing from dst's); aliasing (same handles, then overlapping
 *    storage); valid regions. So a FLOAT32 dst with a BFLOAT16 src is
 *    PTO_ERR_DTYPE_MISMATCH, a BFLOAT16 dst PTO_ERR_UNSUPPORTED_DTYPE.
 *  - Results on placed tiles are bit-identical to the same call on owned
 *    tiles.
 */

/* ------------------------------------------------------------------------ */
/* Elementwise tile-tile                                                     */
/* ------------------------------------------------------------------------ */
/*
 * dst[i,j] = f(src0[i,j], src1[i,j]) over dst's valid region. Rules, checked
 * in this order: dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT); dst's
 * dtype accepted under the calling thread's profile (PTO_ERR_UNSUPPORTED_DTYPE);
 * src0's and src1's dtypes equal dst's (PTO_ERR_DTYPE_MISMATCH); each source
 * is dst itself, placed exactly on dst, or shares no byte with dst's valid
 * elements (PTO_ERR_ALIASING); src0's and src1's valid regions equal dst's
 * (PTO_ERR_SHAPE_MISMATCH). Float results are correctly rounded in the
 * element type (the same bits on every SIMD target); integer results wrap
 * (INT64 and UINT64, where a row takes them, modulo 2^64).
 */

/* dst = src0 + src1. HOST: all nine dtypes, INT64, UINT64.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32.
 * - PTO_PROFILE_A5: INT32, UINT32, INT64, UINT64, FLOAT32, INT16, UINT16,
 *   FLOAT16, BFLOAT16, UINT8, INT8. */
PTO_API pto_status pto_tadd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 - src1. HOST: all nine dtypes, INT64, UINT64.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32.
 * - PTO_PROFILE_A5: as HOST. */
PTO_API pto_status pto_tsub(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 * src1. HOST and A5: INT32, UINT32, INT64, UINT64, FLOAT32,
 * INT16, UINT16, FLOAT16, BFLOAT16 (no 8-bit dtype).
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tmul(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 / src1. HOST and A5: INT32, UINT32, INT64, UINT64, FLOAT32,
 * INT16, UINT16, FLOAT16. Floats: IEEE division, correctly rounded (x/0 = +/-inf, 0/0 =
 * NaN). Integers: the quotient truncated toward zero; x / 0 has every bit
 * set (-1 signed, the largest value unsigned) and the most negative value
 * divided by -1 wraps to itself (the page leaves division by zero to the
 * target; these are HOST's, on every profile).
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32. */
PTO_API pto_status pto_tdiv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = the larger of src0 and src1; for floats IEEE 754-2019 maximum: NaN
 * when either is NaN (either operand order), and +0 is larger than -0.
 * HOST: all nine dtypes, INT64, UINT64.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32.
 * - PTO_PROFILE_A5: as HOST. */
PTO_API pto_status pto_tmax(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = the smaller of src0 and src1; for floats IEEE 754-2019 minimum: NaN
 * when either is NaN, and -0 is smaller than +0. Dtypes as pto_tmax. */
PTO_API pto_status pto_tmin(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = relu(src0 - src1) = max(src0 - src1, 0) (TSUBRELU): the difference
 * as pto_tsub's (correctly rounded), then +0 wherever it is not above zero
 * (-0 included); NaN stays NaN, as pto_trelu. FLOAT32 and FLOAT16 on every
 * profile (both NPU implementations' TSubRelu). */
PTO_API pto_status pto_tsubrelu(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = relu(src0 + src1) = max(src0 + src1, 0) (PTOAS's taddrelu, the
 * A2A3 vaddrelu; pto-isa has no page): the sum as pto_tadd's (correctly
 * rounded; INT16 wraps), then +0 wherever it is not above zero; NaN stays
 * NaN. HOST and A2A3: INT16, FLOAT16, FLOAT32 (PTOAS's A2/A3 verifier).
 * - PTO_PROFILE_A5: no dtype (PTOAS: "only supported on A2/A3 targets"),
 *   PTO_ERR_UNSUPPORTED_DTYPE. */
PTO_API pto_status pto_taddrelu(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 - floor(src0 / src1) * src1, the remainder of src1's sign
 * (TREM: "The result has the same sign as the divider"; TFMOD's follows
 * src0). HOST and A5: FLOAT16, FLOAT32, INT16, UINT16, INT32, UINT32, INT64,
 * UINT64.
 * Floats: the exact remainder fmod(src0, src1) where it is zero or of
 * src1's sign, else fmod + src1 rounded once (correctly rounded; a tiny
 * remainder may round to src1 itself). A zero result has src1's sign;
 * src1 = +/-0, an infinite src0 or a NaN give NaN; an infinite src1 gives
 * src0 where the signs agree and src1 where they differ. Integers exact:
 * x rem 0 = x (TDIV's x / 0 is -1, and x = -1 * 0 + x) and the most negative
 * value rem -1 = 0 (the page leaves division by zero to the target; these are
 * HOST's, on every profile). The NPUs' own results may differ in the last
 * bits (they divide in float32), in the sign of a zero, and for int32 beyond
 * 2^24.
 * Floats under PTO_PROFILE_A2A3 and PTO_PROFILE_A5 (since 0.5): the NPU
 * implementations' sequence instead, each step correctly rounded: q = a / b
 * in float32, floor(q), p = floor(q) * b in float32, r = a - p in float32
 * (FLOAT16 on A5: computed in float32, then narrowed toward zero), then
 * r + b in the dtype where b * r rounded to the dtype is < 0. So a large
 * quotient or an inexact product moves the result away from the exact
 * remainder, an infinite src1 gives NaN, a zero of the subtraction is +0.
 * PTOAS's text takes a tmp (`ins(%src0, %src1, %tmp : ...)`); libpto
 * needs none, and a program's tmp is neither read nor written.
 * - PTO_PROFILE_A2A3: FLOAT32, INT32. */
PTO_API pto_status pto_trem(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* Bitwise operations (exact on every profile; integer dtypes only).
 * dst = src0 & src1 (TAND). INT8, UINT8, INT16, UINT16, INT32, UINT32 on
 * every profile. */
PTO_API pto_status pto_tand(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 | src1 (TOR). Dtypes as pto_tand. */
PTO_API pto_status pto_tor(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 ^ src1 (TXOR). Dtypes as pto_tand.
 * - PTO_PROFILE_A2A3: its implementation computes through dst (not(and)
 *   and or), so dst must share no memory with src0 or src1: in place (the
 *   same handle or identical placement) is refused too (PTO_ERR_ALIASING,
 *   after the family's aliasing rules). The page's tmp (A2A3's scratch for
 *   or(src0, src1); unused on A5) is not a C argument: libpto needs none,
 *   and a program's tmp (`ins(%src0, %src1, %tmp : ...)`) is neither read
 *   nor written (under A2A3 it must be of dst's dtype, row-major and of at
 *   least dst's rows x cols: PTOAS's rule). */
PTO_API pto_status pto_txor(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 << src1 (TSHL), each element shifted by the count in the same
 * element of src1, read as an unsigned value of the dtype (a negative count
 * of a signed dtype is a large one): bits shifted out are lost, zeros come
 * in, and a count of the width or more gives 0. HOST and A5: UINT8, INT8,
 * UINT16, INT16, UINT32, INT32, INT64, UINT64 (the pages leave counts of the
 * width or more to the target; these are HOST's, on every profile but one:
 * under A5 an INT64 or UINT64 count is taken mod 64, as A5's implementation
 * masks it with 63, a5/Int64Binary.hpp, and its ST goldens expect).
 * - PTO_PROFILE_A2A3: UINT8, INT8, UINT16, INT16, UINT32, INT32. */
PTO_API pto_status pto_tshl(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = src0 >> src1 (TSHR), counts as pto_tshl: arithmetic for the signed
 * dtypes (the sign comes in; a count of the width or more gives 0 or -1 by
 * the sign), logical for the unsigned ones (zeros come in; such a count
 * gives 0). Dtypes as pto_tshl. */
PTO_API pto_status pto_tshr(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* dst = fmod(src0, src1) (TFMOD), C's fmod: src0 - trunc(src0 / src1) *
 * src1, zero or of src0's sign (pto_trem's follows src1). HOST: FLOAT32,
 * FLOAT16, INT16, UINT16, INT32, UINT32. Floats under HOST: exact (fmod's
 * result is a value of the dtype): a zero has src0's sign; src1 = +/-0, an
 * infinite src0 or a NaN give NaN; an infinite src1 gives src0. Floats under
 * A2A3 and A5: the NPUs' sequence, the quotient, its truncation, the product
 * and the difference each rounded in float32 (FLOAT16 narrowed toward zero at
 * the end; docs/profiles.md [F-TFMOD]). Integers exact: x fmod 0 =
 * x (TDIV's x / 0 is -1, and x = -1 * 0 + x) and the most negative value
 * fmod -1 = 0 (the page leaves division by zero to the target; these are
 * HOST's, on every profile). PTOAS's {precisionType = ...} is accepted in
 * programs and changes nothing.
 * - PTO_PROFILE_A2A3: FLOAT32.
 * - PTO_PROFILE_A5: FLOAT16, FLOAT32, UINT16, INT16, UINT32, INT32. */
PTO_API pto_status pto_tfmod(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* Rows of this group with rules of their own, each stated at its declaration. */

/* dst[i,j] = base[i,j] ^ exp[i,j].
 * - dst, base, exp and tmp have equal dtypes (PTO_ERR_DTYPE_MISMATCH).
 *   PTO_POW_DEFAULT: all nine dtypes. PTO_POW_HIGH_PRECISION: FLOAT16,
 *   BFLOAT16, FLOAT32; an integer dtype with it is PTO_ERR_UNSUPPORTED_DTYPE.
 *   An algo outside the enum is PTO_ERR_INVALID_ARGUMENT.
 * - tmp is required (PTO_ERR_NULL_ARGUMENT), a handle distinct from the others
 *   (PTO_ERR_ALIASING); it is not written (contents unchanged).
 * - base, exp and tmp valid regions equal dst's (PTO_ERR_SHAPE_MISMATCH).
 * - PTO_PROFILE_A2A3: dst dtype INT32, INT16, INT8, UINT32, UINT16, UINT8 or
 *   FLOAT32 only (PTO_ERR_UNSUPPORTED_DTYPE); HIGH_PRECISION is accepted for
 *   each of them and computes exactly what DEFAULT computes.
 * - Floating point: C99 Annex F pow for every special case (as std::pow).
 *   HIGH_PRECISION (FLOAT32, FLOAT16, BFLOAT16): correctly rounded, to
 *   nearest with ties to even, subnormal results included, so <= 1 ulp
 *   everywhere and exact where the exact result is representable; the same
 *   bits on every SIMD target. FLOAT32 DEFAULT: <= 8 ulp where the result is
 *   normal; FLOAT16/BFLOAT16 DEFAULT: <= 1 ulp. DEFAULT results may differ
 *   between SIMD targets, but on one target an element's result depends
 *   only on its own base and exponent, not on the other elements of the
 *   tile (e.g. special values beside it) or on its position.
 * - Integers: exact, wrapping modulo 2^bits; x^0 = 1 (0^0 too); a negative
 *   exponent gives 1 for base 1, +/-1 for base -1 (by parity), 0 otherwise. */
PTO_API pto_status pto_tpow(pto_tile *dst, const pto_tile *base, const pto_tile *exp,
                            pto_tile *tmp, pto_pow_algorithm algo);

/* dst[i,j] = src0[i,j] > 0 ? src0[i,j] : src0[i,j] * src1[i,j] (src1 is the
 * per-element slope). All nine dtypes, all equal; integer products wrap; float
 * products are correctly rounded. src0 and src1 valid regions equal dst's.
 * tmp may be NULL (this target needs none); if given it must be a handle
 * distinct from the others (PTO_ERR_ALIASING), may have any dtype and shape,
 * and its contents are left unchanged.
 * - PTO_PROFILE_A2A3: dst dtype FLOAT16 or FLOAT32 only
 *   (PTO_ERR_UNSUPPORTED_DTYPE); tmp is required (PTO_ERR_NULL_ARGUMENT) and
 *   must be UINT8 (PTO_ERR_UNSUPPORTED_DTYPE, after src0's and src1's dtypes);
 *   dst, src0, src1 and tmp must not overlap pairwise, so in place (same
 *   handle or identical placement) is refused too (PTO_ERR_ALIASING); after
 *   src0's and src1's valid regions, tmp rows >= dst valid_rows + 1, then
 *   tmp valid_rows == dst valid_rows, then tmp valid_cols >=
 *   ceil(dst valid_cols / 8) (PTO_ERR_SHAPE_MISMATCH). The page's "tmp
 *   valid rows >= dst valid cols + 1" is not a rule: the NPU implementation
 *   asserts valid_rows == dst's.
 * - PTO_PROFILE_A5: dst dtype FLOAT16 or FLOAT32 only
 *   (PTO_ERR_UNSUPPORTED_DTYPE); tmp is not used (may be NULL, any dtype or
 *   shape), but it is still not the same handle as another operand. */
PTO_API pto_status pto_tprelu(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                              pto_tile *tmp);

/* Over dst's valid region: src0 + src1 where both sources' valid regions
 * contain (i,j), a copy of the one source that does where only one does.
 * All nine dtypes and INT64, UINT64, all equal; integer sums wrap; float sums
 * correctly rounded. Supported patterns: one source's valid region equals dst's and the other's
 * does not exceed dst's in either dimension. Every other pattern is
 * PTO_ERR_SHAPE_MISMATCH.
 * - PTO_PROFILE_A2A3: dst dtype INT32, INT16, FLOAT16 or FLOAT32 only
 *   (PTO_ERR_UNSUPPORTED_DTYPE). */
PTO_API pto_status pto_tpartadd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* TPARTMAX, TPARTMIN, TPARTMUL: pto_tpartadd's valid-region rule, patterns
 * and rules (in its order), with pto_tmax's maximum, pto_tmin's minimum or
 * pto_tmul's product (correctly rounded; integers wrap) where both sources
 * are valid, a copy of the valid one elsewhere.
 * - pto_tpartmax, pto_tpartmin: HOST all nine dtypes, INT64, UINT64; A2A3
 *   INT32, INT16, FLOAT16, FLOAT32; A5 INT8, UINT8, INT16, UINT16, INT32,
 *   UINT32, INT64, UINT64, FLOAT16, BFLOAT16, FLOAT32.
 * - pto_tpartmul: HOST all nine dtypes; A2A3 INT32, INT16, FLOAT16,
 *   FLOAT32; A5 UINT8, INT8, UINT16, INT16, UINT32, INT32, FLOAT16,
 *   FLOAT32, BFLOAT16. */
PTO_API pto_status pto_tpartmax(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);
PTO_API pto_status pto_tpartmin(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);
PTO_API pto_status pto_tpartmul(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* TPARTARGMAX, TPARTARGMIN: values with their indices, two destinations.
 * Over dst's valid region, where (i, j) lies in both sources' valid regions
 * dst[i,j] is the larger (TPARTARGMAX) or smaller (TPARTARGMIN) of src0[i,j]
 * and src1[i,j] and dst_idx[i,j] that source's src0_idx[i,j] or
 * src1_idx[i,j]; where only one source is valid, that source's value and
 * index (bits unchanged). Which source an element takes where both are
 * valid, per profile (a tie: equal values, -0 and +0 included):
 * - HOST: src0 if src0 > src1 (TPARTARGMIN: <), else src1: ties and NaNs
 *   to src1 (the page's definition, pto-isa's CPU model).
 * - PTO_PROFILE_A2A3: src0 if src0 >= src1 (<=), else src1: ties to src0,
 *   NaNs to src1 (a2a3/TPartArgOp.hpp: vcmp_ge / vcmp_le, then vsel).
 * - PTO_PROFILE_A5: src1 if src1 > src0 (<), else src0: ties and NaNs to
 *   src0 (a5/TPartArgMax.hpp, TPartArgMin.hpp: vcmp_gt / vcmp_lt).
 * Rules, checked in this order:
 * - dst, src0, src1, src0_idx, src1_idx, dst_idx not NULL
 *   (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 on every profile (PTO_ERR_UNSUPPORTED_DTYPE);
 *   src0's and src1's dtypes dst's (PTO_ERR_DTYPE_MISMATCH); dst_idx INT16,
 *   UINT16, INT32 or UINT32 for FLOAT16 values, INT32 or UINT32 for FLOAT32
 *   ones (PTO_ERR_UNSUPPORTED_DTYPE); src0_idx's and src1_idx's dtypes
 *   dst_idx's (PTO_ERR_DTYPE_MISMATCH).
 * - src0 and src1 are dst itself, placed exactly on it or in row order
 *   (as pto_tpartadd's sources), or apart from it; src0_idx and src1_idx so
 *   to dst_idx; dst shares no storage with src0_idx, src1_idx, dst_idx, nor
 *   dst_idx with src0, src1 (handles, placements, bytes of the valid
 *   elements) (PTO_ERR_ALIASING).
 * - each index tile's valid region is its value tile's (src0_idx src0's,
 *   src1_idx src1's, dst_idx dst's); one source's valid region is dst's
 *   and the other's within it (pto_tpartadd's rule) (PTO_ERR_SHAPE_MISMATCH).
 * An empty dst valid region writes nothing. */
PTO_API pto_status pto_tpartargmax(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                   const pto_tile *src0_idx, const pto_tile *src1_idx,
                                   pto_tile *dst_idx);
PTO_API pto_status pto_tpartargmin(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                   const pto_tile *src0_idx, const pto_tile *src1_idx,
                                   pto_tile *dst_idx);

/* ------------------------------------------------------------------------ */
/* Elementwise unary                                                         */
/* ------------------------------------------------------------------------ */
/*
 * dst[i,j] = f(src[i,j]) over dst's valid region. Rules, checked in this
 * order: dst, src not NULL (PTO_ERR_NULL_ARGUMENT); dst's dtype accepted
 * under the calling thread's profile (PTO_ERR_UNSUPPORTED_DTYPE); src's
 * dtype equals dst's (PTO_ERR_DTYPE_MISMATCH); src is dst itself, placed
 * exactly on dst, or shares no byte with dst's valid elements
 * (PTO_ERR_ALIASING); src's valid region equals dst's
 * (PTO_ERR_SHAPE_MISMATCH). Float results are correctly rounded (the same
 * bits on every SIMD target); edge values as IEEE 754 / C99 Annex F.
 */

/* dst = src, bit for bit (TMOV between two vector tiles; NaN payloads and
 * signalling NaNs kept). All nine dtypes, INT64 and UINT64, on every
 * profile: both NPU implementations copy vector tiles as bytes whatever the
 * element type (docs/profiles.md [F-TMOV]). The A5 implementation copies the
 * overlap of the two valid regions; here they must be equal, as for every
 * unary operation. The low-precision types (0.6) as bytes where the page
 * lists them: A5 FLOAT8_E4M3, FLOAT8_E5M2, HIFLOAT8, FLOAT4_E2M1X2,
 * FLOAT4_E1M2X2 (its CommonCheck); A2A3 INT4X2 (the one of them its cube
 * knows); HOST their union.
 *
 * With a cube tile on either side ("Cube tiles"), the cube's moves instead:
 * dst's valid region, each element read at its (row, column) of src and
 * written where dst's layout puts it (bits unchanged). Checks, in order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT);
 * - the move is mat to left, right or bias, acc to vec or mat, a vec ND
 *   tile to a vec NZ or ZN tile (A5's vec TMOV ND -> NZ and ND -> ZN: each
 *   element to where dst's boxes put it, dst of src's shape), or vec to mat
 *   or scaling (PTO_ERR_INVALID_ARGUMENT); PTO_PROFILE_A2A3 moves acc to mat
 *   only, no vec tile into NZ or ZN, and no vec tile to mat or scaling;
 * - vec to mat or scaling is the same repacks straight into the cube tile
 *   they feed (pto-isa TMOV.md: ND -> NZ and ND -> ZN, ND -> ZZ for the MX
 *   exponents, as A5's NZ-mode TQUANT kernel lays out pto_tquant_mx's dst
 *   and exp): under A5 a mat dst NZ or ZN, a scaling dst ZZ
 *   (PTO_ERR_INVALID_ARGUMENT), and a scaling dst UINT8, FLOAT8_E8M0 or
 *   HIFLOAT8 (TMOV's ND -> ZZ takes bytes; PTO_ERR_UNSUPPORTED_DTYPE, after
 *   the dtype match below); HOST takes every layout;
 * - under A2A3 and A5 a left dst is laid out as that profile's matrix
 *   multiply takes it (ZZ on A2A3, NZ on A5), a right dst ZN
 *   (PTO_ERR_INVALID_ARGUMENT);
 * - src's dtype is dst's (PTO_ERR_DTYPE_MISMATCH: no fixpipe conversion),
 *   but for the bias table's widening (a2a3/ and a5/TMov.hpp TMovToBt): a
 *   FLOAT16 mat row into a FLOAT32 bias row on every profile, a BFLOAT16
 *   one under A5 and HOST, each value widened exactly;
 *   of the low-precision types A2A3 moves INT4X2 only, A5 every one but
 *   INT4X2 (FLOAT8_E8M0 for the MX scales), HOST all
 *   (PTO_ERR_UNSUPPORTED_DTYPE);
 * - src and dst are different tiles sharing no byte (PTO_ERR_ALIASING);
 * - a move to left, right or bias, a vec move into NZ or ZN, and every move
 *   under A2A3, takes a src of
 *   dst's rows x cols; dst's valid region lies within src's rows x cols; under
 *   A2A3 and A5 a bias row is a multiple of 64 bytes long, at most 4096 on A5
 *   (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tmov(pto_tile *dst, const pto_tile *src);

/* dst = |src|: floats with the sign bit cleared (a NaN keeps its payload),
 * integers wrapping (the most negative value stays itself). HOST: FLOAT32,
 * FLOAT16, BFLOAT16, INT32, INT16, INT8.
 * - PTO_PROFILE_A2A3: FLOAT32, FLOAT16.
 * - PTO_PROFILE_A5: FLOAT32, FLOAT16, INT32, INT16, INT8. */
PTO_API pto_status pto_tabs(pto_tile *dst, const pto_tile *src);

/* dst = -src: IEEE negation for floats (-(+0) = -0, a NaN's sign flips),
 * 0 - src wrapping for integers. HOST and A5: INT32, INT16, UINT32, UINT16,
 * FLOAT16, FLOAT32, BFLOAT16.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tneg(pto_tile *dst, const pto_tile *src);

/* dst = src > 0 ? src : +0; a NaN stays the same NaN. FLOAT16, FLOAT32,
 * INT32 on every profile. */
PTO_API pto_status pto_trelu(pto_tile *dst, const pto_tile *src);

/* dst = sqrt(src), correctly rounded: sqrt(-0) = -0, sqrt(+inf) = +inf, a
 * negative input or NaN gives NaN. FLOAT32, FLOAT16 on every profile. */
PTO_API pto_status pto_tsqrt(pto_tile *dst, const pto_tile *src);

/* dst = 1 / src, a true division: floats correctly rounded (1/+-0 = +-inf),
 * integers as pto_tdiv (1/0 has every bit set, 1/-1 = -1, otherwise 0 for
 * |src| > 1). FLOAT32, FLOAT16, INT32, INT16 on every profile.
 * - PTO_PROFILE_A2A3: src must not share memory with dst, so in place (the
 *   same handle or identical placement) is refused too (PTO_ERR_ALIASING). */
PTO_API pto_status pto_trecip(pto_tile *dst, const pto_tile *src);

/* dst = e^src, correctly rounded (nearest, ties to even) in the element
 * type, the same bits on every SIMD target: e^+-0 = 1, e^+inf = +inf,
 * e^-inf = +0, NaN gives NaN; results beyond the largest finite value are
 * +inf, and small ones round to the subnormals or +0 (e^src < 2^-150 in
 * FLOAT32 and BFLOAT16 is +0). HOST: FLOAT32, FLOAT16, BFLOAT16.
 * - PTO_PROFILE_A2A3, PTO_PROFILE_A5: FLOAT32, FLOAT16. */
PTO_API pto_status pto_texp(pto_tile *dst, const pto_tile *src);

/* dst = ln(src), correctly rounded in the element type, the same bits on
 * every SIMD target: ln(+-0) = -inf, ln(1) = +0, ln(+inf) = +inf, a
 * negative input (-inf included) or NaN gives NaN; subnormal inputs are
 * exact arguments like any other. HOST: FLOAT32, FLOAT16, BFLOAT16.
 * - PTO_PROFILE_A2A3, PTO_PROFILE_A5: FLOAT32, FLOAT16. */
PTO_API pto_status pto_tlog(pto_tile *dst, const pto_tile *src);

/* dst = ~src, every bit flipped (TNOT). INT16, UINT16, UINT32, INT32, INT8,
 * UINT8 on every profile. */
PTO_API pto_status pto_tnot(pto_tile *dst, const pto_tile *src);

/* Rows of this group with rules of their own, each stated at its declaration. */

/* dst[i,j] = 1 / sqrt(src[i,j]), FLOAT32 or FLOAT16 (else
 * PTO_ERR_UNSUPPORTED_DTYPE), equal dtypes, src valid region equal to dst's.
 * +0 -> +inf, -0 -> -inf, negative -> NaN, +inf -> +0, NaN -> NaN; finite
 * results correctly rounded (so <= 1 ulp), the same bits on every SIMD target.
 * - PTO_PROFILE_A5 (since 0.5): as A5's implementation computes it, sqrt
 *   rounded to the dtype, then 1 / that rounded (vsqrt, then vdiv): within
 *   1.5 ulp, not always correctly rounded (A2A3's one vrsqrt and HOST are). */
PTO_API pto_status pto_trsqrt(pto_tile *dst, const pto_tile *src);

/* ------------------------------------------------------------------------ */
/* Elementwise tile-scalar                                                   */
/* ------------------------------------------------------------------------ */
/*
 * dst[i,j] = f(src[i,j], scalar) over dst's valid region. The scalar is a
 * double converted to the element type: for an integer dtype it must be an
 * integer value within the dtype's range; for a float dtype it is rounded to
 * nearest even once (infinities allowed; a NaN scalar of any sign or payload
 * is the positive quiet NaN). INT64 and UINT64 take the integers a double
 * holds: all of magnitude up to 2^53 and the larger doubles within the range
 * (INT64_MIN is one; INT64_MAX and UINT64_MAX are not, the nearest being
 * 2^63 - 1024 and 2^64 - 2048); 2^63 (INT64) and 2^64 (UINT64) are out of
 * range. Rules, checked in this
 * order: dst, src not NULL (PTO_ERR_NULL_ARGUMENT); dst's dtype accepted
 * under the calling thread's profile (PTO_ERR_UNSUPPORTED_DTYPE); src's dtype
 * equals dst's (PTO_ERR_DTYPE_MISMATCH); the scalar a value of the dtype
 * (PTO_ERR_INVALID_ARGUMENT); src is dst itself, placed exactly on dst, or
 * shares no byte with dst's valid elements (PTO_ERR_ALIASING); src's valid
 * region equals dst's (PTO_ERR_SHAPE_MISMATCH). Each computes what the
 * tile-tile operation computes with a tile full of the scalar: correctly
 * rounded, the same bits on every SIMD target.
 */

/* dst = src + scalar; integers wrap. HOST and A5: all nine dtypes, INT64,
 * UINT64.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tadds(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src - scalar; integers wrap. Dtypes as pto_tadds. */
PTO_API pto_status pto_tsubs(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src * scalar; integers wrap. HOST and A5: UINT16, INT16, UINT32,
 * INT32, INT64, UINT64, FLOAT16, FLOAT32, BFLOAT16.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tmuls(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src / scalar, a true division on every profile (floats correctly
 * rounded, x / 0 = +/-inf; integers as pto_tdiv: truncated, x / 0 with every
 * bit set). HOST and A5: UINT16, INT16, UINT32, INT32, INT64, UINT64,
 * FLOAT16, FLOAT32.
 * Under PTO_PROFILE_A2A3 (since 0.5), floats in place (src is dst or placed
 * exactly on it) are src * (1 / scalar rounded to the dtype), rounded, as
 * A2A3's implementation computes them then (a reciprocal beyond FLOAT16's
 * range gives +/-inf for every finite non-zero src).
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tdivs(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = scalar / src (TDIVS's scalar/tile form; in PTO assembly `tdivs`
 * with the scalar first), correctly rounded as pto_tdivs (scalar / +-0 =
 * +-inf; integers truncated, x / 0 with every bit set). The scalar comes
 * before src here as in the text; the rules and their order are those of the
 * section, src in the place of the tile operand. Dtypes as pto_tdivs. */
PTO_API pto_status pto_tdivs_scalar_by_tile(pto_tile *dst, double scalar, const pto_tile *src);

/* dst = the larger of src and scalar (IEEE 754-2019 maximum, as pto_tmax).
 * HOST and A5: all nine dtypes, INT64, UINT64.
 * - PTO_PROFILE_A2A3: INT32, INT16, FLOAT16, FLOAT32. */
PTO_API pto_status pto_tmaxs(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = the smaller of src and scalar (IEEE 754-2019 minimum, as pto_tmin).
 * Dtypes as pto_tmaxs. */
PTO_API pto_status pto_tmins(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src - floor(src / scalar) * scalar, the remainder of the scalar's
 * sign (TREMS), as pto_trem with the scalar in every element (the same bits:
 * a zero scalar gives NaN for floats and src for integers). HOST and A5:
 * FLOAT32, INT32, UINT32, INT64, UINT64, FLOAT16, INT16, UINT16. The A2A3 page asks int32
 * values within +/-2^24 (its float32 path); libpto is exact for every value.
 * Floats under PTO_PROFILE_A2A3 and PTO_PROFILE_A5 (since 0.5): pto_trem's
 * NPU sequence with the scalar as src1, under A5 without the final sign
 * correction (A5's implementation stops at the subtraction), so a result
 * there may have the other sign than the scalar's.
 * PTOAS's text takes a tmp after the scalar, neither read nor written.
 * - PTO_PROFILE_A2A3: FLOAT32, INT32. */
PTO_API pto_status pto_trems(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src > 0 ? src : src * scalar (leaky ReLU; the scalar is the slope),
 * the product correctly rounded; NaN stays NaN. FLOAT16, FLOAT32 on every
 * profile. */
PTO_API pto_status pto_tlrelu(pto_tile *dst, const pto_tile *src, double scalar);

/* Bitwise operations, shifts and fmod with a scalar: pto_tand, pto_tor,
 * pto_txor, pto_tshl, pto_tshr and pto_tfmod with the scalar in every
 * element of the second source (the same bits).
 * dst = src & scalar (TANDS). INT8, UINT8, INT16, UINT16, INT32, UINT32 on
 * every profile.
 * - PTO_PROFILE_A2A3, PTO_PROFILE_A5: src must share no memory with dst
 *   ("setting the source tile and destination tile to the same memory is
 *   unsupported"): in place is refused too (PTO_ERR_ALIASING, after the
 *   family's aliasing rules). */
PTO_API pto_status pto_tands(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src | scalar (TORS). Dtypes and rules as pto_tands. */
PTO_API pto_status pto_tors(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src ^ scalar (TXORS). Dtypes as pto_tands.
 * - PTO_PROFILE_A2A3: src must share no memory with dst, as pto_tands
 *   (PTO_ERR_ALIASING); A5 accepts in place. The page's tmp is not a C
 *   argument; a program's tmp after the scalar is neither read nor
 *   written (under A2A3 with pto_txor's rules on a program's tmp). */
PTO_API pto_status pto_txors(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src << scalar (TSHLS), the scalar the count of every element, as
 * pto_tshl (a count of the width or more gives 0, A5's 64-bit lanes taking
 * it mod 64; under HOST a negative
 * count of a signed dtype is a large one). HOST and A5: INT32, INT16, INT8,
 * UINT32, INT64, UINT64, UINT16, UINT8.
 * - PTO_PROFILE_A2A3, PTO_PROFILE_A5: "Scalar only supports zero and
 *   positive values": a negative scalar is PTO_ERR_INVALID_ARGUMENT (after
 *   the family's aliasing rules).
 * - PTO_PROFILE_A2A3: INT32, INT16, UINT32, UINT16. */
PTO_API pto_status pto_tshls(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = src >> scalar (TSHRS), as pto_tshr with the scalar the count of
 * every element. Dtypes and the scalar's rule as pto_tshls. */
PTO_API pto_status pto_tshrs(pto_tile *dst, const pto_tile *src, double scalar);

/* dst = fmod(src, scalar) (TFMODS), as pto_tfmod with the scalar in every
 * element (a zero scalar gives NaN for floats and src for integers). HOST:
 * FLOAT32, FLOAT16, INT16, UINT16, INT32, UINT32.
 * - PTO_PROFILE_A2A3: FLOAT32.
 * - PTO_PROFILE_A5: FLOAT16, FLOAT32, UINT16, INT16, UINT32, INT32. */
PTO_API pto_status pto_tfmods(pto_tile *dst, const pto_tile *src, double scalar);

/* Rows of this group with rules of their own, each stated at its declaration. */

/* TPOWS: dst[i,j] = base[i,j] ^ exp, one exponent for every element: the
 * same bits as pto_tpow with exp's value in every element of an exponent
 * tile, on every SIMD target, for both algorithms (every accuracy statement
 * of pto_tpow holds). Rules, checked in this order:
 * - dst, base not NULL (PTO_ERR_NULL_ARGUMENT); algo outside the enum:
 *   PTO_ERR_INVALID_ARGUMENT.
 * - dst's dtype as pto_tpow's for the algorithm under the profile
 *   (PTO_ERR_UNSUPPORTED_DTYPE: the page's A2A3 and A5 lists are tpow's);
 *   base's dtype dst's (PTO_ERR_DTYPE_MISMATCH).
 * - exp a value of the dtype, as every scalar operand (an integer in range
 *   for an integer dtype, else PTO_ERR_INVALID_ARGUMENT; a float dtype
 *   rounds it to nearest even, NaN and infinities allowed).
 * - base is dst or placed exactly on it, or apart (PTO_ERR_ALIASING); base's
 *   valid region dst's (PTO_ERR_SHAPE_MISMATCH).
 * The page's tmp is the A2A3 kernel's scratch for |base|; libpto needs none
 * and takes none (in programs the text's %tmp is accepted and unused). */
PTO_API pto_status pto_tpows(pto_tile *dst, const pto_tile *base, double exp,
                             pto_pow_algorithm algo);

/* ------------------------------------------------------------------------ */
/* Fill                                                                      */
/* ------------------------------------------------------------------------ */

/* dst = scalar in every element of dst's valid region (TEXPANDS); elements
 * outside it are not written. Rules, in order: dst not NULL
 * (PTO_ERR_NULL_ARGUMENT); its dtype accepted under the calling thread's
 * profile (PTO_ERR_UNSUPPORTED_DTYPE); the scalar a value of the dtype, as
 * the tile-scalar operations' (PTO_ERR_INVALID_ARGUMENT). The scalar's
 * conversion is the one rounding. All nine dtypes on every profile; HOST and
 * A5 also INT64, UINT64. */
PTO_API pto_status pto_texpands(pto_tile *dst, double scalar);

/* TCI: the k-th element of dst's valid region (row by row: k = i * valid
 * cols + j) is start + k, or start - k when descending is 1. Integer dtypes
 * wrap modulo 2^bits; float dtypes get start (rounded to nearest even in
 * dst's dtype) plus or minus k, rounded once to nearest even (so exact while
 * the sequence is representable). Rules, checked in this order:
 * - dst not NULL (PTO_ERR_NULL_ARGUMENT); descending 0 or 1, else
 *   PTO_ERR_INVALID_ARGUMENT.
 * - dst's dtype (PTO_ERR_UNSUPPORTED_DTYPE): HOST and PTO_PROFILE_A2A3
 *   INT16, UINT16, INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32 (the page's A2A3
 *   list: any 2- or 4-byte type); PTO_PROFILE_A5 INT16, UINT16, INT32,
 *   UINT32 (the page: integers only).
 * - start as the Scalar family's scalar: for an integer dtype an integer in
 *   its range, else PTO_ERR_INVALID_ARGUMENT; any value for a float dtype.
 * - PTO_PROFILE_A2A3 and PTO_PROFILE_A5: dst rows == 1 (the page:
 *   `TileData::Rows == 1`, the sequence runs along the row),
 *   PTO_ERR_SHAPE_MISMATCH naming the profile. HOST numbers every valid row.
 * The page's A2A3 tmp (a scratch for its vector path) is not needed and not
 * taken. In programs the start is the SSA scalar and `{descending = true}`
 * the order (PTOAS's default false). */
PTO_API pto_status pto_tci(pto_tile *dst, double start, int descending);

/* TTRI: a triangular mask over dst's valid region (R x C): with d = diagonal,
 * the lower form (upper 0, the page's isUpperOrLower 0) writes
 * dst(i, j) = 1 where j <= i + d and 0 elsewhere; the upper form (upper 1)
 * writes 0 where j < i + d and 1 elsewhere. So d = 0 keeps the main diagonal
 * in either triangle, a positive d moves the boundary right, a negative one
 * left; a boundary outside the region gives a tile of ones or of zeros.
 * Exact: 1 and 0 of dst's dtype (float 1.0 and +0.0). Elements outside the
 * valid region are not written (the NPUs' vector stores may reach a row's
 * padding; libpto never does). Rules, checked in this order:
 * - dst not NULL (PTO_ERR_NULL_ARGUMENT); upper 0 or 1, else
 *   PTO_ERR_INVALID_ARGUMENT.
 * - dst's dtype (PTO_ERR_UNSUPPORTED_DTYPE): HOST all nine dtypes, INT64 and
 *   UINT64 (the union of the targets'); PTO_PROFILE_A2A3 INT32, INT16,
 *   UINT32, UINT16, FLOAT16, FLOAT32 (the page's A2A3 list, a2a3/TTri.hpp's
 *   static_assert); PTO_PROFILE_A5 INT32, INT16, INT8, UINT32, INT64, UINT64,
 *   UINT16, UINT8, FLOAT16, FLOAT32, BFLOAT16 (the page's A5 list, a5/TTri.hpp).
 * - diagonal an integer in int32's range (the page's `int diagonal`), else
 *   PTO_ERR_INVALID_ARGUMENT.
 * In programs the diagonal is an SSA integer and `{upperOrLower = 1 : i32}`
 * (inside ins(...), PTOAS's spelling; default 0) the triangle:
 * `pto.ttri ins(%d {upperOrLower = 1 : i32} : i32) outs(%dst : T)`; under A5
 * a program's INT64 or UINT64 dst is refused, as PTOAS's verifier refuses it. */
PTO_API pto_status pto_ttri(pto_tile *dst, double diagonal, int upper);

/* TRANDOM: dst's valid region filled with Philox-4x32 random words from the
 * 64-bit key (key0, key1) and the 128-bit counter (counter0 the least
 * significant word, counter3 the most), bit for bit the stream of A5's
 * implementation (include/pto/npu/a5/TRandom.hpp). One block of `rounds`
 * rounds maps a counter c to four words o0..o3: per round, with
 * p0 = c0 * 0xD2511F53 and p1 = c2 * 0xCD9E8D57 as 64-bit products,
 * c = (hi(p1) ^ c1 ^ k0, lo(p1), hi(p0) ^ c3 ^ k1, lo(p0)), then
 * k0 += 0x9E3779B9 and k1 += 0xBB67AE85 (mod 2^32); each block starts from
 * (key0, key1). Layout (A5's 64 lanes of 32 bits): each row's valid columns
 * are taken in passes of 256; in a pass from counter C, column 4 * i + w of
 * the pass holds o_w of the block of counter C + i (i in 0..63, additions
 * mod 2^128). After a pass C advances by 64, after a row's last pass by
 * ((valid cols - 1) % 64) + 1, and the next row continues from there (the
 * counter is not reset per row). Only dst's valid region is written. The
 * CPU model of pto-isa (include/pto/cpu/TRandom.hpp) orders the words
 * differently (o_w at column 64 * w + i) and advances by the row stride / 4;
 * libpto follows the NPU. Rules, checked in this order:
 * - dst not NULL (PTO_ERR_NULL_ARGUMENT), a vec tile
 *   (PTO_ERR_INVALID_ARGUMENT: the cube's tiles are not row-major);
 * - rounds 7 or 10 (the page's only values), else PTO_ERR_INVALID_ARGUMENT;
 * - dst's dtype (PTO_ERR_UNSUPPORTED_DTYPE): HOST and PTO_PROFILE_A5 INT32,
 *   UINT32 (the same bits); PTO_PROFILE_A2A3 none (A2A3 has no
 *   implementation of the instruction).
 * In programs: pto.trandom ins(%k0, %k1, %c0, %c1, %c2, %c3
 * {rounds = 7 : i32} : i32, ...) outs(%dst : ...) (rounds 10 by default). */
PTO_API pto_status pto_trandom(pto_tile *dst, uint32_t key0, uint32_t key1, uint32_t counter0,
                               uint32_t counter1, uint32_t counter2, uint32_t counter3,
                               uint32_t rounds);

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */
/*
 * src's valid region is the iteration domain. A row reduction writes
 * dst(i,0) = the reduction of src's valid row i for every valid row i: dst
 * is an [R,1] tile (the NPU's col_major [R,1] layout) or column 0 of a wider
 * one. A column reduction writes dst(0,j) = the reduction of src's valid
 * column j into row 0 of dst. Nothing else of dst is written; every element
 * a result depends on is read before that result is written, so dst may be
 * src itself (in place). tmp is never read and never written. Rules, checked
 * in this order: dst, src not NULL (PTO_ERR_NULL_ARGUMENT; tmp too where the
 * profile needs one); binary_order 0 or 1 (PTO_ERR_INVALID_ARGUMENT); dst's
 * dtype accepted under the calling thread's profile
 * (PTO_ERR_UNSUPPORTED_DTYPE); src's (and a required tmp's) dtype equals
 * dst's (PTO_ERR_DTYPE_MISMATCH); a given tmp is not the dst or src handle,
 * and src is dst itself, placed exactly on dst, or shares no byte with dst's
 * valid elements (PTO_ERR_ALIASING); then the shapes (PTO_ERR_SHAPE_MISMATCH):
 * - rows: src's valid region is not empty; dst valid rows = src valid rows;
 *   dst valid cols >= 1.
 * - columns: dst valid cols = src valid cols; dst valid rows >= 1 unless
 *   src's valid region is empty, when the call returns PTO_OK and writes
 *   nothing.
 * tmp: HOST and A5 never need one (NULL, or any distinct tile). A2A3's row
 * reductions need one of dst's dtype: integers at least one 32-byte block of
 * columns (8 INT32, 16 INT16); floats with more valid columns than one
 * 256-byte repeat (E = 64 FLOAT32, 128 FLOAT16) at least src valid rows rows
 * and E * max(1, floor(cols / E / 2)) columns. pto_tcolsum's binary order
 * under A2A3 and A5 needs one of dst's dtype with cols >= src valid cols and
 * rows >= ceil(src valid rows / 2).
 *
 * Order. Float sums are computed in the element type, each addition rounded
 * once, in a fixed order: the result is the same bits on every SIMD target,
 * for every block count of a program, and is the NPU's under A5 and A2A3
 * (docs/reductions.md derives each order from the implementations). HOST
 * uses A5's. A NaN result of any float reduction is the default NaN
 * (positive, quiet, no payload). Integer sums wrap (any order gives the same
 * value). Bound: a sum of n = src valid cols (rows) terms, each addition
 * rounded to a unit roundoff u (2^-24 FLOAT32, 2^-11 FLOAT16, 2^-8
 * BFLOAT16), is within d * u * sum|x| (+ d smallest subnormals' worth of
 * underflow) of the exact sum, d the depth of the order's addition tree:
 * TROWSUM's A5 order log2(E) + ceil(n / E), A2A3's (isBinary false)
 * column order n - 1, A5's ceil(n / 2) + 1, the binary orders
 * ceil(log2 n) + 1.
 * Max and min: IEEE 754-2019 maximum and minimum, as pto_tmax / pto_tmin
 * (-0 < +0: max(+0, -0) = +0, min(+0, -0) = -0), NaN if any element is NaN;
 * the order changes nothing.
 */

/* dst(i,0) = the sum of src's valid row i. A5 and HOST: an accumulator from
 * +0 adds, chunk after chunk, the vcadd of each 256-byte chunk of the row
 * (E = 64 FLOAT32 or 128 FLOAT16 elements, the last padded with +0; vcadd
 * adds adjacent lanes in pairs, level by level). A2A3: the implementation's
 * tree through tmp (repeat pairs, then halving, then one vcadd). Dtypes on
 * every profile: FLOAT16, FLOAT32, INT32, INT16; HOST and A5 also INT64,
 * UINT64. */
PTO_API pto_status pto_trowsum(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(i,0) = the largest element of src's valid row i. HOST and A5:
 * FLOAT16, FLOAT32, INT32, INT16, INT8, UINT8, INT64, UINT64.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, INT32, INT16. */
PTO_API pto_status pto_trowmax(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(i,0) = the smallest element of src's valid row i. Dtypes as
 * pto_trowmax. */
PTO_API pto_status pto_trowmin(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(0,j) = the sum of src's valid column j. binary_order 0 (isBinary =
 * false): A5 and HOST add to row 0 the sums of row pairs (1,2), (3,4), ... in
 * turn, then an unpaired last row; A2A3 adds row after row. binary_order 1
 * (isBinary = true): rows summed in pairs (2k, 2k+1), level by level, an odd
 * level's last value added into the next level's last value (A5, HOST) or
 * first (A2A3); one row is that row plus +0 (A5, HOST) or the row (A2A3).
 * HOST and A5: all nine dtypes, INT64, UINT64.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, INT16, INT32. */
PTO_API pto_status pto_tcolsum(pto_tile *dst, const pto_tile *src, pto_tile *tmp,
                               int binary_order);

/* dst(0,j) = the largest element of src's valid column j. Dtypes as
 * pto_tcolsum. */
PTO_API pto_status pto_tcolmax(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(0,j) = the smallest element of src's valid column j. Dtypes as
 * pto_tcolsum. */
PTO_API pto_status pto_tcolmin(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(i,0) = the product of src's valid row i (TROWPROD), each product
 * rounded to the element type. A5 and HOST: E lane products from 1 (E = 64
 * FLOAT32, 128 FLOAT16), lane k multiplied by elements k, k + E, k + 2E, ...
 * of the row in turn, then halved: lane k times lane k + E/2, then k + E/4,
 * ... down to lane 0. A2A3: 32 / element size lanes (8 FLOAT32, 16 FLOAT16)
 * the same way, then multiplied left to right in FLOAT32 (a FLOAT16 row's
 * lanes too) and rounded to the element type once. Integers wrap. Dtypes on
 * every profile: FLOAT16, FLOAT32, INT32, INT16. A2A3's tmp: one of dst's
 * dtype with at least one 32-byte block of columns, for every dtype. */
PTO_API pto_status pto_trowprod(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(0,j) = the product of src's valid column j (TCOLPROD), each product
 * rounded to the element type: A5 and HOST multiply row 0 by the products of
 * row pairs (1,2), (3,4), ... in turn, then an unpaired last row; A2A3 row
 * after row. Integers wrap. No tmp (the page's TCOLPROD has none). HOST and
 * A5: FLOAT16, FLOAT32, BFLOAT16, INT16, UINT16, INT32, UINT32.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, INT16, INT32. */
PTO_API pto_status pto_tcolprod(pto_tile *dst, const pto_tile *src);

/* Pair sums and byte histograms: not the family's rules above; each states
 * its own, checked in the order given. */

/* TPAIRREDUCESUM: over dst's valid region R x C, for every row i,
 * dst[i,k] = src[i,2k] + src[i,2k+1] for k < ceil(C / 2), an odd C's last
 * pair being src[i,C-1] + 0 (the element past the valid region counts as 0),
 * and dst[i,k] = +0 for ceil(C / 2) <= k < C. Each sum is the exact sum
 * rounded once to the element type (round to nearest even; a FLOAT16 sum
 * is computed in float32, whose rounding keeps that one rounding exact).
 * Nothing outside dst's valid region is written. Dtypes on every profile:
 * FLOAT32, FLOAT16 (the NPUs' implementations; HOST the same list).
 * Errors, in order: dst or src NULL (PTO_ERR_NULL_ARGUMENT); a cube tile
 * (PTO_ERR_INVALID_ARGUMENT); dst's dtype not accepted under the profile
 * (PTO_ERR_UNSUPPORTED_DTYPE); src's dtype not dst's
 * (PTO_ERR_DTYPE_MISMATCH); src sharing storage with dst, unless it is dst
 * itself (PTO_ERR_ALIASING: the sums are computed from a copy of each row
 * then, so in place is exact); src's valid region not dst's
 * (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tpairreducesum(pto_tile *dst, const pto_tile *src);

/* THISTOGRAM, one radix-sort pass: for every valid row i of src and every
 * bin b in 0..255, dst[i,b] = how many elements x of src's valid row i have
 * byte `hist_byte` of x <= b and pass the filter: the ascending cumulative count
 * that pto-isa's CPU model, A5's chistv2 and the ST goldens store (the
 * page's formula writes the count of byte == b, whose running sum this is;
 * bin b's own count is dst[i,b] - dst[i,b-1]). The filter (the page's
 * cascade, most significant byte first):
 * - UINT16 src, PTO_HIST_BYTE1: none; PTO_HIST_BYTE0: byte 1 of x equals
 *   idx[i,0] (idx one UINT8 per row: R x 1, its valid rows at least R).
 * - UINT32 src, PTO_HIST_BYTE3: none (idx not read; it may be NULL);
 *   PTO_HIST_BYTE2: byte 3 == idx[0,0]; PTO_HIST_BYTE1: also byte 2 ==
 *   idx[1,0]; PTO_HIST_BYTE0: also byte 1 == idx[2,0] (idx's rows 0, 1, 2
 *   the filter bytes for every row of src, A5's broadcast of each idx row's
 *   first element; idx at least 3 - hist_byte valid rows).
 * Exact (counts). Only dst's columns 0..255 of rows 0..R-1 are written.
 * dst UINT32, src UINT16 or UINT32, idx UINT8, under HOST and A5 (the page:
 * A5, Kirin9030 and the CPU model).
 * - PTO_PROFILE_A2A3: no dtype (no implementation there; PTOAS refuses it).
 * Errors, in order: dst, src NULL, or idx NULL where it is read
 * (PTO_ERR_NULL_ARGUMENT); a cube tile (PTO_ERR_INVALID_ARGUMENT); hist_byte not
 * a pto_hist_byte, or PTO_HIST_BYTE2 or _3 with a UINT16 src
 * (PTO_ERR_INVALID_ARGUMENT); dst's dtype not accepted under the profile
 * (PTO_ERR_UNSUPPORTED_DTYPE); src not UINT16 or UINT32, idx not UINT8
 * (PTO_ERR_DTYPE_MISMATCH); src or idx sharing storage with dst
 * (PTO_ERR_ALIASING); dst valid rows not src's, dst valid cols below 256,
 * idx's valid region smaller than the filter reads
 * (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_thistogram(pto_tile *dst, const pto_tile *src, const pto_tile *idx,
                                  pto_hist_byte hist_byte);

/* ------------------------------------------------------------------------ */
/* Index reductions                                                          */
/* ------------------------------------------------------------------------ */
/*
 * The position of each valid row's (column's) largest or smallest element of
 * src, as an index into it: dst(i,0) for every valid row i of src (the row
 * forms), dst(0,j) for every valid column j (the column forms). The index
 * mode of TROWARGMAX, TROWARGMIN, TCOLARGMAX, TCOLARGMIN (their value + index
 * form is not a C function). The element found is the one pto_trowmax /
 * pto_trowmin (pto_tcolmax / pto_tcolmin) gives: the first NaN of the row if
 * it has one, else the first element equal to the largest (smallest), -0
 * counting below +0; ties go to the lowest index (the pages leave ties and NaN
 * open; pto-isa's CPU model and A5's compares keep the first). Every target,
 * every profile: the same indices. Rules, checked in this order: dst, src not
 * NULL, and under A2A3 tmp not NULL (PTO_ERR_NULL_ARGUMENT); src's dtype
 * accepted under the calling thread's profile, then dst's INT32 or UINT32
 * (PTO_ERR_UNSUPPORTED_DTYPE); under A2A3 tmp's dtype equals src's
 * (PTO_ERR_DTYPE_MISMATCH); a given tmp is a handle distinct from dst and
 * src, src another handle than dst whose valid elements share no byte with
 * dst's (PTO_ERR_ALIASING); src's valid region not empty, and dst's valid
 * rows equal src's with at least one valid column (row forms; indices in
 * column 0) or dst's valid columns equal src's with at least one valid row
 * (column forms; indices in row 0) (PTO_ERR_SHAPE_MISMATCH). tmp is never
 * read or written (A2A3 uses one as scratch; A5 does not). dst's other
 * elements are not written.
 */

/* dst(i,0) = the column index of the largest element of src's valid row i.
 * src's dtypes, HOST and A5: FLOAT16, BFLOAT16, INT16, UINT16, FLOAT32,
 * INT32, UINT32.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, INT32, INT16. */
PTO_API pto_status pto_trowargmax(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(i,0) = the column index of the smallest element of src's valid row i.
 * Dtypes as pto_trowargmax. */
PTO_API pto_status pto_trowargmin(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(0,j) = the row index of the largest element of src's valid column j.
 * src's dtypes, HOST and A5: INT8, UINT8, INT16, UINT16, INT32, UINT32,
 * FLOAT16, FLOAT32.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, UINT16, UINT32. */
PTO_API pto_status pto_tcolargmax(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* dst(0,j) = the row index of the smallest element of src's valid column j.
 * Dtypes as pto_tcolargmax. */
PTO_API pto_status pto_tcolargmin(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* ------------------------------------------------------------------------ */
/* Broadcasts                                                                */
/* ------------------------------------------------------------------------ */
/*
 * Over dst's valid region R x C. Row broadcasts (pto_trowexpand*): one
 * source is the full one, of valid region R x C, and the other, the
 * expanded one, gives row i's operand s: Mode 1, a valid region R x 1, s =
 * e[i,0] (tiles are row-major, so an R x 1 tile is the NPU's column-major
 * [R,1] vector); Mode 2, a valid region R x 32/sizeof(T) (8 elements of 4
 * bytes, 16 of 2, 32 of 1), s = e[i, j mod 32/sizeof(T)]. Column broadcasts
 * (pto_tcolexpand*): the expanded source gives column j's operand e[0,j]
 * and has valid_rows >= 1 and valid_cols >= C. Either source may be the
 * expanded one: src0 is the full one when its valid region is dst's (also
 * when src1's is too), else src1 must be; f's operand order is kept
 * (pto_trowexpandsub(dst, e, x): e[i,0] - x[i,j]).
 *
 * Rules, checked in this order: dst and the sources not NULL
 * (PTO_ERR_NULL_ARGUMENT); dst's dtype accepted under the calling thread's
 * profile (PTO_ERR_UNSUPPORTED_DTYPE); the sources' dtypes equal dst's
 * (PTO_ERR_DTYPE_MISMATCH); tmp, where given, a different handle than every
 * other operand (PTO_ERR_ALIASING); each source dst itself, placed exactly
 * on dst, or sharing no byte with dst's valid elements (PTO_ERR_ALIASING);
 * the shapes above (PTO_ERR_SHAPE_MISMATCH). dst may be the full source (in
 * place); an expanded source placed on dst is read before dst is written.
 * tmp may be NULL and is never read or written (any dtype and shape), except
 * for these rules:
 * - PTO_PROFILE_A2A3, row broadcasts with a tmp: the NPU's tmp form
 *   broadcasts Mode 1 only (an expanded source of valid_cols 1, else
 *   PTO_ERR_SHAPE_MISMATCH), and tmp holds at least min(ceil(R / 8), 30) *
 *   256 bytes (rows * cols * element size; PTO_ERR_SHAPE_MISMATCH).
 * Results as the elementwise operation of the same arithmetic: floats
 * correctly rounded in the element type (the same bits on every SIMD
 * target), integers wrap (division as pto_tdiv), max and min propagate NaN
 * from either operand.
 *
 * Dtypes of the arithmetic forms (add, sub, mul, max, min): HOST and A5 all
 * nine (FLOAT16, FLOAT32, INT16, INT32, UINT16, UINT32, BFLOAT16, INT8,
 * UINT8).
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32, INT16, INT32.
 */

/* dst[i,j] = src[i,0]: each row's first element across the row, bits
 * unchanged (NaN payloads kept). src: R valid rows, at least one valid
 * column. All nine dtypes on every profile; HOST and A5 also INT64, UINT64. */
PTO_API pto_status pto_trowexpand(pto_tile *dst, const pto_tile *src);

/* dst = src0 + src1, one of them per row. */
PTO_API pto_status pto_trowexpandadd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = src0 - src1, one of them per row. */
PTO_API pto_status pto_trowexpandsub(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = src0 * src1, one of them per row. */
PTO_API pto_status pto_trowexpandmul(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = src0 / src1, one of them per row; floats correctly rounded (x/0 =
 * +/-inf), integers as pto_tdiv. HOST and A5: all nine dtypes.
 * - PTO_PROFILE_A2A3: FLOAT16, FLOAT32. */
PTO_API pto_status pto_trowexpanddiv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = the larger of src0 and src1, one of them per row (IEEE 754-2019
 * maximum, as pto_tmax). */
PTO_API pto_status pto_trowexpandmax(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = the smaller of src0 and src1, one of them per row (IEEE 754-2019
 * minimum, as pto_tmin). */
PTO_API pto_status pto_trowexpandmin(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = e^(src0 - src1), one of them per row, correctly rounded in the
 * element type. HOST: the difference is exact (never rounded) and the
 * result is rounded once. PTO_PROFILE_A2A3 and PTO_PROFILE_A5: as their NPU
 * implementations compute it (a subtraction into dst, then exp in place),
 * the difference is rounded to the element type first, then e^d is
 * correctly rounded (since 0.5). NaN in either source, or inf - inf, gives
 * NaN; +inf gives +inf and -inf +0. FLOAT16, FLOAT32 on every profile; HOST
 * also BFLOAT16 (as pto_texp). */
PTO_API pto_status pto_trowexpandexpdif(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                        pto_tile *tmp);

/* dst[i,j] = src[0,j]: the first row down every row, bits unchanged. src:
 * dst's valid columns, at least one valid row. All nine dtypes on every
 * profile; HOST and A5 also INT64, UINT64. */
PTO_API pto_status pto_tcolexpand(pto_tile *dst, const pto_tile *src);

/* dst = src0 + src1, one of them per column. */
PTO_API pto_status pto_tcolexpandadd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = src0 - src1, one of them per column. */
PTO_API pto_status pto_tcolexpandsub(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = src0 * src1, one of them per column. */
PTO_API pto_status pto_tcolexpandmul(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = the larger of src0 and src1, one of them per column (as pto_tmax). */
PTO_API pto_status pto_tcolexpandmax(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = the smaller of src0 and src1, one of them per column (as pto_tmin). */
PTO_API pto_status pto_tcolexpandmin(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *tmp);

/* dst = e^(src0 - src1), one of them per column, correctly rounded as
 * pto_trowexpandexpdif; same dtypes. */
PTO_API pto_status pto_tcolexpandexpdif(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                        pto_tile *tmp);

/* Rows of this group with rules of their own, each stated at its declaration. */

/* dst[i,j] = src0[i,j] / src1[0,j]: each column divided by src1's row 0.
 * FLOAT32 or FLOAT16, all equal; under HOST and A5 also INT16, INT32, UINT16
 * and UINT32 (since 0.6; PTO_PROFILE_A2A3 keeps the two floats). src0's valid
 * region equals dst's; src1 needs valid_rows >= 1 and valid_cols >= dst's
 * valid_cols (PTO_ERR_SHAPE_MISMATCH). Floats: IEEE division, correctly
 * rounded (x/0 is +/-inf, 0/0 is NaN); integers as pto_tdiv divides them
 * (truncation, x/0 with every bit set). With dst == src1, or dst placed
 * exactly on src1, every row is still divided by the original row 0. */
PTO_API pto_status pto_tcolexpanddiv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* ------------------------------------------------------------------------ */
/* Conversion                                                                */
/* ------------------------------------------------------------------------ */

/* dst[i,j] = src[i,j] converted to dst's dtype, rounded by `mode`.
 * - The (src dtype, dst dtype) pair must be one the profile lists
 *   (PTO_ERR_UNSUPPORTED_DTYPE naming the pair and the dtypes src converts to
 *   there); src's dtype differs from dst's except FLOAT32 -> FLOAT32, which
 *   rounds to an integral value ("round-only"). A mode or sat outside its enum
 *   is PTO_ERR_INVALID_ARGUMENT; so is PTO_ROUND_ODD on any pair but FLOAT32
 *   -> FLOAT16 (after the pair).
 *   PTO_PROFILE_A2A3 (the page's A2A3 column, libpto's dtypes):
 *     FLOAT32 -> FLOAT16, FLOAT32, BFLOAT16, INT16, INT32, INT64
 *     FLOAT16 -> FLOAT32, INT32, INT16, INT8, UINT8, INT4X2
 *     BFLOAT16 -> FLOAT32, INT32;  INT16 -> FLOAT16, FLOAT32
 *     INT32 -> FLOAT32, INT16, INT64, FLOAT16;  INT64 -> FLOAT32, INT32
 *     UINT8 -> FLOAT16;  INT8 -> FLOAT16;  INT4X2 -> FLOAT16
 *   PTO_PROFILE_A5 (the A5 column):
 *     FLOAT32 -> FLOAT32, FLOAT16, BFLOAT16, INT16, INT32, INT64, FLOAT8_E4M3,
 *       FLOAT8_E5M2, HIFLOAT8
 *     FLOAT16 -> FLOAT32, INT32, INT16, INT8, UINT8, HIFLOAT8
 *     BFLOAT16 -> FLOAT32, INT32, FLOAT16, FLOAT4_E1M2X2, FLOAT4_E2M1X2
 *     FLOAT8_E4M3, FLOAT8_E5M2, HIFLOAT8 -> FLOAT32
 *     FLOAT4_E1M2X2, FLOAT4_E2M1X2 -> BFLOAT16
 *     INT16 -> UINT8, FLOAT16, FLOAT32, UINT32, INT32
 *     INT32 -> FLOAT32, INT16, UINT16, INT64, UINT8;  INT64 -> FLOAT32, INT32
 *     UINT8 -> FLOAT16, UINT16
 *     INT8 -> FLOAT16, INT16, INT32;  UINT32 -> UINT8, UINT16, INT16
 *   PTO_PROFILE_HOST: the union of the two.
 * - A pair with a packed side (FLOAT4_*X2, INT4X2): the packed tile's valid
 *   cols count bytes, two values each, so the other's valid cols are twice
 *   as many, or under HOST and A5 an odd count n with ceil(n / 2) bytes,
 *   and the valid rows equal (PTO_ERR_SHAPE_MISMATCH). With an odd n (A5's
 *   TCVT and its ST goldens): unpacking converts n values, the last byte's
 *   high nibble unread; packing writes the (n - 1) / 2 whole bytes from the
 *   first n - 1 values, src's last value unread and the last valid byte of
 *   dst left as it was. A2A3 asks twice the bytes. src and dst
 *   share no byte of their valid regions (PTO_ERR_ALIASING: no in-place
 *   form); a NaN in src converted to an FP4 type, which has none, is
 *   PTO_ERR_OUT_OF_RANGE naming its (row, col), nothing written. These
 *   replace the in-place and region rules below.
 * - tmp may be NULL (libpto needs no scratch); if given it must be a handle
 *   distinct from dst and src (PTO_ERR_ALIASING), may have any dtype and
 *   shape, and is neither read nor written.
 * - In place (since 0.6 across element sizes): src and dst may start at the
 *   same byte when dst's elements are no wider than src's and dst's rows no
 *   longer in bytes (narrowing FLOAT32 -> BFLOAT16, FLOAT16 -> INT8, ...);
 *   the result is the one on separate storage, src's elements under dst's
 *   are overwritten and its other bytes kept. Otherwise src may share bytes
 *   with dst only in row order (the common rules). Widening in place,
 *   longer dst rows at src's start, and any other sharing of a byte are
 *   PTO_ERR_ALIASING, each with its sentence; under PTO_PROFILE_A2A3 also a
 *   conversion in place whose later dst rows' whole 256-byte repeats cover
 *   an earlier source row's remaining columns. src's valid region equals
 *   dst's (PTO_ERR_SHAPE_MISMATCH).
 * - Every result is the exact value rounded once in dst's dtype by the mode
 *   (correctly rounded, the same bits on every SIMD target and profile but
 *   for the SAT_OFF rule below). PTO_ROUND_NONE is TRUNC for a float ->
 *   integer pair and RINT for every other. Widening pairs are exact in every
 *   mode (ODD refused). NaN stays NaN (sign and leading payload bits kept,
 *   quiet); infinities stay infinite; zeros keep their sign in float dtypes.
 * - Float results beyond the largest finite value: PTO_SAT_OFF follows IEEE
 *   754 overflow for the mode (RINT, ROUND, and FLOOR below / CEIL above
 *   zero give infinity; TRUNC, ODD, FLOOR above / CEIL below zero give the
 *   largest finite value); PTO_SAT_ON gives the largest finite value of the
 *   sign (an infinite src stays infinite).
 * - Integer results: the value rounded to an integer by the mode; out of
 *   range with PTO_SAT_ON: the nearest bound, NaN -> 0. PTO_SAT_OFF: an
 *   integer src keeps the low bits (modulo 2^bits) in every profile; a float
 *   src saturates (NaN -> 0) under HOST; under A2A3 and A5 FLOAT32 -> INT16,
 *   FLOAT16 -> INT16, INT8 and UINT8 go through INT32 as the NPU does
 *   (saturated to INT32, NaN -> 0, then the low bits kept), every other
 *   float -> integer pair saturates.
 * - The low-precision dtypes (encodings at pto_dtype): FP8 and FP4 round and
 *   overflow as above, except where the format lacks an infinity: FLOAT8_E4M3
 *   gives its NaN where the rule above says infinity (an infinite src too)
 *   unless saturating, the FP4 types their largest finite value always.
 *   HIFLOAT8 rounds at the precision of the value's exponent (RINT's tie
 *   goes to the even code), has no -0 (a zero result is 0x00) and a NaN
 *   becomes 0x80. A NaN of FP8 or HIFLOAT8 becomes FLOAT32's quiet NaN of
 *   its sign. INT4X2 results saturate to -8..7 (NaN -> 0) in every mode.
 *   Under PTO_PROFILE_A5, FLOAT32 -> FLOAT8_E4M3 and FLOAT8_E5M2 round as
 *   PTO_ROUND_RINT and FLOAT32, FLOAT16 -> HIFLOAT8 as PTO_ROUND_ROUND
 *   whatever the mode (A5's implementation fixes them). */
PTO_API pto_status pto_tcvt(pto_tile *dst, const pto_tile *src, pto_tile *tmp, pto_round_mode mode,
                            pto_saturation sat);

/* TPACK: dst(i, j) = src(i, j) over the valid region, an integer in another
 * integer dtype: narrower, its low bytes (the value modulo 2^bits of dst,
 * read in dst's signedness); wider, the value itself (sign-extended from a
 * signed src, zero-extended from an unsigned one); the same size, the bits.
 * Exact, the same bits on every SIMD target and profile. pto-isa's A5
 * implementation stores each source element's low bytes (its packing
 * stores), its CPU model converts each element as C++'s static_cast, and on
 * integers the two agree; PTOAS verifies it for A5 only. Elements outside
 * dst's valid region are not written. Rules, checked in this order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - Not under PTO_PROFILE_A2A3 (pto-isa has no A2A3 implementation; PTOAS
 *   refuses it for A2A3 targets): PTO_ERR_UNSUPPORTED_DTYPE.
 * - No float dtype on either side (PTO_ERR_UNSUPPORTED_DTYPE): A5 keeps the
 *   low bytes of a float's bit pattern, the CPU model converts its value;
 *   the definitions differ, so neither is chosen.
 * - dst's and src's dtypes: under PTO_PROFILE_HOST any pair of INT8, UINT8,
 *   INT16, UINT16, INT32, UINT32, INT64, UINT64 (narrowing, widening or the
 *   same size, as the CPU model); under PTO_PROFILE_A5 element sizes 4 -> 2,
 *   4 -> 1 or 2 -> 1 bytes (dst INT16, UINT16, INT8 or UINT8; src INT32,
 *   UINT32, INT16 or UINT16; signedness free on both sides):
 *   PTO_ERR_UNSUPPORTED_DTYPE.
 * - Placement as pto_tcvt's: in place at the same start address when dst's
 *   elements are no wider than src's and dst's rows no longer in bytes (the
 *   result is the one on separate storage), else src may share bytes with
 *   dst only in row order; widening in place and every other sharing of a
 *   byte are PTO_ERR_ALIASING.
 * - src's valid region equals dst's (PTO_ERR_SHAPE_MISMATCH).
 * In programs: `pto.tpack ins(%src : S) outs(%dst : D)` (PTOAS's form). */
PTO_API pto_status pto_tpack(pto_tile *dst, const pto_tile *src);

/* ------------------------------------------------------------------------ */
/* Compare and select                                                        */
/* ------------------------------------------------------------------------ */
/*
 * A mask is a UINT8 tile holding one bit per element of the tile compared:
 * byte k of mask row i holds columns 8k..8k+7 of row i, the least
 * significant bit first (the pages' packed predicate layout). For a compared
 * valid region R x C the mask's valid region is R x ceil(C / 8). A compare
 * writes every byte of that region; the bits of columns C and beyond in each
 * row's last byte are written as 0 (the NPU implementations write whole
 * vectors' worth of bits there; libpto writes nothing outside the mask's
 * valid region and gives those bits one defined value). A select reads the
 * bits of the columns it computes and no other.
 * Rules, checked in this order: every tile but tmp not NULL
 * (PTO_ERR_NULL_ARGUMENT); mode within pto_cmp_mode (PTO_ERR_INVALID_ARGUMENT);
 * the compared dtype accepted under the calling thread's profile, then the
 * mask's dtype UINT8 (PTO_ERR_UNSUPPORTED_DTYPE); sources of one dtype
 * (PTO_ERR_DTYPE_MISMATCH); the scalar a value of the dtype (an integer in
 * range for an integer dtype; PTO_ERR_INVALID_ARGUMENT; float dtypes round
 * it to nearest even, NaN and infinities allowed); valid regions
 * (PTO_ERR_SHAPE_MISMATCH); storage (PTO_ERR_ALIASING). Results are exact
 * and the same bits on every SIMD target and profile.
 */

/* mask[i, j] = src0[i,j] `mode` src1[i,j] over src0's valid region R x C
 * (the page's iteration domain), packed as above.
 * - src1's dtype and valid region equal src0's; mask (dst) is UINT8 with
 *   valid region R x ceil(C / 8) and shares no byte of its valid elements
 *   with either source's (PTO_ERR_ALIASING).
 * - HOST: all nine dtypes, INT64, UINT64.
 *   PTO_PROFILE_A2A3: INT32, FLOAT16, FLOAT32, and INT32 with PTO_CMP_EQ or
 *   PTO_CMP_NE only (the implementation compares INT32 for equality whatever
 *   the mode and inverts it for NE; LT, GT, GE, LE are
 *   PTO_ERR_UNSUPPORTED_DTYPE naming the mode).
 *   PTO_PROFILE_A5: UINT32, INT32, INT64, UINT64, FLOAT32, INT16, UINT16,
 *   FLOAT16, UINT8, INT8, BFLOAT16. */
PTO_API pto_status pto_tcmp(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                            pto_cmp_mode mode);

/* mask[i, j] = src[i,j] `mode` scalar over src's valid region R x C (the
 * page's scalar form; the scalar converted to src's dtype first).
 * - mask (dst) as pto_tcmp's.
 * - HOST: all nine dtypes, INT64, UINT64.
 *   PTO_PROFILE_A2A3: INT32, FLOAT32, FLOAT16, UINT16, INT16 (INT32 with
 *   PTO_CMP_EQ or PTO_CMP_NE only, as pto_tcmp).
 *   PTO_PROFILE_A5: INT32, UINT32, INT64, UINT64, FLOAT32, INT16, UINT16,
 *   FLOAT16, UINT8, INT8, BFLOAT16. */
PTO_API pto_status pto_tcmps(pto_tile *dst, const pto_tile *src, double scalar,
                             pto_cmp_mode mode);

/* dst[i,j] = mask bit (i, j) ? src0[i,j] : src1[i,j] over dst's valid region
 * R x C; every element's bits are copied unchanged (NaN payloads included).
 * - src0's and src1's dtypes equal dst's, their valid regions dst's; mask is
 *   UINT8 with at least R valid rows and ceil(C / 8) valid columns.
 * - src0 and src1 may be dst itself or placed exactly on it (in place), or
 *   share no byte with its valid elements; mask shares no byte of its valid
 *   elements with dst's (PTO_ERR_ALIASING).
 * - tmp: under HOST and A5 it may be NULL and is not looked at. Under A2A3
 *   (whose implementation keeps each row's mask in it) it is required
 *   (PTO_ERR_NULL_ARGUMENT), UINT32 (PTO_ERR_UNSUPPORTED_DTYPE) with at least
 *   4 valid columns for 16-bit dtypes, 2 for 32-bit ones
 *   (PTO_ERR_SHAPE_MISMATCH), a handle distinct from every other operand
 *   (PTO_ERR_ALIASING); never read or written.
 * - HOST and PTO_PROFILE_A5: all nine dtypes, INT64, UINT64.
 *   PTO_PROFILE_A2A3: INT16, UINT16, INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32. */
PTO_API pto_status pto_tsel(pto_tile *dst, const pto_tile *mask, const pto_tile *src0,
                            const pto_tile *src1, pto_tile *tmp);

/* dst[i,j] = mask bit (i, j) ? src[i,j] : scalar over dst's valid region,
 * the scalar converted to dst's dtype; src copied bit for bit.
 * - src's dtype and valid region are dst's; mask and in place as pto_tsel.
 * - tmp: under HOST and A5 it may be NULL and is not looked at. Under A2A3
 *   (whose implementation stores the scalar in it) it is required, of dst's
 *   dtype (PTO_ERR_DTYPE_MISMATCH), with a valid element (PTO_ERR_SHAPE_MISMATCH),
 *   a handle distinct from every other operand; never read or written.
 * - HOST: all nine dtypes, INT64, UINT64.
 *   PTO_PROFILE_A2A3: INT16, UINT16, INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32.
 *   PTO_PROFILE_A5: INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64,
 *   FLOAT16, FLOAT32. */
PTO_API pto_status pto_tsels(pto_tile *dst, const pto_tile *mask, const pto_tile *src,
                             pto_tile *tmp, double scalar);

/* ------------------------------------------------------------------------ */
/* Element access                                                            */
/* ------------------------------------------------------------------------ */

/* TEXTRACT (its Vec -> Vec form): over dst's valid region, dst[i,j] =
 * src[index_row + i, index_col + j], bits unchanged: the sub-tile of src
 * whose top left element is (index_row, index_col). Rules, checked in this
 * order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - all nine dtypes on every profile (the page's Vec -> Vec list), and
 *   under HOST and A5 also FLOAT8_E4M3, FLOAT8_E5M2, HIFLOAT8, FLOAT8_E8M0,
 *   FLOAT4_E2M1X2 and FLOAT4_E1M2X2 (A5's Vec -> Vec implementation and ST
 *   take them, TExtract.hpp), moved as bytes: a packed tile's cols, valid
 *   cols and index_col count bytes of two values (PTO_ERR_UNSUPPORTED_DTYPE
 *   otherwise); src's equal to dst's (PTO_ERR_DTYPE_MISMATCH).
 * - src shares no byte of its valid elements with dst's (PTO_ERR_ALIASING).
 * - A2A3 and A5: dst rows and cols at most src's; A2A3: src and dst rows
 *   multiples of 32 bytes, and a 1-byte dst's valid cols even unless its
 *   valid region is 1x1; A5, a packed FP4 dst whose valid region is not
 *   1x1: src cols, dst cols and dst valid cols multiples of 32 bytes (A5's
 *   byte copy) (PTO_ERR_SHAPE_MISMATCH, naming the profile).
 * - the window: index_row + dst valid rows <= src valid rows and index_col
 *   + dst valid cols <= src valid cols; A5 also index_row + dst rows <=
 *   src rows and index_col + dst cols <= src cols (the page's bound; not
 *   for a 1x1 dst valid region, whose scalar copy bounds the index only;
 *   A2A3's ND Vec -> Vec copy bounds the valid window only, as its ST
 *   cases need); A2A3, and A5 for a packed FP4 dst: index_col a multiple of 32
 *   bytes unless dst's valid region is 1x1 (PTO_ERR_OUT_OF_RANGE).
 * Its cube form (a cube tile on either side, "Cube tiles"; the page's Mat ->
 * Left/Right): dst, a left or right tile, gets the window of src, a mat
 * tile, each element at its (row, column) whatever the two layouts, bits
 * unchanged. Rules, in this order: NULL handles (PTO_ERR_NULL_ARGUMENT);
 * src a mat tile and dst a left or right one (PTO_ERR_INVALID_ARGUMENT);
 * under A2A3 and A5 dst laid out as the matrix multiply takes it (left ZZ
 * under A2A3, NZ under A5; right ZN) and src NZ or ZN (a transposed
 * operand) (PTO_ERR_INVALID_ARGUMENT); src's dtype equal to dst's
 * (PTO_ERR_DTYPE_MISMATCH); INT8, FLOAT16, BFLOAT16, FLOAT32, and under
 * HOST and A5 also FLOAT8_E4M3, FLOAT8_E5M2, HIFLOAT8, FLOAT8_E8M0,
 * FLOAT4_E2M1X2, FLOAT4_E1M2X2 (A5's TExtract.hpp; PTO_ERR_UNSUPPORTED_DTYPE);
 * dst and src not the same handle (PTO_ERR_ALIASING); index_row + dst
 * valid rows <= src valid rows and index_col + dst valid cols <= src valid
 * cols (PTO_ERR_OUT_OF_RANGE).
 * Its vec NZ form (the NZ Vec -> Vec and ND -> 2xNZ forms of A5's and
 * A2A3's TExtract.hpp; one destination a call): dst, a vec NZ tile, gets
 * the window of src, a vec NZ or ND tile, each element at its (row,
 * column) whatever the two layouts, bits unchanged. Rules, in this order:
 * NULL handles (PTO_ERR_NULL_ARGUMENT); a vec ZN, or NZ into ND, window is
 * no extract (PTO_ERR_INVALID_ARGUMENT); src's dtype equal to dst's
 * (PTO_ERR_DTYPE_MISMATCH); A5: FLOAT16, BFLOAT16, FLOAT32, INT32, INT8,
 * HIFLOAT8, FLOAT8_E4M3, FLOAT8_E5M2, FLOAT8_E8M0, FLOAT4_E2M1X2,
 * FLOAT4_E1M2X2 (as bytes: a packed tile's cols and index_col count
 * bytes); A2A3: the nine from NZ, INT8, FLOAT16, BFLOAT16, FLOAT32, INT32
 * from ND; HOST all of these (PTO_ERR_UNSUPPORTED_DTYPE); dst and src not
 * the same handle (PTO_ERR_ALIASING); A5: from NZ, dst cols at most src's
 * and, unless dst's valid region is 1x1, dst valid cols a multiple of 32
 * bytes (its copy moves whole 32-byte column blocks); A2A3 and A5: from
 * ND, src cols a multiple of 32 bytes (PTO_ERR_SHAPE_MISMATCH); the window
 * inside src's valid region as above; from NZ, unless dst's valid region
 * is 1x1: A5, index_col a multiple of 32 bytes; A2A3, index_row a multiple
 * of 16 and index_col of 32 bytes (a whole box) (PTO_ERR_OUT_OF_RANGE).
 * HOST takes every window. */
PTO_API pto_status pto_textract(pto_tile *dst, const pto_tile *src, size_t index_row,
                                size_t index_col);

/* TINSERT (its Vec -> Vec form, TEXTRACT's inverse): over src's valid region
 * R x C, dst[index_row + i, index_col + j] = src[i,j], bits unchanged; the
 * rest of dst is left as it was. The forms from the acc memory (acc -> mat,
 * acc -> vec with its relu and quantisation) and vec ND -> mat are not
 * provided (such a call is refused with PTO_ERR_INVALID_ARGUMENT naming the
 * tiles, and a program's naming the form); the vec NZ and ZN forms are
 * below. Rules of the row-major form, checked in this order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: HOST all nine, INT64, UINT64 and A5's low-precision
 *   types; A2A3 all nine (its Vec -> Vec path,
 *   common/arch/memory/tinsert_common.hpp); A5 FLOAT16, BFLOAT16, FLOAT32,
 *   INT32, INT8, FLOAT8_E4M3, FLOAT8_E5M2, HIFLOAT8, FLOAT8_E8M0,
 *   FLOAT4_E2M1X2, FLOAT4_E1M2X2 (the page's Vec -> Vec list), the
 *   low-precision ones moved as bytes: a packed tile's cols, valid cols and
 *   index_col count bytes of two values (PTO_ERR_UNSUPPORTED_DTYPE); src's
 *   equal to dst's (PTO_ERR_DTYPE_MISMATCH).
 * - src shares no byte of its valid elements with dst's (PTO_ERR_ALIASING).
 * - A2A3 and A5: src rows and cols at most dst's; a 1-byte src's valid cols
 *   even unless its valid region is 1x1; A2A3: src and dst rows multiples of
 *   32 bytes (PTO_ERR_SHAPE_MISMATCH, naming the profile).
 * - the window: index_row + src valid rows <= dst valid rows and index_col +
 *   src valid cols <= dst valid cols (pto-isa's CPU model's bound); A2A3:
 *   index_col a multiple of 32 bytes unless src's valid region is 1x1
 *   (PTO_ERR_OUT_OF_RANGE).
 * Its vec NZ and ZN forms (A5's TInsert.hpp: vec NZ into a mat or vec NZ
 * tile, vec ZN into a mat ZN tile; "Cube tiles"): src's valid region,
 * each element (i, j) written at (index_row + i, index_col + j) of dst
 * whatever the layouts, bits unchanged, the rest of dst as it was. Rules,
 * in this order, after NULL handles (PTO_ERR_NULL_ARGUMENT): any other pair
 * of a vec NZ or ZN tile or a cube tile, and under A2A3 any but vec NZ into
 * vec NZ (A2A3's tinsert_common.hpp) (PTO_ERR_INVALID_ARGUMENT); src's
 * dtype equal to dst's (PTO_ERR_DTYPE_MISMATCH); A5 the eleven of the vec
 * NZ form of pto_textract, A2A3 the nine, HOST both
 * (PTO_ERR_UNSUPPORTED_DTYPE); dst and src not the same handle
 * (PTO_ERR_ALIASING); A5, whose copies move whole 32-byte lines of boxes:
 * into a vec NZ tile src cols at most dst's; NZ, src valid cols a multiple
 * of 32 bytes; ZN, src valid rows a multiple of 32 bytes; A2A3: src rows
 * and cols at most dst's, a 1-byte src's valid cols even unless its valid
 * region is 1x1 (PTO_ERR_SHAPE_MISMATCH); A5: NZ, index_col a multiple of
 * 32 bytes; ZN, index_row a multiple of 32 bytes; A2A3, unless src's valid
 * region is 1x1: index_row a multiple of 16 and index_col of 32 bytes;
 * every profile: src's valid region inside dst's valid region at
 * (index_row, index_col) (PTO_ERR_OUT_OF_RANGE). */
PTO_API pto_status pto_tinsert(pto_tile *dst, const pto_tile *src, size_t index_row,
                               size_t index_col);

/* TGATHER (its index form): over dst's valid region, dst[i,j] = the element
 * of src at flat offset indices[i,j], that is src[k / src cols, k % src
 * cols] for k = indices[i,j] (offsets from src's first element, as the NPU
 * implementations take them), bits unchanged. tmp: the page's A2A3 scratch,
 * never read or written. Rules, checked in this order:
 * - dst, src, indices not NULL; A2A3: tmp not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: all nine, INT64, UINT64, FLOAT8_E4M3, FLOAT8_E5M2 and
 *   HIFLOAT8 (as bytes; A5's TGather.hpp) under HOST and A5, the 2- and
 *   4-byte ones under A2A3; src's equal to dst's (PTO_ERR_DTYPE_MISMATCH);
 *   indices INT16, UINT16, INT32, UINT32 (A2A3: INT32, UINT32)
 *   (PTO_ERR_UNSUPPORTED_DTYPE); 8-byte data by 4-byte indices only
 *   (PTO_ERR_DTYPE_MISMATCH);
 *   A2A3: tmp's equal to indices' (PTO_ERR_DTYPE_MISMATCH).
 * - tmp, when given, none of the other handles; src and indices share no
 *   byte of their valid elements with dst's (PTO_ERR_ALIASING).
 * - indices' valid region is dst's; A2A3 and A5: dst valid cols == dst cols;
 *   A2A3: tmp rows x cols are indices' valid region; A5: indices valid cols
 *   == indices cols (PTO_ERR_SHAPE_MISMATCH).
 * - every index names an element of src's valid region: 0 <= k, k / src cols
 *   < src valid rows and k % src cols < src valid cols (PTO_ERR_OUT_OF_RANGE,
 *   naming the first (i, j) in row order that does not; in board mode under
 *   A2A3 and A5, an element of src's rows x cols, with a warning). The indices are
 *   read once to check them all before anything is written, so a refused
 *   call writes nothing. The mask-pattern form is pto_tgather_mask; the
 *   compare form pto_tgather_cmp. */
PTO_API pto_status pto_tgather(pto_tile *dst, const pto_tile *src, const pto_tile *indices,
                               pto_tile *tmp);

/* TGATHER, its mask-pattern form (the page's TGATHER<Dst, Src, MaskPattern,
 * GatherAxis>), bits unchanged. PTO_GATHER_ROW: the columns of each valid
 * row of src that pattern keeps (pto_mask_pattern; column c of a row counts
 * from 0 at the row's start), packed one after another, row after row, into
 * dst's storage read as one sequence in row order from dst's first element:
 * src valid rows x n elements, n the kept columns among src's valid cols (n
 * = src valid cols for P1111, ceil(cols / 2) for P0101, ceil((cols - 1) /
 * 2) for P1010, ceil((cols - k) / 4) for the k-th of every four), as the
 * NPUs' vreduce and pto-isa's CPU model pack them. PTO_GATHER_COL: the valid
 * rows of src whose row number the pattern keeps, in order, as dst's rows
 * (src valid cols of each). The rest of dst is left as it was. Rules,
 * checked in this order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: HOST and A5 INT8, UINT8, INT16, UINT16, INT32, UINT32,
 *   INT64, UINT64, FLOAT16, BFLOAT16, FLOAT32, FLOAT8_E4M3, FLOAT8_E5M2,
 *   HIFLOAT8 (as bytes; A5's TGather.hpp); A2A3 the 2- and 4-byte ones
 *   (PTO_ERR_UNSUPPORTED_DTYPE); src one of the same list, of dst's element
 *   size (PTO_ERR_DTYPE_MISMATCH).
 * - pattern and axis values of their enums (PTO_ERR_INVALID_ARGUMENT).
 * - src shares no byte of its valid elements with dst (PTO_ERR_ALIASING).
 * - PTO_GATHER_ROW: dst valid cols == dst cols (the implementations'
 *   contiguous dst); the packed elements fit in dst's valid rows x cols.
 *   PTO_GATHER_COL: dst valid rows are the kept rows' count and dst valid
 *   cols src's; A2A3 and A5: src valid rows a multiple of the pattern's
 *   group (2 or 4) (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tgather_mask(pto_tile *dst, const pto_tile *src, pto_mask_pattern pattern,
                                    pto_gather_axis axis);

/* TGATHER, its compare form (the page's TGather_cmp, TGATHER<Dst, Src, K,
 * CDst, Tmp, CmpMode>(dst, src, k_value, cdst, tmp, offset)): for each valid
 * row i of src, the positions j < src valid cols whose element compares true
 * with row i's threshold (mode PTO_CMP_GT: src[i,j] > threshold; PTO_CMP_EQ:
 * src[i,j] == threshold; a NaN compares false, -0 equals +0), in increasing
 * j, written as indices to dst[i,0], dst[i,1], ...; their count to
 * cdst[i,0]. The rest of dst is left as it was. Index of (i, j), modulo
 * 2^32: HOST and A2A3 offset + i x src cols + j (src's flat element offset,
 * as A2A3's index table and pto-isa's goldens count); A5 offset + i x 64 x
 * ceil(src valid cols / 64) + j (A5's index vector runs on by 64 per
 * 64-lane repeat, across rows). Row i's threshold is k_value[i,0]: HOST and
 * A5 its exact value (signed or unsigned by its dtype), compared exactly
 * with src's values; A2A3 its bits read as a signed integer of its width
 * and converted to src's dtype (to nearest even), as A2A3's vconv does,
 * then compared in src's dtype. tmp: the page's scratch, never read or
 * written. Rules, checked in this order:
 * - dst, src, k_value, cdst not NULL; A2A3: tmp not NULL
 *   (PTO_ERR_NULL_ARGUMENT).
 * - src's dtype: HOST and A5 INT16, UINT16, INT32, UINT32, FLOAT16, FLOAT32;
 *   A2A3 FLOAT32, FLOAT16, INT32 (PTO_ERR_UNSUPPORTED_DTYPE); dst INT32 or
 *   UINT32 (PTO_ERR_UNSUPPORTED_DTYPE), cdst's dtype dst's
 *   (PTO_ERR_DTYPE_MISMATCH); k_value HOST INT16, UINT16, INT32, UINT32, A5
 *   UINT16, UINT32, A2A3 INT32, UINT32 under a 4-byte src and INT16, UINT16
 *   under FLOAT16 (the 16-bit k A2A3's vconv_s162f16 reads)
 *   (PTO_ERR_UNSUPPORTED_DTYPE).
 * - mode PTO_CMP_EQ or PTO_CMP_GT; A2A3: INT32 src with PTO_CMP_EQ only;
 *   offset at most UINT32_MAX (PTO_ERR_INVALID_ARGUMENT).
 * - dst, cdst and tmp (when given) each distinct from every other handle;
 *   src and k_value share no byte of their valid elements with dst's or
 *   cdst's, nor dst with cdst (PTO_ERR_ALIASING).
 * - k_value's and cdst's valid regions cover src valid rows x 1, dst's src
 *   valid rows x at least one column; A2A3: tmp's bytes (rows x cols x
 *   element size) at least the page's scratch, R x (ceil(C / 8) rounded up
 *   to 32) + R x C x 4 + R x size of src's element for src's R rows and C
 *   cols (the compare bitmap, the index table, the converted thresholds)
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - every row's count fits dst's valid cols (PTO_ERR_OUT_OF_RANGE, naming
 *   the first row that does not): src is compared once to check them all
 *   before anything is written, so a refused call writes nothing. */
PTO_API pto_status pto_tgather_cmp(pto_tile *dst, const pto_tile *src, const pto_tile *k_value,
                                   const pto_tile *tmp, pto_tile *cdst, pto_cmp_mode mode,
                                   size_t offset);

/* TGATHERB: dst's valid rows gathered in 32-byte blocks by byte offsets:
 * block k of dst row i (its bytes [32k, 32k + 32) from the row's start) is
 * the 32 bytes of src's storage from byte offset offsets[i,k] on (src's
 * rows x cols read as bytes in row order from its first element), bits
 * unchanged: with b = 32 / dst's element size, dst[i, k*b .. k*b + b - 1]
 * = those bytes (the page's dst[i,j] = *(srcBase + offset[i,j]), one
 * offset per block as vgatherb and pto-isa's CPU model take them). Under A5
 * a row's last block may be cut short at dst's valid cols; only dst's valid
 * region is written. Rules, checked in this order:
 * - dst, src, offsets not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's and src's dtypes (which may differ): all nine on every profile,
 *   INT64 and UINT64 under HOST (PTO_ERR_UNSUPPORTED_DTYPE); offsets INT32
 *   or UINT32, each read as a uint32 (PTO_ERR_UNSUPPORTED_DTYPE).
 * - src's rows x cols and offsets' valid elements share no byte with dst's
 *   valid elements (PTO_ERR_ALIASING).
 * - HOST and A2A3: dst valid cols x element size a multiple of 32 bytes;
 *   offsets' valid region at least dst's valid rows by the blocks of a row,
 *   ceil(dst valid cols x element size / 32) (PTO_ERR_SHAPE_MISMATCH).
 * - every block lies within src's rows x cols bytes: offsets[i,k] + the
 *   bytes it moves <= src rows x cols x src's element size
 *   (PTO_ERR_OUT_OF_RANGE, naming the first (i, k) in row order that does
 *   not). The offsets are read once to check them all before anything is
 *   written, so a refused call writes nothing. */
PTO_API pto_status pto_tgatherb(pto_tile *dst, const pto_tile *src, const pto_tile *offsets);

/* TSCATTER (its index form): dst's whole rows x cols are set to zero, then
 * for each (i, j) of indices' valid region in row order, src[i,j] goes to
 * dst's element at flat offset indices[i,j], that is dst[k / dst cols, k %
 * dst cols] for k = indices[i,j] (offsets from dst's first element, as the
 * NPU implementations take them), bits unchanged; where two indices name
 * one element, the later in row order wins (the page: "last writer wins").
 * Rules, checked in this order:
 * - dst, src, indices not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: all nine on every profile, INT64 and UINT64 under HOST and
 *   A5; src's equal to dst's (PTO_ERR_DTYPE_MISMATCH); indices INT16, INT32,
 *   UINT16, UINT32 (PTO_ERR_UNSUPPORTED_DTYPE); indices 4 bytes wide for 8-
 *   and 4-byte data, 2 bytes wide for 2- and 1-byte data
 *   (PTO_ERR_DTYPE_MISMATCH).
 * - src and indices share no byte of their valid elements with dst's rows x
 *   cols, which are zeroed first (PTO_ERR_ALIASING).
 * - indices' valid rows and cols at most src's (PTO_ERR_SHAPE_MISMATCH).
 * - every index names an element of dst's valid region: 0 <= k, k / dst
 *   cols < dst valid rows and k % dst cols < dst valid cols
 *   (PTO_ERR_OUT_OF_RANGE, naming the first (i, j) in row order that does
 *   not). The indices are read once to check them all before anything is
 *   written, so a refused call writes nothing. The mask-pattern form is
 *   pto_tscatter_mask. */
PTO_API pto_status pto_tscatter(pto_tile *dst, const pto_tile *src, const pto_tile *indices);

/* TSCATTER, its mask-pattern form (the page's TSCATTER<MaskPattern,
 * ScatterAxis>(dst, src); A2A3's and A5's TScatter.hpp), bits unchanged:
 * the pattern's group is 2 (P0101, P1010), 4 (P0001 .. P1000) or 1 (P1111)
 * and its lane the pattern's set bit read right to left (P1010: lane 1).
 * PTO_GATHER_ROW: dst's whole rows x cols are set to zero, then src[i,j]
 * goes to dst[i, group x j + lane]; PTO_GATHER_COL: src's row i goes to
 * dst's row group x i + lane (dst zeroed first the same way). P1111 is a
 * TMOV: src's valid region to dst's, nothing zeroed. Rules, checked in this
 * order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: all nine on every profile, INT64 and UINT64 under HOST and
 *   A5 (PTO_ERR_UNSUPPORTED_DTYPE); src's equal to dst's
 *   (PTO_ERR_DTYPE_MISMATCH).
 * - pattern and axis values of their enums (PTO_ERR_INVALID_ARGUMENT).
 * - src shares no byte of its valid elements with dst's rows x cols
 *   (PTO_ERR_ALIASING).
 * - PTO_GATHER_ROW: dst valid rows == src's and dst valid cols == src's
 *   times the group; PTO_GATHER_COL: dst valid rows == src's times the
 *   group and dst valid cols == src's (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tscatter_mask(pto_tile *dst, const pto_tile *src, pto_mask_pattern pattern,
                                     pto_gather_axis axis);

/* TSETVAL / TGETVAL: one element of a tile as a scalar, at a flat offset
 * index = row * cols + col (pto-isa's Tile::SetValue / GetValue, PTOAS's
 * tsetval / tgetval "linear element offset"). The element must be one of
 * the tile's valid region: index / cols < valid rows and index % cols <
 * valid cols (PTO_ERR_OUT_OF_RANGE); all nine dtypes on every profile. */

/* TSETVAL: dst's element at index becomes value (converted by the scalar
 * rules: an integer in range for an integer dtype, rounded to nearest even
 * for a float one); no other element is written. Rules, in order: dst not
 * NULL (PTO_ERR_NULL_ARGUMENT); dst's dtype one of the nine
 * (PTO_ERR_UNSUPPORTED_DTYPE: the 8-byte and low-precision types are
 * refused); value a value of dst's dtype
 * (PTO_ERR_INVALID_ARGUMENT); index in dst's valid region
 * (PTO_ERR_OUT_OF_RANGE). */
PTO_API pto_status pto_tsetval(pto_tile *dst, size_t index, double value);

/* TGETVAL: *out = src's element at index, exactly (every element of every
 * dtype is a double). Rules, in order: src, out not NULL
 * (PTO_ERR_NULL_ARGUMENT); src's dtype one of the nine
 * (PTO_ERR_UNSUPPORTED_DTYPE, as pto_tsetval); index in src's valid region
 * (PTO_ERR_OUT_OF_RANGE). *out is written only on success. */
PTO_API pto_status pto_tgetval(const pto_tile *src, size_t index, double *out);

/* MGATHER / MSCATTER: a tile's elements from or to global memory by index.
 * libpto has no global-memory tensor: the table is table_elements elements
 * of table_dtype at `table`, in the caller's memory, packed row-major (the
 * pages' ND GlobalTensor; in Row mode rows of the tile's valid cols
 * elements, A5's packed row stride). table_dtype must be the tile's dtype
 * (the pages: "GlobalTable::DType == __gm__ T"). The index tile holds INT32
 * (read signed) or UINT32 values:
 * - PTO_COALESCE_ROW: tile row r is table row indices[r]: indices' valid
 *   region is 1 x R or R x 1 (R the tile's valid rows; the pages' [1, R],
 *   A5's [R, 1]); a table of table_elements / C whole rows (C the tile's
 *   valid cols).
 * - PTO_COALESCE_ELEM: tile element (r, c) is table element indices[r,c]:
 *   indices' valid region is the tile's.
 * Out of range: the pages leave an index past the table undefined unless
 * an OOB mode (clamp, wrap, zero; skip for MSCATTER) is chosen; libpto
 * refuses it: every index is checked before anything is read or written
 * (PTO_ERR_OUT_OF_RANGE, naming the first (i, j) in row order and its
 * value). The OOB modes and MSCATTER's atomic modes are pto_mgather_oob's
 * and pto_mscatter_ex's.
 * Dtypes: the nine on every profile (the pages' A2/A3 and A5 lists; A5's
 * FP8 types left out). Bits are copied unchanged.
 * Rules, in order: the tile, the table or indices NULL
 * (PTO_ERR_NULL_ARGUMENT); a cube tile (PTO_ERR_INVALID_ARGUMENT); coalesce
 * not a pto_coalesce, or table_elements * element size past SIZE_MAX
 * (PTO_ERR_INVALID_ARGUMENT); the tile's dtype (PTO_ERR_UNSUPPORTED_DTYPE);
 * indices not INT32 or UINT32 (PTO_ERR_UNSUPPORTED_DTYPE); table_dtype not
 * the tile's (PTO_ERR_DTYPE_MISMATCH); the table's bytes overlapping the
 * tile's or the indices' storage, or indices sharing storage with the
 * destination tile (PTO_ERR_ALIASING); the indices' valid region
 * (PTO_ERR_SHAPE_MISMATCH); an index out of range (PTO_ERR_OUT_OF_RANGE). */

/* MGATHER: dst's valid region from the table by index (Row or Elem); the
 * rest of dst is not written. */
PTO_API pto_status pto_mgather(pto_tile *dst, const void *table, size_t table_elements,
                               pto_dtype table_dtype, const pto_tile *indices,
                               pto_coalesce coalesce);

/* MSCATTER: src's valid region into the table by index (Row or Elem); no
 * other table element is written. Conflicts (two writers of one table
 * element): the last in row-major order of the indices' valid region wins
 * (the page's deterministic Conflict::Last, "the surviving value is the
 * global largest-index writer"). */
PTO_API pto_status pto_mscatter(void *table, size_t table_elements, pto_dtype table_dtype,
                                const pto_tile *src, const pto_tile *indices,
                                pto_coalesce coalesce);

/* MGATHER with the page's GatherOOB: as pto_mgather, except that an index
 * past the table (the capacity: the table's whole rows in Row mode, its
 * elements in Elem mode) is remapped as oob says instead of refused:
 * PTO_GATHER_OOB_CLAMP reads slot capacity - 1, PTO_GATHER_OOB_WRAP slot
 * index % capacity, PTO_GATHER_OOB_ZERO writes all-zero bits to the
 * destination elements (a whole row in Row mode); PTO_GATHER_OOB_UNDEFINED
 * is pto_mgather itself (the caller's guarantee, refused when broken).
 * Under CLAMP, WRAP and ZERO an index is read as a uint32 (an INT32 -1 is
 * 4294967295, past the table), as the NPU implementations read it; with an
 * empty table (capacity 0) every index is past it: ZERO zeroes, CLAMP and
 * WRAP refuse (PTO_ERR_OUT_OF_RANGE). Every mode on every profile, every
 * dtype (the page: "All dtypes are supported under every GatherOOB value").
 * Rules: pto_mgather's, in its order, with oob not a pto_gather_oob
 * (PTO_ERR_INVALID_ARGUMENT) checked with coalesce. */
PTO_API pto_status pto_mgather_oob(pto_tile *dst, const void *table, size_t table_elements,
                                   pto_dtype table_dtype, const pto_tile *indices,
                                   pto_coalesce coalesce, pto_gather_oob oob);

/* MSCATTER with the page's ScatterAtomicOp and ScatterOOB: as pto_mscatter,
 * except:
 * - oob: an index past the table (capacity as pto_mgather_oob) is remapped
 *   instead of refused: PTO_SCATTER_OOB_SKIP writes nothing for that row or
 *   element (the table keeps its value), CLAMP writes slot capacity - 1,
 *   WRAP slot index % capacity; UNDEFINED refuses it as pto_mscatter does.
 *   Indices read as pto_mgather_oob reads them; with capacity 0 SKIP writes
 *   nothing, CLAMP and WRAP refuse (PTO_ERR_OUT_OF_RANGE).
 * - atomic: PTO_SCATTER_ATOMIC_NONE stores (the last writer in row-major
 *   order of the indices' valid region wins: A2A3's sequential kernel, A5's
 *   Conflict::Last; A5's Conflict::Default is not provided). ADD, MAX and
 *   MIN combine each source element with the table's element it names, one
 *   at a time in row-major order, so writers of one element accumulate.
 *   ADD: integers wrap modulo 2^bits; FLOAT32, FLOAT16 and BFLOAT16 add
 *   rounded once to the dtype, nearest even (table + src exactly, then
 *   rounded), so the result of several writers is that of adding them in
 *   row order; a NaN sum is the positive quiet NaN (0x7E00, 0x7FC0,
 *   0x7FC00000). MAX / MIN: by comparison: the table's element is replaced
 *   when src's is greater (MAX) or less (MIN); a NaN compares false, so a
 *   NaN source leaves the element and a NaN element stays; +0 and -0 are
 *   equal (the element stays). The NPUs' atomic units do not document NaN
 *   or the order of colliding writers; libpto's is the row order.
 * - Dtypes of the atomics, per profile (the page's "Atomic Type Support"):
 *   A2A3: ADD INT8, INT16, INT32, FLOAT16, BFLOAT16, FLOAT32 (no unsigned);
 *   MAX and MIN refused (no atomic max/min unit). A5: ADD INT32, UINT32,
 *   FLOAT32, FLOAT16, BFLOAT16; MAX and MIN INT32, UINT32, FLOAT32. HOST
 *   their union (which holds the page's CPU contract: ADD INT32, UINT32,
 *   FLOAT32, FLOAT16; MAX and MIN INT32, FLOAT32): ADD INT8, INT16, INT32,
 *   UINT32, FLOAT16, BFLOAT16, FLOAT32; MAX and MIN INT32, UINT32, FLOAT32.
 *   Another dtype: PTO_ERR_UNSUPPORTED_DTYPE. NONE takes every dtype.
 * Rules: pto_mscatter's, in its order, with atomic not a
 * pto_scatter_atomic or oob not a pto_scatter_oob (PTO_ERR_INVALID_ARGUMENT)
 * checked with coalesce, and the atomic's dtype checked after src's. A
 * refused call writes nothing. */
PTO_API pto_status pto_mscatter_ex(void *table, size_t table_elements, pto_dtype table_dtype,
                                   const pto_tile *src, const pto_tile *indices,
                                   pto_coalesce coalesce, pto_scatter_atomic atomic,
                                   pto_scatter_oob oob);

/* ------------------------------------------------------------------------ */
/* Data movement                                                             */
/* ------------------------------------------------------------------------ */

/* TFILLPAD: dst[i,j] = src[i,j] where i < src valid rows and j < src valid
 * cols, and the pad value elsewhere, over dst's WHOLE rows x cols (the
 * padding exists to give later operations a full tile; dst's valid region
 * is neither read nor changed). Bits are copied unchanged (NaN payloads
 * kept); the pad is dst's dtype's: PTO_PAD_ZERO all zero bits, PTO_PAD_MAX
 * +infinity (float dtypes) or the largest integer, PTO_PAD_MIN -infinity or
 * the smallest integer (0 for unsigned dtypes), as pto-isa's PadValueMap.
 * Rules, checked in this order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT); pad outside the enum, or
 *   PTO_PAD_NULL (the page: "PadVal != PadValue::Null" for vector tiles):
 *   PTO_ERR_INVALID_ARGUMENT.
 * - dtypes: all nine on every profile (the page: element size 1, 2 or 4
 *   bytes); src's dtype may differ from dst's if its size is the same (the
 *   page: sizeof equal; the bits are copied), else PTO_ERR_DTYPE_MISMATCH.
 * - src is dst itself or placed exactly on it (the page's TFILLPAD_INPLACE:
 *   only the padding is written), or none of src's valid elements shares a
 *   byte with dst's rows x cols elements (PTO_ERR_ALIASING).
 * - src's valid region fits in dst's shape: valid rows <= dst rows, valid
 *   cols <= dst cols (PTO_ERR_SHAPE_MISMATCH). Under PTO_PROFILE_A2A3 and
 *   PTO_PROFILE_A5 also dst rows x cols equal src's (the page and PTOAS's
 *   verifier: TFILLPAD's static shapes match; HOST accepts a larger dst as
 *   TFILLPAD_EXPAND does), PTO_ERR_SHAPE_MISMATCH naming the profile.
 * In programs the pad is dst's tile_buf `pad=` (1 zero, 2 max, 3 min). */
PTO_API pto_status pto_tfillpad(pto_tile *dst, const pto_tile *src, pto_pad_value pad);

/* TFILLPAD_INPLACE and TFILLPAD_EXPAND: pto-isa's two modes of TFILLPAD
 * (TFillPadMode::InPlace, ::Expand) as functions of their own, computing
 * exactly what pto_tfillpad computes (the same copy and pad, bit for bit)
 * with each mode's shape rule in the place of pto_tfillpad's last two:
 * - pto_tfillpad_inplace: src must be dst itself or placed exactly on it
 *   (same address, rows and cols: every implementation's static_assert of
 *   equal shapes; only the padding is written), else
 *   PTO_ERR_INVALID_ARGUMENT; then src's valid region within dst's shape
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - pto_tfillpad_expand: src apart from dst's rows x cols or placed exactly
 *   on it (PTO_ERR_ALIASING); src's valid region within dst's shape, and
 *   dst's rows and cols each at least src's on every profile (a2a3/, a5/
 *   and cpu/ TFillPad.hpp's TFILLPAD_EXPAND_IMPL: a larger dst is the
 *   mode's point; equal shapes are accepted as there)
 *   (PTO_ERR_SHAPE_MISMATCH).
 * The other rules, dtypes and the pad are pto_tfillpad's, in its order. In
 * programs: `pto.tfillpad_inplace` and `pto.tfillpad_expand` (the pages'
 * spellings; PTOAS writes both as `pto.tfillpad`, which accepts them too),
 * the pad dst's tile_buf `pad=`. */
PTO_API pto_status pto_tfillpad_inplace(pto_tile *dst, const pto_tile *src, pto_pad_value pad);
PTO_API pto_status pto_tfillpad_expand(pto_tile *dst, const pto_tile *src, pto_pad_value pad);

/* TRESHAPE: dst's rows x cols elements become src's rows x cols elements'
 * bytes, reinterpreted (a bitwise reshape: another shape and/or dtype of the
 * same total size; valid regions are neither read nor changed). The page
 * reinterprets the storage in place (A2A3: an alias of src's address) and
 * copies it on its CPU simulator; libpto copies, since an owned tile cannot
 * share its storage with a second handle. A view over the same bytes is
 * pto_tile_create_at on the buffer and offset of a placed src
 * (pto_tile_buffer, pto_tile_offset), and pto_treshape of a dst placed
 * exactly there (the same address) writes nothing. Rules, checked in this
 * order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT); any dtypes on every profile,
 *   the 8-byte integers and the low-precision types included (the page's
 *   only dtype rule is the byte size).
 * - dst and src start at the same address, or their rows x cols storages
 *   share no byte (PTO_ERR_ALIASING).
 * - rows x cols x element size equal for dst and src (the page: "Total byte
 *   size must match"; PTO_ERR_SHAPE_MISMATCH).
 * In programs the SSA forms give a new tile holding the bytes (PTOAS's
 * `%d = pto.treshape %s : S -> T`; `%d = treshape %s : T`). */
PTO_API pto_status pto_treshape(pto_tile *dst, const pto_tile *src);

/* TALIAS: dst is the original tile, alias another tile type (shape and/or
 * dtype) of its storage. pto-isa defines TALIAS for its automatic mode only:
 * it asserts TRESHAPE's rules and moves nothing, the compiler giving alias
 * the original's storage. libpto's tiles own their storage, so dst takes
 * alias's rows x cols bytes as pto_treshape(dst, alias) does (bit for bit,
 * valid regions neither read nor changed); with dst placed at alias's
 * address (pto_tile_create_at) the two share their storage and nothing is
 * written. Rules, checked in this order (pto_treshape's):
 * - dst, alias not NULL (PTO_ERR_NULL_ARGUMENT); any dtype on every profile,
 *   the 8-byte integers and the low-precision types included.
 * - dst and alias start at the same address, or their rows x cols storages
 *   share no byte (PTO_ERR_ALIASING).
 * - rows x cols x element size equal for dst and alias (pto-isa's "total
 *   byte size must match"; PTO_ERR_SHAPE_MISMATCH).
 * In programs: `pto.talias ins(%alias : S) outs(%original : D)` (the page's
 * DPS form; PTOAS has no talias). */
PTO_API pto_status pto_talias(pto_tile *dst, const pto_tile *alias);

/* TTRANS: dst[j,i] = src[i,j] for (i, j) in src's valid region (the page:
 * "The transpose size is taken from `src.GetValidRow()` /
 * `src.GetValidCol()`"), bits unchanged. Rules, checked in this order:
 * - dst, src, tmp not NULL (PTO_ERR_NULL_ARGUMENT: the page's C++ API
 *   requires tmp; libpto neither reads nor writes it, any dtype and shape).
 * - dtypes: all nine on every profile, and under PTO_PROFILE_HOST and
 *   PTO_PROFILE_A5 the 8-bit low-precision types FLOAT8_E4M3, FLOAT8_E5M2,
 *   HIFLOAT8 and FLOAT8_E8M0 as bytes (the page lists the nine; A5's
 *   implementation checks the element size only and its ST transposes
 *   these types, as does the CPU model): PTO_ERR_UNSUPPORTED_DTYPE for
 *   dst's or src's dtype outside the profile's list; src's dtype may differ
 *   from dst's if its size is the same (the page: sizeof equal), else
 *   PTO_ERR_DTYPE_MISMATCH.
 * - tmp a handle distinct from dst and src; src's valid elements share no
 *   byte with dst's (a transpose cannot run in place): PTO_ERR_ALIASING.
 * - dst's valid region is src's transposed: valid rows = src valid cols,
 *   valid cols = src valid rows (PTO_ERR_SHAPE_MISMATCH).
 * - PTO_PROFILE_A5: cols x element size a multiple of 32 bytes for src and
 *   dst (the page's A5 alignment), PTO_ERR_SHAPE_MISMATCH naming A5. */
PTO_API pto_status pto_ttrans(pto_tile *dst, const pto_tile *src, pto_tile *tmp);

/* TCONCAT (its basic form): over dst's valid region, dst[i,j] = src0[i,j]
 * for j < src0 valid cols and src1[i, j - src0 valid cols] after it, bits
 * unchanged. Rules, checked in this order:
 * - dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - all nine dtypes on every profile (the page's list); src0's and src1's
 *   equal dst's (PTO_ERR_DTYPE_MISMATCH).
 * - src0 is dst itself, placed exactly on it, or shares no byte with dst's
 *   valid elements; src1 shares none (PTO_ERR_ALIASING).
 * - src0's and src1's valid rows equal dst's, and dst's valid cols are
 *   src0's plus src1's (PTO_ERR_SHAPE_MISMATCH): the page's A5 rule, in
 *   every profile (A2A3's implementation only bounds the sum by dst's cols,
 *   which would write past dst's valid region). The indexed forms (per-row
 *   column counts from index tiles) are not provided. */
PTO_API pto_status pto_tconcat(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* TCONCATIDX (PTOAS's pto.tconcatidx): row i of dst gets the first n0 =
 * src0_idx[i,0] columns of src0's row i, then the first n1 = src1_idx[i,0]
 * columns of src1's row i, bit for bit: n0 at most src0's and dst's valid
 * cols, n1 at most src1's valid cols and dst's valid cols - n0, a negative
 * count copying nothing. The rest of dst's row keeps its values. Under
 * PTO_PROFILE_A2A3 and PTO_PROFILE_A5 (since 0.6) n0 and n1 are the index
 * elements divided by the index dtype's size (byte counts, truncated), as
 * those implementations read them. Rules, checked in this order:
 * - the five tiles not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst INT8, INT16, INT32, FLOAT16, FLOAT32 or BFLOAT16 on every profile
 *   (PTO_ERR_UNSUPPORTED_DTYPE); src0 and src1 of dst's dtype
 *   (PTO_ERR_DTYPE_MISMATCH); src0_idx INT8, INT16 or INT32
 *   (PTO_ERR_UNSUPPORTED_DTYPE), src1_idx of its dtype
 *   (PTO_ERR_DTYPE_MISMATCH).
 * - src0 is dst itself (placed exactly on it) or shares no byte with it;
 *   src1 and the index tiles share none with dst (PTO_ERR_ALIASING).
 * - every source's valid rows equal dst's, and each index tile has at least
 *   one valid column (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tconcatidx(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                  const pto_tile *src0_idx, const pto_tile *src1_idx);

/* TINTERLEAVE, TDEINTERLEAVE (its two-source form): two destinations, dst
 * (the pages' dst0) and dst1, bits unchanged. Over the common valid region R
 * x C (C even), row i's stream of 2C elements:
 * - pto_tinterleave: src0[i,0], src1[i,0], src0[i,1], src1[i,1], ...; its
 *   first C elements are dst's row i, its last C dst1's (dst[i,2k] =
 *   src0[i,k], dst[i,2k+1] = src1[i,k], dst1[i,2k] = src0[i,C/2+k],
 *   dst1[i,2k+1] = src1[i,C/2+k] for k < C/2).
 * - pto_tdeinterleave: src0's row i then src1's; its even elements are dst's
 *   row i, its odd ones dst1's (dst[i,k] = src0[i,2k], dst1[i,k] =
 *   src0[i,2k+1], dst[i,C/2+k] = src1[i,2k], dst1[i,C/2+k] = src1[i,2k+1]).
 *   The single-source form is pto_tdeinterleave_single.
 * Rules, checked in this order:
 * - dst, src0, src1, dst1 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst's dtype: HOST and A5 all nine; A2A3 none (pto-isa implements them on
 *   A5 and in its CPU model only) (PTO_ERR_UNSUPPORTED_DTYPE); src0's,
 *   src1's and dst1's dtypes dst's (PTO_ERR_DTYPE_MISMATCH).
 * - dst1 shares no storage with dst, nor src0 or src1 with dst or dst1
 *   (handles, placements, bytes of the valid elements) (PTO_ERR_ALIASING).
 * - src0's, src1's and dst1's valid regions are dst's; its valid cols even
 *   (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tinterleave(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                   pto_tile *dst1);
PTO_API pto_status pto_tdeinterleave(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                     pto_tile *dst1);

/* TDEINTERLEAVE, its single-source form: src's row i is the stream: dst[i,k]
 * = src[i,2k], dst1[i,k] = src[i,2k+1] over dst's valid region R x C.
 * pto_tdeinterleave's rules with one source, in its order: dst, src, dst1
 * not NULL; dtypes as pto_tdeinterleave's; dst1 apart from dst, src apart
 * from both; dst1's valid region dst's, src's R x 2C
 * (PTO_ERR_SHAPE_MISMATCH). Programs spell it pto.tdeinterleave with one
 * source. */
PTO_API pto_status pto_tdeinterleave_single(pto_tile *dst, const pto_tile *src, pto_tile *dst1);

/* ------------------------------------------------------------------------ */
/* Sorting                                                                   */
/* ------------------------------------------------------------------------ */

/* TSORT32: for each valid row of src, each block of 32 columns (the last may
 * be shorter) is sorted with its indices: the (value, index) pairs, index
 * from idx at the same row and column, in descending order of value, equal
 * values by the smaller index, NaN before every number (the page leaves
 * NaN's place open); +0 and -0 are equal. dst's row holds the pairs in
 * order, 8 bytes each: the value's bits (a 2-byte value followed by two zero
 * bytes), then the index as a uint32; block b's pairs start at byte 256 b
 * of the row. Rules, checked in this order:
 * - dst, src, idx not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 under A2A3 and A5; HOST adds INT16, INT32 and
 *   BFLOAT16 (pto-isa's CPU model) (PTO_ERR_UNSUPPORTED_DTYPE); src of dst's
 *   dtype (PTO_ERR_DTYPE_MISMATCH); idx UINT32 (PTO_ERR_UNSUPPORTED_DTYPE);
 *   tmp, when given, not dst's handle (PTO_ERR_ALIASING; never read or
 *   written).
 * - src and idx share no byte with dst (PTO_ERR_ALIASING).
 * - dst valid rows equal src's; dst valid cols are src valid cols times 2
 *   (4-byte dtypes) or 4 (2-byte ones); idx has src's valid rows, or one row
 *   that serves every row, and at least src's valid cols
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - A2A3 and A5 without tmp: src valid cols a multiple of 32 (the NPUs pad
 *   a shorter last block in tmp) (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tsort32(pto_tile *dst, const pto_tile *src, const pto_tile *idx,
                               pto_tile *tmp);

/* TMRGSORT, its single-list form: src's one valid row holds value-index
 * pairs (TSORT32's), in groups of four lists of block_len elements each
 * (block_len / 2 pairs for FLOAT32, block_len / 4 for FLOAT16); each group's
 * four lists, each taken as sorted, are merged into the same columns of
 * dst: at every step the head that goes first (TSORT32's order; equal
 * values: the earlier list). Rules, checked in this order:
 * - dst, src not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 on every profile (PTO_ERR_UNSUPPORTED_DTYPE);
 *   src of dst's dtype (PTO_ERR_DTYPE_MISMATCH).
 * - src shares no byte with dst (PTO_ERR_ALIASING).
 * - block_len a positive multiple of 64 (PTO_ERR_INVALID_ARGUMENT).
 * - src and dst one valid row; src valid cols 1 to 255 times 4 x block_len;
 *   dst valid cols equal src's (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tmrgsort(pto_tile *dst, const pto_tile *src, size_t block_len);

/* TMRGSORT, its multi-list form (the page's TMRGSORT<..., exhausted>(dst,
 * executedNumList, tmp, src0, src1[, src2[, src3]])): two to four sorted
 * lists, each the one valid row of a source tile holding value-index pairs
 * (TSORT32's; valid cols / 2 pairs for FLOAT32, / 4 for FLOAT16), merged
 * into dst's row: at every step the head that goes first (TSORT32's order;
 * equal values: the earlier list) is taken. The merge runs until every list
 * is used up or, with `exhausted` nonzero, until one of them is (the NPUs'
 * suspension); dst receives its first dst valid cols / 2 (or / 4) pairs, or
 * all of them if fewer, and the rest of dst is left as it was. `executed`,
 * when not NULL, receives the number of pairs the merge took from each list
 * (0 for a list not given): the page's executedNumList, which the NPUs
 * report with `exhausted` only. tmp: the NPUs' staging tile (they merge
 * into tmp, then copy to dst); libpto never reads or writes it. src2 NULL
 * merges two lists, src3 NULL three. Rules, checked in this order:
 * - dst, src0, src1 not NULL; A2A3 and A5: tmp not NULL
 *   (PTO_ERR_NULL_ARGUMENT); src3 given only with src2
 *   (PTO_ERR_INVALID_ARGUMENT).
 * - dst, every source and tmp vec tiles, not the cube's
 *   (PTO_ERR_INVALID_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 (PTO_ERR_UNSUPPORTED_DTYPE); every source and
 *   tmp of dst's dtype (PTO_ERR_DTYPE_MISMATCH).
 * - tmp none of the other handles; no source shares a byte with dst
 *   (PTO_ERR_ALIASING).
 * - every tile one valid row; every source's valid cols a positive multiple
 *   of a pair's elements, at most 65535 pairs (the NPUs' 16-bit counts);
 *   dst valid cols a multiple of a pair's elements, at most the sources'
 *   together; A2A3 and A5: tmp cols at least the sources' cols together (the
 *   page's GETMRGSORTTMPSIZE) (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tmrgsort_lists(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                      const pto_tile *src2, const pto_tile *src3, pto_tile *tmp,
                                      int exhausted, uint16_t executed[4]);

/* ------------------------------------------------------------------------ */
/* Fused arithmetic                                                          */
/* ------------------------------------------------------------------------ */

/* TAXPY: dst = scalar * src0 + dst over dst's valid region: dst's old
 * values are the addend, and each element is one fused multiply-add rounded
 * once to dst's dtype (the NPUs' vaxpy), the same bits on every target.
 * scalar is taken as src0's dtype holds it (float16: rounded to nearest
 * even). Rules, checked in this order:
 * - dst, src0 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 on every profile (PTO_ERR_UNSUPPORTED_DTYPE);
 *   src0 of dst's dtype, or FLOAT16 into a FLOAT32 dst (the widening form
 *   both NPU implementations have) (PTO_ERR_DTYPE_MISMATCH).
 * - src0 is dst itself (placed exactly on it) or shares no byte with it
 *   (PTO_ERR_ALIASING).
 * - src0's valid region equals dst's (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_taxpy(pto_tile *dst, const pto_tile *src0, double scalar);

/* TADDC: dst = (src0 + src1) + src2 over dst's valid region, two additions
 * each as pto_tadd's (rounded once to the dtype, integers wrapping), in that
 * order (pto-isa's CPU model; its NPU implementations have no TADDC yet, so
 * each profile takes pto_tadd's dtype list). Rules, in order: the four
 * tiles not NULL (PTO_ERR_NULL_ARGUMENT); dst's dtype in pto_tadd's list of
 * the profile (PTO_ERR_UNSUPPORTED_DTYPE) and every source of dst's dtype
 * (PTO_ERR_DTYPE_MISMATCH); each source is dst itself or shares no byte
 * with it (PTO_ERR_ALIASING); each source's valid region equals dst's
 * (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_taddc(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                             const pto_tile *src2);

/* TSUBC: dst = (src0 - src1) + src2 over dst's valid region: pto_tsub's
 * difference, rounded to the dtype, then pto_tadd's sum (pto-isa's CPU
 * model; PTOAS lowers it to TSUB then TADD; the NPU implementations have
 * no TSUBC yet, so each profile takes pto_tsub's dtype list). Rules as
 * pto_taddc's, in its order. */
PTO_API pto_status pto_tsubc(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                             const pto_tile *src2);

/* TADDSC: dst = (src0 + scalar) + src1 over dst's valid region, and TSUBSC:
 * dst = (src0 - scalar) + src1: pto_tadds's or pto_tsubs's result, rounded
 * to the dtype, then pto_tadd's sum (pto-isa's CPU model; PTOAS lowers them
 * to TADDS or TSUBS then TADD). scalar is taken as the dtype holds it
 * (float16: rounded to nearest even). INT32, INT16, FLOAT16, FLOAT32 on
 * every profile (the pages' A2A3 and A5 lists). In text the scalar comes
 * between the sources: `ins(%src0, %scalar, %src1 : T, f32, T)`. Rules, in
 * order: dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT); dst's dtype in the
 * list (PTO_ERR_UNSUPPORTED_DTYPE), src0's and src1's equal to it
 * (PTO_ERR_DTYPE_MISMATCH); an integer dtype's scalar an integer in its
 * range (PTO_ERR_INVALID_ARGUMENT); each source dst itself or sharing no
 * byte with it (PTO_ERR_ALIASING); each source's valid region dst's
 * (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_taddsc(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                              double scalar);
PTO_API pto_status pto_tsubsc(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                              double scalar);

/* TFUSEDMULADD: dst = src0 * dst + src1, TFUSEDMULADDRELU: dst =
 * max(src0 * dst + src1, 0), and TMULADDDST: dst = src0 * src1 + dst, over
 * dst's valid region, dst's old values an input. Each element is the exact
 * product plus the addend rounded once to dst's dtype (nearest even; float16
 * rounded once too, not through float32), the same bits on every target and
 * profile: both NPU implementations issue one multiply-add instruction
 * (A2A3 vmadd, vmaddrelu, vmla; A5 vmadd, vmadd then vrelu, vmula), which the
 * pages name fused (pto.vmula: "a single fused operation"; A5's own
 * high-precision sqrt takes residuals with them). The relu is exact: a result
 * > 0 is kept, NaN stays NaN, anything else (-0 included) is +0. pto-isa's
 * CPU simulator rounds the product first in TMULADDDST and
 * TFUSEDMULADDRELU, so its results may differ from these in the last place.
 * Operands: dst is read and written element by element, each element's old
 * value read before its new one is written; src0 and src1 may each be dst
 * itself (placed exactly on it: then that source is dst's old values, so
 * pto_tfusedmuladd(d, d, s) computes d * d + s) or share no byte with it;
 * the sources may overlap each other. Rules, checked in this order:
 * - dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or FLOAT32 on every profile (the pages' `float`, `half`, the
 *   static_asserts of a2a3/ and a5/ TFusedMulAdd.hpp, TFusedMulAddRelu.hpp,
 *   TMulAddDst.hpp) (PTO_ERR_UNSUPPORTED_DTYPE); src0 and src1 of dst's dtype
 *   (PTO_ERR_DTYPE_MISMATCH).
 * - each source dst itself or sharing no byte with it (PTO_ERR_ALIASING).
 * - each source's valid region dst's (the implementations' PTO_ASSERT)
 *   (PTO_ERR_SHAPE_MISMATCH).
 * In programs only the DPS form: `pto.tfusedmuladd ins(%src0, %src1 : T, T)
 * outs(%dst : T)` (a bound dst is an input too); the pages' SSA forms, which
 * cannot name dst's old values, are refused. */
PTO_API pto_status pto_tfusedmuladd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);
PTO_API pto_status pto_tfusedmuladdrelu(pto_tile *dst, const pto_tile *src0,
                                        const pto_tile *src1);
PTO_API pto_status pto_tmuladddst(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* TADDRELUCONV: dst = convert(relu(src0 + src1)) and TSUBRELUCONV: dst =
 * convert(relu(src0 - src1)), over dst's valid region, dst of a narrower
 * dtype than the sources. The (src, dst) pairs, on every profile (the
 * pages, the static_asserts of a2a3/ and a5/ TAddReluConv.hpp and
 * TSubReluConv.hpp): (FLOAT32, FLOAT16), (FLOAT16, INT8), (INT16, INT8).
 * Each element: the sum or difference in the sources' dtype as pto_tadd's
 * or pto_tsub's (floats correctly rounded, INT16 wrapping: A5's vadd);
 * then relu (+0 unless > 0; NaN kept, -0 becomes +0); then converted to
 * dst's dtype rounding to nearest even and saturating (the pages:
 * "saturating", "round-to-nearest-even"; pto_tcvt's PTO_SAT_ON): finite
 * results beyond float16's range give +65504, infinity stays infinity, a
 * float32 NaN gives a float16 NaN; int8 results are at most 127 and NaN
 * gives 0. Every target gives these
 * bits. Rules, checked in this order:
 * - dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 or INT8 (PTO_ERR_UNSUPPORTED_DTYPE); src0's dtype with
 *   dst's one of the pairs, src1's dtype src0's (PTO_ERR_DTYPE_MISMATCH).
 * - each source shares no byte with dst (no in-place form: the elements
 *   differ in size) (PTO_ERR_ALIASING).
 * - each source's valid region dst's (PTO_ERR_SHAPE_MISMATCH).
 * In programs: `pto.taddreluconv ins(%src0, %src1 : S, S) outs(%dst : D)`
 * (the pages' spelling; PTOAS has none). */
PTO_API pto_status pto_taddreluconv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);
PTO_API pto_status pto_tsubreluconv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* TADDDEQRELU: dst = half(max(0, (src0 + src1) * deqScale)) over dst's
 * valid region, src0 and src1 INT32, dst FLOAT16 on every profile (the
 * page; a2a3/ and a5/ TAddDeqRelu.hpp). Each element as both NPU
 * implementations compute it, every step rounded once: the INT32 sum
 * (wrapping), converted to float32 (nearest even), multiplied in float32 by
 * 2^-17, by deqScale (as float32 holds it: nearest even) and by 2^17, in
 * that order (the page's precision-compensated sequence); then relu (+0
 * unless > 0, NaN kept); then converted to float16 rounding to nearest even
 * and saturating: every result above float16's largest value, infinity
 * included, gives +65504 (the page: "saturating"; pto-isa's ST golden
 * clips to [0, 65504]); NaN stays NaN. tmp
 * is the page's scratch: checked, neither read nor written. Rules, checked
 * in this order:
 * - dst, src0, src1 not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT16 (PTO_ERR_UNSUPPORTED_DTYPE); src0 INT32 and src1 src0's
 *   dtype (PTO_ERR_DTYPE_MISMATCH).
 * - each source shares no byte with dst (PTO_ERR_ALIASING); each source's
 *   valid region dst's (PTO_ERR_SHAPE_MISMATCH).
 * - tmp not NULL (PTO_ERR_NULL_ARGUMENT), INT32 (PTO_ERR_DTYPE_MISMATCH),
 *   sharing no byte with dst, src0 or src1 (PTO_ERR_ALIASING), its valid
 *   region at least dst's in rows and cols (the page)
 *   (PTO_ERR_SHAPE_MISMATCH).
 * In programs: `pto.tadddeqrelu ins(%src0, %src1, %deqScale, %tmp : S, S,
 * f32, T) outs(%dst : D)` (the page's spelling; PTOAS has none). */
PTO_API pto_status pto_tadddeqrelu(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                   pto_tile *tmp, double deqScale);

/* ------------------------------------------------------------------------ */
/* Matrix multiply                                                           */
/* ------------------------------------------------------------------------ */
/*
 * dst = seed + a b, where a is M x K, b is K x N and dst M x N: M = a's valid
 * rows = dst's valid rows, K = a's valid cols = b's valid rows, N = b's valid
 * cols = dst's valid cols (else PTO_ERR_SHAPE_MISMATCH). Only dst's valid
 * region is written.
 * - dtypes (dst; a, b): (FLOAT32; BFLOAT16), (FLOAT32; FLOAT16), (FLOAT32;
 *   FLOAT32), (INT32; INT8). dst of another dtype, or a pair not listed, is
 *   PTO_ERR_UNSUPPORTED_DTYPE; a and b of different dtypes
 *   PTO_ERR_DTYPE_MISMATCH.
 * - Under PTO_PROFILE_A5 only, 8-bit floating sources too (pto-isa
 *   TMATMUL.md, a5/TMatmul.hpp): a and b each FLOAT8_E4M3 or FLOAT8_E5M2
 *   (the four pairs, mixed ones included), or both HIFLOAT8, with dst
 *   FLOAT32; each code is widened exactly to float32 (NaN and infinities
 *   kept) and the chains are the float ones below. An 8-bit source under
 *   HOST or A2A3 is PTO_ERR_UNSUPPORTED_DTYPE ("(a FLOAT8_E4M3; b
 *   FLOAT8_E4M3): 8-bit floating sources are A5's ..."); under A5 an FP8
 *   with a HIFLOAT8 or a non-8-bit type is PTO_ERR_DTYPE_MISMATCH, another
 *   dst PTO_ERR_UNSUPPORTED_DTYPE. The GEMV rows take the same.
 * - Result, for each (i, j): acc starts at the seed; then for k = 0, 1, ...,
 *   K-1 in that order acc = fma(a(i,k), b(k,j), acc), rounded once to
 *   float32 (a and b widened exactly to float32), or for INT32 acc = acc +
 *   a(i,k) b(k,j) modulo 2^32; dst(i,j) = acc. Every SIMD target, block
 *   count and thread count gives these bits; K = 0 gives the seed. NaN and
 *   infinities propagate as IEEE fma does. (The NPU's own order over K is
 *   not documented: its float results may differ in the last bits.)
 * - dst must not share storage with a, b or bias: the same handle or any
 *   shared byte of their valid elements is PTO_ERR_ALIASING. a and b may be
 *   the same tile under HOST (under A2A3 and A5 they lie in different
 *   memories).
 * - Checks, in order: NULL handles; locations and layouts (A2A3, A5);
 *   dtypes; aliasing; valid regions (and, under A2A3 and A5, the NPU's
 *   shapes); then PTO_ERR_OUT_OF_MEMORY if operands in a fractal layout
 *   cannot be staged (they are multiplied through row-major copies of their
 *   valid regions, which the calling thread keeps for its next call).
 * - HOST: tiles of any location and layout ("Cube tiles"): ordinary
 *   row-major tiles of pto_tile_create and pto_tile_create_at, any
 *   placement, are the plain case; each element is read and written at its
 *   (row, column) whatever the layout, with the same bits.
 * - PTO_PROFILE_A2A3 and PTO_PROFILE_A5: the cube tiles their NPU takes
 *   (pto-isa's TileLeft, TileRight, TileAcc and TMatmul implementations):
 *   a is a PTO_LOC_LEFT tile, PTO_LAYOUT_ZZ under A2A3 and PTO_LAYOUT_NZ
 *   under A5; b a PTO_LOC_RIGHT PTO_LAYOUT_ZN tile; dst a PTO_LOC_ACC
 *   PTO_LAYOUT_NZ tile; bias a PTO_LOC_BIAS tile (one row). Another
 *   location or layout is PTO_ERR_INVALID_ARGUMENT, e.g. "pto_tmatmul:
 *   under A5 a must be a left NZ tile (pto_tile_create_cube), not a left ZZ
 *   tile"; the boxes align the shapes ("Cube tiles"). The tiles' shapes are
 *   a [M, K], b [K, N], dst [M, N] (a's rows = dst's rows, a's cols = b's
 *   rows, b's cols = dst's cols), and the valid M, K and N are 1 to 4095;
 *   else PTO_ERR_SHAPE_MISMATCH. Results are the bits HOST gives for the
 *   same values. Programs (pto_program_create) run pto.tmatmul,
 *   pto.tmatmul.acc and pto.tmatmul.bias on their own cube tiles with the
 *   same results (docs/pto-assembly.md, "The cube").
 */

/* dst = a b: the seed is 0. */
PTO_API pto_status pto_tmatmul(pto_tile *dst, const pto_tile *a, const pto_tile *b);

/* dst = dst + a b: the seed is dst(i, j) as it was (the cube accumulates
 * into its output). */
PTO_API pto_status pto_tmatmul_acc(pto_tile *dst, const pto_tile *a, const pto_tile *b);

/* dst = bias + a b: the seed is bias(0, j). bias has dst's dtype
 * (PTO_ERR_DTYPE_MISMATCH), at least one valid row and N valid cols
 * (PTO_ERR_SHAPE_MISMATCH); its row 0 is read. */
PTO_API pto_status pto_tmatmul_bias(pto_tile *dst, const pto_tile *a, const pto_tile *b,
                                    const pto_tile *bias);

/* GEMV (TGEMV, TGEMV_ACC, TGEMV_BIAS; pto-isa docs/isa/TGEMV.md): the three
 * calls above with a single row of a, dst(0, j) = seed + sum over k of
 * a(0, k) b(k, j) for j < N. Everything but the shapes is the matrix
 * multiplies' (the dtype triples under every profile, the one chain per
 * element over k in order and its exactness, aliasing, HOST's layouts,
 * A2A3's and A5's locations and layouts, the checks' order; in text
 * pto.tgemv, pto.tgemv.acc, pto.tgemv.bias). The shapes, in order, all
 * PTO_ERR_SHAPE_MISMATCH: a has one valid row (M = 1), and so has dst; a's
 * valid cols are b's valid rows (K); b's valid cols are dst's (N); bias (of
 * pto_tgemv_bias) has at least one valid row and N valid cols; under A2A3
 * and A5, K and N are 1 to 4095. Both NPU implementations take K and N
 * from b and M = 1, and PTOAS's verifier asks each equality of the valid
 * shapes, so none of them is a board-mode warning. The tiles' own rows x
 * cols are free on every profile: the page's equal static shapes are asked
 * by neither implementation, and pto-isa's own cases break them (a 1 x 256
 * left tile, a 16 x 32 acc tile with one valid row). */
PTO_API pto_status pto_tgemv(pto_tile *dst, const pto_tile *a, const pto_tile *b);

/* dst = dst + a b with a one row: the seed is dst(0, j) as it was. */
PTO_API pto_status pto_tgemv_acc(pto_tile *dst, const pto_tile *a, const pto_tile *b);

/* dst = bias + a b with a one row: the seed is bias(0, j). */
PTO_API pto_status pto_tgemv_bias(pto_tile *dst, const pto_tile *a, const pto_tile *b,
                                  const pto_tile *bias);

/* Convolution as im2col + matrix multiply (TIMG2COL, SETFMATRIX,
 * SET_IMG2COL_PADDING, SET_IMG2COL_RPT; pto-isa docs/isa/TIMG2COL.md and
 * the three SET* pages, whose rules are their implementations',
 * include/pto/npu/a2a3/ and a5/ TImg2col.hpp, SetFmatrix.hpp,
 * SetImg2colPadding.hpp, SetImg2colRpt.hpp, and the CPU model
 * include/pto/cpu/TImg2col.hpp).
 *
 * A feature map in NC1HWC0 order lies in src, a tile of C0 columns: row
 * ((n*C1 + c1)*H + h)*W + w holds the C0 channels c1*C0 .. c1*C0 + C0 - 1
 * of pixel (h, w) of image n (on the NPU a mat tile in L1: NZ boxes of 16
 * rows x 32 bytes, C0 = 32 / element size). pto_timg2col writes a window of
 * its im2col matrix into dst, a left tile that pto_tmatmul takes as a:
 *   row    m = (n*OH + oh)*OW + ow         (one output pixel per row),
 *   column k = ((c1*FH + kh)*FW + kw)*C0 + c0 (one filter tap per column),
 *   element = src(((n*C1 + c1)*H + ih)*W + iw, c0) with
 *   ih = oh*stride_h + kh*dilation_h - pad_top,
 *   iw = ow*stride_w + kw*dilation_w - pad_left,
 * and the pad element where ih or iw falls outside the map, or where m or k
 * lies past the matrix (n >= N, c1 >= C1); OH = (H + pad_top + pad_bottom -
 * dilation_h*(FH - 1) - 1) / stride_h + 1 and OW likewise. So a weight
 * matrix b with row k = ((c1*FH + kh)*FW + kw)*C0 + c0 (pto-isa's
 * [C1, FH, FW, N, C0] weights) makes pto_tmatmul(dst, a, b) the
 * convolution, one output pixel per row and one output channel per column.
 * Each element is copied bit for bit: the result is exact on every profile.
 *
 * Configuration: pto-isa keeps it in the ConvTile src and its FMATRIX,
 * padding and repeat registers; here it is one struct, pto_img2col_config,
 * which the three SET* functions copy parts of into the calling thread's
 * registers and pto_timg2col reads the rest of. This keeps the pages' order
 * of calls (SETFMATRIX, SET_IMG2COL_PADDING and SET_IMG2COL_RPT once, then
 * any number of TIMG2COL windows, as pto-isa's default manual mode and its
 * ST kernels do) and the pages' split between register state and the
 * instruction's own fields; pto-isa's auto mode is the three calls before
 * each pto_timg2col. The registers are per thread, like the profile: a
 * thread starts with no feature map (pto_timg2col refuses until
 * pto_setfmatrix succeeds), the pad element 0 and one repeat (stride 0,
 * time 1, mode 0, the ConvTile's defaults). Left out: pto-isa's second
 * register set (FMATRIX_B; one set serves both here), its transpose flag and
 * A5's dst stride and dst M position (placement in L0A, which a tile's
 * layout already fixes). Programs have no text form: PTOAS has no timg2col
 * or set_fmatrix operation (its PTOOps.td and lit tests), and a program
 * that writes pto.timg2col is told the instruction is not implemented. */
typedef struct pto_img2col_config {
    /* SETFMATRIX: the feature map's height and width (1 to 65535) and its
     * padding in pixels on each side. */
    uint16_t fmap_h, fmap_w;
    uint8_t pad_left, pad_right, pad_top, pad_bottom;
    /* SET_IMG2COL_PADDING: the pad element, as the bits of its encoding in
     * dst's dtype (the low 8, 16 or 32 bits, as the NPU's padding register
     * is read; e.g. 0xBF800000 is FLOAT32 -1.0, 0xBC00 FLOAT16 -1.0). */
    uint32_t pad_bits;
    /* SET_IMG2COL_RPT: repeat_time windows (1 to 255) in one pto_timg2col,
     * each repeat_stride units further on along M (repeat_mode 0, units of
     * 16 rows) or K (repeat_mode 1, units of C0 columns): see
     * pto_timg2col. */
    uint16_t repeat_stride;
    uint8_t repeat_time, repeat_mode;
    /* pto_timg2col's own fields: the filter's strides and dilations (1 to
     * 255), its height and width (1 to 511, the instruction's 9-bit fields)
     * and the channels each window row spans, channel_size = C1 * C0 (1 to
     * 65535, a multiple of C0). */
    uint8_t stride_h, stride_w, dilation_h, dilation_w;
    uint16_t filter_h, filter_w;
    uint16_t channel_size;
} pto_img2col_config;

/* SETFMATRIX: the calling thread's feature-map register from config's
 * fmap_h, fmap_w and four pads. Errors, in order: PTO_ERR_NULL_ARGUMENT if
 * config is NULL; PTO_ERR_INVALID_ARGUMENT for fmap_h or fmap_w 0 (pto-isa's
 * CPU model asserts a non-zero map). On failure the register is unchanged. */
PTO_API pto_status pto_setfmatrix(const pto_img2col_config *config);

/* SET_IMG2COL_PADDING: the calling thread's pad element from config's
 * pad_bits. Errors: PTO_ERR_NULL_ARGUMENT if config is NULL. */
PTO_API pto_status pto_set_img2col_padding(const pto_img2col_config *config);

/* SET_IMG2COL_RPT: the calling thread's repeat register from config's
 * repeat_stride, repeat_time and repeat_mode. Errors, in order:
 * PTO_ERR_NULL_ARGUMENT if config is NULL; PTO_ERR_INVALID_ARGUMENT for a
 * repeat_mode other than 0 (along M) or 1 (along K), or a repeat_time of 0.
 * On failure the register is unchanged. */
PTO_API pto_status pto_set_img2col_rpt(const pto_img2col_config *config);

/* TIMG2COL: dst's valid region = the im2col matrix (above) from row pos_m
 * and column pos_k on, src's feature map under the thread's registers and
 * config's stride, dilation, filter and channel_size. With repeat_time R,
 * the window is R blocks: under repeat_mode 0 dst's valid rows in R equal
 * blocks, block i reading rows from pos_m + i*16*repeat_stride; under mode
 * 1 dst's valid cols in R equal blocks, block i reading columns from
 * pos_k + i*C0*repeat_stride (R = 1 is one window at (pos_m, pos_k)). Only
 * dst's valid region is written; src is read only.
 * - HOST: tiles of any location and layout, C0 = src's valid cols, dtypes
 *   INT8, UINT8, INT16, UINT16, INT32, UINT32, FLOAT16, BFLOAT16, FLOAT32.
 * - PTO_PROFILE_A2A3: src a mat NZ tile, dst a left ZZ tile (pto-isa's
 *   TileLeft, RowMajor boxes in row order); INT8, FLOAT16, BFLOAT16,
 *   FLOAT32 (a2a3/TImg2col.hpp's static_asserts).
 * - PTO_PROFILE_A5: src a mat NZ tile, dst a left NZ tile; HOST's nine
 *   dtypes (a5/TImg2col.hpp's static_asserts).
 * Under A2A3 and A5, C0 is 32 bytes of elements (32 / element size).
 * Rules, checked in this order:
 * - dst, src, config not NULL (PTO_ERR_NULL_ARGUMENT).
 * - under A2A3 and A5, the locations and layouts above
 *   (PTO_ERR_INVALID_ARGUMENT).
 * - dst's dtype under the profile (PTO_ERR_UNSUPPORTED_DTYPE); src of dst's
 *   dtype (PTO_ERR_DTYPE_MISMATCH).
 * - config's strides, dilations and filter sizes in their ranges and a
 *   channel_size above 0; a feature map set on this thread (pto_setfmatrix);
 *   the dilated filter no larger than the padded map, so OH and OW are at
 *   least 1 (PTO_ERR_INVALID_ARGUMENT).
 * - dst apart from src: the same handle or a shared byte is
 *   PTO_ERR_ALIASING.
 * - src's valid cols C0 (under A2A3 and A5 32 / element size; under HOST
 *   any); channel_size a multiple of C0; src's valid rows N * C1 * H * W
 *   for some N >= 1 (C1 = channel_size / C0); dst's valid rows (mode 0) or
 *   cols (mode 1) a multiple of repeat_time (PTO_ERR_SHAPE_MISMATCH).
 * Nothing is written on a refusal. */
PTO_API pto_status pto_timg2col(pto_tile *dst, const pto_tile *src,
                                const pto_img2col_config *config, uint16_t pos_m,
                                uint16_t pos_k);
/* MX matrix multiply (TMATMUL_MX, TGEMV_MX; pto-isa docs/isa/TMATMUL_MX.md,
 * TGEMV_MX.md, docs/isa/cube/ops/mad/mad-mx.md): a and b hold FLOAT8 or
 * FLOAT4 values, each scaled by an e8m0 exponent per block of 32 values
 * along K, read from the scale tiles a_scale (M x ceil(K/32)) and b_scale
 * (ceil(K/32) x N).
 * - dtypes: dst FLOAT32; (a; b) both of FLOAT8_E4M3 and FLOAT8_E5M2 (any
 *   pair) or both of FLOAT4_E2M1X2 and FLOAT4_E1M2X2 (any pair); a_scale and
 *   b_scale FLOAT8_E8M0. Anything else is PTO_ERR_UNSUPPORTED_DTYPE, e.g.
 *   "pto_tmatmul_mx: (a FLOAT8_E4M3; b FLOAT4_E2M1X2) is not one of an MX
 *   matrix multiply's (a; b) pairs ...".
 * - Shapes (PTO_ERR_SHAPE_MISMATCH, in this order): a FLOAT4 tile's cols
 *   count bytes, two values each (value c of a row: the low nibble of byte
 *   c/2 for even c, the high nibble for odd c). M = a's valid rows (1 for
 *   pto_tgemv_mx and pto_tgemv_mx_acc: a GEMV); K = a's values per valid row (valid cols, times 2
 *   for FLOAT4) = b's valid rows; N = b's values per valid row (valid cols,
 *   times 2 for FLOAT4) = dst's valid cols; dst's valid rows = M; a_scale's
 *   valid region M x ceil(K/32); b_scale's ceil(K/32) x N.
 * - Result, for each (i, j) of dst's valid region: with a'(i,k) = a(i,k) *
 *   2^(a_scale(i, k/32) - 127) and b'(k,j) = b(k,j) * 2^(b_scale(k/32, j) -
 *   127), each the exact value of its code times its scale rounded to
 *   float32 (exact, or an infinity past float32's range; scale code 0xFF is
 *   NaN, as are FLOAT8_E4M3's and FLOAT8_E5M2's NaN codes), acc starts at 0
 *   (pto_tmatmul_mx, pto_tgemv_mx) or dst(i, j) as it was
 *   (pto_tmatmul_mx_acc, pto_tgemv_mx_acc); then for k = 0, 1, ..., K-1 in that order acc =
 *   fma(a'(i,k), b'(k,j), acc) rounded once to float32; dst(i,j) = acc. So
 *   each product is (a times its scale) times (b times its scale), as the
 *   page's model writes it, in pto_tmatmul's fixed order; every SIMD target
 *   gives these bits. (pto-isa's CPU model sums in a different order and
 *   precision; the NPU's order is not documented.)
 * - dst must not share storage with any source (PTO_ERR_ALIASING).
 * - Checks, in order: NULL handles; locations and layouts (A5); dtypes (the
 *   profile's dst list first: A2A3 has no MX matrix multiply and refuses
 *   with PTO_ERR_UNSUPPORTED_DTYPE); aliasing; valid regions (and A5's
 *   shapes); PTO_ERR_OUT_OF_MEMORY if fractal operands cannot be staged.
 * - HOST: tiles of any location and layout, row-major ones the plain case.
 * - PTO_PROFILE_A5 (pto-isa include/pto/npu/a5/TMatmul.hpp CheckMadMxValid,
 *   PTOAS's verifier): a a PTO_LOC_LEFT PTO_LAYOUT_NZ tile, b a
 *   PTO_LOC_RIGHT PTO_LAYOUT_ZN tile, dst a PTO_LOC_ACC PTO_LAYOUT_NZ tile,
 *   a_scale a PTO_LOC_SCALING PTO_LAYOUT_ZZ tile and b_scale a
 *   PTO_LOC_SCALING PTO_LAYOUT_NN tile (scaling tiles have 32-byte boxes:
 *   16 x 2 for ZZ, 2 x 16 for NN; else PTO_ERR_INVALID_ARGUMENT); a's
 *   storage columns a multiple of 64 values, and M, K, N 1 to 4095
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - The bias forms (pto_tmatmul_mx_bias, pto_tgemv_mx_bias; TMATMUL_MX's
 *   bias variant): acc starts at bias(0, j). bias is a FLOAT32 tile (dst's
 *   dtype, PTO_ERR_DTYPE_MISMATCH) of at least one valid row and N valid
 *   cols (PTO_ERR_SHAPE_MISMATCH), apart from dst (PTO_ERR_ALIASING); its
 *   row 0 is read. Under A5 it is a PTO_LOC_BIAS tile (pto-isa's
 *   "TileBias::Loc == TileType::Bias", one row as every bias tile is;
 *   PTO_ERR_INVALID_ARGUMENT for another location).
 * - TMATMUL_MX_HIF4 is pto_tmatmul_mx_hif4 below. Programs run
 *   pto.tmatmul.mx, pto.tmatmul.mx.acc, pto.tmatmul.mx.bias, pto.tgemv.mx,
 *   pto.tgemv.mx.acc and pto.tgemv.mx.bias with the same results, and
 *   pto.tget_scale_addr (docs/pto-assembly.md). */

/* dst = (a scaled) (b scaled): the seed is 0. */
PTO_API pto_status pto_tmatmul_mx(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                  const pto_tile *b, const pto_tile *b_scale);

/* dst = dst + (a scaled) (b scaled): the seed is dst(i, j) as it was. */
PTO_API pto_status pto_tmatmul_mx_acc(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                      const pto_tile *b, const pto_tile *b_scale);

/* pto_tmatmul_mx with a single row of a (M = 1; pto-isa TGEMV_MX). */
PTO_API pto_status pto_tgemv_mx(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                const pto_tile *b, const pto_tile *b_scale);

/* pto_tmatmul_mx_acc with a single row of a (M = 1; PTOAS's tgemv.mx.acc). */
PTO_API pto_status pto_tgemv_mx_acc(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                    const pto_tile *b, const pto_tile *b_scale);

/* dst = bias + (a scaled) (b scaled): the seed is bias(0, j). */
PTO_API pto_status pto_tmatmul_mx_bias(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                       const pto_tile *b, const pto_tile *b_scale,
                                       const pto_tile *bias);

/* pto_tmatmul_mx_bias with a single row of a (M = 1; PTOAS's tgemv.mx.bias). */
PTO_API pto_status pto_tgemv_mx_bias(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                     const pto_tile *b, const pto_tile *b_scale,
                                     const pto_tile *bias);

/* HiFloat4 matrix multiply (TMATMUL_MX_HIF4; pto-isa
 * docs/isa/TMATMUL_MX_HIF4.md, an A6 instruction; the values as its ST
 * golden, tests/npu/a6/src/st/testcase/tmatmul_mx/gen_data.py, dequantises
 * them): dst = a b with a (M x K) and b (K x N) in HiFloat4, the format of
 * pto_tquant_hif4: FLOAT4_E1M2X2 codes (two a byte, value c of a row in
 * byte c/2's low nibble for even c, the high one for odd c) and one UINT32
 * metadata word per 64 values of K: a_scale(i, g) for a's row i, values
 * 64g to 64g + 63; b_scale(g, j) for b's column j, rows 64g to 64g + 63.
 * - Value of a code x at place p (0..63) of its group, word w: E1M2(x) *
 *   e6m2(w & 0xFF) * 2^(Eb + Ec), Eb = bit 8 + p/8 of w, Ec = bit 16 + p/4;
 *   e6m2(e:m) = (1 + m/4) 2^(e - 48) for 6 exponent bits e and 2 mantissa
 *   bits m, code 0 is 0 (a zero group) and 0xFF NaN (pto_tquant_hif4's NaN
 *   group). Every such value is exact in float32.
 * - Result, for each (i, j) of dst's valid region: acc = 0, then for k = 0,
 *   1, ..., K-1 in that order acc = fma(a(i,k), b(k,j), acc) rounded once to
 *   float32; dst(i, j) = acc: pto_tmatmul_mx's fixed order, the same bits on
 *   every SIMD target (the golden multiplies in numpy's float32 order and
 *   rounds to bfloat16, the fixpipe's store; the cube's order is not
 *   documented).
 * Rules, checked in this order:
 * - dst, a, a_scale, b, b_scale not NULL (PTO_ERR_NULL_ARGUMENT).
 * - under PTO_PROFILE_A2A3 and PTO_PROFILE_A5 every call is
 *   PTO_ERR_UNSUPPORTED_DTYPE (neither NPU has HiFloat4; PTO_PROFILE_HOST
 *   computes the A6 instruction); dst FLOAT32, a and b FLOAT4_E1M2X2,
 *   a_scale and b_scale UINT32 (PTO_ERR_UNSUPPORTED_DTYPE).
 * - dst shares storage with no source (PTO_ERR_ALIASING).
 * - Shapes (PTO_ERR_SHAPE_MISMATCH): M = a's valid rows = dst's; K = a's
 *   valid cols times 2 = b's valid rows; N = b's valid cols times 2 = dst's
 *   valid cols; a_scale's valid region M x ceil(K/64), b_scale's
 *   ceil(K/64) x N.
 * - PTO_ERR_OUT_OF_MEMORY if fractal operands cannot be staged.
 * Tiles of any location and layout (row-major ones the plain case). B as
 * pto_tquant_hif4 writes it is b's transpose (its groups run along rows):
 * quantise b's transpose and transpose the codes and words back. The
 * golden's mixed forms (a FLOAT8, FLOAT16 or BFLOAT16 against a HiFloat4 b)
 * and an accumulating form are not provided. No text form (PTOAS has no op
 * for it): a program naming pto.tmatmul_mx_hif4 is told to call this. */
PTO_API pto_status pto_tmatmul_mx_hif4(pto_tile *dst, const pto_tile *a, const pto_tile *a_scale,
                                       const pto_tile *b, const pto_tile *b_scale);

/* ------------------------------------------------------------------------ */
/* Quantisation                                                              */
/* ------------------------------------------------------------------------ */
/*
 * The INT8 forms of TQUANT and their inverse, TDEQUANT: each dst row i takes
 * its parameters from column 0 of row i of scale (and offset), FLOAT32 tiles
 * of one value per row (pto-isa's NPU implementations and ST goldens, and
 * PTOAS's samples, read that column only). Every float32 operation is
 * rounded once to nearest even (a product and a sum are never fused), so
 * the bits are the same on every profile, SIMD target and thread count.
 */

/* TQUANT, INT8: dst(i, j) = sat(rint(src(i, j) * scale(i) [+ offset(i)])):
 * the product, then the sum, each a float32 rounded to nearest even, then
 * rounded to an integer with ties to even and saturated to dst's range;
 * NaN gives 0 (the NPUs' chain FLOAT32 -> INT32 -> FLOAT32 -> FLOAT16 ->
 * 8-bit, each step round-to-nearest-even and saturating, which these bits
 * equal). scale is the reciprocal of the quantisation step: the
 * implementations multiply by it. dst's dtype names the form: INT8 is
 * INT8_SYM (offset NULL), UINT8 INT8_ASYM (offset given). src, scale,
 * offset and tmp are read only; tmp's contents are not written (A2A3's
 * implementation keeps its INT32 step there, and scales src in place: here
 * src is left as it was). Rules, checked in this order:
 * - dst, src, scale not NULL; under PTO_PROFILE_A2A3 tmp not NULL (its
 *   implementation has only the form with tmp) (PTO_ERR_NULL_ARGUMENT).
 * - dst INT8 or UINT8 on every profile (the implementations'
 *   static_asserts); src FLOAT32 (PTO_ERR_UNSUPPORTED_DTYPE).
 * - a UINT8 dst with offset NULL is PTO_ERR_NULL_ARGUMENT; an INT8 dst with
 *   an offset PTO_ERR_INVALID_ARGUMENT (PTOAS's verifier).
 * - src's valid region equals dst's (PTO_ERR_SHAPE_MISMATCH).
 * - scale, then offset: FLOAT32 (PTO_ERR_UNSUPPORTED_DTYPE); valid rows
 *   dst's, or under HOST also 1, one value for every row (pto-isa's CPU
 *   model); at least one valid column, and under A2A3 and A5 exactly one
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - tmp, where given: FLOAT32 (PTO_ERR_UNSUPPORTED_DTYPE); under A2A3 its
 *   valid region src's (PTO_ERR_SHAPE_MISMATCH). Under HOST and A5 it is
 *   accepted and unused (A5's form with tmp ignores it).
 * - src, scale, offset and tmp share no storage with dst, and tmp none with
 *   a source (PTO_ERR_ALIASING).
 * In board mode under A2A3 and A5 the parameters' rows and columns rules
 * and an offset with an INT8 dst are warnings (docs/profiles.md).
 * The MX forms (MXFP8, MXFP4 with E8M0 scales) are pto_tquant_mx. */
PTO_API pto_status pto_tquant(pto_tile *dst, const pto_tile *src, const pto_tile *scale,
                              const pto_tile *offset, pto_tile *tmp);

/* TQUANT's MX forms: the element format and the shared exponent's
 * algorithm (pto-isa's MxQuantAlg, same values). */
typedef enum pto_mx_alg {
    PTO_MX_OCP_FP8_E4M3 = 0, /* MXFP8 E4M3, OCP exponent: the block maximum's less 8 */
    PTO_MX_NV_FP8_E4M3 = 1,  /* MXFP8 E4M3, NV exponent: of maximum / 448, rounded up */
    PTO_MX_OCP_FP4_E2M1 = 2, /* MXFP4 E2M1, OCP exponent: the block maximum's less 2 */
    PTO_MX_NV_FP4_E2M1 = 3   /* MXFP4 E2M1, NV exponent: of maximum / 6, rounded up */
} pto_mx_alg;

/* TQUANT, MX forms (pto-isa docs/isa/TQUANT.md, TQUANT_DN.md; A5's
 * a5/TQuant.hpp and its ST goldens decide where the page is silent): src
 * in blocks of 32 elements, each block sharing one E8M0 exponent. With
 * group_axis 1 (ND) block (i, g) is row i's columns 32g to 32g + 31; with
 * group_axis 0 (DN) block (g, j) is column j's rows 32g to 32g + 31; a last
 * block short of 32 holds the valid elements left (as A5's zero padding
 * gives it). Per block, exactly:
 * - m, the largest magnitude: of FLOAT32 and BFLOAT16 elements as they
 *   are; of FLOAT16 ones narrowed toward zero to bfloat16 under OCP (A5
 *   reduces bfloat16 bits), as float16 under NV.
 * - e8m0: OCP, m's biased exponent E less emax (8 for E4M3, 2 for E2M1),
 *   0 where E <= emax; NV, d = m * (1/448 or 1/6), a float32 rounded to
 *   nearest even, then d's biased exponent plus 1 where d is not a power
 *   of two (a subnormal d above 2^-127 gives 1, one at most 2^-127 gives
 *   0), and 254 for an infinite m. A NaN in the block gives 0xFF.
 * - the reciprocal scale s = 2^(127 - e8m0) (NaN for a NaN block).
 * - dst: each element x as the format's code of x * s, rounded to nearest
 *   even and saturating (E4M3 to +-448, E2M1 to +-6; an infinity gives
 *   the largest of its sign), zeros keeping their sign. In a NaN block
 *   E4M3 gives NaN (0xFF for an element that is a NaN with its sign bit
 *   set, else 0x7F) and E2M1, which has no NaN, 0x7 (+6) for every element.
 * exp(block) = e8m0; max(block) = m and scaling(block) = s, in src's dtype:
 * FLOAT32 as float32, BFLOAT16 as bfloat16; FLOAT16 as A5 keeps them,
 * m in bfloat16 bits under OCP and float16 under NV, s in bfloat16 bits
 * under both; a NaN block's m the quiet NaN (0x7FC00000, 0x7FC0, float16
 * 0x7E00), its s 0x7FC00000 for FLOAT32, else 0x7F81 (E4M3) or 0x7FC0
 * (E2M1). Tiles in ND grouping: exp, max and scaling have src's valid rows
 * and G = ceil(cols / 32) valid cols, or (PTOAS's legacy flat form) one
 * valid row of rows x G, block (i, g) at column i G + g; in DN ceil(rows /
 * 32) valid rows and src's valid cols. dst has src's valid region, counted in bytes: an E2M1
 * dst (PTO_FLOAT4_E2M1X2) holds two codes a byte, column 2k in the low
 * nibble, so its valid cols are half of src's. The bits are the same on
 * every profile and SIMD target. Rules, checked in this order:
 * - dst, src and exp not NULL (PTO_ERR_NULL_ARGUMENT); max and scaling
 *   may be NULL (scratch not written).
 * - alg a pto_mx_alg, group_axis 0 or 1 (PTO_ERR_INVALID_ARGUMENT).
 * - under PTO_PROFILE_A2A3 every call is PTO_ERR_UNSUPPORTED_DTYPE (the
 *   page: MX quantisation is A5's only); under HOST and A5: src FLOAT32,
 *   BFLOAT16 or FLOAT16 for E4M3, BFLOAT16 or FLOAT16 for E2M1 (the page:
 *   MXFP4 takes no FLOAT32); dst INT8, UINT8 or FLOAT8_E4M3 for E4M3
 *   (PTOAS's i8/ui8 and the type itself), FLOAT4_E2M1X2 for E2M1; exp
 *   UINT8, INT8 or FLOAT8_E8M0 (PTO_ERR_UNSUPPORTED_DTYPE).
 * - max and scaling, where given, of src's dtype (PTO_ERR_DTYPE_MISMATCH).
 * - dst's valid rows src's, its valid cols src's (E4M3) or half of them,
 *   src's valid cols even (E2M1: an odd count would leave half a byte);
 *   exp's, max's and scaling's valid region as above
 *   (PTO_ERR_SHAPE_MISMATCH).
 * - dst, exp, max and scaling share no storage with src or with each
 *   other (PTO_ERR_ALIASING).
 * MXFP8 E5M2 is not one of the page's formats and has no pto_mx_alg. In
 * text, pto.tquant.mx ins(%src) outs(%dst, %exp, %max, %scaling)
 * {quant_type = #pto<quant_type MXFP8|MXFP4_E2M1>[, quantScaleAlg = ...]
 * [, grpAxis = #pto<mx_group_axis axis0|axis1>]} (docs/pto-assembly.md). */
PTO_API pto_status pto_tquant_mx(pto_tile *dst, const pto_tile *src, pto_tile *exp,
                                 pto_tile *max, pto_tile *scaling, pto_mx_alg alg,
                                 int group_axis);

/* TQUANT_HIF4 (pto-isa docs/isa/TQUANT_HIF4.md, an A6 instruction; where
 * the page's summary and its ST golden differ, e.g. Ea, the golden decides:
 * tests/npu/a6/src/st/testcase/tquant/gen_data.py, as include/pto/npu/a6/
 * TQuant.hpp computes): BFLOAT16 src to HiFloat4 (arXiv:2602.11287), in
 * groups of 64 along each row (group g of row i: columns 64g to 64g + 63; a
 * last group short of 64 as if padded with zeros, as A6 pads). Every step
 * below marked "b" is a float32 product of two bfloat16 values rounded to
 * bfloat16 (nearest even), as the golden rounds after every operation. Per
 * group, exactly:
 * - Mc, Mb, Ma: the largest magnitude of each 4, each 8, the 64.
 * - Ea, an e6m2 code (6 exponent bits e, bias 48, over 2 mantissa bits m):
 *   d = b(Ma * bfloat16(1/7) = 0x3E12) rounded to e6m2, nearest even on the
 *   mantissa; d at or above 2^16 (an infinity too) saturates to 0xFE
 *   (1.5 * 2^15); below 2^-48 it is code 0, whose value is 0 (the
 *   golden's decoding), so a group with Ma below about 7.9 * 2^-48 (all
 *   zeros too) quantises to zeros. r = 1/e6m2(Ea) (a float64 quotient
 *   rounded to float32, then bfloat16; 0 for code 0).
 * - Eb of each 8: b(Mb * r) >= 4. Ec of each 4: b(b(Mc * r) * 2^-Eb) >= 2.
 * - s, each 4's scale: b(r * 2^-(Eb + Ec)).
 * - dst: each element x as the E1M2 code of y = b(x * s): the nearest of 0,
 *   0.25, ..., 1.75 to |y| (ties to the even code, saturating at 1.75; an
 *   infinity gives 1.75), its sign bit set where y < 0 (a negative zero x
 *   gives +0). FLOAT4_E1M2X2's encoding is HiFloat4's e1m2 table exactly.
 * - a group holding a NaN: Ea 0xFF (no number gives it;
 *   pto_tmatmul_mx_hif4 reads it as NaN), Eb and Ec 0, every element's code
 *   0x7 (+1.75), its scales NaN (0x7FC0). The golden defines no NaN.
 * exp(i, g): the group's 32-bit metadata word: bits 0-7 Ea, bit 8 + j Eb of
 * its 8-group j (0..7), bit 16 + q Ec of its 4-group q (0..15) (bits of
 * padding groups 0); in memory on a little-endian host the golden's bytes
 * Ea, Eb, Ec's low and high byte. max(i, q) = Mc and scaling(i, q) = s of
 * row i's 4-group q, bfloat16 (the golden's max4 and scale; NaN for Mc
 * over a NaN). dst has src's valid rows and half its valid cols (two codes
 * a byte, column 2k in the low nibble). Rules, checked in this order:
 * - dst, src and exp not NULL (PTO_ERR_NULL_ARGUMENT); max and scaling
 *   may be NULL (not written).
 * - vec tiles, as pto_tquant_mx (PTO_ERR_INVALID_ARGUMENT).
 * - under PTO_PROFILE_A2A3 and PTO_PROFILE_A5 every call is
 *   PTO_ERR_UNSUPPORTED_DTYPE (neither NPU has HiFloat4; PTO_PROFILE_HOST
 *   computes the A6 instruction); src BFLOAT16 (the implementation's only
 *   source), dst FLOAT4_E1M2X2, exp UINT32 (PTO_ERR_UNSUPPORTED_DTYPE).
 * - max and scaling, where given, BFLOAT16 (PTO_ERR_DTYPE_MISMATCH).
 * - src's valid cols even; dst's valid region src's rows x half its cols;
 *   exp's rows x ceil(cols / 64); max's and scaling's rows x ceil(cols /
 *   4) (PTO_ERR_SHAPE_MISMATCH).
 * - dst, exp, max and scaling share no storage with src or with each
 *   other (PTO_ERR_ALIASING).
 * The bits are the same on every SIMD target. The golden's exponents in
 * the cube's interleaved layout (ExpLayoutForCube) are not written: exp's
 * words are what pto_tmatmul_mx_hif4 reads. No text form (PTOAS has no op
 * for it): a program naming pto.tquant_hif4 is told to call this. */
PTO_API pto_status pto_tquant_hif4(pto_tile *dst, const pto_tile *src, pto_tile *exp,
                                   pto_tile *max, pto_tile *scaling);

/* TDEQUANT: dst(i, j) = (src(i, j) - offset(i)) * scale(i): src's integer
 * exactly as a float32, the difference and the product each a float32
 * rounded to nearest even (the NPUs' vsub then vmul). Rules, checked in
 * this order:
 * - dst, src, scale, offset not NULL (PTO_ERR_NULL_ARGUMENT).
 * - dst FLOAT32; src INT8 or INT16 on every profile
 *   (PTO_ERR_UNSUPPORTED_DTYPE).
 * - src's valid region equals dst's (PTO_ERR_SHAPE_MISMATCH).
 * - scale, then offset: FLOAT32 (PTO_ERR_UNSUPPORTED_DTYPE); valid rows
 *   dst's and at least one valid column (PTO_ERR_SHAPE_MISMATCH). The page's
 *   sentence on several parameter columns (column min(j, cols - 1)) is
 *   pto-isa's CPU model; its NPU implementations, ST goldens and PTOAS's
 *   samples read column 0, which every profile here reads.
 * - src, scale and offset share no storage with dst (PTO_ERR_ALIASING).
 * In board mode under A2A3 and A5 src's valid region and the parameters'
 * rows and columns rules are warnings (docs/profiles.md). */
PTO_API pto_status pto_tdequant(pto_tile *dst, const pto_tile *src, const pto_tile *scale,
                                const pto_tile *offset);

/* ------------------------------------------------------------------------ */
/* The fixpipe's conversions                                                 */
/* ------------------------------------------------------------------------ */
/*
 * The fixpipe moves an acc tile (FLOAT32 or INT32, PTO_LOC_ACC) out to a vec
 * or mat tile and converts each element on the way: TMOV_FP, TEXTRACT_FP,
 * TINSERT_FP (and a program's pto.tstore with fp, TSTORE_FP). Element (i, j)
 * of the moved window uses the quantisation word of its column j (the
 * window's, from 0): fp(0, j), or with fp NULL the calling thread's
 * configuration (pto_set_quant_scalar: one word for every column;
 * pto_set_quant_vector: fp's row 0 as it was copied then). The pages call
 * the conversion implementation-defined; libpto takes A5's implementation
 * (a5/common.hpp's quantisation modes by src and dst dtype, SetQuant*.hpp's
 * words) with pto-isa's model of the fixpipe arithmetic (cpu/common.hpp
 * quantize_element), docs/profiles.md [F-FIXPIPE]:
 * - the word: fp's UINT64 / INT64 elements are the fixpipe's 64-bit words;
 *   a FLOAT16, BFLOAT16 or FLOAT32 fp (A5's direct payload) gives the word
 *   of its value's FLOAT32 bits, with bit 46 set for an INT8 dst.
 * - the scale: for a vector word (fp, pto_set_quant_vector) the 19-bit float
 *   of bits 13..31 (sign, 8 exponent bits, 10 fraction bits: a FLOAT32
 *   value truncated to 10 fraction bits; exponent 0 with fraction f is
 *   (1 + f/1024) 2^-127, +0 when f = 0; exponent 255 is infinity); for a
 *   scalar word the FLOAT32 of bits 0..31.
 * - x = float(src) * scale, one FLOAT32 product rounded to nearest even (an
 *   INT32 src first rounded to FLOAT32 the same way).
 * - INT8, UINT8 dst: rint(x + offset) (offset the unsigned bits 37..45; the
 *   sum a FLOAT32, ties to even), clamped to [-128, 127] when bit 46 is set,
 *   else [0, 255], stored as its low 8 bits; NaN gives 0.
 * - FLOAT16 dst: finite x clamped to +-65504 (from INT32 src infinities
 *   too), then rounded to nearest even. BFLOAT16: rounded to nearest even.
 *   HIFLOAT8: rounded half away from zero, FLOAT8_E4M3 to nearest even (A5's
 *   tcvt of FLOAT32), saturating to the largest finite value.
 * - INT16 dst (A2A3's shift form, INT32 src): src >> (bits 32..35 + 1),
 *   arithmetic, its low 16 bits.
 * The pairs (src -> dst): A2A3: FLOAT32 -> INT8, UINT8, FLOAT16 (scalar
 * word only), BFLOAT16 (scalar only); INT32 -> INT8, UINT8, FLOAT16, INT16.
 * A5: FLOAT32 -> INT8, UINT8, FLOAT16, BFLOAT16, HIFLOAT8, FLOAT8_E4M3;
 * INT32 -> INT8, UINT8, FLOAT16, BFLOAT16. HOST: their union. Another pair
 * is PTO_ERR_UNSUPPORTED_DTYPE. The rules the three functions share, in
 * this order, after their NULL checks and dst's dtype:
 * - src an acc tile, dst a vec or mat tile (PTO_ERR_INVALID_ARGUMENT; under
 *   A2A3 a mat dst only); src FLOAT32 or INT32 and the pair above
 *   (PTO_ERR_UNSUPPORTED_DTYPE).
 * - fp a PTO_LOC_SCALING tile of one row (PTO_ERR_INVALID_ARGUMENT); UINT64
 *   or INT64, and under HOST and A5 also FLOAT16, BFLOAT16 or FLOAT32
 *   (PTO_ERR_UNSUPPORTED_DTYPE); at least as many valid cols as the window
 *   has columns (PTO_ERR_SHAPE_MISMATCH). With fp NULL the thread must have
 *   a configuration (PTO_ERR_INVALID_ARGUMENT), a vector one as wide as the
 *   window (PTO_ERR_SHAPE_MISMATCH); A2A3's FLOAT32 -> FLOAT16 and
 *   BFLOAT16 take a scalar one.
 * - dst, src and fp share no storage (PTO_ERR_ALIASING).
 * Nothing is written on a refusal.
 */

/* TMOV_FP: dst's valid region, dst(i, j) = convert(src(i, j), word j);
 * dst's valid region lies within src's rows x cols (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tmov_fp(pto_tile *dst, const pto_tile *src, const pto_tile *fp);

/* TEXTRACT_FP: dst(i, j) = convert(src(index_row + i, index_col + j),
 * word j) over dst's valid region, which lies within src's rows x cols from
 * (index_row, index_col) (PTO_ERR_OUT_OF_RANGE). */
PTO_API pto_status pto_textract_fp(pto_tile *dst, const pto_tile *src, const pto_tile *fp,
                                   size_t index_row, size_t index_col);

/* TINSERT_FP: dst(index_row + i, index_col + j) = convert(src(i, j), word
 * j) over src's valid region, which lies within dst's rows x cols from
 * (index_row, index_col) (PTO_ERR_OUT_OF_RANGE). */
PTO_API pto_status pto_tinsert_fp(pto_tile *dst, const pto_tile *src, const pto_tile *fp,
                                  size_t index_row, size_t index_col);

/* pto_tmov_fp_ex's flags (or-ed; 0 is pto_tmov_fp). */
#define PTO_FIXPIPE_RELU 1 /* TSTORE / TMOV's ReluPreMode::NormalRelu */
#define PTO_FIXPIPE_CAST 2 /* no quantisation word: the fixpipe's cast modes */
#define PTO_FIXPIPE_STORE 4 /* TSTORE's modes: also FLOAT32 -> FLOAT32 scaled */

/* TMOV_FP with the fixpipe's options, flags a combination of:
 * - PTO_FIXPIPE_RELU (A5's pre-quantisation relu, ReluPreMode::NormalRelu,
 *   a5/TStore.hpp and TMov.hpp): a value below zero becomes +0 inside the
 *   conversion, where pto-isa's model of the fixpipe (cpu/common.hpp
 *   quantize_element) applies it: for INT8 and UINT8 dst after the scale
 *   and before the offset and the rounding (x = float(src) * scale, then
 *   max(x, 0)); for FLOAT16 dst after the clamp to +-65504 and before the
 *   rounding; for BFLOAT16, HIFLOAT8, FLOAT8_E4M3 before the rounding; for
 *   INT16 (the shift form) on the shifted value. With a negative scale the
 *   relu acts on the scaled value, not on src. NaN and -0 are not below
 *   zero and go on as they are.
 * - PTO_FIXPIPE_CAST: no quantisation word (A5's NoQuant, F322F16, F322BF16
 *   modes): fp NULL (PTO_ERR_INVALID_ARGUMENT) and the thread's
 *   configuration not read; the pairs FLOAT32 -> FLOAT32 (copied), FLOAT16,
 *   BFLOAT16 (rounded to nearest even) and INT32 -> INT32 under every
 *   profile (PTO_ERR_UNSUPPORTED_DTYPE otherwise); with PTO_FIXPIPE_RELU a
 *   value below zero becomes +0 before the cast.
 * - PTO_FIXPIPE_STORE: the pairs of TSTORE's store to global memory
 *   (a5/TStore.hpp's modes), which add to pto_tmov_fp's a scaled FLOAT32 ->
 *   FLOAT32 under HOST and A5 (QF322F32_PRE, VQF322F32_PRE): x =
 *   float(src) * scale, the FLOAT32 product, stored as it is.
 * Other bits are PTO_ERR_INVALID_ARGUMENT. Otherwise the rules and errors
 * are pto_tmov_fp's, in its order (the quantising pairs and fp's rules
 * only without PTO_FIXPIPE_CAST); nothing is written on a refusal. In
 * programs: pto.tstore from an acc tile (with or without fp) with
 * `{reluPreMode = #pto<relu_pre_mode normal_relu>}`. */
PTO_API pto_status pto_tmov_fp_ex(pto_tile *dst, const pto_tile *src, const pto_tile *fp,
                                  unsigned flags);

/* SET_QUANT_SCALAR: the calling thread's fixpipe configuration becomes one
 * scalar word for every column, as A5 builds it (a5/SetQuantScalar.hpp):
 * scale's FLOAT32 bits sign-extended to 64 bits (a negative scale sets
 * bits 32..63, offset bits included), then for a 1-byte dtype bit 46 set
 * for INT8 and cleared for UINT8. dtype is the output the word is meant
 * for: INT8, UINT8, INT16, FLOAT16, BFLOAT16, HIFLOAT8 or FLOAT8_E4M3
 * (PTO_ERR_UNSUPPORTED_DTYPE otherwise; the configuration is kept). */
PTO_API pto_status pto_set_quant_scalar(float scale, pto_dtype dtype);

/* SET_QUANT_VECTOR: the calling thread's fixpipe configuration becomes fp's
 * row 0 (its valid cols), copied now: later writes to fp are not seen. fp
 * not NULL (PTO_ERR_NULL_ARGUMENT); a PTO_LOC_SCALING tile of one row
 * (PTO_ERR_INVALID_ARGUMENT); UINT64, INT64, FLOAT16, BFLOAT16 or FLOAT32
 * (PTO_ERR_UNSUPPORTED_DTYPE); PTO_ERR_OUT_OF_MEMORY if the copy cannot be
 * allocated. A refusal keeps the configuration. */
PTO_API pto_status pto_set_quant_vector(const pto_tile *fp);

/* ------------------------------------------------------------------------ */
/* Element types by name                                                     */
/* ------------------------------------------------------------------------ */

/* The dtype's name without the PTO_ prefix: "INT8", "UINT8", "INT16",
 * "UINT16", "INT32", "UINT32", "FLOAT16", "BFLOAT16", "FLOAT32", "INT64",
 * "UINT64", "FLOAT8_E4M3", "FLOAT8_E5M2", "HIFLOAT8", "FLOAT8_E8M0",
 * "FLOAT4_E2M1X2", "FLOAT4_E1M2X2", "INT4X2"; "UNKNOWN" for a value outside
 * the enum. Never NULL. */
PTO_API const char *pto_dtype_string(pto_dtype d);

/* ------------------------------------------------------------------------ */
/* Programs: PTO assembly text                                               */
/* ------------------------------------------------------------------------ */
/*
 * A program is PTO assembly text (the subset the README's "PTO assembly"
 * section defines: the synchronous form, AS Level 1 (SSA), AS Level 2 (DPS),
 * manual placement with pto.tassign, and kernels over global memory in a
 * func.func), parsed and verified once by pto_program_create, then run any
 * number of times, from any threads, with arguments bound in a pto_args.
 *
 * Profile: the module's pto.target_arch ("a3" or "a2a3": A2A3; "a5": A5)
 * when present, else the calling thread's profile at creation. A module
 * target that differs from a non-HOST thread profile is
 * PTO_ERR_INVALID_ARGUMENT. The program keeps that profile for every run,
 * whatever thread runs it.
 *
 * Diagnostics: a text that does not parse or verify is refused with the
 * status the C API would return for the same mistake (PTO_ERR_INVALID_ARGUMENT
 * for syntax and unsupported constructs), nothing is created, and
 * pto_last_error() reads "SOURCE:LINE:COL: error: SENTENCE" (1-based line
 * and column of the offending token; SENTENCE as the C API's where the C API
 * has the same rule). The first error stops.
 *
 * Parameters: a kernel's parameters are its entry func.func's arguments in
 * order; a snippet (text with no func.func) has one tile parameter per free
 * tile name (used before any definition, or declared with .arg) and one per
 * tile it defines as a result, in order of first appearance. Each has a kind,
 * a dtype, for tiles a declared shape, and an access: PTO_PARAM_READ if the
 * program reads its value as bound, PTO_PARAM_WRITE if the program writes it.
 *
 * Results are bit-identical to the equivalent sequence of C API calls under
 * the program's profile.
 */

/* A verified program; immutable once created. */
typedef struct pto_program pto_program;

/* The values bound to one program's parameters for a run. */
typedef struct pto_args pto_args;

/* What a parameter is. */
typedef enum pto_param_kind {
    PTO_PARAM_POINTER = 0, /* !pto.ptr<T>: global memory, an array of dtype T */
    PTO_PARAM_INT = 1,     /* index, i1, i8, i16, i32, i64 scalar */
    PTO_PARAM_FLOAT = 2,   /* f16, bf16, f32, f64 scalar */
    PTO_PARAM_TILE = 3     /* a tile (tile-typed func argument, snippet tile) */
} pto_param_kind;

/* pto_program_param_access flags. */
#define PTO_PARAM_READ 1u
#define PTO_PARAM_WRITE 2u

/* Parses and verifies length bytes of text (need not be NUL-terminated) and
 * stores the program in *out. source_name names the text in diagnostics
 * (NULL: "<string>").
 * Errors: PTO_ERR_NULL_ARGUMENT if text or out is NULL; a syntax error or a
 * construct outside the supported subset is PTO_ERR_INVALID_ARGUMENT; a rule
 * an operation's C function checks gives that function's status (e.g.
 * PTO_ERR_UNSUPPORTED_DTYPE, PTO_ERR_SHAPE_MISMATCH, PTO_ERR_ALIASING); a tile
 * outside the profile's unified buffer is PTO_ERR_OUT_OF_RANGE;
 * PTO_ERR_OUT_OF_MEMORY. On failure *out is left unchanged. */
PTO_API pto_status pto_program_create(const char *text, size_t length, const char *source_name,
                                      pto_program **out);

/* pto_program_create with the entry function chosen by name: entry (with or
 * without a leading '@') names a func.func of the module; NULL or "" chooses
 * as pto_program_create does: the function marked pto.entry (or pto.kernel,
 * or with a pto.kernel_kind attribute), else the module's only public
 * function, else its only function. A named cube or vector kernel
 * (pto.kernel_kind) of a module with one of each on the same arguments runs
 * with the other, as one block's cores. Every other function of the module
 * is checked too (a module is accepted whole or not at all); a call is read
 * in place (func.call; recursion is refused).
 * Errors: those of pto_program_create; PTO_ERR_INVALID_ARGUMENT if no
 * function has that name, or, with no name, if the module marks several
 * entries or has several public functions and marks none (reported once
 * every function has verified: a function's own error comes first). */
PTO_API pto_status pto_program_create_entry(const char *text, size_t length,
                                            const char *source_name, const char *entry,
                                            pto_program **out);

/* Verifies a text as pto_program_create does, without needing an entry: for
 * checking a module of several kernels (pto-run --check). Every func.func is
 * verified (each as the entry pto_program_create_entry would make it, its
 * calls read in place). Where the module's marks choose an entry,
 * *out is the program pto_program_create gives. Where they do not (several
 * functions marked, or several public ones and none marked), *out has no
 * parameters, pto_program_describe lists the functions and why none is the
 * entry, and pto_program_run / pto_program_launch refuse it
 * (PTO_ERR_INVALID_ARGUMENT, asking for pto_program_create_entry).
 * Errors: those of pto_program_create but the entry choice. */
PTO_API pto_status pto_program_check(const char *text, size_t length, const char *source_name,
                                     pto_program **out);

/* A description of the verified program, in lines of text: the module's
 * functions with their parameters (the entry marked), the unified buffer's
 * use (bytes used, the most bytes live at once) and every tile's place in it
 * (address range, and how it was placed: by the text, as a parameter, or by
 * liveness with its live instructions). Valid while the program exists; ""
 * for NULL. pto-run --check prints it. */
PTO_API const char *pto_program_describe(const pto_program *program);

/* Frees the program. NULL is a no-op. Argument sets made for it must be
 * destroyed too (before or after). */
PTO_API void pto_program_destroy(pto_program *program);

/* The profile the program was verified under; PTO_PROFILE_HOST for NULL. */
PTO_API pto_profile pto_program_profile(const pto_program *program);

/* Number of parameters; 0 for NULL. */
PTO_API size_t pto_program_param_count(const pto_program *program);

/* Parameter index's name without '%', valid while the program exists; NULL
 * for NULL or an index >= pto_program_param_count. */
PTO_API const char *pto_program_param_name(const pto_program *program, size_t index);

/* Parameter index's kind; PTO_PARAM_POINTER for NULL or a bad index (check
 * the index first). */
PTO_API pto_param_kind pto_program_param_kind(const pto_program *program, size_t index);

/* The element type of a POINTER or TILE parameter; for an INT parameter
 * PTO_INT8, PTO_INT16 or PTO_INT32 where the declared type is one of those
 * widths and PTO_INT32 otherwise (i1, i64, index: see
 * pto_args_set_int); for a FLOAT parameter PTO_FLOAT16, PTO_BFLOAT16 or
 * PTO_FLOAT32 (FLOAT32 for f64). (pto_dtype)0 for NULL or a bad index. */
PTO_API pto_dtype pto_program_param_dtype(const pto_program *program, size_t index);

/* A TILE parameter's declared rows and cols; 0 for other kinds, NULL or a bad
 * index. */
PTO_API uint32_t pto_program_param_rows(const pto_program *program, size_t index);
PTO_API uint32_t pto_program_param_cols(const pto_program *program, size_t index);

/* A TILE parameter's declared valid rows and cols: the type's static values,
 * or -1 where the type says `?` (a bound tile's region is then taken at the
 * start of a run; an unbound tile starts with 0 there); 0 for other kinds,
 * NULL or a bad index. */
PTO_API int64_t pto_program_param_valid_rows(const pto_program *program, size_t index);
PTO_API int64_t pto_program_param_valid_cols(const pto_program *program, size_t index);

/* PTO_PARAM_READ and/or PTO_PARAM_WRITE (global memory through a pointer:
 * READ if the program loads from it, WRITE if it stores to it; scalars are
 * READ); 0 for NULL or a bad index. */
PTO_API unsigned pto_program_param_access(const pto_program *program, size_t index);

/* Finds a parameter by name (with or without a leading '%') and stores its
 * index in *index.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT if the program has
 * no parameter of that name (*index unchanged). */
PTO_API pto_status pto_program_param_find(const pto_program *program, const char *name,
                                          size_t *index);

/* Creates an empty argument set for program (nothing bound) in *out. The
 * program must outlive it.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_OUT_OF_MEMORY. */
PTO_API pto_status pto_args_create(const pto_program *program, pto_args **out);

/* Frees the argument set (never the memory or tiles bound in it). NULL is a
 * no-op. */
PTO_API void pto_args_destroy(pto_args *args);

/* Binds a POINTER parameter to nbytes of the caller's memory (zero-copy: the
 * program loads from and stores to it during runs; the caller keeps it alive).
 * Errors: PTO_ERR_NULL_ARGUMENT (args or data); PTO_ERR_INVALID_ARGUMENT for
 * a bad index, a parameter of another kind, nbytes not a multiple of the
 * element size, or data not aligned to the element size. */
PTO_API pto_status pto_args_set_pointer(pto_args *args, size_t index, void *data, size_t nbytes);

/* Binds an INT parameter. value must fit the declared type (i1: 0 or 1; iN:
 * signed N bits; index and i64: any value).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for a bad index or
 * kind; PTO_ERR_OUT_OF_RANGE for a value that does not fit. */
PTO_API pto_status pto_args_set_int(pto_args *args, size_t index, int64_t value);

/* Binds a FLOAT parameter (rounded to nearest even to the declared type).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for a bad index or
 * kind. */
PTO_API pto_status pto_args_set_float(pto_args *args, size_t index, double value);

/* Binds a TILE parameter to a tile (not copied now; see the run functions).
 * The tile must have the declared dtype (PTO_ERR_DTYPE_MISMATCH) and rows x
 * cols (PTO_ERR_SHAPE_MISMATCH); where the declared valid region is static,
 * the tile's valid region must equal it (PTO_ERR_SHAPE_MISMATCH). A tile
 * parameter is a vec tile (a kernel's cube tiles come from global memory),
 * so a cube tile (pto_tile_create_cube) is PTO_ERR_INVALID_ARGUMENT.
 * NULL unbinds. Errors, in order: PTO_ERR_NULL_ARGUMENT (args);
 * PTO_ERR_INVALID_ARGUMENT for a bad index or kind; the rules above. */
PTO_API pto_status pto_args_set_tile(pto_args *args, size_t index, pto_tile *tile);

/* Runs the program once as block 0 of 1. Same as pto_program_launch(program,
 * 1, args). */
PTO_API pto_status pto_program_run(const pto_program *program, const pto_args *args);

/* Runs the program for block ids 0..blocks-1 (pto.get_block_idx,
 * pto.get_block_num), concurrently on at most as many threads as online
 * CPUs (or the PTO_NUM_THREADS environment variable, if set to a positive
 * number; read at each launch): the calling thread and threads of a pool
 * that the first such launch starts and later ones reuse (a pool thread with
 * no blocks to run polls for 50 microseconds, then sleeps). Launches may be
 * made from several threads at once, with one program or several: each
 * caller runs its own blocks too, so every launch completes whatever the
 * others do. A child process after fork gets a pool of its own at its first
 * launch. Each block has its own unified buffer, zero-filled when the block
 * starts (the bytes its tiles occupy, all that a block can reach), so tiles
 * placed at the same address in different blocks do not collide; global
 * memory is shared. Bound tiles the program reads (PTO_PARAM_READ) are copied into the
 * block's tiles before the run, and bound tiles the program writes
 * (PTO_PARAM_WRITE) are copied back (the whole tile, and its valid region)
 * after it; a tile parameter that is not bound starts zero-filled.
 * Errors, before anything runs: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT
 * if the program has no entry (pto_program_check), args was made for another
 * program, blocks is 0 or above 65536, a
 * parameter the program reads is not bound, or blocks > 1 with a bound tile
 * the program writes; PTO_ERR_OUT_OF_RANGE, with a multi-card transport
 * registered (pto_comm.h), for a bound pointer that touches a rank's window
 * without lying inside one window for its whole byte length (the sentence
 * names the parameter, the rank and the window). During the run: an access outside a bound pointer's
 * memory, outside a view, or a valid region or argument that a rule refuses
 * stops the block before that instruction writes anything, with the status
 * and a diagnostic "SOURCE:LINE:COL: error: SENTENCE" for the instruction;
 * other blocks stop at their next instruction; the first error is returned.
 * Floating-point mode: as every operation (IEEE defaults, caller's restored). */
PTO_API pto_status pto_program_launch(const pto_program *program, uint32_t blocks,
                                      const pto_args *args);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTO_C_H */
