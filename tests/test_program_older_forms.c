/* Older and rarer spellings of PTOAS's text, each run against values
 * computed here: pto.subview of a tensor view into a !pto.tile_view as a
 * tload source and tstore destination, operand types with MLIR's elided
 * `!pto.tile_buf` prefix, the `memref` form (global-memory parameters and
 * memref.alloc), the prefetch ops (checked, then nothing), a boxed (NZ) vec
 * tile filled by tmov and pushed to the cube, and the refusals of what
 * stays out, each with its sentence. Every case is written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define LEFT "loc=left, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0"
#define RIGHT "loc=right, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0"
#define MAT "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define ACC "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"

/* Runs p with its pointer parameters bound in order to n arrays of nbytes;
 * returns the run's status. */
static pto_status run_pointers_status(pto_program *p, size_t n, void *const *data, const size_t *nbytes) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t i = 0; i < n; ++i) assert_int_equal(pto_args_set_pointer(a, i, data[i], nbytes[i]), PTO_OK);
    const pto_status s = pto_program_run(p, a);
    pto_args_destroy(a);
    return s;
}

/* The same, failing the test unless the run succeeds. */
static void run_pointers(pto_program *p, size_t n, void *const *data, const size_t *nbytes) {
    if (run_pointers_status(p, n, data, nbytes) != PTO_OK) fail_msg("run: %s", pto_last_error());
}

/* c (m x n) is a (m x k) times b (k x n), exactly (small integers). */
static void expect_product(const float *c, const float *a, const float *b, int m, int k, int n) {
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float want = 0;
            for (int l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
            if (c[i * n + j] != want) fail_msg("c[%d][%d] is %g, not %g", i, j, (double)c[i * n + j], (double)want);
        }
}

/* PTOAS's older MatMul text: `pto.subview %view, offsets = [...], sizes =
 * [16, 16] : !pto.tensor_view<2xf32> -> !pto.tile_view<16x16xf32>` (sizes
 * as integers) is a window of the view, loaded into mat tiles and stored
 * to, and tmatmul's operand types written `<loc=left, ...>` without their
 * `!pto.tile_buf`. A 16x32 by 32x16 product in two K steps of 16, small
 * integers: exact. */
static void test_older_matmul_spellings(void **state) {
    (void)state;
    static const char text[] =
        "module attributes {pto.target_arch = \"a2a3\"} {\n"
        "func.func @k(%c: !pto.ptr<f32>, %a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %c32 = arith.constant 32 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<2xf32>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<2xf32>\n"
        "  %vc = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<2xf32>\n"
        "  %ma = pto.alloc_tile : " MAT "\n"
        "  %mb = pto.alloc_tile : " MAT "\n"
        "  %l = pto.alloc_tile : !pto.tile_buf<" LEFT ">\n"
        "  %r = pto.alloc_tile : !pto.tile_buf<" RIGHT ">\n"
        "  %acc = pto.alloc_tile : " ACC "\n"
        "  scf.for %k = %c0 to %c2 step %c1 {\n"
        "    %o = arith.muli %k, %c16 : index\n"
        "    %wa = pto.subview %va, offsets = [%c0, %o], sizes = [16, 16] : !pto.tensor_view<2xf32> -> !pto.tile_view<16x16xf32>\n"
        "    %wb = pto.subview %vb, offsets = [%o, %c0], sizes = [16, 16] : !pto.tensor_view<2xf32> -> !pto.tile_view<16x16xf32>\n"
        "    pto.tload ins(%wa : !pto.tile_view<16x16xf32>) outs(%ma : " MAT ")\n"
        "    pto.tload ins(%wb : !pto.tile_view<16x16xf32>) outs(%mb : " MAT ")\n"
        "    pto.tmov ins(%ma : " MAT ") outs(%l : <" LEFT ">)\n"
        "    pto.tmov ins(%mb : " MAT ") outs(%r : <" RIGHT ">)\n"
        "    %first = arith.cmpi eq, %k, %c0 : index\n"
        "    scf.if %first {\n"
        "      pto.tmatmul ins(%l, %r : <" LEFT ">, <" RIGHT ">) outs(%acc : " ACC ")\n"
        "    } else {\n"
        "      pto.tmatmul.acc ins(%acc, %l, %r : " ACC ", <" LEFT ">, <" RIGHT ">) outs(%acc : " ACC ")\n"
        "    }\n"
        "  }\n"
        "  %wc = pto.subview %vc, offsets = [%c0, %c0], sizes = [16, 16] : !pto.tensor_view<2xf32> -> !pto.tile_view<16x16xf32>\n"
        "  pto.tstore ins(%acc : " ACC ") outs(%wc : !pto.tile_view<16x16xf32>)\n"
        "  return\n"
        "}\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    float a[16 * 32], b[32 * 16], c[16 * 16];
    for (int i = 0; i < 16 * 32; ++i) a[i] = (float)(i % 7 - 3), b[i] = (float)(i % 5 - 2);
    memset(c, 0, sizeof c);
    void *data[3] = {c, a, b};
    const size_t nbytes[3] = {sizeof c, sizeof a, sizeof b};
    run_pointers(p, 3, data, nbytes);
    expect_product(c, a, b, 16, 32, 16);
    pto_program_destroy(p);
    /* The elided prefix is a tile_buf's: its body is read as one. */
    expect_program_refused_with(
        "func.func @k(%s: !pto.tile_buf<vec, 4x8xf32>, %d: !pto.tile_buf<vec, 4x8xf32>) {\n"
        "  pto.tabs ins(%s : <vec, 4x8xf99>) outs(%d : !pto.tile_buf<vec, 4x8xf32>)\n"
        "  return\n}\n",
        NULL, "t.pto:2:27: error: element type 'f99' is not supported");
    expect_program_refused_with(
        "func.func @k(%s: !pto.tile_buf<vec, 4x8xf32>, %d: !pto.tile_buf<vec, 4x8xf32>) {\n"
        "  pto.tabs ins(%s : <vec, 4x8xf32) outs(%d : !pto.tile_buf<vec, 4x8xf32>)\n"
        "  return\n}\n",
        NULL, "t.pto:2:21: error: unterminated '<' in a type");
    /* Integers in sizes are the older subview's only. */
    expect_program_refused_with(
        "func.func @k(%a: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c8 = arith.constant 8 : index\n"
        "  %v = pto.make_tensor_view %a, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<8x8xf32>\n"
        "  %w = pto.partition_view %v, offsets = [%c0, %c0], sizes = [4, 4] : !pto.tensor_view<8x8xf32> -> !pto.partition_tensor_view<4x4xf32>\n"
        "  return\n}\n",
        NULL, "expected a %name, found '4'");
}

