/* dst = scalar * src0 + src1 over dst's valid region, one fused multiply-add
 * rounded once (a dummy of tests/ci/new-operation.sh). FLOAT32 on every
 * profile; src0 and src1 of dst's dtype and valid region, each dst itself,
 * placed exactly on it or apart. */
PTO_API pto_status pto_tscratch_fma(pto_tile *dst, const pto_tile *src0, const pto_tile *src1,
                                    double scalar);

