/* Pipes between a block's cube and vector cores in programs: an attention
 * step (S = Q K^T on the cube, pushed to the vector cores, P = exp(S / 4)
 * there, pushed back, O = P V on the cube) through two-slot pipes, so both
 * ends wait on full and empty pipes, on 1 and 3 blocks, under HOST (one
 * vector core, whole tiles) and A2A3 (two vector cores, whole tiles or
 * halves of the rows): bit for bit the C calls' result. A program whose
 * cores all wait stops with the error at the waiting instruction;
 * PTO_LOOP_LIMIT still stops a core's loops; every refusal with its
 * sentence. Every case is written here. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

#define ITERS 4 /* 16-row tiles of Q per block */

#define MAT "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define LEFT "!pto.tile_buf<loc=left, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=row_major, fractal=512, pad=0>"
#define RIGHT "!pto.tile_buf<loc=right, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>"
#define ACC "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
#define PTR "!pto.ptr<f32>"
#define VEC16 "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define VEC8 "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define MAT32 "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"

/* A vec tile of rows x 16 f32. */
static const char *vec_type(char *out, size_t n, unsigned rows) {
    snprintf(out, n,
             "!pto.tile_buf<loc=vec, dtype=f32, rows=%u, cols=16, v_row=%u, v_col=16, "
             "blayout=row_major, slayout=none_box, fractal=512, pad=0>",
             rows, rows);
    return out;
}

/* The attention step's module under `target` ("" for HOST, else a
 * pto.target_arch) with split `split` at the vector end (the vector
 * cores' tiles are 16 / 2 rows for split 1), two slots each way. */
static void attention_text(char *text, size_t n, const char *target, int split) {
    char vec[256];
    vec_type(vec, sizeof vec, split == 1 ? 8 : 16);
    char module_attrs[64] = "";
    if (target[0] != '\0') snprintf(module_attrs, sizeof module_attrs, " attributes {pto.target_arch = \"%s\"}", target);
    snprintf(
        text, n,
        "module%s {\n"
        "  func.func @attention(%%q: " PTR ", %%kt: " PTR ", %%v: " PTR ", %%o: " PTR ", %%gm: " PTR ", %%rows: index) attributes {pto.entry} {\n"
        "    func.call @attention_cube(%%q, %%kt, %%v, %%o, %%gm, %%rows) : (" PTR ", " PTR ", " PTR ", " PTR ", " PTR ", index) -> ()\n"
        "    func.call @attention_vector(%%gm) : (" PTR ") -> ()\n"
        "    return\n"
        "  }\n"
        "  func.func private @attention_cube(%%q: " PTR ", %%kt: " PTR ", %%v: " PTR ", %%o: " PTR ", %%gm: " PTR ", %%rows: index) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "    %%c0 = arith.constant 0 : index\n"
        "    %%c1 = arith.constant 1 : index\n"
        "    %%c16 = arith.constant 16 : index\n"
        "    %%iters = arith.constant %d : index\n"
        "    %%block_rows = arith.constant %d : index\n"
        "    %%c2v = pto.import_reserved_buffer {name = \"c2v\", peer_func = @attention_vector} -> i32\n"
        "    %%v2c = pto.reserve_buffer {name = \"v2c\", size = 2048, location = #pto.address_space<mat>, auto = true} -> i32\n"
        "    pto.aic_initialize_pipe {dir_mask = 3, slot_size = 1024, slot_num = 2} (gm_slot_buffer = %%gm : " PTR ", c2v_consumer_buf = %%c2v : i32, v2c_consumer_buf = %%v2c : i32)\n"
        "    %%b = pto.get_block_idx\n"
        "    %%bi = arith.index_cast %%b : i64 to index\n"
        "    %%base = arith.muli %%bi, %%block_rows : index\n"
        "    %%vq = pto.make_tensor_view %%q, shape = [%%rows, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x16xf32>\n"
        "    %%vo = pto.make_tensor_view %%o, shape = [%%rows, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x16xf32>\n"
        "    %%vk = pto.make_tensor_view %%kt, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
        "    %%vv = pto.make_tensor_view %%v, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
        "    %%pk = pto.partition_view %%vk, offsets = [%%c0, %%c0], sizes = [%%c16, %%c16] : !pto.tensor_view<16x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "    %%pv = pto.partition_view %%vv, offsets = [%%c0, %%c0], sizes = [%%c16, %%c16] : !pto.tensor_view<16x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "    %%mq = pto.alloc_tile : " MAT "\n"
        "    %%mk = pto.alloc_tile : " MAT "\n"
        "    %%mv = pto.alloc_tile : " MAT "\n"
        "    %%l = pto.alloc_tile : " LEFT "\n"
        "    %%rk = pto.alloc_tile : " RIGHT "\n"
        "    %%rv = pto.alloc_tile : " RIGHT "\n"
        "    %%s = pto.alloc_tile : " ACC "\n"
        "    %%out = pto.alloc_tile : " ACC "\n"
        "    pto.tload ins(%%pk : !pto.partition_tensor_view<16x16xf32>) outs(%%mk : " MAT ")\n"
        "    pto.tmov ins(%%mk : " MAT ") outs(%%rk : " RIGHT ")\n"
        "    pto.tload ins(%%pv : !pto.partition_tensor_view<16x16xf32>) outs(%%mv : " MAT ")\n"
        "    pto.tmov ins(%%mv : " MAT ") outs(%%rv : " RIGHT ")\n"
        /* Every S first: the third push waits for the vector cores' frees. */
        "    scf.for %%i = %%c0 to %%iters step %%c1 {\n"
        "      %%r = arith.muli %%i, %%c16 : index\n"
        "      %%r0 = arith.addi %%base, %%r : index\n"
        "      %%pq = pto.partition_view %%vq, offsets = [%%r0, %%c0], sizes = [%%c16, %%c16] : !pto.tensor_view<?x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "      pto.tload ins(%%pq : !pto.partition_tensor_view<16x16xf32>) outs(%%mq : " MAT ")\n"
        "      pto.tmov ins(%%mq : " MAT ") outs(%%l : " LEFT ")\n"
        "      pto.tmatmul ins(%%l, %%rk : " LEFT ", " RIGHT ") outs(%%s : " ACC ")\n"
        "      pto.tpush_to_aiv(%%s : " ACC ") {split = %d}\n"
        "    }\n"
        "    scf.for %%i = %%c0 to %%iters step %%c1 {\n"
        "      %%r = arith.muli %%i, %%c16 : index\n"
        "      %%r0 = arith.addi %%base, %%r : index\n"
        "      %%p = pto.tpop_from_aiv {split = %d} -> " MAT "\n"
        "      pto.tmov ins(%%p : " MAT ") outs(%%l : " LEFT ")\n"
        "      pto.tfree_from_aiv {split = %d}\n"
        "      pto.tmatmul ins(%%l, %%rv : " LEFT ", " RIGHT ") outs(%%out : " ACC ")\n"
        "      %%po = pto.partition_view %%vo, offsets = [%%r0, %%c0], sizes = [%%c16, %%c16] : !pto.tensor_view<?x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "      pto.tstore ins(%%out : " ACC ") outs(%%po : !pto.partition_tensor_view<16x16xf32>)\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "  func.func private @attention_vector(%%gm: " PTR ") attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    %%c0 = arith.constant 0 : index\n"
        "    %%c1 = arith.constant 1 : index\n"
        "    %%iters = arith.constant %d : index\n"
        "    %%scale = arith.constant 0.25 : f32\n"
        "    %%c2v = pto.reserve_buffer {name = \"c2v\", size = 2048, location = #pto.address_space<vec>, auto = true} -> i32\n"
        "    %%v2c = pto.import_reserved_buffer {name = \"v2c\", peer_func = @attention_cube} -> i32\n"
        "    pto.aiv_initialize_pipe {dir_mask = 3, slot_size = 1024, slot_num = 2} (gm_slot_buffer = %%gm : " PTR ", c2v_consumer_buf = %%c2v : i32, v2c_consumer_buf = %%v2c : i32)\n"
        "    %%p = pto.alloc_tile : %s\n"
        "    scf.for %%i = %%c0 to %%iters step %%c1 {\n"
        "      %%s = pto.tpop_from_aic {split = %d} -> %s\n"
        "      pto.tmuls ins(%%s, %%scale : %s, f32) outs(%%p : %s)\n"
        "      pto.tfree_from_aic {split = %d}\n"
        "      pto.texp ins(%%p : %s) outs(%%p : %s)\n"
        "      pto.tpush_to_aic(%%p : %s) {split = %d}\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "}\n",
        module_attrs, ITERS, ITERS * 16, split, split, split, ITERS, vec, split, vec, vec, vec, split, vec, vec,
        vec, split);
}

