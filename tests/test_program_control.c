/* PTO assembly's control: modules of several functions and calls between
 * them, carried values of scf.for / scf.if / scf.while, float and integer
 * scalars and scalar access to global memory, synchronisation and
 * sections, the block's identity as parameters, PTO_LOOP_LIMIT, and the
 * text rules that are stricter than the C API. Every case is written
 * here. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/harness.h"

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
    pto_program *p = program_build(kCalls, NULL); /* pto.entry chooses @main */
    program_run_on(p, m, sizeof m);
    assert_int_equal(m[1], 20);
    assert_non_null(strstr(pto_program_describe(p), "@main(%p: !pto.ptr<i32>)  (entry)"));
    assert_non_null(strstr(pto_program_describe(p), "@twice(%x: i32) -> (i32)  private"));
    pto_program_destroy(p);
    p = program_build(kCalls, "@other"); /* by name */
    program_run_on(p, m, sizeof m);
    assert_int_equal(m[0], 7);
    pto_program_destroy(p);
    expect_program_refused_with(kCalls, "nope", "the module has no function @nope (it has @twice, @store, @main, @other)");
    /* No pto.entry: two public functions are ambiguous, one is the entry. */
    static const char two[] = "func.func @a() {\n return\n}\nfunc.func @b() {\n return\n}\n";
    expect_program_refused_with(two, NULL, "1:1: error: the module has 2 public functions (@a, @b)");
    pto_program_destroy(program_build(two, "b"));
    pto_program_destroy(program_build("func.func @a() {\n return\n}\nfunc.func private @b() {\n return\n}\n", NULL));
    /* PTOAS's synchronisation hint is accepted (and orders nothing); an
     * unknown attribute is not. */
    pto_program_destroy(program_build("func.func @a() attributes {pto.auto_sync_tail_hint = \"mte3-to-s-event0\"} {\n"
                              " return\n}\n", NULL));
    expect_program_refused_with("func.func @a() attributes {pto.sync_hint = 1} {\n return\n}\n", NULL,
            "1:28: error: unknown function attribute 'pto.sync_hint'");
    expect_program_refused_with("func.func @k(%n: i32) attributes {pto.entry} {\n func.call @k(%n) : (i32) -> ()\n return\n}\n",
            NULL, "2:12: error: recursive call of @k");
    expect_program_refused_with("func.func @k() {\n %c = func.call @h() : () -> i32\n return\n}\n"
            "func.func private @h() -> i32 {\n %x = arith.constant 1 : i16\n return %x : i16\n}\n",
            NULL, "return value 0 is i16");
    /* An unused function is checked too. */
    expect_program_refused_with("func.func @k() attributes {pto.entry} {\n return\n}\n"
            "func.func @h() {\n %x = arith.addi %y, %y : i32\n return\n}\n",
            NULL, "5:18: error: %y is not defined");
}

/* A module of several kernels (each marked): every function is verified by
 * every create call; pto_program_create asks for an entry once all verify,
 * pto_program_check accepts the module and describes it, and a run of that
 * program asks for an entry. */
static void test_modules_of_several_kernels(void **state) {
    (void)state;
#define KERNELS(SECOND_BODY)                                                                      \
    "module {\n"                                                                                 \
    "  func.func @fill(%p: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" \
    "    %c0 = arith.constant 0 : index\n    %k = arith.constant 3 : i32\n"                        \
    "    pto.store_scalar %k, %p[%c0] : !pto.ptr<i32>, i32\n    return\n  }\n"                   \
    "  func.func @other(%p: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" \
    SECOND_BODY "    return\n  }\n}\n"
    static const char good[] = KERNELS("    %c1 = arith.constant 1 : index\n");
    static const char bad[] = KERNELS("    %x = arith.addi %y, %y : i32\n");
    expect_program_refused_with(good, NULL,
            "t.pto:2:3: error: the module marks 2 entry functions (@fill, @other): choose one by name");
    /* The second kernel's error comes first, whichever way the module is created. */
    expect_program_refused_with(bad, NULL, "t.pto:9:21: error: %y is not defined");
    expect_program_refused_with(bad, "fill", "t.pto:9:21: error: %y is not defined");
    pto_program *p = NULL;
    assert_int_equal(pto_program_check(bad, strlen(bad), "t.pto", &p), PTO_ERR_INVALID_ARGUMENT);
    assert_null(p);
    if (strstr(pto_last_error(), "t.pto:9:21: error: %y is not defined") == NULL)
        fail_msg("%s", pto_last_error());
    /* Checked without an entry: described, and not runnable. */
    assert_int_equal(pto_program_check(good, strlen(good), "t.pto", &p), PTO_OK);
    assert_int_equal(pto_program_param_count(p), 0);
    assert_non_null(strstr(pto_program_describe(p),
                           "  @fill(%p: !pto.ptr<i32>)\n  @other(%p: !pto.ptr<i32>)\n"
                           "no entry: the module marks 2 entry functions (@fill, @other)"));
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_INVALID_ARGUMENT);
    if (strstr(pto_last_error(), "the module marks 2 entry functions (@fill, @other): choose one by name") == NULL)
        fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* Where the marks choose the entry, pto_program_check's program runs. */
    static const char one[] = "func.func @k(%p: !pto.ptr<i32>) {\n  %c0 = arith.constant 0 : index\n"
                              "  %k = arith.constant 9 : i32\n"
                              "  pto.store_scalar %k, %p[%c0] : !pto.ptr<i32>, i32\n  return\n}\n";
    assert_int_equal(pto_program_check(one, strlen(one), "t.pto", &p), PTO_OK);
    int32_t m[1] = {0};
    program_run_on(p, m, sizeof m);
    assert_int_equal(m[0], 9);
    pto_program_destroy(p);
    p = program_build(good, "other");
    pto_program_destroy(p);
    /* Functions checked alone whose views are parameters (only a call gives
     * them memory): their tload and a pipe's gm_slot_tensor are verified, and
     * several such functions in one module are no trouble. */
    static const char views[] =
        "module {\n"
        "  func.func private @ld(%mem: !pto.partition_tensor_view<8x16xf16>, %dst: !pto.tile_buf<vec, 8x16xf16>) {\n"
        "    pto.tload ins(%mem : !pto.partition_tensor_view<8x16xf16>) outs(%dst : !pto.tile_buf<vec, 8x16xf16>)\n"
        "    return\n  }\n"
        "  func.func private @ld2(%mem: !pto.partition_tensor_view<8x16xf16>, %dst: !pto.tile_buf<vec, 8x16xf16>) {\n"
        "    pto.tload ins(%mem : !pto.partition_tensor_view<8x16xf16>) outs(%dst : !pto.tile_buf<vec, 8x16xf16>)\n"
        "    return\n  }\n}\n";
    assert_int_equal(pto_program_check(views, strlen(views), "t.pto", &p), PTO_OK);
    pto_program_destroy(p);
