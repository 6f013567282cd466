/* .npy reading and writing; see npy.h for what is accepted. The header is a
 * Python dict literal; only the three keys NumPy writes are parsed, by a
 * bounded cursor that never reads past the header's stated length. */
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
/* NumPy leaves room after the dict for the first axis to grow to this many
 * digits, so that files it writes can be appended to in place. */
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

static const struct {
    const char *descr;
    npy_dtype dtype;
} kDescrs[] = {
    {"<i1", NPY_INT8},    {"|i1", NPY_INT8},    {"|u1", NPY_UINT8},
    {"<i2", NPY_INT16},   {"<u2", NPY_UINT16},  {"<i4", NPY_INT32},
    {"<u4", NPY_UINT32},  {"<f2", NPY_FLOAT16}, {"<f4", NPY_FLOAT32},
    {"<i8", NPY_INT64},   {"<u8", NPY_UINT64},
    {"<V2", NPY_BFLOAT16}, /* ml_dtypes' bfloat16 as NumPy saves it */
    {"<V1", NPY_BYTE},     {"|V1", NPY_BYTE}, /* ml_dtypes' 1-byte floats */
    {"<f1", NPY_FLOAT8_E5M2},
};

static void set_error(char *err, size_t errlen, const char *format, ...) {
    if (err == NULL || errlen == 0)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(err, errlen, format, args);
    va_end(args);
}

size_t npy_dtype_size(npy_dtype dtype) {
    switch (dtype) {
    case NPY_INT8:
    case NPY_UINT8:
        return 1;
    case NPY_INT16:
    case NPY_UINT16:
    case NPY_FLOAT16:
    case NPY_BFLOAT16:
        return 2;
    case NPY_INT32:
    case NPY_UINT32:
    case NPY_FLOAT32:
        return 4;
    case NPY_INT64:
    case NPY_UINT64:
        return 8;
    default: /* the low-precision types and NPY_BYTE: a byte each */
        return dtype >= NPY_FLOAT8_E4M3 && dtype <= NPY_BYTE ? 1 : 0;
    }
}

const char *npy_dtype_descr(npy_dtype dtype) {
    switch (dtype) {
    case NPY_INT8: return "|i1";
    case NPY_UINT8: return "|u1";
    case NPY_INT16: return "<i2";
    case NPY_UINT16: return "<u2";
    case NPY_INT32: return "<i4";
    case NPY_UINT32: return "<u4";
    case NPY_FLOAT16: return "<f2";
    case NPY_BFLOAT16: return "<u2";
    case NPY_FLOAT32: return "<f4";
    case NPY_INT64: return "<i8";
    case NPY_UINT64: return "<u8";
    default: /* the low-precision types and NPY_BYTE: their raw bytes */
        return dtype >= NPY_FLOAT8_E4M3 && dtype <= NPY_BYTE ? "|u1" : NULL;
    }
}

/* ---- the header dict ---------------------------------------------------- */

typedef struct cursor {
    const char *p;
    const char *end;
    char *err;
    size_t errlen;
} cursor;

static void skip_space(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        ++c->p;
}

static int peek(const cursor *c) { return c->p < c->end ? (unsigned char)*c->p : -1; }

static int expect(cursor *c, char ch, const char *where) {
    skip_space(c);
    if (peek(c) != (unsigned char)ch) {
        set_error(c->err, c->errlen, "malformed .npy header: expected '%c' %s", ch, where);
        return -1;
    }
    ++c->p;
    return 0;
}

/* A quoted string without escapes, into out (cap bytes, NUL-terminated). */
static int parse_string(cursor *c, char *out, size_t cap, const char *what) {
    skip_space(c);
    int quote = peek(c);
    if (quote != '\'' && quote != '"') {
        set_error(c->err, c->errlen, "malformed .npy header: %s is not a string", what);
        return -1;
    }
    ++c->p;
    size_t n = 0;
    while (c->p < c->end && *c->p != quote) {
        if (*c->p == '\\' || n + 1 >= cap) {
            set_error(c->err, c->errlen, "malformed .npy header: %s is too long or escaped", what);
            return -1;
        }
        out[n++] = *c->p++;
    }
    if (c->p >= c->end) {
        set_error(c->err, c->errlen, "malformed .npy header: unterminated string in %s", what);
        return -1;
    }
    ++c->p;
    out[n] = '\0';
    return 0;
}

