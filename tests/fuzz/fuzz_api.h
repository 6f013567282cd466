/*
 * The API fuzz harness's own interface, shared by its files (fuzz_api.c is
 * the driver and describes the input encoding and what is checked):
 *  - fuzz_api_input.c      the argument decoders;
 *  - fuzz_api_checks.c     snapshots, the contract's check-order model and
 *                          the checks run after every call (checked_call);
 *  - fuzz_api_tiles.c      tile, buffer, profile and copy calls;
 *  - fuzz_api_elementwise.c, fuzz_api_reduce_broadcast.c,
 *    fuzz_api_convert_compare.c, fuzz_api_datamove.c: one function per
 *    instruction or family, each predicting its status.
 * Not a public header: the harness is built from these files alone.
 */
#ifndef PTO_FUZZ_API_H
#define PTO_FUZZ_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pto_c.h"
#include "support.h"

enum { kSlots = 4, kMaxOperands = 4, kBufferSlots = 2, kArenaBytes = 1 << 14, kMaxPinned = 64,
       kCallOperands = 8 };

/* Aborts (a crash to libFuzzer) with the condition, a message and the
 * library's last error when cond is false. */
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n  ", __FILE__, __LINE__, \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n  last error: \"%s\"\n", pto_last_error());     \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* ---- input decoding (fuzz_api_input.c) ---------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t left;
} reader;

/* The next byte, 0 once the input is spent. */
uint8_t take(reader *r);
/* Four bytes, little-endian. */
uint32_t take_u32(reader *r);
/* A dtype, sometimes one outside the enum. */
pto_dtype take_dtype(reader *r);
/* A tile dimension: mostly small (1..40), sometimes a vector-width edge,
 * zero, or one of the sizes that probe the byte limit and its overflow. */
uint32_t take_dim(reader *r);
/* A valid-region extent for a dimension of size n: mostly inside, sometimes
 * just beyond or far beyond. */
uint32_t take_extent(reader *r, uint32_t n);
/* A pow algorithm, sometimes one outside the enum. */
pto_pow_algorithm take_algo(reader *r);
/* A byte or element count near `exact`: right, off by one, zero, doubled or
 * absurd. */
size_t take_count(reader *r, size_t exact);
/* An offset: mostly small (often inside the tiles), sometimes an edge value
 * of the overflow rule (take_edge: 2^31, 2^32, 2^63, SIZE_MAX - 1, SIZE_MAX
 * and their neighbours) or near SIZE_MAX. */
size_t take_index(reader *r);
size_t take_edge(reader *r);

/* ---- the harness's tiles and buffers ------------------------------------ */

typedef struct {
    pto_tile *slot[kSlots];
    int pinned[kSlots];                /* a buffer wraps this tile's storage */
    pto_tile *graveyard[kMaxPinned];   /* pinned tiles whose slot was reused */
    int buried;
    pto_buffer *buffer[kBufferSlots];
    unsigned char *arena;              /* memory that wrapped buffers cover */
} state;

/* A tile operand: one of the slots (possibly still empty) or NULL. */
pto_tile *take_tile(reader *r, state *st);

/* ---- snapshots (fuzz_api_checks.c) -------------------------------------- */

typedef struct {
    const pto_tile *tile; /* NULL: unused entry */
    pto_dtype dtype;
    uint32_t rows, cols, valid_rows, valid_cols;
    size_t bytes;
    unsigned char *data;
} snapshot;

/* Operand snapshots for one call: one per distinct non-NULL handle. */
typedef struct {
    snapshot s[kMaxOperands];
} operand_snapshots;

/* rows * cols * the dtype's size. */
size_t tile_bytes(const pto_tile *t);
void snapshot_take(snapshot *s, const pto_tile *t);
void snapshot_free(snapshot *s);
/* The tile's shape, valid region and bytes are the snapshot's. */
void check_unchanged(const snapshot *s, const char *what);
const snapshot *snapshot_of(const operand_snapshots *o, const pto_tile *t);

/* ---- the contract's rules, as the model predicts them ------------------- */

/* The calling thread's profile as the harness set it. */
extern pto_profile g_profile;
/* The input's arena (the memory wrapped buffers cover), checked around every
 * instruction call. */
