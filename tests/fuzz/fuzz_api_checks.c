/* What the harness checks around a call: operand snapshots, the contract's
 * check order as predicates over the operands, and the checks after every
 * instruction call (checked_call). */
#include <math.h>
#include <string.h>

#include "fuzz_api.h"

/* ------------------------------------------------------------------------ */
/* Tile snapshots                                                            */

size_t tile_bytes(const pto_tile *t) {
    return (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
}

void snapshot_take(snapshot *s, const pto_tile *t) {
    memset(s, 0, sizeof(*s));
    if (t == NULL) return;
    s->tile = t;
    s->dtype = pto_tile_dtype(t);
    s->rows = pto_tile_rows(t);
    s->cols = pto_tile_cols(t);
    s->valid_rows = pto_tile_valid_rows(t);
    s->valid_cols = pto_tile_valid_cols(t);
    s->bytes = tile_bytes(t);
    s->data = malloc(s->bytes);
    CHECK(s->data != NULL, "out of memory in the harness");
    memcpy(s->data, pto_tile_data((pto_tile *)t), s->bytes);
}

void snapshot_free(snapshot *s) {
    free(s->data);
    s->data = NULL;
}

void check_unchanged(const snapshot *s, const char *what) {
    if (s->tile == NULL) return;
    const pto_tile *t = s->tile;
    CHECK(pto_tile_dtype(t) == s->dtype && pto_tile_rows(t) == s->rows &&
              pto_tile_cols(t) == s->cols && pto_tile_valid_rows(t) == s->valid_rows &&
              pto_tile_valid_cols(t) == s->valid_cols,
          "%s: a tile's shape or valid region changed", what);
    CHECK(memcmp(pto_tile_data((pto_tile *)t), s->data, s->bytes) == 0,
          "%s: a tile's bytes changed", what);
}

static void snapshots_take(operand_snapshots *o, const pto_tile *const *tiles, int n) {
    memset(o, 0, sizeof(*o));
    for (int i = 0; i < n; i++) {
        int seen = tiles[i] == NULL;
        for (int j = 0; j < i; j++) seen |= tiles[j] == tiles[i];
        if (!seen) snapshot_take(&o->s[i], tiles[i]);
    }
}

const snapshot *snapshot_of(const operand_snapshots *o, const pto_tile *t) {
    for (int i = 0; i < kMaxOperands; i++)
        if (o->s[i].tile == t) return &o->s[i];
    return NULL;
}

static void snapshots_free(operand_snapshots *o) {
    for (int i = 0; i < kMaxOperands; i++) snapshot_free(&o->s[i]);
}

/* ------------------------------------------------------------------------ */
/* Status checks                                                             */

static int is_status(pto_status s) { return s >= PTO_OK && s <= PTO_ERR_OUT_OF_MEMORY; }

unsigned char *g_arena;
static unsigned g_board_warnings, g_board_warnings_seen;

static void count_board_warning(const char *message, void *user_data) {
    (void)user_data;
    CHECK(message != NULL && strstr(message, "board mode") != NULL,
          "a board-mode warning without \"board mode\": %s", message != NULL ? message : "(null)");
    ++g_board_warnings;
}

void board_mode_install(void) { pto_set_warning_handler(count_board_warning, NULL); }

int board_warned(void) {
    const int warned = g_board_warnings != g_board_warnings_seen;
    g_board_warnings_seen = g_board_warnings;
    return warned;
}

/* Every call's status is a member of the enum and the expected one; a failure
 * leaves a sentence that starts with the function's name. In board mode
 * under A2A3 or A5 a call that warned has had a rule relaxed (pto_c.h lists
 * which): the model's refusal may then be a success, or a later rule's
 * refusal. */
void check_status(const char *fn, pto_status got, pto_status want) {
    CHECK(is_status(got), "%s returned %d, not a pto_status", fn, (int)got);
    CHECK(pto_status_string(got) != NULL, "pto_status_string returned NULL");
    const int relaxed = board_warned() && pto_board_mode() && g_profile != PTO_PROFILE_HOST;
    CHECK(got == want || (relaxed && want != PTO_OK), "%s returned %s, the contract says %s", fn,
          pto_status_string(got), pto_status_string(want));
    if (got != PTO_OK) {
        const char *message = pto_last_error();
        const size_t n = strlen(fn);
        CHECK(message != NULL && strncmp(message, fn, n) == 0 && message[n] == ':' &&
                  strlen(message) > n + 2,
              "%s failed without a sentence naming it", fn);
    }
}

/* The check order of the contract: NULL handles, enum arguments, element
 * types (unsupported, then mismatched), aliasing, valid regions. Each helper
 * returns the first failing status of its group, or PTO_OK. */
int same_region(const pto_tile *a, const pto_tile *b) {
    return pto_tile_valid_rows(a) == pto_tile_valid_rows(b) &&
           pto_tile_valid_cols(a) == pto_tile_valid_cols(b);
}
int region_fits(const pto_tile *inner, const pto_tile *outer) {
    return pto_tile_valid_rows(inner) <= pto_tile_valid_rows(outer) &&
           pto_tile_valid_cols(inner) <= pto_tile_valid_cols(outer);
}
int dtypes_equal(const pto_tile *const *t, int n) {
    for (int i = 1; i < n; i++)
        if (pto_tile_dtype(t[i]) != pto_tile_dtype(t[0])) return 0;
    return 1;
}
int is_f32_or_f16(pto_dtype d) { return d == PTO_FLOAT32 || d == PTO_FLOAT16; }

/* Whether some byte belongs to an element of both valid regions: a merge of
 * the two sorted sequences of row intervals. */
int regions_overlap(const pto_tile *a, const pto_tile *b) {
    const size_t ea = pto_dtype_size(pto_tile_dtype(a)), eb = pto_dtype_size(pto_tile_dtype(b));
    const uintptr_t la = pto_tile_valid_cols(a) * ea, lb = pto_tile_valid_cols(b) * eb;
    const uintptr_t sa = pto_tile_cols(a) * ea, sb = pto_tile_cols(b) * eb;
    const uintptr_t pa = (uintptr_t)pto_tile_data((pto_tile *)a);
    const uintptr_t pb = (uintptr_t)pto_tile_data((pto_tile *)b);
    if (la == 0 || lb == 0) return 0;
    uint32_t i = 0, k = 0;
    while (i < pto_tile_valid_rows(a) && k < pto_tile_valid_rows(b)) {
        const uintptr_t x = pa + i * sa, y = pb + k * sb;
        if (x < y + lb && y < x + la) return 1;
        if (x + la <= y + lb) i++; else k++;
    }
    return 0;
}

int same_placement(const pto_tile *a, const pto_tile *b) {
    return pto_tile_data((pto_tile *)a) == pto_tile_data((pto_tile *)b) &&
           pto_tile_dtype(a) == pto_tile_dtype(b) && pto_tile_cols(a) == pto_tile_cols(b);
}

/* A source read while dst is written: dst itself, exactly on it, or apart. */
int clashes_with_dst(const pto_tile *src, const pto_tile *dst) {
    return src != dst && !same_placement(src, dst) && regions_overlap(src, dst);
}

pto_profile g_profile = PTO_PROFILE_HOST;

/* Rows as byte intervals: count rows of `length` bytes, `stride` apart. */
typedef struct {
    uintptr_t start, stride, length;
    uint32_t count;
} row_bytes;

static row_bytes valid_rows_of(const pto_tile *t) {
    const size_t e = pto_dtype_size(pto_tile_dtype(t));
    return (row_bytes){(uintptr_t)pto_tile_data((pto_tile *)t), pto_tile_cols(t) * e,
                       pto_tile_valid_cols(t) * e, pto_tile_valid_rows(t)};
}

/* Walks every pair of intersecting rows (a row of d, a row of s) in address
 * order; returns 1 at the first pair `bad` says is one. */
static int some_pair(row_bytes d, row_bytes s, int (*bad)(uint32_t, uint32_t, int)) {
    if (d.length == 0 || s.length == 0) return 0;
    uint32_t i = 0, k = 0;
    while (i < d.count && k < s.count) {
        const uintptr_t x = d.start + i * d.stride, y = s.start + k * s.stride;
        if (x < y + s.length && y < x + d.length &&
            bad(i, k, x == y && d.length == s.length))
            return 1;
        if (x + d.length <= y + s.length) i++; else k++;
    }
    return 0;
}
static int out_of_row_order(uint32_t i, uint32_t k, int exact) { return k > i || (k == i && !exact); }
static int earlier_row(uint32_t i, uint32_t k, int exact) { (void)exact; return k < i; }

static int row_order_clash_rows(row_bytes s, row_bytes d, size_t src_size, size_t dst_size, uint32_t cols) {
    if (some_pair(d, s, out_of_row_order)) return 1;
    if (g_profile != PTO_PROFILE_A2A3) return 0;
    /* A2A3 runs every row's 256-byte repeats before any row's remainder */
    const uint32_t repeat = (uint32_t)(256 / (src_size > dst_size ? src_size : dst_size));
    const uint32_t covered = cols / repeat * repeat;
    if (covered == 0 || covered == cols) return 0;
    row_bytes repeats = d, remainders = s;
    repeats.length = covered * dst_size;
    remainders.start += covered * src_size;
    remainders.length = (cols - covered) * src_size;
    return some_pair(repeats, remainders, earlier_row);
}

int row_order_clash(const pto_tile *src, const pto_tile *dst) {
    if (src == dst || same_placement(src, dst) || !regions_overlap(src, dst)) return 0;
    return row_order_clash_rows(valid_rows_of(src), valid_rows_of(dst), pto_dtype_size(pto_tile_dtype(src)),
                                pto_dtype_size(pto_tile_dtype(dst)), pto_tile_valid_cols(dst));
}

int a2a3_in_place_clash(const pto_tile *src, const pto_tile *dst) {
    if (g_profile != PTO_PROFILE_A2A3) return 0;
    row_bytes s = valid_rows_of(src), d = valid_rows_of(dst);
    const size_t ss = pto_dtype_size(pto_tile_dtype(src)), ds = pto_dtype_size(pto_tile_dtype(dst));
    const uint32_t cols = pto_tile_valid_cols(dst);
    const uint32_t repeat = (uint32_t)(256 / (ss > ds ? ss : ds));
    const uint32_t covered = cols / repeat * repeat;
    if (covered == 0 || covered == cols) return 0;
    d.length = covered * ds;
    s.start += covered * ss;
    s.length = (cols - covered) * ss;
    return some_pair(d, s, earlier_row);
}

int window_row_order_clash(const pto_tile *src, size_t row, size_t col, const pto_tile *dst) {
    const size_t e = pto_dtype_size(pto_tile_dtype(src));
    row_bytes w = valid_rows_of(src);
    w.start += (row * pto_tile_cols(src) + col) * e;
    w.length = pto_tile_valid_cols(dst) * e;
    w.count = pto_tile_valid_rows(dst);
    return row_order_clash_rows(w, valid_rows_of(dst), e, e, pto_tile_valid_cols(dst));
}

/* A2A3 tprelu: no two operands may overlap; the same handle and identical
 * placement count. */
int a2a3_clash(const pto_tile *a, const pto_tile *b) {
    return a == b || same_placement(a, b) || regions_overlap(a, b);
}

/* Whole storage ranges intersect (what a successful call may change). */
int storage_intersects(const pto_tile *a, const pto_tile *b) {
    const uintptr_t pa = (uintptr_t)pto_tile_data((pto_tile *)a);
    const uintptr_t pb = (uintptr_t)pto_tile_data((pto_tile *)b);
    return pa < pb + tile_bytes(b) && pb < pa + tile_bytes(a);
}

int profile_accepts_dtype(int op_is_pow, pto_dtype d) {
    /* The 8-byte and the low-precision dtypes: where the row lists them
     * (operations.def). */
    if (pto_dtype_size(d) == 8 || d >= PTO_FLOAT8_E4M3)
        return op_accepts(op_is_pow ? OP_TPOW : OP_TPARTADD, g_profile, d);
    if (g_profile != PTO_PROFILE_A2A3) return 1;
    if (op_is_pow) return d != PTO_FLOAT16 && d != PTO_BFLOAT16;
    return d == PTO_INT32 || d == PTO_INT16 || d == PTO_FLOAT16 || d == PTO_FLOAT32;
}

pto_status leading_rules(op_id op, const pto_tile *dst, const pto_tile *a, const pto_tile *b) {
    const pto_tile *const typed[3] = {dst, a, b};
    if (dst == NULL || a == NULL || b == NULL) return PTO_ERR_NULL_ARGUMENT;
    if (!op_accepts(op, g_profile, pto_tile_dtype(dst))) return PTO_ERR_UNSUPPORTED_DTYPE;
    if (!dtypes_equal(typed, 3)) return PTO_ERR_DTYPE_MISMATCH;
    return PTO_OK;
}

pto_status source_rules(const pto_tile *src, const pto_tile *dst) {
    if (row_order_clash(src, dst)) return PTO_ERR_ALIASING;
    if (!same_region(src, dst)) return PTO_ERR_SHAPE_MISMATCH;
    return PTO_OK;
}

int scalar_is_value_of(pto_dtype d, double scalar) {
    if (ref_is_float(d)) return 1;
    const unsigned bits = ref_bits(d);
    const double low = ref_is_signed(d) ? -ldexp(1.0, (int)bits - 1) : 0.0;
    const double high = ldexp(1.0, ref_is_signed(d) ? (int)bits - 1 : (int)bits) - 1;
    return scalar == trunc(scalar) && scalar >= low && scalar <= high;
}

/* ------------------------------------------------------------------------ */
/* Result checks                                                             */

/* No byte of the harness's arena (where wrapped buffers place tiles)
 * changed on a refusal; on a success only bytes of the operands' storage
 * (which of them the other checks decide). A write before or after a tile,
 * into a tile that is not an operand, is found here. */
static void check_arena(const checked_call *c, pto_status got) {
    if (g_arena == NULL || c->arena_before == NULL) return;
    for (size_t k = 0; k < kArenaBytes; k++) {
        if (g_arena[k] == c->arena_before[k]) continue;
        int inside = got == PTO_OK && c->extra != NULL && g_arena + k >= c->extra &&
                     g_arena + k < c->extra + c->extra_bytes;
        for (int i = 0; i < c->n && got == PTO_OK && !inside; i++) {
            const pto_tile *t = c->operands[i];
            if (t == NULL) continue;
            const unsigned char *data = pto_tile_data((pto_tile *)t);
            inside = g_arena + k >= data && g_arena + k < data + tile_bytes(t);
        }
        CHECK(inside, "%s %s and changed arena byte %zu, which is outside every operand", c->fn,
              got == PTO_OK ? "succeeded" : "refused", k);
    }
}

/* A failed call changed no operand; a successful one changed none whose
 * storage lies apart from dst's (tmp included: it is never written). */
static void check_operands_unchanged(const operand_snapshots *o, pto_status got,
                                     const pto_tile *dst, const char *fn) {
    for (int i = 0; i < kMaxOperands; i++) {
        const pto_tile *t = o->s[i].tile;
        if (t == NULL) continue;
        if (got != PTO_OK || (t != dst && !storage_intersects(t, dst)))
            check_unchanged(&o->s[i], fn);
    }
}

/* Elements of dst outside its valid region are never written (each where
 * dst's layout puts it). */
void check_outside_region(const snapshot *before, const pto_tile *dst, const char *fn) {
    const unsigned char *now = pto_tile_data((pto_tile *)dst);
    const size_t size = pto_dtype_size(before->dtype);
    for (uint32_t i = 0; i < before->rows; i++) {
        for (uint32_t j = 0; j < before->cols; j++) {
            if (i < before->valid_rows && j < before->valid_cols) continue;
            const size_t at = ref_tile_image_element(dst, (size_t)i * before->cols + j) * size;
            CHECK(memcmp(now + at, before->data + at, size) == 0,
                  "%s wrote element (%u,%u) outside dst's %ux%u valid region", fn, i, j,
                  before->valid_rows, before->valid_cols);
        }
    }
}

/* Compares dst's valid region with `want` (a dst-shaped buffer); NaNs match
 * any NaN, everything else bit for bit. */
void check_values(const pto_tile *dst, const unsigned char *want, const char *fn) {
    const pto_dtype d = pto_tile_dtype(dst);
    const unsigned char *got = pto_tile_data((pto_tile *)dst);
    const size_t size = pto_dtype_size(d);
    const uint32_t cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_valid_rows(dst); i++) {
        for (uint32_t j = 0; j < pto_tile_valid_cols(dst); j++) {
            const size_t k = (size_t)i * cols + j;
            if (ref_is_nan(d, ref_load(d, want, k)) && ref_is_nan(d, ref_load(d, got, k))) continue;
            CHECK(memcmp(got + k * size, want + k * size, size) == 0,
                  "%s: dtype %d element (%u,%u) differs from the reference", fn, (int)d, i, j);
        }
    }
}