/* The C calls' result for `blocks` blocks under `profile`: per 16-row tile
 * of Q, O = exp((Q KT) * 0.25) V. */
static void attention_reference(pto_profile profile, uint32_t blocks, const float *q, const float *kt,
                                const float *v, float *o) {
    const pto_profile before = pto_get_profile();
    pto_tile *tq = NULL, *tk = NULL, *tv = NULL, *ts = NULL, *tp = NULL, *to = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &tq), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &tk), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &tv), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &ts), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &tp), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &to), PTO_OK);
    memcpy(pto_tile_data(tk), kt, 256 * sizeof(float));
    memcpy(pto_tile_data(tv), v, 256 * sizeof(float));
    for (uint32_t t = 0; t < blocks * ITERS; ++t) {
        memcpy(pto_tile_data(tq), q + t * 256, 256 * sizeof(float));
        /* The program's matrix multiply is the HOST row's on row-major
         * copies (the C call refuses row-major tiles under A2A3); the
         * vector cores' operations run under the program's profile. */
        pto_set_profile(PTO_PROFILE_HOST);
        pto_status s = pto_tmatmul(ts, tq, tk);
        pto_set_profile(profile);
        if (s == PTO_OK) s = pto_tmuls(tp, ts, 0.25);
        if (s == PTO_OK) s = pto_texp(tp, tp);
        pto_set_profile(PTO_PROFILE_HOST);
        if (s == PTO_OK) s = pto_tmatmul(to, tp, tv);
        pto_set_profile(before);
        if (s != PTO_OK) fail_msg("C calls: %s", pto_last_error());
        memcpy(o + t * 256, pto_tile_data(to), 256 * sizeof(float));
    }
    TILES_DESTROY(tq, tk, tv, ts, tp, to);
}

