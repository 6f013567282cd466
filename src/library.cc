// Library-wide queries: version, status and dtype names, last error, SIMD target.
#include "dtype_rules.h"
#include "error.h"
#include "kernels/kernels.h"
#include "pto_c.h"
#include "validate.h"

extern "C" {

const char* pto_version_string(void) { return PTO_VERSION_STRING; }

const char* pto_status_string(pto_status s) {
  switch (pto::RawEnumValue(s)) {
    case PTO_OK: return "PTO_OK";
    case PTO_ERR_NULL_ARGUMENT: return "PTO_ERR_NULL_ARGUMENT";
    case PTO_ERR_INVALID_ARGUMENT: return "PTO_ERR_INVALID_ARGUMENT";
    case PTO_ERR_UNSUPPORTED_DTYPE: return "PTO_ERR_UNSUPPORTED_DTYPE";
    case PTO_ERR_DTYPE_MISMATCH: return "PTO_ERR_DTYPE_MISMATCH";
    case PTO_ERR_SHAPE_MISMATCH: return "PTO_ERR_SHAPE_MISMATCH";
    case PTO_ERR_OUT_OF_RANGE: return "PTO_ERR_OUT_OF_RANGE";
    case PTO_ERR_ALIASING: return "PTO_ERR_ALIASING";
    case PTO_ERR_OUT_OF_MEMORY: return "PTO_ERR_OUT_OF_MEMORY";
  }
  return "PTO_STATUS_UNKNOWN";
}

const char* pto_last_error(void) { return pto::LastError(); }

const char* pto_simd_target(void) { return pto::kernels::TargetName(); }

const char* pto_dtype_string(pto_dtype d) {
  return pto::DtypeNameOr(pto::RawEnumValue(d), "UNKNOWN");
}

size_t pto_dtype_size(pto_dtype dtype) {
  switch (pto::RawEnumValue(dtype)) {
    case PTO_INT8:
    case PTO_UINT8:
    case PTO_FLOAT8_E4M3:
    case PTO_FLOAT8_E5M2:
    case PTO_HIFLOAT8:
    case PTO_FLOAT8_E8M0:
    case PTO_FLOAT4_E2M1X2:
    case PTO_FLOAT4_E1M2X2:
    case PTO_INT4X2:
      return 1;
    case PTO_INT16:
    case PTO_UINT16:
    case PTO_FLOAT16:
    case PTO_BFLOAT16:
      return 2;
    case PTO_INT32:
    case PTO_UINT32:
    case PTO_FLOAT32:
      return 4;
    case PTO_INT64:
    case PTO_UINT64:
      return 8;
  }
  return 0;
}

}  // extern "C"