#undef KERNELS
}

#define T32 "!pto.tile_buf<vec, 32x64xf32>"

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
    pto_program *p = program_build(fixed, NULL);
    int32_t m[3] = {0, 0, 0};
    program_run_on(p, m, sizeof m);
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
    p = program_build(tile, NULL);
    float f[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    program_run_on(p, f, sizeof f);
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
    pto_program *p = program_build(text, NULL);
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
    p = program_build("func.func @b(%p: !pto.ptr<i32>) {\n"
              "  %c0 = arith.constant 0 : index\n  %t = arith.constant true\n"
              "  %f = arith.constant false\n  %seven = arith.constant 7 : i32\n"
              "  %nine = arith.constant 9 : i32\n  %both = arith.andi %t, %f : i1\n"
              "  %v = arith.select %both, %seven, %nine : i32\n"
              "  pto.store_scalar %v, %p[%c0] : !pto.ptr<i32>, i32\n  return\n}\n",
              NULL);
    int32_t word = 0;
    program_run_on(p, &word, sizeof word);
    assert_int_equal(word, 9);
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
    pto_program *p = program_build(sync, NULL);
    /* Under qemu-user a launch's worker threads can hang (qemu's futexes):
     * there the three blocks run one after another on the calling thread. */
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) setenv("PTO_NUM_THREADS", "1", 1);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_launch(p, 3, a), PTO_OK);
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* TGATHER's mask-pattern form in place: the C call's aliasing rule, located. */
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tgather ins(%t, {maskPattern = #pto.mask_pattern<P0101>} : " T32 ") outs(%t : " T32 ")\n"
            "  return\n}\n",
            NULL, "t.pto:3:3: error: pto_tgather_mask: src's valid elements share storage with dst's");
    expect_program_refused_with("func.func @k() {\n  pto.set_flag[<PIPE_MTE2>, <PIPE_V>]\n  return\n}\n", NULL,
            "2:16: error: pto.set_flag takes [<PIPE_...>, <PIPE_...>, <EVENT_IDn>]");
    expect_program_refused_with("func.func @k() {\n  pto.barrier <EVENT_ID0>\n  return\n}\n", NULL,
            "2:15: error: pto.barrier takes <PIPE_X> (a pipe of PTOAS's PIPE enum)");
    /* PTOAS's enums: pipes, event endpoints; A5's sync.set / sync.wait pipes. */
    expect_program_refused_with("func.func @k() {\n  pto.set_flag[<PIPE_MTE2>, <PIPE_W>, <EVENT_ID0>]\n  return\n}\n", NULL,
            "2:29: error: pto.set_flag takes [<PIPE_...>, <PIPE_...>, <EVENT_IDn>]");
    expect_program_refused_with("func.func @k() {\n  pto.record_event [#pto.pipe_event_type<TLOAD>, "
            "#pto.pipe_event_type<TVECTOR>, #pto.event<EVENT_ID1>]\n  return\n}\n",
            NULL, "2:50: error: pto.record_event takes [<OP>, <OP>, <EVENT_IDn>] (OP of TLOAD,");
    expect_program_refused_with("func.func @k() {\n  pto.barrier_sync [<TSTORE>]\n  return\n}\n", NULL,
            "2:21: error: pto.barrier_sync takes [<OP>] (OP of TLOAD, TSTORE_ACC");
    static const char a5_sync[] =
        "module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%e: index) {\n"
        "  pto.sync.set #pto.pipe<PIPE_MTE3>, %e\n  pto.sync.wait <PIPE_V>, 3\n"
        "  pto.sync.set <PIPE_V>, 0\n  return\n}\n}\n";
    expect_program_refused_with(a5_sync, NULL,
            "5:16: error: pto.sync.set on A5 takes <PIPE_FIX> or <PIPE_MTE3>, not <PIPE_V>");
    pto_program_destroy(program_build("module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k(%e: index) {\n"
                              "  pto.sync.set #pto.pipe<PIPE_MTE3>, %e\n  pto.sync.wait <PIPE_V>, 3\n"
                              "  return\n}\n}\n", NULL));
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tnot_an_instruction ins(%t : " T32 ") outs(%t : " T32 ")\n  return\n}\n",
            NULL, "t.pto:3:3: error: instruction 'pto.tnot_an_instruction' is not implemented");
    expect_program_refused_with("module attributes {pto.target_arch = \"a3\"} {\nfunc.func @k() {\n"
            "  %t = pto.alloc_tile : " T32 "\n"
            "  pto.tpow ins(%t, %t : " T32 ", " T32 ") outs(%t : " T32 ") "
            "{precisionType = #pto<pow_precision high_precision>}\n  return\n}\n}\n",
            NULL, "precisionType high_precision of tpow is refused under A2A3");
    pto_program_destroy(program_build("%d = trsqrt %a {precisionType = #pto<rsqrt_precision high_precision>} : "
                              "!pto.tile<16x16xf32>\n", NULL));
}

