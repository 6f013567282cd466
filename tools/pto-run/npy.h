/*
 * npy.h - reading and writing NumPy .npy arrays (C11, no dependencies).
 *
 * Read: format versions 1.0, 2.0 and 3.0; C order only; little-endian or
 * byte-order-free descrs for the eleven element types libpto computes:
 *   <i1 |i1  |u1  <i2  <u2  <i4  <u4  <f2  <f4  <i8  <u8
 * and "<V2", the descr NumPy writes for ml_dtypes' bfloat16 (the dtype's name
 * is not recorded), read as bfloat16 bits; "<V1" and "|V1" (ml_dtypes'
 * float8_e4m3fn and float8_e8m0fnu, en_dtypes' hifloat8) as bytes, "<f1"
 * (ml_dtypes' float8_e5m2) as FLOAT8_E5M2. Big-endian data, Fortran order,
 * structured dtypes and every other descr are refused with a sentence.
 * Headers are parsed from bounded memory, sizes are overflow-checked and
 * nothing is allocated before the data is known to be present.
 *
 * Write: format version 1.0, header padded with spaces to a multiple of 64
 * bytes as NumPy does; bfloat16 is written as "<u2" (its raw bits), the
 * low-precision types as "|u1" (theirs).
 *
 * Errors: functions returning int return 0 on success and -1 on failure,
 * with a sentence in err (errlen bytes, may be 0) and nothing to free.
 */
#ifndef PTO_RUN_NPY_H
#define PTO_RUN_NPY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most dimensions an array may have (NumPy 1.x's limit). */
#define NPY_MAX_DIMS 32
/* Longest header accepted (NumPy's default max_header_size). */
#define NPY_MAX_HEADER_BYTES 10000u

typedef enum npy_dtype {
    NPY_INT8,
    NPY_UINT8,
    NPY_INT16,
    NPY_UINT16,
    NPY_INT32,
    NPY_UINT32,
    NPY_FLOAT16,
    NPY_BFLOAT16, /* read from "<V2"; "<u2" reads as NPY_UINT16 */
    NPY_FLOAT32,
    NPY_INT64,
    NPY_UINT64,
    /* libpto's low-precision types, written as "|u1" (their raw bytes) */
    NPY_FLOAT8_E4M3,
    NPY_FLOAT8_E5M2, /* also read from "<f1", ml_dtypes' float8_e5m2 */
    NPY_HIFLOAT8,
    NPY_FLOAT8_E8M0,
    NPY_FLOAT4_E2M1X2,
    NPY_FLOAT4_E1M2X2,
    NPY_INT4X2,
    NPY_BYTE /* read from "<V1" / "|V1": a 1-byte type NumPy does not name
              * (ml_dtypes' float8_e4m3fn, float8_e8m0fnu, en_dtypes' hifloat8) */
} npy_dtype;

/* What a header says. */
typedef struct npy_header {
    npy_dtype dtype;
    int ndim;                    /* 0 .. NPY_MAX_DIMS */
    size_t shape[NPY_MAX_DIMS];
    size_t count;                /* product of shape (1 for 0-d) */
    size_t nbytes;               /* count * element size */
    size_t data_offset;          /* bytes before the data: magic, length, header */
    int major_version;           /* 1, 2 or 3 */
} npy_header;

/* An array read into memory. */
typedef struct npy_array {
    npy_header header;
    void *data; /* nbytes (at least 64 bytes allocated), 64-byte aligned, owned */
} npy_array;

/* Bytes per element; 0 for a value outside the enum. */
size_t npy_dtype_size(npy_dtype dtype);

/* The descr written for dtype ("<f4", ..., "<u2" for bfloat16). */
const char *npy_dtype_descr(npy_dtype dtype);

/* Parses the header at the start of len bytes (the data need not follow). */
int npy_parse_header(const void *bytes, size_t len, npy_header *out, char *err, size_t errlen);

/* Reads a whole .npy image from memory into *out (the data copied). */
int npy_read_memory(const void *bytes, size_t len, npy_array *out, char *err, size_t errlen);

/* Reads the .npy file at path into *out. */
int npy_read_file(const char *path, npy_array *out, char *err, size_t errlen);

/* Makes a zero-filled array of dtype and shape in *out. */
int npy_array_zeros(npy_array *out, npy_dtype dtype, int ndim, const size_t *shape, char *err,
                    size_t errlen);

/* Frees the array's data and clears it; NULL is a no-op. */
void npy_array_free(npy_array *array);

/* Formats a version 1.0 header for dtype and shape into buf (cap bytes).
 * Returns its length (a multiple of 64), or 0 if cap is too small, ndim is
 * outside 0..NPY_MAX_DIMS or dtype outside the enum. */
size_t npy_format_header(char *buf, size_t cap, npy_dtype dtype, int ndim, const size_t *shape);

/* Writes an array (count = product of shape elements of dtype at data) as a
 * version 1.0 .npy file at path, replacing it. */
int npy_write_file(const char *path, npy_dtype dtype, int ndim, const size_t *shape,
                   const void *data, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* PTO_RUN_NPY_H */