/* dst-shaped expected values: the snapshot of dst with its valid region
 * replaced by rule(a, b) evaluated per element; b_row0 reads b's row 0 only;
 * outside part's valid region (when part is given) a copy of a. */
unsigned char *expected_from(const snapshot *dst, element_rule rule, const snapshot *a,
                             const snapshot *b, int b_row0, const snapshot *part) {
    unsigned char *want = malloc(dst->bytes);
    CHECK(want != NULL, "out of memory in the harness");
    memcpy(want, dst->data, dst->bytes);
    for (uint32_t i = 0; i < dst->valid_rows; i++) {
        for (uint32_t j = 0; j < dst->valid_cols; j++) {
            const size_t k = (size_t)i * dst->cols + j;
            const size_t ka = (size_t)i * a->cols + j;
            const size_t kb = (b_row0 ? 0 : (size_t)i * b->cols) + j;
            const pto_dtype d = dst->dtype;
            const uint32_t x = ref_load(d, a->data, ka);
            if (part != NULL && (i >= part->valid_rows || j >= part->valid_cols))
                ref_store(d, want, k, x);
            else
                ref_store(d, want, k, rule(d, x, ref_load(d, b->data, kb)));
        }
    }
    return want;
}

/* ------------------------------------------------------------------------ */
/* One instruction call                                                      */

