// The checks operations are written with (their chains live in src/ops/,
// one per operation). A Validator runs checks in the order they are written and
// stops at the first failure, which decides the status and the sentence that
// pto_last_error() returns.
#ifndef PTO_VALIDATE_H_
#define PTO_VALIDATE_H_

#include <stdint.h>
#include <string.h>

#include "board.h"
#include "dtype_rules.h"
#include "overlap.h"
#include "pto_c.h"
#include "tile.h"

namespace pto {

// The int a C caller passed as an enum argument. C allows any int there, but
// C++ may assume an enum object only holds values in its enumerators' range
// (UBSan's -fsanitize=enum reports such loads), so the bits are copied out
// without ever reading the object as an enum.
template <typename Enum>
inline int RawEnumValue(const Enum& e) {
  static_assert(sizeof(Enum) == sizeof(int), "the C ABI passes enums as int");
  int value;
  memcpy(&value, &e, sizeof(value));
  return value;
}

// The sentences of failed checks, formatted out of line; each records
// "function: sentence" as the thread's last error and returns the status.
// Free functions rather than members, so that a Validator never escapes and
// its status stays in a register: a passing chain costs only its compares.
namespace validation {
#if defined(__GNUC__)
#define PTO_COLD __attribute__((cold, noinline))
#define PTO_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define PTO_COLD
#define PTO_PRINTF(fmt, first)
#endif
PTO_COLD pto_status FailNull(const char* function, const char* operand);
PTO_COLD pto_status FailEnum(const char* function, const char* operand, int enum_value,
                             int count);
PTO_COLD pto_status FailUnsupported(const char* function, OpDtypes op, pto_profile profile,
                                    const char* operand, const pto_tile* t);
PTO_COLD pto_status FailDtypeMismatch(const char* function, const char* operand,
                                      const pto_tile* t, const char* ref_name,
                                      const pto_tile* ref);
PTO_COLD pto_status FailAliasing(const char* function, const char* operand,
                                 const char* other_name);
// A source of a row-order instruction sharing storage with dst otherwise
// than exactly: PTO_OK where RowOrderOf finds dst's rows written behind the
// source rows read (and, under A2A3, its repeats do not overwrite an
// earlier row's remainder), else the refusal.
PTO_COLD pto_status CheckRowOrder(const char* function, const char* operand, const pto_tile* src,
                                  const pto_tile* dst, pto_profile profile);
PTO_COLD pto_status FailOverlap(const char* function, const char* operand,
                                const char* other_name);
PTO_COLD pto_status FailApartOn(const char* function, pto_profile profile, const char* rule,
                                const char* operand, bool same_handle, const char* other_name);
PTO_COLD pto_status FailRegionMismatch(const char* function, const char* operand,
                                       const pto_tile* t, const char* ref_name,
                                       const pto_tile* ref);
PTO_COLD pto_status FailCubeTile(const char* function, const char* operand, const pto_tile* t);
PTO_COLD pto_status FailFormatted(const char* function, pto_status status, const char* format,
                                  ...) PTO_PRINTF(3, 4);
#undef PTO_COLD
#undef PTO_PRINTF
}  // namespace validation

// Fully inlined (GCC would otherwise outline each check's failure branch into
// a function taking `this`, which keeps the status in memory).
#if defined(__GNUC__)
#define PTO_CHECK_INLINE __attribute__((always_inline))
#define PTO_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PTO_CHECK_INLINE
#define PTO_UNLIKELY(x) (x)
#endif

// Each check is inline, so a call that passes costs a few compares; the
// sentences are only formatted, out of line, when a rule fails.
class Validator {
 public:
  explicit Validator(const char* function) : function_(function) {}

  pto_status status() const { return status_; }
  bool ok() const { return status_ == PTO_OK; }
  // The C function the checks are of (for a failure that is not a check's,
  // such as running out of memory).
  const char* function() const { return function_; }

