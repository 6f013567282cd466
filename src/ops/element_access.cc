// One element of a tile as a scalar (TGETVAL, TSETVAL): the element at a
// flat offset, index = row * cols + col as pto-isa's Tile::GetValue and
// Tile::SetValue address it (include/pto/common/pto_tile.hpp) and PTOAS's
// tgetval/tsetval take it (a linear element offset). tsetval is a row of
// operations.def (its check and run here); tgetval gives a value rather than
// a tile, so its C function is written here.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dtype_rules.h"
#include "kernels/kernels.h"
#include "ops.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace ops {

namespace {

// Whether flat offset `index` names an element of t's valid region.
bool AddressesValidElement(const pto_tile* t, size_t index) {
  return index / t->cols < t->valid_rows && index % t->cols < t->valid_cols;
}

Validator& RequireValidElement(Validator& v, const char* operand, const pto_tile* t,
                               size_t index) {
  return v.Require(AddressesValidElement(t, index), PTO_ERR_OUT_OF_RANGE,
                   "index %zu (row %zu, col %zu of %u cols) is outside %s's valid region %ux%u",
                   index, index / t->cols, index % t->cols, t->cols, operand, t->valid_rows,
                   t->valid_cols);
}

}  // namespace

pto_status CheckTgetval(const pto_tile* src, size_t index, bool out_given, bool index_known,
                        pto_profile profile) {
  Validator v("pto_tgetval");
  v.NotNull("src", src).Require(out_given, PTO_ERR_NULL_ARGUMENT, "out is NULL");
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTgetval, profile, "src", src);
  if (index_known) RequireValidElement(v, "src", src, index);
  return v.status();
}

namespace {
template <typename T>
double ValueAt(const char* at) {
  T e;
  memcpy(&e, at, sizeof e);
  return static_cast<double>(e);
}
}  // namespace

double ElementValue(const pto_tile* t, size_t index) {
  const char* at = static_cast<const char*>(t->data) + index * ElementBytes(t->dtype);
  switch (t->dtype) {
    case PTO_INT8: return ValueAt<int8_t>(at);
    case PTO_UINT8: return ValueAt<uint8_t>(at);
    case PTO_INT16: return ValueAt<int16_t>(at);
    case PTO_UINT16: return ValueAt<uint16_t>(at);
    case PTO_INT32: return ValueAt<int32_t>(at);
    case PTO_UINT32: return ValueAt<uint32_t>(at);
    default: {  // the float dtypes: every value is a float's, and so a double's
      float f;
      kernels::ToF32(t->dtype, 1, &f, at);
      return f;
    }
  }
}

// ---- tsetval --------------------------------------------------------------

pto_status CheckTsetval(const Operands& o, pto_profile profile) {
  pto_tile* dst = o.dst;
  Validator v("pto_tsetval");
  v.NotNull("dst", dst);
  if (!v.ok()) return v.status();
  v.DtypeAccepted(OpDtypes::kTsetval, profile, "dst", dst);
  RequireScalarOf(v, "value", o.scalar, "dst", dst->dtype);
  if (o.contents_known) RequireValidElement(v, "dst", dst, o.index[0]);
  return v.status();
}

// The value's bits (ScalarBits: under the run's float environment) in the
// element's width.
void RunTsetval(const Operands& o, pto_profile) {
  const size_t size = ElementBytes(o.dst->dtype);
  const uint32_t bits = ScalarBits(o.dst->dtype, o.scalar);
  char* at = static_cast<char*>(o.dst->data) + o.index[0] * size;
  const uint8_t b8 = static_cast<uint8_t>(bits);
  const uint16_t b16 = static_cast<uint16_t>(bits);
  memcpy(at, size == 1 ? static_cast<const void*>(&b8)
             : size == 2 ? static_cast<const void*>(&b16)
                         : static_cast<const void*>(&bits),
         size);
}

}  // namespace ops
}  // namespace pto

extern "C" {

pto_status pto_tgetval(const pto_tile* src, size_t index, double* out) {
  const pto_status status =
      pto::ops::CheckTgetval(src, index, out != nullptr, true, pto::CurrentProfile());
  if (status != PTO_OK) return status;
  *out = pto::ops::ElementValue(src, index);
  return PTO_OK;
}

}  // extern "C"
