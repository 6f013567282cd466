/* TGEMV, TGEMV_ACC, TGEMV_BIAS (pto-isa docs/isa/TGEMV.md: dst(0,j) = seed +
 * sum over k < K of a(0,k) b(k,j) for j < N, M = 1, K and N b's valid rows
 * and cols; the seed 0, dst as it was, or bias(0,j)):
 * - under HOST on row-major tiles, on every target, for the four (dst; a, b)
 *   dtype triples, pto-isa's ST shapes (1x16x32, 1x200x32, 1x300x60,
 *   1x512x32, 1x512x85) and small ones (K = 1, lane tails, padded tiles,
 *   K = 0): dst's valid row is, bit for bit, the page's sum taken as the
 *   contract's one chain over k in order, written here (acc = fmaf(a, b,
 *   acc) from the seed; int8: modulo 2^32), and nothing else is written;
 * - under A2A3 and A5 on the cube tiles of pto-isa's ST cases (a one-row
 *   left tile of K rounded to 512 bytes, a right ZN tile, a 16-row acc tile
 *   with one valid row, a bias row): the same bits;
 * - the ST cases' split K: tgemv_bias (or tgemv) over k < 256, then
 *   tgemv_acc over the rest, gives the one chain over all K bit for bit;
 * - every rule in the contract's order with its status and sentence, a
 *   refusal writing nothing; board mode leaves GEMV's shape rules errors;
 * - programs: pto.tgemv, pto.tgemv.acc and pto.tgemv.bias on the ST cases'
 *   tiles under HOST, A2A3 and A5 give the C calls' bits; their text rules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/harness.h"

typedef struct {
    pto_dtype dst, src;
} triple;
static const triple kTriples[] = {
    {PTO_FLOAT32, PTO_BFLOAT16}, {PTO_FLOAT32, PTO_FLOAT16}, {PTO_FLOAT32, PTO_FLOAT32}, {PTO_INT32, PTO_INT8}};

/* The page's dst(0, j): the seed's bits, then each k in order, a and b
 * widened exactly to float and each step rounded once (fmaf), or the int8
 * products added modulo 2^32. a is 1 x K, b K x N, both row-major arrays of
 * element bits. */
static uint32_t reference(pto_dtype dt, pto_dtype st, const uint64_t *a, const uint64_t *b, size_t k_count,
                          size_t n, size_t j, uint32_t seed_bits) {
    if (dt == PTO_INT32) {
        uint32_t acc = seed_bits;
        for (size_t k = 0; k < k_count; ++k)
            acc += (uint32_t)(ref_int_value(st, a[k]) * ref_int_value(st, b[k * n + j]));
        return acc;
    }
    float acc;
    memcpy(&acc, &seed_bits, sizeof acc);
    for (size_t k = 0; k < k_count; ++k)
        acc = fmaf((float)ref_to_double(st, a[k]), (float)ref_to_double(st, b[k * n + j]), acc);
    uint32_t bits;
    memcpy(&bits, &acc, sizeof bits);
    return bits;
}

static bool same_result(pto_dtype dt, uint32_t want, uint32_t got) {
    return want == got || (ref_is_nan(dt, want) && ref_is_nan(dt, got));
}

/* A chain's sources (GEN_CHAIN: moderate, so that a chain of 512 k with a
 * NaN or an infinity among its products does not hide its other terms;
 * test_specials has those). */
static uint64_t source_value(rng *r, pto_dtype dt) { return gen_value(r, dt, GEN_CHAIN); }

typedef struct {
    uint32_t k, n;
} kn;

/* pto-isa's ST cases (tests/npu/a2a3 and a5, tmatmul_kernel.cpp RunTGEMV,
 * RunTGEMVSplitK; tests/cpu/st) and the kernel's edges. */
static const kn kStShapes[] = {{16, 32}, {200, 32}, {300, 60}, {512, 32}, {512, 85}};
static const kn kSmallShapes[] = {{1, 1}, {3, 7}, {33, 17}, {64, 40}, {9, 130}};

/* One call on row-major HOST tiles padded by `pad` rows and cols: dst's
 * valid row against the reference, everything else unchanged. */