/* The memref form: a parameter in global memory is an array of its shape
 * (row-major, contiguous), read by tload and written by tstore; a
 * memref.alloc in the vec memory is a tile, as an alloc_tile. */
static void test_memref_form(void **state) {
    (void)state;
    static const char text[] =
        "func.func @k(%a: memref<4x8xf32, #pto.address_space<gm>>, %b: memref<4x8xf32, #pto.address_space<gm>>) {\n"
        "  %t = memref.alloc() : memref<4x8xf32, #pto.address_space<vec>>\n"
        "  %u = pto.alloc_tile : !pto.tile_buf<vec, 4x8xf32>\n"
        "  pto.tload ins(%a : memref<4x8xf32, #pto.address_space<gm>>) outs(%t : memref<4x8xf32, #pto.address_space<vec>>)"
        " {layout = #pto.layout<nd>}\n"
        "  pto.tadd ins(%t, %t : memref<4x8xf32, #pto.address_space<vec>>, !pto.tile_buf<vec, 4x8xf32>) outs(%u : "
        "!pto.tile_buf<vec, 4x8xf32>)\n"
        "  pto.tstore ins(%u : !pto.tile_buf<vec, 4x8xf32>) outs(%b : memref<4x8xf32, #pto.address_space<gm>>)"
        " {layout = #pto.layout<nd>}\n"
        "  return\n}\n";
    pto_program *p = program_build(text, NULL);
    float a[32], b[32];
    for (int i = 0; i < 32; ++i) a[i] = (float)i - 7.25f, b[i] = 0;
    void *data[2] = {a, b};
    size_t nbytes[2] = {sizeof a, sizeof b};
    run_pointers(p, 2, data, nbytes);
    for (int i = 0; i < 32; ++i)
        if (b[i] != 2 * a[i]) fail_msg("b[%d] is %g, not %g", i, (double)b[i], (double)(2 * a[i]));
    /* The array bound must hold the memref's elements. */
    nbytes[0] = sizeof a / 2;
    assert_int_equal(run_pointers_status(p, 2, data, nbytes), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "t.pto:1:14: error: the memref parameter: the view reaches element 31 of %a, "
                                 "which holds 16 elements") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);

    expect_program_refused_with(
        "func.func @k(%a: memref<4x8xf32, strided<[?, 1], offset: ?>, #pto.address_space<gm>>) {\n  return\n}\n",
        NULL, "t.pto:1:34: error: a memref's layout (strided<...>) is not supported: a memref is row-major and "
              "contiguous here");
    expect_program_refused_with("func.func @k(%a: memref<4x8xf32, #pto.address_space<bias>>) {\n  return\n}\n", NULL,
                                "a memref in #pto.address_space<bias> is not supported (gm: global memory; vec, mat, "
                                "left, right, acc: a tile)");
    expect_program_refused_with("func.func @k() {\n  %t = memref.alloc() : memref<2x4x8xf32, #pto.address_space<mat>>\n"
                                "  return\n}\n",
                                NULL, "a memref in #pto.address_space<mat> is a tile: 2 dimensions of at least 1");
    /* A global tensor's layout other than nd (the strides') is refused. */
    expect_program_refused_with(
        "func.func @k(%a: memref<4x8xf32, #pto.address_space<gm>>) {\n"
        "  %t = memref.alloc() : memref<4x8xf32, #pto.address_space<vec>>\n"
        "  pto.tload ins(%a : memref<4x8xf32, #pto.address_space<gm>>) outs(%t : memref<4x8xf32, "
        "#pto.address_space<vec>>) {layout = #pto.layout<nz>}\n  return\n}\n",
        NULL, "pto.tload takes layout = #pto.layout<nd> (the view's strides place the elements)");
    expect_program_refused_with("func.func @k(%a: memref<4x8xf32>) {\n  return\n}\n", NULL,
                                "a memref needs #pto.address_space<gm>, <vec> or a cube memory's (mat, left, right, acc)");
    expect_program_refused_with("func.func @k() {\n  %t = memref.alloc() : memref<4x8xf32, #pto.address_space<gm>>\n"
                                "  return\n}\n",
                                NULL, "t.pto:2:25: error: memref.alloc gives a memref in #pto.address_space<vec> (a tile) here");
    expect_program_refused_with("func.func @k() {\n  %t = memref.alloc() : memref<2x0x8xf32, #pto.address_space<vec>>\n"
                                "  return\n}\n",
                                NULL, "a memref in the vec memory is a tile: 1 to 8 dimensions of at least 1 (its "
                                      "rows the product of all but the last, its columns the last)");
    /* A vec memref of three dimensions is the tile of its bytes (8 rows of
     * 8, as PTOAS's memory-planning tests use them), one of one dimension a
     * row: loaded from and stored to a memref of the same shape. */
    static const char *const shapes[] = {"2x4x8xf32", "64xf32"};
    for (size_t k = 0; k < COUNT(shapes); ++k) {
        char nd[2048];
        snprintf(nd, sizeof nd,
                 "func.func @k(%%a: memref<%s, #pto.address_space<gm>>, %%b: memref<%s, #pto.address_space<gm>>) {\n"
                 "  %%t = memref.alloc() : memref<%s, #pto.address_space<vec>>\n"
                 "  pto.tload ins(%%a : memref<%s, #pto.address_space<gm>>) outs(%%t : memref<%s, "
                 "#pto.address_space<vec>>)\n"
                 "  pto.tstore ins(%%t : memref<%s, #pto.address_space<vec>>) outs(%%b : memref<%s, "
                 "#pto.address_space<gm>>)\n"
                 "  return\n}\n",
                 shapes[k], shapes[k], shapes[k], shapes[k], shapes[k], shapes[k], shapes[k]);
        p = program_build(nd, NULL);
        float x[64], y[64];
        for (int i = 0; i < 64; ++i) x[i] = (float)i * 0.5f, y[i] = -1;
        void *io[2] = {x, y};
        const size_t io_bytes[2] = {sizeof x, sizeof y};
        run_pointers(p, 2, io, io_bytes);
        assert_memory_equal(x, y, sizeof x);
        pto_program_destroy(p);
    }
}