/* The synchronisation and cache operations of PTOAS that order or flush
 * what a CPU block already does in order: get_buf/rls_buf (and _dyn),
 * set/wait_intra_block, cmo.cacheinvalid, fence.barrier_all, syncall —
 * checked as PTOAS's verifiers check them, then nothing; syncall stops a
 * launch of more than one block. The comm.* operations are refused. */
static void test_noop_sync_and_cache(void **state) {
    (void)state;
#define A5_KERNEL(BODY)                                                                         \
    "module attributes {pto.target_arch = \"a5\"} {\n"                                         \
    "func.func @k(%p: !pto.ptr<i32>, %e: index) {\n"                                           \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                      \
    "  %c16 = arith.constant 16 : index\n"                                                      \
    "  %v = pto.make_tensor_view %p, shape = [%c1, %c16], strides = [%c16, %c1] : "            \
    "!pto.tensor_view<1x16xi32>\n"                                                              \
    BODY "  %k = arith.constant 5 : i32\n  pto.store_scalar %k, %p[%c0] : !pto.ptr<i32>, i32\n" \
    "  return\n}\n}\n"
    pto_program *p = program_build(A5_KERNEL(
        "  pto.cmo.cacheinvalid all #pto.address_space<gm>\n"
        "  pto.cmo.cacheinvalid %p single_cache_line : !pto.ptr<i32>\n"
        "  pto.cmo.cacheinvalid %v single_cache_line : !pto.tensor_view<1x16xi32>\n"
        "  pto.fence.barrier_all #pto.fence_scope<gm>\n"
        "  pto.get_buf \"PIPE_MTE2\", 1, 0\n  pto.rls_buf \"PIPE_MTE2\", 1, 0\n"
        "  pto.get_buf [#pto.pipe_event_type<TVEC>, 31] {mode = 0}\n"
        "  pto.rls_buf [#pto.pipe_event_type<TVEC>, 31]\n"
        "  pto.get_buf_dyn \"PIPE_V\", %e, 0\n  pto.rls_buf_dyn \"PIPE_V\", %e\n"
        "  pto.set_intra_block <PIPE_FIX>, 17\n  pto.wait_intra_block #pto.pipe<PIPE_MTE3>, %e\n"
        "  pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>\n"
        "  pto.syncall(%v : !pto.tensor_view<1x16xi32>) mode = #pto.sync_all_mode<soft>, "
        "core_type = #pto.sync_core_type<aiv_only>\n"), NULL);
    int32_t m[16] = {0};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 1, 2), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    assert_int_equal(m[0], 5);
    assert_int_equal(pto_program_launch(p, 2, a), PTO_ERR_INVALID_ARGUMENT);
    if (strstr(pto_last_error(), "t.pto:19:3: error: pto.syncall waits for every block, and blocks "
                                 "run independently here: run this kernel on 1 block") == NULL)
        fail_msg("%s", pto_last_error());
    pto_args_destroy(a);
    pto_program_destroy(p);
    /* PTOAS's rules: a concrete pipe and a buffer id in 0..31; the intra-block
     * pipes and events (0..31 under A5, 0..15 under A2A3); a GM address of
     * the type written; the fence scopes; syncall's operands by mode. */
    expect_program_refused_with(A5_KERNEL("  pto.get_buf \"PIPE_ALL\", 0, 0\n"), NULL,
            "7:15: error: pto.get_buf: 'PIPE_ALL' is not a concrete pipe");
    expect_program_refused_with(A5_KERNEL("  pto.rls_buf [#pto.pipe_event_type<TVEC>, 32]\n"), NULL,
            "7:44: error: pto.rls_buf: buffer id 32 is outside 0..31");
    expect_program_refused_with(A5_KERNEL("  pto.set_intra_block <PIPE_S>, 1\n"), NULL,
            "7:23: error: pto.set_intra_block takes <PIPE_FIX>, <PIPE_MTE1>, <PIPE_MTE2>, <PIPE_MTE3> or <PIPE_V>, not <PIPE_S>");
    expect_program_refused_with(A5_KERNEL("  pto.wait_intra_block <PIPE_V>, 32\n"), NULL,
            "7:34: error: pto.wait_intra_block: event 32 is outside 0..31");
    expect_program_refused_with("module attributes {pto.target_arch = \"a3\"} {\nfunc.func @k() {\n"
            "  pto.set_intra_block <PIPE_FIX>, 16\n  return\n}\n}\n", NULL,
            "3:35: error: pto.set_intra_block: event 16 is outside 0..15");
    expect_program_refused_with(A5_KERNEL("  pto.cmo.cacheinvalid %p single_cache_line : !pto.ptr<f32>\n"), NULL,
            "7:47: error: %p is !pto.ptr<i32>, but is written here as !pto.ptr<f32>");
    expect_program_refused_with(A5_KERNEL("  pto.cmo.cacheinvalid all #pto.address_space<vec>\n"), NULL,
            "7:28: error: pto.cmo.cacheinvalid all takes #pto.address_space<gm>");
    expect_program_refused_with(A5_KERNEL("  pto.fence.barrier_all #pto.fence_scope<ub>\n"), NULL,
            "7:25: error: pto.fence.barrier_all takes #pto.fence_scope<local_memory|gm|all>");
    expect_program_refused_with(A5_KERNEL("  pto.syncall(%v : !pto.tensor_view<1x16xi32>) mode = "
            "#pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>\n"), NULL,
            "pto.syncall: a hard syncall takes no workspace or count");
    expect_program_refused_with(A5_KERNEL("  %w = pto.make_tensor_view %p, shape = [%c1, %c1], strides = [%c1, %c1] : "
            "!pto.tensor_view<1x1xi32>\n"
            "  pto.syncall(%w : !pto.tensor_view<1x1xi32>) mode = "
            "#pto.sync_all_mode<soft>, core_type = #pto.sync_core_type<mix>\n"), NULL,
            "8:20: error: pto.syncall: the workspace holds 1 elements, fewer than 16");
    /* PTOAS's comm dialect: tput takes (%dst, %src, buf(...) : types),
     * tput_async a session; a name PTOAS lacks is refused at the op. */
    expect_program_refused_with(A5_KERNEL("  pto.comm.tput ins(%v : !pto.tensor_view<1x16xi32>)\n"), NULL,
            "7:17: error: expected '(', found 'ins'");
    expect_program_refused_with(A5_KERNEL("  pto.comm.tput(%v, %v : !pto.tensor_view<1x16xi32>, "
            "!pto.tensor_view<1x16xi32>)\n"), NULL,
            "7:3: error: pto.comm.tput takes (%dst, %src, buf(%ping[, %pong]) : types)");
    expect_program_refused_with(A5_KERNEL("  %e = pto.comm.tput_async(%v, %v, %v : "
            "!pto.tensor_view<1x16xi32>, !pto.tensor_view<1x16xi32>, !pto.tensor_view<1x16xi32>) "
            "-> !pto.async_event\n"),
            NULL, "pto.comm.tput_async takes a !pto.async_session, not !pto.tensor_view<1x16xi32>");
    expect_program_refused_with(A5_KERNEL("  %e = pto.comm.tput_bogus(%v : !pto.tensor_view<1x16xi32>)\n"),
            NULL, "7:8: error: operation 'pto.comm.tput_bogus' is not supported");
