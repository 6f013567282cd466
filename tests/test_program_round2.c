/* PTO assembly, round 2: modules of several functions, memory placed by
 * liveness, carried values of scf.for / scf.if / scf.while, float and integer
 * scalars, scalar access to global memory, synchronisation, and the text
 * rules that are stricter than the C API. Every case is written here. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pto_c.h"

static pto_program *build(const char *text, const char *entry) {
    pto_program *p = NULL;
    pto_status s = pto_program_create_entry(text, strlen(text), "r2.pto", entry, &p);
    if (s != PTO_OK)
        fail_msg("refused: %s\n%s", pto_last_error(), text);
    return p;
}

static void refused(const char *text, const char *entry, const char *want) {
    pto_program *p = NULL;
    pto_status s = pto_program_create_entry(text, strlen(text), "r2.pto", entry, &p);
    if (s == PTO_OK || strstr(pto_last_error(), want) == NULL)
        fail_msg("want '%s', got %s: %s\n%s", want, pto_status_string(s),
                 s == PTO_OK ? "" : pto_last_error(), text);
}

/* Runs p with its first parameter bound to n int32 or float words at data. */
static void run_on(pto_program *p, void *data, size_t nbytes) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, data, nbytes), PTO_OK);
    if (pto_program_run(p, a) != PTO_OK)
        fail_msg("run: %s", pto_last_error());
    pto_args_destroy(a);
}

static const char kCalls[] =
    "module {\n"
    "  func.func private @twice(%x: i32) -> i32 {\n"
    "    %y = arith.addi %x, %x : i32\n"
    "    return %y : i32\n"
    "  }\n"
    "  func.func private @store(%p: !pto.ptr<i32>, %i: index, %v: i32) {\n"
    "    pto.store_scalar %v, %p[%i] : !pto.ptr<i32>, i32\n"
    "    return\n"
    "  }\n"
    "  func.func @main(%p: !pto.ptr<i32>) attributes {pto.entry} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %v = pto.load_scalar %p[%c0] : !pto.ptr<i32> -> i32\n"
    "    %w = func.call @twice(%v) : (i32) -> i32\n"
    "    %z = func.call @twice(%w) : (i32) -> i32\n"
    "    func.call @store(%p, %c1, %z) : (!pto.ptr<i32>, index, i32) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @other(%p: !pto.ptr<i32>) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %k = arith.constant 7 : i32\n"
    "    pto.store_scalar %k, %p[%c0] : !pto.ptr<i32>, i32\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_functions_and_calls(void **state) {
    (void)state;
    int32_t m[2] = {5, 0};
    pto_program *p = build(kCalls, NULL); /* pto.entry chooses @main */
    run_on(p, m, sizeof m);
    assert_int_equal(m[1], 20);
    assert_non_null(strstr(pto_program_describe(p), "@main(%p: !pto.ptr<i32>)  (entry)"));
    assert_non_null(strstr(pto_program_describe(p), "@twice(%x: i32) -> (i32)  private"));
    pto_program_destroy(p);
    p = build(kCalls, "@other"); /* by name */
    run_on(p, m, sizeof m);
    assert_int_equal(m[0], 7);
    pto_program_destroy(p);
    refused(kCalls, "nope", "the module has no function @nope (it has @twice, @store, @main, @other)");
    /* No pto.entry: two public functions are ambiguous, one is the entry. */
    static const char two[] = "func.func @a() {\n return\n}\nfunc.func @b() {\n return\n}\n";
    refused(two, NULL, "1:1: error: the module has 2 public functions (@a, @b)");
    pto_program_destroy(build(two, "b"));
    pto_program_destroy(build("func.func @a() {\n return\n}\nfunc.func private @b() {\n return\n}\n", NULL));
    /* PTOAS's synchronisation hint is accepted (and orders nothing); an
     * unknown attribute is not. */
    pto_program_destroy(build("func.func @a() attributes {pto.auto_sync_tail_hint = \"mte3-to-s-event0\"} {\n"
                              " return\n}\n", NULL));
    refused("func.func @a() attributes {pto.sync_hint = 1} {\n return\n}\n", NULL,
            "1:28: error: unknown function attribute 'pto.sync_hint'");
    refused("func.func @k(%n: i32) attributes {pto.entry} {\n func.call @k(%n) : (i32) -> ()\n return\n}\n",
            NULL, "2:12: error: recursive call of @k");
    refused("func.func @k() {\n %c = func.call @h() : () -> i32\n return\n}\n"
            "func.func private @h() -> i32 {\n %x = arith.constant 1 : i16\n return %x : i16\n}\n",
            NULL, "return value 0 is i16");
    /* An unused function is checked too. */
    refused("func.func @k() attributes {pto.entry} {\n return\n}\n"
            "func.func @h() {\n %x = arith.addi %y, %y : i32\n return\n}\n",
            NULL, "5:18: error: %y is not defined");
}

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
    pto_program *p = build(text, NULL);
    const char *d = pto_program_describe(p);
    assert_non_null(strstr(d, "16384 bytes used, at most 16384 bytes live at once"));
    float m[32 * 64];
    for (int i = 0; i < 32 * 64; ++i) m[i] = (float)i;
    run_on(p, m, sizeof m);
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
    p = build(shared, NULL);
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
}