/* The prefetch into the L2 cache: checked, then nothing; the wait on its
 * event gives true (here it guards the copy). */
#define PREFETCH_HEAD \
    "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %ws: !pto.ptr<i8>) {\n" \
    "  %c0 = arith.constant 0 : index\n" \
    "  %c1 = arith.constant 1 : index\n" \
    "  %c64 = arith.constant 64 : index\n" \
    "  %vx = pto.make_tensor_view %x, shape = [%c64], strides = [%c1] : !pto.tensor_view<64xf32>\n" \
    "  %vy = pto.make_tensor_view %y, shape = [%c64], strides = [%c1] : !pto.tensor_view<64xf32>\n" \
    "  %px = pto.partition_view %vx, offsets = [%c0], sizes = [%c64] : !pto.tensor_view<64xf32>\n" \
    "  %py = pto.partition_view %vy, offsets = [%c0], sizes = [%c64] : !pto.tensor_view<64xf32>\n"

/* memrefs in the cube's memories (PTOAS's pipe-selection tests): each a
 * tile whole in its memory's layout (mat NZ, left ZZ or A5's NZ, right ZN,
 * acc NZ): a 32 x 32 f32 product through mat, left, right and acc, stored
 * from acc, equals the row-major product (one nonzero per row of a, so
 * every sum is one exact term). Under A2A3 and A5. */
static void test_memref_cube(void **state) {
    (void)state;
    static const char *archs[] = {"a2a3", "a5"};
    for (size_t t = 0; t < 2; ++t) {
        char text[4096];
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"%s\"} {\n"
                 "func.func @k(%%a: memref<32x32xf32, #pto.address_space<gm>>, %%b: memref<32x32xf32, "
                 "#pto.address_space<gm>>, %%c: memref<32x32xf32, #pto.address_space<gm>>) {\n"
                 "  %%am = memref.alloc() : memref<32x32xf32, #pto.address_space<mat>>\n"
                 "  %%bm = memref.alloc() : memref<32x32xf32, #pto.address_space<mat>>\n"
                 "  %%l = memref.alloc() : memref<32x32xf32, #pto.address_space<left>>\n"
                 "  %%r = memref.alloc() : memref<32x32xf32, #pto.address_space<right>>\n"
                 "  %%acc = memref.alloc() : memref<32x32xf32, #pto.address_space<acc>>\n"
                 "  pto.tload ins(%%a : memref<32x32xf32, #pto.address_space<gm>>) outs(%%am : memref<32x32xf32, "
                 "#pto.address_space<mat>>)\n"
                 "  pto.tload ins(%%b : memref<32x32xf32, #pto.address_space<gm>>) outs(%%bm : memref<32x32xf32, "
                 "#pto.address_space<mat>>)\n"
                 "  pto.tmov ins(%%am : memref<32x32xf32, #pto.address_space<mat>>) outs(%%l : memref<32x32xf32, "
                 "#pto.address_space<left>>)\n"
                 "  pto.tmov ins(%%bm : memref<32x32xf32, #pto.address_space<mat>>) outs(%%r : memref<32x32xf32, "
                 "#pto.address_space<right>>)\n"
                 "  pto.tmatmul ins(%%l, %%r : memref<32x32xf32, #pto.address_space<left>>, memref<32x32xf32, "
                 "#pto.address_space<right>>) outs(%%acc : memref<32x32xf32, #pto.address_space<acc>>)\n"
                 "  pto.tstore ins(%%acc : memref<32x32xf32, #pto.address_space<acc>>) outs(%%c : memref<32x32xf32, "
                 "#pto.address_space<gm>>)\n"
                 "  return\n}\n}\n",
                 archs[t]);
        pto_program *p = program_build(text, NULL);
        float a[1024] = {0}, b[1024], c[1024];
        for (int i = 0; i < 32; ++i) a[i * 32 + (i * 7 + 3) % 32] = (float)(i + 1) * 0.5f;
        for (int i = 0; i < 1024; ++i) b[i] = (float)((i * 13) % 29) - 14.0f, c[i] = -1;
        void *data[3] = {a, b, c};
        size_t nbytes[3] = {sizeof a, sizeof b, sizeof c};
        run_pointers(p, 3, data, nbytes);
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 32; ++j) {
                const int k = (i * 7 + 3) % 32;
                const float want = a[i * 32 + k] * b[k * 32 + j];
                if (c[i * 32 + j] != want)
                    fail_msg("%s c(%d, %d) is %g, not %g", archs[t], i, j, (double)c[i * 32 + j], (double)want);
            }
        pto_program_destroy(p);
    }
}

/* tquant in the memref form (PTOAS's lit test): fp and offset are 16 x 16
 * memrefs, of which the implementations read each row's column 0 (PTOAS
 * skips the tile checks of the memref form); the other columns hold values
 * that would change the result. Under A2A3 (an implicit tmp) and A5. */
