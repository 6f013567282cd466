// Special: tsort32 and tmrgsort (its single-list form), the sorts of
// value-index pairs (kernels/sort.cc); tmrgsort's multi-list form, the row
// tmrgsort_lists (its counts the attribute role Counts) and a program's
// multi-list pto.tmrgsort.
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

// ---- tmrgsort's multi-list form ---------------------------------------------

namespace {
const char* const kListNames[4] = {"src0", "src1", "src2", "src3"};
size_t ListCount(const MrgSortLists& o) {
  return o.sources[2] == nullptr ? 2 : o.sources[3] == nullptr ? 3 : 4;
}
}  // namespace

pto_status CheckTMrgSortLists(const MrgSortLists& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* tmp = o.tmp;
  const bool npu = profile != PTO_PROFILE_HOST;
  Validator v("pto_tmrgsort_lists");
  v.NotNull("dst", dst).NotNull("src0", o.sources[0]).NotNull("src1", o.sources[1]);
  if (npu)
    v.Require(tmp != nullptr, PTO_ERR_NULL_ARGUMENT,
              "tmp is NULL, but on %s the merge goes through tmp", pto_profile_string(profile));
  v.Require(o.sources[3] == nullptr || o.sources[2] != nullptr, PTO_ERR_INVALID_ARGUMENT,
            "src3 is given without src2 (three lists are src0, src1, src2)");
  if (!v.ok()) return v.status();
  const size_t count = ListCount(o);
  // The cube's tiles are refused before every other rule, as the table's
  // rows refuse them (pto_c.h, "Cube tiles").
  v.OnVec("dst", dst);
  for (size_t k = 0; k < count; ++k) v.OnVec(kListNames[k], o.sources[k]);
  v.OnVec("tmp", tmp);
  v.DtypeAccepted(OpDtypes::kTMrgSortLists, profile, "dst", dst);
  for (size_t k = 0; k < count; ++k) v.SameDtype(kListNames[k], o.sources[k], "dst", dst);
  if (tmp != nullptr) v.SameDtype("tmp", tmp, "dst", dst);
  if (tmp != nullptr) {
    v.Distinct("tmp", tmp, "dst", dst);
    for (size_t k = 0; k < count; ++k) v.Distinct("tmp", tmp, kListNames[k], o.sources[k]);
  }
  for (size_t k = 0; k < count; ++k) {
    const pto_tile* src = o.sources[k];
    v.Require(src != dst && !SamePlacement(src, dst) && !ValidRegionsOverlapSlow(src, dst),
              PTO_ERR_ALIASING, "%s shares storage with dst (the merge reads the lists as it writes)",
              kListNames[k]);
  }
  if (!v.ok()) return v.status();
  const uint32_t per_pair = PairElements(dst->dtype);
  v.Require(dst->valid_rows == 1, PTO_ERR_SHAPE_MISMATCH,
            "dst valid rows %u are not 1 (the lists lie in one row)", dst->valid_rows);
  uint64_t cols = 0, tile_cols = 0;
  for (size_t k = 0; k < count; ++k) {
    const pto_tile* src = o.sources[k];
    v.Require(src->valid_rows == 1, PTO_ERR_SHAPE_MISMATCH,
              "%s valid rows %u are not 1 (a list is one row)", kListNames[k], src->valid_rows);
    v.Require(src->valid_cols != 0 && src->valid_cols % per_pair == 0 &&
                  src->valid_cols / per_pair <= 0xFFFF,
              PTO_ERR_SHAPE_MISMATCH,
              "%s valid cols %u are not 1 to 65535 pairs of %u %s elements", kListNames[k],
              src->valid_cols, per_pair, DtypeName(dst->dtype));
    cols += src->valid_cols;
    tile_cols += o.type_cols[k] != 0 ? o.type_cols[k] : src->cols;
  }
  v.Require(dst->valid_cols % per_pair == 0 && dst->valid_cols <= cols, PTO_ERR_SHAPE_MISMATCH,
            "dst valid cols %u are not whole pairs of %u elements within the lists' %llu",
            dst->valid_cols, per_pair, static_cast<unsigned long long>(cols));
  const uint32_t tmp_cols = o.tmp_type_cols != 0 ? o.tmp_type_cols : tmp != nullptr ? tmp->cols : 0;
  if (npu && v.ok())
    v.Require(tmp->valid_rows == 1 && tmp_cols >= tile_cols, PTO_ERR_SHAPE_MISMATCH,
              "tmp is %ux%u, not one row of at least the sources' %llu cols, which %s requires",
              tmp->valid_rows, tmp_cols, static_cast<unsigned long long>(tile_cols),
              pto_profile_string(profile));
  return v.status();
}

void RunTMrgSortLists(const MrgSortLists& o, uint16_t* executed) {
  const size_t count = ListCount(o);
  const uint32_t per_pair = PairElements(o.dst->dtype);
  const void* lists[4];
  size_t pairs[4], taken[4] = {0, 0, 0, 0};
  for (size_t k = 0; k < count; ++k) {
    lists[k] = o.sources[k]->data;
    pairs[k] = o.sources[k]->valid_cols / per_pair;
  }
  kernels::MergeLists(o.dst->dtype, count, lists, pairs, o.exhausted,
                      o.dst->valid_cols / per_pair, o.dst->data, taken);
  if (executed != nullptr)
    for (size_t k = 0; k < kCounts; ++k) executed[k] = static_cast<uint16_t>(taken[k]);
}

// The row tmrgsort_lists: its Operands as the lists' form (src2 and src3
// NULL for fewer lists; exhausted any nonzero int; the counts to
// OperandsExt::counts, which may be NULL; a program's declared cols, its
// subviews' windows). Its check refuses NULL operands before the cube's
// tiles (the row's NullsFirst trait).
namespace {
MrgSortLists ListsOf(const Operands& o) {
  MrgSortLists lists{o.dst, {o.src0, o.src1, o.ext->src2, o.ext->src3}, o.tmp, o.attr != 0};
  for (size_t k = 0; k < 4; ++k) lists.type_cols[k] = o.ext->declared_cols[k];
  lists.tmp_type_cols = o.ext->declared_tmp_cols;
  return lists;
}
}  // namespace

pto_status CheckTMrgSortLists(const Operands& o, pto_profile profile) {
  return CheckTMrgSortLists(ListsOf(o), profile);
}

void RunTMrgSortLists(const Operands& o, pto_profile) {
  RunTMrgSortLists(ListsOf(o), o.ext->counts);
}

}  // namespace ops
}  // namespace pto
