#include "validate.h"

#include <stdarg.h>
#include <stdio.h>

#include "error.h"
#include "overlap.h"
#include "tile.h"

namespace pto {
namespace validation {

pto_status FailNull(const char* function, const char* operand) {
  return Fail(PTO_ERR_NULL_ARGUMENT, function, "%s is NULL", operand);
}

pto_status FailCubeTile(const char* function, const char* operand, const pto_tile* t) {
  return Fail(PTO_ERR_INVALID_ARGUMENT, function,
              "%s is %s %s %s tile; only pto_tmov, pto_textract, pto_tinsert and the matrix "
              "multiplies (pto_tmatmul, pto_tgemv and their forms) take the cube's tiles and "
              "vec tiles in NZ or ZN (this operation takes row-major vec tiles)",
              operand, LocationArticle(static_cast<pto_location>(t->location)),
              LocationName(static_cast<pto_location>(t->location)),
              LayoutName(static_cast<pto_layout>(t->layout)));
}

pto_status FailEnum(const char* function, const char* operand, int enum_value, int count) {
  return Fail(PTO_ERR_INVALID_ARGUMENT, function, "%s %d is not a valid value (0..%d)",
              operand, enum_value, count - 1);
}

pto_status FailUnsupported(const char* function, OpDtypes op, pto_profile profile,
                           const char* operand, const pto_tile* t) {
  // Name the profile only where HOST would have accepted the dtype.
  const bool host_refuses = !AcceptedDtypes(op, PTO_PROFILE_HOST).Contains(t->dtype);
  if (host_refuses) profile = PTO_PROFILE_HOST;
  const DtypeSet& accepted = AcceptedDtypes(op, profile);
  char list[320];
  DtypeListText(accepted, list, sizeof(list));
  if (list[0] == '\0') snprintf(list, sizeof(list), "no dtype");
  char condition[64];
  if (host_refuses) {
    snprintf(condition, sizeof(condition), "%s",
             kOpDtypeRules[static_cast<int>(op)].host_condition);
  } else {
    snprintf(condition, sizeof(condition), " on %s", pto_profile_string(profile));
  }
  return Fail(PTO_ERR_UNSUPPORTED_DTYPE, function, "%s dtype %s is not supported%s (%s)", operand,
              DtypeName(t->dtype), condition, list);
}

pto_status FailDtypeMismatch(const char* function, const char* operand, const pto_tile* t,
                             const char* ref_name, const pto_tile* ref) {
  return Fail(PTO_ERR_DTYPE_MISMATCH, function, "%s dtype %s differs from %s dtype %s",
              operand, DtypeName(t->dtype), ref_name, DtypeName(ref->dtype));
}

pto_status FailAliasing(const char* function, const char* operand, const char* other_name) {
  return Fail(PTO_ERR_ALIASING, function, "%s is the same tile as %s", operand, other_name);
}

pto_status FailOverlap(const char* function, const char* operand, const char* other_name) {
  return Fail(PTO_ERR_ALIASING, function,
              "%s storage overlaps %s storage without being placed exactly on it "
              "(same address, dtype and cols)",
              operand, other_name);
}

pto_status CheckRowOrder(const char* function, const char* operand, const pto_tile* src,
                         const pto_tile* dst, pto_profile profile) {
  const RowOrder order = RowOrderOf(src, dst);
  if (order.kind == RowOrder::kClobbers)
    return Fail(PTO_ERR_ALIASING, function,
                "%s storage overlaps dst storage without being placed exactly on it (same "
                "address, dtype and cols) or in row order: dst row %u would overwrite %s row %u "
                "before it is read (a dst row may lie on earlier %s rows, or exactly on its own)",
                operand, order.dst_row, operand, order.src_row, operand);
  uint32_t dst_row = 0, src_row = 0, covered = 0;
  if (profile == PTO_PROFILE_A2A3 &&
      RepeatsOverwriteEarlierRemainder(src, dst, &dst_row, &src_row, &covered))
    return Fail(PTO_ERR_ALIASING, function,
                "%s shares storage with dst in row order, but on A2A3 dst row %u's whole 256-byte "
                "repeats (columns 0..%u) overwrite %s row %u's columns %u..%u before they are "
                "read (A2A3 runs every row's repeats before any row's remainder)",
                operand, dst_row, covered - 1, operand, src_row, covered, dst->valid_cols - 1);
  return PTO_OK;
}

pto_status FailApartOn(const char* function, pto_profile profile, const char* rule,
                       const char* operand, bool same_handle, const char* other_name) {
  return Fail(PTO_ERR_ALIASING, function, "%s %s %s, but on %s %s", operand,
              same_handle ? "is the same tile as" : "overlaps the storage of", other_name,
              pto_profile_string(profile), rule);
}

pto_status FailRegionMismatch(const char* function, const char* operand, const pto_tile* t,
                              const char* ref_name, const pto_tile* ref) {
  return Fail(PTO_ERR_SHAPE_MISMATCH, function,
              "%s valid region %ux%u differs from %s valid region %ux%u", operand,
              t->valid_rows, t->valid_cols, ref_name, ref->valid_rows, ref->valid_cols);
}

pto_status FailFormatted(const char* function, pto_status status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  FailV(status, function, format, args);
  va_end(args);
  return status;
}

}  // namespace validation
}  // namespace pto
