/* tcvt (its rules: the profiles' pair tables, modes, aliasing, regions),
 * tpack (the integer pairs per profile, tcvt's placement, regions) and
 * tcmp, tcmps, tsels (any operands: their rules and values are
 * test_compare's). */
#include <math.h>

#include "fuzz_api.h"

/* tcvt's (src, dst) pairs: bit dst of row src under A2A3 and A5 (the
 * contract's table, pto_c.h); HOST takes their union. */
static int convert_pair_accepted(pto_dtype src, pto_dtype dst) {
#define B(d) (1u << PTO_##d)
    static const uint32_t kA2A3[TEST_DTYPE_COUNT] = {
        [PTO_FLOAT32] = B(FLOAT16) | B(FLOAT32) | B(BFLOAT16) | B(INT16) | B(INT32) | B(INT64),
        [PTO_FLOAT16] = B(FLOAT32) | B(INT32) | B(INT16) | B(INT8) | B(UINT8) | B(INT4X2),
        [PTO_BFLOAT16] = B(FLOAT32) | B(INT32),
        [PTO_INT16] = B(FLOAT16) | B(FLOAT32),
        [PTO_INT32] = B(FLOAT32) | B(INT16) | B(INT64) | B(FLOAT16),
        [PTO_INT64] = B(FLOAT32) | B(INT32),
        [PTO_UINT8] = B(FLOAT16),
        [PTO_INT8] = B(FLOAT16),
        [PTO_INT4X2] = B(FLOAT16),
    };
    static const uint32_t kA5[TEST_DTYPE_COUNT] = {
        [PTO_FLOAT32] = B(FLOAT32) | B(FLOAT16) | B(BFLOAT16) | B(INT16) | B(INT32) | B(INT64) |
                        B(FLOAT8_E4M3) | B(FLOAT8_E5M2) | B(HIFLOAT8),
        [PTO_FLOAT16] = B(FLOAT32) | B(INT32) | B(INT16) | B(INT8) | B(UINT8) | B(HIFLOAT8),
        [PTO_BFLOAT16] = B(FLOAT32) | B(INT32) | B(FLOAT16) | B(FLOAT4_E1M2X2) | B(FLOAT4_E2M1X2),
        [PTO_INT16] = B(UINT8) | B(FLOAT16) | B(FLOAT32) | B(UINT32) | B(INT32),
        [PTO_INT32] = B(FLOAT32) | B(INT16) | B(UINT16) | B(INT64) | B(UINT8),
        [PTO_INT64] = B(FLOAT32) | B(INT32),
        [PTO_UINT8] = B(FLOAT16) | B(UINT16),
        [PTO_INT8] = B(FLOAT16) | B(INT16) | B(INT32),
        [PTO_UINT32] = B(UINT8) | B(UINT16) | B(INT16),
        [PTO_FLOAT8_E4M3] = B(FLOAT32),
        [PTO_FLOAT8_E5M2] = B(FLOAT32),
        [PTO_HIFLOAT8] = B(FLOAT32),
        [PTO_FLOAT4_E1M2X2] = B(BFLOAT16),
        [PTO_FLOAT4_E2M1X2] = B(BFLOAT16),
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
void fuzz_convert(reader *r, state *st) {
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
        const size_t ss = pto_dtype_size(s), ds = pto_dtype_size(d);
        const int same_start = pto_tile_data((pto_tile *)src) == pto_tile_data(dst);
        /* in place in order: one start, dst's elements and rows no wider */
        const int in_place = same_start && ds <= ss && pto_tile_cols(dst) * ds <= pto_tile_cols(src) * ss;
        const int packed = s >= PTO_FLOAT4_E2M1X2 || d >= PTO_FLOAT4_E2M1X2;
        if (!convert_pair_accepted(s, d))
            want = PTO_ERR_UNSUPPORTED_DTYPE;
        else if (packed && mode != PTO_ROUND_ODD)
            want = kStatusNotModelled; /* a packed pair's regions and NaNs: test_lowp's */
        else if (mode == PTO_ROUND_ODD && !(s == PTO_FLOAT32 && d == PTO_FLOAT16))
            want = PTO_ERR_INVALID_ARGUMENT;
        else if (tmp != NULL && (tmp == dst || tmp == src))
            want = PTO_ERR_ALIASING;
        else if (!in_place && (src == dst || (same_start && regions_overlap(src, dst)) ||
                               row_order_clash(src, dst)))
            want = PTO_ERR_ALIASING;
        else if (in_place && src != dst && a2a3_in_place_clash(src, dst))
            want = PTO_ERR_ALIASING;
        else if (!same_region(src, dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    checked_call c;
    call_begin(&c, "pto_tcvt", want, (const pto_tile *const[]){dst, src, tmp}, tmp != NULL ? 3 : 2);
    call_check(&c, pto_tcvt(dst, src, tmp, (pto_round_mode)mode, (pto_saturation)sat), kWritesValidRegion);
    call_end(&c);
}

/* tpack: NULLs, A2A3 (no tpack), float dtypes, the integer dtypes (A5: 4 -> 2,
 * 4 -> 1, 2 -> 1 bytes), tcvt's placement, one valid region; nothing written on
 * a refusal, nothing outside dst's valid region. Its values are test_tpack's. */
void fuzz_pack(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else {
        const pto_dtype s = pto_tile_dtype(src), d = pto_tile_dtype(dst);
        const size_t ss = pto_dtype_size(s), ds = pto_dtype_size(d);
        const int same_start = pto_tile_data((pto_tile *)src) == pto_tile_data(dst);
        const int in_place = same_start && ds <= ss && pto_tile_cols(dst) * ds <= pto_tile_cols(src) * ss;
        const int src_integer = s <= PTO_UINT32 || s == PTO_INT64 || s == PTO_UINT64;
        const int a5_sizes = (ss == 4 && (ds == 2 || ds == 1)) || (ss == 2 && ds == 1);
        if (g_profile == PTO_PROFILE_A2A3 || !op_accepts(OP_TPACK, g_profile, d) || !src_integer ||
            (g_profile == PTO_PROFILE_A5 && !a5_sizes))
            want = PTO_ERR_UNSUPPORTED_DTYPE;
        else if (!in_place && (src == dst || (same_start && regions_overlap(src, dst)) ||
                               row_order_clash(src, dst)))
            want = PTO_ERR_ALIASING;
        else if (!same_region(src, dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    checked_call c;
    call_begin(&c, "pto_tpack", want, (const pto_tile *const[]){dst, src}, 2);
    call_check(&c, pto_tpack(dst, src), kWritesValidRegion);
    call_end(&c);
}

/* tcmp, tcmps, tsels on any operands (a mode possibly out of range, a
 * scalar from a small set): no crash, nothing written on a refusal, nothing
 * outside dst's valid region on success. Their rules and values are
 * test_compare's. */
void fuzz_compare_select(reader *r, state *st, op_id op) {
    static const double kScalars[] = {0, 1, -1, 0.5, 255, 70000, NAN, INFINITY};
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = op == OP_TCMPS ? NULL : take_tile(r, st);
    pto_tile *tmp = op == OP_TSELS ? take_tile(r, st) : NULL;
    const pto_cmp_mode mode = (pto_cmp_mode)((int)(take(r) % 8) - 1);
    const double scalar = kScalars[take(r) % (sizeof kScalars / sizeof kScalars[0])];
    checked_call c;
    call_begin(&c, op_name(op), kStatusNotModelled, (const pto_tile *const[]){dst, a, b, tmp}, 4);
    const pto_status got = op == OP_TCMP    ? pto_tcmp(dst, a, b, mode)
                           : op == OP_TCMPS ? pto_tcmps(dst, a, scalar, mode)
                                            : pto_tsels(dst, a, b, tmp, scalar);
    call_check(&c, got, kWritesValidRegion);
    call_end(&c);
}