/* Sum of 0..9 by iter_args, a max by scf.if results, a count by scf.while,
 * a tile carried through a loop. */
static void test_carried_values(void **state) {
    (void)state;
    static const char text[] =
        "func.func @k(%p: !pto.ptr<i32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n  %c10 = arith.constant 10 : index\n"
        "  %z = arith.constant 0 : i32\n  %one = arith.constant 1 : i32\n"
        "  %s:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %z, %k = %z) -> (i32, i32) {\n"
        "    %ii = arith.index_cast %i : index to i32\n"
        "    %n = arith.addi %acc, %ii : i32\n"
        "    %m = arith.addi %k, %one : i32\n"
        "    scf.yield %n, %m : i32, i32\n"
        "  }\n"
        "  pto.store_scalar %s#0, %p[%c0] : !pto.ptr<i32>, i32\n"
        "  %gt = arith.cmpi sgt, %s#0, %s#1 : i32\n"
        "  %big = scf.if %gt -> (i32) {\n    scf.yield %s#0 : i32\n  } else {\n    scf.yield %s#1 : i32\n  }\n"
        "  pto.store_scalar %big, %p[%c1] : !pto.ptr<i32>, i32\n"
        "  %lim = arith.constant 100 : i32\n"
        "  %w = scf.while (%x = %one) : (i32) -> i32 {\n"
        "    %lt = arith.cmpi slt, %x, %lim : i32\n"
        "    scf.condition(%lt) %x : i32\n"
        "  } do {\n"
        "  ^bb0(%y: i32):\n"
        "    %y2 = arith.muli %y, %c2i : i32\n"
        "    scf.yield %y2 : i32\n"
        "  }\n"
        "  pto.store_scalar %w, %p[%c2] : !pto.ptr<i32>, i32\n"
        "  return\n}\n";
    /* %c2i is defined before use in the real text below. */
    char fixed[4096];
    const char *at = strstr(text, "  %lim");
    snprintf(fixed, sizeof fixed, "%.*s  %%c2i = arith.constant 2 : i32\n%s", (int)(at - text), text, at);
    pto_program *p = build(fixed, NULL);
    int32_t m[3] = {0, 0, 0};
    run_on(p, m, sizeof m);
    assert_int_equal(m[0], 45);
    assert_int_equal(m[1], 45);
    assert_int_equal(m[2], 128);
    pto_program_destroy(p);

    /* A tile through iter_args: t = t + t four times. */
    static const char tile[] =
        "func.func @k(%p: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index\n"
        "  %v = pto.make_tensor_view %p, shape = [%c1, %c8], strides = [%c8, %c1] : !pto.tensor_view<1x8xf32>\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
        "  %u = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
        "  pto.tload ins(%v : !pto.tensor_view<1x8xf32>) outs(%t : !pto.tile_buf<vec, 1x8xf32>)\n"
        "  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (!pto.tile_buf<vec, 1x8xf32>) {\n"
        "    pto.tadd ins(%a, %a : !pto.tile_buf<vec, 1x8xf32>, !pto.tile_buf<vec, 1x8xf32>) outs(%u : !pto.tile_buf<vec, 1x8xf32>)\n"
        "    scf.yield %u : !pto.tile_buf<vec, 1x8xf32>\n"
        "  }\n"
        "  pto.tstore ins(%r : !pto.tile_buf<vec, 1x8xf32>) outs(%v : !pto.tensor_view<1x8xf32>)\n"
        "  return\n}\n";
    p = build(tile, NULL);
    float f[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    run_on(p, f, sizeof f);
    assert_true(f[0] == 16.0f && f[7] == 128.0f);
    pto_program_destroy(p);
}

/* Float scalars in their own type, casts, select, and the bounds check of
 * scalar access. */
static void test_scalars(void **state) {
    (void)state;
    static const char text[] =
        "func.func @k(%p: !pto.ptr<f32>, %h: !pto.ptr<f16>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n  %c3 = arith.constant 3 : index\n"
        "  %x = pto.load_scalar %p[%c0] : !pto.ptr<f32> -> f32\n"
        "  %tenth = arith.constant 0.1 : f32\n"
        "  %y = arith.addf %x, %tenth : f32\n"
        "  pto.store_scalar %y, %p[%c1] : !pto.ptr<f32>, f32\n"
        "  %a = arith.constant 1.0 : f16\n  %b = arith.constant 0.0009765625 : f16\n"
        "  %s = arith.addf %a, %b : f16\n"                       /* 1 + 2^-10: exact in f16 */
        "  %t = arith.addf %s, %b : f16\n"                       /* 1 + 2^-9 */
        "  %q = arith.constant 0x3C01 : f16\n"
        "  %e = arith.cmpf oeq, %s, %q : f16\n"
        "  %pick = arith.select %e, %t, %a : f16\n"
        "  pto.store_scalar %pick, %h[%c0] : !pto.ptr<f16>, f16\n"
        "  %i = arith.fptosi %y : f32 to i32\n"
        "  %i2 = arith.maxsi %i, %i : i32\n"
        "  %g = arith.sitofp %i2 : i32 to f32\n"
        "  pto.store_scalar %g, %p[%c2] : !pto.ptr<f32>, f32\n"
        "  %n = arith.negf %g : f32\n"
        "  %mx = arith.maximumf %n, %g : f32\n"
        "  pto.store_scalar %mx, %p[%c3] : !pto.ptr<f32>, f32\n"
        "  return\n}\n";
    pto_program *p = build(text, NULL);
    float f[4] = {2.5f, 0, 0, 0};
    uint16_t h[1] = {0};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, f, sizeof f), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, h, sizeof h), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    assert_true(f[1] == 2.5f + 0.1f);
    assert_int_equal(h[0], 0x3C02);
    assert_true(f[2] == 2.0f && f[3] == 2.0f);
    /* Out of bounds: an error before the write. */
    assert_int_equal(pto_args_set_pointer(a, 1, h, 0), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "error: pto.store_scalar: element 0 of %h, which holds 0 elements") == NULL) fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* MLIR's typeless boolean constants are i1. */
    p = build("func.func @b(%p: !pto.ptr<i32>) {\n"
              "  %c0 = arith.constant 0 : index\n  %t = arith.constant true\n"
              "  %f = arith.constant false\n  %seven = arith.constant 7 : i32\n"
              "  %nine = arith.constant 9 : i32\n  %both = arith.andi %t, %f : i1\n"
              "  %v = arith.select %both, %seven, %nine : i32\n"
              "  pto.store_scalar %v, %p[%c0] : !pto.ptr<i32>, i32\n  return\n}\n",
              NULL);
    int32_t word = 0;
    run_on(p, &word, sizeof word);
    assert_int_equal(word, 9);
    pto_program_destroy(p);
}

