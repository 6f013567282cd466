#define _POSIX_C_SOURCE 200809L
/* The .npy reader and writer: round trips of every dtype through memory and
 * files, headers as NumPy writes them (versions 1.0 to 3.0, ml_dtypes'
 * bfloat16), and refusals of malformed, big-endian, Fortran-ordered and
 * truncated input with a sentence and nothing allocated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "npy.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A .npy image: prefix for version major, the header text, then data. */
static size_t make_image(unsigned char *out, size_t cap, int major, const char *header,
                         const void *data, size_t nbytes) {
    size_t hlen = strlen(header);
    size_t prefix = major == 1 ? 10 : 12;
    assert_true(prefix + hlen + nbytes <= cap);
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    for (size_t i = 0; i < prefix - 8; ++i)
        out[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(out + prefix, header, hlen);
    if (nbytes != 0)
        memcpy(out + prefix + hlen, data, nbytes);
    return prefix + hlen + nbytes;
}

/* The header NumPy 1.24 and 2.x write for an (2, 3) array of ml_dtypes'
 * bfloat16 (np.save), byte for byte. */
static const char kMlDtypesBf16[] =
    "\x93NUMPY\x01\x00v\x00{'descr': '<V2', 'fortran_order': False, 'shape': (2, 3), }"
    "                                                          \n";

/* Whether needle occurs in the len bytes at haystack (which hold NULs). */
static int contains(const char *haystack, size_t len, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; ++i)
        if (memcmp(haystack + i, needle, n) == 0)
            return 1;
    return 0;
}

