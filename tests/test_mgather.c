/* MGATHER and MSCATTER (pto_mgather, pto_mscatter) against the pages'
 * definitions written here: Row coalesce dst[r, :] = table[idx[r], :] and
 * Elem coalesce dst[r, c] = table[idx[r, c]] (MSCATTER the inverse, the
 * last writer in row-major order winning), over every dtype with padded
 * tiles, on every profile; the rules in order with nothing written on a
 * refusal (an index out of range, wrong dtypes, NULLs, overlapping storage);
 * their rows of the operation table; the text forms over a program's global
 * memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

static const pto_dtype kDtypes[] = {PTO_INT8,  PTO_UINT8,   PTO_INT16,    PTO_UINT16, PTO_INT32,
                                    PTO_UINT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};

static uint64_t table_get(const void *table, size_t size, size_t k) {
    uint64_t v = 0;
    memcpy(&v, (const char *)table + k * size, size);
    return v;
}

/* The table element tile element (r, c) names under the page's mode. */
static size_t named_element(const pto_tile *idx, pto_coalesce mode, uint32_t r, uint32_t c, uint32_t cols) {
    if (mode == PTO_COALESCE_ELEM) return (size_t)tile_get(idx, r, c);
    const uint64_t row = pto_tile_valid_rows(idx) == 1 && pto_tile_valid_cols(idx) != 1 ? tile_get(idx, 0, r)
                                                                                       : tile_get(idx, r, 0);
    return (size_t)row * cols + c;
}

static void *random_table(pto_dtype dt, size_t n, rng *r) {
    const size_t size = pto_dtype_size(dt);
    unsigned char *t = malloc(n * size + 1);
    for (size_t k = 0; k < n * size; ++k) t[k] = (unsigned char)rng_next(r);
    return t;
}

static void test_mgather_values(void **state) {
    (void)state;
    /* tile rows, cols, valid rows, valid cols; table elements */
    static const uint32_t kShapes[][5] = {{1, 1, 1, 1, 1},    {8, 32, 8, 32, 256}, {8, 40, 5, 33, 700},
                                          {4, 16, 4, 16, 64}, {3, 8, 0, 0, 10},    {16, 64, 16, 64, 4096}};
    rng r = {0x6A7};
    size_t calls = 0;
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        for (size_t t = 0; t < COUNT(kDtypes); ++t)
            for (size_t k = 0; k < COUNT(kShapes); ++k)
                for (int mode = 0; mode < 2; ++mode)
                    for (int column = 0; column < (mode == PTO_COALESCE_ROW ? 2 : 1); ++column) {
                        const uint32_t *sh = kShapes[k];
                        const pto_dtype dt = kDtypes[t];
                        const size_t size = pto_dtype_size(dt), n = sh[4];
                        const pto_coalesce m = (pto_coalesce)mode;
                        pto_tile *tile = tile_new(dt, sh[0], sh[1], sh[2], sh[3]);
                        pto_tile *idx = m == PTO_COALESCE_ELEM ? tile_new(PTO_INT32, sh[0], sh[1], sh[2], sh[3])
                                        : column ? tile_new(PTO_UINT32, sh[0] ? sh[0] : 1, 1, sh[2], 1)
                                                 : tile_new(PTO_INT32, 1, sh[0], 1, sh[2]);
                        const size_t capacity = m == PTO_COALESCE_ROW ? (sh[3] ? n / sh[3] : 0) : n;
                        for (uint32_t i = 0; i < pto_tile_rows(idx); ++i)
                            for (uint32_t j = 0; j < pto_tile_cols(idx); ++j)
                                tile_put(idx, i, j, capacity ? rng_next(&r) % capacity : 0);
                        void *table = random_table(dt, n, &r);
                        tile_fill(tile, &r, GEN_ANY);
                        uint64_t *before = tile_snapshot(tile);
                        char what[96];
                        snprintf(what, sizeof what, "%s %s %s %ux%u", pto_profile_string((pto_profile)p),
                                 pto_dtype_string(dt), m == PTO_COALESCE_ROW ? "row" : "elem", sh[2], sh[3]);
                        expect_status(pto_mgather(tile, table, n, dt, idx, m), PTO_OK, what);
                        for (uint32_t i = 0; i < sh[0]; ++i)
                            for (uint32_t j = 0; j < sh[1]; ++j) {
                                const bool valid = i < sh[2] && j < sh[3];
                                const uint64_t want = valid ? table_get(table, size, named_element(idx, m, i, j, sh[3]))
                                                            : before[(size_t)i * sh[1] + j];
                                if (tile_get(tile, i, j) != want)
                                    fail_msg("%s: dst (%u,%u) 0x%llx, want 0x%llx", what, i, j,
                                             (unsigned long long)tile_get(tile, i, j), (unsigned long long)want);
                            }
                        /* MSCATTER of the same tile into a fresh table: the
                         * reference writes in row-major order, the last winning. */
                        void *out = random_table(dt, n, &r);
                        unsigned char *want = malloc(n * size + 1);
                        memcpy(want, out, n * size);
                        for (uint32_t i = 0; i < sh[2]; ++i)
                            for (uint32_t j = 0; j < sh[3]; ++j) {
                                const uint64_t v = tile_get(tile, i, j);
                                memcpy(want + named_element(idx, m, i, j, sh[3]) * size, &v, size);
                            }
                        expect_status(pto_mscatter(out, n, dt, tile, idx, m), PTO_OK, what);
                        if (memcmp(out, want, n * size) != 0) fail_msg("%s: mscatter's table differs", what);
                        calls += 2;
                        free(before);
                        free(table);
                        free(out);
                        free(want);
                        TILES_DESTROY(tile, idx);
                    }
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    print_message("[mgather/mscatter] %zu calls against the pages' definitions\n", calls);
}

