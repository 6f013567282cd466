// The fixpipe group: tmov_fp, textract_fp, tinsert_fp (an acc tile out to a
// vec or mat tile through the fixpipe's quantisation), tmov_fp_ex (with the
// fixpipe's options) and the thread's quantisation configuration,
// pto_set_quant_scalar and pto_set_quant_vector (settings.def's rows: their
// effect here; pto_c.h, "The fixpipe's conversions"). The element conversion
// (src/fixpipe.h) is shared with programs.
#include "fixpipe.h"

#include <math.h>
#include <string.h>

#include "checked.h"
#include "convert_rules.h"
#include "dtype_rules.h"
#include "error.h"
#include "fractal.h"
#include "kernels/kernels.h"
#include "kernels/lowp-encode.h"
#include "ops/common.h"
#include "profile.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace fixpipe {

namespace {

bool IsOneByteInt(pto_dtype d) { return d == PTO_INT8 || d == PTO_UINT8; }

// A2A3's modes (pto-isa's model, cpu/common.hpp GetScalarPreQuantMode and
// GetVectorPreQuantMode, which its a2a3 path follows).
bool A2A3Pair(pto_dtype src, pto_dtype dst, bool vector) {
  if (src == PTO_FLOAT32)
    return IsOneByteInt(dst) || (!vector && (dst == PTO_FLOAT16 || dst == PTO_BFLOAT16));
  return src == PTO_INT32 && (IsOneByteInt(dst) || dst == PTO_FLOAT16 || dst == PTO_INT16);
}

// A5's modes (a5/common.hpp): the same pairs for scalar and vector words.
bool A5Pair(pto_dtype src, pto_dtype dst) {
  if (src == PTO_FLOAT32)
    return IsOneByteInt(dst) || dst == PTO_FLOAT16 || dst == PTO_BFLOAT16 ||
           dst == PTO_HIFLOAT8 || dst == PTO_FLOAT8_E4M3;
  return src == PTO_INT32 && (IsOneByteInt(dst) || dst == PTO_FLOAT16 || dst == PTO_BFLOAT16);
}

// The scale of a word: a vector word's 19-bit float of bits 13..31 (pto-isa's
// extract_m1_from_quant), a scalar word's FLOAT32 of bits 0..31.
float ScaleOf(uint64_t word, bool vector) {
  uint32_t bits = static_cast<uint32_t>(word);
  if (!vector) {
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  const uint32_t m1 = static_cast<uint32_t>((word >> 13) & 0x7FFFF);
  const uint32_t sign = m1 >> 18, exponent = (m1 >> 10) & 0xFF, fraction = m1 & 0x3FF;
  if (exponent == 0 && fraction == 0) return 0.0f;  // +0 whatever the sign
  if (exponent == 255) return sign != 0 ? -INFINITY : INFINITY;
  // exponent 0: (1 + f/1024) 2^-127, a FLOAT32 subnormal exactly; otherwise
  // the FLOAT32 of the same sign, exponent and top fraction bits.
  bits = exponent == 0 ? (1024u + fraction) << 12 : (exponent << 23) | (fraction << 13);
  bits |= sign << 31;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

float F32Of(pto_dtype dtype, const void* element) {
  if (dtype == PTO_INT32) {
    int32_t i;
    memcpy(&i, element, 4);
    return static_cast<float>(i);  // rounded to nearest even
  }
  float f;
  memcpy(&f, element, 4);
  return f;
}

void StoreEightBit(float x, uint64_t word, void* out) {
  const float offset = static_cast<float>((word >> 37) & 0x1FF);
  const bool is_signed = ((word >> 46) & 1) != 0;
  float r = nearbyintf(x + offset);  // the sum rounded once, then ties to even
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  int32_t v = 0;  // NaN gives 0
  if (r == r) v = static_cast<int32_t>(r < lo ? lo : r > hi ? hi : r);
  const uint8_t byte = static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFF);
  memcpy(out, &byte, 1);
}

}  // namespace

bool PairSupported(pto_profile profile, pto_dtype src, pto_dtype dst, bool vector) {
  switch (profile) {
    case PTO_PROFILE_A2A3: return A2A3Pair(src, dst, vector);
    case PTO_PROFILE_A5: return A5Pair(src, dst);
    default: return A2A3Pair(src, dst, false) || A5Pair(src, dst);
  }
}

bool ScalingDtypeAccepted(pto_profile profile, pto_dtype dtype) {
  if (dtype == PTO_UINT64 || dtype == PTO_INT64) return true;
  return profile != PTO_PROFILE_A2A3 &&
         (dtype == PTO_FLOAT16 || dtype == PTO_BFLOAT16 || dtype == PTO_FLOAT32);
}

uint64_t WordOf(pto_dtype dtype, const void* element, pto_dtype dst_dtype) {
  if (dtype == PTO_UINT64 || dtype == PTO_INT64) {
    uint64_t w;
    memcpy(&w, element, 8);
    return w;
  }
  float f;
  kernels::ToF32(dtype, 1, &f, element);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  return uint64_t{bits} | (dst_dtype == PTO_INT8 ? uint64_t{1} << 46 : 0);
}

uint64_t ScalarWord(float scale, pto_dtype dtype) {
  int32_t bits;
  memcpy(&bits, &scale, 4);
  // A5 widens the bits as a signed integer: a negative scale sets bits 32..63.
  uint64_t word = static_cast<uint64_t>(static_cast<int64_t>(bits));
  if (IsOneByteInt(dtype))
    word = (word & ~(uint64_t{1} << 46)) | (dtype == PTO_INT8 ? uint64_t{1} << 46 : 0);
  return word;
}

void ConvertElement(pto_dtype src, const void* src_element, pto_dtype dst, void* dst_element,
                    uint64_t word, bool vector, bool relu) {
  if (dst == PTO_INT16) {  // the shift form: no scale
    int32_t i;
    memcpy(&i, src_element, 4);
    int32_t shifted = i >> (((word >> 32) & 0xF) + 1);
    if (relu && shifted < 0) shifted = 0;
    const int16_t out = static_cast<int16_t>(static_cast<uint32_t>(shifted) & 0xFFFF);
    memcpy(dst_element, &out, 2);
    return;
  }
  float x = F32Of(src, src_element) * ScaleOf(word, vector);
  if (IsOneByteInt(dst)) {
    if (relu && x < 0) x = 0;
    return StoreEightBit(x, word, dst_element);
  }
  if (dst == PTO_FLOAT16 && (isfinite(x) || src == PTO_INT32))
    x = x < -65504.0f ? -65504.0f : x > 65504.0f ? 65504.0f : x;
  if (relu && x < 0) x = 0;  // relu after the clamp, as pto-isa's model
  if (dst == PTO_FLOAT32) return (void)memcpy(dst_element, &x, 4);  // TSTORE's F322F32
  if (dst == PTO_FLOAT16 || dst == PTO_BFLOAT16) return kernels::FromF32(dst, 1, dst_element, &x);
  uint32_t bits;
  memcpy(&bits, &x, 4);
  const kernels::tcvt::Value v = kernels::tcvt::Decode(PTO_FLOAT32, bits);
  const pto_round_mode mode = A5FixedRounding(PTO_FLOAT32, dst);
  const uint32_t code = dst == PTO_HIFLOAT8 ? kernels::tcvt::EncodeHiF8(v, mode, true)
                                            : kernels::tcvt::EncodeMini(dst, v, mode, true);
  const uint8_t byte = static_cast<uint8_t>(code);
  memcpy(dst_element, &byte, 1);
}

void CastElement(const void* f32_element, pto_dtype dst, void* dst_element) {
  float x;
  memcpy(&x, f32_element, 4);
  kernels::FromF32(dst, 1, dst_element, &x);
}

void CastElementRelu(pto_dtype src, const void* src_element, pto_dtype dst, void* dst_element,
                     bool relu) {
  if (src == PTO_INT32) {
    int32_t i;
    memcpy(&i, src_element, 4);
    if (relu && i < 0) i = 0;
    memcpy(dst_element, &i, 4);
    return;
  }
  float x;
  memcpy(&x, src_element, 4);
  if (relu && x < 0) x = 0;  // NaN and -0 are not below 0: kept
  if (dst == PTO_FLOAT32) return (void)memcpy(dst_element, &x, 4);
  CastElement(&x, dst, dst_element);
}

ThreadConfig& CurrentThreadConfig() {
  static thread_local ThreadConfig config;
  return config;
}

}  // namespace fixpipe

