/* The functions outside the operation table that no other file of the
 * harness calls: board mode and the cube modes, mgather and mscatter (every
 * mode) on tables in the arena, the fixpipe's option
 * form and its thread configuration, and the program functions (parameter
 * queries, bindings, a run) on one small kernel. Their rules are their own
 * suites'; here any status, a refusal with a message and nothing written,
 * a success writing only what the function's text lets it write, and the
 * overflow rule's edge values (take_edge) refused wherever they would name
 * memory past the caller's. */
#include <string.h>

#include "fuzz_api.h"

/* Board mode on or off (or a value outside 0 and 1) for the calls that
 * follow; the harness's model accepts a relaxed rule where the library
 * warned (check_status). */
void fuzz_board_mode(reader *r) {
    const uint8_t b = take(r);
    const int on = b < 0xF0 ? b & 1 : (int)(int8_t)b;
    const int was = pto_board_mode();
    const pto_status got = pto_set_board_mode(on);
    check_status("pto_set_board_mode", got, on == 0 || on == 1 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    CHECK(pto_board_mode() == (got == PTO_OK ? on : was), "pto_board_mode is %d", pto_board_mode());
    (void)board_warned();
}

/* SETHF32MODE and SETTF32MODE with any enable and round mode. */
void fuzz_cube_modes(reader *r) {
    const uint8_t b = take(r);
    const int enable = b < 0xF0 ? b & 1 : (int)(int8_t)b;
    const pto_round_mode round = (pto_round_mode)(int8_t)take(r);
    const int tf32 = take(r) & 1;
    const int ok_args = (enable == 0 || enable == 1) && (round == PTO_ROUND_ROUND || round == PTO_ROUND_RINT);
    pto_round_mode before_round = PTO_ROUND_RINT, now_round = PTO_ROUND_RINT;
    const int before = tf32 ? pto_tf32_mode(&before_round) : pto_hf32_mode(&before_round);
    const pto_status got = tf32 ? pto_set_tf32_mode(enable, round) : pto_set_hf32_mode(enable, round);
    const char *fn = tf32 ? "pto_set_tf32_mode" : "pto_set_hf32_mode";
    if (ok_args) CHECK(got == PTO_OK, "%s(%d, %d) refused: %s", fn, enable, (int)round, pto_last_error());
    else check_status(fn, got, PTO_ERR_INVALID_ARGUMENT);
    const int now = tf32 ? pto_tf32_mode(&now_round) : pto_hf32_mode(&now_round);
    if (got == PTO_OK) CHECK(now == enable, "%s: the mode is %d, set %d", fn, now, enable);
    else CHECK(now == before && now_round == before_round, "%s: a refusal changed the mode", fn);
}

/* A table's element count for `room` elements of real memory: the real
 * count or fewer (the indices decide), or one whose bytes no memory holds
 * (at least 2^63 elements), which must be refused. Never a count that
 * claims memory past the arena that the address space could hold: reading
 * it would be the harness's own promise broken. */
static size_t take_table_elements(reader *r, size_t room, int *absurd) {
    const uint8_t b = take(r);
    *absurd = 0;
    if (b < 0xE0) return room == 0 ? 0 : b % (room + 1);
    static const size_t kAbsurd[8] = {(size_t)1 << 63, ((size_t)1 << 63) + 1, SIZE_MAX - 1, SIZE_MAX,
                                      SIZE_MAX / 2 + 1, SIZE_MAX - 15, ((size_t)1 << 63) + 3,
                                      SIZE_MAX - 63};
    *absurd = 1;
    return kAbsurd[b & 7];
}

/* mgather, mscatter, mgather_oob, mscatter_ex: a tile and indices from the
 * slots, the table in the arena at any element-aligned offset. */
void fuzz_tables(reader *r, state *st) {
    pto_tile *t = take_tile(r, st), *indices = take_tile(r, st);
    const int form = take(r) % 4;
    const pto_dtype dtype = (take(r) & 7) == 0 ? take_dtype(r) : t != NULL ? pto_tile_dtype(t) : PTO_FLOAT32;
    const size_t size = pto_dtype_size(dtype) != 0 ? pto_dtype_size(dtype) : 1;
    const size_t at = ((size_t)take(r) * 64) % kArenaBytes / size * size;
    const size_t room = (kArenaBytes - at) / size;
    int absurd = 0;
    const size_t elements = take_table_elements(r, room, &absurd);
    const int coalesce = take(r) % 3, mode = take(r) % 5, atomic = take(r) % 5;
    unsigned char *table = (take(r) & 15) == 0 ? NULL : g_arena + at;
    static const char *const kNames[4] = {"pto_mgather", "pto_mscatter", "pto_mgather_oob", "pto_mscatter_ex"};
    const int gather = form == 0 || form == 2;
    checked_call c;
    call_begin(&c, kNames[form], kStatusNotModelled, (const pto_tile *const[]){gather ? t : NULL, indices, t}, 3);
    /* A scatter writes table elements; nothing past the real memory the
     * count claims. */
    if (!gather && table != NULL && !absurd) {
        c.extra = table;
        c.extra_bytes = elements * size;
    }
    pto_status got;
    switch (form) {
    case 0: got = pto_mgather(t, table, elements, dtype, indices, (pto_coalesce)coalesce); break;
    case 1: got = pto_mscatter(table, elements, dtype, t, indices, (pto_coalesce)coalesce); break;
    case 2:
        got = pto_mgather_oob(t, table, elements, dtype, indices, (pto_coalesce)coalesce, (pto_gather_oob)mode);
        break;
    default:
        got = pto_mscatter_ex(table, elements, dtype, t, indices, (pto_coalesce)coalesce,
                              (pto_scatter_atomic)atomic, (pto_scatter_oob)mode);
        break;
    }
    CHECK(!(absurd && got == PTO_OK), "%s accepted %zu elements of %zu bytes", kNames[form], elements, size);
    call_check(&c, got, gather ? kWritesValidRegion : kWritesAnywhereInDst);
    call_end(&c);
}

/* TMRGSORT's list form, the row tmrgsort_lists (its opcode's call, in place
 * of fuzz_special's, which passes no counts of its own): up to four sources,
 * tmp, exhausted, executed, nothing written past executed[4] nor into it on
 * a refusal. */
void fuzz_mrgsort_lists(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st), *s0 = take_tile(r, st), *s1 = take_tile(r, st);
    pto_tile *s2 = (take(r) & 1) ? take_tile(r, st) : NULL, *s3 = (take(r) & 1) ? take_tile(r, st) : NULL;
    pto_tile *tmp = take_tile(r, st);
    const uint8_t e = take(r);
    const int exhausted = e < 0xF0 ? e & 1 : (int)(int8_t)e;
    uint16_t executed[4 + 2] = {0x5A5A, 0x5A5A, 0x5A5A, 0x5A5A, 0x5A5A, 0x5A5A};
    checked_call c;
    call_begin(&c, "pto_tmrgsort_lists", kStatusNotModelled, (const pto_tile *const[]){dst, s0, s1, tmp}, 4);
    const pto_status got = pto_tmrgsort_lists(dst, s0, s1, s2, s3, tmp, exhausted, executed + 1);
    call_check(&c, got, kWritesAnywhereInDst);
    call_end(&c);
    CHECK(executed[0] == 0x5A5A && executed[5] == 0x5A5A, "pto_tmrgsort_lists wrote past executed[4]");
    if (got != PTO_OK)
        for (int i = 1; i < 5; i++) CHECK(executed[i] == 0x5A5A, "a refused pto_tmrgsort_lists wrote executed");
}