static void test_memref_tquant(void **state) {
    (void)state;
    static const char *archs[] = {"a2a3", "a5"};
    for (size_t t = 0; t < 2; ++t)
        for (int asym = 0; asym < 2; ++asym) {
            char text[4096];
            const char *d = asym ? "ui8" : "i8";
            snprintf(text, sizeof text,
                     "module attributes {pto.target_arch = \"%s\"} {\n"
                     "func.func @k(%%x: memref<16x16xf32, #pto.address_space<gm>>, %%s: memref<16x16xf32, "
                     "#pto.address_space<gm>>, %%y: memref<16x16x%s, #pto.address_space<gm>>) {\n"
                     "  %%src = memref.alloc() : memref<16x16xf32, #pto.address_space<vec>>\n"
                     "  %%fp = memref.alloc() : memref<16x16xf32, #pto.address_space<vec>>\n"
                     "  %%dst = memref.alloc() : memref<16x16x%s, #pto.address_space<vec>>\n"
                     "  pto.tload ins(%%x : memref<16x16xf32, #pto.address_space<gm>>) outs(%%src : "
                     "memref<16x16xf32, #pto.address_space<vec>>)\n"
                     "  pto.tload ins(%%s : memref<16x16xf32, #pto.address_space<gm>>) outs(%%fp : "
                     "memref<16x16xf32, #pto.address_space<vec>>)\n"
                     "  pto.tquant ins(%%src, %%fp%s : memref<16x16xf32, #pto.address_space<vec>>, "
                     "memref<16x16xf32, #pto.address_space<vec>>%s) outs(%%dst : memref<16x16x%s, "
                     "#pto.address_space<vec>>) {quant_type = #pto<quant_type %s>}\n"
                     "  pto.tstore ins(%%dst : memref<16x16x%s, #pto.address_space<vec>>) outs(%%y : "
                     "memref<16x16x%s, #pto.address_space<gm>>)\n"
                     "  return\n}\n}\n",
                     archs[t], d, d, asym ? ", %fp" : "", asym ? ", memref<16x16xf32, #pto.address_space<vec>>" : "",
                     d, asym ? "INT8_ASYM" : "INT8_SYM", d, d);
            pto_program *p = program_build(text, NULL);
            float x[256], sc[256];
            uint8_t y[256];
            for (int i = 0; i < 256; ++i) {
                x[i] = (float)((i * 37) % 61 - 30) * 0.75f;
                sc[i] = (i % 16 == 0) ? 0.5f + (float)(i / 16) * 0.25f : 1000.0f; /* column 0 per row */
            }
            memset(y, 0x5A, sizeof y);
            void *data[3] = {x, sc, y};
            size_t nbytes[3] = {sizeof x, sizeof sc, sizeof y};
            run_pointers(p, 3, data, nbytes);
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) {
                    const float s = sc[i * 16];
                    /* asym: the offset is the same memref, its column 0 added */
                    float q = nearbyintf(x[i * 16 + j] * s + (asym ? s : 0.0f));
                    const float lo = asym ? 0.0f : -128.0f, hi = asym ? 255.0f : 127.0f;
                    q = q < lo ? lo : q > hi ? hi : q;
                    const int got = asym ? (int)y[i * 16 + j] : (int)(int8_t)y[i * 16 + j];
                    if (got != (int)q)
                        fail_msg("%s %s (%d, %d): %d, not %d", archs[t], d, i, j, got, (int)q);
                }
            pto_program_destroy(p);
        }
}

/* Runs a PREFETCH_HEAD program on x (64 floats), y (-1s) and a workspace:
 * y must end up equal to x. */
static void expect_x_copied_to_y(const char *text) {
    pto_program *p = program_build(text, NULL);
    float x[64], y[64];
    int8_t ws[64] = {0};
    for (int i = 0; i < 64; ++i) x[i] = (float)i * 0.5f, y[i] = -1.0f;
    void *data[3] = {x, y, ws};
    const size_t nbytes[3] = {sizeof x, sizeof y, sizeof ws};
    run_pointers(p, 3, data, nbytes);
    for (int i = 0; i < 64; ++i)
        if (y[i] != x[i]) fail_msg("y[%d] is %g, not %g", i, (double)y[i], (double)x[i]);
    pto_program_destroy(p);
}

static void test_prefetch_does_nothing(void **state) {
    (void)state;
    static const char text[] =
        PREFETCH_HEAD
        "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
        "  %e = pto.tprefetch_async(%px, %ctx : !pto.partition_tensor_view<64xf32>, !pto.prefetch_async_context) -> !pto.async_event\n"
        "  %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session\n"
        "  %done = pto.comm.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1\n"
        "  scf.if %done {\n"
        "    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
        "    pto.tload ins(%px : !pto.partition_tensor_view<64xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf32>)\n"
        "    pto.tstore ins(%t : !pto.tile_buf<vec, 1x64xf32>) outs(%py : !pto.partition_tensor_view<64xf32>)\n"
        "  }\n"
        "  return\n}\n";
    expect_x_copied_to_y(text);

    /* PTOAS's rules: an 8-bit workspace, a flat view, the handles' types. */
    expect_program_refused_with(
        PREFETCH_HEAD
        "  %ctx = pto.make_prefetch_async_context(%x : !pto.ptr<f32>) -> !pto.prefetch_async_context\n"
        "  return\n}\n",
        NULL, "t.pto:9:47: error: pto.make_prefetch_async_context takes its workspace as a !pto.ptr of 8-bit integers, not !pto.ptr<f32>");
    expect_program_refused_with(
        PREFETCH_HEAD
        "  %v2 = pto.make_tensor_view %x, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x64xf32>\n"
        "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
        "  %e = pto.tprefetch_async(%v2, %ctx : !pto.tensor_view<?x64xf32>, !pto.prefetch_async_context) -> !pto.async_event\n"
        "  return\n}\n",
        NULL, "pto.tprefetch_async prefetches a view of static shape whose dimensions but the last are 1");
    expect_program_refused_with(
        PREFETCH_HEAD
        "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
        "  %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_event\n"
        "  return\n}\n",
        NULL, "pto.get_prefetch_async_session gives !pto.async_session, not !pto.async_event");
    expect_program_refused_with(
        PREFETCH_HEAD
        "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
        "  %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session\n"
        "  %done = pto.comm.wait_async_event(%s, %s : !pto.async_session, !pto.async_session) -> i1\n"
        "  return\n}\n",
        NULL, "pto.comm.wait_async_event takes a !pto.async_event and a !pto.async_session");
    /* test_async_event of a prefetch's event: complete, true. */
    pto_program_destroy(program_build(
        PREFETCH_HEAD
        "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
        "  %e = pto.tprefetch_async(%px, %ctx : !pto.partition_tensor_view<64xf32>, !pto.prefetch_async_context) -> !pto.async_event\n"
        "  %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session\n"
        "  %done = pto.comm.test_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1\n"
        "  return\n}\n",
        NULL));
}