namespace ops {

namespace {

// The window: the rows x cols that move, from (src_row, src_col) of src to
// (dst_row, dst_col) of dst.
struct Window {
  size_t src_row, src_col, dst_row, dst_col, rows, cols;
};

Window WindowOf(OpId id, const Operands& o) {
  const size_t r = o.index[0], c = o.index[1];
  if (id == OpId::kTInsertFp) return {0, 0, r, c, o.src0->valid_rows, o.src0->valid_cols};
  if (id == OpId::kTExtractFp) return {r, c, 0, 0, o.dst->valid_rows, o.dst->valid_cols};
  return {0, 0, 0, 0, o.dst->valid_rows, o.dst->valid_cols};
}

// Whether two tiles' storage (their whole images) shares no byte: the
// fixpipe reads src and fp while it writes dst.
bool Apart(const pto_tile* a, const pto_tile* b) {
  const char* pa = static_cast<const char*>(a->data);
  const char* pb = static_cast<const char*>(b->data);
  const size_t na = size_t{a->image_rows} * a->image_cols * pto_dtype_size(a->dtype);
  const size_t nb = size_t{b->image_rows} * b->image_cols * pto_dtype_size(b->dtype);
  return a != b && (pa + na <= pb || pb + nb <= pa);
}

// Whether dst's valid region lies within src's rows x cols (TMOV_FP's rule).
pto_status CheckInside(Validator& v, const Operands& o, const Window& w) {
  v.Require(w.rows <= o.src0->rows && w.cols <= o.src0->cols, PTO_ERR_SHAPE_MISMATCH,
            "dst's valid region %zux%zu is larger than src's %ux%u", w.rows, w.cols,
            o.src0->rows, o.src0->cols);
  return v.status();
}

// pto_tmov_fp_ex's cast modes (PTO_FIXPIPE_CAST): no word, so fp NULL; the
// pairs FLOAT32 -> FLOAT32, FLOAT16, BFLOAT16 and INT32 -> INT32; then the
// storage and window rules of the quantising form.
pto_status CheckCast(Validator& v, const Operands& o, const Window& w) {
  const pto_dtype s = o.src0->dtype, d = o.dst->dtype;
  v.Require(o.src1 == nullptr, PTO_ERR_INVALID_ARGUMENT,
            "fp is a scaling tile; PTO_FIXPIPE_CAST converts without a quantisation word, fp "
            "NULL")
      .Require(s == PTO_FLOAT32 ? (d == PTO_FLOAT32 || d == PTO_FLOAT16 || d == PTO_BFLOAT16)
                                : d == PTO_INT32,
               PTO_ERR_UNSUPPORTED_DTYPE,
               "the fixpipe casts no %s acc tile to %s (FLOAT32 to FLOAT32, FLOAT16 or "
               "BFLOAT16; INT32 to INT32)",
               DtypeName(s), DtypeName(d))
      .Require(Apart(o.src0, o.dst), PTO_ERR_ALIASING, "dst and src must not share storage");
  if (!v.ok()) return v.status();
  return CheckInside(v, o, w);
}

// Every rule of the three functions, in pto_c.h's order.
pto_status CheckFixpipe(OpId id, OpDtypes dtypes, const char* name, const Operands& o,
                        pto_profile profile) {
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* fp = o.src1;
  const bool cast = (o.attr & PTO_FIXPIPE_CAST) != 0;
  // TSTORE's scaled FLOAT32 -> FLOAT32 (a5/TStore.hpp QF322F32_PRE, VQF322F32_PRE)
  const bool f32 = (o.attr & PTO_FIXPIPE_STORE) != 0 && profile != PTO_PROFILE_A2A3 &&
                   dst != nullptr && src != nullptr && dst->dtype == PTO_FLOAT32 &&
                   src->dtype == PTO_FLOAT32;
  Validator v(name);
  v.NotNull("dst", dst).NotNull("src", src);
  if (!v.ok()) return v.status();
  if (!cast && !f32) v.DtypeAccepted(dtypes, profile, "dst", dst);
  const pto_location to = static_cast<pto_location>(dst->location);
  v.Require(src->location == PTO_LOC_ACC, PTO_ERR_INVALID_ARGUMENT,
            "src is %s %s tile; the fixpipe moves an acc tile",
            LocationArticle(static_cast<pto_location>(src->location)),
            LocationName(static_cast<pto_location>(src->location)))
      .Require(to == PTO_LOC_VEC || to == PTO_LOC_MAT, PTO_ERR_INVALID_ARGUMENT,
               "dst is %s %s tile; the fixpipe writes a vec or mat tile", LocationArticle(to),
               LocationName(to))
      .Require(!(profile == PTO_PROFILE_A2A3 && to == PTO_LOC_VEC), PTO_ERR_INVALID_ARGUMENT,
               "A2A3 moves an acc tile to mat only (acc to vec is A5's)");
  const fixpipe::ThreadConfig& config = fixpipe::CurrentThreadConfig();
  const bool vector = fp != nullptr || config.kind == fixpipe::ThreadConfig::kVector;
  v.Require(src->dtype == PTO_FLOAT32 || src->dtype == PTO_INT32, PTO_ERR_UNSUPPORTED_DTYPE,
            "src is %s; an acc tile is FLOAT32 or INT32", DtypeName(src->dtype));
  if (!v.ok()) return v.status();
  if (cast) return CheckCast(v, o, WindowOf(id, o));
  v.Require(f32 || fixpipe::PairSupported(profile, src->dtype, dst->dtype, vector),
            PTO_ERR_UNSUPPORTED_DTYPE, "%s converts no %s acc tile to %s with a %s word",
            pto_profile_string(profile), DtypeName(src->dtype), DtypeName(dst->dtype),
            vector ? "vector" : "scalar");
  const Window w = WindowOf(id, o);
  if (fp != nullptr) {
    v.Require(fp->location == PTO_LOC_SCALING && fp->rows == 1, PTO_ERR_INVALID_ARGUMENT,
              "fp is %s %s tile of %u rows; the quantisation parameters are a scaling tile of "
              "one row",
              LocationArticle(static_cast<pto_location>(fp->location)),
              LocationName(static_cast<pto_location>(fp->location)), fp->rows);
    if (!v.ok()) return v.status();
    v.Require(fixpipe::ScalingDtypeAccepted(profile, fp->dtype), PTO_ERR_UNSUPPORTED_DTYPE,
              "fp is %s; under %s a scaling tile holds %s", DtypeName(fp->dtype),
              pto_profile_string(profile),
              profile == PTO_PROFILE_A2A3 ? "UINT64 or INT64 words"
                                          : "UINT64 or INT64 words, or FLOAT16, BFLOAT16, "
                                            "FLOAT32 scales")
        .Require(fp->valid_cols >= w.cols, PTO_ERR_SHAPE_MISMATCH,
                 "fp has %u valid cols, fewer than the %zu columns it quantises", fp->valid_cols,
                 w.cols);
  } else {
    v.Require(config.kind != fixpipe::ThreadConfig::kNone, PTO_ERR_INVALID_ARGUMENT,
              "fp is NULL and this thread has no quantisation configuration "
              "(pto_set_quant_scalar, pto_set_quant_vector)")
        .Require(config.kind != fixpipe::ThreadConfig::kVector || config.count >= w.cols,
                 PTO_ERR_SHAPE_MISMATCH,
                 "the thread's quantisation vector has %zu values, fewer than the %zu columns "
                 "it quantises",
                 config.count, w.cols);
  }
  v.Require(Apart(src, dst) && (fp == nullptr || (Apart(fp, dst) && Apart(fp, src))),
            PTO_ERR_ALIASING, "dst, src and fp must not share storage");
  if (!v.ok()) return v.status();
  // The window's start is the caller's index: compared without a sum that
  // could wrap (checked.h).
  const bool inside = id == OpId::kTInsertFp
                          ? SpanInside(w.dst_row, w.rows, dst->rows) &&
                                SpanInside(w.dst_col, w.cols, dst->cols)
                          : SpanInside(w.src_row, w.rows, src->rows) &&
                                SpanInside(w.src_col, w.cols, src->cols);
  if (id == OpId::kTMovFp)
    v.Require(inside, PTO_ERR_SHAPE_MISMATCH, "dst's valid region %zux%zu is larger than src's %ux%u",
              w.rows, w.cols, src->rows, src->cols);
  else
    v.Require(inside, PTO_ERR_OUT_OF_RANGE,
              "the %zux%zu window at [%zu, %zu] is outside %s's %ux%u", w.rows, w.cols,
              o.index[0], o.index[1], id == OpId::kTInsertFp ? "dst" : "src",
              id == OpId::kTInsertFp ? dst->rows : src->rows,
              id == OpId::kTInsertFp ? dst->cols : src->cols);
  return v.status();
}

void RunFixpipe(OpId id, const Operands& o) {
  const Window w = WindowOf(id, o);
  pto_tile* dst = o.dst;
  const pto_tile* src = o.src0;
  const pto_tile* fp = o.src1;
  const bool relu = (o.attr & PTO_FIXPIPE_RELU) != 0, cast = (o.attr & PTO_FIXPIPE_CAST) != 0;
  fixpipe::ThreadConfig config_none;
  const fixpipe::ThreadConfig& config = cast ? config_none : fixpipe::CurrentThreadConfig();
  // The words of a pass of the window's columns, on the stack (no
  // allocation); dst shares no storage with src or fp (the check).
  constexpr size_t kPass = 256;
  uint64_t words[kPass];
  const bool vector = fp != nullptr || config.kind == fixpipe::ThreadConfig::kVector;
  const pto_dtype pdtype = fp != nullptr ? fp->dtype : config.vector_dtype;
  const char* payload = fp != nullptr ? static_cast<const char*>(fp->data)
                                      : reinterpret_cast<const char*>(config.payload.data());
  const Layout fl = fp != nullptr ? TileLayout(fp) : RowMajorLayout(1, config.count);
  const size_t psize = pto_dtype_size(pdtype);
  const Layout sl = TileLayout(src), dl = TileLayout(dst);
  const size_t ssize = pto_dtype_size(src->dtype), dsize = pto_dtype_size(dst->dtype);
  for (size_t j0 = 0; j0 < w.cols; j0 += kPass) {
    const size_t n = w.cols - j0 < kPass ? w.cols - j0 : kPass;
    for (size_t j = 0; j < n && !cast; ++j)
      words[j] = vector ? fixpipe::WordOf(pdtype,
                                          payload + ElementOffset(fl, fp ? fp->origin_row : 0,
                                                                  (fp ? fp->origin_col : 0) + j0 + j) *
                                                        psize,
                                          dst->dtype)
                        : config.scalar;
    for (size_t i = 0; i < w.rows; ++i)
      for (size_t j = 0; j < n; ++j) {
        const char* s = static_cast<const char*>(src->data) +
                        ElementOffset(sl, src->origin_row + w.src_row + i,
                                      src->origin_col + w.src_col + j0 + j) *
                            ssize;
        char* d = static_cast<char*>(dst->data) +
                  ElementOffset(dl, dst->origin_row + w.dst_row + i,
                                dst->origin_col + w.dst_col + j0 + j) *
                      dsize;
        if (cast)
          fixpipe::CastElementRelu(src->dtype, s, dst->dtype, d, relu);
        else
          fixpipe::ConvertElement(src->dtype, s, dst->dtype, d, words[j], vector, relu);
      }
  }
}

}  // namespace

pto_status CheckTMovFp(const Operands& o, pto_profile profile) {
  return CheckFixpipe(OpId::kTMovFp, OpDtypes::kTMovFp, "pto_tmov_fp", o, profile);
}
void RunTMovFp(const Operands& o, pto_profile) { RunFixpipe(OpId::kTMovFp, o); }

pto_status CheckTExtractFp(const Operands& o, pto_profile profile) {
  return CheckFixpipe(OpId::kTExtractFp, OpDtypes::kTExtractFp, "pto_textract_fp", o, profile);
}
void RunTExtractFp(const Operands& o, pto_profile) { RunFixpipe(OpId::kTExtractFp, o); }

pto_status CheckTInsertFp(const Operands& o, pto_profile profile) {
  return CheckFixpipe(OpId::kTInsertFp, OpDtypes::kTInsertFp, "pto_tinsert_fp", o, profile);
}
void RunTInsertFp(const Operands& o, pto_profile) { RunFixpipe(OpId::kTInsertFp, o); }

// tmov_fp_ex: its flags (Operands::attr) first, then tmov_fp's rules with
// them (the CAST pairs, fp NULL, the STORE pairs: CheckFixpipe), under its
// own name.
pto_status CheckTMovFpEx(const Operands& o, pto_profile profile) {
  const unsigned flags = static_cast<unsigned>(o.attr);
  if ((flags & ~(PTO_FIXPIPE_RELU | PTO_FIXPIPE_CAST | PTO_FIXPIPE_STORE)) != 0)
    return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_tmov_fp_ex",
                "flags 0x%x has bits other than PTO_FIXPIPE_RELU, PTO_FIXPIPE_CAST and "
                "PTO_FIXPIPE_STORE",
                flags);
  return CheckFixpipe(OpId::kTMovFp, OpDtypes::kTMovFp, "pto_tmov_fp_ex", o, profile);
}
void RunTMovFpEx(const Operands& o, pto_profile) { RunFixpipe(OpId::kTMovFp, o); }

