/*
 * pto_c.h - the libpto C ABI.
 *
 * libpto runs the PTO tile instructions (TPOW, TRSQRT, TPRELU, TCOLEXPANDDIV,
 * TPARTADD) on ordinary CPUs with SIMD kernels chosen at run time.
 *
 * Conventions shared by every function below:
 *  - Every fallible call returns a pto_status; PTO_OK is 0. On failure nothing
 *    observable changes (no operand is written) and pto_last_error() returns a
 *    sentence, for the calling thread, naming the function, the operand and the
 *    rule that failed.
 *  - No call aborts, asserts, prints or exits on bad input.
 *  - Distinct tiles may be used concurrently from any threads. A tile that one
 *    thread writes must not be used by another thread at the same time.
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
#define PTO_VERSION_MINOR 1
#define PTO_VERSION_PATCH 0
#define PTO_VERSION_STRING "0.1.0"

/* Largest tile, in bytes (rows * cols * element size), that pto_tile_create
 * accepts: 256 MiB. Larger requests fail with PTO_ERR_INVALID_ARGUMENT before
 * anything is allocated. */
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

/* Element types. */
typedef enum pto_dtype {
    PTO_INT8 = 0,
    PTO_UINT8 = 1,
    PTO_INT16 = 2,
    PTO_UINT16 = 3,
    PTO_INT32 = 4,
    PTO_UINT32 = 5,
    PTO_FLOAT16 = 6,  /* IEEE binary16 */
    PTO_BFLOAT16 = 7, /* bfloat16: the upper half of an IEEE binary32 */
    PTO_FLOAT32 = 8
} pto_dtype;

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
    PTO_POW_HIGH_PRECISION = 1 /* slower, <= 1 ulp, exact when the exact result is representable */
} pto_pow_algorithm;

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
 * libpto call. A successful call does not clear it. */
PTO_API const char *pto_last_error(void);

/* Name of the SIMD target the kernels dispatch to now, e.g. "AVX2", "AVX3",
 * "SSE4" or "EMU128" (the portable fallback). Never NULL. */
PTO_API const char *pto_simd_target(void);

/* Bytes per element of dtype; 0 for a value outside the enum. */
PTO_API size_t pto_dtype_size(pto_dtype dtype);

/* ------------------------------------------------------------------------ */
/* Tiles                                                                     */
/* ------------------------------------------------------------------------ */
/*
 * A tile is a rows x cols row-major array of one element type, contiguous (the
 * row stride is cols elements), with a valid region valid_rows x valid_cols
 * anchored at (0, 0). The valid region starts as the whole tile. Storage is
 * 64-byte aligned and zero-filled at creation.
 */

/* Creates a tile and stores its handle in *out.
 * Errors: PTO_ERR_NULL_ARGUMENT if out is NULL; PTO_ERR_INVALID_ARGUMENT for a
 * dtype outside the enum, rows or cols of 0, or rows*cols*size above
 * PTO_TILE_MAX_BYTES (decided before any allocation); PTO_ERR_OUT_OF_MEMORY.
 * On failure *out is left unchanged. */
PTO_API pto_status pto_tile_create(pto_dtype dtype, uint32_t rows, uint32_t cols, pto_tile **out);

/* Frees the tile and its storage. NULL is a no-op. */
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

/* The tile's storage: rows*cols elements in the tile's encoding, 64-byte
 * aligned, owned by the tile. NULL for NULL. */
PTO_API void *pto_tile_data(pto_tile *tile);

/* Copies the whole tile (not just the valid region) from src, in the tile's own
 * element encoding. nbytes must equal rows*cols*pto_dtype_size(dtype).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for a wrong nbytes. */
PTO_API pto_status pto_tile_write(pto_tile *tile, const void *src, size_t nbytes);

/* Copies the whole tile into dst. Same rules as pto_tile_write. */
PTO_API pto_status pto_tile_read(const pto_tile *tile, void *dst, size_t nbytes);

/* Copies the whole tile from count floats, narrowing with round-to-nearest-even
 * (NaN stays NaN, overflow gives infinity). Only FLOAT16, BFLOAT16 and FLOAT32
 * tiles. count must equal rows*cols.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_UNSUPPORTED_DTYPE for an integer
 * tile; PTO_ERR_INVALID_ARGUMENT for a wrong count. */
PTO_API pto_status pto_tile_write_f32(pto_tile *tile, const float *src, size_t count);

/* Copies the whole tile into count floats (widening is exact). Same rules as
 * pto_tile_write_f32. */
PTO_API pto_status pto_tile_read_f32(const pto_tile *tile, float *dst, size_t count);