  // The operand must be non-NULL.
  PTO_CHECK_INLINE
  Validator& NotNull(const char* operand, const void* handle) {
    if (ok() && handle == nullptr) status_ = validation::FailNull(function_, operand);
    return *this;
  }
  // The operand (when given) must be a row-major vec tile: only pto_tmov,
  // pto_textract, pto_tinsert and the matrix multiplies take the cube's
  // tiles and vec tiles in a
  // fractal layout (pto_tile_create_cube; PTO_LOC_VEC and PTO_LAYOUT_ND
  // are both 0).
  PTO_CHECK_INLINE
  Validator& OnVec(const char* operand, const pto_tile* t) {
    if (ok() && t != nullptr && PTO_UNLIKELY((t->location | t->layout) != 0))
      status_ = validation::FailCubeTile(function_, operand, t);
    return *this;
  }
  // enum_value must be below count (an enum argument with values 0..count-1).
  PTO_CHECK_INLINE
  Validator& EnumInRange(const char* operand, int enum_value, int count) {
    if (ok() && (enum_value < 0 || enum_value >= count))
      status_ = validation::FailEnum(function_, operand, enum_value, count);
    return *this;
  }
  // The operand's dtype must be one the operation accepts under the profile
  // (the table in dtype_rules.h).
  PTO_CHECK_INLINE
  Validator& DtypeAccepted(OpDtypes op, pto_profile profile, const char* operand,
                           const pto_tile* t) {
    if (ok() && !Accepts(op, profile, t->dtype))
      status_ = validation::FailUnsupported(function_, op, profile, operand, t);
    return *this;
  }
  // The operand's dtype must equal the reference operand's.
  PTO_CHECK_INLINE
  Validator& SameDtype(const char* operand, const pto_tile* t, const char* ref_name,
                       const pto_tile* ref) {
    if (ok() && t->dtype != ref->dtype)
      status_ = validation::FailDtypeMismatch(function_, operand, t, ref_name, ref);
    return *this;
  }
  // The operand must be a different handle than the other one.
  PTO_CHECK_INLINE
  Validator& Distinct(const char* operand, const pto_tile* t, const char* other_name,
                      const pto_tile* other) {
    if (ok() && t == other) status_ = validation::FailAliasing(function_, operand, other_name);
    return *this;
  }
  // A source read while dst is written: it may be dst itself or placed
  // exactly on it (in place), but its valid elements must not otherwise
  // share a byte with dst's.
  PTO_CHECK_INLINE
  Validator& InPlaceOrApart(const char* operand, const pto_tile* src, const pto_tile* dst) {
    if (ok() && src != dst && PTO_UNLIKELY(src->buffer != nullptr || dst->buffer != nullptr) &&
        !SamePlacement(src, dst) && ValidRegionsOverlapSlow(src, dst))
      status_ = validation::FailOverlap(function_, operand, "dst");
    return *this;
  }
  // A source of an instruction whose dst row i reads only row i of each
  // source (the contract's v0.6 row order): as InPlaceOrApart, and also
  // placed so that writing dst's rows in order overwrites only source rows
  // already read (overlap.h, RowOrderOf).
  PTO_CHECK_INLINE
  Validator& InRowOrderOrApart(const char* operand, const pto_tile* src, const pto_tile* dst,
                               pto_profile profile) {
    if (ok() && src != dst && PTO_UNLIKELY(src->buffer != nullptr || dst->buffer != nullptr) &&
        !SamePlacement(src, dst) && ValidRegionsOverlapSlow(src, dst))
      status_ = validation::CheckRowOrder(function_, operand, src, dst, profile);
    return *this;
  }
  // A profile's rule that two operands occupy non-overlapping storage; the
  // same handle and identical placement count as overlap.
  PTO_CHECK_INLINE
  Validator& ApartOn(pto_profile profile, const char* rule, const char* operand,
                     const pto_tile* t, const char* other_name, const pto_tile* other) {
    if (ok() && (t == other || SamePlacement(t, other) || ValidRegionsOverlap(t, other)))
      status_ =
          validation::FailApartOn(function_, profile, rule, operand, t == other, other_name);
    return *this;
  }
  // The operand's valid region must equal the reference's.
  PTO_CHECK_INLINE
  Validator& SameValidRegion(const char* operand, const pto_tile* t, const char* ref_name,
                             const pto_tile* ref) {
    if (ok() && (t->valid_rows != ref->valid_rows || t->valid_cols != ref->valid_cols))
      status_ = validation::FailRegionMismatch(function_, operand, t, ref_name, ref);
    return *this;
  }
  // The operand's valid region must equal the reference's (dst's), except in
  // board mode under A2A3 and A5 (BoardRelaxes), where the implementations
  // only PTO_ASSERT it and run dst's valid region, reading the operand at the
  // same positions of its storage: then a warning, if those positions lie
  // inside the operand's rows x cols (else the refusal).
  PTO_CHECK_INLINE
  Validator& SameValidRegionOrBoard(const char* operand, const pto_tile* t, const char* ref_name,
                                    const pto_tile* ref, pto_profile profile) {
    if (ok() && (t->valid_rows != ref->valid_rows || t->valid_cols != ref->valid_cols)) {
      if (BoardRelaxes(profile) && ref->valid_rows <= t->rows && ref->valid_cols <= t->cols)
        BoardWarn(function_,
                  "%s valid region %ux%u differs from %s valid region %ux%u (%s runs %s's valid "
                  "region)",
                  operand, t->valid_rows, t->valid_cols, ref_name, ref->valid_rows,
                  ref->valid_cols, pto_profile_string(profile), ref_name);
      else
        status_ = validation::FailRegionMismatch(function_, operand, t, ref_name, ref);
    }
    return *this;
  }
  // A rule the profile's implementation checks only with PTO_ASSERT (or not
  // at all): in board mode under A2A3 and A5 a break is a warning with the
  // sentence, and the call goes on, where `board_safe` holds (what the
  // implementation then does stays inside every operand's storage); else
  // the refusal, as Require.
  template <typename... Args>
  PTO_CHECK_INLINE
  Validator& RequireOrBoard(bool holds, bool board_safe, pto_profile profile, pto_status status,
                            const char* format, Args... args) {
    if (ok() && !holds) {
      if (board_safe && BoardRelaxes(profile)) BoardWarn(function_, format, args...);
      else status_ = validation::FailFormatted(function_, status, format, args...);
    }
    return *this;
  }
  // A custom rule: fails with `status` and the printf-style sentence when
  // `holds` is false.
  template <typename First, typename... Rest>
  PTO_CHECK_INLINE
  Validator& Require(bool holds, pto_status status, const char* format, First first,
                     Rest... rest) {
    if (ok() && !holds)
      status_ = validation::FailFormatted(function_, status, format, first, rest...);
    return *this;
  }
  // A custom rule whose sentence has no arguments: it is printed as given, so
  // a '%' in it is never read as a conversion.
  PTO_CHECK_INLINE
  Validator& Require(bool holds, pto_status status, const char* sentence) {
    if (ok() && !holds) status_ = validation::FailFormatted(function_, status, "%s", sentence);
    return *this;
  }

 private:
  const char* function_;
  pto_status status_ = PTO_OK;
};

}  // namespace pto

#endif  // PTO_VALIDATE_H_