/* Runs p on `blocks` blocks into o. */
static void attention_run(pto_program *p, uint32_t blocks, const float *q, const float *kt, const float *v,
                          float *o, float *gm) {
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    const size_t rows = (size_t)blocks * ITERS * 16;
    assert_int_equal(pto_args_set_pointer(a, 0, (void *)q, rows * 16 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, (void *)kt, 256 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 2, (void *)v, 256 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 3, o, rows * 16 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 4, gm, 4096 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_int(a, 5, (int64_t)rows), PTO_OK);
    if (pto_program_launch(p, blocks, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
    pto_args_destroy(a);
}

static void test_attention_through_pipes(void **state) {
    (void)state;
    static const struct {
        const char *target;
        pto_profile profile;
        int split;
    } forms[] = {{"", PTO_PROFILE_HOST, 0}, {"a2a3", PTO_PROFILE_A2A3, 0}, {"a2a3", PTO_PROFILE_A2A3, 1}};
    enum { MOST = 3 * ITERS * 256 };
    static float q[MOST], kt[256], v[256], o[MOST], want[MOST], gm[4096];
    uint64_t seed = 7;
    for (size_t i = 0; i < MOST; ++i) q[i] = (float)((int)((seed = seed * 6364136223846793005u + 1) >> 59) - 16) / 16;
    for (size_t i = 0; i < 256; ++i) kt[i] = (float)((int)((seed = seed * 6364136223846793005u + 1) >> 59) - 16) / 32;
    for (size_t i = 0; i < 256; ++i) v[i] = (float)((int)((seed = seed * 6364136223846793005u + 1) >> 59) - 16) / 8;
    static char text[16384];
    int runs = 0;
    for (size_t f = 0; f < COUNT(forms); ++f) {
        attention_text(text, sizeof text, forms[f].target, forms[f].split);
        pto_program *p = program_build(text, NULL);
        assert_int_equal(pto_program_profile(p), forms[f].profile);
        const char *d = pto_program_describe(p);
        assert_non_null(strstr(d, forms[f].profile == PTO_PROFILE_HOST
                                      ? "cores: a block runs the cube and 1 vector core at once"
                                      : "cores: a block runs the cube and 2 vector cores at once"));
        assert_non_null(strstr(d, "pipe 0 cube to vector: 2 slots of 1024 bytes\n"));
        assert_non_null(strstr(d, "pipe 0 vector to cube: 2 slots of 1024 bytes\n"));
        for (uint32_t blocks = 1; blocks <= 3; blocks += 2) {
            attention_reference(forms[f].profile, blocks, q, kt, v, want);
            /* One thread, then three: the same bits (and a second launch
             * starts on empty pipes). */
            /* qemu-user may hang a thread of a dynamically linked program:
             * one thread there. */
            const int launches = getenv("PTO_TEST_UNDER_QEMU") != NULL ? 1 : 2;
            for (int again = 0; again < launches; ++again) {
                if (launches > 1) setenv("PTO_NUM_THREADS", again == 0 ? "1" : "3", 1);
                memset(o, 0xff, sizeof o);
                attention_run(p, blocks, q, kt, v, o, gm);
                if (launches > 1) unsetenv("PTO_NUM_THREADS");
                const size_t count = (size_t)blocks * ITERS * 256;
                for (size_t i = 0; i < count; ++i)
                    if (memcmp(&o[i], &want[i], sizeof(float)) != 0)
                        fail_msg("%s split %d, %u blocks: o[%zu] = %a, the C calls give %a",
                                 pto_profile_string(forms[f].profile), forms[f].split, blocks, i, (double)o[i],
                                 (double)want[i]);
                ++runs;
            }
        }
        pto_program_destroy(p);
    }
    printf("[attention] %d runs (HOST whole tiles, A2A3 whole and halved; 1 and 3 blocks; 1 and 3 threads) bit for "
           "bit the C calls\n",
           runs);
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) printf("[attention] 3 threads: not tested under emulation\n");
}

/* The sections form (one function, pto.section.cube and .vector) under
 * A2A3: each vector core loads its half of the columns of a 16x32 block and
 * pushes it with split = 2; the cube pops the whole tile into an NZ mat
 * tile and stores it: y is x, on 2 blocks (each its own 16 rows). */
static void test_sections_halves_to_cube(void **state) {
    (void)state;
    static const char *text =
        "module attributes {pto.target_arch = \"a2a3\"} {\n"
        "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %gm: !pto.ptr<f32>) attributes {pto.entry} {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %c32 = arith.constant 32 : index\n"
        "  %b = pto.get_block_idx\n"
        "  %bi = arith.index_cast %b : i64 to index\n"
        "  %row = arith.muli %bi, %c16 : index\n"
        "  %vx = pto.make_tensor_view %x, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<32x32xf32>\n"
        "  %vy = pto.make_tensor_view %y, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<32x32xf32>\n"
        "  pto.section.vector {\n"
        "    pto.aiv_initialize_pipe {dir_mask = 2, slot_size = 2048} (gm_slot_buffer = %gm : !pto.ptr<f32>)\n"
        "    %sb = pto.get_subblock_idx\n"
        "    %si = arith.index_cast %sb : i64 to index\n"
        "    %col = arith.muli %si, %c16 : index\n"
        "    %px = pto.partition_view %vx, offsets = [%row, %col], sizes = [%c16, %c16] : !pto.tensor_view<32x32xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "    %t = pto.alloc_tile : " VEC16 "\n"
        "    pto.tload ins(%px : !pto.partition_tensor_view<16x16xf32>) outs(%t : " VEC16 ")\n"
        "    pto.tpush_to_aic(%t : " VEC16 ") {split = 2}\n"
        "  }\n"
        "  pto.section.cube {\n"
        "    pto.aic_initialize_pipe {dir_mask = 2, slot_size = 2048} (gm_slot_buffer = %gm : !pto.ptr<f32>)\n"
        "    %m = pto.tpop_from_aiv {split = 2} -> " MAT32 "\n"
        "    %py = pto.partition_view %vy, offsets = [%row, %c0], sizes = [%c16, %c32] : !pto.tensor_view<32x32xf32> -> !pto.partition_tensor_view<16x32xf32>\n"
        "    pto.tstore ins(%m : " MAT32 ") outs(%py : !pto.partition_tensor_view<16x32xf32>)\n"
        "    pto.tfree_from_aiv {split = 2}\n"
        "  }\n"
        "  return\n"
        "}\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    static float x[32 * 32], y[32 * 32], gm[1024];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (float)i * 0.5f - 100.0f;
    memset(y, 0, sizeof y);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, x, sizeof x), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, y, sizeof y), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 2, gm, sizeof gm), PTO_OK);
    if (pto_program_launch(p, 2, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
    assert_memory_equal(y, x, sizeof x);
    pto_args_destroy(a);
    pto_program_destroy(p);
    printf("[sections] two vector cores' column halves meet in the cube's NZ mat tile, stored back exactly\n");
}

/* Slots in global memory (A2A3's gm_slot_buffer, pto-isa's GlobalData
 * forms): the cube writes S = X Y into the slot talloc_to_aiv gives it and
 * commits it; each vector core pops a view of its half of the rows
 * (split = 1), loads it, doubles it and stores it: out = 2 X Y, the C
 * calls' bits. The slots lie in %gm: the second slot starts slot_size
 * bytes in. */
static void test_slots_in_global_memory(void **state) {
    (void)state;
    static const char *text =
        "module attributes {pto.target_arch = \"a2a3\"} {\n"
        "  func.func @k_aic(%x: " PTR ", %y: " PTR ", %out: " PTR ", %gm: " PTR ") attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c2 = arith.constant 2 : index\n"
        "    %c16 = arith.constant 16 : index\n"
        "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024, slot_num = 2} (gm_slot_buffer = %gm : " PTR ")\n"
        "    %vx = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "    %vy = pto.make_tensor_view %y, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "    %mx = pto.alloc_tile : " MAT "\n"
        "    %my = pto.alloc_tile : " MAT "\n"
        "    %l = pto.alloc_tile : " LEFT "\n"
        "    %r = pto.alloc_tile : " RIGHT "\n"
        "    %s = pto.alloc_tile : " ACC "\n"
        "    pto.tload ins(%vx : !pto.tensor_view<16x16xf32>) outs(%mx : " MAT ")\n"
        "    pto.tload ins(%vy : !pto.tensor_view<16x16xf32>) outs(%my : " MAT ")\n"
        "    pto.tmov ins(%mx : " MAT ") outs(%l : " LEFT ")\n"
        "    pto.tmov ins(%my : " MAT ") outs(%r : " RIGHT ")\n"
        "    pto.tmatmul ins(%l, %r : " LEFT ", " RIGHT ") outs(%s : " ACC ")\n"
        /* Twice: the second message lands in the second slot. */
        "    scf.for %i = %c0 to %c2 step %c1 {\n"
        "      %slot = pto.talloc_to_aiv {split = 1} -> !pto.tensor_view<16x16xf32>\n"
        "      pto.tstore ins(%s : " ACC ") outs(%slot : !pto.tensor_view<16x16xf32>)\n"
        "      pto.tpush_to_aiv(%slot : !pto.tensor_view<16x16xf32>) {split = 1}\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "  func.func @k_aiv(%x: " PTR ", %y: " PTR ", %out: " PTR ", %gm: " PTR ") attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c2 = arith.constant 2 : index\n"
        "    %c8 = arith.constant 8 : index\n"
        "    %c16 = arith.constant 16 : index\n"
        "    %c32 = arith.constant 32 : index\n"
        "    %two = arith.constant 2.0 : f32\n"
        "    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024, slot_num = 2} (gm_slot_buffer = %gm : " PTR ")\n"
        "    %sb = pto.get_subblock_idx\n"
        "    %si = arith.index_cast %sb : i64 to index\n"
        "    %vo = pto.make_tensor_view %out, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<32x16xf32>\n"
        "    %t = pto.alloc_tile : " VEC8 "\n"
        "    scf.for %i = %c0 to %c2 step %c1 {\n"
        "      %half = pto.tpop_from_aic {split = 1} -> !pto.tensor_view<8x16xf32>\n"
        "      pto.tload ins(%half : !pto.tensor_view<8x16xf32>) outs(%t : " VEC8 ")\n"
        "      pto.tfree_from_aic(%half : !pto.tensor_view<8x16xf32>) {split = 1}\n"
        "      pto.tmuls ins(%t, %two : " VEC8 ", f32) outs(%t : " VEC8 ")\n"
        "      %r16 = arith.muli %i, %c16 : index\n"
        "      %r8 = arith.muli %si, %c8 : index\n"
        "      %row = arith.addi %r16, %r8 : index\n"
        "      %po = pto.partition_view %vo, offsets = [%row, %c0], sizes = [%c8, %c16] : !pto.tensor_view<32x16xf32> -> !pto.partition_tensor_view<8x16xf32>\n"
        "      pto.tstore ins(%t : " VEC8 ") outs(%po : !pto.partition_tensor_view<8x16xf32>)\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    static float x[256], y[256], out[512], want[256], gm[512];
    for (size_t i = 0; i < 256; ++i) x[i] = (float)((int)(i * 7 % 23) - 11) / 4, y[i] = (float)((int)(i * 5 % 19) - 9) / 8;
    pto_tile *tx = NULL, *ty = NULL, *ts = NULL;
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &tx), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &ty), PTO_OK);
    assert_int_equal(pto_tile_create(PTO_FLOAT32, 16, 16, &ts), PTO_OK);
    memcpy(pto_tile_data(tx), x, sizeof x);
    memcpy(pto_tile_data(ty), y, sizeof y);
    assert_int_equal(pto_tmatmul(ts, tx, ty), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
    assert_int_equal(pto_tmuls(ts, ts, 2.0), PTO_OK);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    memcpy(want, pto_tile_data(ts), sizeof want);
    TILES_DESTROY(tx, ty, ts);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    float *const arrays[] = {x, y, out, gm};
    const size_t sizes[] = {sizeof x, sizeof y, sizeof out, sizeof gm};
    for (size_t i = 0; i < 4; ++i) assert_int_equal(pto_args_set_pointer(a, i, arrays[i], sizes[i]), PTO_OK);
    if (pto_program_launch(p, 1, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
    assert_memory_equal(out, want, sizeof want);
    assert_memory_equal(out + 256, want, sizeof want);
    /* Both slots hold S: the second from float 256 on. */
    assert_memory_equal(gm + 256, gm, 256 * sizeof(float));
    /* A global memory too small for the second slot: located at the talloc. */
    assert_int_equal(pto_args_set_pointer(a, 3, gm, 300 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_program_launch(p, 1, a), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(),
                           ":21:15: error: pto.talloc_to_aiv: slot 1 of pipe 0 (cube to vector) reaches element 511 of "
                           "%gm, which holds 300 elements"));
    pto_args_destroy(a);
    pto_program_destroy(p);
    printf("[global memory] talloc, tstore, commit; each vector core's half popped as a view: the C calls' bits\n");
}

/* A module of one cube and one vector kernel, one-way pipes of two slots:
 * cube_body and vector_body after each side's initialisations. */
static void two_kernels(char *text, size_t n, const char *cube_body, const char *vector_body) {
    snprintf(text, n,
             "module {\n"
             "  func.func @k() attributes {pto.entry} {\n"
             "    func.call @k_cube() : () -> ()\n"
             "    func.call @k_vector() : () -> ()\n"
             "    return\n"
             "  }\n"
             "  func.func private @k_cube() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%c3 = arith.constant 3 : index\n"
             "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2}\n"
             "    pto.aic_initialize_pipe {id = 1, dir_mask = 2, slot_size = 1024, slot_num = 2}\n"
             "%s"
             "    return\n"
             "  }\n"
             "  func.func private @k_vector() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%c3 = arith.constant 3 : index\n"
             "    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2}\n"
             "    pto.aiv_initialize_pipe {id = 1, dir_mask = 2, slot_size = 1024, slot_num = 2}\n"
             "%s"
             "    return\n"
             "  }\n"
             "}\n",
             cube_body, vector_body);
}


/* Runs a program of no parameters and expects `want` in its error, with
 * the location. */
static void expect_run_error(const char *text, uint32_t blocks, const char *location, const char *want) {
    pto_program *p = program_build(text, NULL);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    const pto_status s = pto_program_launch(p, blocks, a);
    if (s == PTO_OK) fail_msg("ran, expected: %s", want);
    const char *e = pto_last_error();
    if (strstr(e, want) == NULL || strstr(e, location) == NULL)
        fail_msg("error:\n  %s\nexpected %s and:\n  %s", e, location, want);
    pto_args_destroy(a);
    pto_program_destroy(p);
}

/* The cube's body pushing three acc tiles to pipe 0. */
#define THREE_PUSHES                                                                                                   \
    "    %acc = pto.alloc_tile : " ACC "\n"                                                                           \
    "    scf.for %i = %c0 to %c3 step %c1 {\n"                                                                        \
    "      pto.tpush_to_aiv(%acc : " ACC ") {id = 0, split = 0}\n"                                                    \
    "    }\n"

/* Every core waiting: an error at the first waiting instruction (the
 * cube's before the vector cores'), whatever the number of blocks. */
static void test_deadlocks(void **state) {
    (void)state;
    static char text[8192];
    /* Each end pops first: neither pushes. */
    two_kernels(text, sizeof text,
                "    %a = pto.tpop_from_aiv {id = 1, split = 0} -> " MAT "\n"
                "    pto.tfree_from_aiv {id = 1, split = 0}\n",
                "    %s = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n"
                "    pto.tfree_from_aic {id = 0, split = 0}\n");
    expect_run_error(text, 1, ":13:10: error:",
                     "pto.tpop_from_aiv: deadlock in block 0: the cube waits to pop from pipe 1 (vector to cube), "
                     "which is empty, and no other core can move it on; vector core 0 waits at line 23 "
                     "(pto.tpop_from_aic)");
    expect_run_error(text, 3, ":13:10: error:", "deadlock in block 0");
    /* A third push to a two-slot pipe nobody pops. */
    two_kernels(text, sizeof text,
                THREE_PUSHES,
                "");
    expect_run_error(text, 1, ":15:7: error:",
                     "pto.tpush_to_aiv: deadlock in block 0: the cube waits to push to pipe 0 (cube to vector), "
                     "whose 2 slots are all taken, and no other core can move it on; vector core 0 has finished");
    /* A pop with no free holds its slot: the third pop's push never comes. */
    two_kernels(text, sizeof text,
                THREE_PUSHES,
                "    scf.for %i = %c0 to %c3 step %c1 {\n"
                "      %s = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n"
                "    }\n");
    expect_run_error(text, 1, ":15:7: error:", "whose 2 slots are all taken");
    /* PTO_LOOP_LIMIT stops a core's loop as it stops a block's. */
    two_kernels(text, sizeof text,
                THREE_PUSHES,
                "    scf.for %i = %c0 to %c3 step %c1 {\n"
                "      %s = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n"
                "      pto.tfree_from_aic {id = 0, split = 0}\n"
                "    }\n");
    pto_program *p = program_build(text, NULL);
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_program_launch(p, 2, a), PTO_OK); /* three through two slots */
    setenv("PTO_LOOP_LIMIT", "2", 1);
    assert_int_equal(pto_program_launch(p, 1, a), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "the block's loops turned more than 2 times"));
    unsetenv("PTO_LOOP_LIMIT");
    pto_args_destroy(a);
    pto_program_destroy(p);
    printf("[deadlocks] located at the waiting instruction; PTO_LOOP_LIMIT stops a core's loops\n");
}

