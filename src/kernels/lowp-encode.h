// The low-precision encoders of tcvt's converter (lowp-encode.cc): a value
// rounded once by the mode to FP8 E4M3FN / E5M2, FP4 E2M1 / E1M2 or
// HiFloat8. Their decoding is src/low_precision.h's; INT4 is an integer of
// tcvt.cc's EncodeInt; the packing of two 4-bit values a byte is tcvt.cc's.
#ifndef PTO_KERNELS_LOWP_ENCODE_H_
#define PTO_KERNELS_LOWP_ENCODE_H_

#include <stdint.h>

#include "src/kernels/tcvt-value.h"

namespace pto {
namespace kernels {
namespace tcvt {

// FP8 E4M3FN and E5M2, FP4 E2M1 and E1M2: the code of v (zero-extended).
uint32_t EncodeMini(pto_dtype t, const Value& v, pto_round_mode mode, bool saturate);
// HiFloat8: the code of v.
uint32_t EncodeHiF8(const Value& v, pto_round_mode mode, bool saturate);

}  // namespace tcvt
}  // namespace kernels
}  // namespace pto
#endif  // PTO_KERNELS_LOWP_ENCODE_H_
