/*
 * libFuzzer harness for the whole C API.
 *
 * The input is a little program: each operation is one opcode byte followed
 * by its argument bytes (a missing byte reads as 0). Arguments are arbitrary:
 * dtypes outside the enum, zero and huge dimensions, valid regions beyond the
 * tile, NULL handles and buffers, the same tile in several operand positions,
 * wrong byte and element counts. After every call the harness checks
 *  - the status is a pto_status value and equals the one the contract's rules
 *    predict (a model of the check order lives below);
 *  - a failed call changed no tile (every operand is snapshotted before) and
 *    left a sentence naming the function in pto_last_error();
 *  - a successful call wrote only dst's valid region, and for the cheap
 *    operations (prelu, partadd, colexpanddiv, rsqrt) that the values agree
 *    with a scalar double-precision reference rounded once.
 * Buffers (owned, wrapping a harness arena at any byte, or wrapping another
 * tile's storage), tiles placed in them at arbitrary offsets (so operands
 * overlap, interleave or sit exactly on each other) and the calling thread's
 * target profile are part of the program; the model predicts the profile
 * rules and the overlap rules (decided here by merging row intervals).
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * tests/fuzz/make-corpus.py writes the seed corpus in this encoding.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { kSlots = 4, kMaxOperands = 4, kBufferSlots = 2, kArenaBytes = 1 << 14, kMaxPinned = 64 };

/* The opcode byte, modulo kOpcodes: the tile, query, buffer and profile
 * calls, a spare one (a create), then one opcode per operation in the order
 * of src/operations.def, so that a new operation only adds one at the end.
 * tests/fuzz/make-corpus.py writes the same numbers. */
enum {
    kCreate,
    kDestroy,
    kSetValid,
    kWrite,
    kWriteF32,
    kRead,
    kQueries,
    kSpare,
    kBuffer,
    kBufferDestroy,
    kCreateAt,
    kSetProfile,
    kFirstInstruction,
    kOpcodes = kFirstInstruction + OP_COUNT
};

/* Tiles the fuzzer may create successfully; larger valid requests are
 * skipped (they would only be slow), larger invalid ones still run, since
 * they must fail before allocating anything. */
static const uint64_t kMaxFuzzElements = 1u << 16;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz_api.c:%d: check failed: %s\n  ", __LINE__,   \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n  last error: \"%s\"\n", pto_last_error());     \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Input decoding                                                            */

typedef struct {
    const uint8_t *p;
    size_t left;
} reader;

static uint8_t take(reader *r) {
    if (r->left == 0) return 0;
    r->left--;
    return *r->p++;
}

static uint32_t take_u32(reader *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)take(r) << (8 * i);
    return v;
}

static pto_dtype take_dtype(reader *r) {
    static const int64_t kOdd[16] = {9,  10, 255, -1, INT_MIN, INT_MAX, 256, 1000,
                                     -9, 16, 31,  32, 0x7FFF,  0x10000, 12,  100};
    const uint8_t b = take(r);
    return (pto_dtype)(b < 0xF0 ? b % 9 : kOdd[b - 0xF0]);
}

/* A tile dimension: mostly small (1..40), sometimes a vector-width edge,
 * zero, or one of the sizes that probe the byte limit and its overflow. */
static uint32_t take_dim(reader *r) {
    static const uint32_t kEdges[32] = {0,   63,  64,  65,  127, 128, 129, 255, 256, 257, 1,
                                        2,   3,   7,   8,   9,   15,  16,  17,  31,  32,  33,
                                        47,  48,  49,  95,  96,  97,  191, 192, 193, 1000};
    static const uint32_t kHuge[15] = {UINT32_MAX,       UINT32_MAX - 1,  1u << 31,
                                       1u << 16,         (1u << 16) + 1,  1u << 28,
                                       (1u << 28) + 1,   1u << 27,        (1u << 26) + 1,
                                       1u << 14,         (1u << 14) + 1,  0x7FFFFFFF,
                                       (1u << 26) - 1,   1u << 20,        (1u << 24) + 3};
    const uint8_t b = take(r);
    if (b < 0xD0) return 1 + b % 40;
    if (b < 0xF0) return kEdges[b - 0xD0];
    if (b < 0xFF) return kHuge[b - 0xF0];
    return take_u32(r);
}

/* A valid-region extent for a dimension of size n: mostly inside, sometimes
 * just beyond or far beyond. */
static uint32_t take_extent(reader *r, uint32_t n) {
    const uint8_t b = take(r);
    if (b < 0xC0) return b % (n + 1);
    if (b < 0xE0) return n + 1 + (b & 7);
    if (b < 0xF0) return b & 1 ? n : 0;
    if (b < 0xFF) return b & 1 ? UINT32_MAX : (uint32_t)1 << (b & 31);
    return take_u32(r);
}

static pto_pow_algorithm take_algo(reader *r) {
    static const int64_t kOdd[16] = {2, 3, -1, 255, INT_MIN, INT_MAX, 100, 0x100,
                                     -2, 7, 1, 0, 65535, 0x7FFF, 8, 9};
    const uint8_t b = take(r);
    return (pto_pow_algorithm)(b < 0xF0 ? b % 2 : kOdd[b - 0xF0]);
}

/* A byte or element count near `exact`: right, off by one, zero, doubled or
 * absurd. */
static size_t take_count(reader *r, size_t exact) {
    const uint8_t b = take(r);
    if (b < 0xC0) return exact;
    switch (b & 7) {
    case 0: return exact + 1;
    case 1: return exact - 1; /* wraps to SIZE_MAX when exact is 0 */
    case 2: return 0;
    case 3: return exact * 2;
    case 4: return SIZE_MAX;
    case 5: return (size_t)1 << 40;
    case 6: return exact + 4;
    default: return exact / 2;
    }
}

/* ------------------------------------------------------------------------ */
/* Tile snapshots                                                            */

typedef struct {
    const pto_tile *tile; /* NULL: unused entry */
    pto_dtype dtype;
    uint32_t rows, cols, valid_rows, valid_cols;
    size_t bytes;
    unsigned char *data;
} snapshot;

static size_t tile_bytes(const pto_tile *t) {
    return (size_t)pto_tile_rows(t) * pto_tile_cols(t) * pto_dtype_size(pto_tile_dtype(t));
}