/* Run-time refusals: a pop of another dtype than the slot's, a free of
 * nothing popped. */
static void test_run_refusals(void **state) {
    (void)state;
    static char text[8192];
    two_kernels(text, sizeof text,
                "    %acc = pto.alloc_tile : " ACC "\n"
                "    pto.tpush_to_aiv(%acc : " ACC ") {id = 0, split = 0}\n",
                "    %s = pto.tpop_from_aic {id = 0, split = 0} -> !pto.tile_buf<loc=vec, dtype=f16, rows=16, "
                "cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n");
    expect_run_error(text, 1, ":23:10: error:",
                     "pto.tpop_from_aic: pops a f16 tile from pipe 0 (cube to vector), whose slot holds f32 (pushed "
                     "at line 14)");
    two_kernels(text, sizeof text, "", "    pto.tfree_from_aic {id = 0, split = 0}\n");
    expect_run_error(text, 1, ":21:5: error:",
                     "pto.tfree_from_aic: vector core 0 frees a slot of pipe 0 (cube to vector) it has not popped");
    printf("[run refusals] a pop of another dtype, a free of nothing popped\n");
}

#define ACC32 "!pto.tile_buf<loc=acc, dtype=f32, rows=32, cols=16, v_row=32, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
#define MAT32X16 "!pto.tile_buf<loc=mat, dtype=f32, rows=32, cols=16, v_row=32, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define LEFT32 "!pto.tile_buf<loc=left, dtype=f32, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, slayout=row_major, fractal=512, pad=0>"