/* Hand cases: Elem with repeated indices (the scatter's last writer), Row. */
static void test_mgather_cases(void **state) {
    (void)state;
    int32_t table[6] = {10, 11, 12, 13, 14, 15};
    pto_tile *dst = tile_new(PTO_INT32, 1, 3, 1, 3), *idx = tile_new(PTO_INT32, 1, 3, 1, 3);
    static const uint64_t kIdx[] = {5, 0, 5};
    for (uint32_t j = 0; j < 3; ++j) tile_put(idx, 0, j, kIdx[j]);
    assert_int_equal(pto_mgather(dst, table, 6, PTO_INT32, idx, PTO_COALESCE_ELEM), PTO_OK);
    assert_int_equal(tile_get(dst, 0, 0), 15);
    assert_int_equal(tile_get(dst, 0, 1), 10);
    assert_int_equal(tile_get(dst, 0, 2), 15);
    tile_put(dst, 0, 0, 100);
    tile_put(dst, 0, 1, 101);
    tile_put(dst, 0, 2, 102);
    assert_int_equal(pto_mscatter(table, 6, PTO_INT32, dst, idx, PTO_COALESCE_ELEM), PTO_OK);
    assert_int_equal(table[5], 102); /* (0,2) writes after (0,0) */
    assert_int_equal(table[0], 101);
    assert_int_equal(table[1], 11);
    /* Row: a 3x2 table, rows 2 and 0. */
    float rows[6] = {1, 2, 3, 4, 5, 6};
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 2, 2, 2), *ri = tile_new(PTO_INT32, 2, 1, 2, 1);
    tile_put(ri, 0, 0, 2);
    tile_put(ri, 1, 0, 0);
    assert_int_equal(pto_mgather(f, rows, 6, PTO_FLOAT32, ri, PTO_COALESCE_ROW), PTO_OK);
    assert_int_equal(tile_get(f, 0, 0), 0x40A00000); /* 5 */
    assert_int_equal(tile_get(f, 0, 1), 0x40C00000); /* 6 */
    assert_int_equal(tile_get(f, 1, 0), 0x3F800000); /* 1 */
    TILES_DESTROY(dst, idx, f, ri);
}

