/* PTO assembly's tile memory: tiles placed by liveness or by address
 * (sharing bytes across dtypes), col_major tiles of one row or column,
 * tensor views with dynamic dims and the dn layout, tile subviews
 * (pto.subset, pto.subview) and the windows tload and tstore move. Every
 * case is written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define T32 "!pto.tile_buf<vec, 32x64xf32>"
#define B32 "!pto.tile_buf<vec, 32x128xbf16>"

/* Tiles without addresses share bytes once dead; placed tiles keep theirs,
 * and two tiles placed on the same bytes share them across dtypes. */
static void test_liveness_placement(void **state) {
    (void)state;
    /* 24 tiles of 8 KiB in sequence: 192 KiB without reuse, two at once here. */
    char text[16384];
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "module attributes {pto.target_arch = \"a2a3\"} {\n"
                          " func.func @k(%%p: !pto.ptr<f32>) {\n"
                          "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                          "  %%c32 = arith.constant 32 : index\n  %%c64 = arith.constant 64 : index\n"
                          "  %%v = pto.make_tensor_view %%p, shape = [%%c32, %%c64], strides = [%%c64, %%c1]"
                          " : !pto.tensor_view<32x64xf32>\n");
    for (int i = 0; i < 25; ++i)
        n += (size_t)snprintf(text + n, sizeof text - n, "  %%t%d = pto.alloc_tile : " T32 "\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "  pto.tload ins(%%v : !pto.tensor_view<32x64xf32>) outs(%%t0 : " T32 ")\n");
    for (int i = 1; i < 25; ++i)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "  pto.tadd ins(%%t%d, %%t%d : " T32 ", " T32 ") outs(%%t%d : " T32 ")\n",
                              i - 1, i - 1, i);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "  pto.tstore ins(%%t24 : " T32 ") outs(%%v : !pto.tensor_view<32x64xf32>)\n"
                          "  return\n }\n}\n");
    pto_program *p = program_build(text, NULL);
    const char *d = pto_program_describe(p);
    assert_non_null(strstr(d, "16384 bytes used, at most 16384 bytes live at once"));
    float m[32 * 64];
    for (int i = 0; i < 32 * 64; ++i) m[i] = (float)i;
    program_run_on(p, m, sizeof m);
    assert_true(m[3] == 3.0f * 16777216.0f);
    pto_program_destroy(p);

    /* A bf16 tile over an f32 tile's bytes: it reads the f32 bits' halves. */
    static const char shared[] =
        "func.func @k(%p: !pto.ptr<f32>, %q: !pto.ptr<bf16>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c32 = arith.constant 32 : index\n  %c64 = arith.constant 64 : index\n"
        "  %c128 = arith.constant 128 : index\n  %a0 = arith.constant 0 : i64\n"
        "  %v = pto.make_tensor_view %p, shape = [%c32, %c64], strides = [%c64, %c1] : !pto.tensor_view<32x64xf32>\n"
        "  %w = pto.make_tensor_view %q, shape = [%c32, %c128], strides = [%c128, %c1] : !pto.tensor_view<32x128xbf16>\n"
        "  %f = pto.alloc_tile addr = %a0 : " T32 "\n"
        "  %b = pto.alloc_tile addr = %a0 : " B32 "\n"
        "  pto.tload ins(%v : !pto.tensor_view<32x64xf32>) outs(%f : " T32 ")\n"
        "  pto.tstore ins(%b : " B32 ") outs(%w : !pto.tensor_view<32x128xbf16>)\n"
        "  return\n}\n";
    p = program_build(shared, NULL);
    assert_non_null(strstr(pto_program_describe(p), "placed by the text"));
    float f[32 * 64];
    uint16_t b[32 * 128];
    for (int i = 0; i < 32 * 64; ++i) f[i] = 1.5f + (float)i;
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, b, sizeof b), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    uint32_t bits;
    memcpy(&bits, &f[5], 4);
    assert_int_equal(b[10], bits & 0xFFFF);
    assert_int_equal(b[11], bits >> 16);
    pto_args_destroy(a);
    pto_program_destroy(p);

    /* PTOAS's %t2 = pto.tassign %t, %addr is its level3 form, where every
     * alloc_tile gives its address: a tile without one is refused; with
     * one, the tassign moves it (here onto the f32 tile's bytes). */
    static const char head3[] =
        "func.func @k(%p: !pto.ptr<f32>, %q: !pto.ptr<bf16>) {\n"
        "  %c1 = arith.constant 1 : index\n  %c32 = arith.constant 32 : index\n"
        "  %c64 = arith.constant 64 : index\n  %c128 = arith.constant 128 : index\n"
        "  %a0 = arith.constant 0 : i64\n  %a1 = arith.constant 8192 : i64\n"
        "  %v = pto.make_tensor_view %p, shape = [%c32, %c64], strides = [%c64, %c1] : !pto.tensor_view<32x64xf32>\n"
        "  %w = pto.make_tensor_view %q, shape = [%c32, %c128], strides = [%c128, %c1] : !pto.tensor_view<32x128xbf16>\n"
        "  %f = pto.alloc_tile addr = %a0 : " T32 "\n"
        "  %b = pto.alloc_tile";
    static const char tail3[] =
        " : " B32 "\n"
        "  %b2 = pto.tassign %b, %a0 : " B32 " -> " B32 "\n"
        "  pto.tload ins(%v : !pto.tensor_view<32x64xf32>) outs(%f : " T32 ")\n"
        "  pto.tstore ins(%b2 : " B32 ") outs(%w : !pto.tensor_view<32x128xbf16>)\n"
        "  return\n}\n";
    char text3[4096];
    snprintf(text3, sizeof text3, "%s%s", head3, tail3);
    expect_program_refused_with(text3, NULL,
                                "%t2 = pto.tassign %t, %addr is PTOAS's level3 form, where each pto.alloc_tile "
                                "gives addr = %a: %b has none");
    snprintf(text3, sizeof text3, "%s addr = %%a1%s", head3, tail3);
    p = program_build(text3, NULL);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, b, sizeof b), PTO_OK);
    memset(b, 0, sizeof b);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    assert_int_equal(b[10], bits & 0xFFFF);
    pto_args_destroy(a);
    pto_program_destroy(p);
}