#define ASYNC_KERNEL(BODY)                                                                      \
    "module {\nfunc.func @k(%p: !pto.ptr<i32>, %w: !pto.ptr<i8>) {\n"                             \
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"                      \
    "  %c16 = arith.constant 16 : index\n"                                                      \
    "  %v = pto.make_tensor_view %p, shape = [%c1, %c16], strides = [%c16, %c1] : "            \
    "!pto.tensor_view<1x16xi32>\n" BODY "  return\n}\n}\n"
    /* PTOAS's older async spellings (pto.X): a session's attributes in
     * their ranges, both views of one shape, the workspace of 8-bit integers. */
    expect_program_refused_with(A5_KERNEL("  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>\n"
            "  %s = pto.build_async_session(%t, %p : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i32>) "
            "-> !pto.async_session\n"),
            NULL, "pto.build_async_session takes its workspace as a !pto.ptr or a memref of 8-bit "
            "integers, not !pto.ptr<i32>");
    expect_program_refused_with(ASYNC_KERNEL("  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>\n"
            "  %s = pto.build_async_session(%t, %w : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8>) "
            "{sync_id = 8} -> !pto.async_session\n"),
            NULL, "pto.build_async_session: sync_id = 8 is outside 0..7");
    expect_program_refused_with(ASYNC_KERNEL("  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>\n"
            "  %s = pto.build_async_session(%t, %w : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8>) "
            "{queue_num = 0} -> !pto.async_session\n"),
            NULL, "pto.build_async_session: queue_num = 0 is outside >= 1");
    expect_program_refused_with(ASYNC_KERNEL("  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x256xi8>\n"
            "  %s = pto.build_async_session(%t, %w : !pto.tile_buf<vec, 1x256xi8>, !pto.ptr<i8>) "
            "-> !pto.async_session\n"
            "  %h = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c1] : "
            "!pto.tensor_view<1x16xi32> -> !pto.partition_tensor_view<1x1xi32>\n"
            "  %e = pto.tget_async(%v, %h, %s : !pto.tensor_view<1x16xi32>, "
            "!pto.partition_tensor_view<1x1xi32>, !pto.async_session) -> !pto.async_event\n"),
            NULL, "pto.tget_async: src holds 1 elements, dst 16 (PTOAS: the same static shape)");
    /* PTOAS: a comm operation's views have positive static dimensions. */
    expect_program_refused_with(A5_KERNEL("  %b = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi32>\n"
            "  %z = pto.make_tensor_view %p, shape = [%c0, %c16], strides = [%c16, %c1] : "
            "!pto.tensor_view<0x16xi32>\n"
            "  pto.comm.tget(%v, %z, buf(%b) : !pto.tensor_view<1x16xi32>, !pto.tensor_view<0x16xi32>, "
            "!pto.tile_buf<vec, 1x16xi32>)\n"),
            NULL, "pto.comm.tget: %z is !pto.tensor_view<0x16xi32>: every static dimension of a view "
            "must be positive");
    /* Staging tiles lie in the unified buffer (pto-isa's comm pages). */
    expect_program_refused_with(A5_KERNEL("  %b = pto.alloc_tile : !pto.tile_buf<loc=mat, dtype=i32, rows=16, "
            "cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>\n"
            "  pto.comm.tput(%v, %v, buf(%b) : !pto.tensor_view<1x16xi32>, !pto.tensor_view<1x16xi32>, "
            "!pto.tile_buf<loc=mat, dtype=i32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, "
            "slayout=row_major, fractal=512, pad=0>)\n"),
            NULL, "pto.comm.tput: the tile %b lies in mat, not in the unified buffer: a staging tile is a vec tile");
    /* Each comm operation's attributes and operand types. */
    expect_program_refused_with(A5_KERNEL("  %x = arith.constant 1 : i32\n"
            "  pto.comm.twait(%v, %x : !pto.tensor_view<1x16xi32>, i32) {cmp = #pto<wait_cmp gx>}\n"),
            NULL, "pto.comm.twait: cmp = #pto<wait_cmp gx> is not one of its values");
    expect_program_refused_with(A5_KERNEL("  %x = arith.constant 1 : i32\n"
            "  pto.comm.tnotify(%v, %x : !pto.tensor_view<1x16xi32>, i32)\n"),
            NULL, "pto.comm.tnotify needs its notifyOp attribute");
    expect_program_refused_with(A5_KERNEL("  %b = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf32>\n"
            "  pto.comm.tput(%v, %v, buf(%b) : !pto.tensor_view<1x16xi32>, !pto.tensor_view<1x16xi32>, "
            "!pto.tile_buf<vec, 1x16xf32>)\n"),
            NULL, "pto.comm.tput: the tile %b holds f32, not the views' i32");
    expect_program_refused_with(A5_KERNEL("  %b = pto.alloc_tile : !pto.tile_buf<vec, 1x16xi32>\n"
            "  pto.comm.tbroadcast(%v, recv(%b), group(%v, %v) : !pto.tensor_view<1x16xi32>, "
            "!pto.tile_buf<vec, 1x16xi32>, !pto.tensor_view<1x16xi32>, !pto.tensor_view<1x16xi32>) "
            "{root = 2 : i32}\n"),
            NULL, "pto.comm.tbroadcast: root is the group index of the calling rank, 0..1, not 2");
    /* On one process (rank 0 of 1): notify, wait and test on its own signals. */
    pto_program *c = program_build(A5_KERNEL("  %three = arith.constant 3 : i32\n"
            "  %four = arith.constant 4 : i32\n"
            "  %s = pto.partition_view %v, offsets = [%c0, %c1], sizes = [%c1, %c1] : "
            "!pto.tensor_view<1x16xi32> -> !pto.partition_tensor_view<1x1xi32>\n"
            "  pto.comm.tnotify(%s, %three : !pto.partition_tensor_view<1x1xi32>, i32) "
            "{notifyOp = #pto<notify_op set>}\n"
            "  pto.comm.twait(%s, %three : !pto.partition_tensor_view<1x1xi32>, i32) "
            "{cmp = #pto<wait_cmp eq>}\n"
            "  %t = pto.comm.ttest(%s, %four : !pto.partition_tensor_view<1x1xi32>, i32) "
            "{cmp = #pto<wait_cmp ge>} -> i1\n"
            "  %t32 = arith.extui %t : i1 to i32\n"
            "  pto.store_scalar %t32, %p[%c16] : !pto.ptr<i32>, i32\n"), NULL);
    int32_t sig[17] = {0};
    sig[16] = 7;
    pto_args *ca = NULL;
    assert_int_equal(pto_args_create(c, &ca), PTO_OK);
    assert_int_equal(pto_args_set_pointer(ca, 0, sig, sizeof sig), PTO_OK);
    assert_int_equal(pto_args_set_int(ca, 1, 0), PTO_OK);
    assert_int_equal(pto_program_run(c, ca), PTO_OK);
    assert_int_equal(sig[1], 3);
    assert_int_equal(sig[16], 0); /* ttest: 3 >= 4 is false */
    pto_args_destroy(ca);
    pto_program_destroy(c);