/* TPREFETCH is a hint here (every load is synchronous): its operands are
 * checked as PTOAS checks them (a partition view, a vec or mat tile of the
 * same element size) and dst is left as it is; TSYNC's operands (tiles,
 * partition views) are checked and it does nothing. A tile loaded from x,
 * prefetched over from y, synchronised on and stored to y gives x. */
static void test_tprefetch_tsync(void **state) {
    (void)state;
    static const char text[] =
        PREFETCH_HEAD
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
        "  %u = pto.alloc_tile : !pto.tile_buf<vec, 1x64xi32>\n"
        "  pto.tload ins(%px : !pto.partition_tensor_view<64xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf32>)\n"
        "  pto.tprefetch ins(%py : !pto.partition_tensor_view<64xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf32>)\n"
        "  pto.tprefetch ins(%py : !pto.partition_tensor_view<64xf32>) outs(%u : !pto.tile_buf<vec, 1x64xi32>)\n"
        "  pto.tsync ins(%t, %px : !pto.tile_buf<vec, 1x64xf32>, !pto.partition_tensor_view<64xf32>)\n"
        "  pto.tsync ins(%u : !pto.tile_buf<vec, 1x64xi32>)\n"
        "  pto.tstore ins(%t : !pto.tile_buf<vec, 1x64xf32>) outs(%py : !pto.partition_tensor_view<64xf32>)\n"
        "  return\n}\n";
    expect_x_copied_to_y(text);

    static const struct {
        const char *line;
        const char *want;
    } kBad[] = {
        {"  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
         "  pto.tprefetch ins(%vx : !pto.tensor_view<64xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf32>)\n",
         "pto.tprefetch's src is a partition view, not"},
        {"  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf16>\n"
         "  pto.tprefetch ins(%px : !pto.partition_tensor_view<64xf32>) outs(%t : !pto.tile_buf<vec, 1x64xf16>)\n",
         "pto.tprefetch: src's f32 and dst's f16 differ in element size"},
        {"  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
         "  pto.tprefetch ins(%px : !pto.partition_tensor_view<64xf16>) outs(%t : !pto.tile_buf<vec, 1x64xf32>)\n",
         "but is written here as"},
        {"  pto.tsync ins(%c0 : index)\n", "pto.tsync's operands are tiles, partition views or memrefs, not index"},
        {"  pto.tsync ins(%nothing : !pto.tile_buf<vec, 1x64xf32>)\n", "%nothing is not defined"},
        {"  pto.tsync ins(%px, %py : !pto.partition_tensor_view<64xf32>)\n", "2 operands, 1 types"},
    };
    for (size_t k = 0; k < COUNT(kBad); ++k) {
        char bad[2048];
        snprintf(bad, sizeof bad, "%s%s  return\n}\n", PREFETCH_HEAD, kBad[k].line);
        expect_program_refused_with(bad, NULL, kBad[k].want);
    }
    /* tsync without operands (PTOAS's variadic list may be empty) */
    pto_program_destroy(program_build(PREFETCH_HEAD "  pto.tsync ins()\n  return\n}\n", NULL));
    /* ... and of global memory in the memref form */
    pto_program_destroy(program_build("func.func @k(%a: memref<4x8xf32, #pto.address_space<gm>>) {\n"
                                      "  pto.tsync ins(%a : memref<4x8xf32, #pto.address_space<gm>>)\n"
                                      "  return\n}\n",
                                      NULL));
}

#define VND "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define VNZ "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define VZN "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>"

/* tmov from a row-major vec tile into an NZ (and a ZN) vec tile writes the
 * layout's image (16x8 boxes of f32, box columns first for NZ, each box's
 * elements along its rows; box rows first and down its columns for ZN):
 * read back through a 1x256 row-major tile placed on the same bytes. */
static void test_vec_repack_image(void **state) {
    (void)state;
    for (int zn = 0; zn < 2; ++zn) {
        char text[4096];
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"a5\"} {\n"
                 "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<f32>) {\n"
                 "  %%c0 = arith.constant 0 : index\n"
                 "  %%c1 = arith.constant 1 : index\n"
                 "  %%c16 = arith.constant 16 : index\n"
                 "  %%c256 = arith.constant 256 : index\n"
                 "  %%a = arith.constant 4096 : i64\n"
                 "  %%vx = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                 "  %%vy = pto.make_tensor_view %%y, shape = [%%c1, %%c256], strides = [%%c256, %%c1] : !pto.tensor_view<1x256xf32>\n"
                 "  %%nd = pto.alloc_tile : " VND "\n"
                 "  %%nz = pto.alloc_tile addr = %%a : %s\n"
                 "  %%flat = pto.alloc_tile addr = %%a : !pto.tile_buf<vec, 1x256xf32>\n"
                 "  pto.tload ins(%%vx : !pto.tensor_view<16x16xf32>) outs(%%nd : " VND ")\n"
                 "  pto.tmov ins(%%nd : " VND ") outs(%%nz : %s)\n"
                 "  pto.tstore ins(%%flat : !pto.tile_buf<vec, 1x256xf32>) outs(%%vy : !pto.tensor_view<1x256xf32>)\n"
                 "  return\n}\n}\n",
                 zn ? VZN : VNZ, zn ? VZN : VNZ);
        pto_program *p = program_build(text, NULL);
        float x[256], y[256];
        for (int i = 0; i < 256; ++i) x[i] = (float)i, y[i] = -1.0f;
        void *data[2] = {x, y};
        const size_t nbytes[2] = {sizeof x, sizeof y};
        run_pointers(p, 2, data, nbytes);
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 16; ++c) {
                /* NZ: 16x8 boxes, box columns first, along rows; ZN: 8x16
                 * boxes (32 bytes of rows by 16 columns), box rows first,
                 * down columns. */
                const int at = zn ? (r / 8) * 16 * 8 + (c % 16) * 8 + r % 8
                                  : (c / 8) * 16 * 8 + r * 8 + c % 8;
                if (y[at] != x[r * 16 + c])
                    fail_msg("%s: (%d, %d) at %d holds %g", zn ? "ZN" : "NZ", r, c, at, (double)y[at]);
            }
        pto_program_destroy(p);
    }
}

