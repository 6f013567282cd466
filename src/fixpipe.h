// The fixpipe's conversions (pto_c.h, "The fixpipe's conversions"): an acc
// tile's element (FLOAT32 or INT32) scaled by a 64-bit quantisation word
// and converted to the destination's dtype, as A5 selects the mode
// (a5/common.hpp, a5/TStore.hpp) and pto-isa's model computes it
// (cpu/common.hpp quantize_element). The C functions (ops/fixpipe.cc) and a
// program's moves, stores and pipes (program/run) share it.
#ifndef PTO_FIXPIPE_H_
#define PTO_FIXPIPE_H_

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "pto_c.h"

namespace pto {
namespace fixpipe {

// Whether the fixpipe converts src to dst under profile with a vector word
// (a scaling tile) or a scalar one (pto_set_quant_scalar).
bool PairSupported(pto_profile profile, pto_dtype src, pto_dtype dst, bool vector);

// The dtypes a scaling tile may have under profile: UINT64 and INT64 words,
// and under HOST and A5 FLOAT16, BFLOAT16, FLOAT32 values.
bool ScalingDtypeAccepted(pto_profile profile, pto_dtype dtype);

// The word of a scaling tile's element (its bytes at `element`, of dtype)
// for a dst of dst_dtype: a UINT64 / INT64 element itself; a float's
// FLOAT32 bits, bit 46 set for an INT8 dst.
uint64_t WordOf(pto_dtype dtype, const void* element, pto_dtype dst_dtype);

// The scalar word pto_set_quant_scalar builds (A5's SetQuantScalar.hpp).
uint64_t ScalarWord(float scale, pto_dtype dtype);

// The per-column words of a quantisation: `words[j]` for column j, or one
// word for every column (`scalar`).
struct Words {
  const uint64_t* words;
  size_t count;
  bool vector;
  uint64_t At(size_t j) const { return vector ? words[j] : words[0]; }
};

// dst_element = convert(src_element, word), relu applied before the
// conversion as pto-isa's model applies it (after clamping).
void ConvertElement(pto_dtype src, const void* src_element, pto_dtype dst, void* dst_element,
                    uint64_t word, bool vector, bool relu);

// A FLOAT32 element cast to FLOAT16 or BFLOAT16, to nearest even (the
// fixpipe's F322F16 / F322BF16 without a quantisation).
void CastElement(const void* f32_element, pto_dtype dst, void* dst_element);

// An acc element without a quantisation (no_convert, f32_f16, f32_bf16):
// with relu a negative value becomes +0 first (A5's pre-quant relu stage,
// which runs with its cast modes too: a5/TExtract.hpp's reluMode); then a
// FLOAT32 src is cast as CastElement to FLOAT16 or BFLOAT16, or copied when
// dst is src's dtype (FLOAT32 or INT32).
void CastElementRelu(pto_dtype src, const void* src_element, pto_dtype dst, void* dst_element,
                     bool relu);

// The calling thread's configuration (pto_set_quant_scalar /
// pto_set_quant_vector): none, a scalar word, or a copied vector payload.
struct ThreadConfig {
  enum Kind { kNone, kScalar, kVector } kind = kNone;
  uint64_t scalar = 0;
  pto_dtype vector_dtype = PTO_UINT64;
  std::vector<unsigned char> payload;  // the vector's elements, its dtype's bytes each
  size_t count = 0;                    // the vector's elements
};
ThreadConfig& CurrentThreadConfig();

}  // namespace fixpipe
}  // namespace pto

#endif  // PTO_FIXPIPE_H_