/* The fixpipe's option form (any flags) and the thread's quantisation
 * configuration (scalar with any dtype, vector from any tile). */
void fuzz_fixpipe(reader *r, state *st) {
    const int what = take(r) % 3;
    if (what == 0) {
        static const float kScales[8] = {1.0f, 0.5f, -2.0f, 0.0f, 1e30f, -1e-30f, 65504.0f, 3.0f};
        const float scale = kScales[take(r) & 7];
        const pto_dtype dtype = take_dtype(r);
        const pto_status got = pto_set_quant_scalar(scale, dtype);
        CHECK(got == PTO_OK || pto_last_error()[0] != '\0', "pto_set_quant_scalar refused without a message");
        return;
    }
    if (what == 1) {
        pto_tile *fp = take_tile(r, st);
        checked_call c;
        call_begin(&c, "pto_set_quant_vector", kStatusNotModelled, (const pto_tile *const[]){NULL, fp}, 2);
        call_check(&c, pto_set_quant_vector(fp), kWritesAnywhereInDst);
        call_end(&c);
        return;
    }
    pto_tile *dst = take_tile(r, st), *src = take_tile(r, st), *fp = (take(r) & 1) ? take_tile(r, st) : NULL;
    const uint8_t f = take(r);
    const unsigned flags = f < 0xF0 ? f & 7u : (unsigned)f << 24 | (f & 7u);
    checked_call c;
    call_begin(&c, "pto_tmov_fp_ex", kStatusNotModelled, (const pto_tile *const[]){dst, src, fp}, 3);
    const pto_status got = pto_tmov_fp_ex(dst, src, fp, flags);
    CHECK(!(flags > 7 && got == PTO_OK), "pto_tmov_fp_ex accepted flags 0x%x", flags);
    call_check(&c, got, kWritesValidRegion);
    call_end(&c);
}

