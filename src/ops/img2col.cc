// TIMG2COL and its registers (SETFMATRIX, SET_IMG2COL_PADDING,
// SET_IMG2COL_RPT): convolution's im2col window of a feature map in
// NC1HWC0 order (pto_c.h, "Matrix multiply"). TIMG2COL is the row
// timg2col (its Config operand a pto_img2col_config, its window position the
// attribute kind Img2colWindow); the three SET* are settings.def's rows,
// their effect Apply<Camel> here.
#include <stdint.h>
#include <string.h>

#include "dtype_rules.h"
#include "fractal.h"
#include "ops/common.h"
#include "overlap.h"
#include "profile.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

namespace pto {
namespace {

// The NPU's img2col registers, one set per thread as the profile is: the
// feature map (SETFMATRIX), the pad element (SET_IMG2COL_PADDING) and the
// repeat (SET_IMG2COL_RPT). A thread starts with no feature map and the
// ConvTile's defaults otherwise (pto-isa include/pto/common/pto_tile.hpp).
struct Img2colRegisters {
  uint16_t fmap_h = 0, fmap_w = 0;  // 0: no pto_setfmatrix yet
  uint8_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
  uint32_t pad_bits = 0;
  uint16_t repeat_stride = 0;
  uint8_t repeat_time = 1, repeat_mode = 0;
};
thread_local Img2colRegisters registers;

// Filter sizes are 9-bit fields of the instruction (a low byte and a high
// bit, a2a3/ and a5/ TImg2col.hpp).
constexpr uint32_t kMaxFilter = 511;

// The window's geometry: the feature map's N x C1 x H x W pixels of C0
// channels and the filter's taps over it.
struct Geometry {
  uint64_t n, c1, h, w, c0;
  uint64_t oh, ow;  // output pixels per column and row of an image
  uint64_t fh, fw, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
};

// OH or OW: output positions of a dilated filter over a padded extent; 0
// when the filter does not fit.
uint64_t OutputExtent(uint64_t extent, uint64_t pads, uint64_t filter, uint64_t dilation,
                      uint64_t stride) {
  const uint64_t span = dilation * (filter - 1) + 1;
  return extent + pads < span ? 0 : (extent + pads - span) / stride + 1;
}

// The C0 of src under the profile: 32 bytes of elements on the NPUs, src's
// valid cols under HOST.
uint64_t ChannelBlock(const pto_tile* src, pto_profile profile) {
  return profile == PTO_PROFILE_HOST ? src->valid_cols : 32 / pto_dtype_size(src->dtype);
}

void CheckPlacement(Validator& v, const pto_tile* dst, const pto_tile* src, pto_profile profile) {
  if (profile == PTO_PROFILE_HOST) return;
  const pto_layout left = profile == PTO_PROFILE_A2A3 ? PTO_LAYOUT_ZZ : PTO_LAYOUT_NZ;
  v.Require(src->location == PTO_LOC_MAT && src->layout == PTO_LAYOUT_NZ,
            PTO_ERR_INVALID_ARGUMENT,
            "under %s src must be a mat NZ tile (pto_tile_create_cube), not %s %s %s tile",
            pto_profile_string(profile),
            LocationArticle(static_cast<pto_location>(src->location)),
            LocationName(static_cast<pto_location>(src->location)),
            LayoutName(static_cast<pto_layout>(src->layout)));
  v.Require(dst->location == PTO_LOC_LEFT && dst->layout == left, PTO_ERR_INVALID_ARGUMENT,
            "under %s dst must be a left %s tile (pto_tile_create_cube), not %s %s %s tile",
            pto_profile_string(profile), LayoutName(left),
            LocationArticle(static_cast<pto_location>(dst->location)),
            LocationName(static_cast<pto_location>(dst->location)),
            LayoutName(static_cast<pto_layout>(dst->layout)));
}

// config's own fields, then the thread's feature map and the filter over it.
void CheckConfig(Validator& v, const pto_img2col_config& c, const Img2colRegisters& r) {
  v.Require(c.stride_h >= 1 && c.stride_w >= 1, PTO_ERR_INVALID_ARGUMENT,
            "config's strides %ux%u must be at least 1", c.stride_h, c.stride_w)
      .Require(c.dilation_h >= 1 && c.dilation_w >= 1, PTO_ERR_INVALID_ARGUMENT,
               "config's dilations %ux%u must be at least 1", c.dilation_h, c.dilation_w)
      .Require(c.filter_h >= 1 && c.filter_h <= kMaxFilter && c.filter_w >= 1 &&
                   c.filter_w <= kMaxFilter,
               PTO_ERR_INVALID_ARGUMENT, "config's filter %ux%u must be 1 to %u each way",
               c.filter_h, c.filter_w, kMaxFilter)
      .Require(c.channel_size >= 1, PTO_ERR_INVALID_ARGUMENT, "config's channel_size is 0")
      .Require(r.fmap_h != 0, PTO_ERR_INVALID_ARGUMENT,
               "no feature map on this thread: call pto_setfmatrix first");
  if (!v.ok()) return;
  v.Require(OutputExtent(r.fmap_h, r.pad_top + r.pad_bottom, c.filter_h, c.dilation_h, 1) != 0 &&
                OutputExtent(r.fmap_w, r.pad_left + r.pad_right, c.filter_w, c.dilation_w, 1) != 0,
            PTO_ERR_INVALID_ARGUMENT,
            "the filter %ux%u dilated %ux%u is larger than the padded feature map %ux%u",
            c.filter_h, c.filter_w, c.dilation_h, c.dilation_w,
            r.fmap_h + r.pad_top + r.pad_bottom, r.fmap_w + r.pad_left + r.pad_right);
}

// src's NC1HWC0 shape against config and the registers, and the repeat's
// blocks against dst.
void CheckShapes(Validator& v, const pto_tile* dst, const pto_tile* src,
                 const pto_img2col_config& c, const Img2colRegisters& r, pto_profile profile) {
  const uint64_t c0 = ChannelBlock(src, profile);
  v.Require(src->valid_cols == c0 && c0 != 0, PTO_ERR_SHAPE_MISMATCH,
            "src's valid cols %u are not C0 (%llu: 32 bytes of elements under %s)",
            src->valid_cols, static_cast<unsigned long long>(c0), pto_profile_string(profile));
  if (!v.ok()) return;
  v.Require(c.channel_size % c0 == 0, PTO_ERR_SHAPE_MISMATCH,
            "config's channel_size %u is not a multiple of C0 (src's valid cols %u)",
            c.channel_size, src->valid_cols);
  if (!v.ok()) return;
  const uint64_t image_rows = c.channel_size / c0 * r.fmap_h * r.fmap_w;
  v.Require(src->valid_rows != 0 && src->valid_rows % image_rows == 0, PTO_ERR_SHAPE_MISMATCH,
            "src's valid rows %u are not a whole number of images of C1*H*W = %llu rows "
            "(channel_size / C0 = %llu, feature map %ux%u)",
            src->valid_rows, static_cast<unsigned long long>(image_rows),
            static_cast<unsigned long long>(c.channel_size / c0), r.fmap_h, r.fmap_w);
  const uint32_t blocked = r.repeat_mode == 0 ? dst->valid_rows : dst->valid_cols;
  v.Require(blocked % r.repeat_time == 0, PTO_ERR_SHAPE_MISMATCH,
            "dst's valid %s %u do not split into repeat_time %u equal blocks",
            r.repeat_mode == 0 ? "rows" : "cols", blocked, r.repeat_time);
}

pto_status CheckTimg2col(const pto_tile* dst, const pto_tile* src,
                         const pto_img2col_config* config, pto_profile profile) {
  Validator v("pto_timg2col");
  v.NotNull("dst", dst).NotNull("src", src).NotNull("config", config);
  if (!v.ok()) return v.status();
  CheckPlacement(v, dst, src, profile);
  v.DtypeAccepted(OpDtypes::kTImg2col, profile, "dst", dst).SameDtype("src", src, "dst", dst);
  if (!v.ok()) return v.status();
  CheckConfig(v, *config, registers);
  v.Distinct("src", src, "dst", dst);
  v.Require(!ValidRegionsOverlap(dst, src), PTO_ERR_ALIASING,
            "src shares storage with dst");
  if (!v.ok()) return v.status();
  CheckShapes(v, dst, src, *config, registers, profile);
  return v.status();
}

Geometry GeometryOf(const pto_tile* src, const pto_img2col_config& c, const Img2colRegisters& r,
                    pto_profile profile) {
  Geometry g;
  g.c0 = ChannelBlock(src, profile);
  g.c1 = c.channel_size / g.c0;
  g.h = r.fmap_h, g.w = r.fmap_w;
  g.n = src->valid_rows / (g.c1 * g.h * g.w);
  g.fh = c.filter_h, g.fw = c.filter_w;
  g.stride_h = c.stride_h, g.stride_w = c.stride_w;
  g.dilation_h = c.dilation_h, g.dilation_w = c.dilation_w;
  g.pad_top = r.pad_top, g.pad_left = r.pad_left;
  g.oh = OutputExtent(g.h, r.pad_top + r.pad_bottom, g.fh, g.dilation_h, g.stride_h);
  g.ow = OutputExtent(g.w, r.pad_left + r.pad_right, g.fw, g.dilation_w, g.stride_w);
  return g;
}

// The src row of element (m, k) of the im2col matrix, or -1 where it is the
// pad element (a padding pixel, or m or k past the matrix). Its column is
// k % C0.
int64_t SourceRow(const Geometry& g, uint64_t m, uint64_t k) {
  const uint64_t n = m / (g.oh * g.ow), oh = m / g.ow % g.oh, ow = m % g.ow;
  const uint64_t taps = g.fh * g.fw;
  const uint64_t c1 = k / (taps * g.c0), tap = k / g.c0 % taps;
  if (n >= g.n || c1 >= g.c1) return -1;
  const int64_t ih = static_cast<int64_t>(oh * g.stride_h + tap / g.fw * g.dilation_h) -
                     static_cast<int64_t>(g.pad_top);
  const int64_t iw = static_cast<int64_t>(ow * g.stride_w + tap % g.fw * g.dilation_w) -
                     static_cast<int64_t>(g.pad_left);
  if (ih < 0 || iw < 0 || static_cast<uint64_t>(ih) >= g.h || static_cast<uint64_t>(iw) >= g.w)
    return -1;
  return static_cast<int64_t>(((n * g.c1 + c1) * g.h + static_cast<uint64_t>(ih)) * g.w +
                              static_cast<uint64_t>(iw));
}

// Every element of dst's valid region copied, bit for bit, from src or the
// pad element; with repeat blocks, block i's window moved by i strides.
void RunTimg2col(pto_tile* dst, const pto_tile* src, const pto_img2col_config& c,
                 const Img2colRegisters& r, uint16_t pos_m, uint16_t pos_k, pto_profile profile) {
  const Geometry g = GeometryOf(src, c, r, profile);
  const size_t size = pto_dtype_size(dst->dtype);
  // The pad element's bytes: the low bits of the register, as a value of
  // the element's width (independent of the host's byte order).
  unsigned char pad[4];
  const uint8_t pad8 = static_cast<uint8_t>(r.pad_bits);
  const uint16_t pad16 = static_cast<uint16_t>(r.pad_bits);
  memcpy(pad, size == 1 ? static_cast<const void*>(&pad8)
              : size == 2 ? static_cast<const void*>(&pad16)
                          : static_cast<const void*>(&r.pad_bits),
         size);
  const Layout dl = TileLayout(dst), sl = TileLayout(src);
  unsigned char* out = static_cast<unsigned char*>(dst->data);
  const unsigned char* in = static_cast<const unsigned char*>(src->data);
  const uint32_t block_rows = r.repeat_mode == 0 ? dst->valid_rows / r.repeat_time : 0;
  const uint32_t block_cols = r.repeat_mode == 1 ? dst->valid_cols / r.repeat_time : 0;
  for (uint32_t i = 0; i < dst->valid_rows; ++i) {
    uint64_t m = static_cast<uint64_t>(pos_m) + i;
    if (block_rows != 0) m += (i / block_rows) * (16ull * r.repeat_stride - block_rows);
    for (uint32_t j = 0; j < dst->valid_cols; ++j) {
      uint64_t k = static_cast<uint64_t>(pos_k) + j;
      if (block_cols != 0) k += (j / block_cols) * (g.c0 * r.repeat_stride - block_cols);
      const int64_t row = SourceRow(g, m, k);
      const void* from =
          row < 0 ? static_cast<const void*>(pad)
                  : in + size * ElementOffset(sl, src->origin_row + static_cast<uint64_t>(row),
                                              src->origin_col + k % g.c0);
      memcpy(out + size * ElementOffset(dl, dst->origin_row + i, dst->origin_col + j), from,
             size);
    }
  }
}

}  // namespace

namespace ops {

// The three SET* settings (settings.def): their arguments checked
// (settings.cc), each copies its fields of config into the thread's
// registers.
pto_status ApplySetfmatrix(const pto_img2col_config* config) {
  Img2colRegisters& r = registers;
  r.fmap_h = config->fmap_h, r.fmap_w = config->fmap_w;
  r.pad_left = config->pad_left, r.pad_right = config->pad_right;
  r.pad_top = config->pad_top, r.pad_bottom = config->pad_bottom;
  return PTO_OK;
}

pto_status ApplySetImg2colPadding(const pto_img2col_config* config) {
  registers.pad_bits = config->pad_bits;
  return PTO_OK;
}

pto_status ApplySetImg2colRpt(const pto_img2col_config* config) {
  registers.repeat_stride = config->repeat_stride;
  registers.repeat_time = config->repeat_time;
  registers.repeat_mode = config->repeat_mode;
  return PTO_OK;
}

// The row timg2col: config its Config operand, pos_m and pos_k its
// Img2colWindow attribute (Operands::index); its NULL operands are refused
// before its placements (the row's NullsFirst trait).
pto_status CheckTImg2col(const Operands& o, pto_profile profile) {
  return CheckTimg2col(o.dst, o.src0, static_cast<const pto_img2col_config*>(o.ext->config),
                       profile);
}

void RunTImg2col(const Operands& o, pto_profile profile) {
  RunTimg2col(o.dst, o.src0, *static_cast<const pto_img2col_config*>(o.ext->config), registers,
              static_cast<uint16_t>(o.index[0]), static_cast<uint16_t>(o.index[1]), profile);
}

}  // namespace ops
}  // namespace pto