/* compact=2 (row_plus_one) on an NZ vec tile is A5's NZ+1: tmov from a
 * row-major tile steps the column strips by the valid rows rounded up to 16,
 * plus one (pto-isa a5/TMov.hpp), which is the NZ image of a tile of that
 * many rows; the gap row of each strip keeps its bytes. Read back through a
 * flat tile on the same bytes, prefilled from y. */
static void test_vec_repack_row_plus_one(void **state) {
    (void)state;
    static const int valid_rows[] = {16, 13, 1};
    for (size_t k = 0; k < COUNT(valid_rows); ++k) {
        const int vr = valid_rows[k];
        char nd[256], nz[256], text[4096];
        snprintf(nd, sizeof nd, "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=%d, v_col=16>", vr);
        snprintf(nz, sizeof nz,
                 "!pto.tile_buf<loc=vec, dtype=f32, rows=17, cols=16, v_row=%d, v_col=16, blayout=col_major, "
                 "slayout=row_major, fractal=512, compact=2>",
                 vr);
        snprintf(text, sizeof text,
                 "module attributes {pto.target_arch = \"a5\"} {\n"
                 "func.func @k(%%x: !pto.ptr<f32>, %%y: !pto.ptr<f32>) {\n"
                 "  %%c1 = arith.constant 1 : index\n"
                 "  %%c16 = arith.constant 16 : index\n"
                 "  %%c272 = arith.constant 272 : index\n"
                 "  %%a = arith.constant 4096 : i64\n"
                 "  %%vx = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
                 "  %%vy = pto.make_tensor_view %%y, shape = [%%c1, %%c272], strides = [%%c272, %%c1] : !pto.tensor_view<1x272xf32>\n"
                 "  %%nd = pto.alloc_tile : %s\n"
                 "  %%nz = pto.alloc_tile addr = %%a : %s\n"
                 "  %%flat = pto.alloc_tile addr = %%a : !pto.tile_buf<vec, 1x272xf32>\n"
                 "  pto.tload ins(%%vy : !pto.tensor_view<1x272xf32>) outs(%%flat : !pto.tile_buf<vec, 1x272xf32>)\n"
                 "  pto.tload ins(%%vx : !pto.tensor_view<16x16xf32>) outs(%%nd : %s)\n"
                 "  pto.tmov ins(%%nd : %s) outs(%%nz : %s)\n"
                 "  pto.tstore ins(%%flat : !pto.tile_buf<vec, 1x272xf32>) outs(%%vy : !pto.tensor_view<1x272xf32>)\n"
                 "  return\n}\n}\n",
                 nd, nz, nd, nd, nz);
        pto_program *p = program_build(text, NULL);
        float x[256], y[272];
        for (int i = 0; i < 256; ++i) x[i] = (float)i;
        for (int i = 0; i < 272; ++i) y[i] = -1.0f;
        void *data[2] = {x, y};
        const size_t nbytes[2] = {sizeof x, sizeof y};
        run_pointers(p, 2, data, nbytes);
        int written = 0;
        for (int r = 0; r < 17; ++r)
            for (int c = 0; c < 16; ++c) {
                /* 16x8 boxes of f32; two column strips of 17 rows of 8. */
                const int at = (c / 8) * 17 * 8 + r * 8 + c % 8;
                const float want = r < vr ? x[r * 16 + c] : -1.0f;
                if (y[at] != want) fail_msg("valid rows %d: (%d, %d) at %d holds %g, not %g", vr, r, c, at, (double)y[at], (double)want);
                written += r < vr;
            }
        assert_int_equal(written, vr * 16);
        pto_program_destroy(p);
    }
    /* The mode's rules: NZ only, 16k + 1 rows, static valid rows that round up to 16k. */
    static const struct {
        const char *type, *want;
    } bad[] = {
        {"!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, blayout=row_major, slayout=col_major, compact=2>",
         "compact=2 (row_plus_one) is A5's NZ+1 layout: a boxed tile with it is NZ (blayout=col_major, "
         "slayout=row_major), not ZN"},
        {"!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, blayout=col_major, slayout=row_major, compact=2>",
         "has 16k + 1 rows (its column strips lie one row further apart than its boxes need), not 16x16"},
        {"!pto.tile_buf<loc=mat, dtype=f32, rows=33, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, "
         "compact=2>",
         "of 33 rows has static valid rows 17 to 32"},
        {"!pto.tile_buf<loc=vec, dtype=f32, rows=17, cols=16, v_row=?, v_col=16, blayout=col_major, slayout=row_major, "
         "compact=2>",
         "of 17 rows has static valid rows 1 to 16"},
        {"!pto.tile_buf<loc=vec, dtype=f32, rows=17, cols=16, blayout=col_major, slayout=row_major, compact=3>",
         "compact=3 is not 0, 1 or 2 (row_plus_one)"},
    };
    for (size_t k = 0; k < COUNT(bad); ++k) {
        char text[1024];
        snprintf(text, sizeof text, "func.func @k() {\n  %%t = pto.alloc_tile : %s\n  return\n}\n", bad[k].type);
        expect_program_refused_with(text, NULL, bad[k].want);
    }
    /* Without boxes the mode leaves the layout as it is (pto-isa's row
     * stride is Cols in every mode): a compact=2 tile adds as a plain one. */
    pto_program_destroy(program_build("func.func @k() {\n"
                                      "  %t = pto.alloc_tile : !pto.tile_buf<vec, 4x16xf16, compact=2>\n"
                                      "  pto.tadd ins(%t, %t : !pto.tile_buf<vec, 4x16xf16, compact=2>, !pto.tile_buf<vec, "
                                      "4x16xf16, compact=2>) outs(%t : !pto.tile_buf<vec, 4x16xf16, compact=2>)\n"
                                      "  return\n}\n",
                                      NULL));
}

