/* The data-movement instructions (tfillpad, tci, treshape, talias, ttrans, tconcat,
 * textract, tgather, tsetval and tgetval, trandom, tquant_mx, tquant_hif4 and
 * tmatmul_mx_hif4 beside tci, timg2col beside treshape): each one's rules in the contract's order under the profile, nothing written on a refusal; the
 * window, the gathered elements and the set element checked on success. */
#include <math.h>
#include <string.h>

#include "fuzz_api.h"

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
 * values are test_tfillpad's. */
void fuzz_fillpad(reader *r, state *st) {
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
    checked_call c;
    call_begin(&c, "pto_tfillpad", want, (const pto_tile *const[]){dst, src}, 2);
    call_check(&c, pto_tfillpad(dst, src, (pto_pad_value)pad), kWritesAnywhereInDst);
    call_end(&c);
}

/* tci: its rules in the contract's order (NULL, descending, dtype, start,
 * one row under A2A3 and A5); nothing written on a refusal, nothing outside
 * dst's valid region. Its values are test_tci's. */
/* trandom (a row, whose generic calls take any status) on tci's tile, from the
 * bytes tci took: rounds 7, 10 or a refused count, the key and counter from
 * start. NULL, the cube's tiles, rounds, dtype (INT32, UINT32; none under
 * A2A3); only the valid region written. */