static void host_case(seed_kind kind, triple t, uint32_t k, uint32_t n, uint32_t pad, rng *r,
                      const char *target) {
    pto_tile *a = tile_new(t.src, 1 + pad, k + pad, 1, k), *b = tile_new(t.src, k + pad, n + pad, k, n);
    pto_tile *dst = tile_new(t.dst, 1 + pad, n + pad, 1, n), *bias = tile_new(t.dst, 1 + pad, n + pad, 1, n);
    uint64_t *av = malloc((k + 1) * sizeof *av), *bv = malloc(((size_t)k * n + 1) * sizeof *bv);
    for (uint32_t q = 0; q < k; ++q) tile_put(a, 0, q, av[q] = source_value(r, t.src));
    for (uint32_t q = 0; q < k; ++q)
        for (uint32_t j = 0; j < n; ++j) tile_put(b, q, j, bv[(size_t)q * n + j] = source_value(r, t.src));
    tile_fill(dst, r, t.dst == PTO_INT32 ? GEN_ANY : GEN_POW_EXP);
    tile_fill(bias, r, t.dst == PTO_INT32 ? GEN_ANY : GEN_POW_EXP);
    uint64_t *before = tile_snapshot(dst);
    const pto_status st = gemv_call(kind, dst, a, b, bias);
    if (st != PTO_OK)
        fail_msg("%s %s 1x%ux%u on %s: %s (%s)", kGemvNames[kind], pto_dtype_string(t.src), k, n, target,
                 pto_status_string(st), pto_last_error());
    const uint32_t cols = pto_tile_cols(dst);
    for (uint32_t i = 0; i < pto_tile_rows(dst); ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t got = (uint32_t)tile_get(dst, i, j), old = (uint32_t)before[(size_t)i * cols + j];
            if (i > 0 || j >= n) {
                if (got != old) fail_msg("%s wrote (%u,%u) outside dst's valid row", kGemvNames[kind], i, j);
                continue;
            }
            const uint32_t seed = kind == SEED_ZERO ? 0 : kind == SEED_DST ? old : (uint32_t)tile_get(bias, 0, j);
            const uint32_t want = reference(t.dst, t.src, av, bv, k, n, j, seed);
            if (!same_result(t.dst, want, got))
                fail_msg("%s %s on %s, K %u N %u: (0,%u) gives 0x%x, the page's sum 0x%x", kGemvNames[kind],
                         pto_dtype_string(t.src), target, k, n, j, got, want);
        }
    free(before), free(av), free(bv);
    TILES_DESTROY(a, b, dst, bias);
}

static void host_body(void *ctx, size_t target_index, const char *target) {
    size_t *calls = ctx;
    rng r = {0x6E3B01u + target_index};
    for (size_t t = 0; t < COUNT(kTriples); ++t)
        for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind) {
            for (size_t s = 0; s < COUNT(kStShapes); ++s, ++*calls)
                host_case((seed_kind)kind, kTriples[t], kStShapes[s].k, kStShapes[s].n, 0, &r, target);
            for (size_t s = 0; s < COUNT(kSmallShapes); ++s, ++*calls)
                host_case((seed_kind)kind, kTriples[t], kSmallShapes[s].k, kSmallShapes[s].n, (uint32_t)s % 3, &r,
                          target);
            host_case((seed_kind)kind, kTriples[t], 0, 9, 1, &r, target); /* K = 0: the seed */
            ++*calls;
        }
}

static void test_host_values(void **state) {
    (void)state;
    size_t calls = 0;
    for_each_target("gemv against the page's sum", host_body, &calls);
    printf("gemv: %zu HOST calls against the page's sum, bit for bit\n", calls);
}

/* ---- the cube tiles of pto-isa's ST cases ---- */

static pto_tile *cube(pto_dtype dt, uint32_t rows, uint32_t cols, pto_location loc, pto_layout layout) {
    pto_tile *t = NULL;
    const pto_status st = pto_tile_create_cube(dt, rows, cols, loc, layout, &t);
    if (st != PTO_OK) fail_msg("pto_tile_create_cube: %s (%s)", pto_status_string(st), pto_last_error());
    return t;
}

static uint32_t round_up(uint32_t x, uint32_t m) { return (x + m - 1) / m * m; }

/* Element bits into a tile row-major (its whole rows x cols, from `values`
 * where given for the top-left rows x cols block, zero elsewhere). */
static void write_block(pto_tile *t, const uint64_t *values, uint32_t rows, uint32_t cols) {
    const pto_dtype dt = pto_tile_dtype(t);
    const size_t tr = pto_tile_rows(t), tc = pto_tile_cols(t), es = pto_dtype_size(dt);
    unsigned char *image = calloc(tr * tc, es);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) ref_store(dt, image, i * tc + j, values[(size_t)i * cols + j]);
    expect_status(pto_tile_write(t, image, tr * tc * es), PTO_OK, "pto_tile_write");
    free(image);
}

/* The operands of one ST case under an NPU profile: a 1 x K row in a left
 * tile of K rounded to 512 bytes (TileLeft<U, 1, KLeft, 1, validK>), b in a
 * right ZN tile, dst a 16-row acc NZ tile with one valid row, bias a bias
 * row. */
typedef struct {
    pto_tile *a, *b, *dst, *bias;
} st_tiles;

static st_tiles st_tiles_new(pto_profile profile, triple t, uint32_t k, uint32_t n) {
    const uint32_t es = (uint32_t)pto_dtype_size(t.src);
    const uint32_t kleft = round_up(k, 512 / es), kr = round_up(k, 32), nr = round_up(n, 16);
    st_tiles s;
    s.a = cube(t.src, 1, kleft, PTO_LOC_LEFT, profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ);
    s.b = cube(t.src, kr, nr, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
    s.dst = cube(t.dst, 16, nr, PTO_LOC_ACC, PTO_LAYOUT_NZ);
    s.bias = cube(t.dst, 1, nr, PTO_LOC_BIAS, PTO_LAYOUT_ND);
    expect_status(pto_tile_set_valid(s.a, 1, k), PTO_OK, "set_valid a");
    expect_status(pto_tile_set_valid(s.b, k, n), PTO_OK, "set_valid b");
    expect_status(pto_tile_set_valid(s.dst, 1, n), PTO_OK, "set_valid dst");
    expect_status(pto_tile_set_valid(s.bias, 1, n), PTO_OK, "set_valid bias");
    return s;
}

static void st_tiles_destroy(st_tiles *s) { TILES_DESTROY(s->a, s->b, s->dst, s->bias); }

/* dst's whole image, row-major, as element bits. */
static uint64_t *read_all(const pto_tile *t) {
    const pto_dtype dt = pto_tile_dtype(t);
    const size_t n = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    unsigned char *image = malloc(n * pto_dtype_size(dt));
    expect_status(pto_tile_read(t, image, n * pto_dtype_size(dt)), PTO_OK, "pto_tile_read");
    uint64_t *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; ++i) out[i] = ref_load(dt, image, i);
    free(image);
    return out;
}