static void test_mgather_rules(void **state) {
    (void)state;
    int32_t table[16];
    for (int k = 0; k < 16; ++k) table[k] = 1000 + k;
    int32_t kept[16];
    memcpy(kept, table, sizeof table);
    pto_tile *dst = tile_new(PTO_INT32, 2, 4, 2, 4), *idx = tile_new(PTO_INT32, 2, 4, 2, 4);
    pto_tile *f = tile_new(PTO_FLOAT32, 2, 4, 2, 4), *i16 = tile_new(PTO_INT16, 2, 4, 2, 4);
    pto_tile *i64 = tile_new(PTO_INT64, 2, 4, 2, 4), *wide = tile_new(PTO_INT32, 2, 5, 2, 5);
    pto_tile *rowidx = tile_new(PTO_INT32, 1, 3, 1, 3);
    pto_tile *cube = NULL;
    assert_int_equal(pto_tile_create_cube(PTO_FLOAT32, 16, 8, PTO_LOC_MAT, PTO_LAYOUT_ND, &cube), PTO_OK);
    for (uint32_t k = 0; k < 8; ++k) tile_put(idx, k / 4, k % 4, k * 2);
    rng r = {0x6A8};
    tile_fill(dst, &r, GEN_ANY);
    for (int p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p) {
        assert_int_equal(pto_set_profile((pto_profile)p), PTO_OK);
        uint64_t *before = tile_snapshot(dst);
        const pto_coalesce E = PTO_COALESCE_ELEM;
        expect_status(pto_mgather(NULL, table, 16, PTO_INT32, idx, E), PTO_ERR_NULL_ARGUMENT, "NULL dst");
        expect_status(pto_mgather(dst, NULL, 16, PTO_INT32, idx, E), PTO_ERR_NULL_ARGUMENT, "NULL table");
        assert_non_null(strstr(pto_last_error(), "pto_mgather: table"));
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, NULL, E), PTO_ERR_NULL_ARGUMENT, "NULL indices");
        expect_status(pto_mscatter(NULL, 16, PTO_INT32, dst, idx, E), PTO_ERR_NULL_ARGUMENT, "NULL scatter table");
        expect_status(pto_mgather(cube, table, 16, PTO_FLOAT32, idx, E), PTO_ERR_INVALID_ARGUMENT, "cube dst");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, idx, (pto_coalesce)2), PTO_ERR_INVALID_ARGUMENT, "coalesce 2");
        expect_status(pto_mgather(i64, table, 16, PTO_INT64, idx, E), PTO_ERR_UNSUPPORTED_DTYPE, "INT64 dst");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, i16, E), PTO_ERR_UNSUPPORTED_DTYPE, "INT16 indices");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, f, E), PTO_ERR_UNSUPPORTED_DTYPE, "FLOAT32 indices");
        expect_status(pto_mgather(dst, table, SIZE_MAX / 2, PTO_INT32, idx, E), PTO_ERR_INVALID_ARGUMENT, "huge table");
        expect_status(pto_mgather(dst, table, 16, PTO_FLOAT32, idx, E), PTO_ERR_DTYPE_MISMATCH, "table_dtype FLOAT32");
        /* A table_dtype outside the enum is compared and quoted as the int it
         * is (never loaded as a pto_dtype: UBSan's enum check), in every form. */
        expect_status(pto_mgather(dst, table, 16, (pto_dtype)100, idx, E), PTO_ERR_DTYPE_MISMATCH, "table_dtype 100");
        assert_non_null(strstr(pto_last_error(), "table_dtype 100 is not"));
        expect_status(pto_mscatter(table, 16, (pto_dtype)-7, dst, idx, E), PTO_ERR_DTYPE_MISMATCH, "table_dtype -7");
        expect_status(pto_mgather_oob(dst, table, 16, (pto_dtype)100, idx, E, PTO_GATHER_OOB_CLAMP),
                      PTO_ERR_DTYPE_MISMATCH, "mgather_oob table_dtype 100");
        expect_status(pto_mscatter_ex(table, 16, (pto_dtype)1000, dst, idx, E, PTO_SCATTER_ATOMIC_NONE,
                                      PTO_SCATTER_OOB_SKIP),
                      PTO_ERR_DTYPE_MISMATCH, "mscatter_ex table_dtype 1000");
        expect_status(pto_mgather(dst, pto_tile_data(dst), 8, PTO_INT32, idx, E), PTO_ERR_ALIASING, "table is dst");
        expect_status(pto_mgather(dst, pto_tile_data(idx), 8, PTO_INT32, idx, E), PTO_ERR_ALIASING, "table is indices");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, dst, E), PTO_ERR_ALIASING, "indices is dst");
        expect_status(pto_mscatter(pto_tile_data(dst), 8, PTO_INT32, dst, idx, E), PTO_ERR_ALIASING, "scatter into src");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, wide, E), PTO_ERR_SHAPE_MISMATCH, "elem region");
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, rowidx, PTO_COALESCE_ROW), PTO_ERR_SHAPE_MISMATCH, "1x3 for 2 rows");
        tile_put(idx, 1, 3, 16);
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, idx, E), PTO_ERR_OUT_OF_RANGE, "index 16");
        assert_non_null(strstr(pto_last_error(), "indices (1, 3) is 16"));
        expect_status(pto_mscatter(table, 16, PTO_INT32, dst, idx, E), PTO_ERR_OUT_OF_RANGE, "scatter index 16");
        tile_put(idx, 1, 3, 0xFFFFFFFFu);
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, idx, E), PTO_ERR_OUT_OF_RANGE, "index -1");
        assert_non_null(strstr(pto_last_error(), "is -1"));
        tile_put(idx, 1, 3, 6);
        /* Row: 16 elements of 4-column rows are 4 table rows; index 4 is past them. */
        pto_tile *ri = tile_new(PTO_INT32, 2, 1, 2, 1);
        tile_put(ri, 1, 0, 4);
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, ri, PTO_COALESCE_ROW), PTO_ERR_OUT_OF_RANGE, "row 4");
        expect_status(pto_mgather(dst, table, 18, PTO_INT32, ri, PTO_COALESCE_ROW), PTO_ERR_OUT_OF_RANGE, "row 4 of 18");
        assert_tile_unchanged(dst, before, "refused mgather");
        assert_memory_equal(table, kept, sizeof table);
        tile_put(ri, 1, 0, 3);
        expect_status(pto_mgather(dst, table, 16, PTO_INT32, ri, PTO_COALESCE_ROW), PTO_OK, "row 3");
        pto_tile_destroy(ri);
        tile_fill(dst, &r, GEN_ANY);
        free(before);
    }
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_tile_destroy(cube);
    TILES_DESTROY(dst, idx, f, i16, i64, wide, rowidx);
}

