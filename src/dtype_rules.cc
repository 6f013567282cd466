#include "dtype_rules.h"

#include <stdio.h>

namespace pto {

const char* DtypeNameOr(int dtype_value, const char* outside) {
  static const char* const kNames[] = {"INT8",   "UINT8",   "INT16",    "UINT16", "INT32",
                                       "UINT32", "FLOAT16", "BFLOAT16", "FLOAT32",
                                       "INT64",  "UINT64",  "FLOAT8_E4M3", "FLOAT8_E5M2",
                                       "HIFLOAT8", "FLOAT8_E8M0", "FLOAT4_E2M1X2",
                                       "FLOAT4_E1M2X2", "INT4X2"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == kDtypeCount, "a name per dtype");
  const unsigned i = static_cast<unsigned>(dtype_value);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : outside;
}

const char* DtypeName(pto_dtype d) { return DtypeNameOr(static_cast<int>(d), "an invalid dtype"); }

void DtypeListText(const DtypeSet& set, char* out, size_t size) {
  if (size == 0) return;
  out[0] = '\0';
  size_t used = 0;
  for (uint32_t i = 0; i < set.count && used < size; ++i) {
    const int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "", DtypeName(set.members[i]));
    if (n < 0) break;
    used += static_cast<size_t>(n);
  }
}

}  // namespace pto