static char *temp_path(void) {
    static char path[64];
    snprintf(path, sizeof(path), "/tmp/test_npy_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    return path;
}

static void test_round_trip_every_dtype(void **state) {
    (void)state;
    static const npy_dtype kDtypes[] = {NPY_INT8,    NPY_UINT8,    NPY_INT16,
                                        NPY_UINT16,  NPY_INT32,    NPY_UINT32,
                                        NPY_FLOAT16, NPY_BFLOAT16, NPY_FLOAT32,
                                        NPY_INT64,   NPY_UINT64};
    static const size_t kShapes[][3] = {{3, 5, 0}, {7, 0, 0}, {1, 1, 0}, {2, 3, 4}};
    static const int kNdims[] = {2, 1, 2, 3};
    for (size_t d = 0; d < COUNT(kDtypes); ++d) {
        for (size_t s = 0; s < COUNT(kShapes); ++s) {
            size_t count = 1;
            for (int i = 0; i < kNdims[s]; ++i)
                count *= kShapes[s][i];
            size_t nbytes = count * npy_dtype_size(kDtypes[d]);
            unsigned char data[256];
            for (size_t i = 0; i < nbytes; ++i)
                data[i] = (unsigned char)(i * 37 + d);
            char header[1024];
            size_t hlen =
                npy_format_header(header, sizeof(header), kDtypes[d], kNdims[s], kShapes[s]);
            assert_true(hlen > 0);
            assert_int_equal(hlen % 64, 0);
            assert_int_equal(header[hlen - 1], '\n');
            unsigned char image[2048];
            memcpy(image, header, hlen);
            memcpy(image + hlen, data, nbytes);
            npy_array a;
            char err[256];
            assert_int_equal(npy_read_memory(image, hlen + nbytes, &a, err, sizeof(err)), 0);
            /* bfloat16 is written as its raw bits, "<u2". */
            assert_int_equal(a.header.dtype, kDtypes[d] == NPY_BFLOAT16 ? NPY_UINT16 : kDtypes[d]);
            assert_int_equal(a.header.ndim, kNdims[s]);
            for (int i = 0; i < kNdims[s]; ++i)
                assert_int_equal(a.header.shape[i], kShapes[s][i]);
            assert_int_equal(a.header.count, count);
            assert_int_equal(a.header.nbytes, nbytes);
            assert_int_equal((uintptr_t)a.data % 64, 0);
            assert_memory_equal(a.data, data, nbytes);
            npy_array_free(&a);
            assert_null(a.data);

            char *path = temp_path();
            assert_int_equal(
                npy_write_file(path, kDtypes[d], kNdims[s], kShapes[s], data, err, sizeof(err)), 0);
            assert_int_equal(npy_read_file(path, &a, err, sizeof(err)), 0);
            assert_int_equal(a.header.nbytes, nbytes);
            assert_int_equal(a.header.data_offset, hlen);
            assert_memory_equal(a.data, data, nbytes);
            npy_array_free(&a);
            unlink(path);
        }
    }
}

static void test_header_as_numpy_writes_it(void **state) {
    (void)state;
    char header[1024];
    size_t shape[] = {2, 3};
    size_t hlen = npy_format_header(header, sizeof(header), NPY_FLOAT32, 2, shape);
    /* np.save(np.zeros((2, 3), np.float32)): the same 128 bytes but for the descr. */
    assert_int_equal(hlen, sizeof(kMlDtypesBf16) - 1);
    char expected[sizeof(kMlDtypesBf16)];
    memcpy(expected, kMlDtypesBf16, sizeof(kMlDtypesBf16));
    memcpy(expected + 21, "<f4", 3); /* the descr's offset */
    assert_memory_equal(header, expected, hlen);

    size_t one[] = {5};
    hlen = npy_format_header(header, sizeof(header), NPY_INT8, 1, one);
    assert_true(hlen > 0);
    assert_true(
        contains(header, hlen, "{'descr': '|i1', 'fortran_order': False, 'shape': (5,), }"));
    hlen = npy_format_header(header, sizeof(header), NPY_UINT8, 0, NULL);
    assert_true(hlen > 0);
    assert_true(contains(header, hlen, "'shape': (), }"));
    /* A 0-d array holds one element. */
    unsigned char image[256];
    memcpy(image, header, hlen);
    image[hlen] = 42;
    npy_array a;
    assert_int_equal(npy_read_memory(image, hlen + 1, &a, NULL, 0), 0);
    assert_int_equal(a.header.ndim, 0);
    assert_int_equal(a.header.count, 1);
    assert_int_equal(((unsigned char *)a.data)[0], 42);
    npy_array_free(&a);
}

static void test_ml_dtypes_bfloat16(void **state) {
    (void)state;
    uint16_t bits[6] = {0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0};
    unsigned char image[256];
    size_t hlen = sizeof(kMlDtypesBf16) - 1;
    memcpy(image, kMlDtypesBf16, hlen);
    memcpy(image + hlen, bits, sizeof(bits));
    npy_array a;
    char err[256];
    assert_int_equal(npy_read_memory(image, hlen + sizeof(bits), &a, err, sizeof(err)), 0);
    assert_int_equal(a.header.dtype, NPY_BFLOAT16);
    assert_int_equal(a.header.ndim, 2);
    assert_memory_equal(a.data, bits, sizeof(bits));
    npy_array_free(&a);
    assert_string_equal(npy_dtype_descr(NPY_BFLOAT16), "<u2");
    /* ml_dtypes' 1-byte floats: "<V1" (float8_e4m3fn, float8_e8m0fnu) read
     * as bytes, "<f1" (float8_e5m2) as FLOAT8_E5M2; all written as "|u1". */
    static const struct {
        const char *descr;
        npy_dtype dtype;
    } kOneByte[] = {{"<V1", NPY_BYTE}, {"|V1", NPY_BYTE}, {"<f1", NPY_FLOAT8_E5M2}};
    for (size_t k = 0; k < 3; ++k) {
        char text[128];
        const int n = snprintf(text, sizeof text, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 3), }",
                               kOneByte[k].descr);
        unsigned char one[160] = "\x93NUMPY\x01\x00";
        one[8] = (unsigned char)n;
        one[9] = 0;
        memcpy(one + 10, text, (size_t)n);
        memcpy(one + 10 + n, "\x38\x40\xc0\x7e\x01\x08", 6);
        assert_int_equal(npy_read_memory(one, 10 + (size_t)n + 6, &a, err, sizeof(err)), 0);
        assert_int_equal(a.header.dtype, kOneByte[k].dtype);
        assert_int_equal(a.header.nbytes, 6);
        assert_memory_equal(a.data, "\x38\x40\xc0\x7e\x01\x08", 6);
        npy_array_free(&a);
    }
    for (int d = NPY_FLOAT8_E4M3; d <= NPY_BYTE; ++d) {
        assert_string_equal(npy_dtype_descr((npy_dtype)d), "|u1");
        assert_int_equal(npy_dtype_size((npy_dtype)d), 1);
    }
}