void call_begin(checked_call *c, const char *fn, pto_status want, const pto_tile *const *operands,
                int n) {
    c->fn = fn;
    c->dst = operands[0];
    c->want = want;
    c->cube_move = 0;
    /* Only pto_tmov, pto_textract, pto_tinsert, the matrix multiplies (and GEMV) and
     * pto_timg2col take the cube's tiles (and vec tiles in the NZ or ZN layout); every other
     * operation refuses one before its other rules (a modelled call's operands are the ones it
     * passes). A move, extract or insert with such a tile has rules of its own
     * (test_matmul_cube.c, test_vec_nz.c): any status, and values checked there. */
    int cube = 0;
    for (int i = 0; i < n; i++)
        cube |= is_cube_tile(operands[i]);
    if (cube && (strcmp(fn, "pto_tmov") == 0 || strcmp(fn, "pto_textract") == 0 ||
                 strcmp(fn, "pto_tinsert") == 0)) {
        c->want = kStatusNotModelled;
        c->cube_move = 1;
    } else if (cube && want != kStatusNotModelled && strncmp(fn, "pto_tmatmul", 11) != 0 &&
               strncmp(fn, "pto_tgemv", 9) != 0 && strcmp(fn, "pto_timg2col") != 0) {
        c->want = PTO_ERR_INVALID_ARGUMENT;
    }
    snapshots_take(&c->before, operands, n);
    c->n = n < kCallOperands ? n : kCallOperands;
    for (int i = 0; i < c->n; i++) c->operands[i] = operands[i];
    c->arena_before = NULL;
    c->extra = NULL;
    c->extra_bytes = 0;
    if (g_arena != NULL) {
        c->arena_before = malloc(kArenaBytes);
        CHECK(c->arena_before != NULL, "out of memory in the harness");
        memcpy(c->arena_before, g_arena, kArenaBytes);
    }
}

bool call_check(checked_call *c, pto_status got, dst_writes writes) {
    if (c->want == kStatusNotModelled) {
        (void)board_warned();
        CHECK(got == PTO_OK || pto_last_error()[0] != '\0', "%s refused without a message", c->fn);
    } else {
        check_status(c->fn, got, c->want);
    }
    check_operands_unchanged(&c->before, got, c->dst, c->fn);
    check_arena(c, got);
    if (got == PTO_OK && writes == kWritesValidRegion)
        check_outside_region(snapshot_of(&c->before, c->dst), c->dst, c->fn);
    /* A success the model did not predict is board mode's (check_status
     * let it through): its values follow rules the model does not have. */
    const int relaxed = got == PTO_OK && c->want != PTO_OK && c->want != kStatusNotModelled;
    return got == PTO_OK && !c->cube_move && !relaxed;
}

const snapshot *call_before(const checked_call *c, const pto_tile *t) {
    return snapshot_of(&c->before, t);
}

void call_end(checked_call *c) {
    snapshots_free(&c->before);
    free(c->arena_before);
    c->arena_before = NULL;
}
