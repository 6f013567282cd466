// What the files of src/ops/ share: the region and placement helpers the
// checks and runs are written with, the scalar operand's rules, and the
// declaration of every row's check and run (CheckCamel, RunCamel), which
// table.cc puts in kOps. Not included outside src/ops/.
#ifndef PTO_OPS_COMMON_H_
#define PTO_OPS_COMMON_H_

#include <stddef.h>
#include <stdint.h>

#include <cmath>

#include "kernels/kernels.h"
#include "ops/ops.h"
#include "overlap.h"
#include "pto_c.h"
#include "setting_arguments.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

inline bool IsEmptyRegion(const pto_tile* t) { return t->valid_rows == 0 || t->valid_cols == 0; }

inline bool RegionFits(const pto_tile* inner, const pto_tile* outer) {
  return inner->valid_rows <= outer->valid_rows && inner->valid_cols <= outer->valid_cols;
}

inline bool SameRegion(const pto_tile* a, const pto_tile* b) {
  return a->valid_rows == b->valid_rows && a->valid_cols == b->valid_cols;
}

// Whether two tiles share storage: the same handle (even with an empty
// region), one placed on the other, or a byte of their valid elements in
// common.
inline bool SharesStorage(const pto_tile* a, const pto_tile* b) {
  return a == b || SamePlacement(a, b) || ValidRegionsOverlapSlow(a, b);
}

// The tile's elements as the kernels take them: from its data, rows of its
// cols elements.
inline kernels::Plane PlaneOf(pto_tile* t) { return {t->data, t->cols}; }
inline kernels::ConstPlane ConstPlaneOf(const pto_tile* t) { return {t->data, t->cols}; }

// Moves a plane by (row, col) elements of its tile's dtype.
inline kernels::ConstPlane Offset(const pto_tile* t, uint32_t row, uint32_t col) {
  const char* base = static_cast<const char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}
inline kernels::Plane Offset(pto_tile* t, uint32_t row, uint32_t col) {
  char* base = static_cast<char*>(t->data);
  return {base + (static_cast<size_t>(row) * t->cols + col) * pto_dtype_size(t->dtype), t->cols};
}

inline size_t RegionElements(const pto_tile* t) { return size_t{t->valid_rows} * t->valid_cols; }

// Whether `scalar` is a value of dtype: for an integer dtype an integer
// within its range (NaN and the infinities are not); a float dtype takes any
// value, rounded to it.
// An 8-byte integer's scalar is a double too: every integer of magnitude up
// to 2^53 and the larger ones a double holds, up to but excluding 2^63
// (INT64) or 2^64 (UINT64), whose doubles are out of range.
inline bool ScalarIsValueOf(pto_dtype dtype, double scalar) {
  if (IsFloatDtype(dtype)) return true;
  const int bits = static_cast<int>(pto_dtype_size(dtype)) * 8;
  const bool is_signed = dtype == PTO_INT8 || dtype == PTO_INT16 || dtype == PTO_INT32 ||
                         dtype == PTO_INT64;
  const double low = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double end = std::ldexp(1.0, is_signed ? bits - 1 : bits);  // the first out of range
  return scalar == std::trunc(scalar) && scalar >= low && scalar < end;
}

// The rules of every scalar operand (pto_c.h), for the checks and runs of
// every family and Special row (elementwise.cc): the check that it is a
// value of the dtype of `owner` (the tile whose dtype it takes: an integer
// in range for an integer dtype, anything for a float one), naming the
// operand `name`, else PTO_ERR_INVALID_ARGUMENT; and the element's bits it
// stands for (a float rounded to nearest even, NaN the quiet NaN): call
// ScalarBits inside a FloatEnvironmentGuard, on a scalar that passed the
// check.
Validator& RequireScalarOf(Validator& v, const char* name, double scalar, const char* owner,
                           pto_dtype dtype);
uint32_t ScalarBits(pto_dtype dtype, double scalar);
// ScalarBits of any dtype, the 8-byte integers' two's complement included.
uint64_t ScalarBits64(pto_dtype dtype, double scalar);

// pto_tmov with a cube tile on either side (cube_move.cc): whether a call
// is one, its rules under `profile`, and the move of a call they accept.
bool IsCubeMove(const Operands& o);
pto_status CheckCubeMove(const Operands& o, pto_profile profile);
void RunCubeMove(const Operands& o);

// pto_textract with a cube tile on either side (IsCubeMove says whether a
// call is one; cube_extract.cc): its rules under `profile`, and the copy of
// a call they accept.
pto_status CheckCubeExtract(const Operands& o, pto_profile profile);
void RunCubeExtract(const Operands& o);

// pto_tinsert with a vec NZ or ZN tile or a cube tile on either side
// (cube_insert.cc): whether a call is one, its rules under `profile`, and
// the copy of a call they accept.
bool IsFractalInsert(const Operands& o);
pto_status CheckFractalInsert(const Operands& o, pto_profile profile);
void RunFractalInsert(const Operands& o);

// A2A3's Vec -> Vec dtypes, the nine of its TEXTRACT and TINSERT checks
// (cube_extract.cc, cube_insert.cc).
inline bool A2a3VecNineDtype(pto_dtype d) {
  return d == PTO_INT8 || d == PTO_UINT8 || d == PTO_INT16 || d == PTO_UINT16 ||
         d == PTO_INT32 || d == PTO_UINT32 || d == PTO_FLOAT16 || d == PTO_BFLOAT16 ||
         d == PTO_FLOAT32;
}

// Every row's check and run, in kOps (ops.h says what each does): the
// families' in elementwise.cc, broadcast.cc and reduce.cc, the Special rows'
// in arithmetic.cc, tcvt.cc, datamove.cc, element_access.cc and compare.cc.
#define PTO_OPERATION(Camel, ...)                                 \
  pto_status Check##Camel(const Operands& o, pto_profile profile); \
  void Run##Camel(const Operands& o, pto_profile profile);         \
  bool TextRules##Camel(const TextOperands& o, char* sentence, size_t size);
#include "operations.def"
#undef PTO_OPERATION

// Every setting's effect once settings.cc's checks of its arguments have
// passed (settings.def): the rest of its rules, then the thread's state set,
// in the src/ops/ file of its group (img2col.cc, fixpipe.cc).
#define PTO_SETTING(Camel, UPPER, mnemonic, arguments, ...) \
  pto_status Apply##Camel(PTO_SETTING_PARAMS(arguments));
#include "settings.def"
#undef PTO_SETTING

// tgather's and tscatter's rule (index_range.cc): every index of indices'
// valid region names an element of target's valid region; the first in row
// order that does not is quoted.
Validator& RequireIndicesInRange(Validator& v, const pto_tile* indices, const char* target_name,
                                 const pto_tile* target);
// The same rule where the profile's implementation reads the indexed
// element unchecked (tgather's index form): in board mode under A2A3 and A5
// an index outside target's valid region but inside its rows x cols is a
// warning; one outside its rows x cols stays a refusal, naming it.
Validator& RequireIndicesInRangeOrBoard(Validator& v, const pto_tile* indices,
                                        const char* target_name, const pto_tile* target,
                                        pto_profile profile);

}  // namespace ops
}  // namespace pto

#endif  // PTO_OPS_COMMON_H_
