/* dst = src + table[index] and dst1 = src * table[index] over dst's valid
 * region, each rounded once, and *out = table[index] (a dummy of
 * tests/ci/new-operation.sh: two tile results, a scalar out-parameter and a
 * table in memory). FLOAT32 on every profile; the table table_elements
 * FLOAT32 elements; src and dst1 of dst's dtype and valid region. Rules, in
 * order: dst, table, src, dst1, out not NULL (PTO_ERR_NULL_ARGUMENT); dst's
 * dtype (PTO_ERR_UNSUPPORTED_DTYPE); src's, dst1's or table_dtype not dst's
 * (PTO_ERR_DTYPE_MISMATCH); table_elements * 4 past the address space
 * (PTO_ERR_INVALID_ARGUMENT); index not below table_elements
 * (PTO_ERR_OUT_OF_RANGE); the valid regions (PTO_ERR_SHAPE_MISMATCH). */
PTO_API pto_status pto_tscratch_table(pto_tile *dst, const void *table, size_t table_elements,
                                      pto_dtype table_dtype, const pto_tile *src, pto_tile *dst1,
                                      size_t index, double *out);