/* Windows of an acc tile pushed to the vector core: the cube multiplies a
 * 32x16 x by the identity and pushes the 16-row windows at rows 16 and 0
 * (pto.subview); the vector core pops each and stores it: x's halves, in
 * that order, bit for bit. */
static void test_acc_windows_pushed(void **state) {
    (void)state;
    static const char text[] =
        "module {\n"
        "  func.func @k(%x: " PTR ", %e: " PTR ", %y: " PTR ") attributes {pto.entry} {\n"
        "    func.call @k_cube(%x, %e) : (" PTR ", " PTR ") -> ()\n"
        "    func.call @k_vector(%y) : (" PTR ") -> ()\n"
        "    return\n"
        "  }\n"
        "  func.func private @k_cube(%x: " PTR ", %e: " PTR ") attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        "    %c16 = arith.constant 16 : index\n    %c32 = arith.constant 32 : index\n"
        "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2}\n"
        "    %vx = pto.make_tensor_view %x, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<32x16xf32>\n"
        "    %ve = pto.make_tensor_view %e, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "    %mx = pto.alloc_tile : " MAT32X16 "\n    %me = pto.alloc_tile : " MAT "\n"
        "    %l = pto.alloc_tile : " LEFT32 "\n    %r = pto.alloc_tile : " RIGHT "\n"
        "    %acc = pto.alloc_tile : " ACC32 "\n"
        "    pto.tload ins(%vx : !pto.tensor_view<32x16xf32>) outs(%mx : " MAT32X16 ")\n"
        "    pto.tload ins(%ve : !pto.tensor_view<16x16xf32>) outs(%me : " MAT ")\n"
        "    pto.tmov ins(%mx : " MAT32X16 ") outs(%l : " LEFT32 ")\n"
        "    pto.tmov ins(%me : " MAT ") outs(%r : " RIGHT ")\n"
        "    pto.tmatmul ins(%l, %r : " LEFT32 ", " RIGHT ") outs(%acc : " ACC32 ")\n"
        "    %bottom = pto.subview %acc[%c16, %c0] sizes [16, 16] : " ACC32 " -> " ACC "\n"
        "    %top = pto.subview %acc[%c0, %c0] sizes [16, 16] : " ACC32 " -> " ACC "\n"
        "    pto.tpush_to_aiv(%bottom : " ACC ") {id = 0, split = 0}\n"
        "    pto.tpush_to_aiv(%top : " ACC ") {id = 0, split = 0}\n"
        "    return\n"
        "  }\n"
        "  func.func private @k_vector(%y: " PTR ") attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        "    %c16 = arith.constant 16 : index\n    %c32 = arith.constant 32 : index\n"
        "    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024, slot_num = 2}\n"
        "    %vy = pto.make_tensor_view %y, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<32x16xf32>\n"
        "    scf.for %i = %c0 to %c32 step %c16 {\n"
        "      %py = pto.partition_view %vy, offsets = [%i, %c0], sizes = [%c16, %c16] : !pto.tensor_view<32x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "      %s = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n"
        "      pto.tstore ins(%s : " VEC16 ") outs(%py : !pto.partition_tensor_view<16x16xf32>)\n"
        "      pto.tfree_from_aic {id = 0, split = 0}\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    float x[32 * 16], e[16 * 16] = {0}, y[32 * 16];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (float)i * 0.375f - 40.0f;
    for (size_t i = 0; i < 16; ++i) e[i * 17] = 1.0f;
    memset(y, 0xEE, sizeof y);
    void *data[] = {x, e, y};
    const size_t nbytes[] = {sizeof x, sizeof e, sizeof y};
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    for (size_t i = 0; i < COUNT(data); ++i) assert_int_equal(pto_args_set_pointer(a, i, data[i], nbytes[i]), PTO_OK);
    if (pto_program_launch(p, 1, a) != PTO_OK) fail_msg("%s", pto_last_error());
    assert_memory_equal(y, x + 16 * 16, 16 * 16 * sizeof(float));
    assert_memory_equal(y + 16 * 16, x, 16 * 16 * sizeof(float));
    pto_args_destroy(a);
    pto_program_destroy(p);
    printf("[acc windows pushed] an acc tile's row windows through a pipe arrive as its halves\n");
}

