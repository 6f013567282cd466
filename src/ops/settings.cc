// The settings' C functions, one per row of settings.def: each checks its
// arguments as the row's roles say (setting_arguments.h: NULL pointers, a
// configuration's fields in their ranges, a dtype of the row's list), then
// hands them to Apply<Camel> in the src/ops/ file of its group, which sets
// the calling thread's state.
#include <stdio.h>

#include <type_traits>

#include "dtype_rules.h"
#include "ops/common.h"
#include "pto_c.h"
#include "setting_arguments.h"
#include "validate.h"

namespace pto {
namespace ops {

// Whether a configuration's field lies in [lo, hi] (a template, so that a
// range covering the field's whole type is no comparison the compiler
// warns of).
template <typename T>
bool FieldInRange(T value, unsigned long long lo, unsigned long long hi) {
  const unsigned long long v = static_cast<unsigned long long>(value);
  return v >= lo && v <= hi;
}

// A Dtype argument's rule: `raw` (the int a C caller passed) one of
// `accepted`, else PTO_ERR_UNSUPPORTED_DTYPE quoting the list.
void RequireSettingDtype(Validator& v, const char* name, int raw, const DtypeSet& accepted) {
  const bool known = raw >= 0 && static_cast<size_t>(raw) < kDtypeCount;
  if (known && accepted.Contains(static_cast<pto_dtype>(raw))) return;
  char list[320];
  DtypeListText(accepted, list, sizeof(list));
  char value[32];
  snprintf(value, sizeof(value), "%s", DtypeNameOr(raw, ""));
  if (value[0] == '\0') snprintf(value, sizeof(value), "%d", raw);
  v.Require(false, PTO_ERR_UNSUPPORTED_DTYPE, "%s %s is none of %s", name, value, list);
}

}  // namespace ops
}  // namespace pto

extern "C" {

#define PTO_SETTING(Camel, UPPER, mnemonic, arguments, ...)         \
  pto_status pto_##mnemonic(PTO_SETTING_PARAMS(arguments)) {        \
    pto::Validator v("pto_" #mnemonic);                             \
    PTO_SETTING_CHECKS(arguments)                                   \
    if (!v.ok()) return v.status();                                 \
    return pto::ops::Apply##Camel(PTO_SETTING_ARGS(arguments));     \
  }
#include "settings.def"
#undef PTO_SETTING

}  // extern "C"
