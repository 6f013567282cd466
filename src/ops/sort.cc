// Special: tsort32 and tmrgsort (its single-list form), the sorts of
// value-index pairs (kernels/sort.cc).
#include "ops/common.h"

#include <stddef.h>
#include <stdint.h>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {
namespace {
// Tile elements of a value-index pair (8 bytes).
inline uint32_t PairElements(pto_dtype dtype) {
  return static_cast<uint32_t>(8 / ElementBytes(dtype));
}
}  // namespace

// ---- tsort32 ---------------------------------------------------------------

pto_status CheckTSort32(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile *src = o.src0, *idx = o.src1;
  Validator v("pto_tsort32");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("idx", idx);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTSort32, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  v.Require(idx->dtype == PTO_UINT32, PTO_ERR_UNSUPPORTED_DTYPE,
            "idx dtype %s is not UINT32", DtypeName(idx->dtype));
  if (o.tmp != nullptr) v.Distinct("tmp", o.tmp, "dst", dst);
  v.Require(src != dst && !ValidRegionsOverlapSlow(src, dst) && idx != dst &&
                !ValidRegionsOverlapSlow(idx, dst),
            PTO_ERR_ALIASING, "src or idx shares storage with dst (its pairs are wider)");
  const uint32_t cols = src->valid_cols;
  v.Require(dst->valid_rows == src->valid_rows, PTO_ERR_SHAPE_MISMATCH,
            "dst valid rows %u differ from src's %u", dst->valid_rows, src->valid_rows);
  v.Require(static_cast<uint64_t>(dst->valid_cols) ==
                static_cast<uint64_t>(cols) * PairElements(dst->dtype),
            PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u are not %u: a pair of 8 bytes for each of src's %u valid cols",
            dst->valid_cols, cols * PairElements(dst->dtype), cols);
  v.Require((idx->valid_rows == src->valid_rows || idx->valid_rows == 1) &&
                idx->valid_cols >= cols,
            PTO_ERR_SHAPE_MISMATCH,
            "idx valid region %ux%u does not give an index for each of src's %ux%u (one row of "
            "idx serves every row)",
            idx->valid_rows, idx->valid_cols, src->valid_rows, cols);
  // Without tmp the NPUs sort whole blocks only (a2a3/a5 TSort32.hpp: the
  // 3-argument form takes validCol / 32 blocks).
  if (profile != PTO_PROFILE_HOST && o.tmp == nullptr)
    v.Require(cols % 32 == 0, PTO_ERR_SHAPE_MISMATCH,
              "src valid cols %u are not a multiple of 32, which %s requires without tmp (the "
              "tail block is padded in tmp)",
              cols, pto_profile_string(profile));
  return v.status();
}

void RunTSort32(const Operands& o, pto_profile) {
  const pto_tile* idx = o.src1;
  kernels::Sort32(o.dst->dtype, o.dst->valid_rows, o.src0->valid_cols, PlaneOf(o.dst),
                  ConstPlaneOf(o.src0),
                  kernels::ConstPlane{idx->data, idx->valid_rows == 1 ? 0 : idx->cols});
}

// ---- tmrgsort --------------------------------------------------------------

pto_status CheckTMrgSort(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const size_t block_len = o.index[0];
  Validator v("pto_tmrgsort");
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTMrgSort, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  v.Require(src != dst && !SamePlacement(src, dst) && !ValidRegionsOverlapSlow(src, dst),
            PTO_ERR_ALIASING, "src shares storage with dst (a merge reads its lists as it writes)");
  // A program's verifier does not know the block length yet (contents not
  // known): the rules that need it are checked when the instruction runs.
  if (!o.contents_known) return v.status();
  v.Require(block_len != 0 && block_len % 64 == 0 && block_len <= 0xFFFFFFFFu,
            PTO_ERR_INVALID_ARGUMENT, "block_len %zu is not a positive multiple of 64",
            block_len);
  if (!v.ok()) return v.status();
  v.Require(src->valid_rows == 1 && dst->valid_rows == 1, PTO_ERR_SHAPE_MISMATCH,
            "src valid rows %u and dst valid rows %u are not 1 (the lists lie in one row)",
            src->valid_rows, dst->valid_rows);
  const uint64_t group = 4 * static_cast<uint64_t>(block_len);
  v.Require(src->valid_cols % group == 0 && src->valid_cols / group >= 1 &&
                src->valid_cols / group <= 255,
            PTO_ERR_SHAPE_MISMATCH,
            "src valid cols %u are not 1 to 255 times 4 x block_len (%zu)", src->valid_cols,
            block_len);
  v.Require(dst->valid_cols == src->valid_cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u differ from src's %u", dst->valid_cols, src->valid_cols);
  return v.status();
}

void RunTMrgSort(const Operands& o, pto_profile) {
  const uint32_t per_pair = PairElements(o.dst->dtype);
  kernels::MergeSort4(o.dst->dtype, o.src0->valid_cols / per_pair, o.index[0] / per_pair,
                      o.dst->data, o.src0->data);
}

}  // namespace ops
}  // namespace pto
