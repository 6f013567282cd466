// pto.tprint and PTO_TRACE: a tile's valid region, or a partition view's
// elements, written to stderr in tprint's formats.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "dtype_rules.h"
#include "float_scalars.h"
#include "fractal.h"
#include "low_precision.h"
#include "program/ir/types.h"
#include "program/run/block.h"

namespace pto {
namespace program {

namespace {

// One element of dtype d at e, as tprint writes it: " " then the value in
// the format's width (integers) or width and precision (floats); a packed
// low-precision byte as its two values "lo|hi".
void AppendElement(std::string* text, pto_dtype d, const char* e, int width, int precision) {
  char number[64];
  int64_t i = 0;
  uint64_t u64 = 0;
  double f = 0;
  bool is_float = true;
  switch (d) {
    case PTO_FLOAT32: { float v; memcpy(&v, e, 4); f = v; break; }
    case PTO_FLOAT16:
    case PTO_BFLOAT16: { uint16_t v; memcpy(&v, e, 2); f = HalfBitsToDouble(v, d); break; }
    case PTO_INT8: { int8_t v; memcpy(&v, e, 1); i = v; is_float = false; break; }
    case PTO_UINT8: { uint8_t v; memcpy(&v, e, 1); i = v; is_float = false; break; }
    case PTO_INT16: { int16_t v; memcpy(&v, e, 2); i = v; is_float = false; break; }
    case PTO_UINT16: { uint16_t v; memcpy(&v, e, 2); i = v; is_float = false; break; }
    case PTO_INT32: { int32_t v; memcpy(&v, e, 4); i = v; is_float = false; break; }
    case PTO_UINT32: { uint32_t v; memcpy(&v, e, 4); i = v; is_float = false; break; }
    case PTO_INT64: memcpy(&i, e, 8); is_float = false; break;
    case PTO_UINT64: memcpy(&u64, e, 8); break;
    default: {  // the low-precision types: a byte's value, a packed byte's two
      const uint8_t byte = static_cast<uint8_t>(*e);
      if (IsPackedDtype(d)) {
        snprintf(number, sizeof number, " %g|%g", lowp::ToDouble(d, byte & 0xFu),
                 lowp::ToDouble(d, byte >> 4));
        *text += number;
        return;
      }
      f = lowp::ToDouble(d, byte);
      break;
    }
  }
  if (d == PTO_UINT64) snprintf(number, sizeof number, " %*" PRIu64, width, u64);
  else if (is_float) snprintf(number, sizeof number, " %*.*f", width, precision, f);
  else snprintf(number, sizeof number, " %*" PRId64, width, i);
  *text += number;
}

// The print format's width and precision (PTOAS's Width8_Precision4,
// Width8_Precision2, Width10_Precision6).
int FormatWidth(int format) { return format == 2 ? 10 : 8; }
int FormatPrecision(int format) { return format == 0 ? 4 : format == 1 ? 2 : 6; }

}  // namespace

// pto.tprint: "FILE:LINE:COL: %name, block B: RxC valid of RxC DTYPE" and the
// valid region's rows, each element in the print format's width and
// precision; a partition view's elements, its last dimension along a row.
// One write per print, so blocks' prints do not mix.
void Block::Print(const Instr& in, uint32_t block) const {
  if (in.a == kNoSlot) return PrintView(in, block);
  PrintTile(in.a, in.loc, "%" + p_.tiles[in.a].name, block, UINT32_MAX, UINT32_MAX, in.sub);
}

void Block::PrintView(const Instr& in, uint32_t block) const {
  const View& v = views_[in.b];
  const pto_dtype d = static_cast<pto_dtype>(in.d);
  int64_t rows = 1;
  for (uint32_t i = 0; i + 1 < v.rank; ++i) rows *= v.shape[i];
  const int64_t cols = v.rank == 0 ? 1 : v.shape[v.rank - 1];
  std::string text = p_.source_name + ":" + std::to_string(in.loc.line) + ":" +
                     std::to_string(in.loc.col) + ": a partition view, block " +
                     std::to_string(block) + ": " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " " + DtypeSpelling(d) + " of global memory\n";
  if (pointers_[v.pointer].peer) {
    text += "  (another rank's memory: not printed)\n";
  } else {
    const size_t size = pto_dtype_size(d);
    const char* memory = pointers_[v.pointer].data;
    ForEachViewRow(v, rows, [&](int64_t, int64_t element, int64_t col_stride) {
      for (int64_t c = 0; c < cols; ++c)
        AppendElement(&text, d, memory + static_cast<size_t>(element + c * col_stride) * size,
                      FormatWidth(in.sub), FormatPrecision(in.sub));
      text += "\n";
    });
  }
  fputs(text.c_str(), stderr);
}

void Block::PrintTile(uint32_t slot, SourceLoc loc, const std::string& what, uint32_t block,
                      uint32_t max_rows, uint32_t max_cols, int format) const {
  const pto_tile& t = tiles_[slot];
  const size_t size = pto_dtype_size(t.dtype);
  std::string text = p_.source_name + ":" + std::to_string(loc.line) + ":" +
                     std::to_string(loc.col) + ": " + what + ", block " +
                     std::to_string(block) +
                     // A program with two vector cores prints once from each.
                     (pipe_.core() == static_cast<uint8_t>(CoreKind::kVector) && pipe_.subblocks() > 1
                          ? " vector core " + std::to_string(pipe_.subblock())
                          : std::string()) +
                     ": " + std::to_string(t.valid_rows) + "x" +
                     std::to_string(t.valid_cols) + " valid of " +
                     std::to_string(p_.tiles[slot].type.rows) + "x" +
                     std::to_string(p_.tiles[slot].type.cols) + " " + DtypeSpelling(t.dtype) +
                     "\n";
  const uint32_t rows = t.valid_rows < max_rows ? t.valid_rows : max_rows;
  const uint32_t cols = t.valid_cols < max_cols ? t.valid_cols : max_cols;
  // Each element where its tile's layout puts it: rows t.cols apart (a
  // window's are its parent's), or a cube or boxed vec tile's layout image.
  const Type& type = p_.tiles[slot].type;
  const bool boxed = type.IsCube() || type.IsBoxedVec();
  const Layout layout = boxed ? LayoutOf(type) : RowMajorLayout(t.rows, t.cols);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c)
      AppendElement(&text, t.dtype,
                    static_cast<const char*>(t.data) + ElementOffset(layout, r, c) * size,
                    FormatWidth(format), FormatPrecision(format));
    if (cols < t.valid_cols) text += " ...";
    text += "\n";
  }
  if (rows < t.valid_rows) text += "  ...\n";
  fputs(text.c_str(), stderr);
}