/* Under `profile`, for each call: dst's valid row is the reference, every
 * other element of the 16-row acc tile unchanged. */
static void cube_case(pto_profile profile, seed_kind kind, triple t, uint32_t k, uint32_t n, rng *r) {
    st_tiles s = st_tiles_new(profile, t, k, n);
    uint64_t *av = malloc(k * sizeof *av), *bv = malloc((size_t)k * n * sizeof *bv);
    uint64_t *dv = malloc((size_t)16 * n * sizeof *dv), *biasv = malloc(n * sizeof *biasv);
    for (uint32_t q = 0; q < k; ++q) av[q] = source_value(r, t.src);
    for (size_t q = 0; q < (size_t)k * n; ++q) bv[q] = source_value(r, t.src);
    for (size_t q = 0; q < (size_t)16 * n; ++q) dv[q] = gen_value(r, t.dst, GEN_POW_EXP);
    for (uint32_t j = 0; j < n; ++j) biasv[j] = gen_value(r, t.dst, GEN_POW_EXP);
    write_block(s.a, av, 1, k);
    write_block(s.b, bv, k, n);
    write_block(s.dst, dv, 16, n);
    write_block(s.bias, biasv, 1, n);
    uint64_t *before = read_all(s.dst);
    assert_int_equal(pto_set_profile(profile), PTO_OK);
    const pto_status st = gemv_call(kind, s.dst, s.a, s.b, s.bias);
    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
    if (st != PTO_OK)
        fail_msg("%s under %s, %s 1x%ux%u: %s (%s)", kGemvNames[kind], pto_profile_string(profile),
                 pto_dtype_string(t.src), k, n, pto_status_string(st), pto_last_error());
    uint64_t *after = read_all(s.dst);
    const uint32_t cols = pto_tile_cols(s.dst);
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            const uint32_t got = (uint32_t)after[(size_t)i * cols + j], old = (uint32_t)before[(size_t)i * cols + j];
            if (i > 0 || j >= n) {
                if (got != old) fail_msg("%s under %s wrote (%u,%u) outside dst's valid row", kGemvNames[kind],
                                         pto_profile_string(profile), i, j);
                continue;
            }
            const uint32_t seed = kind == SEED_ZERO ? 0 : kind == SEED_DST ? old : (uint32_t)biasv[j];
            const uint32_t want = reference(t.dst, t.src, av, bv, k, n, j, seed);
            if (!same_result(t.dst, want, got))
                fail_msg("%s under %s, %s K %u N %u: (0,%u) gives 0x%x, the page's sum 0x%x", kGemvNames[kind],
                         pto_profile_string(profile), pto_dtype_string(t.src), k, n, j, got, want);
        }
    free(av), free(bv), free(dv), free(biasv), free(before), free(after);
    st_tiles_destroy(&s);
}

static void test_cube_values(void **state) {
    (void)state;
    rng r = {0x6E3B02u};
    size_t calls = 0;
    for (pto_profile p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p)
        for (size_t t = 0; t < COUNT(kTriples); ++t)
            for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind)
                for (size_t s = 0; s < COUNT(kStShapes); ++s, ++calls)
                    cube_case(p, (seed_kind)kind, kTriples[t], kStShapes[s].k, kStShapes[s].n, &r);
    printf("gemv: %zu A2A3 and A5 calls on the ST cases' cube tiles against the page's sum\n", calls);
}

/* The ST cases' split K (RunTGEMVSplitK, BASEK 256): the first call on
 * k < 256 (tgemv_bias or tgemv), then tgemv_acc on the rest into the same
 * dst, equals the one chain over all K. */