/* texpands in the pages' spellings: the scalar alone, `: f32 -> T` (SSA)
 * and `: f32, T` (synchronous); the valid region filled. The result is a
 * tile the snippet only writes: it starts zero-filled and is copied back
 * whole (pto_program_run). */
static void test_texpands_spellings(void **state) {
    (void)state;
    static const char *const texts[] = {
        "%c = arith.constant -2.5 : f32\n"
        "%dst = pto.texpands %c : f32 -> !pto.tile<4x8xf32, valid=3x5>\n",
        "%c = arith.constant -2.5 : f32\n"
        "%dst = texpands %c : f32, !pto.tile<4x8xf32, valid=3x5>\n",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
        pto_program *p = build(texts[k], NULL);
        pto_tile *t = NULL;
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 4, 8, &t), PTO_OK);
        assert_int_equal(pto_tile_set_valid(t, 3, 5), PTO_OK);
        float *data = pto_tile_data(t);
        for (int i = 0; i < 32; ++i) data[i] = (float)i;
        pto_args *a = NULL;
        size_t index = 0;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "dst", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, t), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (int i = 0; i < 32; ++i) {
            const bool inside = i / 8 < 3 && i % 8 < 5;
            if (data[i] != (inside ? -2.5f : 0.0f))
                fail_msg("form %zu: element %d is %g", k, i, (double)data[i]);
        }
        pto_args_destroy(a);
        pto_tile_destroy(t);
        pto_program_destroy(p);
    }
    refused("%dst = pto.texpands : f32 -> !pto.tile<4x8xf32>\n", NULL, "");
    refused("%c = arith.constant 1 : i32\n"
            "%dst = pto.texpands %c : i32 -> !pto.tile<4x8xf32>\n",
            NULL, "texpands takes a float scalar for a tile of FLOAT32");
}