/* Refused when the program is created, with its sentence. */
static void test_refusals(void **state) {
    (void)state;
    static char text[8192];
    static const struct {
        const char *cube, *vector, *want;
    } cases[] = {
        {"    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 2048, slot_num = 2}\n", "",
         "pto.aic_initialize_pipe: pipe 0 (cube to vector) has 2 slots of 2048 bytes here and 2 of 1024 at line "
         "11: both ends must agree"},
        {"    %t = pto.alloc_tile : " VEC16 "\n    pto.tpush_to_aiv(%t : " VEC16 ") {id = 0, split = 0}\n", "",
         "pto.tpush_to_aiv: the pushed tile is a vec tile; the cube pushes an acc tile"},
        {"", "    %t = pto.tpop_from_aic {id = 0, split = 0} -> " ACC "\n",
         "pto.tpop_from_aic: the popped tile is an acc tile; a vector core pops a vec tile"},
        {"", "    %acc = pto.alloc_tile : " ACC "\n    pto.tpush_to_aiv(%acc : " ACC ") {id = 0, split = 0}\n",
         "pto.tpush_to_aiv must be inside a cube kernel function (pto.kernel_kind<cube>) or a pto.section.cube"},
        {"    %a = pto.tpop_from_aiv {id = 2, split = 0} -> " MAT "\n", "",
         "pto.tpop_from_aiv: no pto.aic_initialize_pipe before it declares pipe 2 from the vector cores to the cube"},
        {"    %a = pto.tpop_from_aiv {id = 1, split = 3} -> " MAT "\n", "", "expects split to be 0, 1 or 2"},
        {"    %v = pto.talloc_to_aiv {id = 0, split = 0} -> !pto.tensor_view<16x16xf32>\n", "",
         "pto.talloc_to_aiv: a slot in global memory needs gm_slot_buffer (or gm_slot_tensor) in this core's "
         "initialisation of pipe 0"},
        {"    pto.aic_initialize_pipe {id = 4, dir_mask = 1, slot_size = 268435457}\n", "",
         "slot_size 268435457 is larger than a tile may be (PTO_TILE_MAX_BYTES)"},
        {"    pto.aic_initialize_pipe {id = 4, dir_mask = 4, slot_size = 1024}\n", "",
         "expects dir_mask to be 1 (cube to vector), 2 (vector to cube) or 3 (both)"},
        {"", "    %t = pto.tpop_from_aic {id = 0, split = 0} -> !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=16, "
             "v_row=32, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n",
         "the tile needs 2048 bytes of a slot; pipe 0's slots are 1024 bytes"},
        {"", "    %b = pto.reserve_buffer {name = \"x\", size = 2048, location = #pto.address_space<mat>, auto = true} -> i32\n"
             "    %z = arith.constant 0 : i32\n"
             "    pto.aiv_initialize_pipe {id = 5, dir_mask = 1, slot_size = 1024, slot_num = 2} (c2v_consumer_buf = %b : "
             "i32, v2c_consumer_buf = %z : i32)\n",
         "the cube-to-vector consumer buffer \"x\" is in mat; it must be in vec"},
        {"", "    %b = pto.reserve_buffer {name = \"x\", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32\n"
             "    %z = arith.constant 0 : i32\n"
             "    pto.aiv_initialize_pipe {id = 5, dir_mask = 1, slot_size = 1024, slot_num = 2} (c2v_consumer_buf = %b : "
             "i32, v2c_consumer_buf = %z : i32)\n",
         "the consumer buffer \"x\" is 4096 bytes; slot_size x slot_num is 2048"},
        {"", "    %b = pto.reserve_buffer {name = \"x\", size = 2048, location = #pto.address_space<vec>, auto = false} -> i32\n",
         "pto.reserve_buffer: auto = false needs base"},
        {"", "    %b = pto.import_reserved_buffer {name = \"x\", peer_func = @nowhere} -> i32\n",
         "peer_func @nowhere is not a function of the module"},
        /* A pipe's transfers split alike: the cube pushes halves, the vector core pops a whole. */
        {"    %acc = pto.alloc_tile : " ACC "\n    pto.tpush_to_aiv(%acc : " ACC ") {id = 0, split = 1}\n",
         "    %t = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n",
         "pto.tpop_from_aic: split = 0 on pipe 0, whose transfer at line 14 has split = 1 or 2; a pipe's pushes, "
         "pops and frees all split its tiles between the vector cores (1, 2) or none does (0)"},
    };
    for (size_t i = 0; i < COUNT(cases); ++i) {
        two_kernels(text, sizeof text, cases[i].cube, cases[i].vector);
        expect_program_refused_with(text, NULL, cases[i].want);
    }
    /* Each core has its own tiles: no tile parameters. */
    expect_program_refused_with(
        ".arg %t : " VEC16 "\n"
        "pto.section.vector {\n"
        "  pto.aiv_initialize_pipe {dir_mask = 2, slot_size = 1024}\n"
        "  pto.tpush_to_aic(%t : " VEC16 ") {split = 0}\n"
        "}\n",
        NULL, "%t: a program with pipes takes pointers and scalars, not tiles (each core has its own)");
    /* Under A2A3 the slots pass through global memory: the operand is required. */
    expect_program_refused_with(
        "module attributes {pto.target_arch = \"a2a3\"} {\n"
        "  func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024}\n"
        "    return\n  }\n}\n",
        NULL, "under A2A3 the cores exchange slots through global memory: give gm_slot_buffer = %ptr");
    /* Either kernel of a cube-and-vector pair named as the entry runs the pair. */
    static const char pair[] =
        "module {\n"
        "  func.func @c() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "    pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024}\n"
        "    %acc = pto.alloc_tile : " ACC "\n    pto.tpush_to_aiv(%acc : " ACC ") {id = 0, split = 1}\n"
        "    return\n  }\n"
        "  func.func @v() attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    pto.aiv_initialize_pipe {id = 0, dir_mask = 1, slot_size = 1024}\n"
        "    %t = pto.tpop_from_aic {id = 0, split = 0} -> " VEC16 "\n"
        "    return\n  }\n}\n";
    expect_program_refused_with(pair, "v", "pto.tpop_from_aic: split = 0 on pipe 0, whose transfer at line 5");
    expect_program_refused_with(pair, "c", "pto.tpop_from_aic: split = 0 on pipe 0, whose transfer at line 5");
    printf("[refusals] %zu programs refused with their sentences\n", COUNT(cases) + 4);
}