static void test_split_k(void **state) {
    (void)state;
    rng r = {0x6E3B03u};
    const uint32_t base = 256;
    const kn shapes[] = {{512, 32}, {512, 85}, {300, 60}};
    for (pto_profile p = PTO_PROFILE_HOST; p <= PTO_PROFILE_A5; ++p)
        for (size_t t = 0; t < COUNT(kTriples); ++t)
            for (size_t s = 0; s < COUNT(shapes); ++s)
                for (int with_bias = 0; with_bias < 2; ++with_bias) {
                    const triple tr = kTriples[t];
                    const uint32_t k = shapes[s].k, n = shapes[s].n;
                    uint64_t *av = malloc(k * sizeof *av), *bv = malloc((size_t)k * n * sizeof *bv);
                    uint64_t *biasv = malloc(n * sizeof *biasv);
                    for (uint32_t q = 0; q < k; ++q) av[q] = source_value(&r, tr.src);
                    for (size_t q = 0; q < (size_t)k * n; ++q) bv[q] = source_value(&r, tr.src);
                    for (uint32_t j = 0; j < n; ++j) biasv[j] = gen_value(&r, tr.dst, GEN_POW_EXP);
                    /* HOST takes A2A3's cube tiles (it takes any layout). */
                    const pto_profile layouts = p == PTO_PROFILE_HOST ? PTO_PROFILE_A2A3 : p;
                    st_tiles first = st_tiles_new(layouts, tr, base, n), rest = st_tiles_new(layouts, tr, k - base, n);
                    write_block(first.a, av, 1, base);
                    write_block(first.b, bv, base, n);
                    write_block(first.bias, biasv, 1, n);
                    write_block(rest.a, av + base, 1, k - base);
                    write_block(rest.b, bv + (size_t)base * n, k - base, n);
                    assert_int_equal(pto_set_profile(p), PTO_OK);
                    expect_status(with_bias ? pto_tgemv_bias(first.dst, first.a, first.b, first.bias)
                                            : pto_tgemv(first.dst, first.a, first.b),
                                  PTO_OK, "the first part of K");
                    expect_status(pto_tgemv_acc(first.dst, rest.a, rest.b), PTO_OK, "tgemv_acc on the rest");
                    assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
                    uint64_t *got = read_all(first.dst);
                    for (uint32_t j = 0; j < n; ++j) {
                        const uint32_t want =
                            reference(tr.dst, tr.src, av, bv, k, n, j, with_bias ? (uint32_t)biasv[j] : 0);
                        if (!same_result(tr.dst, want, (uint32_t)got[j]))
                            fail_msg("split K under %s, %s 1x%ux%u: (0,%u) gives 0x%x, the one chain 0x%x",
                                     pto_profile_string(p), pto_dtype_string(tr.src), k, n, j, (uint32_t)got[j],
                                     want);
                    }
                    free(av), free(bv), free(biasv), free(got);
                    st_tiles_destroy(&first), st_tiles_destroy(&rest);
                }
}

/* ---- rules ---- */

/* HOST, on row-major tiles, in the contract's order. */
static void test_rules(void **state) {
    (void)state;
    pto_tile *a = tile_new(PTO_FLOAT16, 1, 8, 1, 8), *b = tile_new(PTO_FLOAT16, 8, 5, 8, 5);
    pto_tile *dst = tile_new(PTO_FLOAT32, 1, 5, 1, 5), *bias = tile_new(PTO_FLOAT32, 1, 5, 1, 5);
    pto_tile *dst_f16 = tile_new(PTO_FLOAT16, 1, 5, 1, 5), *dst_i32 = tile_new(PTO_INT32, 1, 5, 1, 5);
    pto_tile *b_bf16 = tile_new(PTO_BFLOAT16, 8, 5, 8, 5), *bias_i32 = tile_new(PTO_INT32, 1, 5, 1, 5);
    pto_tile *a2 = tile_new(PTO_FLOAT16, 2, 8, 2, 8), *dst2 = tile_new(PTO_FLOAT32, 2, 5, 2, 5);
    pto_tile *b_k7 = tile_new(PTO_FLOAT16, 7, 5, 7, 5), *dst_n6 = tile_new(PTO_FLOAT32, 1, 6, 1, 6);
    pto_tile *bias_n4 = tile_new(PTO_FLOAT32, 1, 4, 1, 4), *a0 = tile_new(PTO_FLOAT16, 1, 8, 0, 8);
    rng r = {0x6E3B04u};
    tile_fill(dst, &r, GEN_ANY), tile_fill(dst2, &r, GEN_ANY), tile_fill(dst_f16, &r, GEN_ANY);
    tile_fill(dst_i32, &r, GEN_ANY);
    for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind) {
        const seed_kind g = (seed_kind)kind;
        expect_matmul_refused(true, g, NULL, a, b, bias, PTO_ERR_NULL_ARGUMENT, "dst is NULL");
        expect_matmul_refused(true, g, dst, NULL, b, bias, PTO_ERR_NULL_ARGUMENT, "a is NULL");
        expect_matmul_refused(true, g, dst, a, NULL, bias, PTO_ERR_NULL_ARGUMENT, "b is NULL");
        expect_matmul_refused(true, g, dst_f16, a, b, bias, PTO_ERR_UNSUPPORTED_DTYPE, "dst dtype FLOAT16");
        expect_matmul_refused(true, g, dst, a, b_bf16, bias, PTO_ERR_DTYPE_MISMATCH, "b");
        expect_matmul_refused(true, g, dst_i32, a, b, bias_i32, PTO_ERR_UNSUPPORTED_DTYPE, "(dst INT32; a, b FLOAT16)");
        /* The shapes, in order: M = 1 for a, then for dst; K; N. */
        expect_matmul_refused(true, g, dst2, a2, b, bias, PTO_ERR_SHAPE_MISMATCH, "a valid rows 2: a GEMV multiplies one row");
        expect_matmul_refused(true, g, dst, a0, b, bias, PTO_ERR_SHAPE_MISMATCH, "a valid rows 0: a GEMV multiplies one row");
        expect_matmul_refused(true, g, dst2, a, b, bias, PTO_ERR_SHAPE_MISMATCH, "dst valid rows 2: a GEMV writes one row");
        expect_matmul_refused(true, g, dst, a, b_k7, bias, PTO_ERR_SHAPE_MISMATCH, "a valid cols 8 differ from b valid rows 7 (K)");
        expect_matmul_refused(true, g, dst_n6, a, b, bias, PTO_ERR_SHAPE_MISMATCH, "b valid cols 5 differ from dst valid cols 6 (N)");
        /* Under A2A3 and A5, vec tiles are refused before the dtypes. */
        for (pto_profile p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
            assert_int_equal(pto_set_profile(p), PTO_OK);
            expect_matmul_refused(true, g, dst_f16, a, b, bias, PTO_ERR_INVALID_ARGUMENT, "a must be a left");
            assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        }
    }
    expect_matmul_refused(true, SEED_BIAS, dst, a, b, NULL, PTO_ERR_NULL_ARGUMENT, "bias is NULL");
    expect_matmul_refused(true, SEED_BIAS, dst, a, b, bias_i32, PTO_ERR_DTYPE_MISMATCH, "bias");
    expect_matmul_refused(true, SEED_BIAS, dst, a, b, bias_n4, PTO_ERR_SHAPE_MISMATCH, "bias valid region 1x4");
    expect_matmul_refused(true, SEED_BIAS, dst, a, b, dst, PTO_ERR_ALIASING, "bias");
    TILES_DESTROY(a, b, dst, bias, dst_f16, dst_i32, b_bf16, bias_i32, a2, dst2, b_k7, dst_n6, bias_n4, a0);
}