/* mgather and mscatter are rows of the operation table: their operands'
 * roles give the table a place (the Table and TableDst roles), and the
 * tests' generic call of every row (op_call) passes op_table there. */
static void test_mgather_rows(void **state) {
    (void)state;
    assert_true(op_row(OP_MGATHER)->traits & PTO_TRAIT_Table);
    assert_false(op_row(OP_MGATHER)->traits & PTO_TRAIT_NoDst);
    assert_true(op_row(OP_MSCATTER)->traits & PTO_TRAIT_Table);
    assert_true(op_row(OP_MSCATTER)->traits & PTO_TRAIT_NoDst);
    assert_int_equal(op_row(OP_MSCATTER)->source_count, 2);
    pto_tile *dst = tile_new(PTO_INT32, 2, 4, 2, 4), *src = tile_new(PTO_INT32, 2, 4, 2, 4);
    pto_tile *idx = tile_new(PTO_INT32, 2, 4, 2, 4);
    const size_t n = op_table_elements(dst);
    assert_int_equal(n, sizeof op_table / 4);
    for (size_t k = 0; k < n; ++k) {
        const int32_t v = (int32_t)(3 * k + 1);
        memcpy(op_table + 4 * k, &v, 4);
    }
    for (uint32_t k = 0; k < 8; ++k) {
        tile_put(idx, k / 4, k % 4, 7 * k + 2);
        tile_put(src, k / 4, k % 4, 500 + k);
    }
    /* mgather (dst, table, indices): the generic call's indices are src1. */
    assert_int_equal(op_call(OP_MGATHER, PTO_POW_DEFAULT, dst, src, idx, NULL), PTO_OK);
    for (uint32_t k = 0; k < 8; ++k) assert_int_equal(tile_get(dst, k / 4, k % 4), 3 * (7 * k + 2) + 1);
    /* mscatter (table, src, indices): src0 into op_table at src1's indices. */
    assert_int_equal(op_call(OP_MSCATTER, PTO_POW_DEFAULT, NULL, src, idx, NULL), PTO_OK);
    for (size_t k = 0; k < n; ++k) {
        const bool named = k >= 2 && (k - 2) % 7 == 0 && (k - 2) / 7 < 8;
        assert_int_equal(table_get(op_table, 4, k), named ? 500 + (k - 2) / 7 : 3 * k + 1);
    }
    TILES_DESTROY(dst, src, idx);
}

