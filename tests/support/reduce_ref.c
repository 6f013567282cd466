/* The reductions' results, written from the orders docs/reductions.md
 * derives from the NPU implementations (pto-isa include/pto/npu/a5 and
 * a2a3): plain loops over bits, each float addition the exact sum rounded
 * once to the element type (double has 53 >= 2p + 2 bits for every float
 * type here, so rounding the double sum again is correct rounding). */
#include <stdlib.h>
#include <string.h>

#include "support.h"

static uint64_t add_in(pto_dtype dt, uint64_t a, uint64_t b) {
    if (!ref_is_float(dt))
        return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) + (uint64_t)ref_int_value(dt, b));
    return ref_from_double(dt, ref_to_double(dt, a) + ref_to_double(dt, b));
}

/* Every NaN result is the default NaN: positive, quiet, no payload. */
static uint64_t default_nan(pto_dtype dt, uint64_t x) {
    if (!ref_is_float(dt) || !ref_is_nan(dt, x)) return x;
    return dt == PTO_FLOAT32 ? 0x7FC00000u : dt == PTO_FLOAT16 ? 0x7E00u : 0x7FC0u;
}

/* vcadd of lanes[0, n), n a power of two: adjacent pairs, level by level. */
static uint64_t vcadd(pto_dtype dt, uint64_t *lanes, size_t n) {
    for (; n > 1; n /= 2)
        for (size_t k = 0; k < n / 2; ++k) lanes[k] = add_in(dt, lanes[2 * k], lanes[2 * k + 1]);
    return lanes[0];
}

static uint64_t at(pto_dtype dt, const void *src, size_t stride, size_t r, size_t c) {
    return ref_load(dt, src, r * stride + c);
}

static uint64_t row_sum_a5(pto_dtype dt, const void *src, size_t stride, size_t r, size_t cols) {
    const size_t e = 256 / pto_dtype_size(dt);
    uint64_t *lanes = malloc(e * sizeof *lanes);
    uint64_t acc = 0; /* +0 */
    for (size_t c0 = 0; c0 < cols; c0 += e) {
        for (size_t k = 0; k < e; ++k) lanes[k] = c0 + k < cols ? at(dt, src, stride, r, c0 + k) : 0;
        acc = add_in(dt, acc, vcadd(dt, lanes, e));
    }
    free(lanes);
    return acc;
}

/* TRowSum.hpp / TRowReduceOps.hpp (A2A3), with `slots` the tmp row. */
static uint64_t row_sum_a2a3(pto_dtype dt, const void *src, size_t stride, size_t r, size_t cols) {
    const size_t e = 256 / pto_dtype_size(dt);
    const size_t whole = cols / e, rem = cols % e;
    uint64_t *tmp = calloc((whole / 2 + 2) * e, sizeof *tmp);
#define SRC(chunk, k) at(dt, src, stride, r, (chunk) * e + (k))
    if (cols <= e) {
        for (size_t k = 0; k < e; ++k) tmp[k] = k < cols ? SRC(0, k) : 0;
    } else {
        if (cols < 2 * e)
            for (size_t k = 0; k < e; ++k) tmp[k] = SRC(0, k);
        for (size_t i = 0; i < whole / 2; ++i)
            for (size_t k = 0; k < e; ++k) tmp[i * e + k] = add_in(dt, SRC(2 * i, k), SRC(2 * i + 1, k));
        if (whole != 1 && whole % 2 == 1)
            for (size_t k = 0; k < e; ++k) tmp[k] = add_in(dt, tmp[k], SRC(whole - 1, k));
        for (size_t k = 0; k < rem; ++k) tmp[k] = add_in(dt, tmp[k], SRC(whole, k));
        size_t len = whole / 2;
        while (len > 1) {
            for (size_t i = 0; i < len / 2; ++i)
                for (size_t k = 0; k < e; ++k)
                    tmp[i * e + k] = add_in(dt, tmp[2 * i * e + k], tmp[(2 * i + 1) * e + k]);
            const size_t odd = len % 2;
            len /= 2;
            if (odd)
                for (size_t k = 0; k < e; ++k)
                    tmp[(len - 1) * e + k] = add_in(dt, tmp[(len - 1) * e + k], tmp[2 * len * e + k]);
        }
    }
#undef SRC
    const uint64_t sum = vcadd(dt, tmp, e);
    free(tmp);
    return sum;
}