static void test_versions_2_and_3(void **state) {
    (void)state;
    const float values[4] = {1.0f, -2.5f, 0.0f, 3.0f};
    for (int major = 1; major <= 3; ++major) {
        unsigned char image[512];
        size_t len = make_image(image, sizeof(image), major,
                                "{\"shape\": (2,2), 'descr':'<f4' ,'fortran_order':False}  \n",
                                values, sizeof(values));
        npy_array a;
        char err[256];
        assert_int_equal(npy_read_memory(image, len, &a, err, sizeof(err)), 0);
        assert_int_equal(a.header.major_version, major);
        assert_int_equal(a.header.dtype, NPY_FLOAT32);
        assert_int_equal(a.header.shape[0], 2);
        assert_int_equal(a.header.shape[1], 2);
        assert_memory_equal(a.data, values, sizeof(values));
        npy_array_free(&a);
    }
}

/* Each header must be refused with a sentence containing the fragment. */
static void test_malformed_headers(void **state) {
    (void)state;
    static const struct {
        const char *header;
        const char *fragment;
    } kCases[] = {
        {"", "expected '{'"},
        {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
        {"{'descr': '<f4', 'shape': (1,)}", "missing key 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (1,)}", "missing key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
         "unexpected key 'extra'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
         "repeated key 'descr'"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}",
         "unsupported .npy dtype '<f4, '"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (1,)}", "expected ':'"},
        {"{'descr': '<f4", "unterminated string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5)}", "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
         "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
         "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,)}", "overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2)}", "Fortran order"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (1,)}", "big-endian"},
        {"{'descr': '>i2', 'fortran_order': False, 'shape': (1,)}", "big-endian"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,)}", "unsupported .npy dtype '<f8'"},
        {"{'descr': '|V2', 'fortran_order': False, 'shape': (1,)}", "unsupported .npy dtype '|V2'"},
        {"{'descr': '<f4xxxxxxxxxxxxxxxxxxxxxxxxxxx', 'fortran_order': False, 'shape': (1,)}",
         "too long"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", "structured"},
        {"{'descr': 4, 'fortran_order': False, 'shape': (1,)}", "not a string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", "text after the dict"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}", "expected ',' or '}'"},
        {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,)}", "escaped"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': "
         "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
         "1,1,1,1,1,1,1,1,1)}",
         "more than 32 dimensions"},
    };
    for (size_t i = 0; i < COUNT(kCases); ++i) {
        unsigned char image[1024];
        size_t len = make_image(image, sizeof(image), 1, kCases[i].header, NULL, 0);
        npy_header h;
        char err[256] = "";
        if (npy_parse_header(image, len, &h, err, sizeof(err)) == 0)
            fail_msg("header %s was accepted", kCases[i].header);
        if (strstr(err, kCases[i].fragment) == NULL)
            fail_msg("header %s: error \"%s\" should contain \"%s\"", kCases[i].header, err,
                     kCases[i].fragment);
    }
}

