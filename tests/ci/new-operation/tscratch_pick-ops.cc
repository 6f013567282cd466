// ---- tscratch_pick, a dummy of tests/ci/new-operation.sh -------------------

pto_status CheckTScratchPick(const Operands& o, pto_profile) {
  Validator v("pto_tscratch_pick");
  v.NotNull("dst", o.dst).NotNull("src0", o.src0).NotNull("src1", o.src1).NotNull("tmp", o.tmp);
  v.EnumInRange("mode", o.attr, AttrValueCount(AttrKind::kScratchPick));
  if (!v.ok()) return v.status();
  v.SameDtype("src0", o.src0, "dst", o.dst)
      .SameDtype("src1", o.src1, "dst", o.dst)
      .Distinct("tmp", o.tmp, "dst", o.dst)
      .Distinct("tmp", o.tmp, "src0", o.src0)
      .Distinct("tmp", o.tmp, "src1", o.src1)
      .InPlaceOrApart("src0", o.src0, o.dst)
      .InPlaceOrApart("src1", o.src1, o.dst)
      .SameValidRegion("src0", o.src0, "dst", o.dst)
      .SameValidRegion("src1", o.src1, "dst", o.dst);
  return v.status();
}

void RunTScratchPick(const Operands& o, pto_profile) {
  const pto_tile* src = o.attr == PTO_SCRATCH_PICK_FIRST ? o.src0 : o.src1;
  kernels::Copy(o.dst->dtype, o.dst->valid_rows, o.dst->valid_cols, Offset(o.dst, 0, 0),
                Offset(src, 0, 0));
}