extern unsigned char *g_arena;
/* Board mode: the harness counts the library's warnings (installed once a
 * run); board_warned says whether one came since it was last asked. */
void board_mode_install(void);
int board_warned(void);

/* Every call's status is a member of the enum and the expected one; a failure
 * leaves a sentence that starts with the function's name. */
void check_status(const char *fn, pto_status got, pto_status want);

/* A tile only the cube's moves, extracts, inserts and multiplies take: a
 * cube memory's, or a vec tile laid out in NZ or ZN boxes. */
static inline int is_cube_tile(const pto_tile *t) {
    return t != NULL && (pto_tile_location(t) != PTO_LOC_VEC || pto_tile_layout(t) != PTO_LAYOUT_ND);
}

int same_region(const pto_tile *a, const pto_tile *b);
int region_fits(const pto_tile *inner, const pto_tile *outer);
int dtypes_equal(const pto_tile *const *t, int n);
int is_f32_or_f16(pto_dtype d);
/* Whether some byte belongs to an element of both valid regions. */
int regions_overlap(const pto_tile *a, const pto_tile *b);
/* The same storage start, dtype and row length. */
int same_placement(const pto_tile *a, const pto_tile *b);
/* A source read while dst is written: dst itself, exactly on it, or apart. */
int clashes_with_dst(const pto_tile *src, const pto_tile *dst);
/* The row order (the row-order instructions: elementwise, tile-scalar, unary,
 * tpow, trsqrt, tprelu, tpartadd, the row broadcasts, tcvt, textract): src
 * shares bytes with dst otherwise than dst itself, identically placed or
 * apart, and writing dst's rows in order would overwrite a source row before
 * it is read (dst row i on a source row k > i, or on row i inexactly); under
 * A2A3 also a later dst row's 256-byte repeats on an earlier source row's
 * remainder. window_row_order_clash: textract's, src's window at (row, col)
 * of dst's valid shape as the source. */
int row_order_clash(const pto_tile *src, const pto_tile *dst);
int window_row_order_clash(const pto_tile *src, size_t row, size_t col, const pto_tile *dst);
/* tcvt in place at one start under A2A3: its repeats overwrite an earlier
 * source row's remainder. */
int a2a3_in_place_clash(const pto_tile *src, const pto_tile *dst);
/* A2A3 tprelu: no two operands may overlap; the same handle and identical
 * placement count. */
int a2a3_clash(const pto_tile *a, const pto_tile *b);
/* Whole storage ranges intersect (what a successful call may change). */
int storage_intersects(const pto_tile *a, const pto_tile *b);
int profile_accepts_dtype(int op_is_pow, pto_dtype d);
/* The rules a row with dst and two sources (a Unary row: a twice) checks
 * first, in the contract's order: a NULL operand, dst's dtype outside the
 * row's list under the profile, a source of another dtype. PTO_OK when none
 * applies. */
pto_status leading_rules(op_id op, const pto_tile *dst, const pto_tile *a, const pto_tile *b);
/* The rules an elementwise row with one source checks last: the source
 * overlapping dst (other than exactly on it), then another valid region. */
pto_status source_rules(const pto_tile *src, const pto_tile *dst);
/* The contract's rule for a tile-scalar operation's scalar: an integer
 * dtype holds an integer value within its range; a float dtype any value. */
int scalar_is_value_of(pto_dtype d, double scalar);

/* ---- result checks ------------------------------------------------------ */

/* Elements of dst outside its valid region are never written. */
void check_outside_region(const snapshot *before, const pto_tile *dst, const char *fn);
/* Compares dst's valid region with `want` (a dst-shaped buffer); NaNs match
 * any NaN, everything else bit for bit. */
void check_values(const pto_tile *dst, const unsigned char *want, const char *fn);

/* The value of one element from an element of a and one of b. */
typedef uint64_t (*element_rule)(pto_dtype d, uint64_t a, uint64_t b);

/* dst-shaped expected values: the snapshot of dst with its valid region
 * replaced by rule(a, b) evaluated per element; b_row0 reads b's row 0 only;
 * outside part's valid region (when part is given) a copy of a. */
unsigned char *expected_from(const snapshot *dst, element_rule rule, const snapshot *a,
                             const snapshot *b, int b_row0, const snapshot *part);