/* blayout=col_major: a one-column tile (PTOAS's [R,1] vectors) is the same
 * bytes as row_major and is accepted; a wider one is refused. */
static void test_col_major_columns(void **state) {
    (void)state;
#define COLUMN(cols) "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=" cols ", v_row=4, v_col=" cols \
                     ", blayout=col_major, slayout=none_box, fractal=512, pad=0>"
    pto_program *p = program_build("func.func @k(%a: " COLUMN("1") ", %b: " COLUMN("1") ") {\n"
                           "  %c = arith.constant 1.5 : f32\n"
                           "  pto.tadds ins(%a, %c : " COLUMN("1") ", f32) outs(%b : " COLUMN("1") ")\n"
                           "  return\n}\n",
                           NULL);
    pto_tile *a = NULL, *b = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 4, 1, &a), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 4, 1, &b), PTO_OK);
    float *x = pto_tile_data(a), *y = pto_tile_data(b);
    for (int i = 0; i < 4; ++i) x[i] = (float)i;
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_tile(args, 0, a), PTO_OK);
    assert_int_equal(pto_args_set_tile(args, 1, b), PTO_OK);
    assert_int_equal(pto_program_run(p, args), PTO_OK);
    for (int i = 0; i < 4; ++i) assert_true(y[i] == (float)i + 1.5f);
    pto_args_destroy(args);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_program_destroy(p);
    expect_program_refused_with("func.func @k(%a: " COLUMN("4") ") {\n  return\n}\n", NULL,
            "blayout=col_major is supported for tiles of one column or one row (the same bytes as "
            "row_major), not 4x4");
    /* A row of 16 in col_major (PTOAS's 1xN dn tiles) has row_major's bytes: loaded alike. */
    float row[16], got[16];
    for (int i = 0; i < 16; ++i) row[i] = (float)i * 0.5f;
    p = program_build("func.func @k(%p: !pto.ptr<f32>) {\n"
              "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
              "  %c16 = arith.constant 16 : index\n  %two = arith.constant 2.0 : f32\n"
              "  %v = pto.make_tensor_view %p, shape = [%c1, %c16], strides = [%c1, %c1] "
              "{layout = #pto.layout<dn>} : !pto.tensor_view<?x?xf32>\n"
              "  %s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c16] "
              ": !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x16xf32>\n"
              "  %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, "
              "v_col=16, blayout=col_major, slayout=none_box, fractal=512, pad=0>\n"
              "  pto.tload ins(%s : !pto.partition_tensor_view<1x16xf32>) outs(%t : !pto.tile_buf<loc=vec, "
              "dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=col_major, slayout=none_box, "
              "fractal=512, pad=0>)\n"
              "  pto.tmuls ins(%t, %two : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, "
              "v_col=16, blayout=col_major, slayout=none_box, fractal=512, pad=0>, f32) outs(%t : "
              "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=col_major, "
              "slayout=none_box, fractal=512, pad=0>)\n"
              "  pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, "
              "blayout=col_major, slayout=none_box, fractal=512, pad=0>) outs(%s : "
              "!pto.partition_tensor_view<1x16xf32>)\n"
              "  return\n}\n", NULL);
    memcpy(got, row, sizeof row);
    program_run_on(p, got, sizeof got);
    for (int i = 0; i < 16; ++i) assert_true(got[i] == row[i] * 2.0f);
    pto_program_destroy(p);
#undef COLUMN
}

/* A view made from constant shape operands knows its dims; the text may
 * still write `?x?` for it where it is carried (PTOAS's samples). A static
 * dim that differs stays an error. */
static void test_view_types_with_dynamic_dims(void **state) {
    (void)state;
#define CARRIED(T)                                                                        \
    "func.func @k(%p: !pto.ptr<f32>) {\n"                                                 \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                \
    "  %c4 = arith.constant 4 : index\n"                                                   \
    "  %v = pto.make_tensor_view %p, shape = [%c4, %c4], strides = [%c4, %c1]"              \
    " : !pto.tensor_view<?x?xf32>\n"                                                       \
    "  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %v) -> (" T ") {\n"            \
    "    scf.yield %a : " T "\n  }\n  return\n}\n"
    pto_program_destroy(program_build(CARRIED("!pto.tensor_view<?x?xf32>"), NULL));
    pto_program_destroy(program_build(CARRIED("!pto.tensor_view<4x?xf32>"), NULL));
    expect_program_refused_with(CARRIED("!pto.tensor_view<4x8xf32>"), NULL, "but the loop gives !pto.tensor_view<4x8xf32>");
#undef CARRIED
    /* #pto.layout<dn>: the strides place each element. A 2x3 matrix stored
     * column by column, read through a dn view and written row by row. */
    pto_program *p = program_build(
        "func.func @t(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n  %c3 = arith.constant 3 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c2, %c3], strides = [%c1, %c2]"
        " {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xf32>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c2, %c3], strides = [%c3, %c1]"
        " {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>\n"
        "  %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c2, %c3]"
        " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x3xf32>\n"
        "  %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c2, %c3]"
        " : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x3xf32>\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 2x3xf32>\n"
        "  pto.tload ins(%pa : !pto.partition_tensor_view<2x3xf32>) outs(%t : !pto.tile_buf<vec, 2x3xf32>)\n"
        "  pto.tstore ins(%t : !pto.tile_buf<vec, 2x3xf32>) outs(%pb : !pto.partition_tensor_view<2x3xf32>)\n"
        "  return\n}\n",
        NULL);
    float a[6] = {0, 3, 1, 4, 2, 5}, b[6] = {0};
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, a, sizeof a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, b, sizeof b), PTO_OK);
    assert_int_equal(pto_program_run(p, args), PTO_OK);
    for (int i = 0; i < 6; ++i) assert_true(b[i] == (float)i);
    pto_args_destroy(args);
    pto_program_destroy(p);
}

