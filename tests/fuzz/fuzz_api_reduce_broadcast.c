/* The reductions (RowReduce, ColReduce) and broadcasts (RowExpand,
 * ColExpand): the families' rules under the profile and, on success, dst
 * against the reduction order's or the per-element reference. */
#include <string.h>

#include "fuzz_api.h"

/* *expdif under A2A3 and A5: e^(a - b rounded to the dtype), as the NPU
 * computes it (pto_c.h). */
static uint64_t expdif_rounded_difference(pto_dtype d, uint64_t a, uint64_t b) {
    return ref_expdif(d, ref_tsub(d, a, b), 0);
}

/* A reduction (RowReduce, ColReduce): the families' rules in the contract's
 * order under the profile (A2A3's row tmp, tcolsum's binary-order tmp on
 * A2A3 and A5), and on success the order's reference (reduce_ref.c) in dst's
 * column 0 (row 0), every other element of dst unchanged. */
void fuzz_reduction(reader *r, state *st, op_id op) {
    const bool rows = op_row(op)->family == OP_FAMILY_ROW_REDUCE;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *src = take_tile(r, st);
    /* a row without tmp (tcolprod, tcolmax...) is called without one */
    pto_tile *tmp = (take(r) & 3) == 0 || op_row(op)->tmp == OP_TMP_NONE ? NULL : take_tile(r, st);
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
            if (!ref_is_float(pto_tile_dtype(dst)) || op == OP_TROWPROD) { /* a 32-byte block */
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

    checked_call c;
    call_begin(&c, fn, want, (const pto_tile *const[]){dst, src, tmp}, 3);
    const pto_status got = op_call(op, (pto_pow_algorithm)binary, dst, (pto_tile *)src, NULL, tmp);
    call_check(&c, got, kWritesAnywhereInDst); /* dst is checked whole below */
    if (got == PTO_OK && pto_tile_valid_rows(src) != 0 && pto_tile_valid_cols(src) != 0) {
        const snapshot *sd = call_before(&c, dst);
        const snapshot *ss = call_before(&c, src);
        const pto_dtype d = pto_tile_dtype(dst);
        const uint32_t sr = pto_tile_valid_rows(src), sc = pto_tile_valid_cols(src);
        uint64_t *results = malloc(sizeof(uint64_t) * (rows ? sr : sc));
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
        check_unchanged(call_before(&c, dst), fn);
    }
    call_end(&c);
}

/* A broadcast row (RowExpand, ColExpand): the families' rules in the
 * contract's order (no tmp), and the per-element reference with the
 * expanded source read at its row's or column's element. With two sources
 * the full one is a when its valid region is dst's, else b; a row
 * broadcast's expanded source is R x 1 (Mode 1) or R x 32/size (Mode 2), a
 * column broadcast's has a row and dst's valid columns at least. */
void fuzz_broadcast(reader *r, state *st, op_id op) {
    const bool one = op_row(op)->source_count == 1;
    const bool row = op_row(op)->family == OP_FAMILY_ROW_EXPAND;
    pto_tile *dst = take_tile(r, st);
    const pto_tile *a = take_tile(r, st);
    const pto_tile *b = one ? a : take_tile(r, st);
    const char *fn = op_name(op);
    pto_status want = leading_rules(op, dst, a, b);
    const pto_tile *full = NULL, *e = a;
    /* src0 is the expanded operand (f's first) only when src1 is the full
     * one; one handle passed as both sources is src0 = full, src1 =
     * expanded, so the roles are told apart by position, not by pointer. */
    bool expanded_first = false;
    if (want != PTO_OK) {
        /* a NULL operand or a dtype decided it */
    } else if (row ? row_order_clash(a, dst) || row_order_clash(b, dst)
                   : clashes_with_dst(a, dst) || clashes_with_dst(b, dst)) {
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

    checked_call c;
    call_begin(&c, fn, want, (const pto_tile *const[]){dst, a, b}, one ? 2 : 3);
    const pto_status got = op_call(op, PTO_POW_DEFAULT, dst, (pto_tile *)a, (pto_tile *)b, NULL);
    if (call_check(&c, got, kWritesValidRegion)) {
        const snapshot *sd = call_before(&c, dst);
        const snapshot *se = call_before(&c, e);
        const snapshot *sf = full != NULL ? call_before(&c, full) : NULL;
        const pto_dtype d = sd->dtype;
        const bool npu_expdif = (op == OP_TROWEXPANDEXPDIF || op == OP_TCOLEXPANDEXPDIF) &&
                                g_profile != PTO_PROFILE_HOST;
        const element_rule rule = npu_expdif ? expdif_rounded_difference : op_binary_reference(op);
        const uint32_t ec = se->valid_cols;
        unsigned char *want_bytes = malloc(sd->bytes);
        CHECK(want_bytes != NULL, "out of memory in the harness");
        memcpy(want_bytes, sd->data, sd->bytes);
        for (uint32_t i = 0; i < sd->valid_rows; i++) {
            for (uint32_t j = 0; j < sd->valid_cols; j++) {
                const size_t ke = row ? (size_t)i * se->cols + (ec == 1 || one ? 0 : j % ec)
                                      : (size_t)j;
                const uint64_t s = ref_load(d, se->data, ke);
                uint64_t v = s;
                if (!one) {
                    const uint64_t x = ref_load(d, sf->data, (size_t)i * sf->cols + j);
                    v = expanded_first ? rule(d, s, x) : rule(d, x, s);
                }
                ref_store(d, want_bytes, (size_t)i * sd->cols + j, v);
            }
        }
        check_values(dst, want_bytes, fn);
        free(want_bytes);
    }
    call_end(&c);
}