static void test_bad_prefixes(void **state) {
    (void)state;
    const char *header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\n";
    unsigned char image[256];
    size_t len = make_image(image, sizeof(image), 1, header, "\0\0\0\0", 4);
    npy_header h;
    char err[256];

    unsigned char bad[256];
    memcpy(bad, image, len);
    bad[1] = 'n';
    assert_int_equal(npy_parse_header(bad, len, &h, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a .npy file"));

    memcpy(bad, image, len);
    bad[6] = 4;
    assert_int_equal(npy_parse_header(bad, len, &h, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "version 4.0"));
    bad[6] = 1;
    bad[7] = 1;
    assert_int_equal(npy_parse_header(bad, len, &h, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "version 1.1"));

    /* A header longer than NumPy's default limit is refused before reading it. */
    memcpy(bad, image, len);
    bad[8] = 0x11;
    bad[9] = 0x27; /* 10001 */
    assert_int_equal(npy_parse_header(bad, len, &h, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "at most 10000"));
    /* Version 2.0 lengths are 32-bit: a huge one is refused too. */
    size_t len2 = make_image(bad, sizeof(bad), 2, header, NULL, 0);
    bad[11] = 0xff;
    assert_int_equal(npy_parse_header(bad, len2, &h, err, sizeof(err)), -1);

    /* Every strict prefix of a valid image is refused (header or data), and
     * the whole image is accepted. */
    for (size_t cut = 0; cut < len; ++cut) {
        npy_array a;
        err[0] = '\0';
        assert_int_equal(npy_read_memory(image, cut, &a, err, sizeof(err)), -1);
        assert_true(err[0] != '\0');
    }
    npy_array a;
    assert_int_equal(npy_read_memory(image, len, &a, err, sizeof(err)), 0);
    npy_array_free(&a);
    assert_int_equal(npy_read_memory(image, len - 1, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "truncated .npy data"));
}

/* Every single-byte change of a valid image either parses or fails with a
 * sentence: never a crash or a read outside the image (run under ASan). */
static void test_mutations_are_bounded(void **state) {
    (void)state;
    const float values[6] = {1, 2, 3, 4, 5, 6};
    unsigned char image[256];
    size_t len = make_image(image, sizeof(image), 1,
                            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }      \n",
                            values, sizeof(values));
    static const unsigned char kBytes[] = {0,   '\'', '"', '(', ')',  ',', '{',
                                           '}', '9',  'L', ' ', 0xff, '<', '>'};
    for (size_t at = 0; at < len; ++at) {
        for (size_t b = 0; b < COUNT(kBytes); ++b) {
            unsigned char mutated[256];
            memcpy(mutated, image, len);
            mutated[at] = kBytes[b];
            /* Exactly the bytes of the image: ASan catches a read past them. */
            unsigned char *exact = malloc(len);
            assert_non_null(exact);
            memcpy(exact, mutated, len);
            npy_array a;
            char err[256] = "";
            if (npy_read_memory(exact, len, &a, err, sizeof(err)) == 0)
                npy_array_free(&a);
            else
                assert_true(err[0] != '\0');
            free(exact);
        }
    }
}

static void test_truncated_file(void **state) {
    (void)state;
    char err[256];
    size_t shape[] = {100};
    float data[100] = {0};
    char *path = temp_path();
    assert_int_equal(npy_write_file(path, NPY_FLOAT32, 1, shape, data, err, sizeof(err)), 0);
    assert_int_equal(truncate(path, 128 + 399), 0);
    npy_array a;
    assert_int_equal(npy_read_file(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "truncated .npy data"));
    assert_int_equal(truncate(path, 100), 0);
    assert_int_equal(npy_read_file(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "truncated .npy header"));
    assert_int_equal(truncate(path, 0), 0);
    assert_int_equal(npy_read_file(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not a .npy file"));
    unlink(path);
    assert_int_equal(npy_read_file(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "cannot open"));
    assert_int_equal(
        npy_write_file("/nonexistent-dir/x.npy", NPY_FLOAT32, 1, shape, data, err, sizeof(err)),
        -1);
    assert_non_null(strstr(err, "cannot write"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_dtype),
        cmocka_unit_test(test_header_as_numpy_writes_it),
        cmocka_unit_test(test_ml_dtypes_bfloat16),
        cmocka_unit_test(test_versions_2_and_3),
        cmocka_unit_test(test_malformed_headers),
        cmocka_unit_test(test_bad_prefixes),
        cmocka_unit_test(test_mutations_are_bounded),
        cmocka_unit_test(test_truncated_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