/* dst sharing bytes with a source: placed tiles in one buffer. */
static void test_aliasing(void **state) {
    (void)state;
    pto_buffer *buf = NULL;
    assert_int_equal(pto_buffer_create(4096, &buf), PTO_OK);
    pto_tile *pa = NULL, *pdst = NULL;
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 1, 8, buf, 0, &pa), PTO_OK);
    assert_int_equal(pto_tile_create_at(PTO_FLOAT32, 1, 8, buf, 16, &pdst), PTO_OK);
    pto_tile *b = tile_new(PTO_FLOAT32, 8, 8, 8, 8);
    for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind) {
        expect_matmul_refused(true, (seed_kind)kind, pdst, pa, b, pa, PTO_ERR_ALIASING, "a overlaps the storage of dst");
        expect_matmul_refused(true, (seed_kind)kind, pa, pa, b, pdst, PTO_ERR_ALIASING, "a");
    }
    TILES_DESTROY(pa, pdst, b);
    pto_buffer_destroy(buf);
}

/* Under A2A3 and A5: each location and layout, K in 1..4095 (a K of 0),
 * and board mode leaving the shapes refused. */
static void test_cube_rules(void **state) {
    (void)state;
    const triple t = {PTO_FLOAT32, PTO_FLOAT16};
    for (pto_profile p = PTO_PROFILE_A2A3; p <= PTO_PROFILE_A5; ++p) {
        st_tiles s = st_tiles_new(p, t, 16, 32);
        pto_tile *wrong_left = cube(PTO_FLOAT16, 1, 256, PTO_LOC_LEFT,
                                    p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_NZ : PTO_LAYOUT_ZZ);
        pto_tile *b_nz = cube(PTO_FLOAT16, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_NZ);
        pto_tile *dst_mat = cube(PTO_FLOAT32, 16, 32, PTO_LOC_MAT, PTO_LAYOUT_NZ);
        pto_tile *bias_mat = cube(PTO_FLOAT32, 1, 32, PTO_LOC_MAT, PTO_LAYOUT_ND);
        pto_tile *b_k0 = cube(PTO_FLOAT16, 32, 32, PTO_LOC_RIGHT, PTO_LAYOUT_ZN);
        pto_tile *a_k0 = cube(PTO_FLOAT16, 1, 256, PTO_LOC_LEFT, p == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ);
        pto_tile *dst_two = cube(PTO_FLOAT32, 16, 32, PTO_LOC_ACC, PTO_LAYOUT_NZ);
        expect_status(pto_tile_set_valid(wrong_left, 1, 16), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(b_nz, 16, 32), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(dst_mat, 1, 32), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(bias_mat, 1, 32), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(b_k0, 0, 32), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(a_k0, 1, 0), PTO_OK, "set_valid");
        expect_status(pto_tile_set_valid(dst_two, 2, 32), PTO_OK, "set_valid");
        assert_int_equal(pto_set_profile(p), PTO_OK);
        for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind) {
            const seed_kind g = (seed_kind)kind;
            expect_matmul_refused(true, g, s.dst, wrong_left, s.b, s.bias, PTO_ERR_INVALID_ARGUMENT,
                           p == PTO_PROFILE_A2A3 ? "under A2A3 a must be a left ZZ tile" : "under A5 a must be a left NZ tile");
            expect_matmul_refused(true, g, s.dst, s.a, b_nz, s.bias, PTO_ERR_INVALID_ARGUMENT, "b must be a right ZN tile");
            expect_matmul_refused(true, g, dst_mat, s.a, s.b, s.bias, PTO_ERR_INVALID_ARGUMENT, "dst must be an acc NZ tile");
            expect_matmul_refused(true, g, s.dst, a_k0, b_k0, s.bias, PTO_ERR_SHAPE_MISMATCH, "K = 0 is outside the cube's 1 to 4095");
            expect_matmul_refused(true, g, dst_two, s.a, s.b, s.bias, PTO_ERR_SHAPE_MISMATCH, "dst valid rows 2");
            /* Board mode leaves GEMV's shapes errors (PTOAS's verifier asks them). */
            assert_int_equal(pto_set_board_mode(1), PTO_OK);
            expect_matmul_refused(true, g, dst_two, s.a, s.b, s.bias, PTO_ERR_SHAPE_MISMATCH, "dst valid rows 2");
            assert_int_equal(pto_set_board_mode(0), PTO_OK);
        }
        expect_matmul_refused(true, SEED_BIAS, s.dst, s.a, s.b, bias_mat, PTO_ERR_INVALID_ARGUMENT, "bias must be a bias ND tile");
        assert_int_equal(pto_set_profile(PTO_PROFILE_HOST), PTO_OK);
        /* HOST takes the same tiles in any location and layout. */
        expect_status(pto_tgemv(dst_mat, wrong_left, b_nz), PTO_OK, "HOST on any cube tiles");
        st_tiles_destroy(&s);
        TILES_DESTROY(wrong_left, b_nz, dst_mat, bias_mat, b_k0, a_k0, dst_two);
    }
}