/* A vector core repacks a tile into NZ and pushes it to the cube, whose
 * pop gives an NZ mat tile: its product with a matrix loaded there is the
 * product of the values the vector core loaded (small integers: exact). */
static void test_vec_nz_push_to_cube(void **state) {
    (void)state;
    static const char text[] =
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "func.func @k(%x: !pto.ptr<f32>, %b: !pto.ptr<f32>, %y: !pto.ptr<f32>) attributes {pto.entry} {\n"
        "  func.call @cube(%b, %y) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()\n"
        "  func.call @vector(%x) : (!pto.ptr<f32>) -> ()\n"
        "  return\n}\n"
        "func.func private @cube(%b: !pto.ptr<f32>, %y: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %buf = pto.reserve_buffer {name = \"v2c\", size = 8192, location = #pto.address_space<mat>, auto = true} -> i32\n"
        "  %z = arith.constant 0 : i32\n"
        "  pto.aic_initialize_pipe {id = 0, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %z : i32, v2c_consumer_buf = %buf : i32)\n"
        "  %m = pto.tpop_from_aiv {id = 0, split = 0} -> " MAT "\n"
        "  %mb = pto.alloc_tile : " MAT "\n"
        "  %l = pto.alloc_tile : !pto.tile_buf<" LEFT ">\n"
        "  %r = pto.alloc_tile : !pto.tile_buf<" RIGHT ">\n"
        "  %acc = pto.alloc_tile : " ACC "\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "  %vy = pto.make_tensor_view %y, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "  pto.tload ins(%vb : !pto.tensor_view<16x16xf32>) outs(%mb : " MAT ")\n"
        "  pto.tmov ins(%m : " MAT ") outs(%l : !pto.tile_buf<" LEFT ">)\n"
        "  pto.tmov ins(%mb : " MAT ") outs(%r : !pto.tile_buf<" RIGHT ">)\n"
        "  pto.tfree_from_aiv {id = 0, split = 0}\n"
        "  pto.tmatmul ins(%l, %r : !pto.tile_buf<" LEFT ">, !pto.tile_buf<" RIGHT ">) outs(%acc : " ACC ")\n"
        "  pto.tstore ins(%acc : " ACC ") outs(%vy : !pto.tensor_view<16x16xf32>)\n"
        "  return\n}\n"
        "func.func private @vector(%x: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %z = arith.constant 0 : i32\n"
        "  %imp = pto.import_reserved_buffer {name = \"v2c\", peer_func = @cube} -> i32\n"
        "  pto.aiv_initialize_pipe {id = 0, dir_mask = 2, slot_size = 1024} (c2v_consumer_buf = %z : i32, v2c_consumer_buf = %imp : i32)\n"
        "  %vx = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "  %nd = pto.alloc_tile : " VND "\n"
        "  %nz = pto.alloc_tile : " VNZ "\n"
        "  pto.tload ins(%vx : !pto.tensor_view<16x16xf32>) outs(%nd : " VND ")\n"
        "  pto.tmov ins(%nd : " VND ") outs(%nz : " VNZ ")\n"
        "  pto.tpush_to_aic(%nz : " VNZ ") {id = 0, split = 0}\n"
        "  return\n}\n}\n";
    pto_program *p = program_build(text, NULL);
    float x[256], b[256], y[256];
    for (int i = 0; i < 256; ++i) x[i] = (float)(i % 11 - 5), b[i] = (float)(i % 7 - 3), y[i] = 0;
    void *data[3] = {x, b, y};
    const size_t nbytes[3] = {sizeof x, sizeof b, sizeof y};
    run_pointers(p, 3, data, nbytes);
    expect_product(y, x, b, 16, 16, 16);
    pto_program_destroy(p);
}

/* A boxed vec tile anywhere but tmov and the pipes is refused, naming the
 * instruction and the layout; so are the repacks A5 does not have. */
static void test_vec_boxed_refusals(void **state) {
    (void)state;
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"  pto.tadd ins(%nz, %nz : " VNZ ", " VNZ ") outs(%nz : " VNZ ")\n",
         "t.pto:5:27: error: pto.tadd: %nz is a vec tile laid out NZ (blayout=col_major, slayout=row_major); a boxed "
         "vec tile is taken by tmov (to change its layout) and by the pipes' push and pop only"},
        {"  pto.tstore ins(%nz : " VNZ ") outs(%v : !pto.tensor_view<16x16xf32>)\n",
         "pto.tstore: %nz is a vec tile laid out NZ"},
        {"  pto.tload ins(%v : !pto.tensor_view<16x16xf32>) outs(%zn : " VZN ")\n",
         "pto.tload: %zn is a vec tile laid out ZN (blayout=row_major, slayout=col_major)"},
        {"  pto.tprint ins(%nz : " VNZ ")\n", "pto.tprint: %nz is a vec tile laid out NZ"},
        {"  pto.tmov ins(%nz : " VNZ ") outs(%nd : " VND ")\n",
         "pto.tmov between vec tiles with a boxed one is tmov's repack of a row-major (ND) tile into NZ or ZN (A5's "
         "TMOV); here NZ to ND"},
        {"  pto.tmov ins(%nz : " VNZ ") outs(%zn : " VZN ")\n", "here NZ to ZN"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[4096];
        snprintf(text, sizeof text,
                 "func.func @k(%%x: !pto.ptr<f32>) {\n"
                 "  %%nd = pto.alloc_tile : " VND "\n"
                 "  %%nz = pto.alloc_tile : " VNZ "\n"
                 "  %%zn = pto.alloc_tile : " VZN "\n"
                 "%s"
                 "  return\n}\n",
                 cases[i].body);
        /* The view the load and store cases name. */
        char *at = strstr(text, "  %nd");
        if (strstr(cases[i].body, "%v ") != NULL) {
            char full[4096];
            snprintf(full, sizeof full, "%.*s  %%c1 = arith.constant 1 : index\n  %%c16 = arith.constant 16 : index\n"
                     "  %%v = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : "
                     "!pto.tensor_view<16x16xf32>\n%s", (int)(at - text), text, at);
            expect_program_refused_with(full, NULL, cases[i].want);
        } else {
            expect_program_refused_with(text, NULL, cases[i].want);
        }
    }
    /* The repack is A5's. */
    expect_program_refused_with(
        "module attributes {pto.target_arch = \"a2a3\"} {\nfunc.func @k() {\n"
        "  %nd = pto.alloc_tile : " VND "\n"
        "  %nz = pto.alloc_tile : " VNZ "\n"
        "  pto.tmov ins(%nd : " VND ") outs(%nz : " VNZ ")\n"
        "  return\n}\n}\n",
        NULL, "pto.tmov: the repack of a vec tile into NZ is A5's TMOV (A2A3's moves a vec tile as it is)");
    /* ZZ in vec is the MX exponents' layout; NN is no repack's; a parameter is row-major. */
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf32, slayout=row_major>\n"
                                "  return\n}\n",
                                NULL, "a vec tile laid out ZZ (blayout=row_major, slayout=row_major) holds MX scale "
                                      "exponents (TMOV's X to ZZ): one-byte elements (ui8, i8, e8m0), not f32");
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32, blayout=col_major, "
                                "slayout=col_major>\n  return\n}\n",
                                NULL, "a vec tile laid out NN is not supported");
    expect_program_refused_with("func.func @k(%t: " VNZ ") {\n  return\n}\n", NULL,
                                "%t: a parameter tile is row-major (slayout=none_box), not boxed");
    expect_program_refused_with("%d = tabs %s : " VNZ "\n", NULL,
                                "%s would be a parameter laid out NZ; a parameter tile is row-major (none_box)");
}