static void snapshot_take(snapshot *s, const pto_tile *t) {
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

static void snapshot_free(snapshot *s) {
    free(s->data);
    s->data = NULL;
}

static void check_unchanged(const snapshot *s, const char *what) {
    if (s->tile == NULL) return;
    const pto_tile *t = s->tile;
    CHECK(pto_tile_dtype(t) == s->dtype && pto_tile_rows(t) == s->rows &&
              pto_tile_cols(t) == s->cols && pto_tile_valid_rows(t) == s->valid_rows &&
              pto_tile_valid_cols(t) == s->valid_cols,
          "%s: a tile's shape or valid region changed", what);
    CHECK(memcmp(pto_tile_data((pto_tile *)t), s->data, s->bytes) == 0,
          "%s: a tile's bytes changed", what);
}

/* Operand snapshots for one call: one per distinct non-NULL handle. */
typedef struct {
    snapshot s[kMaxOperands];
} operand_snapshots;

static void snapshots_take(operand_snapshots *o, const pto_tile *const *tiles, int n) {
    memset(o, 0, sizeof(*o));
    for (int i = 0; i < n; i++) {
        int seen = tiles[i] == NULL;
        for (int j = 0; j < i; j++) seen |= tiles[j] == tiles[i];
        if (!seen) snapshot_take(&o->s[i], tiles[i]);
    }
}

static const snapshot *snapshot_of(const operand_snapshots *o, const pto_tile *t) {
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

/* Every call's status is a member of the enum and the expected one; a failure
 * leaves a sentence that starts with the function's name. */
static void check_status(const char *fn, pto_status got, pto_status want) {
    CHECK(is_status(got), "%s returned %d, not a pto_status", fn, (int)got);
    CHECK(pto_status_string(got) != NULL, "pto_status_string returned NULL");
    CHECK(got == want, "%s returned %s, the contract says %s", fn, pto_status_string(got),
          pto_status_string(want));
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
static int same_region(const pto_tile *a, const pto_tile *b) {
    return pto_tile_valid_rows(a) == pto_tile_valid_rows(b) &&
           pto_tile_valid_cols(a) == pto_tile_valid_cols(b);
}
static int region_fits(const pto_tile *inner, const pto_tile *outer) {
    return pto_tile_valid_rows(inner) <= pto_tile_valid_rows(outer) &&
           pto_tile_valid_cols(inner) <= pto_tile_valid_cols(outer);
}
static int dtypes_equal(const pto_tile *const *t, int n) {
    for (int i = 1; i < n; i++)
        if (pto_tile_dtype(t[i]) != pto_tile_dtype(t[0])) return 0;
    return 1;
}
static int is_f32_or_f16(pto_dtype d) { return d == PTO_FLOAT32 || d == PTO_FLOAT16; }

/* Whether some byte belongs to an element of both valid regions: a merge of
 * the two sorted sequences of row intervals. */
static int regions_overlap(const pto_tile *a, const pto_tile *b) {
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

static int same_placement(const pto_tile *a, const pto_tile *b) {
    return pto_tile_data((pto_tile *)a) == pto_tile_data((pto_tile *)b) &&
           pto_tile_dtype(a) == pto_tile_dtype(b) && pto_tile_cols(a) == pto_tile_cols(b);
}

/* A source read while dst is written: dst itself, exactly on it, or apart. */
static int clashes_with_dst(const pto_tile *src, const pto_tile *dst) {
    return src != dst && !same_placement(src, dst) && regions_overlap(src, dst);
}

/* A2A3 tprelu: no two operands may overlap; the same handle and identical
 * placement count. */
static int a2a3_clash(const pto_tile *a, const pto_tile *b) {
    return a == b || same_placement(a, b) || regions_overlap(a, b);
}

/* Whole storage ranges intersect (what a successful call may change). */
static int storage_intersects(const pto_tile *a, const pto_tile *b) {
    const uintptr_t pa = (uintptr_t)pto_tile_data((pto_tile *)a);
    const uintptr_t pb = (uintptr_t)pto_tile_data((pto_tile *)b);
    return pa < pb + tile_bytes(b) && pb < pa + tile_bytes(a);
}

/* The calling thread's profile as the harness set it. */
static pto_profile g_profile = PTO_PROFILE_HOST;

static int profile_accepts_dtype(int op_is_pow, pto_dtype d) {
    if (g_profile != PTO_PROFILE_A2A3) return 1;
    if (op_is_pow) return d != PTO_FLOAT16 && d != PTO_BFLOAT16;
    return d == PTO_INT32 || d == PTO_INT16 || d == PTO_FLOAT16 || d == PTO_FLOAT32;
}

/* ------------------------------------------------------------------------ */
/* Result checks                                                             */

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

/* Elements of dst outside its valid region are never written. */
static void check_outside_region(const snapshot *before, const pto_tile *dst, const char *fn) {
    const unsigned char *now = pto_tile_data((pto_tile *)dst);
    const size_t size = pto_dtype_size(before->dtype);
    for (uint32_t i = 0; i < before->rows; i++) {
        for (uint32_t j = 0; j < before->cols; j++) {
            if (i < before->valid_rows && j < before->valid_cols) continue;
            const size_t at = ((size_t)i * before->cols + j) * size;
            CHECK(memcmp(now + at, before->data + at, size) == 0,
                  "%s wrote element (%u,%u) outside dst's %ux%u valid region", fn, i, j,
                  before->valid_rows, before->valid_cols);
        }
    }
}

/* Compares dst's valid region with `want` (a dst-shaped buffer); NaNs match
 * any NaN, everything else bit for bit. */
static void check_values(const pto_tile *dst, const unsigned char *want, const char *fn) {
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

/* The value of one element from an element of a and one of b. */
typedef uint32_t (*element_rule)(pto_dtype d, uint32_t a, uint32_t b);

/* dst-shaped expected values: the snapshot of dst with its valid region
 * replaced by rule(a, b) evaluated per element; b_row0 reads b's row 0 only;
 * outside part's valid region (when part is given) a copy of a. */
static unsigned char *expected_from(const snapshot *dst, element_rule rule, const snapshot *a,
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

/* trsqrt: exact at the IEEE edges, within 1 ulp of the exact result
 * elsewhere (1/sqrt in double is far closer than that). */
static void check_rsqrt(const pto_tile *dst, const snapshot *src) {
    const pto_dtype d = pto_tile_dtype(dst);
    const unsigned char *got = pto_tile_data((pto_tile *)dst);
    const uint32_t cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_valid_rows(dst); i++) {
        for (uint32_t j = 0; j < pto_tile_valid_cols(dst); j++) {
            const double x = ref_to_double(d, ref_load(d, src->data, (size_t)i * src->cols + j));
            const double r = x == 0 ? copysign(INFINITY, x) : 1.0 / sqrt(x);
            const uint32_t g_bits = ref_load(d, got, (size_t)i * cols + j);
            const double g = ref_to_double(d, g_bits);
            if (isnan(r) || isinf(r) || r == 0 || isinf(g) || isnan(g)) {
                CHECK((isnan(r) && isnan(g)) || r == g,
                      "pto_trsqrt: dtype %d rsqrt(%a) gave %a, want %a", (int)d, x, g, r);
                continue;
            }
            CHECK(ref_ulp_error(d, g_bits, r) <= 1,
                  "pto_trsqrt: dtype %d rsqrt(%a) gave %a, more than 1 ulp from %a", (int)d, x,
                  g, r);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

typedef struct {
    pto_tile *slot[kSlots];
    int pinned[kSlots];                /* a buffer wraps this tile's storage */
    pto_tile *graveyard[kMaxPinned];   /* pinned tiles whose slot was reused */
    int buried;
    pto_buffer *buffer[kBufferSlots];
    unsigned char *arena;              /* memory that wrapped buffers cover */
} state;

/* Empties a tile slot. A tile whose storage a buffer wraps must outlive the
 * tiles placed in that buffer, so it is kept until the input ends. */
static void slot_release(state *st, int i) {
    if (st->pinned[i] && st->buried < kMaxPinned) {
        st->graveyard[st->buried++] = st->slot[i];
    } else {
        pto_tile_destroy(st->slot[i]);
    }
    st->slot[i] = NULL;
    st->pinned[i] = 0;
}

/* A tile operand: one of the slots (possibly still empty) or NULL. */
static pto_tile *take_tile(reader *r, state *st) {
    const uint8_t b = take(r) % 9;
    return b == 8 ? NULL : st->slot[b % kSlots];
}

static void op_create(reader *r, state *st) {
    const int slot = take(r) % kSlots;
    const pto_dtype dtype = take_dtype(r);
    const uint32_t rows = take_dim(r), cols = take_dim(r);
    const int null_out = take(r) % 16 == 0;

    const size_t size = pto_dtype_size(dtype);
    const uint64_t elements = (uint64_t)rows * cols;
    pto_status want = PTO_OK;
    if (null_out)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (size == 0 || rows == 0 || cols == 0 || elements > PTO_TILE_MAX_BYTES / size)
        want = PTO_ERR_INVALID_ARGUMENT;
    if (want == PTO_OK && elements > kMaxFuzzElements) return; /* valid but slow */

    pto_tile *sentinel = (pto_tile *)(uintptr_t)0x5A5A5A5A;
    pto_tile *out = sentinel;
    const pto_status got = pto_tile_create(dtype, rows, cols, null_out ? NULL : &out);
    check_status("pto_tile_create", got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel || out == NULL, "a failed pto_tile_create changed *out");
        return;
    }
    CHECK(out != NULL && out != sentinel, "pto_tile_create succeeded without a tile");
    CHECK(pto_tile_dtype(out) == dtype && pto_tile_rows(out) == rows &&
              pto_tile_cols(out) == cols && pto_tile_valid_rows(out) == rows &&
              pto_tile_valid_cols(out) == cols,
          "new tile has the wrong shape");
    const unsigned char *bytes = pto_tile_data(out);
    CHECK(((uintptr_t)bytes & 63) == 0, "tile storage is not 64-byte aligned");
    for (size_t i = 0; i < elements * size; i++) CHECK(bytes[i] == 0, "new tile is not zeroed");
    CHECK(pto_tile_buffer(out) == NULL && pto_tile_offset(out) == 0, "an owned tile has a buffer");
    slot_release(st, slot);
    st->slot[slot] = out;
}

static void op_destroy(reader *r, state *st) {
    const uint8_t b = take(r) % (kSlots + 1);
    if (b == kSlots) {
        pto_tile_destroy(NULL);
        return;
    }
    slot_release(st, b);
}

/* A buffer size: mostly 1..limit, sometimes 0 or beyond PTO_TILE_MAX_BYTES. */
static size_t take_size(reader *r, size_t limit) {
    const uint8_t b = take(r);
    if (b < 0xF0) return 1 + ((((size_t)b << 8) | take(r)) % limit);
    static const size_t kBad[4] = {0, (size_t)PTO_TILE_MAX_BYTES + 1, SIZE_MAX,
                                   (size_t)1 << 40};
    return kBad[b & 3];
}

/* Buffers: created, wrapping the arena at any byte, wrapping a tile's
 * storage (which pins that tile), or wrapping NULL. */
static void op_buffer(reader *r, state *st) {
    const int slot = take(r) % kBufferSlots;
    const int kind = take(r) % 4;
    const int null_out = take(r) % 16 == 0;
    void *memory = NULL;
    size_t nbytes;
    int pin = -1;
    if (kind == 0) {
        nbytes = take_size(r, 1 << 16);
    } else if (kind == 1) {
        const size_t offset = ((size_t)take(r) * 61 + take(r)) % kArenaBytes;
        memory = st->arena + offset;
        nbytes = take_size(r, kArenaBytes - offset);
    } else if (kind == 2) {
        const int i = take(r) % (kSlots + 1);
        if (i < kSlots && st->slot[i] != NULL) {
            memory = pto_tile_data(st->slot[i]);
            nbytes = take_size(r, tile_bytes(st->slot[i]));
            pin = i;
        } else {
            nbytes = take_size(r, 64);
        }
    } else {
        nbytes = take_size(r, 64);
    }
    pto_status want = PTO_OK;
    if (null_out || (kind != 0 && memory == NULL))
        want = PTO_ERR_NULL_ARGUMENT;
    else if (nbytes == 0 || nbytes > PTO_TILE_MAX_BYTES)
        want = PTO_ERR_INVALID_ARGUMENT;
    pto_buffer *const sentinel = (pto_buffer *)(uintptr_t)0x5A5A5A50;
    pto_buffer *out = sentinel;
    const char *fn = kind == 0 ? "pto_buffer_create" : "pto_buffer_wrap";
    const pto_status got = kind == 0 ? pto_buffer_create(nbytes, null_out ? NULL : &out)
                                     : pto_buffer_wrap(memory, nbytes, null_out ? NULL : &out);
    check_status(fn, got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel, "a failed %s changed *out", fn);
        return;
    }
    CHECK(pto_buffer_size(out) == nbytes, "%s: size %zu, asked %zu", fn, pto_buffer_size(out), nbytes);
    const unsigned char *bytes = pto_buffer_data(out);
    if (kind == 0) {
        CHECK(((uintptr_t)bytes & 63) == 0, "buffer storage is not 64-byte aligned");
        for (size_t i = 0; i < nbytes; i++) CHECK(bytes[i] == 0, "new buffer is not zeroed");
    } else {
        CHECK(bytes == memory, "a wrapped buffer does not use the caller's memory");
    }
    if (pin >= 0) st->pinned[pin] = 1;
    pto_buffer_destroy(st->buffer[slot]); /* tiles placed in it keep it alive */
    st->buffer[slot] = out;
}

static void op_buffer_destroy(reader *r, state *st) {
    const int b = take(r) % (kBufferSlots + 1);
    if (b == kBufferSlots) {
        pto_buffer_destroy(NULL);
        return;
    }
    pto_buffer_destroy(st->buffer[b]);
    st->buffer[b] = NULL;
}

/* An offset in a buffer of `size` bytes: mostly inside (any byte), sometimes
 * at or beyond the end, or near SIZE_MAX. */
static size_t take_offset(reader *r, size_t size) {
    const uint8_t b = take(r);
    if (b < 0xE0) return (((size_t)b << 8) | take(r)) % (size + 1);
    static const size_t kFar[16] = {0, 1, 2, 3, 4, 63, 64, SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 3,
                                    SIZE_MAX / 2, (size_t)1 << 40, (size_t)PTO_TILE_MAX_BYTES,
                                    (size_t)PTO_TILE_MAX_BYTES + 4, 4096, 0x1000 + 2};
    if (b < 0xF0) return size - (b & 15) * (b & 1 ? 1 : 4); /* wraps below 0 when size is small */
    return kFar[b & 15];
}

/* TASSIGN: a tile at an offset of a buffer slot (or NULL). */
static void op_create_at(reader *r, state *st) {
    const int slot = take(r) % kSlots;
    const int bslot = take(r) % (kBufferSlots + 1);
    pto_buffer *buffer = bslot < kBufferSlots ? st->buffer[bslot] : NULL;
    const pto_dtype dtype = take_dtype(r);
    const uint32_t rows = take_dim(r), cols = take_dim(r);
    const size_t offset = take_offset(r, pto_buffer_size(buffer));
    const int null_out = take(r) % 16 == 0;

    const size_t size = pto_dtype_size(dtype);
    const uint64_t elements = (uint64_t)rows * cols;
    const uintptr_t address = (uintptr_t)pto_buffer_data(buffer) + offset;
    pto_status want = PTO_OK;
    if (buffer == NULL || null_out)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (size == 0 || rows == 0 || cols == 0 || elements > PTO_TILE_MAX_BYTES / size ||
             address % size != 0)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (offset > pto_buffer_size(buffer) || elements * size > pto_buffer_size(buffer) - offset)
        want = PTO_ERR_OUT_OF_RANGE;

    unsigned char *before = NULL;
    if (want == PTO_OK) {
        before = malloc(elements * size);
        CHECK(before != NULL, "out of memory in the harness");
        memcpy(before, (const void *)address, elements * size);
    }
    pto_tile *const sentinel = (pto_tile *)(uintptr_t)0x5A5A5A50;
    pto_tile *out = sentinel;
    const pto_status got =
        pto_tile_create_at(dtype, rows, cols, buffer, offset, null_out ? NULL : &out);
    check_status("pto_tile_create_at", got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel, "a failed pto_tile_create_at changed *out");
        return;
    }
    CHECK(pto_tile_data(out) == (void *)address && pto_tile_buffer(out) == buffer &&
              pto_tile_offset(out) == offset && pto_tile_rows(out) == rows &&
              pto_tile_cols(out) == cols && pto_tile_valid_rows(out) == rows &&
              pto_tile_valid_cols(out) == cols && pto_tile_dtype(out) == dtype,
          "placed tile has the wrong place or shape");
    CHECK(memcmp(before, (const void *)address, elements * size) == 0,
          "pto_tile_create_at changed the bytes it placed the tile on");
    free(before);
    slot_release(st, slot);
    st->slot[slot] = out;
}

static void op_set_profile(reader *r) {
    static const int kOdd[16] = {3, -1, INT_MIN, INT_MAX, 4, 255, 256, -2,
                                 0, 1, 2, 100, 0x7FFF, 0x10000, 7, 8};
    const uint8_t b = take(r);
    const int value = b < 0xF0 ? b % 3 : kOdd[b - 0xF0];
    const pto_status want = value >= 0 && value <= 2 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT;
    check_status("pto_set_profile", pto_set_profile((pto_profile)value), want);
    if (want == PTO_OK) g_profile = (pto_profile)value;
    CHECK(pto_get_profile() == g_profile, "profile %d, expected %d", (int)pto_get_profile(),
          (int)g_profile);
    CHECK(pto_profile_string((pto_profile)value) != NULL, "pto_profile_string is NULL");
}

static void op_set_valid(reader *r, state *st) {
    pto_tile *t = take_tile(r, st);
    const uint32_t vr = take_extent(r, pto_tile_rows(t));
    const uint32_t vc = take_extent(r, pto_tile_cols(t));
    pto_status want = PTO_OK;
    if (t == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (vr > pto_tile_rows(t) || vc > pto_tile_cols(t))
        want = PTO_ERR_OUT_OF_RANGE;
    snapshot before;
    snapshot_take(&before, t);
    check_status("pto_tile_set_valid", pto_tile_set_valid(t, vr, vc), want);
    if (want != PTO_OK) {
        check_unchanged(&before, "pto_tile_set_valid");
    } else {
        CHECK(pto_tile_valid_rows(t) == vr && pto_tile_valid_cols(t) == vc,
              "pto_tile_set_valid did not set the region");
        CHECK(memcmp(pto_tile_data(t), before.data, before.bytes) == 0,
              "pto_tile_set_valid changed the data");
    }
    snapshot_free(&before);
}

/* A float for write_f32: specials, small values or raw bits from the input. */
static float take_float(reader *r) {
    static const float kSpecial[16] = {0.0f,  -0.0f,     INFINITY,  -INFINITY, NAN,      -NAN,
                                       1e-45f, -1e-45f,  1e-40f,    6e-8f,     65504.0f, 65520.0f,
                                       3e38f,  1.0f / 3, 1.00390625f, -2.0f};
    const uint8_t b = take(r);
    if (b < 0x10) return kSpecial[b];
    if (b < 0xF0) return (float)((int)b - 0x80) / 8.0f;
    const uint32_t bits = take_u32(r);
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* What a whole-tile copy call is given and what the contract says it
 * returns: the element or byte count read from the input (mostly the exact
 * one), whether the buffer is NULL, and the expected status. */
typedef struct {
    const char *fn;
    size_t elements, exact, count, unit;
    int null_buffer;
    pto_status want;
} copy_call;

static copy_call plan_copy(reader *r, const pto_tile *t, int as_f32, const char *fn) {
    copy_call c;
    c.fn = fn;
    c.elements = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    c.exact = as_f32 ? c.elements : tile_bytes(t);
    c.count = take_count(r, c.exact);
    c.null_buffer = take(r) % 16 == 0;
    c.unit = as_f32 ? sizeof(float) : 1;
    c.want = PTO_OK;
    if (t == NULL || c.null_buffer)
        c.want = PTO_ERR_NULL_ARGUMENT;
    else if (as_f32 && !ref_is_float(pto_tile_dtype(t)))
        c.want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (c.count != c.exact)
        c.want = PTO_ERR_INVALID_ARGUMENT;
    return c;
}

static void op_write(reader *r, state *st, int as_f32) {
    pto_tile *t = take_tile(r, st);
    const copy_call c = plan_copy(r, t, as_f32, as_f32 ? "pto_tile_write_f32" : "pto_tile_write");
    const char *fn = c.fn;
    const size_t elements = c.elements, exact = c.exact, count = c.count, unit = c.unit;
    const int null_src = c.null_buffer;
    const pto_status want = c.want;
    /* The source holds exactly `exact` values, so a library that trusted a
     * larger count would overrun it (and trip AddressSanitizer). */
    unsigned char *src = malloc(exact * unit + 1);
    CHECK(src != NULL, "out of memory in the harness");
    for (size_t i = 0; i < exact; i++) {
        if (as_f32) {
            const float f = take_float(r);
            memcpy(src + i * unit, &f, sizeof(f));
        } else {
            src[i] = take(r);
        }
    }

    snapshot before;
    snapshot_take(&before, t);
    const pto_status got = as_f32 ? pto_tile_write_f32(t, null_src ? NULL : (const float *)src, count)
                                  : pto_tile_write(t, null_src ? NULL : src, count);
    check_status(fn, got, want);
    if (got != PTO_OK) {
        check_unchanged(&before, fn);
    } else if (!as_f32) {
        CHECK(memcmp(pto_tile_data(t), src, exact) == 0, "pto_tile_write: bytes differ");
    } else {
        const pto_dtype d = pto_tile_dtype(t);
        for (size_t i = 0; i < elements; i++) {
            float f;
            memcpy(&f, src + i * unit, sizeof(f));
            const uint32_t got_bits = ref_load(d, pto_tile_data(t), i);
            CHECK((isnan(f) && ref_is_nan(d, got_bits)) || got_bits == ref_from_double(d, f),
                  "pto_tile_write_f32: dtype %d element %zu (%a) is not rounded to nearest even",
                  (int)d, i, (double)f);
        }
    }
    snapshot_free(&before);
    free(src);
}

static void op_read(reader *r, state *st, int as_f32) {
    const pto_tile *t = take_tile(r, st);
    const copy_call c = plan_copy(r, t, as_f32, as_f32 ? "pto_tile_read_f32" : "pto_tile_read");
    const char *fn = c.fn;
    const size_t elements = c.elements, exact = c.exact, count = c.count, unit = c.unit;
    const int null_dst = c.null_buffer;
    const pto_status want = c.want;
    unsigned char *out = malloc(exact * unit + 1);
    CHECK(out != NULL, "out of memory in the harness");
    memset(out, 0xA5, exact * unit + 1);
    snapshot before;
    snapshot_take(&before, t);
    const pto_status got = as_f32 ? pto_tile_read_f32(t, null_dst ? NULL : (float *)out, count)
                                  : pto_tile_read(t, null_dst ? NULL : out, count);
    check_status(fn, got, want);
    check_unchanged(&before, fn);
    if (got != PTO_OK) {
        for (size_t i = 0; i < exact * unit; i++) CHECK(out[i] == 0xA5, "%s wrote after failing", fn);
    } else if (!as_f32) {
        CHECK(memcmp(out, before.data, exact) == 0, "pto_tile_read: bytes differ");
    } else {
        for (size_t i = 0; i < elements; i++) {
            float f;
            memcpy(&f, out + i * unit, sizeof(f));
            const double w = ref_to_double(before.dtype, ref_load(before.dtype, before.data, i));
            CHECK((isnan(w) && isnan(f)) || ((double)f == w && !signbit(f) == !signbit(w)),
                  "pto_tile_read_f32: element %zu is %a, want %a", i, (double)f, w);
        }
    }
    snapshot_free(&before);
    free(out);
}

/* The binary operations (tprelu, tpartadd, tcolexpanddiv) share the
 * snapshot / call / compare sequence. */
static void op_binary(reader *r, state *st, op_id op) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = take_tile(r, st);
    pto_tile *tmp = op == OP_TPRELU ? take_tile(r, st) : NULL;
    const char *fn = op_name(op);

    pto_status want = PTO_OK;
    const pto_tile *const typed[3] = {dst, a, b};
    int partadd_a_full = 0;
    const int a2a3_prelu = op == OP_TPRELU && g_profile == PTO_PROFILE_A2A3;
    if (dst == NULL || a == NULL || b == NULL || (a2a3_prelu && tmp == NULL)) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (op == OP_TCOLEXPANDDIV && !is_f32_or_f16(pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (op == OP_TPARTADD && !profile_accepts_dtype(0, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (op == OP_TPRELU && g_profile != PTO_PROFILE_HOST && !is_f32_or_f16(pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE; /* the NPUs' tprelu: FLOAT16 and FLOAT32 */
    } else if (!dtypes_equal(typed, 3)) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (a2a3_prelu && pto_tile_dtype(tmp) != PTO_UINT8) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (tmp != NULL && (tmp == dst || tmp == a || tmp == b)) {
        want = PTO_ERR_ALIASING;
    } else if (clashes_with_dst(a, dst) || clashes_with_dst(b, dst)) {
        want = PTO_ERR_ALIASING;
    } else if (a2a3_prelu && (a2a3_clash(a, dst) || a2a3_clash(b, dst) || a2a3_clash(b, a) ||
                              a2a3_clash(tmp, dst) || a2a3_clash(tmp, a) || a2a3_clash(tmp, b))) {
        want = PTO_ERR_ALIASING;
    } else if (op == OP_TPRELU) {
        if (!same_region(a, dst) || !same_region(b, dst) ||
            (a2a3_prelu && (pto_tile_valid_rows(tmp) != pto_tile_valid_rows(dst) ||
                            (uint64_t)pto_tile_rows(tmp) < (uint64_t)pto_tile_valid_rows(dst) + 1 ||
                            pto_tile_valid_cols(tmp) < pto_tile_valid_cols(dst) / 8 +
                                                           (pto_tile_valid_cols(dst) % 8 != 0))))
            want = PTO_ERR_SHAPE_MISMATCH;
    } else if (op == OP_TCOLEXPANDDIV) {
        if (!same_region(a, dst) || pto_tile_valid_rows(b) < 1 ||
            pto_tile_valid_cols(b) < pto_tile_valid_cols(dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    } else {
        partadd_a_full = same_region(a, dst) && region_fits(b, dst);
        const int b_full = same_region(b, dst) && region_fits(a, dst);
        if (!partadd_a_full && !b_full) want = PTO_ERR_SHAPE_MISMATCH;
    }

    const pto_tile *const operands[4] = {dst, a, b, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, 4);
    pto_status got;
    switch (op) {
    case OP_TPRELU: got = pto_tprelu(dst, a, b, tmp); break;
    case OP_TPARTADD: got = pto_tpartadd(dst, a, b); break;
    default: got = pto_tcolexpanddiv(dst, a, b); break;
    }
    check_status(fn, got, want);
    check_operands_unchanged(&before, got, dst, fn);
    if (got == PTO_OK) {
        const snapshot *sd = snapshot_of(&before, dst);
        const snapshot *sa = snapshot_of(&before, a);
        const snapshot *sb = snapshot_of(&before, b);
        check_outside_region(sd, dst, fn);
        unsigned char *want_bytes;
        if (op == OP_TPRELU) {
            want_bytes = expected_from(sd, ref_prelu, sa, sb, 0, NULL);
        } else if (op == OP_TCOLEXPANDDIV) {
            want_bytes = expected_from(sd, ref_div, sa, sb, 1, NULL);
        } else {
            /* Sum where both are valid, a copy of the full one elsewhere. */
            const snapshot *full = partadd_a_full ? sa : sb;
            const snapshot *part = partadd_a_full ? sb : sa;
            want_bytes = expected_from(sd, ref_add, full, part, 0, part);
        }
        check_values(dst, want_bytes, fn);
        free(want_bytes);
    }
    snapshots_free(&before);
}

static void op_rsqrt(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!is_f32_or_f16(pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (pto_tile_dtype(src) != pto_tile_dtype(dst))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (clashes_with_dst(src, dst))
        want = PTO_ERR_ALIASING;
    else if (!same_region(src, dst))
        want = PTO_ERR_SHAPE_MISMATCH;
    const pto_tile *const operands[2] = {dst, src};
    operand_snapshots before;
    snapshots_take(&before, operands, 2);
    const pto_status got = pto_trsqrt(dst, src);
    check_status("pto_trsqrt", got, want);
    check_operands_unchanged(&before, got, dst, "pto_trsqrt");
    if (got == PTO_OK) {
        check_outside_region(snapshot_of(&before, dst), dst, "pto_trsqrt");
        check_rsqrt(dst, snapshot_of(&before, src));
    }
    snapshots_free(&before);
}

/* tpow: statuses, untouched operands and the region rule; its values are
 * checked by the core suite against a reference too costly to run here. */
static void op_pow(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *base = take_tile(r, st);
    const pto_tile *ex = take_tile(r, st);
    pto_tile *tmp = take_tile(r, st);
    const pto_pow_algorithm algo = take_algo(r);
    pto_status want = PTO_OK;
    const pto_tile *const typed[4] = {dst, base, ex, tmp};
    if (dst == NULL || base == NULL || ex == NULL || tmp == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if ((int)algo < 0 || (int)algo > 1)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (g_profile == PTO_PROFILE_A2A3 ? !profile_accepts_dtype(1, pto_tile_dtype(dst))
             : algo == PTO_POW_HIGH_PRECISION && !ref_is_float(pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE; /* A2A3 ignores the algorithm */
    else if (!dtypes_equal(typed, 4))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (tmp == dst || tmp == base || tmp == ex || clashes_with_dst(base, dst) ||
             clashes_with_dst(ex, dst))
        want = PTO_ERR_ALIASING;
    else if (!same_region(base, dst) || !same_region(ex, dst) || !same_region(tmp, dst))
        want = PTO_ERR_SHAPE_MISMATCH;
    operand_snapshots before;
    snapshots_take(&before, typed, 4);
    const pto_status got = pto_tpow(dst, base, ex, tmp, algo);
    check_status("pto_tpow", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tpow"); /* tmp included: never written */
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_tpow");
    snapshots_free(&before);
}

/* The contract's rule for a tile-scalar operation's scalar: an integer
 * dtype holds an integer value within its range; a float dtype any value. */
static int scalar_is_value_of(pto_dtype d, double scalar) {
    if (ref_is_float(d)) return 1;
    const unsigned bits = ref_bits(d);
    const double low = ref_is_signed(d) ? -ldexp(1.0, (int)bits - 1) : 0.0;
    const double high = ldexp(1.0, ref_is_signed(d) ? (int)bits - 1 : (int)bits) - 1;
    return scalar == trunc(scalar) && scalar >= low && scalar <= high;
}

/* An operation of the Binary, Unary, Scalar or Fill family: the family's rules in the
 * contract's order, with the dtypes of its operations.def row under the
 * profile, and its elementwise reference. A Unary row's b is a (unused). */
static void op_elementwise(reader *r, state *st, op_id op) {
    const bool fill = op_row(op)->family == OP_FAMILY_FILL; /* no source: dst stands in */
    const bool unary = op_row(op)->source_count == 1;
    const bool scalar_row = op_row(op)->family == OP_FAMILY_SCALAR || fill;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = fill ? dst : take_tile(r, st);
    const pto_tile *b = unary || fill ? a : take_tile(r, st);
    const char *fn = op_name(op);
    /* A Scalar row's scalar: any 64 bits, or a small integer (which every
     * dtype holds) more often. */
    double scalar = 0;
    if (scalar_row) {
        if (take(r) & 1) {
            const uint64_t bits = (uint64_t)take_u32(r) << 32 | take_u32(r);
            memcpy(&scalar, &bits, sizeof scalar);
        } else {
            scalar = (double)(int8_t)take(r);
        }
    }

    pto_status want = PTO_OK;
    const pto_tile *const typed[3] = {dst, a, b};
    if (dst == NULL || a == NULL || b == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!op_accepts(op, g_profile, pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (!dtypes_equal(typed, 3))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (scalar_row && !scalar_is_value_of(pto_tile_dtype(dst), scalar))
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (clashes_with_dst(a, dst) || clashes_with_dst(b, dst) ||
             (op == OP_TRECIP && g_profile == PTO_PROFILE_A2A3 && a2a3_clash(a, dst)))
        want = PTO_ERR_ALIASING;
    else if (!same_region(a, dst) || !same_region(b, dst))
        want = PTO_ERR_SHAPE_MISMATCH;

    const pto_tile *const operands[3] = {dst, a, b};
    operand_snapshots before;
    snapshots_take(&before, operands, fill ? 1 : unary ? 2 : 3);
    const pto_status got =
        scalar_row ? op_scalar_function(op)(dst, a, scalar)
                   : op_call(op, PTO_POW_DEFAULT, dst, (pto_tile *)a, (pto_tile *)b, NULL);
    check_status(fn, got, want);
    check_operands_unchanged(&before, got, dst, fn);
    if (got == PTO_OK) {
        const snapshot *sd = snapshot_of(&before, dst);
        check_outside_region(sd, dst, fn);
        /* A Scalar row's b: row 0 of the scalar, rounded once to the dtype. */
        snapshot scalar_row0 = {0};
        unsigned char *scalar_bytes = NULL;
        if (scalar_row) {
            const pto_dtype d = pto_tile_dtype(dst);
            const uint32_t bits = ref_is_float(d) ? ref_from_double(d, scalar)
                                                  : ref_int_wrap(d, (uint64_t)(int64_t)scalar);
            scalar_bytes = malloc((size_t)pto_tile_valid_cols(dst) * 4 + 4);
            CHECK(scalar_bytes != NULL, "out of memory in the harness");
            for (uint32_t j = 0; j < pto_tile_valid_cols(dst); ++j) ref_store(d, scalar_bytes, j, bits);
            scalar_row0.dtype = d;
            scalar_row0.cols = pto_tile_valid_cols(dst);
            scalar_row0.data = scalar_bytes;
        }
        unsigned char *want_bytes = expected_from(sd, op_binary_reference(op),
                                                  snapshot_of(&before, a),
                                                  scalar_row ? &scalar_row0 : snapshot_of(&before, b),
                                                  scalar_row, NULL);
        check_values(dst, want_bytes, fn);
        free(want_bytes);
        free(scalar_bytes);
    }
    snapshots_free(&before);
}

/* A reduction (RowReduce, ColReduce): the families' rules in the contract's
 * order under the profile (A2A3's row tmp, tcolsum's binary-order tmp on
 * A2A3 and A5), and on success the order's reference (reduce_ref.c) in dst's
 * column 0 (row 0), every other element of dst unchanged. */
static void op_reduction(reader *r, state *st, op_id op) {
    const bool rows = op_row(op)->family == OP_FAMILY_ROW_REDUCE;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_tile *tmp = (take(r) & 3) == 0 ? NULL : take_tile(r, st);
    const uint8_t order_byte = take(r);
    const int binary = op == OP_TCOLSUM ? (order_byte < 8 ? (int)order_byte - 3 : order_byte & 1) : 0;
    const char *fn = op_name(op);
    const bool a2a3_tmp = rows && g_profile == PTO_PROFILE_A2A3;
    const bool binary_tmp = op == OP_TCOLSUM && binary == 1 && g_profile != PTO_PROFILE_HOST;
    const bool tmp_rules = a2a3_tmp || binary_tmp;

    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (op == OP_TCOLSUM && (binary < 0 || binary > 1))
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (tmp_rules && tmp == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!op_accepts(op, g_profile, pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (pto_tile_dtype(src) != pto_tile_dtype(dst) ||
             (tmp_rules && pto_tile_dtype(tmp) != pto_tile_dtype(dst)))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if ((tmp != NULL && (tmp == dst || tmp == src)) || clashes_with_dst(src, dst))
        want = PTO_ERR_ALIASING;
    if (want == PTO_OK) {
        const uint32_t sr = pto_tile_valid_rows(src), sc = pto_tile_valid_cols(src);
        const bool empty = sr == 0 || sc == 0;
        if (rows && (empty || pto_tile_valid_rows(dst) != sr || pto_tile_valid_cols(dst) < 1))
            want = PTO_ERR_SHAPE_MISMATCH;
        if (!rows && (pto_tile_valid_cols(dst) != sc || (!empty && pto_tile_valid_rows(dst) < 1)))
            want = PTO_ERR_SHAPE_MISMATCH;
        const size_t size = pto_dtype_size(pto_tile_dtype(dst));
        if (want == PTO_OK && a2a3_tmp) {
            const uint32_t e = (uint32_t)(256 / size), whole = sc / e;
            if (!ref_is_float(pto_tile_dtype(dst))) {
                if (pto_tile_cols(tmp) < 32 / size) want = PTO_ERR_SHAPE_MISMATCH;
            } else if (sc > e && (pto_tile_rows(tmp) < sr ||
                                  pto_tile_cols(tmp) < e * (whole / 2 > 1 ? whole / 2 : 1))) {
                want = PTO_ERR_SHAPE_MISMATCH;
            }
        }
        if (want == PTO_OK && binary_tmp && !empty &&
            (pto_tile_cols(tmp) < sc || pto_tile_rows(tmp) < sr / 2 + sr % 2))
            want = PTO_ERR_SHAPE_MISMATCH;
    }

    const pto_tile *const operands[3] = {dst, src, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, 3);
    const pto_status got = op_call(op, (pto_pow_algorithm)binary, dst, (pto_tile *)src, NULL, tmp);
    check_status(fn, got, want);
    check_operands_unchanged(&before, got, dst, fn);
    if (got == PTO_OK && pto_tile_valid_rows(src) != 0 && pto_tile_valid_cols(src) != 0) {
        const snapshot *sd = snapshot_of(&before, dst);
        const snapshot *ss = snapshot_of(&before, src);
        const pto_dtype d = pto_tile_dtype(dst);
        const uint32_t sr = pto_tile_valid_rows(src), sc = pto_tile_valid_cols(src);
        uint32_t *results = malloc(sizeof(uint32_t) * (rows ? sr : sc));
        CHECK(results != NULL, "out of memory in the harness");
        op_reduce_reference(op, g_profile, binary, d, ss->data, sr, sc, ss->cols, results);
        unsigned char *want_bytes = malloc(sd->bytes);
        CHECK(want_bytes != NULL, "out of memory in the harness");
        memcpy(want_bytes, sd->data, sd->bytes);
        for (uint32_t k = 0; k < (rows ? sr : sc); ++k)
            ref_store(d, want_bytes, rows ? (size_t)k * sd->cols : k, results[k]);
        CHECK(memcmp(pto_tile_data(dst), want_bytes, sd->bytes) == 0,
              "%s: dst differs from the order's reference or was written elsewhere", fn);
        free(want_bytes);
        free(results);
    } else if (got == PTO_OK) {
        check_unchanged(snapshot_of(&before, dst), fn);
    }
    snapshots_free(&before);
}

/* A broadcast row (RowExpand, ColExpand): the families' rules in the
 * contract's order (no tmp), and the per-element reference with the
 * expanded source read at its row's or column's element. With two sources
 * the full one is a when its valid region is dst's, else b; a row
 * broadcast's expanded source is R x 1 (Mode 1) or R x 32/size (Mode 2), a
 * column broadcast's has a row and dst's valid columns at least. */
static void op_broadcast(reader *r, state *st, op_id op) {
    const bool one = op_row(op)->source_count == 1;
    const bool row = op_row(op)->family == OP_FAMILY_ROW_EXPAND;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = one ? a : take_tile(r, st);
    const char *fn = op_name(op);
    pto_status want = PTO_OK;
    const pto_tile *const typed[3] = {dst, a, b};
    const pto_tile *full = NULL, *e = a;
    /* src0 is the expanded operand (f's first) only when src1 is the full
     * one; one handle passed as both sources is src0 = full, src1 =
     * expanded, so the roles are told apart by position, not by pointer. */
    bool expanded_first = false;
    if (dst == NULL || a == NULL || b == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (!op_accepts(op, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (!dtypes_equal(typed, 3)) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (clashes_with_dst(a, dst) || clashes_with_dst(b, dst)) {
        want = PTO_ERR_ALIASING;
    } else {
        const uint32_t R = pto_tile_valid_rows(dst), C = pto_tile_valid_cols(dst);
        const bool empty = R == 0 || C == 0;
        if (!one) {
            full = same_region(a, dst) ? a : same_region(b, dst) ? b : NULL;
            e = full == a ? b : a;
            expanded_first = full != NULL && full != a;
        }
        const uint32_t er = pto_tile_valid_rows(e), ec = pto_tile_valid_cols(e);
        const uint32_t block = 32 / (uint32_t)pto_dtype_size(pto_tile_dtype(dst));
        int ok;
        if (!one && full == NULL) ok = 0;
        else if (one && row) ok = er == R && (ec >= 1 || empty);
        else if (one) ok = ec == C && (er >= 1 || empty);
        else if (row) ok = er == R && (ec == 1 || ec == block);
        else ok = (er >= 1 || empty) && ec >= C;
        if (!ok) want = PTO_ERR_SHAPE_MISMATCH;
    }

    const pto_tile *const operands[3] = {dst, a, b};
    operand_snapshots before;
    snapshots_take(&before, operands, one ? 2 : 3);
    const pto_status got = op_call(op, PTO_POW_DEFAULT, dst, (pto_tile *)a, (pto_tile *)b, NULL);
    check_status(fn, got, want);
    check_operands_unchanged(&before, got, dst, fn);
    if (got == PTO_OK) {
        const snapshot *sd = snapshot_of(&before, dst);
        const snapshot *se = snapshot_of(&before, e);
        const snapshot *sf = full != NULL ? snapshot_of(&before, full) : NULL;
        check_outside_region(sd, dst, fn);
        const pto_dtype d = sd->dtype;
        const element_rule rule = op_binary_reference(op);
        const uint32_t ec = se->valid_cols;
        unsigned char *want_bytes = malloc(sd->bytes);
        CHECK(want_bytes != NULL, "out of memory in the harness");
        memcpy(want_bytes, sd->data, sd->bytes);
        for (uint32_t i = 0; i < sd->valid_rows; i++) {
            for (uint32_t j = 0; j < sd->valid_cols; j++) {
                const size_t ke = row ? (size_t)i * se->cols + (ec == 1 || one ? 0 : j % ec)
                                      : (size_t)j;
                const uint32_t s = ref_load(d, se->data, ke);
                uint32_t v = s;
                if (!one) {
                    const uint32_t x = ref_load(d, sf->data, (size_t)i * sf->cols + j);
                    v = expanded_first ? rule(d, s, x) : rule(d, x, s);
                }
                ref_store(d, want_bytes, (size_t)i * sd->cols + j, v);
            }
        }
        check_values(dst, want_bytes, fn);
        free(want_bytes);
    }
    snapshots_free(&before);
}

/* tcvt's (src, dst) pairs: bit dst of row src under A2A3 and A5 (the
 * contract's table, pto_c.h); HOST takes their union. */
static int convert_pair_accepted(pto_dtype src, pto_dtype dst) {
#define B(d) (1u << PTO_##d)
    static const uint32_t kA2A3[9] = {
        [PTO_FLOAT32] = B(FLOAT16) | B(FLOAT32) | B(BFLOAT16) | B(INT16) | B(INT32),
        [PTO_FLOAT16] = B(FLOAT32) | B(INT32) | B(INT16) | B(INT8) | B(UINT8),
        [PTO_BFLOAT16] = B(FLOAT32) | B(INT32),
        [PTO_INT16] = B(FLOAT16) | B(FLOAT32),
        [PTO_INT32] = B(FLOAT32) | B(INT16) | B(FLOAT16),
        [PTO_UINT8] = B(FLOAT16),
        [PTO_INT8] = B(FLOAT16),
    };
    static const uint32_t kA5[9] = {
        [PTO_FLOAT32] = B(FLOAT32) | B(FLOAT16) | B(BFLOAT16) | B(INT16) | B(INT32),
        [PTO_FLOAT16] = B(FLOAT32) | B(INT32) | B(INT16) | B(INT8) | B(UINT8),
        [PTO_BFLOAT16] = B(FLOAT32) | B(INT32) | B(FLOAT16),
        [PTO_INT16] = B(UINT8) | B(FLOAT16) | B(FLOAT32) | B(UINT32) | B(INT32),
        [PTO_INT32] = B(FLOAT32) | B(INT16) | B(UINT16) | B(UINT8),
        [PTO_UINT8] = B(FLOAT16) | B(UINT16),
        [PTO_INT8] = B(FLOAT16) | B(INT16) | B(INT32),
        [PTO_UINT32] = B(UINT8) | B(UINT16) | B(INT16),
    };
#undef B
    const uint32_t row = g_profile == PTO_PROFILE_A2A3 ? kA2A3[src]
                         : g_profile == PTO_PROFILE_A5 ? kA5[src]
                                                       : kA2A3[src] | kA5[src];
    return (row >> dst) & 1u;
}

/* tcvt: its rules in the contract's order (NULLs, mode and sat, the pair,
 * ODD, tmp's handle, aliasing, regions); tmp never written, nothing written
 * on a refusal, nothing outside dst's region. Its values are test_tcvt's. */
static void op_convert(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_tile *tmp = (take(r) & 3) == 0 ? take_tile(r, st) : NULL;
    const int mode = (int)(take(r) % 9) - 1, sat = (int)(take(r) % 4) - 1;
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (mode < PTO_ROUND_NONE || mode > PTO_ROUND_ODD || sat < PTO_SAT_OFF || sat > PTO_SAT_ON) {
        want = PTO_ERR_INVALID_ARGUMENT;
    } else {
        const pto_dtype s = pto_tile_dtype(src), d = pto_tile_dtype(dst);
        const int same_size = pto_dtype_size(s) == pto_dtype_size(d);
        const int in_place = same_size && (src == dst || (pto_tile_data((pto_tile *)src) == pto_tile_data(dst) &&
                                                          pto_tile_cols(src) == pto_tile_cols(dst)));
        if (!convert_pair_accepted(s, d))
            want = PTO_ERR_UNSUPPORTED_DTYPE;
        else if (mode == PTO_ROUND_ODD && !(s == PTO_FLOAT32 && d == PTO_FLOAT16))
            want = PTO_ERR_INVALID_ARGUMENT;
        else if (tmp != NULL && (tmp == dst || tmp == src))
            want = PTO_ERR_ALIASING;
        else if (!in_place && (src == dst || regions_overlap(src, dst)))
            want = PTO_ERR_ALIASING;
        else if (!same_region(src, dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    const pto_tile *const operands[3] = {dst, src, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, tmp != NULL ? 3 : 2);
    const pto_status got = pto_tcvt(dst, src, tmp, (pto_round_mode)mode, (pto_saturation)sat);
    check_status("pto_tcvt", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tcvt"); /* tmp included: never written */
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_tcvt");
    snapshots_free(&before);
}

/* Whether a valid element of src shares a byte with dst's rows x cols
 * elements (one contiguous range). */
static int touches_whole_tile(const pto_tile *src, const pto_tile *dst) {
    const size_t es = pto_dtype_size(pto_tile_dtype(src));
    const uintptr_t lo = (uintptr_t)pto_tile_data((pto_tile *)dst);
    const uintptr_t hi = lo + (uintptr_t)pto_tile_rows(dst) * pto_tile_cols(dst) *
                                  pto_dtype_size(pto_tile_dtype(dst));
    const uintptr_t len = pto_tile_valid_cols(src) * es, stride = pto_tile_cols(src) * es;
    const uintptr_t p = (uintptr_t)pto_tile_data((pto_tile *)src);
    if (len == 0) return 0;
    for (uint32_t i = 0; i < pto_tile_valid_rows(src); ++i)
        if (p + i * stride < hi && lo < p + i * stride + len) return 1;
    return 0;
}

/* tfillpad: its rules in the contract's order (NULLs, the pad, dtypes and
 * their sizes, aliasing with dst's whole storage, src's region within dst's
 * shape, equal shapes under A2A3 and A5); nothing written on a refusal. Its
 * values are test_datamove's. */
static void op_fillpad(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    const int pad = (int)(take(r) % 6) - 1;
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (pad <= PTO_PAD_NULL || pad > PTO_PAD_MIN) {
        want = PTO_ERR_INVALID_ARGUMENT;
    } else if (!op_accepts(OP_TFILLPAD, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (pto_dtype_size(pto_tile_dtype(src)) != pto_dtype_size(pto_tile_dtype(dst))) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else {
        const int in_place = src == dst || (pto_tile_data((pto_tile *)src) == pto_tile_data(dst) &&
                                            pto_tile_cols(src) == pto_tile_cols(dst));
        if (!in_place && touches_whole_tile(src, dst))
            want = PTO_ERR_ALIASING;
        else if (pto_tile_valid_rows(src) > pto_tile_rows(dst) ||
                 pto_tile_valid_cols(src) > pto_tile_cols(dst))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (g_profile != PTO_PROFILE_HOST && (pto_tile_rows(src) != pto_tile_rows(dst) ||
                                                   pto_tile_cols(src) != pto_tile_cols(dst)))
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    const pto_tile *const operands[2] = {dst, src};
    operand_snapshots before;
    snapshots_take(&before, operands, 2);
    const pto_status got = pto_tfillpad(dst, src, (pto_pad_value)pad);
    check_status("pto_tfillpad", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tfillpad");
    snapshots_free(&before);
}

/* tci: its rules in the contract's order (NULL, descending, dtype, start,
 * one row under A2A3 and A5); nothing written on a refusal, nothing outside
 * dst's valid region. Its values are test_datamove's. */
static void op_sequence(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const int descending = (int)(take(r) % 4) - 1;
    const double start = (double)(int16_t)(take(r) | (uint16_t)take(r) << 8);
    pto_status want = PTO_OK;
    if (dst == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (descending < 0 || descending > 1)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (!op_accepts(OP_TCI, g_profile, pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (!scalar_is_value_of(pto_tile_dtype(dst), start))
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (g_profile != PTO_PROFILE_HOST && pto_tile_rows(dst) != 1)
        want = PTO_ERR_SHAPE_MISMATCH;
    const pto_tile *const operands[1] = {dst};
    operand_snapshots before;
    snapshots_take(&before, operands, 1);
    const pto_status got = pto_tci(dst, start, descending);
    check_status("pto_tci", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tci");
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_tci");
    snapshots_free(&before);
}

/* tpows: tpow's rules with a scalar exponent and no tmp (NULL, algo, dtype
 * by algorithm and profile, base's dtype, the scalar, aliasing, region);
 * nothing written on a refusal, nothing outside dst's valid region. Its
 * values (tpow's with the exponent in every element) are test_tpows's. */
static void op_tpows(reader *r, state *st) {
    static const double kExponents[] = {0, 1, 2, 3, -1, -2, 0.5, -0.5, 2.5, 1e10, -1e10,
                                        INFINITY, -INFINITY, NAN, 128, 65536};
    pto_tile *dst = take_tile(r, st);
    const pto_tile *base = take_tile(r, st);
    const pto_pow_algorithm algo = take_algo(r);
    const double exp = kExponents[take(r) % (sizeof kExponents / sizeof kExponents[0])];
    pto_status want = PTO_OK;
    if (dst == NULL || base == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if ((int)algo < 0 || (int)algo > 1)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (g_profile == PTO_PROFILE_A2A3 ? !profile_accepts_dtype(1, pto_tile_dtype(dst))
             : algo == PTO_POW_HIGH_PRECISION && !ref_is_float(pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (pto_tile_dtype(base) != pto_tile_dtype(dst))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (!scalar_is_value_of(pto_tile_dtype(dst), exp))
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (clashes_with_dst(base, dst))
        want = PTO_ERR_ALIASING;
    else if (!same_region(base, dst))
        want = PTO_ERR_SHAPE_MISMATCH;
    const pto_tile *const operands[2] = {dst, base};
    operand_snapshots before;
    snapshots_take(&before, operands, 2);
    const pto_status got = pto_tpows(dst, base, exp, algo);
    check_status("pto_tpows", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tpows");
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_tpows");
    snapshots_free(&before);
}

/* tcmp, tcmps, tsels on any operands (a mode possibly out of range, a
 * scalar from a small set): no crash, nothing written on a refusal, nothing
 * outside dst's valid region on success. Their rules and values are
 * test_compare's. */
static void op_compare_select(reader *r, state *st, op_id op) {
    static const double kScalars[] = {0, 1, -1, 0.5, 255, 70000, NAN, INFINITY};
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = op == OP_TCMPS ? NULL : take_tile(r, st);
    pto_tile *tmp = op == OP_TSELS ? take_tile(r, st) : NULL;
    const pto_cmp_mode mode = (pto_cmp_mode)((int)(take(r) % 8) - 1);
    const double scalar = kScalars[take(r) % (sizeof kScalars / sizeof kScalars[0])];
    const pto_tile *const operands[4] = {dst, a, b, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, 4);
    const pto_status got = op == OP_TCMP    ? pto_tcmp(dst, a, b, mode)
                           : op == OP_TCMPS ? pto_tcmps(dst, a, scalar, mode)
                                            : pto_tsels(dst, a, b, tmp, scalar);
    const char *fn = op_name(op);
    CHECK(got == PTO_OK || pto_last_error()[0] != '\0', "%s refused without a message", fn);
    check_operands_unchanged(&before, got, dst, fn);
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, fn);
    snapshots_free(&before);
}

/* treshape: NULLs, storages that share a byte without one start, sizes;
 * nothing written on a refusal. Its values are test_datamove's. */
static void op_reshape(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else {
        const uintptr_t d = (uintptr_t)pto_tile_data(dst), s = (uintptr_t)pto_tile_data((pto_tile *)src);
        const size_t db = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst) * pto_dtype_size(pto_tile_dtype(dst));
        const size_t sb = (size_t)pto_tile_rows(src) * pto_tile_cols(src) * pto_dtype_size(pto_tile_dtype(src));
        if (d != s && d < s + sb && s < d + db)
            want = PTO_ERR_ALIASING;
        else if (db != sb)
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    const pto_tile *const operands[2] = {dst, src};
    operand_snapshots before;
    snapshots_take(&before, operands, 2);
    const pto_status got = pto_treshape(dst, src);
    check_status("pto_treshape", got, want);
    check_operands_unchanged(&before, got, dst, "pto_treshape");
    snapshots_free(&before);
}

/* ttrans: NULLs, dtype sizes, tmp's handle, overlap, the transposed region,
 * A5's 32-byte rows; nothing written on a refusal, nothing outside dst's
 * region. Its values are test_datamove's. */
static void op_transpose(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_tile *tmp = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL || tmp == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (!op_accepts(OP_TTRANS, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (pto_dtype_size(pto_tile_dtype(src)) != pto_dtype_size(pto_tile_dtype(dst))) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (tmp == dst || tmp == src || src == dst || regions_overlap(src, dst)) {
        want = PTO_ERR_ALIASING;
    } else if (pto_tile_valid_rows(dst) != pto_tile_valid_cols(src) ||
               pto_tile_valid_cols(dst) != pto_tile_valid_rows(src)) {
        want = PTO_ERR_SHAPE_MISMATCH;
    } else if (g_profile == PTO_PROFILE_A5 &&
               ((pto_tile_cols(src) * pto_dtype_size(pto_tile_dtype(src))) % 32 != 0 ||
                (pto_tile_cols(dst) * pto_dtype_size(pto_tile_dtype(dst))) % 32 != 0)) {
        want = PTO_ERR_SHAPE_MISMATCH;
    }
    const pto_tile *const operands[3] = {dst, src, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, 3);
    const pto_status got = pto_ttrans(dst, src, tmp);
    check_status("pto_ttrans", got, want);
    check_operands_unchanged(&before, got, dst, "pto_ttrans");
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_ttrans");
    snapshots_free(&before);
}

/* tconcat: NULLs, dtypes, src0 in place or apart, src1 apart, rows and the
 * column sum; nothing written on a refusal, nothing outside dst's region. */
static void op_concat(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st), *b = take_tile(r, st);
    pto_status want = PTO_OK;
    const pto_tile *const typed[3] = {dst, a, b};
    if (dst == NULL || a == NULL || b == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!op_accepts(OP_TCONCAT, g_profile, pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (!dtypes_equal(typed, 3))
        want = PTO_ERR_DTYPE_MISMATCH;
    else if (clashes_with_dst(a, dst) || b == dst || same_placement(b, dst) || regions_overlap(b, dst))
        want = PTO_ERR_ALIASING;
    else if (pto_tile_valid_rows(a) != pto_tile_valid_rows(dst) ||
             pto_tile_valid_rows(b) != pto_tile_valid_rows(dst) ||
             (size_t)pto_tile_valid_cols(a) + pto_tile_valid_cols(b) != pto_tile_valid_cols(dst))
        want = PTO_ERR_SHAPE_MISMATCH;
    const pto_tile *const operands[3] = {dst, a, b};
    operand_snapshots before;
    snapshots_take(&before, operands, 3);
    const pto_status got = pto_tconcat(dst, a, b);
    check_status("pto_tconcat", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tconcat");
    if (got == PTO_OK) check_outside_region(snapshot_of(&before, dst), dst, "pto_tconcat");
    snapshots_free(&before);
}

/* Whether [index, index + extent) lies in [0, bound). */
static int span_fits(size_t index, uint32_t extent, uint32_t bound) {
    return index <= bound && extent <= bound - index;
}

/* An offset: mostly small (often inside the tiles), sometimes huge. */
static size_t take_index(reader *r) {
    const uint8_t b = take(r);
    return b == 255 ? (size_t)-1 - take(r) : b % 64;
}

/* textract: NULLs, dtypes, aliasing, the profiles' shape rules, the window
 * (offsets possibly huge); nothing written on a refusal, nothing outside
 * dst's valid region, the window's bits on success. */
static void op_extract(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    const size_t row = take_index(r), col = take_index(r);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (!op_accepts(OP_TEXTRACT, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (pto_tile_dtype(src) != pto_tile_dtype(dst)) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (a2a3_clash(src, dst)) {
        want = PTO_ERR_ALIASING;
    } else {
        const size_t size = pto_dtype_size(pto_tile_dtype(dst));
        const uint32_t dvr = pto_tile_valid_rows(dst), dvc = pto_tile_valid_cols(dst);
        const int one = dvr == 1 && dvc == 1;
        const int host = g_profile == PTO_PROFILE_HOST, a2a3 = g_profile == PTO_PROFILE_A2A3;
        if (!host && (pto_tile_rows(dst) > pto_tile_rows(src) || pto_tile_cols(dst) > pto_tile_cols(src)))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (a2a3 && ((pto_tile_cols(src) * size) % 32 != 0 || (pto_tile_cols(dst) * size) % 32 != 0 ||
                          (!one && (dvc * size) % 2 != 0)))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (!span_fits(row, dvr, pto_tile_valid_rows(src)) || !span_fits(col, dvc, pto_tile_valid_cols(src)))
            want = PTO_ERR_OUT_OF_RANGE;
        else if (!host && (!span_fits(row, pto_tile_rows(dst), pto_tile_rows(src)) ||
                           !span_fits(col, pto_tile_cols(dst), pto_tile_cols(src))))
            want = PTO_ERR_OUT_OF_RANGE;
        else if (a2a3 && !one && (col * size) % 32 != 0)
            want = PTO_ERR_OUT_OF_RANGE;
    }
    const pto_tile *const operands[2] = {dst, src};
    operand_snapshots before;
    snapshots_take(&before, operands, 2);
    const pto_status got = pto_textract(dst, src, row, col);
    check_status("pto_textract", got, want);
    check_operands_unchanged(&before, got, dst, "pto_textract");
    if (got == PTO_OK) {
        const snapshot *d = snapshot_of(&before, dst), *a = snapshot_of(&before, src);
        check_outside_region(d, dst, "pto_textract");
        const size_t size = pto_dtype_size(d->dtype);
        const unsigned char *now = pto_tile_data(dst);
        for (uint32_t i = 0; i < d->valid_rows; i++)
            CHECK(memcmp(now + (size_t)i * d->cols * size,
                         a->data + ((row + i) * a->cols + col) * size, d->valid_cols * size) == 0,
                  "pto_textract: dst row %u is not src's window", i);
    }
    snapshots_free(&before);
}

/* tgather: NULLs (A2A3's tmp), dtypes (indices' lists per profile, A2A3's
 * tmp), aliasing, regions and the profiles' contiguity, every index inside
 * src's valid region (the indices often written valid first); nothing
 * written on a refusal, the gathered bits on success. */
static void op_gather(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_tile *indices = take_tile(r, st), *tmp = take_tile(r, st);
    const int a2a3 = g_profile == PTO_PROFILE_A2A3, a5 = g_profile == PTO_PROFILE_A5;
    const pto_dtype xd = indices != NULL ? pto_tile_dtype(indices) : PTO_INT32;
    const int index_dtype = xd == PTO_INT32 || xd == PTO_UINT32 || (!a2a3 && (xd == PTO_INT16 || xd == PTO_UINT16));
    if (indices != NULL && src != NULL && index_dtype && (take(r) & 1) &&
        pto_tile_valid_rows(src) != 0 && pto_tile_valid_cols(src) != 0) {
        /* offsets of src's valid elements, where they fit the index dtype */
        for (uint32_t i = 0; i < pto_tile_valid_rows(indices); i++)
            for (uint32_t j = 0; j < pto_tile_valid_cols(indices); j++) {
                const uint32_t k = (uint32_t)(i * 7 + j * 3 + take(r));
                const uint32_t flat = (k % pto_tile_valid_rows(src)) * pto_tile_cols(src) +
                                      k % pto_tile_valid_cols(src);
                ref_store(xd, pto_tile_data(indices), (size_t)i * pto_tile_cols(indices) + j, flat);
            }
    }
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL || indices == NULL || (a2a3 && tmp == NULL)) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (!op_accepts(OP_TGATHER, g_profile, pto_tile_dtype(dst))) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (pto_tile_dtype(src) != pto_tile_dtype(dst)) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if (!index_dtype) {
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    } else if (a2a3 && pto_tile_dtype(tmp) != xd) {
        want = PTO_ERR_DTYPE_MISMATCH;
    } else if ((tmp != NULL && (tmp == dst || tmp == src || tmp == indices)) || a2a3_clash(src, dst) ||
               a2a3_clash(indices, dst)) {
        want = PTO_ERR_ALIASING;
    } else if (!same_region(indices, dst) ||
               (g_profile != PTO_PROFILE_HOST && pto_tile_valid_cols(dst) != pto_tile_cols(dst)) ||
               (a2a3 && (pto_tile_rows(tmp) != pto_tile_valid_rows(indices) ||
                         pto_tile_cols(tmp) != pto_tile_valid_cols(indices))) ||
               (a5 && pto_tile_valid_cols(indices) != pto_tile_cols(indices))) {
        want = PTO_ERR_SHAPE_MISMATCH;
    } else {
        for (uint32_t i = 0; i < pto_tile_valid_rows(dst) && want == PTO_OK; i++)
            for (uint32_t j = 0; j < pto_tile_valid_cols(dst); j++) {
                const uint32_t bits = ref_load(xd, pto_tile_data(indices), (size_t)i * pto_tile_cols(indices) + j);
                const int64_t k = ref_is_signed(xd) ? ref_int_value(xd, bits) : (int64_t)bits;
                if (k < 0 || (uint64_t)k / pto_tile_cols(src) >= pto_tile_valid_rows(src) ||
                    (uint64_t)k % pto_tile_cols(src) >= pto_tile_valid_cols(src)) {
                    want = PTO_ERR_OUT_OF_RANGE;
                    break;
                }
            }
    }
    const pto_tile *const operands[4] = {dst, src, indices, tmp};
    operand_snapshots before;
    snapshots_take(&before, operands, 4);
    const pto_status got = pto_tgather(dst, src, indices, tmp);
    check_status("pto_tgather", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tgather");
    if (got == PTO_OK) {
        const snapshot *d = snapshot_of(&before, dst), *a = snapshot_of(&before, src);
        const snapshot *x = snapshot_of(&before, indices);
        check_outside_region(d, dst, "pto_tgather");
        const size_t size = pto_dtype_size(d->dtype);
        const unsigned char *now = pto_tile_data(dst);
        for (uint32_t i = 0; i < d->valid_rows; i++)
            for (uint32_t j = 0; j < d->valid_cols; j++) {
                const uint32_t bits = ref_load(xd, x->data, (size_t)i * x->cols + j);
                const size_t k = (size_t)(ref_is_signed(xd) ? ref_int_value(xd, bits) : (int64_t)bits);
                CHECK(memcmp(now + ((size_t)i * d->cols + j) * size, a->data + k * size, size) == 0,
                      "pto_tgather: dst (%u,%u) is not src's element %zu", i, j, k);
            }
    }
    snapshots_free(&before);
}

/* tsetval, then tgetval of the same element: NULLs, the value's rule, the
 * index inside the valid region; nothing written on a refusal, only the
 * element on success, and tgetval reads back what tsetval stored. */
static void op_setval(reader *r, state *st) {
    static const double kValues[] = {0, 1, -1, 127, 128, 255, 256, -129, 65535, 65536, 0.5, -2.5,
                                     1e10, -1e40, INFINITY, NAN};
    pto_tile *dst = take_tile(r, st);
    const size_t index = take_index(r);
    const double value = kValues[take(r) % (sizeof kValues / sizeof kValues[0])];
    const int out_null = (take(r) & 7) == 0;
    pto_status want = PTO_OK;
    int in_region = 0;
    if (dst != NULL && pto_tile_cols(dst) != 0)
        in_region = index / pto_tile_cols(dst) < pto_tile_valid_rows(dst) &&
                    index % pto_tile_cols(dst) < pto_tile_valid_cols(dst);
    if (dst == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (!op_accepts(OP_TSETVAL, g_profile, pto_tile_dtype(dst)))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (!scalar_is_value_of(pto_tile_dtype(dst), value))
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (!in_region)
        want = PTO_ERR_OUT_OF_RANGE;
    const pto_tile *const operands[1] = {dst};
    operand_snapshots before;
    snapshots_take(&before, operands, 1);
    const pto_status got = pto_tsetval(dst, index, value);
    check_status("pto_tsetval", got, want);
    check_operands_unchanged(&before, got, dst, "pto_tsetval");
    if (got == PTO_OK) {
        const snapshot *d = snapshot_of(&before, dst);
        const size_t size = pto_dtype_size(d->dtype);
        const unsigned char *now = pto_tile_data(dst);
        for (size_t k = 0; k < (size_t)d->rows * d->cols; k++)
            CHECK(k == index || memcmp(now + k * size, d->data + k * size, size) == 0,
                  "pto_tsetval wrote element %zu, not only %zu", k, index);
        const uint32_t stored = ref_load(d->dtype, now, index);
        CHECK(stored == ref_from_double(d->dtype, value) || (isnan(value) && ref_is_nan(d->dtype, stored)),
              "pto_tsetval stored 0x%x for %g", stored, value);
    }
    snapshots_free(&before);
    double out = 42;
    const pto_status read = pto_tgetval(dst, index, out_null ? NULL : &out);
    const pto_status read_want = dst == NULL || out_null ? PTO_ERR_NULL_ARGUMENT
                                 : !in_region            ? PTO_ERR_OUT_OF_RANGE
                                                         : PTO_OK;
    check_status("pto_tgetval", read, read_want);
    if (read != PTO_OK) CHECK(out == 42, "pto_tgetval wrote *out on a refusal");
    if (read == PTO_OK && got == PTO_OK)
        CHECK(out == ref_to_double(pto_tile_dtype(dst), ref_from_double(pto_tile_dtype(dst), value)) ||
                  (isnan(out) && isnan(value)),
              "pto_tgetval read %g after pto_tsetval of %g", out, value);
}

/* One instruction call, its rules and checks by operation. */
static void op_instruction(reader *r, state *st, op_id op) {
    switch (op) {
    case OP_TPOW: op_pow(r, st); break;
    case OP_TRSQRT: op_rsqrt(r, st); break;
    case OP_TPRELU:
    case OP_TCOLEXPANDDIV:
    case OP_TPARTADD: op_binary(r, st, op); break;
    case OP_TCVT: op_convert(r, st); break;
    case OP_TFILLPAD: op_fillpad(r, st); break;
    case OP_TCI: op_sequence(r, st); break;
    case OP_TRESHAPE: op_reshape(r, st); break;
    case OP_TTRANS: op_transpose(r, st); break;
    case OP_TCONCAT: op_concat(r, st); break;
    case OP_TEXTRACT: op_extract(r, st); break;
    case OP_TGATHER: op_gather(r, st); break;
    case OP_TSETVAL: op_setval(r, st); break;
    case OP_TPOWS: op_tpows(r, st); break;
    case OP_TCMP:
    case OP_TCMPS:
    case OP_TSELS: op_compare_select(r, st, op); break;
    default: /* the families */
        if (op_is_reduction(op))
            op_reduction(r, st, op);
        else if (op_is_broadcast(op))
            op_broadcast(r, st, op);
        else
            op_elementwise(r, st, op);
        break;
    }
}

/* The calls that cannot fail: queries with arbitrary arguments. */
static void op_queries(reader *r) {
    const pto_status s = (pto_status)(int32_t)take_u32(r);
    const char *name = pto_status_string(s);
    CHECK(name != NULL && name[0] != '\0', "pto_status_string(%d) is empty", (int)s);
    const pto_dtype d = (pto_dtype)(int32_t)take_u32(r);
    const size_t size = pto_dtype_size(d);
    CHECK(((unsigned)d <= PTO_FLOAT32) == (size != 0), "pto_dtype_size(%d) is %zu", (int)d, size);
    CHECK(pto_tile_rows(NULL) == 0 && pto_tile_cols(NULL) == 0 && pto_tile_valid_rows(NULL) == 0 &&
              pto_tile_valid_cols(NULL) == 0 && pto_tile_data(NULL) == NULL &&
              pto_tile_dtype(NULL) == (pto_dtype)0,
          "an accessor on NULL is not 0");
    CHECK(strcmp(pto_version_string(), PTO_VERSION_STRING) == 0, "version mismatch");
    CHECK(pto_buffer_data(NULL) == NULL && pto_buffer_size(NULL) == 0 &&
              pto_tile_buffer(NULL) == NULL && pto_tile_offset(NULL) == 0,
          "a buffer accessor on NULL is not 0");
    CHECK(pto_simd_target() != NULL, "pto_simd_target is NULL");
    CHECK(pto_last_error() != NULL, "pto_last_error is NULL");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    state st;
    memset(&st, 0, sizeof(st));
    st.arena = calloc(kArenaBytes, 1);
    CHECK(st.arena != NULL, "out of memory in the harness");
    g_profile = PTO_PROFILE_HOST;
    CHECK(pto_set_profile(PTO_PROFILE_HOST) == PTO_OK, "pto_set_profile(HOST) failed");
    /* Bounded work per input, whatever its length. */
    for (int steps = 0; r.left > 0 && steps < 64; steps++) {
        const unsigned code = take(&r) % kOpcodes;
        if (code >= kFirstInstruction) {
            op_instruction(&r, &st, (op_id)(code - kFirstInstruction));
            continue;
        }
        switch (code) {
        case kCreate: op_create(&r, &st); break;
        case kDestroy: op_destroy(&r, &st); break;
        case kSetValid: op_set_valid(&r, &st); break;
        case kWrite: op_write(&r, &st, 0); break;
        case kWriteF32: op_write(&r, &st, 1); break;
        case kRead: op_read(&r, &st, take(&r) & 1); break;
        case kQueries: op_queries(&r); break;
        case kBuffer: op_buffer(&r, &st); break;
        case kBufferDestroy: op_buffer_destroy(&r, &st); break;
        case kCreateAt: op_create_at(&r, &st); break;
        case kSetProfile: op_set_profile(&r); break;
        default: op_create(&r, &st); break;
        }
    }
    for (int i = 0; i < kSlots; i++) pto_tile_destroy(st.slot[i]);
    for (int i = 0; i < st.buried; i++) pto_tile_destroy(st.graveyard[i]);
    for (int i = 0; i < kBufferSlots; i++) pto_buffer_destroy(st.buffer[i]);
    free(st.arena);
    return 0;
}