/* ---- programs ---- */

/* A tile_buf type: loc, dtype, rows x cols, valid vr x vc, and a layout:
 * ND, ZZ, NZ, ZN or ACC (NZ of 1024-byte boxes). */
static void tile_buf(char *out, size_t size, const char *loc, pto_dtype dt, unsigned rows, unsigned cols,
                     unsigned vr, unsigned vc, const char *layout) {
    const bool nd = strcmp(layout, "ND") == 0, acc = strcmp(layout, "ACC") == 0;
    const bool col_blocks = acc || strcmp(layout, "NZ") == 0;
    snprintf(out, size,
             "!pto.tile_buf<loc=%s, dtype=%s, rows=%u, cols=%u, v_row=%u, v_col=%u, blayout=%s, slayout=%s, "
             "fractal=%u, pad=0>",
             loc, dtype_spelling(dt), rows, cols, vr, vc, col_blocks ? "col_major" : "row_major",
             nd ? "none_box" : strcmp(layout, "ZN") == 0 ? "col_major" : "row_major", acc ? 1024 : 512);
}

/* The ST kernel (RunTGEMV) as a program: a's row and b loaded into mat
 * tiles, moved to left and right, multiplied into a 16-row acc tile with
 * one valid row and stored: `kind` SEED_ZERO (pto.tgemv), SEED_DST (pto.tgemv,
 * then pto.tgemv.acc of the same product) or SEED_BIAS (pto.tgemv.bias,
 * the bias row through a mat row). `arch` NULL: HOST. */
static void gemv_text(char *text, size_t size, const char *arch, seed_kind kind, triple t, unsigned k,
                      unsigned n) {
    const unsigned es = (unsigned)pto_dtype_size(t.src);
    const unsigned kleft = round_up(k, 512 / es), kr = round_up(k, 32), nr = round_up(n, 16);
    const char *s = dtype_spelling(t.src), *d = dtype_spelling(t.dst);
    char ma[512], mb[512], l[512], r[512], c[512], mbias[512], bias[512];
    tile_buf(ma, sizeof ma, "mat", t.src, 1, kleft, 1, k, "ND");
    tile_buf(mb, sizeof mb, "mat", t.src, kr, nr, k, n, "NZ");
    tile_buf(l, sizeof l, "left", t.src, 1, kleft, 1, k, arch != NULL && strcmp(arch, "a5") == 0 ? "NZ" : "ZZ");
    tile_buf(r, sizeof r, "right", t.src, kr, nr, k, n, "ZN");
    tile_buf(c, sizeof c, "acc", t.dst, 16, nr, 1, n, "ACC");
    tile_buf(mbias, sizeof mbias, "mat", t.dst, 1, nr, 1, n, "ND");
    tile_buf(bias, sizeof bias, "bias", t.dst, 1, nr, 1, n, "ND");
    size_t at = 0;
    if (arch != NULL) at += (size_t)snprintf(text, size, "module attributes {pto.target_arch = \"%s\"} {\n", arch);
    at += (size_t)snprintf(
        text + at, size - at,
        "func.func @k(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%bias: !pto.ptr<%s>, %%c: !pto.ptr<%s>) "
        "attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  %%c1 = arith.constant 1 : index\n  %%k = arith.constant %u : index\n  %%n = arith.constant %u : index\n"
        "  %%va = pto.make_tensor_view %%a, shape = [%%c1, %%k], strides = [%%k, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vb = pto.make_tensor_view %%b, shape = [%%k, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vbias = pto.make_tensor_view %%bias, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%vc = pto.make_tensor_view %%c, shape = [%%c1, %%n], strides = [%%n, %%c1] : !pto.tensor_view<?x?x%s>\n"
        "  %%ma = pto.alloc_tile : %s\n  %%mb = pto.alloc_tile : %s\n"
        "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
        "  pto.section.cube {\n"
        "  pto.tload ins(%%va : !pto.tensor_view<?x?x%s>) outs(%%ma : %s)\n"
        "  pto.tload ins(%%vb : !pto.tensor_view<?x?x%s>) outs(%%mb : %s)\n"
        "  pto.tmov ins(%%ma : %s) outs(%%l : %s)\n  pto.tmov ins(%%mb : %s) outs(%%r : %s)\n",
        s, s, d, d, k, n, s, s, d, d, ma, mb, l, r, c, s, ma, s, mb, ma, l, mb, r);
    if (kind == SEED_BIAS)
        at += (size_t)snprintf(text + at, size - at,
                               "  %%mbias = pto.alloc_tile : %s\n  %%tb = pto.alloc_tile : %s\n"
                               "  pto.tload ins(%%vbias : !pto.tensor_view<?x?x%s>) outs(%%mbias : %s)\n"
                               "  pto.tmov ins(%%mbias : %s) outs(%%tb : %s)\n"
                               "  pto.tgemv.bias ins(%%l, %%r, %%tb : %s, %s, %s) outs(%%acc : %s)\n",
                               mbias, bias, d, mbias, mbias, bias, l, r, bias, c);
    else
        at += (size_t)snprintf(text + at, size - at, "  pto.tgemv ins(%%l, %%r : %s, %s) outs(%%acc : %s)\n", l, r, c);
    if (kind == SEED_DST)
        at += (size_t)snprintf(text + at, size - at,
                               "  pto.tgemv.acc ins(%%acc, %%l, %%r : %s, %s, %s) outs(%%acc : %s)\n", c, l, r, c);
    snprintf(text + at, size - at,
             "  pto.tstore ins(%%acc : %s) outs(%%vc : !pto.tensor_view<?x?x%s>)\n  }\n  return\n}\n%s", c, d,
             arch != NULL ? "}\n" : "");
}

