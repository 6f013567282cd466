/* The harness's argument decoders: each reads a few bytes of the input and
 * returns an argument, mostly a plausible one, sometimes one at or beyond a
 * limit the contract names. */
#include <limits.h>

#include "fuzz_api.h"

uint8_t take(reader *r) {
    if (r->left == 0) return 0;
    r->left--;
    return *r->p++;
}

uint32_t take_u32(reader *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)take(r) << (8 * i);
    return v;
}

/* A dtype: one of the nine of 1, 2 and 4 bytes, whose rules the models here
 * write out, or a value that names none. INT64 and UINT64 reach the
 * operations through kInstruction64 (fuzz_api.c: tiles of their own, the
 * status not modelled), the rows' values through the tests' generic loops
 * (tests/test_ops.c and the others that take every dtype a row lists), and
 * the program fuzzer through i64 pointers and tiles. */
pto_dtype take_dtype(reader *r) {
    static const int64_t kOdd[16] = {TEST_DTYPE_COUNT, 13, 255, -1, INT_MIN, INT_MAX, 256, 1000,
                                     -9, 16, 31,  32, 0x7FFF,  0x10000, 12,  100};
    const uint8_t b = take(r);
    return (pto_dtype)(b < 0xF0 ? b % (PTO_FLOAT32 + 1) : kOdd[b - 0xF0]);
}

/* A tile dimension: mostly small (1..40), sometimes a vector-width edge,
 * zero, or one of the sizes that probe the byte limit and its overflow. */
uint32_t take_dim(reader *r) {
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
uint32_t take_extent(reader *r, uint32_t n) {
    const uint8_t b = take(r);
    if (b < 0xC0) return b % (n + 1);
    if (b < 0xE0) return n + 1 + (b & 7);
    if (b < 0xF0) return b & 1 ? n : 0;
    if (b < 0xFF) return b & 1 ? UINT32_MAX : (uint32_t)1 << (b & 31);
    return take_u32(r);
}

pto_pow_algorithm take_algo(reader *r) {
    static const int64_t kOdd[16] = {2, 3, -1, 255, INT_MIN, INT_MAX, 100, 0x100,
                                     -2, 7, 1, 0, 65535, 0x7FFF, 8, 9};
    const uint8_t b = take(r);
    return (pto_pow_algorithm)(b < 0xF0 ? b % 2 : kOdd[b - 0xF0]);
}

/* The edge values of the contract's overflow rule (pto_c.h): 2^31, 2^32,
 * 2^63, SIZE_MAX - 1, SIZE_MAX and their neighbours. */
size_t take_edge(reader *r) {
    static const size_t kEdges[16] = {
        (size_t)1 << 31,       ((size_t)1 << 31) - 1, ((size_t)1 << 31) + 1, (size_t)1 << 32,
        ((size_t)1 << 32) - 1, ((size_t)1 << 32) + 1, (size_t)1 << 63,       ((size_t)1 << 63) - 1,
        ((size_t)1 << 63) + 1, SIZE_MAX - 1,          SIZE_MAX,              SIZE_MAX - 15,
        SIZE_MAX - 63,         SIZE_MAX / 2,          (size_t)1 << 40,       (size_t)PTO_TILE_MAX_BYTES};
    return kEdges[take(r) & 15];
}

/* A byte or element count near `exact`: right, off by one, zero, doubled or
 * an edge value. */
size_t take_count(reader *r, size_t exact) {
    const uint8_t b = take(r);
    if (b < 0xC0) return exact;
    switch (b & 7) {
    case 0: return exact + 1;
    case 1: return exact - 1; /* wraps to SIZE_MAX when exact is 0 */
    case 2: return 0;
    case 3: return exact * 2;
    case 4: return take_edge(r);
    case 5: return exact + take_edge(r); /* wraps past SIZE_MAX */
    case 6: return exact + 4;
    default: return exact / 2;
    }
}

/* An offset: mostly small (often inside the tiles), sometimes an edge value
 * or near SIZE_MAX. */
size_t take_index(reader *r) {
    const uint8_t b = take(r);
    if (b == 255) return (size_t)-1 - take(r);
    if (b >= 0xF0) return take_edge(r) - (b & 3);
    return b % 64;
}

/* A tile operand: one of the slots (possibly still empty) or NULL. */
pto_tile *take_tile(reader *r, state *st) {
    const uint8_t b = take(r) % 9;
    return b == 8 ? NULL : st->slot[b % kSlots];
}
