// dst = scalar * src0 + src1 over rows x cols of FLOAT32, one fused
// multiply-add rounded once (scratch_fma.cc; tscratch_fma, a dummy of
// tests/ci/new-operation.sh).
void ScratchFma(size_t rows, size_t cols, const Plane& dst, const ConstPlane& src0,
                const ConstPlane& src1, float scalar);