/* What stays out, refused with its sentence: types without a dtype, TQUANT's
 * MX form, and more pipes in a kernel than its hardware flag ids allow. */
static void test_refusals(void **state) {
    (void)state;
    expect_program_refused_with("func.func @k(%a: !pto.ptr<!pto.hif8x2, gm>) {\n  return\n}\n", NULL,
                                "t.pto:1:27: error: pointer element type '!pto.hif8x2' is not supported (f32, ");
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<mat, 1x64xf8E3M4>\n"
                                "  return\n}\n",
                                NULL, "element type 'f8E3M4' is not supported");
    expect_program_refused_with(
        "func.func @k(%s: !pto.tile_buf<vec, 16x64xf32>, %d: !pto.tile_buf<vec, 16x64xi8>,\n"
        "             %e: !pto.tile_buf<vec, 16x2xui8>, %m: !pto.tile_buf<vec, 16x2xf32>, %c: !pto.tile_buf<vec, 16x2xf32>) {\n"
        "  pto.tquant.mx ins(%s : !pto.tile_buf<vec, 16x64xf32>) outs(%d, %e, %m, %c : !pto.tile_buf<vec, 16x64xi8>, "
        "!pto.tile_buf<vec, 16x2xui8>, !pto.tile_buf<vec, 16x2xf32>, !pto.tile_buf<vec, 16x2xf32>) "
        "{quant_type = #pto<quant_type MXFP8>, storeMode = #pto<vec_store_mode nz>}\n"
        "  return\n}\n",
        NULL, "storeMode is deprecated (PTOAS) and not implemented");
    /* 16 hardware flag ids a kernel: 8 one-way pipes fit, a ninth does not;
     * that is said before a consumer buffer's size (PTOAS's manual's rule). */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n");
    for (int id = 0; id < 8; ++id)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "  pto.aic_initialize_pipe {id = %d, dir_mask = 1, slot_size = 1024}\n", id);
    snprintf(text + n, sizeof text - n, "  return\n}\n");
    pto_program *p = program_build(text, NULL);
    pto_program_destroy(p);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "  pto.aic_initialize_pipe {id = 8, dir_mask = 1, slot_size = 1024}\n  return\n}\n");
    expect_program_refused_with(text, NULL,
                                "t.pto:10:3: error: pto.aic_initialize_pipe: with pipe 8 the cube's pipes need 18 "
                                "hardware flag ids, more than the 16 there are (a pipe takes 2, or 4 with dir_mask = 3)");
    expect_program_refused_with(
        "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "  %b = pto.reserve_buffer {name = \"x\", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32\n"
        "  %z = arith.constant 0 : i32\n"
        "  pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %b : i32, v2c_consumer_buf = %z : i32)\n"
        "  pto.aiv_initialize_pipe {id = 1, dir_mask = 3, slot_size = 1024}\n"
        "  pto.aiv_initialize_pipe {id = 2, dir_mask = 3, slot_size = 1024}\n"
        "  pto.aiv_initialize_pipe {id = 3, dir_mask = 3, slot_size = 1024}\n"
        "  pto.aiv_initialize_pipe {id = 4, dir_mask = 3, slot_size = 1024}\n"
        "  return\n}\n",
        NULL, "t.pto:8:3: error: pto.aiv_initialize_pipe: with pipe 4 the vector's pipes need 18 hardware flag ids");
    expect_program_refused_with(
        "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  pto.aic_initialize_pipe {id = 0, dir_mask = 3, slot_size = 1024, flag_base = 14}\n"
        "  return\n}\n",
        NULL, "pto.aic_initialize_pipe: flag_base 14 and dir_mask 3 need flag ids up to 17; there are 16 (0 to 15)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_older_matmul_spellings),
        cmocka_unit_test(test_memref_form),
        cmocka_unit_test(test_memref_tquant),
        cmocka_unit_test(test_memref_cube),
        cmocka_unit_test(test_prefetch_does_nothing),
        cmocka_unit_test(test_tprefetch_tsync),
        cmocka_unit_test(test_vec_repack_image),
        cmocka_unit_test(test_vec_repack_row_plus_one),
        cmocka_unit_test(test_vec_nz_push_to_cube),
        cmocka_unit_test(test_vec_boxed_refusals),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