static int parse_bool(cursor *c, int *out) {
    skip_space(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
        c->p += 4;
        *out = 1;
        return 0;
    }
    if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
        c->p += 5;
        *out = 0;
        return 0;
    }
    set_error(c->err, c->errlen, "malformed .npy header: fortran_order is not True or False");
    return -1;
}

/* A non-negative decimal integer (Python 2's trailing L allowed). */
static int parse_dim(cursor *c, size_t *out) {
    skip_space(c);
    if (peek(c) < '0' || peek(c) > '9') {
        set_error(c->err, c->errlen,
                  "malformed .npy header: a shape dimension is not a non-negative integer");
        return -1;
    }
    size_t value = 0;
    while (peek(c) >= '0' && peek(c) <= '9') {
        size_t digit = (size_t)(*c->p - '0');
        if (value > (SIZE_MAX - digit) / 10) {
            set_error(c->err, c->errlen, "malformed .npy header: a shape dimension overflows");
            return -1;
        }
        value = value * 10 + digit;
        ++c->p;
    }
    if (peek(c) == 'L')
        ++c->p;
    *out = value;
    return 0;
}

/* A Python tuple of dimensions: (), (N,), (N, M) ... */
static int parse_shape(cursor *c, npy_header *h) {
    if (expect(c, '(', "to open the shape") != 0)
        return -1;
    int ndim = 0;
    int trailing_comma = 0;
    for (;;) {
        skip_space(c);
        if (peek(c) == ')')
            break;
        if (ndim == NPY_MAX_DIMS) {
            set_error(c->err, c->errlen, "unsupported .npy array: more than %d dimensions",
                      NPY_MAX_DIMS);
            return -1;
        }
        if (parse_dim(c, &h->shape[ndim]) != 0)
            return -1;
        ++ndim;
        skip_space(c);
        trailing_comma = peek(c) == ',';
        if (trailing_comma)
            ++c->p;
        else if (peek(c) != ')') {
            set_error(c->err, c->errlen, "malformed .npy header: expected ',' or ')' in the shape");
            return -1;
        }
    }
    ++c->p;
    if (ndim == 1 && !trailing_comma) {
        set_error(c->err, c->errlen,
                  "malformed .npy header: the shape (N) is not a tuple (write (N,))");
        return -1;
    }
    h->ndim = ndim;
    return 0;
}