/* TSEL (three sources: not a row): any slots, tmp among them. */
void fuzz_tsel(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st), *mask = take_tile(r, st), *a = take_tile(r, st), *b = take_tile(r, st);
    pto_tile *tmp = (take(r) & 1) ? take_tile(r, st) : NULL;
    checked_call c;
    call_begin(&c, "pto_tsel", kStatusNotModelled, (const pto_tile *const[]){dst, mask, a, b}, 4);
    call_check(&c, pto_tsel(dst, mask, a, b, tmp), kWritesValidRegion);
    call_end(&c);
}

/* ---- programs ------------------------------------------------------------- */

static const char kKernel[] =
    "module {\n"
    "  func.func @k(%p: !pto.ptr<f32>, %i: index, %f: f32, %t: !pto.tile_buf<vec, 4x8xf32>) {\n"
    "    pto.store_scalar %f, %p[%i] : !pto.ptr<f32>, f32\n"
    "    return\n"
    "  }\n"
    "}\n";

/* The kernel, made once under HOST (its checks are those of the thread
 * that made it). */
static pto_program *kernel(void) {
    static pto_program *program;
    if (program == NULL) {
        const pto_profile was = pto_get_profile();
        CHECK(pto_set_profile(PTO_PROFILE_HOST) == PTO_OK, "pto_set_profile(HOST)");
        CHECK(pto_program_create(kKernel, strlen(kKernel), "fuzz.pto", &program) == PTO_OK, "the kernel: %s",
              pto_last_error());
        /* Its other two makers give the same parameters. */
        pto_program *named = NULL, *checked = NULL;
        CHECK(pto_program_create_entry(kKernel, strlen(kKernel), NULL, "@k", &named) == PTO_OK &&
                  pto_program_check(kKernel, strlen(kKernel), NULL, &checked) == PTO_OK,
              "the kernel by name, or checked: %s", pto_last_error());
        CHECK(pto_program_param_count(named) == 4 && pto_program_param_count(checked) == 4 &&
                  pto_program_profile(named) == PTO_PROFILE_HOST && pto_program_describe(checked)[0] != '\0',
              "the kernel's other makers disagree");
        pto_program_destroy(named);
        pto_program_destroy(checked);
        CHECK(pto_set_profile(was) == PTO_OK, "pto_set_profile back");
    }
    return program;
}

/* An int64 element index: mostly small, sometimes negative or an edge. */
static int64_t take_element(reader *r) {
    const uint8_t b = take(r);
    if (b < 0xE0) return b % 80;
    static const int64_t kEdges[16] = {-1, INT64_MIN, INT64_MAX, INT64_MAX - 1, INT64_C(1) << 31, INT64_C(1) << 32,
                                       (INT64_C(1) << 62) + 1, -(INT64_C(1) << 31), INT64_C(1) << 61,
                                       INT64_MAX / 4, INT64_MAX / 4 + 1, 4095, 4096, 4097, -4096, 65535};
    return kEdges[b & 15];
}

/* The parameter queries and bindings at any index, the pointer's nbytes at
 * its real size or an edge (refused when the address space cannot hold
 * it), then a run that stores one float at an element index: inside the
 * bound memory exactly those 4 bytes change; outside, PTO_ERR_OUT_OF_RANGE
 * and nothing. The memory is the arena. */