static uint64_t col_sum(pto_dtype dt, pto_profile profile, int binary, const void *src,
                        size_t stride, size_t rows, size_t c) {
    const bool a2a3 = profile == PTO_PROFILE_A2A3;
#define SRC(r) at(dt, src, stride, (r), c)
    if (!binary && a2a3) { /* TColSum.hpp (A2A3): row after row */
        uint64_t acc = SRC(0);
        for (size_t r = 1; r < rows; ++r) acc = add_in(dt, acc, SRC(r));
        return acc;
    }
    if (!binary) { /* TColReduceOps.hpp (A5): row 0, then pairs (1,2), (3,4), ... */
        uint64_t acc = SRC(0);
        const size_t pairs = (rows - 1) / 2;
        for (size_t j = 0; j < pairs; ++j) acc = add_in(dt, acc, add_in(dt, SRC(2 * j + 1), SRC(2 * j + 2)));
        if ((rows - 1) % 2 == 1) acc = add_in(dt, acc, SRC(rows - 1));
        return acc;
    }
    uint64_t *tmp = calloc(rows / 2 + 1, sizeof *tmp);
    uint64_t result;
    if (a2a3) { /* TColSum.hpp (A2A3) BinarySum */
        if (rows == 1) {
            result = SRC(0);
        } else {
            for (size_t i = 0; i < rows / 2; ++i) tmp[i] = add_in(dt, SRC(2 * i), SRC(2 * i + 1));
            if (rows % 2 == 1) tmp[0] = add_in(dt, tmp[0], SRC(rows - 1));
            for (size_t cnt = rows / 2; cnt > 1; cnt /= 2) {
                for (size_t i = 0; i < cnt / 2; ++i) tmp[i] = add_in(dt, tmp[2 * i], tmp[2 * i + 1]);
                if (cnt % 2 == 1) tmp[0] = add_in(dt, tmp[0], tmp[cnt - 1]);
            }
            result = tmp[0];
        }
    } else { /* TColSum.hpp (A5) TColSum_Binary */
        size_t n = rows / 2;
        uint64_t last = 0; /* the vector register, +0 at first */
        for (size_t j = 0; j < n; ++j) last = tmp[j] = add_in(dt, SRC(2 * j), SRC(2 * j + 1));
        if (rows % 2 == 1) last = tmp[n > 0 ? n - 1 : 0] = add_in(dt, SRC(rows - 1), last);
        while (n > 1) {
            const size_t odd = n % 2;
            n /= 2;
            for (size_t j = 0; j < n; ++j) last = tmp[j] = add_in(dt, tmp[2 * j], tmp[2 * j + 1]);
            if (odd) last = tmp[n - 1] = add_in(dt, tmp[2 * n], last);
        }
        result = last;
    }
#undef SRC
    free(tmp);
    return result;
}

/* ---- products (TROWPROD, TCOLPROD) ---- */

/* One product rounded to dt: two float values' product is exact in double
 * (at most 2 x 24 bits); integers wrap. */
static uint64_t mul_in(pto_dtype dt, uint64_t a, uint64_t b) {
    if (!ref_is_float(dt))
        return ref_int_wrap(dt, (uint64_t)ref_int_value(dt, a) * (uint64_t)ref_int_value(dt, b));
    return ref_from_double(dt, ref_to_double(dt, a) * ref_to_double(dt, b));
}

/* a5/TRowProd.hpp: 256-byte registers of lane products from 1, chunk after
 * chunk (lanes past a partial chunk keep theirs), then vintlv with ones and
 * vmul: lane k times lane k + half, halving down to lane 0.
 * a2a3/TRowProd.hpp: a 32-byte block of lane products from 1 (vmul per
 * block, a partial block's first lanes), then the scalar unit's product of
 * the block's lanes left to right in float, converted to dt at the end. */