#define TF "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TI "!pto.tile_buf<loc=vec, dtype=i32, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define TR "!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=16, v_row=1, v_col=4, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* A kernel over a 64-element f32 table, an i32 index array and a 4x16 f32
 * array: mgather (table -> tile -> the array) or mscatter (the array ->
 * tile -> table), Elem (4x16 indices) or Row (1x4 indices, 16-element rows),
 * with `attrs` as the operation's attribute dictionary. */
static void global_text(char *text, size_t size, bool scatter, bool row, const char *attrs) {
    const char *it = row ? TR : TI;
    const char *ishape = row ? "[%c1, %c4]" : "[%c4, %c16]";
    const char *istr = row ? "[%c4, %c1]" : "[%c16, %c1]";
    const char *ipart = row ? "!pto.partition_tensor_view<1x4xi32>" : "!pto.partition_tensor_view<4x16xi32>";
    char op[2048];
    if (scatter)
        snprintf(op, sizeof op,
                 "    pto.tload ins(%%ap : !pto.partition_tensor_view<4x16xf32>) outs(%%dt : " TF ")\n"
                 "    pto.mscatter ins(%%dt, %%it : " TF ", %s) outs(%%tp : !pto.partition_tensor_view<64xf32>) %s\n",
                 it, attrs);
    else
        snprintf(op, sizeof op,
                 "    pto.mgather ins(%%tp, %%it : !pto.partition_tensor_view<64xf32>, %s) outs(%%dt : " TF ") %s\n"
                 "    pto.tstore ins(%%dt : " TF ") outs(%%ap : !pto.partition_tensor_view<4x16xf32>)\n",
                 it, attrs);
    snprintf(text, size,
             "module {\n"
             "  func.func @k(%%tab: !pto.ptr<f32>, %%ind: !pto.ptr<i32>, %%arr: !pto.ptr<f32>) {\n"
             "    %%c0 = arith.constant 0 : index\n    %%c1 = arith.constant 1 : index\n"
             "    %%c4 = arith.constant 4 : index\n    %%c16 = arith.constant 16 : index\n"
             "    %%c64 = arith.constant 64 : index\n"
             "    %%tv = pto.make_tensor_view %%tab, shape = [%%c64], strides = [%%c1] : !pto.tensor_view<?xf32>\n"
             "    %%iv = pto.make_tensor_view %%ind, shape = %s, strides = %s : !pto.tensor_view<?x?xi32>\n"
             "    %%av = pto.make_tensor_view %%arr, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?xf32>\n"
             "    %%it = pto.alloc_tile : %s\n    %%dt = pto.alloc_tile : " TF "\n"
             "    %%ip = pto.partition_view %%iv, offsets = [%%c0, %%c0], sizes = %s : !pto.tensor_view<?x?xi32> -> %s\n"
             "    pto.tload ins(%%ip : %s) outs(%%it : %s)\n"
             "    %%tp = pto.partition_view %%tv, offsets = [%%c0], sizes = [%%c64] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<64xf32>\n"
             "    %%ap = pto.partition_view %%av, offsets = [%%c0, %%c0], sizes = [%%c4, %%c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x16xf32>\n"
             "%s    return\n  }\n}\n",
             ishape, istr, it, ishape, ipart, ipart, it, op);
}

static pto_status run_global(const char *text, float *table, int32_t *idx, size_t nidx, float *arr) {
    pto_program *p = program_build(text, NULL);
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, table, 64 * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, idx, nidx * 4), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 2, arr, 64 * 4), PTO_OK);
    const pto_status status = pto_program_run(p, args);
    pto_args_destroy(args);
    pto_program_destroy(p);
    return status;
}

/* PTOAS's text forms over a program's global memory equal the C calls; an
 * index past the table refuses the run with nothing written; the refused
 * spellings. */