static void fuzz_random(pto_tile *dst, int choice, double start) {
    const uint32_t rounds = choice == 0 ? 7 : choice == 1 ? 10 : (uint32_t)(choice + 9);
    const uint32_t word = (uint32_t)(int32_t)start;
    pto_status want = PTO_OK;
    if (dst == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (rounds != 7 && rounds != 10)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (g_profile == PTO_PROFILE_A2A3 ||
             (pto_tile_dtype(dst) != PTO_INT32 && pto_tile_dtype(dst) != PTO_UINT32))
        want = PTO_ERR_UNSUPPORTED_DTYPE;
    checked_call c;
    call_begin(&c, "pto_trandom", want, (const pto_tile *const[]){dst}, 1);
    call_check(&c, pto_trandom(dst, word, ~word, 0xFFFFFFF0u, word, 0, 1, rounds), kWritesValidRegion);
    call_end(&c);
}

/* tquant_mx (a row, whose generic calls pass tmp for every further operand:
 * refused) from tci's tile as src:
 * dst, exp and max made for it as each algorithm and axis asks (choice picks
 * them), or one dimension off; any status (test_quant_mx checks the rules
 * and values), no crash, nothing of dst outside its valid region and
 * nothing of src written. */
static void fuzz_quant_mx(const pto_tile *src, int choice, double start) {
    if (src == NULL) return;
    const int alg = (choice + 1) & 3, axis = (int)start & 1, off = ((int)start >> 1) & 1;
    const bool fp4 = alg >= 2;
    const uint32_t r = pto_tile_valid_rows(src), c = pto_tile_valid_cols(src);
    const uint32_t br = axis ? r : (r + 31) / 32, bc = axis ? (c + 31) / 32 : c;
    pto_tile *dst = NULL, *exp = NULL, *mx = NULL;
    pto_tile_create(fp4 ? PTO_FLOAT4_E2M1X2 : PTO_FLOAT8_E4M3, r ? r : 1, (fp4 ? c / 2 : c) + off + 1, &dst);
    pto_tile_create(PTO_FLOAT8_E8M0, br ? br : 1, bc + off + 1, &exp);
    pto_tile_create(pto_tile_dtype(src), br ? br : 1, bc + 1, &mx);
    if (dst != NULL && exp != NULL && mx != NULL) {
        pto_tile_set_valid(dst, r, (fp4 ? c / 2 : c) + (uint32_t)off);
        pto_tile_set_valid(exp, br, bc + (uint32_t)off);
        pto_tile_set_valid(mx, br, bc);
        checked_call k;
        call_begin(&k, "pto_tquant_mx", kStatusNotModelled, (const pto_tile *const[]){dst, src}, 2);
        call_check(&k, pto_tquant_mx(dst, src, exp, mx, NULL, (pto_mx_alg)alg, axis), kWritesValidRegion);
        call_end(&k);
    }
    pto_tile_destroy(dst);
    pto_tile_destroy(exp);
    pto_tile_destroy(mx);
}

/* tquant_hif4 and tmatmul_mx_hif4 (rows, whose generic calls pass tmp for
 * every further operand: refused) from tci's tile as src:
 * dst, exp and max made for it, or one dimension off (choice); then dst and
 * exp as both operands of a matrix multiply (K x K codes when src is square
 * in values, else a shape refusal); any status (test_quant_hif4 checks the
 * rules and values), no crash, nothing of an output outside its valid
 * region and nothing of a source written. */
static void fuzz_quant_hif4(const pto_tile *src, int choice) {
    if (src == NULL) return;
    const uint32_t off = (uint32_t)choice & 1;
    const uint32_t r = pto_tile_valid_rows(src), c = pto_tile_valid_cols(src);
    pto_tile *dst = NULL, *exp = NULL, *mx = NULL, *out = NULL;
    pto_tile_create(PTO_FLOAT4_E1M2X2, r ? r : 1, c / 2 + 1, &dst);
    pto_tile_create(PTO_UINT32, r ? r : 1, (c + 63) / 64 + 1, &exp);
    pto_tile_create(PTO_BFLOAT16, r ? r : 1, (c + 3) / 4 + 1, &mx);
    pto_tile_create(PTO_FLOAT32, r ? r : 1, c + 1, &out);
    if (dst != NULL && exp != NULL && mx != NULL && out != NULL) {
        pto_tile_set_valid(dst, r, c / 2 + off);
        pto_tile_set_valid(exp, r, (c + 63) / 64);
        pto_tile_set_valid(mx, r, (c + 3) / 4);
        pto_tile_set_valid(out, r, c);
        checked_call k;
        call_begin(&k, "pto_tquant_hif4", kStatusNotModelled, (const pto_tile *const[]){dst, src}, 2);
        call_check(&k, pto_tquant_hif4(dst, src, exp, mx, NULL), kWritesValidRegion);
        call_end(&k);
        call_begin(&k, "pto_tmatmul_mx_hif4", kStatusNotModelled, (const pto_tile *const[]){out, dst, exp}, 3);
        call_check(&k, pto_tmatmul_mx_hif4(out, dst, exp, dst, exp), kWritesValidRegion);
        call_end(&k);
    }
    pto_tile_destroy(dst);
    pto_tile_destroy(exp);
    pto_tile_destroy(mx);
    pto_tile_destroy(out);
}

void fuzz_sequence(reader *r, state *st) {
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
    checked_call c;
    call_begin(&c, "pto_tci", want, (const pto_tile *const[]){dst}, 1);
    call_check(&c, pto_tci(dst, start, descending), kWritesValidRegion);
    call_end(&c);
    fuzz_random(dst, descending, start);
    fuzz_quant_mx(dst, descending, start);
    fuzz_quant_hif4(dst, descending);
}

/* timg2col (its row's opcode is fuzz_special's, whose call passes a NULL
 * config; the config is fuzzed here) on treshape's operands:
 * a feature map of 1 x (1 or 2) pixels of src's valid cols channels (C1 = 1),
 * a 1 x 1 filter, and by `choice` one broken field (stride, filter, channel
 * count) or none. NULLs, each profile's locations and layouts, dtypes,
 * config, aliasing, shapes, in that order; nothing written on a refusal. */
static void fuzz_img2col(pto_tile *dst, const pto_tile *src, unsigned choice) {
    pto_img2col_config c;
    memset(&c, 0, sizeof c);
    c.fmap_h = 1, c.fmap_w = (uint16_t)(1 + choice % 2);
    c.stride_h = c.stride_w = c.dilation_h = c.dilation_w = 1;
    c.filter_h = c.filter_w = 1;
    c.repeat_time = 1;
    const uint32_t c0 = src == NULL ? 0
                        : g_profile == PTO_PROFILE_HOST ? pto_tile_valid_cols(src)
                                                         : 32 / (uint32_t)pto_dtype_size(pto_tile_dtype(src));
    c.channel_size = (uint16_t)(c0 == 0 ? 1 : c0);
    if (choice % 8 == 2) c.stride_w = 0;
    if (choice % 8 == 4) c.filter_h = 512;
    if (choice % 8 == 6) c.channel_size = (uint16_t)(c.channel_size + 1);
    CHECK(pto_setfmatrix(&c) == PTO_OK && pto_set_img2col_padding(&c) == PTO_OK &&
              pto_set_img2col_rpt(&c) == PTO_OK,
          "pto_setfmatrix / padding / rpt refused a valid config: %s", pto_last_error());
    static const pto_dtype kA2A3[] = {PTO_INT8, PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32};
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else {
        const pto_dtype d = pto_tile_dtype(dst);
        int accepted = d <= PTO_FLOAT32;
        if (g_profile == PTO_PROFILE_A2A3)
            accepted = d == kA2A3[0] || d == kA2A3[1] || d == kA2A3[2] || d == kA2A3[3];
        const pto_layout left = g_profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
        const uint32_t image = c0 == 0 ? 1 : c.channel_size / c0 * c.fmap_h * c.fmap_w;
        if (g_profile != PTO_PROFILE_HOST &&
            (pto_tile_location(src) != PTO_LOC_MAT || pto_tile_layout(src) != PTO_LAYOUT_NZ ||
             pto_tile_location(dst) != PTO_LOC_LEFT || pto_tile_layout(dst) != left))
            want = PTO_ERR_INVALID_ARGUMENT;
        else if (!accepted)
            want = PTO_ERR_UNSUPPORTED_DTYPE;
        else if (pto_tile_dtype(src) != d)
            want = PTO_ERR_DTYPE_MISMATCH;
        else if (c.stride_w == 0 || c.filter_h > 511 || c.channel_size == 0) /* 65536 cols wrap to 0 */
            want = PTO_ERR_INVALID_ARGUMENT;
        else if (src == dst || regions_overlap(src, dst))
            want = PTO_ERR_ALIASING;
        else if (pto_tile_valid_cols(src) != c0 || c0 == 0 || c.channel_size % c0 != 0 ||
                 pto_tile_valid_rows(src) == 0 || pto_tile_valid_rows(src) % image != 0)
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    const int cube_dst = is_cube_tile(dst);
    checked_call k;
    call_begin(&k, "pto_timg2col", want, (const pto_tile *const[]){dst, src}, 2);
    call_check(&k, pto_timg2col(dst, src, &c, (uint16_t)(choice % 5), (uint16_t)(choice % 7)),
               cube_dst ? kWritesAnywhereInDst : kWritesValidRegion);
    call_end(&k);
}

/* treshape's rules, which talias shares: NULLs, storages that share a byte
 * without one start, sizes. */
static pto_status reshape_want(const pto_tile *dst, const pto_tile *src) {
    if (dst == NULL || src == NULL) return PTO_ERR_NULL_ARGUMENT;
    const uintptr_t d = (uintptr_t)pto_tile_data((pto_tile *)dst), s = (uintptr_t)pto_tile_data((pto_tile *)src);
    const size_t db = (size_t)pto_tile_rows(dst) * pto_tile_cols(dst) * pto_dtype_size(pto_tile_dtype(dst));
    const size_t sb = (size_t)pto_tile_rows(src) * pto_tile_cols(src) * pto_dtype_size(pto_tile_dtype(src));
    if (d != s && d < s + sb && s < d + db) return PTO_ERR_ALIASING;
    if (db != sb) return PTO_ERR_SHAPE_MISMATCH;
    return PTO_OK;
}

/* treshape: its rules; nothing written on a refusal. Its values are
 * test_reshape_transpose_concat's. */
void fuzz_reshape(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    checked_call c;
    call_begin(&c, "pto_treshape", reshape_want(dst, src), (const pto_tile *const[]){dst, src}, 2);
    call_check(&c, pto_treshape(dst, src), kWritesAnywhereInDst);
    call_end(&c);
    fuzz_img2col(dst, src, dst == NULL ? 0 : pto_tile_valid_rows(dst) + pto_tile_cols(dst));
}

/* talias: treshape's rules (dst the original, then alias); nothing written
 * on a refusal. Its values are test_tpack's. */
void fuzz_alias(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *alias = take_tile(r, st);
    checked_call c;
    call_begin(&c, "pto_talias", reshape_want(dst, alias), (const pto_tile *const[]){dst, alias}, 2);
    call_check(&c, pto_talias(dst, alias), kWritesAnywhereInDst);
    call_end(&c);
}

/* ttrans: NULLs, dtypes (dst's and src's in the profile's list), dtype
 * sizes, tmp's handle, overlap, the transposed region,
 * A5's 32-byte rows; nothing written on a refusal, nothing outside dst's
 * region. Its values are test_reshape_transpose_concat's. */
void fuzz_transpose(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    pto_tile *tmp = take_tile(r, st);
    pto_status want = PTO_OK;
    if (dst == NULL || src == NULL || tmp == NULL) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (!op_accepts(OP_TTRANS, g_profile, pto_tile_dtype(dst)) ||
               !op_accepts(OP_TTRANS, g_profile, pto_tile_dtype(src))) {
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
    checked_call c;
    call_begin(&c, "pto_ttrans", want, (const pto_tile *const[]){dst, src, tmp}, 3);
    call_check(&c, pto_ttrans(dst, src, tmp), kWritesValidRegion);
    call_end(&c);
}

/* tconcat: NULLs, dtypes, src0 in place or apart, src1 apart, rows and the
 * column sum; nothing written on a refusal, nothing outside dst's region. */
void fuzz_concat(reader *r, state *st) {
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st), *b = take_tile(r, st);
    pto_status want = leading_rules(OP_TCONCAT, dst, a, b);
    if (want == PTO_OK) {
        if (clashes_with_dst(a, dst) || b == dst || same_placement(b, dst) || regions_overlap(b, dst))
            want = PTO_ERR_ALIASING;
        else if (pto_tile_valid_rows(a) != pto_tile_valid_rows(dst) ||
                 pto_tile_valid_rows(b) != pto_tile_valid_rows(dst) ||
                 (size_t)pto_tile_valid_cols(a) + pto_tile_valid_cols(b) != pto_tile_valid_cols(dst))
            want = PTO_ERR_SHAPE_MISMATCH;
    }
    checked_call c;
    call_begin(&c, "pto_tconcat", want, (const pto_tile *const[]){dst, a, b}, 3);
    call_check(&c, pto_tconcat(dst, a, b), kWritesValidRegion);
    call_end(&c);
}

/* Whether [index, index + extent) lies in [0, bound). */
static int span_fits(size_t index, uint32_t extent, uint32_t bound) {
    return index <= bound && extent <= bound - index;
}
/* textract: NULLs, dtypes, aliasing, the profiles' shape rules, the window
 * (offsets possibly huge); nothing written on a refusal, nothing outside
 * dst's valid region, the window's bits on success. */
void fuzz_extract(reader *r, state *st) {
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
    } else if (a2a3_clash(src, dst) &&
               (src == dst || !span_fits(row, pto_tile_valid_rows(dst), pto_tile_valid_rows(src)) ||
                !span_fits(col, pto_tile_valid_cols(dst), pto_tile_valid_cols(src)) ||
                window_row_order_clash(src, row, col, dst))) {
        /* sharing storage: only dst on the window's rows in row order */
        want = PTO_ERR_ALIASING;
    } else {
        const size_t size = pto_dtype_size(pto_tile_dtype(dst));
        const uint32_t dvr = pto_tile_valid_rows(dst), dvc = pto_tile_valid_cols(dst);
        const int one = dvr == 1 && dvc == 1;
        const int host = g_profile == PTO_PROFILE_HOST, a2a3 = g_profile == PTO_PROFILE_A2A3;
        const pto_dtype dt = pto_tile_dtype(dst);
        /* A5 copies a packed FP4 window in whole 32-byte blocks, a 1x1 one by its scalar path */
        const int fp4_a5 = g_profile == PTO_PROFILE_A5 && !one &&
                           (dt == PTO_FLOAT4_E2M1X2 || dt == PTO_FLOAT4_E1M2X2);
        if (!host && (pto_tile_rows(dst) > pto_tile_rows(src) || pto_tile_cols(dst) > pto_tile_cols(src)))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (a2a3 && ((pto_tile_cols(src) * size) % 32 != 0 || (pto_tile_cols(dst) * size) % 32 != 0 ||
                          (!one && (dvc * size) % 2 != 0)))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (fp4_a5 && (pto_tile_cols(src) % 32 != 0 || pto_tile_cols(dst) % 32 != 0 || dvc % 32 != 0))
            want = PTO_ERR_SHAPE_MISMATCH;
        else if (!span_fits(row, dvr, pto_tile_valid_rows(src)) || !span_fits(col, dvc, pto_tile_valid_cols(src)))
            want = PTO_ERR_OUT_OF_RANGE;
        else if (g_profile == PTO_PROFILE_A5 && !one &&
                 (!span_fits(row, pto_tile_rows(dst), pto_tile_rows(src)) ||
                  !span_fits(col, pto_tile_cols(dst), pto_tile_cols(src))))
            want = PTO_ERR_OUT_OF_RANGE;
        else if ((fp4_a5 && col % 32 != 0) || (a2a3 && !one && (col * size) % 32 != 0))
            want = PTO_ERR_OUT_OF_RANGE;
    }
    checked_call c;
    call_begin(&c, "pto_textract", want, (const pto_tile *const[]){dst, src}, 2);
    if (call_check(&c, pto_textract(dst, src, row, col), kWritesValidRegion)) {
        const snapshot *d = call_before(&c, dst), *a = call_before(&c, src);
        const size_t size = pto_dtype_size(d->dtype);
        const unsigned char *now = pto_tile_data(dst);
        for (uint32_t i = 0; i < d->valid_rows; i++)
            CHECK(memcmp(now + (size_t)i * d->cols * size,
                         a->data + ((row + i) * a->cols + col) * size, d->valid_cols * size) == 0,
                  "pto_textract: dst row %u is not src's window", i);
    }
    call_end(&c);
}

/* tgather: NULLs (A2A3's tmp), dtypes (indices' lists per profile, A2A3's
 * tmp), aliasing, regions and the profiles' contiguity, every index inside
 * src's valid region (the indices often written valid first); nothing
 * written on a refusal, the gathered bits on success. */
void fuzz_gather(reader *r, state *st) {
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
    checked_call c;
    call_begin(&c, "pto_tgather", want, (const pto_tile *const[]){dst, src, indices, tmp}, 4);
    if (call_check(&c, pto_tgather(dst, src, indices, tmp), kWritesValidRegion)) {
        const snapshot *d = call_before(&c, dst), *a = call_before(&c, src);
        const snapshot *x = call_before(&c, indices);
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
    call_end(&c);
}

/* tsetval, then tgetval of the same element: NULLs, the value's rule, the
 * index inside the valid region; nothing written on a refusal, only the
 * element on success, and tgetval reads back what tsetval stored. */
void fuzz_setval(reader *r, state *st) {
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
    checked_call c;
    call_begin(&c, "pto_tsetval", want, (const pto_tile *const[]){dst}, 1);
    const pto_status got = pto_tsetval(dst, index, value);
    if (call_check(&c, got, kWritesAnywhereInDst)) { /* every element checked below */
        const snapshot *d = call_before(&c, dst);
        const size_t size = pto_dtype_size(d->dtype);
        const unsigned char *now = pto_tile_data(dst);
        for (size_t k = 0; k < (size_t)d->rows * d->cols; k++)
            CHECK(k == index || memcmp(now + k * size, d->data + k * size, size) == 0,
                  "pto_tsetval wrote element %zu, not only %zu", k, index);
        const uint32_t stored = ref_load(d->dtype, now, index);
        CHECK(stored == ref_from_double(d->dtype, value) || (isnan(value) && ref_is_nan(d->dtype, stored)),
              "pto_tsetval stored 0x%x for %g", stored, value);
    }
    call_end(&c);
    double out = 42;
    const pto_status read = pto_tgetval(dst, index, out_null ? NULL : &out);
    const pto_status read_want = is_cube_tile(dst)
                                     ? PTO_ERR_INVALID_ARGUMENT
                                 : dst == NULL || out_null ? PTO_ERR_NULL_ARGUMENT
                                 /* tgetval's dtypes are tsetval's row's */
                                 : !op_accepts(OP_TSETVAL, g_profile, pto_tile_dtype(dst))
                                     ? PTO_ERR_UNSUPPORTED_DTYPE
                                 : !in_region ? PTO_ERR_OUT_OF_RANGE
                                              : PTO_OK;
    check_status("pto_tgetval", read, read_want);
    if (read != PTO_OK) CHECK(out == 42, "pto_tgetval wrote *out on a refusal");
    if (read == PTO_OK && got == PTO_OK)
        CHECK(out == ref_to_double(pto_tile_dtype(dst), ref_from_double(pto_tile_dtype(dst), value)) ||
                  (isnan(out) && isnan(value)),
              "pto_tgetval read %g after pto_tsetval of %g", out, value);
}