/* The module attribute libpto.vector_cores: an A5 block runs two vector
 * cores by default, one where the module asks for one (a task that
 * dispatches one vector core beside the cube, as the host runtime runs
 * PTO2's {aic, aiv, INVALID}). The vector code's read-modify-write of out
 * (out += 1) is applied by each vector core: out + 2 by default, out + 1
 * with one (the cube pops the tile they push, once). A value other than 1
 * or 2, and a split with one vector core, are refused. */
static void vector_cores_text(char *text, size_t n, const char *attr, int split) {
    snprintf(text, n,
             "module attributes {pto.target_arch = \"a5\"%s} {\n"
             "func.func @k(%%x: !pto.ptr<f32>, %%out: !pto.ptr<f32>) attributes {pto.entry} {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%c1 = arith.constant 1 : index\n"
             "  %%c16 = arith.constant 16 : index\n"
             "  %%one = arith.constant 1.0 : f32\n"
             "  %%vx = pto.make_tensor_view %%x, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
             "  %%vo = pto.make_tensor_view %%out, shape = [%%c16, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<16x16xf32>\n"
             "  pto.section.vector {\n"
             "    pto.aiv_initialize_pipe {dir_mask = 2, slot_size = 2048}\n"
             "    %%t = pto.alloc_tile : " VEC16 "\n"
             "    pto.tload ins(%%vx : !pto.tensor_view<16x16xf32>) outs(%%t : " VEC16 ")\n"
             "    pto.tpush_to_aic(%%t : " VEC16 ") {split = %d}\n"
             "    %%o = pto.alloc_tile : " VEC16 "\n"
             "    pto.tload ins(%%vo : !pto.tensor_view<16x16xf32>) outs(%%o : " VEC16 ")\n"
             "    pto.tadds ins(%%o, %%one : " VEC16 ", f32) outs(%%o : " VEC16 ")\n"
             "    pto.tstore ins(%%o : " VEC16 ") outs(%%vo : !pto.tensor_view<16x16xf32>)\n"
             "  }\n"
             "  pto.section.cube {\n"
             "    pto.aic_initialize_pipe {dir_mask = 2, slot_size = 2048}\n"
             "    %%m = pto.tpop_from_aiv {split = %d} -> " MAT "\n"
             "    pto.tfree_from_aiv {split = %d}\n"
             "  }\n"
             "  return\n"
             "}\n"
             "}\n",
             attr, split, split, split);
}

