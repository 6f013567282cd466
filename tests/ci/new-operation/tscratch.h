/* dst = |src0 - src1|: the difference correctly rounded, integers wrapping
 * (a dummy of tests/ci/new-operation.sh). FLOAT32, FLOAT16, INT32. */
PTO_API pto_status pto_tscratch(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