static int parse_descr(cursor *c, npy_header *h) {
    skip_space(c);
    if (peek(c) == '[') {
        set_error(c->err, c->errlen, "unsupported .npy dtype: structured arrays are not supported");
        return -1;
    }
    char descr[16];
    if (parse_string(c, descr, sizeof(descr), "descr") != 0)
        return -1;
    for (size_t i = 0; i < sizeof(kDescrs) / sizeof(kDescrs[0]); ++i) {
        if (strcmp(descr, kDescrs[i].descr) == 0) {
            h->dtype = kDescrs[i].dtype;
            return 0;
        }
    }
    if (descr[0] == '>')
        set_error(
            c->err, c->errlen,
            "unsupported .npy dtype '%s': big-endian data is not supported (save it little-endian)",
            descr);
    else
        set_error(c->err, c->errlen,
                  "unsupported .npy dtype '%s' (supported: <f4 <f2 <i1 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8, "
                  "<V2 for bfloat16, <V1 |V1 <f1 for the 8-bit floats)", descr);
    return -1;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

static int parse_dict(cursor *c, npy_header *h) {
    unsigned seen = 0;
    int fortran = 0;
    if (expect(c, '{', "at the start of the header") != 0)
        return -1;
    for (;;) {
        skip_space(c);
        if (peek(c) == '}')
            break;
        char key[16];
        if (parse_string(c, key, sizeof(key), "a key") != 0 || expect(c, ':', "after a key") != 0)
            return -1;
        unsigned bit = strcmp(key, "descr") == 0           ? KEY_DESCR
                       : strcmp(key, "fortran_order") == 0 ? KEY_FORTRAN
                       : strcmp(key, "shape") == 0         ? KEY_SHAPE
                                                           : 0;
        if (bit == 0 || (seen & bit) != 0) {
            set_error(c->err, c->errlen, "malformed .npy header: %s key '%s'",
                      bit == 0 ? "unexpected" : "repeated", key);
            return -1;
        }
        seen |= bit;
        int rc = bit == KEY_DESCR     ? parse_descr(c, h)
                 : bit == KEY_FORTRAN ? parse_bool(c, &fortran)
                                      : parse_shape(c, h);
        if (rc != 0)
            return -1;
        skip_space(c);
        if (peek(c) == ',')
            ++c->p;
        else if (peek(c) != '}') {
            set_error(c->err, c->errlen,
                      "malformed .npy header: expected ',' or '}' after a value");
            return -1;
        }
    }
    ++c->p;
    skip_space(c);
    if (c->p != c->end) {
        set_error(c->err, c->errlen, "malformed .npy header: text after the dict");
        return -1;
    }
    if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE)) {
        set_error(c->err, c->errlen, "malformed .npy header: missing key '%s'",
                  !(seen & KEY_DESCR)     ? "descr"
                  : !(seen & KEY_FORTRAN) ? "fortran_order"
                                          : "shape");
        return -1;
    }
    if (fortran) {
        set_error(c->err, c->errlen,
                  "unsupported .npy array: Fortran order (save a C-ordered array, e.g. "
                  "numpy.ascontiguousarray)");
        return -1;
    }
    return 0;
}