#undef A5_KERNEL
}

/* pto.tprint writes the tile's valid region to stderr when it runs, in
 * PTOAS's print formats, and a partition view's elements; refused: a bf16
 * tile and a tensor_view (PTOAS's rules). */
static void test_tprint(void **state) {
    (void)state;
    pto_program *p = program_build(
        "func.func @k(%p: !pto.ptr<f32>) {\n"
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  %c2 = arith.constant 2 : index\n  %c3 = arith.constant 3 : index\n"
        "  %v = pto.make_tensor_view %p, shape = [%c2, %c3], strides = [%c3, %c1] : !pto.tensor_view<2x3xf32>\n"
        "  %pv = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c2, %c3] : "
        "!pto.tensor_view<2x3xf32> -> !pto.partition_tensor_view<2x3xf32>\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xf32, valid=2x3>\n"
        "  pto.tload ins(%pv : !pto.partition_tensor_view<2x3xf32>) outs(%t : !pto.tile_buf<vec, 2x8xf32, valid=2x3>)\n"
        "  pto.tprint ins(%t : !pto.tile_buf<vec, 2x8xf32, valid=2x3>)\n"
        "  pto.tprint ins(%t, %pv : !pto.tile_buf<vec, 2x8xf32, valid=2x3>, !pto.partition_tensor_view<2x3xf32>) "
        "{printFormat = #pto<print_format width8_precision2>}\n"
        "  %i = pto.alloc_tile : !pto.tile_buf<vec, 1x2xi32>\n"
        "  %k = arith.constant -7 : i32\n"
        "  pto.texpands ins(%k : i32) outs(%i : !pto.tile_buf<vec, 1x2xi32>)\n"
        "  pto.tprint ins(%i : !pto.tile_buf<vec, 1x2xi32>)\n"
        "  %pc = pto.partition_view %v, offsets = [%c0, %c1], sizes = [%c2, %c2] : "
        "!pto.tensor_view<2x3xf32> -> !pto.partition_tensor_view<2x2xf32>\n"
        "  pto.tprint ins(%pc : !pto.partition_tensor_view<2x2xf32>)\n"
        "  return\n}\n", NULL);
    float m[6] = {1.5f, -2.0f, 3.25f, 4.0f, 5.0f, 6000.0f};
    FILE *capture = tmpfile();
    assert_non_null(capture);
    fflush(stderr);
    const int saved = dup(2);
    assert_true(saved >= 0 && dup2(fileno(capture), 2) >= 0);
    program_run_on(p, m, sizeof m);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[1024] = {0};
    rewind(capture);
    const size_t n = fread(text, 1, sizeof text - 1, capture);
    fclose(capture);
    text[n] = '\0';
    static const char want[] =
        "t.pto:10:3: %t, block 0: 2x3 valid of 2x8 f32\n"
        "   1.5000  -2.0000   3.2500\n"
        "   4.0000   5.0000 6000.0000\n"
        "t.pto:11:3: %t, block 0: 2x3 valid of 2x8 f32\n"
        "     1.50    -2.00     3.25\n"
        "     4.00     5.00  6000.00\n"
        "t.pto:15:3: %i, block 0: 1x2 valid of 1x2 i32\n"
        "       -7       -7\n"
        "t.pto:17:3: a partition view, block 0: 2x2 f32 of global memory\n"
        "  -2.0000   3.2500\n"
        "   5.0000 6000.0000\n";
    assert_string_equal(text, want);
    pto_program_destroy(p);
    expect_program_refused_with("func.func @k() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 2x8xbf16>\n"
            "  pto.tprint ins(%t : !pto.tile_buf<vec, 2x8xbf16>)\n  return\n}\n", NULL,
            "3:23: error: pto.tprint prints f32, f16 and 8-, 16- and 32-bit integer tiles, not bf16");
    expect_program_refused_with("func.func @k(%p: !pto.ptr<f32>) {\n  %c1 = arith.constant 1 : index\n"
            "  %v = pto.make_tensor_view %p, shape = [%c1], strides = [%c1] : !pto.tensor_view<1xf32>\n"
            "  pto.tprint ins(%v : !pto.tensor_view<1xf32>)\n  return\n}\n", NULL,
            "4:23: error: pto.tprint prints a tile_buf or a partition_tensor_view (PTOAS's rule), not a "
            "tensor_view");
}