/* What the program must give: the C calls on row-major HOST tiles (for
 * SEED_DST: pto_tgemv, then pto_tgemv_acc of the same product). */
static void c_calls(seed_kind kind, triple t, unsigned k, unsigned n, const void *a, const void *b,
                    const void *bias, void *c) {
    pto_tile *ta = NULL, *tb = NULL, *tc = NULL, *tbias = NULL;
    assert_int_equal(pto_tile_create(t.src, 1, k, &ta), PTO_OK);
    assert_int_equal(pto_tile_create(t.src, k, n, &tb), PTO_OK);
    assert_int_equal(pto_tile_create(t.dst, 1, n, &tc), PTO_OK);
    assert_int_equal(pto_tile_create(t.dst, 1, n, &tbias), PTO_OK);
    memcpy(pto_tile_data(ta), a, (size_t)k * pto_dtype_size(t.src));
    memcpy(pto_tile_data(tb), b, (size_t)k * n * pto_dtype_size(t.src));
    memcpy(pto_tile_data(tbias), bias, (size_t)n * pto_dtype_size(t.dst));
    expect_status(kind == SEED_BIAS ? pto_tgemv_bias(tc, ta, tb, tbias) : pto_tgemv(tc, ta, tb), PTO_OK, "C call");
    if (kind == SEED_DST) expect_status(pto_tgemv_acc(tc, ta, tb), PTO_OK, "C call (acc)");
    memcpy(c, pto_tile_data(tc), (size_t)n * pto_dtype_size(t.dst));
    TILES_DESTROY(ta, tb, tc, tbias);
}

/* Each triple, the ST shapes (K split to 256 where b would not fit the
 * right memory, as the ST kernels do), the three forms, under HOST, A2A3
 * and A5: the program's row is the C calls', bit for bit. */
static void test_programs(void **state) {
    (void)state;
    static const char *const archs[] = {NULL, "a2a3", "a5"};
    const kn shapes[] = {{16, 32}, {200, 32}, {300, 60}, {256, 85}};
    rng r = {0x6E3B05u};
    int programs = 0;
    for (size_t t = 0; t < COUNT(kTriples); ++t)
        for (size_t si = 0; si < COUNT(shapes); ++si)
            for (int kind = SEED_ZERO; kind <= SEED_BIAS; ++kind) {
                const triple tr = kTriples[t];
                const unsigned k = shapes[si].k, n = shapes[si].n;
                const size_t es = pto_dtype_size(tr.src);
                /* b's tile within A2A3's 64 KiB right memory (the ST kernels split K to fit). */
                if ((size_t)round_up(k, 32) * round_up(n, 16) * es > 65536) continue;
                unsigned char *a = malloc(k * es), *b = malloc((size_t)k * n * es);
                uint32_t *bias = malloc(n * 4), *c = malloc(n * 4), *want = malloc(n * 4);
                for (size_t i = 0; i < k; ++i) ref_store(tr.src, a, i, source_value(&r, tr.src));
                for (size_t i = 0; i < (size_t)k * n; ++i) ref_store(tr.src, b, i, source_value(&r, tr.src));
                for (size_t j = 0; j < n; ++j) bias[j] = (uint32_t)gen_value(&r, tr.dst, GEN_POW_EXP);
                c_calls((seed_kind)kind, tr, k, n, a, b, bias, want);
                for (size_t ai = 0; ai < COUNT(archs); ++ai) {
                    static char text[16384];
                    gemv_text(text, sizeof text, archs[ai], (seed_kind)kind, tr, k, n);
                    pto_program *p = program_build(text, NULL);
                    memset(c, 0x5A, n * 4);
                    void *data[] = {a, b, bias, c};
                    const size_t nbytes[] = {k * es, (size_t)k * n * es, n * 4, n * 4};
                    pto_args *args = NULL;
                    assert_int_equal(pto_args_create(p, &args), PTO_OK);
                    for (size_t i = 0; i < COUNT(data); ++i)
                        assert_int_equal(pto_args_set_pointer(args, i, data[i], nbytes[i]), PTO_OK);
                    if (pto_program_run(p, args) != PTO_OK) fail_msg("run: %s", pto_last_error());
                    for (size_t j = 0; j < n; ++j)
                        if (!same_result(tr.dst, want[j], c[j]))
                            fail_msg("%s %s 1x%ux%u under %s: element %zu is %08x, the C calls' %08x", kGemvNames[kind],
                                     dtype_spelling(tr.src), k, n, archs[ai] ? archs[ai] : "HOST", j, c[j], want[j]);
                    pto_args_destroy(args);
                    pto_program_destroy(p);
                    ++programs;
                }
                free(a), free(b), free(bias), free(c), free(want);
            }
    printf("gemv: %d programs (pto.tgemv, pto.tgemv.acc, pto.tgemv.bias) equal the C calls bit for bit\n", programs);
}