/* Runs p with pointer parameters 0 and 1 bound to a and b (n floats each)
 * and index parameter 2, if any, to n2; returns the status. */
static pto_status run_two(pto_program *p, float *a, float *b, size_t n, int64_t n2) {
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, a, n * sizeof *a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, b, n * sizeof *b), PTO_OK);
    if (pto_program_param_count(p) > 2) assert_int_equal(pto_args_set_int(args, 2, n2), PTO_OK);
    const pto_status s = pto_program_run(p, args);
    pto_args_destroy(args);
    return s;
}

/* A kernel over a 4x8 f32 matrix: %a loaded into %w, BODY, %w stored to %b
 * (%n an index parameter BODY may use). */
#define W48 "!pto.tile_buf<vec, 4x8xf32>"
#define W44 "!pto.tile_buf<vec, 4x4xf32>"
#define MATRIX_KERNEL(BODY)                                                                     \
    "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %n: index) {\n"                         \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                      \
    "  %c2 = arith.constant 2 : index\n  %c4 = arith.constant 4 : index\n"                      \
    "  %c6 = arith.constant 6 : index\n  %c8 = arith.constant 8 : index\n"                      \
    "  %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : "             \
    "!pto.tensor_view<4x8xf32>\n"                                                               \
    "  %vb = pto.make_tensor_view %b, shape = [%c4, %c8], strides = [%c8, %c1] : "             \
    "!pto.tensor_view<4x8xf32>\n"                                                               \
    "  %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c4, %c8] : "              \
    "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<4x8xf32>\n"                       \
    "  %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c4, %c8] : "              \
    "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<4x8xf32>\n"                       \
    "  %w = pto.alloc_tile : " W48 "\n"                                                         \
    "  pto.tload ins(%pa : !pto.partition_tensor_view<4x8xf32>) outs(%w : " W48 ")\n"           \
    BODY                                                                                        \
    "  pto.tstore ins(%w : " W48 ") outs(%pb : !pto.partition_tensor_view<4x8xf32>)\n"          \
    "  return\n}\n"

static void fill_matrix(float *a) {
    for (int i = 0; i < 32; ++i) a[i] = (float)(i * 3 - 40);
}

/* Tile subviews: PTOAS's pto.subset (constant and run-time offsets, the
 * ping/pong halves of a workspace) and TSUBVIEW's pto.subview (SSA, DPS):
 * windows of the parent's bytes, rows as long as the parent's. */