uint32_t Block::WrittenTile(const Instr& in, const char** name) const {
  switch (in.code) {
    case Code::kTileOp: *name = ops::TextRow(*in.op).mnemonic; return in.slot[Role::kDst];
    case Code::kLoad: *name = "tload"; return in.a;
    case Code::kStore: *name = "tstore"; return in.a;
    case Code::kMxZzMove: *name = "tmov"; return in.a;
    case Code::kTileCopy: *name = "a carried tile"; return in.a;
    case Code::kCubeMove:
      *name = in.sub == 3 ? "tinsert" : in.op != nullptr ? in.op->mnemonic : in.sub != 0 ? "textract" : "tmov";
      return in.a;
    case Code::kMatmul: *name = in.op != nullptr ? in.op->mnemonic : "tmatmul"; return in.a;
    default: return kNoSlot;
  }
}

// At most 4 rows of 8 elements of the tile, in tprint's first format; an
// instruction that writes no tile is not traced.
void Block::Trace(const Instr& in, uint32_t block) const {
  const char* name = nullptr;
  const uint32_t slot = WrittenTile(in, &name);
  if (slot == kNoSlot || tiles_[slot].data == nullptr) return;
  PrintTile(slot, in.loc, std::string("trace pto.") + name + " %" + p_.tiles[slot].name, block, 4,
            8, 0);
}

// PTO_TRACE's value: `all`, a block number, or none.
int64_t TraceSetting() {
  const char* env = getenv("PTO_TRACE");
  if (env == nullptr || env[0] == '\0') return kTraceNone;
  if (strcmp(env, "all") == 0) return kTraceAll;
  char* end = nullptr;
  const long long v = strtoll(env, &end, 10);
  return end != env && *end == '\0' && v >= 0 ? v : kTraceNone;
}

}  // namespace program
}  // namespace pto