/* tdivs in both of the pages' forms, each spelt as the page writes it: the
 * tile/scalar form src / scalar, the scalar/tile form scalar / src (the row
 * pto_tdivs_scalar_by_tile). */
static void test_tdivs_both_orders(void **state) {
    (void)state;
    static const char *const texts[] = {
        "%c = arith.constant 3.0 : f32\n%dst = tdivs %src, %c : !pto.tile<2x4xf32>, f32\n",
        "%c = arith.constant 3.0 : f32\n%dst = tdivs %c, %src : f32, !pto.tile<2x4xf32>\n",
        "%c = arith.constant 3.0 : f32\n"
        "%dst = pto.tdivs %c, %src : (f32, !pto.tile<2x4xf32>) -> !pto.tile<2x4xf32>\n",
        "func.func @k(%src: !pto.tile_buf<vec, 2x4xf32>, %dst: !pto.tile_buf<vec, 2x4xf32>) {\n"
        "  %c = arith.constant 3.0 : f32\n"
        "  pto.tdivs ins(%c, %src : f32, !pto.tile_buf<vec, 2x4xf32>) outs(%dst : !pto.tile_buf<vec, 2x4xf32>)\n"
        "  return\n}\n",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
        pto_program *p = build(texts[k], NULL);
        pto_tile *src = NULL, *dst = NULL;
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 2, 4, &src), PTO_OK);
        assert_int_equal(pto_tile_create(PTO_FLOAT32, 2, 4, &dst), PTO_OK);
        float *s = pto_tile_data(src), *d = pto_tile_data(dst);
        for (int i = 0; i < 8; ++i) s[i] = (float)(i + 1);
        pto_args *a = NULL;
        size_t index = 0;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "src", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, src), PTO_OK);
        assert_int_equal(pto_program_param_find(p, "dst", &index), PTO_OK);
        assert_int_equal(pto_args_set_tile(a, index, dst), PTO_OK);
        assert_int_equal(pto_program_run(p, a), PTO_OK);
        for (int i = 0; i < 8; ++i) {
            const float want = k == 0 ? (float)(i + 1) / 3.0f : 3.0f / (float)(i + 1);
            if (d[i] != want) fail_msg("form %zu: element %d is %.9g, not %.9g", k, i, (double)d[i], (double)want);
        }
        pto_args_destroy(a);
        pto_tile_destroy(src);
        pto_tile_destroy(dst);
        pto_program_destroy(p);
    }
}

/* blayout=col_major: a one-column tile (PTOAS's [R,1] vectors) is the same
 * bytes as row_major and is accepted; a wider one is refused. */