static void test_subviews(void **state) {
    (void)state;
    float a[32], b[32], want[32];
    fill_matrix(a);
    /* Right half += left half, through two subsets of the same rows. */
    pto_program *p = program_build(MATRIX_KERNEL(
        "  %l = pto.subset %w[%c0, %c0] sizes [4, 4] : " W48 "\n"
        "  %r = pto.subset %w[%c0, %c4] sizes [4, 4] : " W48 "\n"
        "  pto.tadd ins(%l, %r : " W44 ", " W44 ") outs(%r : " W44 ")\n"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
            want[i * 8 + j] = j < 4 ? a[i * 8 + j] : a[i * 8 + j] + a[i * 8 + j - 4];
    assert_memory_equal(b, want, sizeof want);
    assert_non_null(strstr(pto_program_describe(p),
                           "%r tile 4x4xf32 (valid 4x4): 64 bytes at 0x10..0x50, line 15, a subview of %w"));
    pto_program_destroy(p);
    /* A window that moves: its column offset is a loop variable, so its valid
     * columns are `?` (PTOAS's inference), set when it runs. Rows 1 and 2
     * doubled, two columns at a time. */
#define MOVING(SIZES, T)                                                                        \
    MATRIX_KERNEL("  %k = arith.constant 2.0 : f32\n"                                           \
                  "  scf.for %j = %c0 to %c8 step %c2 {\n"                                     \
                  "    %s = pto.subset %w[%c1, %j] sizes " SIZES " : " W48 "\n"                 \
                  "    pto.tmuls ins(%s, %k : " T ", f32) outs(%s : " T ")\n  }\n")
    p = program_build(MOVING("[2, 2]", "!pto.tile_buf<vec, 2x2xf32, valid=2x?>"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    for (int i = 0; i < 32; ++i) want[i] = i >= 8 && i < 24 ? 2 * a[i] : a[i];
    assert_memory_equal(b, want, sizeof want);
    assert_non_null(strstr(pto_program_describe(p), "a subview of %w (placed when it runs)"));
    pto_program_destroy(p);
    /* The last window [1, 6] of 2x4 leaves the parent: an error when it runs. */
    p = program_build(MOVING("[2, 4]", "!pto.tile_buf<vec, 2x4xf32, valid=2x?>"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "t.pto:16:10: error: pto.subset: the 2x4 window at [1, 6] is outside %w's 4x8") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    expect_program_refused_with(MOVING("[2, 2]", "!pto.tile_buf<vec, 2x2xf32>"), NULL,
            "17:28: error: %s is tile 2x2xf32 (valid 2x?), but is written here as tile 2x2xf32 (valid 2x2)");
#undef MOVING
    /* TSUBVIEW: dst has src's capacity and its own valid region, at (row,
     * col) of src's. DPS: an allocated 2x3 window at [2, 5] filled with 7;
     * SSA: row 0 (a 1x8 window at [0, 0]) negated. */
#define D23 "!pto.tile_buf<vec, 4x8xf32, valid=2x3>"
#define E18 "!pto.tile_buf<vec, 4x8xf32, valid=1x8>"
    p = program_build(MATRIX_KERNEL(
        "  %r2 = arith.constant 2 : i16\n  %c5 = arith.constant 5 : i16\n"
        "  %z = arith.constant 0 : i16\n  %seven = arith.constant 7.0 : f32\n"
        "  %d = pto.alloc_tile : " D23 "\n"
        "  pto.subview ins(%w, %r2, %c5 : " W48 ", i16, i16) outs(%d : " D23 ")\n"
        "  pto.texpands ins(%seven : f32) outs(%d : " D23 ")\n"
        "  %e = pto.subview %w, %z, %z : (" W48 ", i16, i16) -> " E18 "\n"
        "  pto.tneg ins(%e : " E18 ") outs(%e : " E18 ")\n"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
            want[i * 8 + j] = i == 0 ? -a[j] : i >= 2 && j >= 5 ? 7.0f : a[i * 8 + j];
    assert_memory_equal(b, want, sizeof want);
    pto_program_destroy(p);
    /* Refused: a window outside its parent, a valid region outside src's, a
     * whole-tile instruction on a window. */
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subset %w[%c0, %c6] sizes [4, 4] : " W48 "\n"), NULL,
            "14:8: error: pto.subset: the 4x4 window at [0, 6] is outside %w's 4x8");
    expect_program_refused_with(MATRIX_KERNEL("  %r3 = arith.constant 3 : i16\n  %d = pto.alloc_tile : " D23 "\n"
                          "  pto.subview ins(%w, %r3, %r3 : " W48 ", i16, i16) outs(%d : " D23 ")\n"),
            NULL,
            "16:3: error: pto.subview: dst's valid region 2x3 at [3, 3] is outside src's valid region 4x8");
    expect_program_refused_with(MATRIX_KERNEL("  %l = pto.subset %w[%c0, %c0] sizes [4, 4] : " W48 "\n"
                          "  pto.tfillpad ins(%l : " W44 ") outs(%l : " W44 ")\n"),
            NULL, "15:3: error: pto_tfillpad: %l is a subview of %w, and tfillpad needs a whole tile");
#undef D23
#undef E18
}

/* PTOAS's current subview, `pto.subview %t[%r, %c] sizes [R, C] [valid [%vr,
 * %vc]] : T -> U`: a window with its own valid region (the operands', checked
 * against the sizes when they are run-time values, else U's), as an
 * instruction's operand and as a tload destination. */
static void test_sized_subviews(void **state) {
    (void)state;
    float a[32], b[32], want[32];
    fill_matrix(a);
#define S24 "!pto.tile_buf<vec, 2x4xf32>"
#define S24D "!pto.tile_buf<vec, 2x4xf32, valid=2x?>"
    /* Rows 1..2, columns 4..4+%n-1 negated; row 0 + 1; the top-left 2x4 of
     * %a loaded into the window at [2, 4]. */
    pto_program *p = program_build(MATRIX_KERNEL(
        "  %one = arith.constant 1.0 : f32\n"
        "  %s = pto.subview %w[%c1, %c4] sizes [2, 4] valid [%c2, %n] : " W48 " -> " S24D "\n"
        "  pto.tneg ins(%s : " S24D ") outs(%s : " S24D ")\n"
        "  %t = pto.subview %w[%c0, %c0] sizes [1, 8] : " W48 " -> !pto.tile_buf<vec, 1x8xf32>\n"
        "  pto.tadds ins(%t, %one : !pto.tile_buf<vec, 1x8xf32>, f32) outs(%t : !pto.tile_buf<vec, 1x8xf32>)\n"
        "  %q = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c2, %c4] : "
        "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<2x4xf32>\n"
        "  %u = pto.subview %w[%c2, %c4] sizes [2, 4] : " W48 " -> " S24 "\n"
        "  pto.tload ins(%q : !pto.partition_tensor_view<2x4xf32>) outs(%u : " S24 ")\n"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 3), PTO_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) {
            const float x = a[i * 8 + j];
            want[i * 8 + j] = i == 0 ? x + 1.0f
                            : i == 1 && j >= 4 && j < 7 ? -x
                            : i == 2 && j >= 4 && j < 7 ? -x
                            : x;
        }
    /* Row 2's window was negated, then overwritten by the load. */
    for (int i = 2; i < 4; ++i)
        for (int j = 4; j < 8; ++j) want[i * 8 + j] = a[(i - 2) * 8 + j - 4];
    assert_memory_equal(b, want, sizeof want);
    assert_non_null(strstr(pto_program_describe(p), "%s tile 2x4xf32 (valid 2x?): 32 bytes at 0x30..0x50"));
    /* A run-time valid dim beyond the window's size stops the run there. */
    assert_int_equal(run_two(p, a, b, 32, 5), PTO_ERR_SHAPE_MISMATCH);
    if (strstr(pto_last_error(), "t.pto:15:8: error: pto.subview: valid region 2x5 is outside the 2x4 window") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    /* An empty valid region (PTOAS's no-op marker) stores nothing. */
    p = program_build(MATRIX_KERNEL(
        "  %e = pto.subview %w[%c0, %c0] sizes [2, 8] valid [%c0, %c8] : " W48
        " -> !pto.tile_buf<vec, 2x8xf32, valid=0x8>\n"
        "  pto.tneg ins(%e : !pto.tile_buf<vec, 2x8xf32, valid=0x8>) outs(%e : !pto.tile_buf<vec, 2x8xf32, valid=0x8>)\n"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    assert_memory_equal(b, a, sizeof b);
    pto_program_destroy(p);
    /* Refused: a window outside its parent, a constant valid dim outside the
     * size, a result type that does not match the valid operands or the
     * sizes, a `?` with no operand to set it. */
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subview %w[%c0, %c6] sizes [4, 4] : " W48 " -> " W44 "\n"), NULL,
            "14:8: error: pto.subview: the 4x4 window at [0, 6] is outside %w's 4x8");
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subview %w[%c0, %c0] sizes [2, 4] valid [%c4, %c2] : " W48 " -> " S24D "\n"), NULL,
            "14:53: error: pto.subview: valid rows 4 are outside 0..2");
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subview %w[%c0, %c0] sizes [2, 4] valid [%c2, %n] : " W48 " -> " S24 "\n"), NULL,
            "pto.subview: the result's valid cols 4 differ from valid [...]'s run-time value (write `?`)");
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subview %w[%c0, %c0] sizes [2, 4] : " W48 " -> " S24D "\n"), NULL,
            "pto.subview: the result's valid cols are `?`: a run-time valid region is given by valid [%rows, %cols]");
    expect_program_refused_with(MATRIX_KERNEL("  %s = pto.subview %w[%c0, %c0] sizes [2, 4] : " W48 " -> " W44 "\n"), NULL,
            "pto.subview: the result is written as tile 4x4xf32 (valid 4x4), not a 2x4 tile of %w's element type and pad");
#undef S24
#undef S24D
}

/* View spellings of PTOAS's samples: `pto.partition_view ... : T` with the
 * result type inferred from the sizes, and the older `!pto.tensor_view<2xf32>`
 * (a rank-2 view, its dims unknown). The 4x8 matrix copied through both. */
static void test_view_spellings(void **state) {
    (void)state;
    float a[32], b[32];
    fill_matrix(a);
    pto_program *p = program_build(
        "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<2xf32>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
        "  %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<2xf32>\n"
        "  %pb = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32>\n"
        "  %w = pto.alloc_tile : " W48 "\n"
        "  pto.tload ins(%pa : !pto.partition_tensor_view<4x8xf32>) outs(%w : " W48 ")\n"
        "  pto.tstore ins(%w : " W48 ") outs(%pb : !pto.partition_tensor_view<4x8xf32>)\n"
        "  return\n}\n", NULL);
    memset(b, 0, sizeof b);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    assert_memory_equal(b, a, sizeof b);
    pto_program_destroy(p);
    /* The inferred partition has the sizes' dims: a 4x8 tile does not fit 2x8. */
    expect_program_refused_with(MATRIX_KERNEL(
        "  %q = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c2, %c8] : !pto.tensor_view<4x8xf32>\n"
        "  pto.tstore ins(%w : " W48 ") outs(%q : !pto.partition_tensor_view<4x8xf32>)\n"), NULL,
        "15:3: error: pto.tstore: the view's 16 elements differ from the tile's valid region of 32 (4x8)");
    /* One size for a rank-2 view; a rank-3 `3xf32` is not the rank of 2 operands. */
    expect_program_refused_with(MATRIX_KERNEL(
        "  %q = pto.partition_view %va, offsets = [%c0], sizes = [%c2] : !pto.tensor_view<4x8xf32>\n"), NULL,
        "14:8: error: a rank-2 partition needs 2 offsets and sizes");
    expect_program_refused_with(MATRIX_KERNEL(
        "  %vc = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<3xf32>\n"), NULL,
        "14:9: error: a rank-1 view needs 1 shape and stride operands");
}

/* tload/tstore move the tile's valid region, the window at the view's first
 * row and column (TLOAD: the valid region is the transfer size); a load into
 * a tile whose type has a pad value pads the rest of it, as TFILLPAD. */
static void test_load_store_windows(void **state) {
    (void)state;
    float a[32], b[32], want[32];
    fill_matrix(a);
#define T35 "!pto.tile_buf<vec, 4x8xf32, valid=3x5, pad=2>"
    /* A 3x5 region loaded from the 4x8 view; the same bytes as a whole 4x8
     * tile, copied to %w and stored: the window, then +inf (pad=2, max). */
    pto_program *p = program_build(MATRIX_KERNEL(
        "  %z = arith.constant 0 : i64\n"
        "  %t = pto.alloc_tile addr = %z : " T35 "\n"
        "  %u = pto.alloc_tile addr = %z : " W48 "\n"
        "  pto.tload ins(%pa : !pto.partition_tensor_view<4x8xf32>) outs(%t : " T35 ")\n"
        "  pto.tmov ins(%u : " W48 ") outs(%w : " W48 ")\n"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    for (int i = 0; i < 32; ++i) want[i] = i / 8 < 3 && i % 8 < 5 ? a[i] : INFINITY;
    assert_memory_equal(b, want, sizeof want);
    pto_program_destroy(p);
    /* The 3x5 region stored into a 3x5 partition at [1, 2]; the rest of the
     * memory untouched. */
    for (int i = 0; i < 32; ++i) b[i] = -1.0f;
    p = program_build("func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %n: index) {\n"
              "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
              "  %c2 = arith.constant 2 : index\n  %c3 = arith.constant 3 : index\n"
              "  %c4 = arith.constant 4 : index\n  %c5 = arith.constant 5 : index\n"
              "  %c8 = arith.constant 8 : index\n"
              "  %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xf32>\n"
              "  %vb = pto.make_tensor_view %b, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xf32>\n"
              "  %pa = pto.partition_view %va, offsets = [%c0, %c0], sizes = [%c4, %c8] : "
              "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<4x8xf32>\n"
              "  %pc = pto.partition_view %vb, offsets = [%c1, %c2], sizes = [%c3, %c5] : "
              "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<3x5xf32>\n"
              "  %t = pto.alloc_tile valid_row = %n valid_col = %c5 : !pto.tile_buf<vec, 4x8xf32, valid=?x?>\n"
              "  pto.tload ins(%pa : !pto.partition_tensor_view<4x8xf32>) outs(%t : !pto.tile_buf<vec, 4x8xf32, valid=?x?>)\n"
              "  pto.tstore ins(%t : !pto.tile_buf<vec, 4x8xf32, valid=?x?>) outs(%pc : !pto.partition_tensor_view<3x5xf32>)\n"
              "  return\n}\n", NULL);
    assert_int_equal(run_two(p, a, b, 32, 3), PTO_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j)
            want[i * 8 + j] = i >= 1 && j >= 2 && j < 7 ? a[(i - 1) * 8 + j - 2] : -1.0f;
    assert_memory_equal(b, want, sizeof want);
    /* A 4-row region does not fit in the 3-row partition: refused when it runs. */
    assert_int_equal(run_two(p, a, b, 32, 4), PTO_ERR_SHAPE_MISMATCH);
    if (strstr(pto_last_error(), "t.pto:15:3: error: pto.tstore: the tile's valid region 4x5 does not fit in the view's 3x5 elements") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    /* PTOAS's tstore verifier: equal static element counts. */
    expect_program_refused_with(MATRIX_KERNEL("  %t = pto.alloc_tile : " T35 "\n"
                          "  pto.tstore ins(%t : " T35 ") outs(%pb : !pto.partition_tensor_view<4x8xf32>)\n"),
            NULL, "15:3: error: pto.tstore: the view's 32 elements differ from the tile's valid region of "
                  "15 (3x5), as PTOAS's verifier requires them equal");
#undef T35
}

/* pto.addptr: a pointer moved by an element offset reads and writes the
 * parameter's memory from there (scalars and views alike), its accesses
 * count as the parameter's, and an offset outside the memory refuses the
 * run at the instruction. */
static void test_addptr(void **state) {
    (void)state;
    pto_program *p = program_build(
        "func.func @k(%p: !pto.ptr<f32>, %q: !pto.ptr<i32>, %off: index) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n  %c3 = arith.constant 3 : index\n"
        "  %m = pto.addptr %p, %off : !pto.ptr<f32> -> !pto.ptr<f32>\n"
        "  %x = pto.load_scalar %m[%c1] : !pto.ptr<f32> -> f32\n"
        "  %n = pto.addptr %m, %c4 : !pto.ptr<f32> -> !pto.ptr<f32>\n"
        "  pto.store_scalar %x, %n[%c0] : !pto.ptr<f32>, f32\n"
        "  %v = pto.make_tensor_view %n, shape = [%c1, %c4], strides = [%c4, %c1] : !pto.tensor_view<1x4xf32>\n"
        "  %s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c4] "
        ": !pto.tensor_view<1x4xf32> -> !pto.partition_tensor_view<1x4xf32>\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=4, v_row=1, v_col=4, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
        "  pto.tload ins(%s : !pto.partition_tensor_view<1x4xf32>) outs(%t : !pto.tile_buf<loc=vec, "
        "dtype=f32, rows=1, cols=4, v_row=1, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
        "  pto.tadds ins(%t, %x : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=4, v_row=1, v_col=4, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>, f32) outs(%t : !pto.tile_buf<loc=vec, "
        "dtype=f32, rows=1, cols=4, v_row=1, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
        "  pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=4, v_row=1, v_col=4, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%s : !pto.partition_tensor_view<1x4xf32>)\n"
        "  %r = pto.addptr %q, %c3 : !pto.ptr<i32> -> !pto.ptr<i32>\n"
        "  %y = pto.load_scalar %r[%c0] : !pto.ptr<i32> -> i32\n"
        "  return\n}\n",
        NULL);
    /* %p is read and written through the moved pointers, %q read */
    assert_int_equal(pto_program_param_access(p, 0), PTO_PARAM_READ | PTO_PARAM_WRITE);
    assert_int_equal(pto_program_param_access(p, 1), PTO_PARAM_READ);
    float f[12];
    for (int i = 0; i < 12; ++i) f[i] = (float)i;
    int32_t q[4] = {0, 0, 0, 7};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, q, sizeof q), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 2), PTO_OK);
    if (pto_program_run(p, a) != PTO_OK) fail_msg("addptr run: %s", pto_last_error());
    /* x = f[2 + 1] = 3 stored at f[6], then f[6..9] += 3 */
    const float want[12] = {0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 10, 11};
    for (int i = 0; i < 12; ++i)
        if (f[i] != (i == 6 ? 6.0f : want[i])) fail_msg("f[%d] = %g", i, f[i]);
    /* offset 9: %m holds 3 elements, %n = %m + 4 lies past them */
    assert_int_equal(pto_args_set_int(a, 2, 9), PTO_OK);
    memcpy(f, want, sizeof f);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "pto.addptr: offset 4 is outside %p (moved by pto.addptr), which holds 3"));
    assert_int_equal(pto_args_set_int(a, 2, -1), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "t.pto:6:8:") == NULL || strstr(pto_last_error(), "offset -1") == NULL)
        fail_msg("offset -1: %s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    expect_program_refused_with("func.func @k(%p: !pto.ptr<f32>) {\n  %c1 = arith.constant 1 : index\n"
                                "  %m = pto.addptr %p, %c1 : !pto.ptr<f32> -> !pto.ptr<i32>\n  return\n}\n",
                                NULL, "pto.addptr keeps the pointer's type");
}

/* pto.declare_local_array and its get/set: integer and float arrays of one
 * and two dimensions as registers of the block (zeroed where declared),
 * an element per full index, an index out of its dimension refusing the run
 * at the instruction, and the verifier's rules on the text. */
static void test_local_arrays(void **state) {
    (void)state;
    pto_program *p = program_build(
        "func.func @k(%p: !pto.ptr<i32>, %q: !pto.ptr<f32>, %n: index) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n  %c4 = arith.constant 4 : index\n"
        "  %a = pto.declare_local_array -> !pto.local_array<4xi32>\n"
        "  %m = pto.declare_local_array -> !pto.local_array<2x3xf32>\n"
        "  scf.for %i = %c0 to %c4 step %c1 {\n"
        "    %x = pto.load_scalar %p[%i] : !pto.ptr<i32> -> i32\n"
        "    %j = arith.subi %c4, %c1 : index\n"
        "    %k = arith.subi %j, %i : index\n"
        "    pto.local_array_set %a[%k], %x : !pto.local_array<4xi32>, i32\n"
        "  }\n"
        "  %h = pto.load_scalar %q[%c0] : !pto.ptr<f32> -> f32\n"
        "  pto.local_array_set %m[%c1, %c2], %h : !pto.local_array<2x3xf32>, f32\n"
        "  scf.for %i = %c0 to %c4 step %c1 {\n"
        "    %y = pto.local_array_get %a[%i] : !pto.local_array<4xi32> -> i32\n"
        "    pto.store_scalar %y, %p[%i] : !pto.ptr<i32>, i32\n"
        "  }\n"
        "  %z = pto.local_array_get %m[%c1, %c2] : !pto.local_array<2x3xf32> -> f32\n"
        "  %w = pto.local_array_get %m[%c0, %n] : !pto.local_array<2x3xf32> -> f32\n"
        "  %s = arith.addf %z, %w : f32\n"
        "  pto.store_scalar %s, %q[%c1] : !pto.ptr<f32>, f32\n"
        "  return\n}\n",
        NULL);
    int32_t ints[4] = {10, -20, 30, 2147483647};
    float floats[2] = {1.5f, 0};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, ints, sizeof ints), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, floats, sizeof floats), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 2, 2), PTO_OK);
    if (pto_program_run(p, a) != PTO_OK) fail_msg("local arrays: %s", pto_last_error());
    /* reversed; m[1][2] = 1.5 plus m[0][2], still zero */
    assert_int_equal(ints[0], 2147483647);
    assert_int_equal(ints[1], 30);
    assert_int_equal(ints[2], -20);
    assert_int_equal(ints[3], 10);
    assert_true(floats[1] == 1.5f);
    assert_int_equal(pto_args_set_int(a, 2, 3), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "pto.local_array_get: index 3 of dimension 1 is outside 0..2") == NULL ||
        strstr(pto_last_error(), "t.pto:21:8:") == NULL)
        fail_msg("index 3: %s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    expect_program_refused_with("func.func @k() {\n  %c0 = arith.constant 0 : index\n"
                                "  %a = pto.declare_local_array -> !pto.local_array<2x2xi32>\n"
                                "  %v = pto.local_array_get %a[%c0] : !pto.local_array<2x2xi32> -> i32\n"
                                "  return\n}\n",
                                NULL, "takes 2 index(es), one per dimension of %a, not 1");
    expect_program_refused_with("func.func @k() {\n  %c0 = arith.constant 0 : index\n"
                                "  %a = pto.declare_local_array -> !pto.local_array<2xi32>\n"
                                "  %v = pto.local_array_get %a[%c0] : !pto.local_array<2xi32> -> f32\n"
                                "  return\n}\n",
                                NULL, "f32 is not the element type of !pto.local_array<2xi32>");
    expect_program_refused_with("func.func @k() {\n"
                                "  %a = pto.declare_local_array -> !pto.local_array<1000x1000xi32>\n"
                                "  return\n}\n",
                                NULL, "a local array has 1 to 65536 elements");
}

