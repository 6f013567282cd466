/* Every exported function of pto_c.h that takes an index, offset, count or
 * byte size, walked with 0, the bound, the bound + 1, 2^31, 2^32, 2^63,
 * SIZE_MAX - 1 and SIZE_MAX (a uint32_t parameter: 0, the bound, the bound
 * + 1, 2^31, UINT32_MAX - 1, UINT32_MAX). "The bound" is the largest value
 * the call accepts with the operands given. Out of range is a refusal with
 * the status pto_c.h names and nothing written: the vec tiles lie in one
 * wrapped arena with guard bytes before and after, which must be unchanged
 * byte for byte after a refusal (and the guards after a success); the cube
 * tiles and the caller's buffers are compared with snapshots. In range is
 * PTO_OK.
 *
 * A byte count of the caller's memory (a text's length, a bound pointer's
 * nbytes, a table's elements) is the caller's word for how much memory
 * there is: the library can refuse only a count that runs past the end of
 * the address space, and reads or writes only what indices inside the real
 * memory name. Such a parameter's walk passes the values the memory cannot
 * hold only where nothing is read (a binding, a table whose indices stay in
 * the real memory) and says so where it skips one (a text is read whole).
 *
 * The test prints the (function, parameter) pairs it walks;
 * tests/hardening/check-edge-walk.py fails when pto_c.h declares a function
 * with such a parameter that the list lacks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

/* ---- the values walked --------------------------------------------------- */

enum { kEdgeCount = 8, kEdge32Count = 6 };

static void edges(size_t bound, size_t out[kEdgeCount]) {
    const size_t v[kEdgeCount] = {0, bound, bound + 1, (size_t)1 << 31, (size_t)1 << 32,
                                  (size_t)1 << 63, SIZE_MAX - 1, SIZE_MAX};
    memcpy(out, v, sizeof v);
}

static void edges32(uint32_t bound, uint32_t out[kEdge32Count]) {
    const uint32_t v[kEdge32Count] = {0, bound, bound + 1, UINT32_C(1) << 31, UINT32_MAX - 1, UINT32_MAX};
    memcpy(out, v, sizeof v);
}

/* The walked pairs, printed at the end (check-edge-walk.py reads this
 * file's WALKED lines, not the output). */
static const char *const kWalked[] = {
    "pto_tile_write nbytes",            /* WALKED */
    "pto_tile_read nbytes",             /* WALKED */
    "pto_tile_write_f32 count",         /* WALKED */
    "pto_tile_read_f32 count",          /* WALKED */
    "pto_buffer_create nbytes",         /* WALKED */
    "pto_buffer_wrap nbytes",           /* WALKED */
    "pto_tile_create_at offset",        /* WALKED */
    "pto_textract index_row",           /* WALKED */
    "pto_textract index_col",           /* WALKED */
    "pto_tinsert index_row",            /* WALKED */
    "pto_tinsert index_col",            /* WALKED */
    "pto_tgather_cmp offset",           /* WALKED */
    "pto_tsetval index",                /* WALKED */
    "pto_tgetval index",                /* WALKED */
    "pto_mgather table_elements",       /* WALKED */
    "pto_mscatter table_elements",      /* WALKED */
    "pto_mgather_oob table_elements",   /* WALKED */
    "pto_mscatter_ex table_elements",   /* WALKED */
    "pto_tmrgsort block_len",           /* WALKED */
    "pto_textract_fp index_row",        /* WALKED */
    "pto_textract_fp index_col",        /* WALKED */
    "pto_tinsert_fp index_row",         /* WALKED */
    "pto_tinsert_fp index_col",         /* WALKED */
    "pto_program_create length",        /* WALKED */
    "pto_program_create_entry length",  /* WALKED */
    "pto_program_check length",         /* WALKED */
    "pto_program_param_name index",     /* WALKED */
    "pto_program_param_kind index",     /* WALKED */
    "pto_program_param_dtype index",    /* WALKED */
    "pto_program_param_rows index",     /* WALKED */
    "pto_program_param_cols index",     /* WALKED */
    "pto_program_param_valid_rows index", /* WALKED */
    "pto_program_param_valid_cols index", /* WALKED */
    "pto_program_param_access index",   /* WALKED */
    "pto_args_set_pointer index",       /* WALKED */
    "pto_args_set_pointer nbytes",      /* WALKED */
    "pto_args_set_int index",           /* WALKED */
    "pto_args_set_float index",         /* WALKED */
    "pto_args_set_tile index",          /* WALKED */
    "pto_program_launch blocks",        /* WALKED */
};