/* One instruction call under test: the model's status and every operand as
 * it was before the call. Used as
 *     checked_call c;
 *     call_begin(&c, "pto_tx", want, (const pto_tile *const[]){dst, src}, 2);
 *     if (call_check(&c, pto_tx(dst, src), kWritesValidRegion)) { value checks }
 *     call_end(&c);
 */
typedef struct {
    const char *fn;
    const pto_tile *dst;
    pto_status want;
    int cube_move; /* pto_tmov with a cube tile: not modelled, no values checked */
    operand_snapshots before;
    const pto_tile *operands[kCallOperands]; /* whose storage a success may change */
    int n;
    unsigned char *arena_before; /* the arena before the call */
    const unsigned char *extra;  /* memory besides the operands a success may change (a table) */
    size_t extra_bytes;
} checked_call;

/* A want for calls whose rules the model leaves to their own suite: any
 * status, a refusal with a message. */
#define kStatusNotModelled ((pto_status)-1)

/* What a successful call may write of dst: its valid region only, or any
 * element (a whole-tile write, or one the caller checks itself). */
typedef enum { kWritesAnywhereInDst, kWritesValidRegion } dst_writes;

/* Snapshots the n operands (dst first; NULLs and repeated handles once). */
void call_begin(checked_call *c, const char *fn, pto_status want, const pto_tile *const *operands,
                int n);
/* After the call returned got: its status is the model's; a refusal changed
 * no operand; a success changed none whose storage lies apart from dst's
 * (tmp included: it is never written) and, under kWritesValidRegion, nothing
 * of dst outside its valid region. Returns whether the call succeeded. */
bool call_check(checked_call *c, pto_status got, dst_writes writes);
/* An operand as it was before the call. */
const snapshot *call_before(const checked_call *c, const pto_tile *t);
void call_end(checked_call *c);

/* ---- the calls (one function each, the input decoded as it goes) ------- */

/* fuzz_api_tiles.c */
void fuzz_create(reader *r, state *st);
void fuzz_create_cube(reader *r, state *st);
void fuzz_destroy(reader *r, state *st);
void fuzz_buffer(reader *r, state *st);
void fuzz_buffer_destroy(reader *r, state *st);
void fuzz_create_at(reader *r, state *st);
void fuzz_set_profile(reader *r);
void fuzz_set_valid(reader *r, state *st);
void fuzz_write(reader *r, state *st, int as_f32);
void fuzz_read(reader *r, state *st, int as_f32);

/* fuzz_api_elementwise.c */
void fuzz_binary(reader *r, state *st, op_id op); /* tprelu, tpartadd, tcolexpanddiv */
void fuzz_rsqrt(reader *r, state *st);
void fuzz_pow(reader *r, state *st);
void fuzz_tpows(reader *r, state *st);
void fuzz_elementwise(reader *r, state *st, op_id op); /* Binary, Unary, Scalar, Fill rows */

/* fuzz_api_reduce_broadcast.c */
void fuzz_reduction(reader *r, state *st, op_id op);
void fuzz_broadcast(reader *r, state *st, op_id op);

/* fuzz_api_convert_compare.c */
void fuzz_convert(reader *r, state *st);
void fuzz_pack(reader *r, state *st);
void fuzz_compare_select(reader *r, state *st, op_id op);

/* fuzz_api_datamove.c */
void fuzz_fillpad(reader *r, state *st);
void fuzz_sequence(reader *r, state *st);
void fuzz_reshape(reader *r, state *st);
void fuzz_alias(reader *r, state *st);
void fuzz_transpose(reader *r, state *st);
void fuzz_concat(reader *r, state *st);
void fuzz_extract(reader *r, state *st);
void fuzz_gather(reader *r, state *st);
void fuzz_setval(reader *r, state *st);

/* fuzz_api_outside.c */
void fuzz_board_mode(reader *r);
void fuzz_cube_modes(reader *r);
void fuzz_tables(reader *r, state *st);
void fuzz_mrgsort_lists(reader *r, state *st);
void fuzz_fixpipe(reader *r, state *st);
void fuzz_program(reader *r, state *st);
void fuzz_tsel(reader *r, state *st);

#endif