static void test_vector_cores_asked(void **state) {
    (void)state;
    static char text[8192];
    for (int cores = 1; cores <= 2; ++cores) {
        vector_cores_text(text, sizeof text, cores == 1 ? ", libpto.vector_cores = 1" : "", 0);
        pto_program *p = program_build(text, NULL);
        float x[256], out[256];
        for (int i = 0; i < 256; ++i) {
            x[i] = (float)(i % 13) - 6.0f;
            out[i] = (float)(i % 5);
        }
        pto_args *a = NULL;
        assert_int_equal(pto_args_create(p, &a), PTO_OK);
        assert_int_equal(pto_args_set_pointer(a, 0, x, sizeof x), PTO_OK);
        assert_int_equal(pto_args_set_pointer(a, 1, out, sizeof out), PTO_OK);
        if (pto_program_launch(p, 1, a) != PTO_OK) fail_msg("run: %s", pto_last_error());
        for (int i = 0; i < 256; ++i)
            if (out[i] != (float)(i % 5) + (float)cores) fail_msg("%d vector cores: out[%d] = %g", cores, i, (double)out[i]);
        pto_args_destroy(a);
        pto_program_destroy(p);
    }
    vector_cores_text(text, sizeof text, ", libpto.vector_cores = 3", 0);
    expect_program_refused_with(text, NULL, "libpto.vector_cores must be 1 or 2");
    vector_cores_text(text, sizeof text, ", libpto.vector_cores = 1", 1);
    expect_program_refused_with(text, NULL,
                                "pto.tpush_to_aic splits its tile between two vector cores; the module asks for one "
                                "(libpto.vector_cores = 1)");
    printf("[vector cores] out + 1 with libpto.vector_cores = 1, out + 2 by default under A5; 3 and a split refused\n");
}

/* Board mode: under A2A3 vector core 0 pushes a 16x16 tile without a split
 * and vector core 1 an empty (0x0 valid) one, as PyPTO's exports do for the
 * sub-block that has no rows. Each core stores its tile at the slot's start
 * (pto-isa a2a3/TPush.hpp TILE_NO_SPLIT), the empty one nothing: the cube
 * pops core 0's tile, x's window bit for bit, with one warning. The default
 * mode refuses the second push with its sentence. */
static int empty_part_warnings;
static void count_warning(const char *message, void *user_data) {
    (void)user_data;
    if (strstr(message, "warning: board mode: pto.tpush_to_aic: vector core 1 pushes a 0x0 f32 tile without a "
                        "split to pipe 0 (vector to cube), where another vector core pushed a 16x16 f32 one") != NULL)
        ++empty_part_warnings;
}

static void test_board_empty_part(void **state) {
    (void)state;
    static const char *text =
        "module attributes {pto.target_arch = \"a2a3\"} {\n"
        "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %gm: !pto.ptr<f32>) attributes {pto.entry} {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        "  %vx = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "  %vy = pto.make_tensor_view %y, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<16x16xf32>\n"
        "  pto.section.vector {\n"
        "    pto.aiv_initialize_pipe {dir_mask = 2, slot_size = 1024} (gm_slot_buffer = %gm : !pto.ptr<f32>)\n"
        "    %sb = pto.get_subblock_idx\n"
        "    %si = arith.index_cast %sb : i64 to index\n"
        "    %keep = arith.subi %c1, %si : index\n"
        "    %n = arith.muli %keep, %c16 : index\n"
        "    %px = pto.partition_view %vx, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<16x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "    %t = pto.alloc_tile valid_row = %n valid_col = %n : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
        "    pto.tload ins(%px : !pto.partition_tensor_view<16x16xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n"
        "    pto.tpush_to_aic(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {split = 0}\n"
        "  }\n"
        "  pto.section.cube {\n"
        "    pto.aic_initialize_pipe {dir_mask = 2, slot_size = 1024} (gm_slot_buffer = %gm : !pto.ptr<f32>)\n"
        "    %m = pto.tpop_from_aiv {split = 0} -> " MAT "\n"
        "    %py = pto.partition_view %vy, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<16x16xf32> -> !pto.partition_tensor_view<16x16xf32>\n"
        "    pto.tstore ins(%m : " MAT ") outs(%py : !pto.partition_tensor_view<16x16xf32>)\n"
        "    pto.tfree_from_aiv {split = 0}\n"
        "  }\n"
        "  return\n"
        "}\n"
        "}\n";
    pto_program *p = program_build(text, NULL);
    static float x[16 * 16], y[16 * 16], gm[512];
    for (size_t i = 0; i < COUNT(x); ++i) x[i] = (float)i * 0.25f - 7.0f;
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 0, x, sizeof x), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 1, y, sizeof y), PTO_OK);
    assert_int_equal(pto_args_set_pointer(a, 2, gm, sizeof gm), PTO_OK);
    for (int board = 0; board <= 1; ++board) {
        empty_part_warnings = 0;
        pto_set_warning_handler(count_warning, NULL);
        assert_int_equal(pto_set_board_mode(board), PTO_OK);
        const pto_status s = pto_program_launch(p, 1, a);
        assert_int_equal(pto_set_board_mode(0), PTO_OK);
        pto_set_warning_handler(NULL, NULL);
        if (!board) {
            const char *want = ":17:5: error: pto.tpush_to_aic: vector core 1 pushes its part of a 0x0 f32 tile to "
                               "pipe 0 (vector to cube), where another vector core's push (line 17) began a 16x16 "
                               "f32 one";
            if (s == PTO_OK || strstr(pto_last_error(), want) == NULL)
                fail_msg("default mode: %s, expected: %s", s == PTO_OK ? "ran" : pto_last_error(), want);
            continue;
        }
        if (s != PTO_OK) fail_msg("board mode run: %s", pto_last_error());
        assert_int_equal(empty_part_warnings, 1);
    }
    pto_args_destroy(a);
    pto_program_destroy(p);
    printf("[board empty part] an empty no-split push stores nothing: the cube pops core 0's tile, one warning\n");
}

int main(void) {
    /* qemu-user may hang a thread of a dynamically linked program: every
     * launch on one thread there. */
    if (getenv("PTO_TEST_UNDER_QEMU") != NULL) setenv("PTO_NUM_THREADS", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attention_through_pipes),
        cmocka_unit_test(test_sections_halves_to_cube),
        cmocka_unit_test(test_slots_in_global_memory),
        cmocka_unit_test(test_deadlocks),
        cmocka_unit_test(test_run_refusals),
        cmocka_unit_test(test_acc_windows_pushed),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_board_empty_part),
        cmocka_unit_test(test_vector_cores_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