static uint64_t row_prod(pto_dtype dt, pto_profile profile, const void *src, size_t stride, size_t r,
                         size_t cols) {
    const bool a2a3 = profile == PTO_PROFILE_A2A3;
    const size_t width = (a2a3 ? 32 : 256) / pto_dtype_size(dt);
    uint64_t lanes[128];
    const uint64_t one = ref_is_float(dt) ? ref_from_double(dt, 1.0) : 1;
    for (size_t k = 0; k < width; ++k) lanes[k] = one;
    for (size_t c0 = 0; c0 < cols; c0 += width)
        for (size_t k = 0; k < width && c0 + k < cols; ++k) lanes[k] = mul_in(dt, lanes[k], at(dt, src, stride, r, c0 + k));
    if (!a2a3) {
        for (size_t half = width / 2; half >= 1; half /= 2)
            for (size_t k = 0; k < half; ++k) lanes[k] = mul_in(dt, lanes[k], lanes[k + half]);
        return lanes[0];
    }
    if (!ref_is_float(dt)) {
        uint64_t p = lanes[0];
        for (size_t k = 1; k < width; ++k) p = mul_in(dt, p, lanes[k]);
        return p;
    }
    uint64_t p = ref_from_double(PTO_FLOAT32, ref_to_double(dt, lanes[0]));
    for (size_t k = 1; k < width; ++k)
        p = mul_in(PTO_FLOAT32, p, ref_from_double(PTO_FLOAT32, ref_to_double(dt, lanes[k])));
    return ref_from_double(dt, ref_to_double(PTO_FLOAT32, p));
}

/* a2a3/TColProd.hpp: row 0, then each row in turn; a5/TColProd.hpp (the
 * column-reduce loop TCOLSUM's default takes): row 0, then the products of
 * row pairs (1,2), (3,4), ..., then an unpaired last row. */
static uint64_t col_prod(pto_dtype dt, pto_profile profile, const void *src, size_t stride, size_t rows,
                         size_t c) {
    uint64_t acc = at(dt, src, stride, 0, c);
    if (profile == PTO_PROFILE_A2A3) {
        for (size_t r = 1; r < rows; ++r) acc = mul_in(dt, acc, at(dt, src, stride, r, c));
        return acc;
    }
    size_t r = 1;
    for (; r + 1 < rows; r += 2)
        acc = mul_in(dt, acc, mul_in(dt, at(dt, src, stride, r, c), at(dt, src, stride, r + 1, c)));
    if (r < rows) acc = mul_in(dt, acc, at(dt, src, stride, r, c));
    return acc;
}

void op_reduce_reference(op_id op, pto_profile profile, int binary_order, pto_dtype dt,
                         const void *src, size_t rows, size_t cols, size_t stride,
                         uint64_t *out) {
    const bool by_row = op_row(op)->family == OP_FAMILY_ROW_REDUCE;
    const bool sum = op == OP_TROWSUM || op == OP_TCOLSUM;
    const bool max = op == OP_TROWMAX || op == OP_TCOLMAX;
    const size_t outer = by_row ? rows : cols, inner = by_row ? cols : rows;
    for (size_t o = 0; o < outer; ++o) {
        uint64_t v;
        if (op == OP_TROWPROD) {
            v = row_prod(dt, profile, src, stride, o, cols);
        } else if (op == OP_TCOLPROD) {
            v = col_prod(dt, profile, src, stride, rows, o);
        } else if (sum && by_row) {
            v = profile == PTO_PROFILE_A2A3 ? row_sum_a2a3(dt, src, stride, o, cols)
                                            : row_sum_a5(dt, src, stride, o, cols);
        } else if (sum) {
            v = col_sum(dt, profile, binary_order, src, stride, rows, o);
        } else {
            v = by_row ? at(dt, src, stride, o, 0) : at(dt, src, stride, 0, o);
            for (size_t k = 1; k < inner; ++k) {
                const uint64_t x = by_row ? at(dt, src, stride, o, k) : at(dt, src, stride, k, o);
                v = max ? ref_tmax(dt, v, x) : ref_tmin(dt, v, x);
            }
        }
        out[o] = default_nan(dt, v);
    }
}
