// ---- tscratch_table, a dummy of tests/ci/new-operation.sh ------------------

pto_status CheckTScratchTable(const Operands& o, pto_profile profile) {
  pto_tile *dst = o.dst, *dst1 = o.tmp;
  const pto_tile* src = o.src0;
  Validator v("pto_tscratch_table");
  v.NotNull("dst", dst)
      .NotNull("table", o.ext->table.data)
      .NotNull("src", src)
      .NotNull("dst1", dst1)
      .NotNull("out", o.ext->out);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTScratchTable, profile, "dst", dst)
      .SameDtype("src", src, "dst", dst)
      .SameDtype("dst1", dst1, "dst", dst)
      .Require(o.ext->table.dtype == static_cast<int>(dst->dtype), PTO_ERR_DTYPE_MISMATCH,
               "table_dtype %d is not dst's", o.ext->table.dtype);
  if (!v.ok()) return v.status();
  size_t bytes = 0;
  v.Require(MulFits(o.ext->table.elements, 4, &bytes) &&
                RangeInAddressSpace(o.ext->table.data, bytes),
            PTO_ERR_INVALID_ARGUMENT, "table_elements %zu run past the address space",
            o.ext->table.elements)
      .Require(o.index[0] < o.ext->table.elements, PTO_ERR_OUT_OF_RANGE,
               "index %zu is not below table_elements", o.index[0])
      .SameValidRegion("src", src, "dst", dst)
      .SameValidRegion("dst1", dst1, "dst", dst);
  return v.status();
}

void RunTScratchTable(const Operands& o, pto_profile) {
  float t;
  memcpy(&t, static_cast<const char*>(o.ext->table.data) + o.index[0] * 4, 4);
  *o.ext->out = t;
  for (uint32_t r = 0; r < o.dst->valid_rows; ++r)
    for (uint32_t c = 0; c < o.dst->valid_cols; ++c) {
      float s;
      memcpy(&s, static_cast<const char*>(o.src0->data) + (size_t{r} * o.src0->cols + c) * 4, 4);
      const float sum = s + t, product = s * t;
      memcpy(static_cast<char*>(o.dst->data) + (size_t{r} * o.dst->cols + c) * 4, &sum, 4);
      memcpy(static_cast<char*>(o.tmp->data) + (size_t{r} * o.tmp->cols + c) * 4, &product, 4);
    }
}