/* ------------------------------------------------------------------------ */
/* Operations                                                                */
/* ------------------------------------------------------------------------ */
/*
 * Rules common to all five operations:
 *  - Every tile argument except an optional tmp must be non-NULL
 *    (PTO_ERR_NULL_ARGUMENT).
 *  - The iteration domain is dst's valid region; elements of dst outside it
 *    are never written. A call that passes every check with an empty dst valid
 *    region returns PTO_OK and writes nothing.
 *  - dst may be the very same handle as any source (in place); the result is
 *    the same as with a separate dst. A tmp must be a handle distinct from dst
 *    and every source (PTO_ERR_ALIASING).
 *  - Operands may have different physical shapes; only valid regions matter.
 *  - Checks run before any write, in this order, and the first failing one
 *    decides the status: NULL handles; enum arguments; element types (dst's
 *    type unsupported, then another operand's type differing from dst's);
 *    aliasing; valid regions. So a FLOAT32 dst with a BFLOAT16 src is
 *    PTO_ERR_DTYPE_MISMATCH, a BFLOAT16 dst PTO_ERR_UNSUPPORTED_DTYPE.
 */

/* dst[i,j] = base[i,j] ^ exp[i,j].
 * - dst, base, exp and tmp have equal dtypes (PTO_ERR_DTYPE_MISMATCH).
 *   PTO_POW_DEFAULT: all nine dtypes. PTO_POW_HIGH_PRECISION: FLOAT16,
 *   BFLOAT16, FLOAT32; an integer dtype with it is PTO_ERR_UNSUPPORTED_DTYPE.
 *   An algo outside the enum is PTO_ERR_INVALID_ARGUMENT.
 * - tmp is required (PTO_ERR_NULL_ARGUMENT) and distinct from the others
 *   (PTO_ERR_ALIASING); its contents afterwards are unspecified.
 * - base, exp and tmp valid regions equal dst's (PTO_ERR_SHAPE_MISMATCH).
 * - Floating point: C99 Annex F pow for every special case (as std::pow).
 *   FLOAT32 HIGH_PRECISION: <= 1 ulp everywhere, exact where the exact result
 *   is representable; FLOAT32 DEFAULT: <= 8 ulp where the result is normal.
 *   FLOAT16/BFLOAT16: <= 1 ulp with either algorithm.
 * - Integers: exact, wrapping modulo 2^bits; x^0 = 1 (0^0 too); a negative
 *   exponent gives 1 for base 1, +/-1 for base -1 (by parity), 0 otherwise. */
PTO_API pto_status pto_tpow(pto_tile *dst, const pto_tile *base, const pto_tile *exp,
                            pto_tile *tmp, pto_pow_algorithm algo);

/* dst[i,j] = 1 / sqrt(src[i,j]), FLOAT32 or FLOAT16 (else
 * PTO_ERR_UNSUPPORTED_DTYPE), equal dtypes, src valid region equal to dst's.
 * +0 -> +inf, -0 -> -inf, negative -> NaN, +inf -> +0, NaN -> NaN; <= 1 ulp. */
PTO_API pto_status pto_trsqrt(pto_tile *dst, const pto_tile *src);

/* dst[i,j] = src0[i,j] > 0 ? src0[i,j] : src0[i,j] * src1[i,j] (src1 is the
 * per-element slope). All nine dtypes, all equal; integer products wrap; float
 * products are correctly rounded. src0 and src1 valid regions equal dst's.
 * tmp may be NULL (this target needs none); if given it must be distinct from
 * the others (PTO_ERR_ALIASING) and its contents are left unchanged. */
PTO_API pto_status pto_tprelu(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                              pto_tile *tmp);

/* dst[i,j] = src0[i,j] / src1[0,j]: each column divided by src1's row 0.
 * FLOAT32 or FLOAT16, all equal. src0's valid region equals dst's; src1 needs
 * valid_rows >= 1 and valid_cols >= dst's valid_cols (PTO_ERR_SHAPE_MISMATCH).
 * IEEE division, correctly rounded (x/0 is +/-inf, 0/0 is NaN). With dst ==
 * src1 every row is still divided by the original row 0. */
PTO_API pto_status pto_tcolexpanddiv(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

/* Over dst's valid region: src0 + src1 where both sources' valid regions
 * contain (i,j), a copy of the one source that does where only one does.
 * All nine dtypes, all equal; integer sums wrap; float sums correctly rounded.
 * Supported patterns: one source's valid region equals dst's and the other's
 * does not exceed dst's in either dimension. Every other pattern is
 * PTO_ERR_SHAPE_MISMATCH. */
PTO_API pto_status pto_tpartadd(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTO_C_H */