/* PTOAS's event-id arrays: N index values set and read back (an event id
 * kept across a loop, as the manual sync kernels do), the dynamic flags
 * taking one; an index outside the array refuses the run at the
 * instruction; the types checked. */
static void test_eventid_arrays(void **state) {
    (void)state;
    pto_program *p = program_build(
        "func.func @k(%p: !pto.ptr<i64>, %n: index) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c3 = arith.constant 3 : index\n  %c5 = arith.constant 5 : index\n"
        "  %e = pto.declare_eventid_array -> !pto.eventid_array<4>\n"
        "  pto.eventid_array_set %e[%c3], %c5 : !pto.eventid_array<4>\n"
        "  pto.eventid_array_set %e[%c1], %n : !pto.eventid_array<4>\n"
        "  %x = pto.eventid_array_get %e[%c3] : !pto.eventid_array<4>\n"
        "  pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %x]\n"
        "  pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %x]\n"
        "  %y = pto.eventid_array_get %e[%n] : !pto.eventid_array<4>\n"
        "  %z = pto.eventid_array_get %e[%c0] : !pto.eventid_array<4>\n"
        "  %xi = arith.index_cast %x : index to i64\n  %yi = arith.index_cast %y : index to i64\n"
        "  %zi = arith.index_cast %z : index to i64\n"
        "  pto.store_scalar %xi, %p[%c0] : !pto.ptr<i64>, i64\n"
        "  pto.store_scalar %yi, %p[%c1] : !pto.ptr<i64>, i64\n"
        "  %c2 = arith.constant 2 : index\n"
        "  pto.store_scalar %zi, %p[%c2] : !pto.ptr<i64>, i64\n"
        "  return\n}\n",
        NULL);
    int64_t out[3] = {-1, -1, -1};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, out, sizeof out), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 1, 1), PTO_OK);
    if (pto_program_run(p, a) != PTO_OK) fail_msg("event-id arrays: %s", pto_last_error());
    /* e[3] = 5; e[1] = n = 1, read back at %n; e[0] never set: zero. */
    assert_int_equal(out[0], 5);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 0);
    assert_int_equal(pto_args_set_int(a, 1, 4), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "pto.eventid_array_get: index 4 of dimension 0 is outside 0..3") == NULL)
        fail_msg("index 4: %s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    expect_program_refused_with("func.func @k() {\n  %a = pto.declare_eventid_array -> !pto.local_array<4xi64>\n"
                                "  return\n}\n",
                                NULL, "pto.declare_eventid_array gives a !pto.eventid_array, not !pto.local_array<4xi64>");
    expect_program_refused_with("func.func @k() {\n  %c0 = arith.constant 0 : index\n"
                                "  %a = pto.declare_local_array -> !pto.local_array<4xi64>\n"
                                "  %v = pto.eventid_array_get %a[%c0] : !pto.eventid_array<4>\n"
                                "  return\n}\n",
                                NULL, "%a is !pto.local_array<4xi64>, written as !pto.eventid_array<4> (a !pto.eventid_array)");
    expect_program_refused_with("func.func @k() {\n  %a = pto.declare_eventid_array -> !pto.eventid_array<x>\n"
                                "  return\n}\n",
                                NULL, "an event-id array type is !pto.eventid_array<N>");
    expect_program_refused_with("func.func @k() {\n"
                                "  pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>]\n"
                                "  return\n}\n",
                                NULL, "pto.set_flag_dyn takes [<PIPE_...>, <PIPE_...>, %event (index)]");
}

