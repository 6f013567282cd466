#include "dtype_rules.h"

namespace pto {

static_assert(sizeof(kOpDtypeRules) / sizeof(kOpDtypeRules[0]) ==
                  static_cast<size_t>(OpDtypes::kFloatCopy) + 1,
              "one dtype rule per OpDtypes value");

const char* DtypeName(pto_dtype d) {
  static const char* const kNames[] = {"INT8",   "UINT8",   "INT16",    "UINT16", "INT32",
                                       "UINT32", "FLOAT16", "BFLOAT16", "FLOAT32"};
  const unsigned i = static_cast<unsigned>(d);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "an invalid dtype";
}

}  // namespace pto