static void test_mgather_programs(void **state) {
    (void)state;
    static char text[8192];
    rng r = {0x6A9};
    size_t runs = 0;
    for (int scatter = 0; scatter < 2; ++scatter)
        for (int row = 0; row < 2; ++row) {
            float table[64], arr[64], want_table[64], want_arr[64];
            int32_t idx[64];
            const size_t nidx = row ? 4 : 64;
            for (size_t k = 0; k < 64; ++k) {
                table[k] = (float)(rng_next(&r) % 1000);
                arr[k] = (float)(rng_next(&r) % 1000) + 0.5f;
                idx[k] = (int32_t)(rng_next(&r) % (row ? 4 : 64));
            }
            memcpy(want_table, table, sizeof table);
            memcpy(want_arr, arr, sizeof arr);
            /* the C call on tiles of the same values */
            pto_tile *tile = tile_new(PTO_FLOAT32, 4, 16, 4, 16);
            pto_tile *it = row ? tile_new(PTO_INT32, 1, 16, 1, 4) : tile_new(PTO_INT32, 4, 16, 4, 16);
            for (size_t k = 0; k < nidx; ++k) tile_put(it, row ? 0 : k / 16, row ? k : k % 16, (uint32_t)idx[k]);
            const pto_coalesce m = row ? PTO_COALESCE_ROW : PTO_COALESCE_ELEM;
            if (scatter) {
                assert_int_equal(pto_tile_write_f32(tile, arr, 64), PTO_OK);
                assert_int_equal(pto_mscatter(want_table, 64, PTO_FLOAT32, tile, it, m), PTO_OK);
            } else {
                assert_int_equal(pto_mgather(tile, table, 64, PTO_FLOAT32, it, m), PTO_OK);
                assert_int_equal(pto_tile_read_f32(tile, want_arr, 64), PTO_OK);
            }
            global_text(text, sizeof text, scatter, row, row ? "{coalesce = #pto<coalesce row>}"
                                                              : "{coalesce = #pto<coalesce elem>}");
            const pto_status run = run_global(text, table, idx, nidx, arr);
            if (run != PTO_OK) fail_msg("%s %s: run %s (%s)", scatter ? "mscatter" : "mgather", row ? "row" : "elem",
                                        pto_status_string(run), pto_last_error());
            assert_memory_equal(table, want_table, sizeof table);
            assert_memory_equal(arr, want_arr, sizeof arr);
            /* one index past the table: refused, nothing written */
            idx[nidx - 1] = row ? 4 : 64;
            const pto_status refused = run_global(text, table, idx, nidx, arr);
            assert_int_equal(refused, PTO_ERR_OUT_OF_RANGE);
            assert_non_null(strstr(pto_last_error(), scatter ? "pto_mscatter" : "pto_mgather"));
            assert_memory_equal(table, want_table, sizeof table);
            assert_memory_equal(arr, want_arr, sizeof arr);
            runs += 2;
            TILES_DESTROY(tile, it);
        }
    /* the refused spellings */
    global_text(text, sizeof text, false, false, "");
    expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT); /* coalesce required */
    global_text(text, sizeof text, true, false, "{coalesce = #pto<coalesce elem>, scatterAtomicOp = #pto<scatter_atomic_op mul>}");
    expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT);
    /* scatterAtomicOp add, max, min with scatterOob skip: pto_mscatter_ex's
     * result on the same values (indices repeated and some past the table). */
    static const char *const kAtomics[] = {"add", "max", "min"};
    for (int a = 0; a < 3; ++a) {
        float table[64], arr[64], want_table[64];
        int32_t idx[64];
        for (size_t k = 0; k < 64; ++k) {
            table[k] = (float)(rng_next(&r) % 1000);
            arr[k] = (float)(rng_next(&r) % 1000) - 500.5f;
            idx[k] = (int32_t)(rng_next(&r) % 80); /* 64..79 past the table: skipped */
        }
        memcpy(want_table, table, sizeof table);
        pto_tile *tile = tile_new(PTO_FLOAT32, 4, 16, 4, 16), *it = tile_new(PTO_INT32, 4, 16, 4, 16);
        for (size_t k = 0; k < 64; ++k) tile_put(it, k / 16, k % 16, (uint32_t)idx[k]);
        assert_int_equal(pto_tile_write_f32(tile, arr, 64), PTO_OK);
        assert_int_equal(pto_mscatter_ex(want_table, 64, PTO_FLOAT32, tile, it, PTO_COALESCE_ELEM,
                                         (pto_scatter_atomic)(a + 1), PTO_SCATTER_OOB_SKIP),
                         PTO_OK);
        char attrs[160];
        snprintf(attrs, sizeof attrs,
                 "{coalesce = #pto<coalesce elem>, scatterAtomicOp = #pto<scatter_atomic_op %s>, "
                 "scatterOob = #pto<scatter_oob skip>}",
                 kAtomics[a]);
        global_text(text, sizeof text, true, false, attrs);
        assert_int_equal(run_global(text, table, idx, 64, arr), PTO_OK);
        assert_memory_equal(table, want_table, sizeof table);
        /* A2A3 has no atomic max / min: refused when the instruction runs */
        assert_int_equal(pto_set_profile(PTO_PROFILE_A2A3), PTO_OK);
        assert_int_equal(run_global(text, table, idx, 64, arr), a == 0 ? PTO_OK : PTO_ERR_UNSUPPORTED_DTYPE);
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        runs += 2;
        TILES_DESTROY(tile, it);
    }
    global_text(text, sizeof text, true, false, "{coalesce = #pto<coalesce elem>, scatterConflict = #pto<scatter_conflict last>}");
    pto_program_destroy(program_build(text, NULL));
    /* The OOB modes (the pages' GatherOOB, ScatterOOB; indices read unsigned):
     * index 64 + k and -1 under clamp, wrap, zero (gather) and skip (scatter). */
    static const char *const kGatherModes[] = {"clamp", "wrap", "zero"};
    for (int scatter = 0; scatter < 2; ++scatter)
        for (size_t m = 0; m < 3; ++m) {
            float table[64], arr[64], want_table[64], want_arr[64];
            int32_t idx[64];
            for (size_t k = 0; k < 64; ++k) {
                table[k] = (float)k + 1000.0f;
                arr[k] = (float)k;
                idx[k] = k % 4 == 1 ? (int32_t)(64 + k) : k % 4 == 3 ? -1 : (int32_t)k;
            }
            memcpy(want_table, table, sizeof table);
            memcpy(want_arr, arr, sizeof arr);
            const char *mode = scatter && m == 2 ? "skip" : kGatherModes[m];
            for (size_t k = 0; k < 64; ++k) {
                const uint32_t u = (uint32_t)idx[k];
                const bool out = u >= 64;
                const size_t at = !out ? u : m == 0 ? 63 : m == 1 ? u % 64 : SIZE_MAX;
                if (scatter) {
                    if (at != SIZE_MAX) want_table[at] = arr[k];
                } else {
                    want_arr[k] = at == SIZE_MAX ? 0.0f : table[at];
                }
            }
            char attrs[128];
            snprintf(attrs, sizeof attrs, "{coalesce = #pto<coalesce elem>, %s = #pto<%s %s>}",
                     scatter ? "scatterOob" : "gatherOob", scatter ? "scatter_oob" : "gather_oob", mode);
            global_text(text, sizeof text, scatter, false, attrs);
            const pto_status run = run_global(text, table, idx, 64, arr);
            if (run != PTO_OK) fail_msg("%s: run %s (%s)", attrs, pto_status_string(run), pto_last_error());
            assert_memory_equal(table, want_table, sizeof table);
            assert_memory_equal(arr, want_arr, sizeof arr);
            ++runs;
        }
    /* Row coalesce with indices of the tile's shape: refused when created (PTOAS's verifier) */
    global_text(text, sizeof text, false, false, "{coalesce = #pto<coalesce row>}");
    expect_program_refused(text, PTO_ERR_SHAPE_MISMATCH);
    global_text(text, sizeof text, false, false, "{gatherOob = #pto<gather_oob zero>}");
    expect_program_refused(text, PTO_ERR_INVALID_ARGUMENT); /* a mode without coalesce */
    /* mscatter without coalesce: indices of src's shape are per element */
    {
        float table[64], arr[64], want[64];
        int32_t idx[64];
        for (size_t k = 0; k < 64; ++k) {
            table[k] = -1.0f;
            arr[k] = (float)k;
            idx[k] = (int32_t)(63 - k);
        }
        for (size_t k = 0; k < 64; ++k) want[63 - k] = (float)k;
        global_text(text, sizeof text, true, false, "");
        assert_int_equal(run_global(text, table, idx, 64, arr), PTO_OK);
        assert_memory_equal(table, want, sizeof table);
        ++runs;
    }
    print_message("[mgather/mscatter] %zu program runs equal to the C calls or refused, 4 refused programs\n", runs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mgather_cases),
        cmocka_unit_test(test_mgather_values),
        cmocka_unit_test(test_mgather_rules),
        cmocka_unit_test(test_mgather_rows),
        cmocka_unit_test(test_mgather_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