/* Rows taken one at a time, as small-tile kernels do: a rank-2 partition at
 * a run-time row (the executor's short path for a window inside its view)
 * and a 1x8 tload / tstore through it; row %n past the view's 4 rows is
 * refused when it runs, with the sentence of the general path, and nothing
 * of the refused row is stored. */
static void test_row_windows_at_run_time(void **state) {
    (void)state;
    float a[32], b[32], want[32];
    for (int i = 0; i < 32; ++i) a[i] = (float)i + 0.5f;
    pto_program *p = program_build(
        "func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %n: index) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index\n"
        "  %va = pto.make_tensor_view %a, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xf32>\n"
        "  %vb = pto.make_tensor_view %b, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<4x8xf32>\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
        "  scf.for %i = %c0 to %c4 step %c1 {\n"
        "    %r = arith.subi %c4, %i : index\n"
        "    %row = arith.subi %r, %c1 : index\n"
        "    %pa = pto.partition_view %va, offsets = [%i, %c0], sizes = [%c1, %c8] : "
        "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<1x8xf32>\n"
        "    %pb = pto.partition_view %vb, offsets = [%row, %c0], sizes = [%c1, %c8] : "
        "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<1x8xf32>\n"
        "    pto.tload ins(%pa : !pto.partition_tensor_view<1x8xf32>) outs(%t : !pto.tile_buf<vec, 1x8xf32>)\n"
        "    pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xf32>) outs(%pb : !pto.partition_tensor_view<1x8xf32>)\n"
        "  }\n"
        "  %pn = pto.partition_view %va, offsets = [%n, %c0], sizes = [%c1, %c8] : "
        "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<1x8xf32>\n"
        "  pto.tload ins(%pn : !pto.partition_tensor_view<1x8xf32>) outs(%t : !pto.tile_buf<vec, 1x8xf32>)\n"
        "  %p0 = pto.partition_view %vb, offsets = [%c0, %c0], sizes = [%c1, %c8] : "
        "!pto.tensor_view<4x8xf32> -> !pto.partition_tensor_view<1x8xf32>\n"
        "  pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xf32>) outs(%p0 : !pto.partition_tensor_view<1x8xf32>)\n"
        "  return\n}\n", NULL);
    /* The rows reversed, then row 1 again over row 0. */
    for (int i = 0; i < 32; ++i) b[i] = -1.0f;
    assert_int_equal(run_two(p, a, b, 32, 1), PTO_OK);
    for (int i = 0; i < 32; ++i) want[i] = a[(3 - i / 8) * 8 + i % 8];
    for (int j = 0; j < 8; ++j) want[j] = a[8 + j];
    assert_memory_equal(b, want, sizeof want);
    for (int i = 0; i < 32; ++i) b[i] = -1.0f;
    assert_int_equal(run_two(p, a, b, 32, 4), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "error: pto.partition_view: [4, 5) of dimension 0 is outside the view's 4") == NULL)
        fail_msg("%s", pto_last_error());
    for (int i = 0; i < 8; ++i) assert_true(b[i] == a[24 + i]); /* the loop's last row, then the refusal */
    assert_int_equal(run_two(p, a, b, 32, -1), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "error: pto.partition_view: [-1, 0) of dimension 0 is outside the view's 4") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_liveness_placement),
        cmocka_unit_test(test_addptr),
        cmocka_unit_test(test_local_arrays),
        cmocka_unit_test(test_eventid_arrays),
        cmocka_unit_test(test_col_major_columns),
        cmocka_unit_test(test_view_types_with_dynamic_dims),
        cmocka_unit_test(test_subviews),
        cmocka_unit_test(test_sized_subviews),
        cmocka_unit_test(test_view_spellings),
        cmocka_unit_test(test_load_store_windows),
        cmocka_unit_test(test_row_windows_at_run_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