static void test_col_major_columns(void **state) {
    (void)state;
#define COLUMN(cols) "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=" cols ", v_row=4, v_col=" cols \
                     ", blayout=col_major, slayout=none_box, fractal=512, pad=0>"
    pto_program *p = build("func.func @k(%a: " COLUMN("1") ", %b: " COLUMN("1") ") {\n"
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
    refused("func.func @k(%a: " COLUMN("4") ") {\n  return\n}\n", NULL,
            "blayout=col_major is supported for tiles of one column or one row (the same bytes as "
            "row_major), not 4x4");
    /* A row of 16 in col_major (PTOAS's 1xN dn tiles) has row_major's bytes: loaded alike. */
    float row[16], got[16];
    for (int i = 0; i < 16; ++i) row[i] = (float)i * 0.5f;
    p = build("func.func @k(%p: !pto.ptr<f32>) {\n"
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
    run_on(p, got, sizeof got);
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
    pto_program_destroy(build(CARRIED("!pto.tensor_view<?x?xf32>"), NULL));
    pto_program_destroy(build(CARRIED("!pto.tensor_view<4x?xf32>"), NULL));
    refused(CARRIED("!pto.tensor_view<4x8xf32>"), NULL, "but the loop gives !pto.tensor_view<4x8xf32>");
#undef CARRIED
    /* #pto.layout<dn>: the strides place each element. A 2x3 matrix stored
     * column by column, read through a dn view and written row by row. */
    pto_program *p = build(
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

/* Synchronisation, pto.section.vector, unimplemented instructions, and the
 * text rules stricter than the C API. */
static void test_sync_sections_and_rules(void **state) {
    (void)state;
    static const char sync[] =
        "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "  pto.barrier <PIPE_ALL>\n  pto.barrier #pto.pipe<PIPE_V>\n"
        "  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
        "  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
        "  pto.barrier_sync [<TVEC>]\n"
        "  pto.record_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID0>]\n"
        "  pto.sync.set #pto.pipe<PIPE_M>, 0\n"
        "  pto.section.vector {\n    %b = pto.get_block_idx\n  }\n"
        "  return\n}\n";
    pto_program *p = build(sync, NULL);
    /* Under qemu-user a launch's worker threads can hang (qemu's futexes):
     * there the three blocks run one after another on the calling thread. */
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) setenv("PTO_NUM_THREADS", "1", 1);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_launch(p, 3, a), PTO_OK);
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* TGATHER's mask-pattern form is refused as an instruction not implemented. */
    refused("func.func @k() {\n  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tgather ins(%t, {maskPattern = #pto.mask_pattern<P0101>} : " T32 ") outs(%t : " T32 ")\n"
            "  return\n}\n",
            NULL, "r2.pto:3:24: error: instruction 'pto.tgather' in its maskPattern form is not implemented");
    refused("func.func @k() {\n  pto.set_flag[<PIPE_MTE2>, <PIPE_V>]\n  return\n}\n", NULL,
            "2:16: error: pto.set_flag takes [<PIPE_...>, <PIPE_...>, <EVENT_IDn>]");
    refused("func.func @k() {\n  pto.barrier <EVENT_ID0>\n  return\n}\n", NULL,
            "2:15: error: pto.barrier takes <PIPE_X> (a pipe of PTOAS's PIPE enum)");
    /* PTOAS's enums: pipes, event endpoints; A5's sync.set / sync.wait pipes. */
    refused("func.func @k() {\n  pto.set_flag[<PIPE_MTE2>, <PIPE_W>, <EVENT_ID0>]\n  return\n}\n", NULL,
            "2:29: error: pto.set_flag takes [<PIPE_...>, <PIPE_...>, <EVENT_IDn>]");
    refused("func.func @k() {\n  pto.record_event [#pto.pipe_event_type<TLOAD>, "
            "#pto.pipe_event_type<TVECTOR>, #pto.event<EVENT_ID1>]\n  return\n}\n",
            NULL, "2:50: error: pto.record_event takes [<OP>, <OP>, <EVENT_IDn>] (OP of TLOAD,");
    refused("func.func @k() {\n  pto.barrier_sync [<TSTORE>]\n  return\n}\n", NULL,
            "2:21: error: pto.barrier_sync takes [<OP>] (OP of TLOAD, TSTORE_ACC");
    static const char a5_sync[] =
        "module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%e: index) {\n"
        "  pto.sync.set #pto.pipe<PIPE_MTE3>, %e\n  pto.sync.wait <PIPE_V>, 3\n"
        "  pto.sync.set <PIPE_V>, 0\n  return\n}\n}\n";
    refused(a5_sync, NULL,
            "5:16: error: pto.sync.set on A5 takes <PIPE_FIX> or <PIPE_MTE3>, not <PIPE_V>");
    pto_program_destroy(build("module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%e: index) {\n"
                              "  pto.sync.set #pto.pipe<PIPE_MTE3>, %e\n  pto.sync.wait <PIPE_V>, 3\n"
                              "  return\n}\n}\n", NULL));
    refused("func.func @k() {\n  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tscatter ins(%t : " T32 ") outs(%t : " T32 ")\n  return\n}\n",
            NULL, "r2.pto:3:3: error: instruction 'pto.tscatter' is not implemented");
    refused("module attributes {pto.target_arch = \"a3\"} {\nfunc.func @k() {\n"
            "  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tpow ins(%t, %t : " T32 ", " T32 ") outs(%t : " T32 ") "
            "{precisionType = #pto<pow_precision high_precision>}\n  return\n}\n}\n",
            NULL, "precisionType high_precision of tpow is refused under A2A3");
    pto_program_destroy(build("%d = trsqrt %a {precisionType = #pto<rsqrt_precision high_precision>} : "
                              "!pto.tile<16x16xf32>\n", NULL));
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
    pto_program *p = build(MATRIX_KERNEL(
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
    p = build(MOVING("[2, 2]", "!pto.tile_buf<vec, 2x2xf32, valid=2x?>"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_OK);
    for (int i = 0; i < 32; ++i) want[i] = i >= 8 && i < 24 ? 2 * a[i] : a[i];
    assert_memory_equal(b, want, sizeof want);
    assert_non_null(strstr(pto_program_describe(p), "a subview of %w (placed when it runs)"));
    pto_program_destroy(p);
    /* The last window [1, 6] of 2x4 leaves the parent: an error when it runs. */
    p = build(MOVING("[2, 4]", "!pto.tile_buf<vec, 2x4xf32, valid=2x?>"), NULL);
    assert_int_equal(run_two(p, a, b, 32, 0), PTO_ERR_OUT_OF_RANGE);
    if (strstr(pto_last_error(), "r2.pto:16:10: error: pto.subset: the 2x4 window at [1, 6] is outside %w's 4x8") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    refused(MOVING("[2, 2]", "!pto.tile_buf<vec, 2x2xf32>"), NULL,
            "17:28: error: %s is tile 2x2xf32 (valid 2x?), but is written here as tile 2x2xf32 (valid 2x2)");
#undef MOVING
    /* TSUBVIEW: dst has src's capacity and its own valid region, at (row,
     * col) of src's. DPS: an allocated 2x3 window at [2, 5] filled with 7;
     * SSA: row 0 (a 1x8 window at [0, 0]) negated. */
#define D23 "!pto.tile_buf<vec, 4x8xf32, valid=2x3>"
#define E18 "!pto.tile_buf<vec, 4x8xf32, valid=1x8>"
    p = build(MATRIX_KERNEL(
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
    refused(MATRIX_KERNEL("  %s = pto.subset %w[%c0, %c6] sizes [4, 4] : " W48 "\n"), NULL,
            "14:8: error: pto.subset: the 4x4 window at [0, 6] is outside %w's 4x8");
    refused(MATRIX_KERNEL("  %r3 = arith.constant 3 : i16\n  %d = pto.alloc_tile : " D23 "\n"
                          "  pto.subview ins(%w, %r3, %r3 : " W48 ", i16, i16) outs(%d : " D23 ")\n"),
            NULL,
            "16:3: error: pto.subview: dst's valid region 2x3 at [3, 3] is outside src's valid region 4x8");
    refused(MATRIX_KERNEL("  %l = pto.subset %w[%c0, %c0] sizes [4, 4] : " W48 "\n"
                          "  pto.tfillpad ins(%l : " W44 ") outs(%l : " W44 ")\n"),
            NULL, "15:3: error: pto_tfillpad: %l is a subview of %w, and tfillpad needs a whole tile");
#undef D23
#undef E18
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
    pto_program *p = build(MATRIX_KERNEL(
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
    p = build("func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %n: index) {\n"
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
    if (strstr(pto_last_error(), "r2.pto:15:3: error: pto.tstore: the tile's valid region 4x5 does not fit in the view's 3x5 elements") == NULL)
        fail_msg("%s", pto_last_error());
    pto_program_destroy(p);
    /* PTOAS's tstore verifier: equal static element counts. */
    refused(MATRIX_KERNEL("  %t = pto.alloc_tile : " T35 "\n"
                          "  pto.tstore ins(%t : " T35 ") outs(%pb : !pto.partition_tensor_view<4x8xf32>)\n"),
            NULL, "15:3: error: pto.tstore: the view's 32 elements differ from the tile's valid region of "
                  "15 (3x5), as PTOAS's verifier requires them equal");
#undef T35
}

/* PyPTO's kernels take the block's identity as trailing i32 parameters
 * named %__pypto_spmd_block_idx / _block_num / _subblock_idx: the launch
 * binds them, as pto.get_block_idx; the caller binds the others. */
static void test_block_parameters(void **state) {
    (void)state;
    pto_program *p = build(
        "func.func @k(%p: !pto.ptr<i32>, %__pypto_spmd_block_idx: i32, %__pypto_spmd_block_num: i32,\n"
        "             %__pypto_spmd_subblock_idx: i32) {\n"
        "  %i = arith.index_cast %__pypto_spmd_block_idx : i32 to index\n"
        "  %v = arith.muli %__pypto_spmd_block_num, %__pypto_spmd_block_num : i32\n"
        "  %w = arith.addi %v, %__pypto_spmd_subblock_idx : i32\n"
        "  pto.store_scalar %w, %p[%i] : !pto.ptr<i32>, i32\n  return\n}\n", NULL);
    assert_int_equal(pto_program_param_count(p), 1);
    int32_t m[5] = {-1, -1, -1, -1, -1};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    assert_int_equal(pto_program_launch(p, 4, a), PTO_OK);
    for (int i = 0; i < 4; ++i) assert_int_equal(m[i], 16);
    assert_int_equal(m[4], -1);
    pto_args_destroy(a);
    pto_program_destroy(p);
    refused("func.func @k(%__pypto_spmd_block_idx: f32) {\n  return\n}\n", NULL,
            "1:39: error: %__pypto_spmd_block_idx is set by the launch (the block's identity): "
            "an integer, not f32");
}

/* PTO_LOOP_LIMIT: a block whose loops turn more often than the limit stops
 * with PTO_ERR_OUT_OF_RANGE at the loop (an scf.while that never ends, an
 * scf.for of 10 turns under a limit of 9); 10 turns pass a limit of 10, and
 * without the variable nothing is counted. */
static void test_loop_limit(void **state) {
    (void)state;
    static const char forever[] =
        "func.func @k(%p: !pto.ptr<i32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %one = arith.constant 1 : i32\n"
        "  %w = scf.while (%x = %one) : (i32) -> i32 {\n"
        "    %t = arith.constant true\n    scf.condition(%t) %x : i32\n"
        "  } do {\n  ^bb0(%y: i32):\n    %y2 = arith.addi %y, %one : i32\n    scf.yield %y2 : i32\n  }\n"
        "  pto.store_scalar %w, %p[%c0] : !pto.ptr<i32>, i32\n  return\n}\n";
    static const char ten[] =
        "func.func @k(%p: !pto.ptr<i32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c10 = arith.constant 10 : index\n  %z = arith.constant 0 : i32\n  %one = arith.constant 1 : i32\n"
        "  %s = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %z) -> (i32) {\n"
        "    %b = arith.addi %a, %one : i32\n    scf.yield %b : i32\n  }\n"
        "  pto.store_scalar %s, %p[%c0] : !pto.ptr<i32>, i32\n  return\n}\n";
    int32_t m[1] = {0};
    pto_args *a = NULL;
    pto_program *p = build(forever, NULL);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    setenv("PTO_LOOP_LIMIT", "1000", 1);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "r2.pto:4:8: error: the block's loops turned more than 1000 times"));
    assert_int_equal(m[0], 0);
    pto_args_destroy(a);
    pto_program_destroy(p);
    p = build(ten, NULL);
    setenv("PTO_LOOP_LIMIT", "9", 1);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    pto_args_destroy(a);
    setenv("PTO_LOOP_LIMIT", "10", 1);
    run_on(p, m, sizeof m);
    assert_int_equal(m[0], 10);
    unsetenv("PTO_LOOP_LIMIT");
    m[0] = 0;
    run_on(p, m, sizeof m);
    assert_int_equal(m[0], 10);
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functions_and_calls),
        cmocka_unit_test(test_liveness_placement),
        cmocka_unit_test(test_carried_values),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_texpands_spellings),
        cmocka_unit_test(test_tdivs_both_orders),
        cmocka_unit_test(test_col_major_columns),
        cmocka_unit_test(test_view_types_with_dynamic_dims),
        cmocka_unit_test(test_sync_sections_and_rules),
        cmocka_unit_test(test_subviews),
        cmocka_unit_test(test_load_store_windows),
        cmocka_unit_test(test_block_parameters),
        cmocka_unit_test(test_loop_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
