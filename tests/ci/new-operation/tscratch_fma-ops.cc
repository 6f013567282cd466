// ---- tscratch_fma, a dummy of tests/ci/new-operation.sh --------------------

pto_status CheckTScratchFma(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src0 = o.src0, *src1 = o.src1;
  Validator v("pto_tscratch_fma");
  v.NotNull("dst", dst).NotNull("src0", src0).NotNull("src1", src1);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTScratchFma, profile, "dst", dst)
      .SameDtype("src0", src0, "dst", dst)
      .SameDtype("src1", src1, "dst", dst);
  RequireScalarOf(v, "scalar", o.scalar, "dst", dst->dtype)
      .InPlaceOrApart("src0", src0, dst)
      .InPlaceOrApart("src1", src1, dst)
      .SameValidRegion("src0", src0, "dst", dst)
      .SameValidRegion("src1", src1, "dst", dst);
  return v.status();
}

void RunTScratchFma(const Operands& o, pto_profile) {
  pto_tile* dst = o.dst;
  kernels::ScratchFma(dst->valid_rows, dst->valid_cols, PlaneOf(dst), ConstPlaneOf(o.src0),
                      ConstPlaneOf(o.src1), static_cast<float>(o.scalar));
}