static uint32_t read_le(const unsigned char *p, int bytes) {
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

int npy_parse_header(const void *bytes, size_t len, npy_header *out, char *err, size_t errlen) {
    const unsigned char *b = bytes;
    if (bytes == NULL || out == NULL) {
        set_error(err, errlen, "npy_parse_header: NULL argument");
        return -1;
    }
    if (len < NPY_MAGIC_LEN || memcmp(b, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        set_error(err, errlen, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    if (len < 10) {
        set_error(err, errlen, "truncated .npy header");
        return -1;
    }
    int major = b[6], minor = b[7];
    if (major < 1 || major > 3 || minor != 0) {
        set_error(err, errlen, "unsupported .npy format version %d.%d (1.0, 2.0 and 3.0 are)",
                  major, minor);
        return -1;
    }
    size_t length_bytes = major == 1 ? 2 : 4;
    if (len < 8 + length_bytes) {
        set_error(err, errlen, "truncated .npy header");
        return -1;
    }
    size_t header_len = read_le(b + 8, (int)length_bytes);
    if (header_len > NPY_MAX_HEADER_BYTES) {
        set_error(err, errlen, "malformed .npy header: %zu bytes long (at most %u accepted)",
                  header_len, NPY_MAX_HEADER_BYTES);
        return -1;
    }
    size_t prefix = 8 + length_bytes;
    if (len - prefix < header_len) {
        set_error(err, errlen, "truncated .npy header: %zu bytes announced, %zu present",
                  header_len, len - prefix);
        return -1;
    }
    npy_header h;
    memset(&h, 0, sizeof(h));
    cursor c = {(const char *)b + prefix, (const char *)b + prefix + header_len, err, errlen};
    if (parse_dict(&c, &h) != 0)
        return -1;
    size_t count = 1;
    for (int i = 0; i < h.ndim; ++i) {
        if (h.shape[i] != 0 && count > SIZE_MAX / h.shape[i]) {
            set_error(err, errlen, "unsupported .npy array: its element count overflows");
            return -1;
        }
        count *= h.shape[i];
    }
    size_t size = npy_dtype_size(h.dtype);
    if (count > SIZE_MAX / size) {
        set_error(err, errlen, "unsupported .npy array: its size in bytes overflows");
        return -1;
    }
    h.count = count;
    h.nbytes = count * size;
    h.data_offset = prefix + header_len;
    h.major_version = major;
    *out = h;
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

static void *alloc_data(size_t nbytes) {
    size_t rounded = nbytes == 0 ? NPY_ALIGN : nbytes;
    if (rounded > SIZE_MAX - (NPY_ALIGN - 1))
        return NULL;
    rounded = (rounded + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    return aligned_alloc(NPY_ALIGN, rounded);
}

int npy_read_memory(const void *bytes, size_t len, npy_array *out, char *err, size_t errlen) {
    npy_header h;
    if (out == NULL) {
        set_error(err, errlen, "npy_read_memory: NULL argument");
        return -1;
    }
    if (npy_parse_header(bytes, len, &h, err, errlen) != 0)
        return -1;
    if (len - h.data_offset < h.nbytes) {
        set_error(err, errlen, "truncated .npy data: %zu bytes expected, %zu present", h.nbytes,
                  len - h.data_offset);
        return -1;
    }
    void *data = alloc_data(h.nbytes);
    if (data == NULL) {
        set_error(err, errlen, "out of memory for %zu bytes of .npy data", h.nbytes);
        return -1;
    }
    if (h.nbytes != 0)
        memcpy(data, (const unsigned char *)bytes + h.data_offset, h.nbytes);
    out->header = h;
    out->data = data;
    return 0;
}

int npy_read_file(const char *path, npy_array *out, char *err, size_t errlen) {
    if (path == NULL || out == NULL) {
        set_error(err, errlen, "npy_read_file: NULL argument");
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_error(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    /* The prefix says how long the header is; read exactly that much. */
    unsigned char head[12 + NPY_MAX_HEADER_BYTES];
    size_t got = fread(head, 1, 12, f);
    size_t want = got;
    if (got >= 10 && memcmp(head, NPY_MAGIC, NPY_MAGIC_LEN) == 0 && head[6] >= 1 && head[6] <= 3) {
        size_t prefix = head[6] == 1 ? 10 : 12;
        size_t header_len = read_le(head + 8, head[6] == 1 ? 2 : 4);
        if (header_len <= NPY_MAX_HEADER_BYTES && got >= prefix)
            want = prefix + header_len;
    }
    if (want > got)
        got += fread(head + got, 1, want - got, f);
    npy_header h;
    char detail[256];
    if (npy_parse_header(head, got < want ? got : want, &h, detail, sizeof(detail)) != 0) {
        set_error(err, errlen, "%s: %s", path, detail);
        fclose(f);
        return -1;
    }
    /* Refuse a truncated file before allocating what its header announces. */
    long here = ftell(f);
    if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end >= 0 && (size_t)(end - (long)h.data_offset) < h.nbytes) {
            set_error(err, errlen, "%s: truncated .npy data: %zu bytes expected, %ld present", path,
                      h.nbytes, end - (long)h.data_offset);
            fclose(f);
            return -1;
        }
    }
    if (fseek(f, (long)h.data_offset, SEEK_SET) != 0) {
        set_error(err, errlen, "%s: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    void *data = alloc_data(h.nbytes);
    if (data == NULL) {
        set_error(err, errlen, "%s: out of memory for %zu bytes of .npy data", path, h.nbytes);
        fclose(f);
        return -1;
    }
    size_t read = h.nbytes == 0 ? 0 : fread(data, 1, h.nbytes, f);
    fclose(f);
    if (read != h.nbytes) {
        set_error(err, errlen, "%s: truncated .npy data: %zu bytes expected, %zu present", path,
                  h.nbytes, read);
        free(data);
        return -1;
    }
    out->header = h;
    out->data = data;
    return 0;
}

int npy_array_zeros(npy_array *out, npy_dtype dtype, int ndim, const size_t *shape, char *err,
                    size_t errlen) {
    size_t size = npy_dtype_size(dtype);
    if (out == NULL || size == 0 || ndim < 0 || ndim > NPY_MAX_DIMS ||
        (ndim > 0 && shape == NULL)) {
        set_error(err, errlen, "npy_array_zeros: bad arguments");
        return -1;
    }
    npy_header h;
    memset(&h, 0, sizeof(h));
    h.dtype = dtype;
    h.ndim = ndim;
    h.count = 1;
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] != 0 &&
            (h.count > SIZE_MAX / shape[i] || h.count * shape[i] > SIZE_MAX / size)) {
            set_error(err, errlen, "an array of that shape overflows");
            return -1;
        }
        h.shape[i] = shape[i];
        h.count *= shape[i];
    }
    h.nbytes = h.count * size;
    h.major_version = 1;
    void *data = alloc_data(h.nbytes);
    if (data == NULL) {
        set_error(err, errlen, "out of memory for %zu bytes", h.nbytes);
        return -1;
    }
    memset(data, 0, h.nbytes);
    out->header = h;
    out->data = data;
    return 0;
}

void npy_array_free(npy_array *array) {
    if (array == NULL)
        return;
    free(array->data);
    memset(array, 0, sizeof(*array));
}

/* ---- writing ------------------------------------------------------------ */

size_t npy_format_header(char *buf, size_t cap, npy_dtype dtype, int ndim, const size_t *shape) {
    const char *descr = npy_dtype_descr(dtype);
    if (descr == NULL || ndim < 0 || ndim > NPY_MAX_DIMS || (ndim > 0 && shape == NULL))
        return 0;
    /* The dict as NumPy writes it: keys sorted, repr of the shape tuple. */
    char dict[64 + NPY_MAX_DIMS * 24 + NPY_GROWTH_AXIS_MAX_DIGITS];
    size_t n = (size_t)snprintf(dict, sizeof(dict),
                                "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < ndim; ++i)
        n += (size_t)snprintf(dict + n, sizeof(dict) - n, i == 0 ? "%zu" : ", %zu", shape[i]);
    n += (size_t)snprintf(dict + n, sizeof(dict) - n, "%s), }", ndim == 1 ? "," : "");
    if (ndim > 0) {
        int digits = snprintf(NULL, 0, "%zu", shape[0]);
        for (int i = digits; i < NPY_GROWTH_AXIS_MAX_DIGITS; ++i)
            dict[n++] = ' ';
    }
    /* Spaces and a newline up to the next multiple of 64 (at least one space). */
    size_t unpadded = NPY_MAGIC_LEN + 2 + 2 + n + 1;
    size_t total = unpadded + (NPY_ALIGN - unpadded % NPY_ALIGN);
    if (total > cap || total - 10 > 0xffff)
        return 0;
    memcpy(buf, NPY_MAGIC "\x01\x00", 8);
    buf[8] = (char)((total - 10) & 0xff);
    buf[9] = (char)((total - 10) >> 8);
    memcpy(buf + 10, dict, n);
    memset(buf + 10 + n, ' ', total - 11 - n);
    buf[total - 1] = '\n';
    return total;
}

int npy_write_file(const char *path, npy_dtype dtype, int ndim, const size_t *shape,
                   const void *data, char *err, size_t errlen) {
    char header[1024];
    size_t header_len = npy_format_header(header, sizeof(header), dtype, ndim, shape);
    if (path == NULL || header_len == 0) {
        set_error(err, errlen, "npy_write_file: bad arguments");
        return -1;
    }
    size_t nbytes = npy_dtype_size(dtype);
    for (int i = 0; i < ndim; ++i) {
        if (shape[i] != 0 && nbytes > SIZE_MAX / shape[i]) {
            set_error(err, errlen, "npy_write_file: the array's size overflows");
            return -1;
        }
        nbytes *= shape[i];
    }
    if (nbytes != 0 && data == NULL) {
        set_error(err, errlen, "npy_write_file: NULL data");
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        set_error(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int ok = fwrite(header, 1, header_len, f) == header_len &&
             (nbytes == 0 || fwrite(data, 1, nbytes, f) == nbytes);
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok) {
        set_error(err, errlen, "cannot write %s: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}