/* Two PTOAS text rules: A5's tprelu does not use its tmp, so a tile used only
 * there takes no unified-buffer bytes (three 92x224 f32 tiles and an i8 tmp
 * fit A5's 256 KiB; a tmp read elsewhere too is placed, and then they do
 * not); a DPS trsqrt with precisionType high_precision takes a tmp. */
static void test_ptoas_rules_round3(void **state) {
    (void)state;
#define F "!pto.tile_buf<vec, 92x224xf32, valid=92x200>"
#define I "!pto.tile_buf<vec, 92x224xi8, valid=92x200>"
#define PRELU_A5(EXTRA)                                                                         \
    "module attributes {pto.target_arch = \"a5\"} {\nfunc.func @k() {\n"                        \
    "  %a = pto.alloc_tile : " F "\n  %b = pto.alloc_tile : " F "\n"                            \
    "  %t = pto.alloc_tile : " I "\n  %d = pto.alloc_tile : " F "\n"                            \
    "  pto.tprelu ins(%a, %b, %t : " F ", " F ", " I ") outs(%d : " F ")\n" EXTRA               \
    "  return\n}\n}\n"
    pto_program *p = program_build(PRELU_A5(""), NULL);
    assert_non_null(strstr(pto_program_describe(p), "247296 bytes used"));
    assert_non_null(strstr(pto_program_describe(p),
                           "%t tile 92x224xi8 (valid 92x200): no bytes (tprelu's tmp, which A5 does not use)"));
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_OK);
    pto_args_destroy(a);
    pto_program_destroy(p);
    expect_program_refused_with(PRELU_A5("  pto.tprint ins(%t : " I ")\n"), NULL,
            "does not fit in the 262144-byte unified buffer of A5");