// SET_QUANT_SCALAR and SET_QUANT_VECTOR (settings.def): their arguments
// checked (settings.cc: the dtype's list, fp not NULL), the thread's
// configuration becomes the scalar word, or a copy of fp's row 0 once fp's
// own rules hold.
pto_status ApplySetQuantScalar(float scale, pto_dtype dtype) {
  fixpipe::ThreadConfig& c = fixpipe::CurrentThreadConfig();
  c.kind = fixpipe::ThreadConfig::kScalar;
  c.scalar = fixpipe::ScalarWord(scale, dtype);
  return PTO_OK;
}

pto_status ApplySetQuantVector(const pto_tile* fp) {
  if (fp->location != PTO_LOC_SCALING || fp->rows != 1)
    return Fail(PTO_ERR_INVALID_ARGUMENT, "pto_set_quant_vector",
                "fp is %s %s tile of %u rows; the quantisation parameters are a scaling "
                "tile of one row",
                LocationArticle(static_cast<pto_location>(fp->location)),
                LocationName(static_cast<pto_location>(fp->location)), fp->rows);
  if (!fixpipe::ScalingDtypeAccepted(PTO_PROFILE_HOST, fp->dtype))
    return Fail(PTO_ERR_UNSUPPORTED_DTYPE, "pto_set_quant_vector",
                "fp is %s; a scaling tile holds UINT64, INT64, FLOAT16, BFLOAT16 or FLOAT32",
                pto_dtype_string(fp->dtype));
  const size_t size = pto_dtype_size(fp->dtype), n = fp->valid_cols;
  std::vector<unsigned char> payload;
  try {
    payload.resize(n * size);
  } catch (...) {
    return Fail(PTO_ERR_OUT_OF_MEMORY, "pto_set_quant_vector",
                "cannot allocate %zu bytes to copy fp's row", n * size);
  }
  const Layout l = TileLayout(fp);
  for (size_t j = 0; j < n; ++j)
    memcpy(payload.data() + j * size,
           static_cast<const char*>(fp->data) +
               ElementOffset(l, fp->origin_row, fp->origin_col + j) * size,
           size);
  fixpipe::ThreadConfig& c = fixpipe::CurrentThreadConfig();
  c.kind = fixpipe::ThreadConfig::kVector;
  c.vector_dtype = fp->dtype;
  c.count = n;
  c.payload.swap(payload);
  return PTO_OK;
}

}  // namespace ops
}  // namespace pto