/* Text rules: the accumulator of pto.tgemv.acc is its outs tile; a's and
 * dst's one valid row; the cube's locations; PTOAS's accPhase attribute. */
static void test_program_refusals(void **state) {
    (void)state;
    const triple t = {PTO_FLOAT32, PTO_FLOAT16};
    char l[512], l2[512], r[512], c[512], c2[512], mat[512], text[8192];
    tile_buf(l, sizeof l, "left", t.src, 1, 256, 1, 16, "ZZ");
    tile_buf(l2, sizeof l2, "left", t.src, 16, 256, 2, 16, "ZZ");
    tile_buf(r, sizeof r, "right", t.src, 32, 32, 16, 32, "ZN");
    tile_buf(c, sizeof c, "acc", t.dst, 16, 32, 1, 32, "ACC");
    tile_buf(c2, sizeof c2, "acc", t.dst, 16, 32, 2, 32, "ACC");
    tile_buf(mat, sizeof mat, "mat", t.src, 1, 256, 1, 16, "ND");
    static const char *const frame =
        "func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  %%l = pto.alloc_tile : %s\n  %%r = pto.alloc_tile : %s\n  %%acc = pto.alloc_tile : %s\n"
        "  %%other = pto.alloc_tile : %s\n"
        "  pto.section.cube {\n  %s\n  }\n  return\n}\n";
    char op[4096];
    snprintf(op, sizeof op, "pto.tgemv.acc ins(%%other, %%l, %%r : %s, %s, %s) outs(%%acc : %s)", c, l, r, c);
    snprintf(text, sizeof text, frame, l, r, c, c, op);
    expect_program_refused_with(text, NULL, "accumulates into its output: the accumulator %other must be the outs tile %acc");
    snprintf(op, sizeof op, "pto.tgemv ins(%%other, %%r : %s, %s) outs(%%acc : %s)", l2, r, c);
    snprintf(text, sizeof text, frame, l, r, c, l2, op);
    expect_program_refused_with(text, NULL, "pto_tgemv: a valid rows 2: a GEMV multiplies one row (M = 1)");
    snprintf(op, sizeof op, "pto.tgemv.bias ins(%%l, %%r, %%l : %s, %s, %s) outs(%%other : %s)", l, r, l, c2);
    snprintf(text, sizeof text, frame, l, r, c, c2, op);
    expect_program_refused_with(text, NULL, "pto.tgemv.bias: bias %l is a left");
    snprintf(op, sizeof op, "pto.tgemv ins(%%l, %%r : %s, %s) outs(%%other : %s)", l, r, c2);
    snprintf(text, sizeof text, frame, l, r, c, c2, op);
    expect_program_refused_with(text, NULL, "pto_tgemv: dst valid rows 2: a GEMV writes one row (M = 1)");
    snprintf(op, sizeof op, "pto.tgemv ins(%%other, %%r : %s, %s) outs(%%acc : %s)", mat, r, c);
    snprintf(text, sizeof text, frame, l, r, c, mat, op);
    expect_program_refused_with(text, NULL, "pto.tgemv: a %other is a mat");
    /* PTOAS's accPhase (the cube's unit flag): accepted in each phase, nothing else. */
    static const char *const phases[] = {"unspecified", "partial", "final"};
    for (size_t i = 0; i < COUNT(phases); ++i) {
        snprintf(op, sizeof op,
                 "pto.tgemv.acc ins(%%acc, %%l, %%r : %s, %s, %s) outs(%%acc : %s) {accPhase = #pto<acc_phase %s>}",
                 c, l, r, c, phases[i]);
        snprintf(text, sizeof text, frame, l, r, c, c, op);
        pto_program_destroy(program_build(text, NULL));
    }
    snprintf(op, sizeof op, "pto.tgemv ins(%%l, %%r : %s, %s) outs(%%acc : %s) {accPhase = #pto<acc_phase last>}", l,
             r, c);
    snprintf(text, sizeof text, frame, l, r, c, c, op);
    expect_program_refused_with(text, NULL, "pto.tgemv takes no attribute but accPhase = #pto<acc_phase");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_values), cmocka_unit_test(test_cube_values), cmocka_unit_test(test_split_k),
        cmocka_unit_test(test_rules),       cmocka_unit_test(test_aliasing),    cmocka_unit_test(test_cube_rules),
        cmocka_unit_test(test_programs),    cmocka_unit_test(test_program_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