#undef PRELU_A5
#undef F
#undef I
#define T "!pto.tile_buf<vec, 16x16xf32>"
    expect_program_refused_with("pto.trsqrt ins(%a : " T ") outs(%d : " T ") "
            "{precisionType = #pto<rsqrt_precision high_precision>}\n", NULL,
            "1:1: error: pto.trsqrt takes a tmp when precisionType is high_precision (PTOAS's rule)");
    expect_program_refused_with("pto.trsqrt ins(%a {precisionType = #pto<rsqrt_precision high_precision>} : " T
            ") outs(%d : " T ")\n", NULL,
            "1:1: error: pto.trsqrt takes a tmp when precisionType is high_precision (PTOAS's rule)");
    pto_program_destroy(program_build("pto.trsqrt ins(%a, %t : " T ", !pto.tile_buf<vec, 1x8xf32>) outs(%d : " T ") "
            "{precisionType = #pto<rsqrt_precision high_precision>}\n", NULL));
    pto_program_destroy(program_build("pto.trsqrt ins(%a : " T ") outs(%d : " T ") "
            "{precisionType = #pto<rsqrt_precision default>}\n", NULL));
#undef T
}

/* pto.comm.treduce on one process (every member local): the float16,
 * bfloat16 and 8-byte integer sums (each step rounded to the dtype, member
 * order root first then the rest) and maxima, against ref_from_double. */