void fuzz_program(reader *r, state *st) {
    (void)st;
    pto_program *p = kernel();
    const size_t count = pto_program_param_count(p);
    const size_t q = take_index(r);
    const int in = q < count;
    CHECK((pto_program_param_name(p, q) != NULL) == in, "pto_program_param_name(%zu)", q);
    if (!in)
        CHECK(pto_program_param_rows(p, q) == 0 && pto_program_param_cols(p, q) == 0 &&
                  pto_program_param_valid_rows(p, q) == 0 && pto_program_param_valid_cols(p, q) == 0 &&
                  pto_program_param_access(p, q) == 0 && pto_program_param_dtype(p, q) == 0 &&
                  pto_program_param_kind(p, q) == PTO_PARAM_POINTER,
              "a query past the last parameter (%zu) is not 0", q);
    static const char *const kNames[6] = {"p", "%i", "f", "%t", "q", ""};
    const char *name = kNames[take(r) % 6];
    size_t found = SIZE_MAX;
    const pto_status find = pto_program_param_find(p, name, &found);
    CHECK((find == PTO_OK) == (name[0] != 'q' && name[0] != '\0') && (find != PTO_OK || found < count),
          "pto_program_param_find(\"%s\") is %s at %zu", name, pto_status_string(find), found);
    pto_args *a = NULL;
    CHECK(pto_args_create(p, &a) == PTO_OK, "pto_args_create");
    const size_t bi = take_index(r);
    float f = 1.5f;
    pto_tile *t = NULL;
    CHECK(pto_tile_create(PTO_FLOAT32, 4, 8, &t) == PTO_OK, "a tile for the kernel");
    check_status("pto_args_set_pointer", pto_args_set_pointer(a, bi, g_arena, 64),
                 bi == 0 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    check_status("pto_args_set_int", pto_args_set_int(a, bi, 1), bi == 1 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    check_status("pto_args_set_float", pto_args_set_float(a, bi, f), bi == 2 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    check_status("pto_args_set_tile", pto_args_set_tile(a, bi, t), bi == 3 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    /* nbytes: an edge is bound only where nothing is read (no run follows
     * with it); past PTRDIFF_MAX or the end of the address space it is
     * refused. */
    const size_t edge = take_edge(r);
    const int holds = edge <= (size_t)PTRDIFF_MAX && (uintptr_t)g_arena + edge >= (uintptr_t)g_arena;
    check_status("pto_args_set_pointer", pto_args_set_pointer(a, 0, g_arena, edge),
                 holds && edge % 4 == 0 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT);
    const size_t elements = 1 + take(r) % (kArenaBytes / 4);
    CHECK(pto_args_set_pointer(a, 0, g_arena, elements * 4) == PTO_OK, "binding the arena");
    const int64_t i = take_element(r);
    CHECK(pto_args_set_int(a, 1, i) == PTO_OK, "binding the index");
    CHECK(pto_args_set_float(a, 2, 2.5) == PTO_OK && pto_args_set_tile(a, 3, t) == PTO_OK, "binding the value");
    const uint8_t blocks_byte = take(r);
    const uint32_t blocks = blocks_byte < 0xF0 ? 1u : blocks_byte == 0xF0 ? 0u : blocks_byte == 0xF1 ? 65537u : UINT32_MAX;
    unsigned char *before = malloc(kArenaBytes);
    CHECK(before != NULL, "out of memory in the harness");
    memcpy(before, g_arena, kArenaBytes);
    const int inside = i >= 0 && (uint64_t)i < elements;
    const pto_status got = blocks == 1 && (blocks_byte & 1) ? pto_program_run(p, a) : pto_program_launch(p, blocks, a);
    /* A run's refusal is located in the text ("fuzz.pto:3:5: error: ..."). */
    const pto_status want =
        blocks == 0 || blocks > 65536 ? PTO_ERR_INVALID_ARGUMENT : inside ? PTO_OK : PTO_ERR_OUT_OF_RANGE;
    CHECK(got == want, "pto_program_launch (element %lld of %zu, %u blocks) returned %s, not %s", (long long)i,
          elements, blocks, pto_status_string(got), pto_status_string(want));
    CHECK(got == PTO_OK || pto_last_error()[0] != '\0', "pto_program_launch refused without a message");
    for (size_t k = 0; k < kArenaBytes; k++) {
        const int stored = got == PTO_OK && k / 4 == (uint64_t)i;
        CHECK(stored || g_arena[k] == before[k], "pto_program_launch (element %lld of %zu) changed arena byte %zu",
              (long long)i, elements, k);
    }
    if (got == PTO_OK) {
        float v;
        memcpy(&v, g_arena + (size_t)i * 4, 4);
        CHECK(v == 2.5f, "the kernel stored %g, not 2.5", (double)v);
    }
    free(before);
    pto_tile_destroy(t);
    pto_args_destroy(a);
}