/* ---- the guarded arena --------------------------------------------------- */

enum { kGuard = 256, kArenaBytes = 16384 };

static unsigned char g_arena[kGuard + kArenaBytes + kGuard];
static unsigned char g_before[sizeof g_arena];
static pto_buffer *g_buffer;
static size_t g_next; /* the next free offset in the buffer */

static void arena_reset(void) {
    for (size_t k = 0; k < sizeof g_arena; ++k) g_arena[k] = (unsigned char)(0xA5 ^ (k * 7));
    g_next = 0;
    if (g_buffer == NULL) assert_int_equal(pto_buffer_wrap(g_arena + kGuard, kArenaBytes, &g_buffer), PTO_OK);
}

/* A vec tile placed in the arena, its valid region vr x vc, its bytes
 * patterned. */
static pto_tile *placed(pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc) {
    pto_tile *t = NULL;
    const size_t bytes = (size_t)rows * cols * pto_dtype_size(dt);
    g_next = (g_next + 63) & ~(size_t)63;
    assert_true(g_next + bytes <= kArenaBytes);
    assert_int_equal(pto_tile_create_at(dt, rows, cols, g_buffer, g_next, &t), PTO_OK);
    assert_int_equal(pto_tile_set_valid(t, vr, vc), PTO_OK);
    g_next += bytes;
    return t;
}

static void arena_snapshot(void) { memcpy(g_before, g_arena, sizeof g_arena); }

static void guards_unchanged(const char *what, size_t value) {
    if (memcmp(g_arena, g_before, kGuard) != 0 ||
        memcmp(g_arena + kGuard + kArenaBytes, g_before + kGuard + kArenaBytes, kGuard) != 0)
        fail_msg("%s with %zu wrote a guard byte outside every tile", what, value);
}

static void arena_unchanged(const char *what, size_t value) {
    if (memcmp(g_arena, g_before, sizeof g_arena) != 0)
        fail_msg("%s with %zu was refused but changed the caller's memory", what, value);
}

/* A status check that names the call and the value; a refusal leaves a
 * sentence naming the function (a program's: its file, line and column). */
static void expect(const char *what, size_t value, pto_status got, pto_status want) {
    if (got != want)
        fail_msg("%s with %zu: got %s, want %s (%s)", what, value, pto_status_string(got),
                 pto_status_string(want), got == PTO_OK ? "" : pto_last_error());
    if (got != PTO_OK && strncmp(pto_last_error(), "pto_", 4) != 0 && strstr(pto_last_error(), ": error: ") == NULL)
        fail_msg("%s with %zu: the refusal's sentence \"%s\" names no function", what, value,
                 pto_last_error());
}

/* After one call of the walk: the status, and nothing written on a
 * refusal, no guard written on a success. */
static void after(const char *what, size_t value, pto_status got, pto_status want) {
    expect(what, value, got, want);
    if (got == PTO_OK) guards_unchanged(what, value);
    else arena_unchanged(what, value);
}

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    assert_int_equal(pto_tile_create_cube(dt, rows, cols, loc, layout, &t), PTO_OK);
    return t;
}

/* A caller's buffer of n bytes between guards: g + kGuard is the memory. */
static unsigned char *guarded(size_t n) {
    unsigned char *g = malloc(n + 2 * kGuard);
    assert_non_null(g);
    for (size_t k = 0; k < n + 2 * kGuard; ++k) g[k] = (unsigned char)(0x3C ^ k);
    return g;
}

/* ---- whole-tile copies ---------------------------------------------------- */