static void test_treduce_dtypes(void **state) {
    (void)state;
    static const pto_dtype kDts[] = {PTO_FLOAT16, PTO_BFLOAT16, PTO_INT64};
    static const char *const kOps[] = {"sum", "max"};
    for (size_t k = 0; k < COUNT(kDts); ++k) {
        for (size_t o = 0; o < COUNT(kOps); ++o) {
            const pto_dtype dt = kDts[k];
            const char *t = dtype_spelling(dt);
            char text[4096];
            /* members at 0..2 and 3..5 and 6..8, dst at 9..11 */
            snprintf(text, sizeof text,
                "module attributes {pto.target_arch = \"a5\"} {\n"
                "func.func @k(%%p: !pto.ptr<%s>) {\n"
                "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                "  %%c3 = arith.constant 3 : index\n  %%c6 = arith.constant 6 : index\n"
                "  %%c9 = arith.constant 9 : index\n  %%c16 = arith.constant 16 : index\n"
                "  %%v = pto.make_tensor_view %%p, shape = [%%c16], strides = [%%c1] : "
                "!pto.tensor_view<16x%s>\n"
                "  %%m0 = pto.partition_view %%v, offsets = [%%c0], sizes = [%%c3] : "
                "!pto.tensor_view<16x%s> -> !pto.partition_tensor_view<3x%s>\n"
                "  %%m1 = pto.partition_view %%v, offsets = [%%c3], sizes = [%%c3] : "
                "!pto.tensor_view<16x%s> -> !pto.partition_tensor_view<3x%s>\n"
                "  %%m2 = pto.partition_view %%v, offsets = [%%c6], sizes = [%%c3] : "
                "!pto.tensor_view<16x%s> -> !pto.partition_tensor_view<3x%s>\n"
                "  %%d = pto.partition_view %%v, offsets = [%%c9], sizes = [%%c3] : "
                "!pto.tensor_view<16x%s> -> !pto.partition_tensor_view<3x%s>\n"
                "  %%acc = pto.alloc_tile : !pto.tile_buf<vec, 1x16x%s, valid=1x3>\n"
                "  %%rcv = pto.alloc_tile : !pto.tile_buf<vec, 1x16x%s, valid=1x3>\n"
                "  pto.comm.treduce(%%d, %%acc, recv(%%rcv), group(%%m0, %%m1, %%m2) : "
                "!pto.partition_tensor_view<3x%s>, !pto.tile_buf<vec, 1x16x%s, valid=1x3>, "
                "!pto.tile_buf<vec, 1x16x%s, valid=1x3>, !pto.partition_tensor_view<3x%s>, "
                "!pto.partition_tensor_view<3x%s>, !pto.partition_tensor_view<3x%s>) "
                "{reduceOp = #pto<reduce_op %s>, root = 1 : i32}\n"
                "  return\n}\n}\n",
                t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, kOps[o]);
            pto_program *p = program_build(text, NULL);
            /* values whose pairwise sums round: 1 + 2^-11 style steps */
            const double in[9] = {1.0, 3.0, -2.5, 0.0009765625, 1000.0, 7.0,
                                  0.00048828125, -1000.5, 0.125};
            uint64_t buf[16] = {0};
            unsigned char mem[16 * 8] = {0};
            for (size_t i = 0; i < 9; ++i) {
                buf[i] = ref_from_double(dt, dt == PTO_INT64 ? (double)(int64_t)(in[i] * 4) : in[i]);
                ref_store(dt, mem, i, buf[i]);
            }
            program_run_on(p, mem, 16 * pto_dtype_size(dt));
            for (size_t j = 0; j < 3; ++j) {
                /* root 1 first, then members 0 and 2 */
                const size_t order[3] = {1, 0, 2};
                uint64_t acc = buf[order[0] * 3 + j];
                for (size_t m = 1; m < 3; ++m) {
                    const uint64_t x = buf[order[m] * 3 + j];
                    if (o == 0)
                        acc = dt == PTO_INT64 ? ref_int_wrap(dt, acc + x)
                                              : ref_from_double(dt, ref_to_double(dt, acc) + ref_to_double(dt, x));
                    else if (dt == PTO_INT64 ? ref_int_less(dt, acc, x)
                                             : ref_to_double(dt, x) > ref_to_double(dt, acc))
                        acc = x;
                }
                const uint64_t got = ref_load(dt, mem, 9 + j);
                if (got != acc)
                    fail_msg("treduce %s %s element %zu: 0x%" PRIx64 ", want 0x%" PRIx64, kOps[o], t, j,
                             got, acc);
            }
            pto_program_destroy(p);
        }
    }
}

/* PyPTO's kernels take the block's identity as trailing i32 parameters
 * named %__pypto_spmd_block_idx / _block_num / _subblock_idx: the launch
 * binds them, as pto.get_block_idx; the caller binds the others. */
static void test_block_parameters(void **state) {
    (void)state;
    pto_program *p = program_build(
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
    expect_program_refused_with("func.func @k(%__pypto_spmd_block_idx: f32) {\n  return\n}\n", NULL,
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
    pto_program *p = program_build(forever, NULL);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    setenv("PTO_LOOP_LIMIT", "1000", 1);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "t.pto:4:8: error: the block's loops turned more than 1000 times"));
    assert_int_equal(m[0], 0);
    pto_args_destroy(a);
    pto_program_destroy(p);
    p = program_build(ten, NULL);
    setenv("PTO_LOOP_LIMIT", "9", 1);
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, m, sizeof m), PTO_OK);
    assert_int_equal(pto_program_run(p, a), PTO_ERR_OUT_OF_RANGE);
    pto_args_destroy(a);
    setenv("PTO_LOOP_LIMIT", "10", 1);
    program_run_on(p, m, sizeof m);
    assert_int_equal(m[0], 10);
    unsetenv("PTO_LOOP_LIMIT");
    m[0] = 0;
    program_run_on(p, m, sizeof m);
    assert_int_equal(m[0], 10);
    pto_program_destroy(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functions_and_calls),
        cmocka_unit_test(test_modules_of_several_kernels),
        cmocka_unit_test(test_carried_values),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_sync_sections_and_rules),
        cmocka_unit_test(test_noop_sync_and_cache),
        cmocka_unit_test(test_tprint),
        cmocka_unit_test(test_ptoas_rules_round3),
        cmocka_unit_test(test_treduce_dtypes),
        cmocka_unit_test(test_block_parameters),
        cmocka_unit_test(test_loop_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