static void test_whole_tile_copies(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    arena_reset();
    pto_tile *t = placed(PTO_FLOAT16, 4, 16, 4, 16);
    const size_t bytes = 4 * 16 * 2, count = 4 * 16;
    size_t v[kEdgeCount];
    unsigned char *src = guarded(4 * bytes), *kept = malloc(4 * bytes + 2 * kGuard);
    assert_non_null(kept);
    float *f32 = malloc(count * sizeof(float));
    assert_non_null(f32);
    for (size_t k = 0; k < count; ++k) f32[k] = (float)k;
    edges(bytes, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        arena_snapshot();
        after("pto_tile_write", v[k], pto_tile_write(t, src + kGuard, v[k]),
              v[k] == bytes ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        memcpy(kept, src, 4 * bytes + 2 * kGuard);
        arena_snapshot();
        after("pto_tile_read", v[k], pto_tile_read(t, src + kGuard, v[k]),
              v[k] == bytes ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        /* A read writes the caller's bytes: exactly nbytes of them, and none
         * on a refusal. */
        const size_t wrote = v[k] == bytes ? bytes : 0;
        assert_memory_equal(src, kept, kGuard);
        assert_memory_equal(src + kGuard + wrote, kept + kGuard + wrote, 4 * bytes + kGuard - wrote);
    }
    edges(count, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        arena_snapshot();
        after("pto_tile_write_f32", v[k], pto_tile_write_f32(t, f32, v[k]),
              v[k] == count ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        unsigned char *out = guarded(4 * count * sizeof(float));
        arena_snapshot();
        after("pto_tile_read_f32", v[k], pto_tile_read_f32(t, (float *)(void *)(out + kGuard), v[k]),
              v[k] == count ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        for (size_t b = 0; b < kGuard; ++b) assert_int_equal(out[b], (unsigned char)(0x3C ^ b));
        const size_t wrote = v[k] == count ? count * sizeof(float) : 0;
        for (size_t b = kGuard + wrote; b < 4 * count * sizeof(float) + 2 * kGuard; ++b)
            if (out[b] != (unsigned char)(0x3C ^ b)) fail_msg("pto_tile_read_f32 with %zu wrote byte %zu", v[k], b);
        free(out);
    }
    free(src);
    free(kept);
    free(f32);
    pto_tile_destroy(t);
}

/* ---- buffers and placement ------------------------------------------------ */

static void test_buffers_and_placement(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    arena_reset();
    size_t v[kEdgeCount];
    edges(PTO_TILE_MAX_BYTES, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        const pto_status want = v[k] != 0 && v[k] <= PTO_TILE_MAX_BYTES ? PTO_OK : PTO_ERR_INVALID_ARGUMENT;
        pto_buffer *b = NULL;
        expect("pto_buffer_create", v[k], pto_buffer_create(v[k], &b), want);
        if (want == PTO_OK) {
            assert_int_equal(pto_buffer_size(b), v[k]);
            pto_buffer_destroy(b);
        } else {
            assert_null(b);
        }
        /* A wrap claims the bytes without touching them. */
        arena_snapshot();
        expect("pto_buffer_wrap", v[k], pto_buffer_wrap(g_arena + kGuard, v[k], &b), want);
        arena_unchanged("pto_buffer_wrap", v[k]);
        if (want == PTO_OK) pto_buffer_destroy(b);
    }
    /* A 4x32 UINT8 tile (any offset is aligned) in the 16384-byte buffer:
     * the last offset that fits is 16384 - 128. */
    const size_t last = kArenaBytes - 4 * 32;
    edges(last, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        pto_tile *t = NULL;
        arena_snapshot();
        const pto_status want = v[k] <= last ? PTO_OK : PTO_ERR_OUT_OF_RANGE;
        after("pto_tile_create_at", v[k], pto_tile_create_at(PTO_UINT8, 4, 32, g_buffer, v[k], &t), want);
        if (want == PTO_OK) {
            assert_int_equal(pto_tile_offset(t), v[k]);
            pto_tile_destroy(t);
        } else {
            assert_null(t);
        }
    }
}

/* ---- windows: textract, tinsert and their cube and fixpipe forms ---------- */

typedef pto_status (*window_call)(pto_tile *dst, const pto_tile *src, const pto_tile *fp, size_t row,
                                  size_t col);
static pto_status call_textract(pto_tile *d, const pto_tile *s, const pto_tile *fp, size_t r, size_t c) {
    (void)fp;
    return pto_textract(d, s, r, c);
}
static pto_status call_tinsert(pto_tile *d, const pto_tile *s, const pto_tile *fp, size_t r, size_t c) {
    (void)fp;
    return pto_tinsert(d, s, r, c);
}

/* Walks one index of a window call (the other 0): in range up to `bound`.
 * `watched` is a cube dst (snapshotted) or NULL (dst lies in the arena). */
static void walk_window(const char *what, window_call call, pto_tile *dst, const pto_tile *src,
                        const pto_tile *fp, int which, size_t bound, pto_tile *watched) {
    size_t v[kEdgeCount];
    edges(bound, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        uint64_t *kept = watched != NULL ? tile_snapshot(watched) : NULL;
        arena_snapshot();
        const size_t r = which == 0 ? v[k] : 0, c = which == 0 ? 0 : v[k];
        const pto_status got = call(dst, src, fp, r, c);
        after(what, v[k], got, v[k] <= bound ? PTO_OK : PTO_ERR_OUT_OF_RANGE);
        if (kept != NULL) {
            if (got != PTO_OK) assert_tile_unchanged(watched, kept, what);
            free(kept);
        }
    }
}

static void test_windows(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    arena_reset();
    /* The vec form: a 4x8 window of an 8x16 source, an 8x16 destination. */
    pto_tile *src = placed(PTO_FLOAT32, 8, 16, 8, 16), *win = placed(PTO_FLOAT32, 4, 8, 4, 8);
    pto_tile *big = placed(PTO_FLOAT32, 8, 16, 8, 16);
    walk_window("pto_textract index_row", call_textract, win, src, NULL, 0, 4, NULL);
    walk_window("pto_textract index_col", call_textract, win, src, NULL, 1, 8, NULL);
    walk_window("pto_tinsert index_row", call_tinsert, big, win, NULL, 0, 4, NULL);
    walk_window("pto_tinsert index_col", call_tinsert, big, win, NULL, 1, 8, NULL);
    TILES_DESTROY(src, win, big);
    /* The cube forms: a mat NZ tile into a left tile; a vec NZ tile into a
     * mat NZ one. */
    pto_tile *mat = cube(PTO_FLOAT16, 32, 32, PTO_LOC_MAT, PTO_LAYOUT_NZ);
    pto_tile *left = cube(PTO_FLOAT16, 16, 16, PTO_LOC_LEFT, PTO_LAYOUT_NZ);
    walk_window("pto_textract (cube) index_row", call_textract, left, mat, NULL, 0, 16, left);
    walk_window("pto_textract (cube) index_col", call_textract, left, mat, NULL, 1, 16, left);
    pto_tile *vnz = cube(PTO_FLOAT16, 16, 16, PTO_LOC_VEC, PTO_LAYOUT_NZ);
    walk_window("pto_tinsert (cube) index_row", call_tinsert, mat, vnz, NULL, 0, 16, mat);
    walk_window("pto_tinsert (cube) index_col", call_tinsert, mat, vnz, NULL, 1, 16, mat);
    TILES_DESTROY(mat, left, vnz);
}

static void test_fixpipe_windows(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_A5), PTO_OK);
    arena_reset();
    /* tinsert_fp: a 16x32 acc tile (valid 16x29) into a 32x48 HIFLOAT8 vec
     * tile in the arena; rows up to 32 - 16, cols up to 48 - 29. */
    pto_tile *dst = placed(PTO_HIFLOAT8, 32, 48, 3, 33);
    pto_tile *acc = cube(PTO_FLOAT32, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    assert_int_equal(pto_tile_set_valid(acc, 16, 29), PTO_OK);
    pto_tile *fp = cube(PTO_FLOAT16, 1, 32, PTO_LOC_SCALING, PTO_LAYOUT_ND);
    assert_int_equal(pto_tile_set_valid(fp, 1, 29), PTO_OK);
    walk_window("pto_tinsert_fp index_row", pto_tinsert_fp, dst, acc, fp, 0, 16, NULL);
    walk_window("pto_tinsert_fp index_col", pto_tinsert_fp, dst, acc, fp, 1, 19, NULL);
    /* textract_fp: a 4x16 INT8 window of the acc tile: rows up to 12, cols
     * up to 16. */
    pto_tile *win = placed(PTO_INT8, 4, 32, 4, 16);
    walk_window("pto_textract_fp index_row", pto_textract_fp, win, acc, fp, 0, 12, NULL);
    walk_window("pto_textract_fp index_col", pto_textract_fp, win, acc, fp, 1, 16, NULL);
    TILES_DESTROY(dst, acc, fp, win);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
}

/* ---- one element, compares, merges ----------------------------------------- */

static void test_elements(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    arena_reset();
    pto_tile *t = placed(PTO_INT32, 4, 8, 4, 8);
    size_t v[kEdgeCount];
    edges(31, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        const pto_status want = v[k] <= 31 ? PTO_OK : PTO_ERR_OUT_OF_RANGE;
        arena_snapshot();
        after("pto_tsetval", v[k], pto_tsetval(t, v[k], 7.0), want);
        double out = -1.0;
        arena_snapshot();
        after("pto_tgetval", v[k], pto_tgetval(t, v[k], &out), want);
        assert_true(want == PTO_OK ? out == 7.0 : out == -1.0);
    }
    pto_tile_destroy(t);

    /* tgather_cmp: the offset is added to the indices it writes, at most
     * UINT32_MAX (PTO_ERR_INVALID_ARGUMENT past it). */
    arena_reset();
    pto_tile *src = placed(PTO_FLOAT32, 2, 64, 2, 64), *k_value = placed(PTO_INT32, 2, 8, 2, 1);
    pto_tile *dst = placed(PTO_UINT32, 2, 64, 2, 64), *cdst = placed(PTO_UINT32, 2, 8, 2, 1);
    edges(UINT32_MAX, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        arena_snapshot();
        after("pto_tgather_cmp", v[k], pto_tgather_cmp(dst, src, k_value, NULL, cdst, PTO_CMP_EQ, v[k]),
              v[k] <= UINT32_MAX ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    }
    TILES_DESTROY(src, k_value, dst, cdst);

    /* tmrgsort: 256 FLOAT32 (value, index) pairs' worth of one row: the one
     * block length that makes four lists of it is 64; another multiple of
     * 64 is a shape mismatch; 0, one not a multiple of 64 or one past
     * UINT32_MAX is an invalid argument. */
    arena_reset();
    pto_tile *lists = placed(PTO_FLOAT32, 1, 256, 1, 256), *merged = placed(PTO_FLOAT32, 1, 256, 1, 256);
    edges(64, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        const pto_status want = v[k] == 64 ? PTO_OK
                                : v[k] == 0 || v[k] % 64 != 0 || v[k] > UINT32_MAX ? PTO_ERR_INVALID_ARGUMENT
                                                                                  : PTO_ERR_SHAPE_MISMATCH;
        arena_snapshot();
        after("pto_tmrgsort", v[k], pto_tmrgsort(merged, lists, v[k]), want);
    }
    TILES_DESTROY(lists, merged);
}

/* ---- tables in memory ------------------------------------------------------ */

static void test_tables(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    arena_reset();
    /* Elem mode: 4x8 indices 0..31 into a 32-element table between guards:
     * 32 elements and any larger count the address space holds are in range
     * (only the indexed elements are touched), fewer are PTO_ERR_OUT_OF_RANGE,
     * a count whose bytes run past the address space
     * PTO_ERR_INVALID_ARGUMENT. */
    pto_tile *tile = placed(PTO_FLOAT32, 4, 8, 4, 8), *idx = placed(PTO_INT32, 4, 8, 4, 8);
    for (int k = 0; k < 32; ++k) tile_put(idx, (size_t)k / 8, (size_t)k % 8, (uint64_t)k);
    unsigned char *table = guarded(32 * 4), *kept = malloc(32 * 4 + 2 * kGuard);
    assert_non_null(kept);
    size_t v[kEdgeCount];
    edges(32, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        size_t bytes = 0;
        const int fits = !__builtin_mul_overflow(v[k], (size_t)4, &bytes) && bytes <= (size_t)PTRDIFF_MAX &&
                         (uintptr_t)(table + kGuard) + bytes >= (uintptr_t)(table + kGuard);
        const pto_status want = !fits ? PTO_ERR_INVALID_ARGUMENT : v[k] < 32 ? PTO_ERR_OUT_OF_RANGE : PTO_OK;
        for (int form = 0; form < 4; ++form) {
            static const char *const kNames[] = {"pto_mgather", "pto_mscatter", "pto_mgather_oob", "pto_mscatter_ex"};
            memcpy(kept, table, 32 * 4 + 2 * kGuard);
            arena_snapshot();
            pto_status got;
            switch (form) {
            case 0: got = pto_mgather(tile, table + kGuard, v[k], PTO_FLOAT32, idx, PTO_COALESCE_ELEM); break;
            case 1: got = pto_mscatter(table + kGuard, v[k], PTO_FLOAT32, tile, idx, PTO_COALESCE_ELEM); break;
            case 2:
                got = pto_mgather_oob(tile, table + kGuard, v[k], PTO_FLOAT32, idx, PTO_COALESCE_ELEM,
                                      PTO_GATHER_OOB_UNDEFINED);
                break;
            default:
                got = pto_mscatter_ex(table + kGuard, v[k], PTO_FLOAT32, tile, idx, PTO_COALESCE_ELEM,
                                      PTO_SCATTER_ATOMIC_NONE, PTO_SCATTER_OOB_UNDEFINED);
                break;
            }
            after(kNames[form], v[k], got, want);
            /* The guards around the table always; its elements on a refusal. */
            assert_memory_equal(table, kept, kGuard);
            assert_memory_equal(table + kGuard + 32 * 4, kept + kGuard + 32 * 4, kGuard);
            if (got != PTO_OK) assert_memory_equal(table, kept, 32 * 4 + 2 * kGuard);
        }
    }
    free(table);
    free(kept);
    TILES_DESTROY(tile, idx);
}

/* ---- programs -------------------------------------------------------------- */

static const char kProgram[] =
    "module {\n"
    "  func.func @k(%p: !pto.ptr<f32>, %i: index, %f: f32, %t: !pto.tile_buf<vec, 4x8xf32>) {\n"
    "    pto.store_scalar %f, %p[%i] : !pto.ptr<f32>, f32\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_program_texts(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    const size_t n = strlen(kProgram);
    /* The text and one byte after it that no text may end with. */
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, kProgram, n);
    text[n] = '}';
    size_t v[kEdgeCount];
    edges(n, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        /* 2^31 and 2^32 bytes from a text of n: reading them is the caller's
         * promise broken, which no check can see; not called. */
        if (v[k] == (size_t)1 << 31 || v[k] == (size_t)1 << 32) {
            print_message("pto_program_create length %zu: skipped (a length inside the address space is "
                          "the caller's count of readable bytes)\n", v[k]);
            continue;
        }
        const pto_status want = v[k] == n ? PTO_OK : PTO_ERR_INVALID_ARGUMENT;
        for (int form = 0; form < 3; ++form) {
            static const char *const kNames[] = {"pto_program_create", "pto_program_create_entry",
                                                 "pto_program_check"};
            pto_program *p = NULL;
            const pto_status got = form == 0   ? pto_program_create(text, v[k], "edge.pto", &p)
                                   : form == 1 ? pto_program_create_entry(text, v[k], "edge.pto", "k", &p)
                                               : pto_program_check(text, v[k], "edge.pto", &p);
            expect(kNames[form], v[k], got, want);
            if (got == PTO_OK) pto_program_destroy(p);
            else assert_null(p);
        }
    }
    free(text);
}

static void test_program_params(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_program *p = NULL;
    assert_int_equal(pto_program_create(kProgram, strlen(kProgram), "edge.pto", &p), PTO_OK);
    assert_int_equal(pto_program_param_count(p), 4);
    size_t v[kEdgeCount];
    edges(3, v);
    for (int k = 0; k < kEdgeCount; ++k) {
        const size_t i = v[k];
        const int in = i <= 3;
        /* Queries: the parameter's answer in range; NULL or 0 past it. */
        assert_true((pto_program_param_name(p, i) != NULL) == in);
        if (!in) {
            assert_int_equal(pto_program_param_kind(p, i), PTO_PARAM_POINTER);
            assert_int_equal(pto_program_param_dtype(p, i), 0);
            assert_int_equal(pto_program_param_access(p, i), 0);
        }
        const int tile = i == 3;
        assert_int_equal(pto_program_param_rows(p, i), tile ? 4 : 0);
        assert_int_equal(pto_program_param_cols(p, i), tile ? 8 : 0);
        assert_int_equal(pto_program_param_valid_rows(p, i), tile ? 4 : 0);
        assert_int_equal(pto_program_param_valid_cols(p, i), tile ? 8 : 0);
    }
    /* The bindings: each kind's index (its own parameter in range; another
     * kind's, or past the last, PTO_ERR_INVALID_ARGUMENT). */
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    float memory[16] = {0};
    pto_tile *t = tile_new(PTO_FLOAT32, 4, 8, 4, 8);
    for (int k = 0; k < kEdgeCount; ++k) {
        const size_t i = v[k];
        expect("pto_args_set_pointer index", i, pto_args_set_pointer(a, i, memory, sizeof memory),
               i == 0 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        expect("pto_args_set_int index", i, pto_args_set_int(a, i, 1), i == 1 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        expect("pto_args_set_float index", i, pto_args_set_float(a, i, 1.0),
               i == 2 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
        expect("pto_args_set_tile index", i, pto_args_set_tile(a, i, t), i == 3 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    }
    /* nbytes: a multiple of 4 the address space holds is the caller's
     * count (nothing is read when binding); not a multiple of 4, or past
     * PTRDIFF_MAX or the end of the address space, PTO_ERR_INVALID_ARGUMENT.
     * The last binding is the real one, so that the run below stores into
     * `memory`. */
    edges(sizeof memory, v);
    for (int k = kEdgeCount - 1; k >= 0; --k) {
        const int fits = v[k] <= (size_t)PTRDIFF_MAX && (uintptr_t)memory + v[k] >= (uintptr_t)memory;
        expect("pto_args_set_pointer nbytes", v[k], pto_args_set_pointer(a, 0, memory, v[k]),
               fits && v[k] % 4 == 0 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    }
    assert_int_equal(pto_args_set_pointer(a, 0, memory, sizeof memory), PTO_OK);
    /* A program's element index: 0 .. 15 stores, past it PTO_ERR_OUT_OF_RANGE
     * with nothing stored (an index parameter is an int64). */
    static const int64_t kIndices[] = {0, 15, 16, INT64_C(1) << 31, INT64_C(1) << 32, INT64_MAX - 1, INT64_MAX, -1,
                                       INT64_MIN};
    for (size_t k = 0; k < sizeof kIndices / sizeof kIndices[0]; ++k) {
        float before[16];
        memcpy(before, memory, sizeof memory);
        assert_int_equal(pto_args_set_int(a, 1, kIndices[k]), PTO_OK);
        assert_int_equal(pto_args_set_float(a, 2, 2.5 + (double)k), PTO_OK);
        const int in = kIndices[k] >= 0 && kIndices[k] < 16;
        expect("a program's store_scalar index", (size_t)kIndices[k], pto_program_run(p, a),
               in ? PTO_OK : PTO_ERR_OUT_OF_RANGE);
        if (in) before[kIndices[k]] = 2.5f + (float)k;
        assert_memory_equal(memory, before, sizeof memory);
    }
    /* blocks (a uint32_t): 1 .. 65536. */
    assert_int_equal(pto_args_set_int(a, 1, 3), PTO_OK);
    uint32_t b[kEdge32Count];
    edges32(65536, b);
    /* Under qemu-user a launch of many blocks starts threads, which can
     * hang there: the refused counts are walked (refused before any thread
     * starts), the accepted ones only natively. */
    const bool qemu = getenv("PTO_TEST_UNDER_QEMU") != NULL;
    for (int k = 0; k < kEdge32Count; ++k) {
        const bool accepted = b[k] >= 1 && b[k] <= 65536;
        if (qemu && accepted) {
            print_message("pto_program_launch blocks %u: not launched under qemu-user (a launch starts threads, "
                          "which can hang there)\n", (unsigned)b[k]);
            continue;
        }
        expect("pto_program_launch blocks", b[k], pto_program_launch(p, b[k], a),
               accepted ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    }
    pto_args_destroy(a);
    pto_tile_destroy(t);
    pto_program_destroy(p);
}

/* A program's views and partitions from scalar parameters: four
 * dimensions of INT64_MAX x INT64_MAX and a fifth of 24 x 2^62, whose sum of
 * (shape - 1) x stride is 2^128 + 15 (a 128-bit sum wraps to 15, inside the
 * memory), a partition offset whose element is past 2^63, a shape of
 * INT64_MAX: each is PTO_ERR_OUT_OF_RANGE with nothing stored. */
static const char kViewProgram[] =
    "module {\n"
    "  func.func @k(%p: !pto.ptr<f32>, %s: index, %a: index, %b: index, %o: index) {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %v = pto.make_tensor_view %p, shape = [%s, %s, %s, %s, %a, %c1, %c8], strides = [%s, %s, %s, %s, %b, %c8, %c1] : !pto.tensor_view<?x?x?x?x?x1x8xf32>\n"
    "    %w = pto.partition_view %v, offsets = [%c0, %c0, %c0, %c0, %o, %c0, %c0], sizes = [%c1, %c1, %c1, %c1, %c1, %c1, %c8] : !pto.tensor_view<?x?x?x?x?x1x8xf32> -> !pto.partition_tensor_view<1x1x1x1x1x1x8xf32>\n"
    "    %t = pto.alloc_tile : !pto.tile_buf<vec, 1x8xf32>\n"
    "    pto.tload ins(%w : !pto.partition_tensor_view<1x1x1x1x1x1x8xf32>) outs(%t : !pto.tile_buf<vec, 1x8xf32>)\n"
    "    pto.tstore ins(%t : !pto.tile_buf<vec, 1x8xf32>) outs(%w : !pto.partition_tensor_view<1x1x1x1x1x1x8xf32>)\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_program_views(void **state) {
    (void)state;
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    pto_program *p = NULL;
    if (pto_program_create(kViewProgram, strlen(kViewProgram), "views.pto", &p) != PTO_OK)
        fail_msg("the view program: %s", pto_last_error());
    pto_args *a = NULL;
    assert_int_equal(pto_args_create(p, &a), PTO_OK);
    unsigned char *memory = guarded(64 * 4), *kept = malloc(64 * 4 + 2 * kGuard);
    assert_non_null(kept);
    memcpy(kept, memory, 64 * 4 + 2 * kGuard);
    assert_int_equal(pto_args_set_pointer(a, 0, memory + kGuard, 64 * 4), PTO_OK);
    /* In range: dims 1, 1, 1, 1, 8, 1, 8 with the fifth's stride 8: 64
     * elements, rows 0 .. 7 of the fifth dimension. */
    const struct { int64_t s, a, b, o; pto_status want; } cases[] = {
        {1, 8, 8, 0, PTO_OK},
        {1, 8, 8, 7, PTO_OK},
        {1, 8, 8, 8, PTO_ERR_OUT_OF_RANGE},
        {INT64_MAX, 25, INT64_C(1) << 62, 1, PTO_ERR_OUT_OF_RANGE},
        {INT64_MAX, 1, 1, 0, PTO_ERR_OUT_OF_RANGE},
        {1, 8, 8, INT64_MAX, PTO_ERR_OUT_OF_RANGE},
        {1, 8, 8, INT64_MAX - 7, PTO_ERR_OUT_OF_RANGE},
        {1, INT64_MAX, 8, INT64_C(1) << 61, PTO_ERR_OUT_OF_RANGE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        assert_int_equal(pto_args_set_int(a, 1, cases[k].s), PTO_OK);
        assert_int_equal(pto_args_set_int(a, 2, cases[k].a), PTO_OK);
        assert_int_equal(pto_args_set_int(a, 3, cases[k].b), PTO_OK);
        assert_int_equal(pto_args_set_int(a, 4, cases[k].o), PTO_OK);
        expect("a program's view, case", k, pto_program_run(p, a), cases[k].want);
        /* The run stores what it loaded: the memory is unchanged either way. */
        assert_memory_equal(memory, kept, 64 * 4 + 2 * kGuard);
    }
    pto_args_destroy(a);
    pto_program_destroy(p);
    free(memory);
    free(kept);
}

static void test_print_list(void **state) {
    (void)state;
    printf("edge values walked through %zu (function, parameter) pairs:\n", sizeof kWalked / sizeof kWalked[0]);
    for (size_t k = 0; k < sizeof kWalked / sizeof kWalked[0]; ++k) printf("  %s\n", kWalked[k]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_tile_copies), cmocka_unit_test(test_buffers_and_placement),
        cmocka_unit_test(test_windows),           cmocka_unit_test(test_fixpipe_windows),
        cmocka_unit_test(test_elements),          cmocka_unit_test(test_tables),
        cmocka_unit_test(test_program_texts),     cmocka_unit_test(test_program_params),
        cmocka_unit_test(test_program_views),     cmocka_unit_test(test_print_list),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    pto_buffer_destroy(g_buffer);
    return failed;
}
