// The fixpipe in a block's pipes: pto.set_quant_scalar / pto.set_quant_vector
// record the cube's quantisation state of a pipe id, and a push through a
// pipe's acc_push_epilogue converts the acc tile into the slot, each element
// by src/fixpipe.h (the C functions' arithmetic, pto_c.h "The fixpipe's
// conversions"). PTOAS's design (docs/designs/fixpipe-tpipe-design.md): the
// state of id N lasts until the next pto.set_quant_* of the same kind and
// id, and a push whose epilogue quantises needs one before it.
#include <string>
#include <vector>

#include "error.h"
#include "fixpipe.h"
#include "ops/ops.h"
#include "program/ir/types.h"
#include "program/run/block.h"

namespace pto {
namespace program {

pto_status CubeExec::PipeSetQuant(const Instr& in) {
  QuantState* q = nullptr;
  for (QuantState& s : quant_)
    if (s.id == in.imm) q = &s;
  if (q == nullptr) {
    quant_.push_back(QuantState());
    q = &quant_.back();
    q->id = in.imm;
  }
  if (in.a == kNoSlot) {
    q->scalar_set = true;
    q->scale = static_cast<float>(floats_[in.scalar_reg]);
  } else {
    q->vector_set = true;
    q->slot = in.a;
  }
  return PTO_OK;
}

// The acc tile of `in` (its valid rows x cols) converted into the slot's
// image at `at`, row-major (layout = nz2nd); *slot_dtype the slot's dtype
// (an 8-bit scalar word's bit 46 picks INT8 or UINT8).
pto_status CubeExec::FixpipePush(const Instr& in, const PipeDecl& d, char* at, uint32_t rows,
                              uint32_t cols, pto_dtype* slot_dtype) {
  const PipeEpilogue& e = d.epilogue;
  const std::string what = "pto.tpush_to_aiv";
  const QuantState* q = nullptr;
  for (const QuantState& s : quant_)
    if (s.id == d.id) q = &s;
  if (e.quant && (q == nullptr || !(e.vector ? q->vector_set : q->scalar_set)))
    return Error(in, PTO_ERR_INVALID_ARGUMENT,
                 what + ": pipe " + std::to_string(d.id) + "'s acc_push_epilogue <" + e.text +
                     "> takes a " + (e.vector ? "pto.set_quant_vector" : "pto.set_quant_scalar") +
                     " {id = " + std::to_string(d.id) + "} before the push");
  std::vector<uint64_t> words(cols == 0 ? 1 : cols, 0);
  if (e.quant && e.vector) {
    const pto_tile& fp = tiles_[q->slot];
    if (fp.valid_cols < cols)
      return Error(in, PTO_ERR_SHAPE_MISMATCH,
                   what + ": the scaling tile %" + p_.tiles[q->slot].name + " has " +
                       std::to_string(fp.valid_cols) + " valid columns, fewer than the " +
                       std::to_string(cols) + " the pushed tile has");
    const TileImage image = Image(q->slot);
    const size_t size = pto_dtype_size(fp.dtype);
    for (uint32_t j = 0; j < cols; ++j)
      words[j] = fixpipe::WordOf(fp.dtype,
                                 image.data + ElementOffset(image.layout, image.row,
                                                            image.col + j) * size,
                                 e.out);
  } else if (e.quant) {
    words.assign(words.size(), fixpipe::ScalarWord(q->scale, e.out));
  }
  const pto_tile& t = tiles_[in.a];
  if (e.out == PTO_INT64) *slot_dtype = t.dtype;  // no_convert: the acc's own dtype
  else
    *slot_dtype = e.out == PTO_INT8 && !e.vector && ((words[0] >> 46) & 1) == 0 ? PTO_UINT8 : e.out;
  const TileImage image = Image(in.a);
  const size_t in_size = pto_dtype_size(t.dtype), out_size = pto_dtype_size(*slot_dtype);
  for (uint32_t i = 0; i < rows; ++i)
    for (uint32_t j = 0; j < cols; ++j) {
      const char* s =
          image.data + ElementOffset(image.layout, image.row + i, image.col + j) * in_size;
      char* o = at + (uint64_t{i} * cols + j) * out_size;
      if (!e.quant)  // no_convert, f32_f16, f32_bf16: relu (A5's pre-stage), then the cast
        fixpipe::CastElementRelu(t.dtype, s, e.out == PTO_INT64 ? t.dtype : e.out, o, e.relu);
      else
        fixpipe::ConvertElement(t.dtype, s, e.out, o, words[j], e.vector, e.relu);
    }
  return PTO_OK;
}

// tmov_fp, textract_fp, tinsert_fp: the row's check with the tiles and the
// offsets as they are now, then its run.
pto_status CubeExec::FixpipeMove(const Instr& in) {
  ops::Operands o{&tiles_[in.a], &tiles_[in.b], &tiles_[in.c], nullptr, 0};
  if (ops::IndexCount(in.op->attr) == 2) {
    const int64_t row = ints_[in.index_regs[0]], col = ints_[in.index_regs[1]];
    if (row < 0 || col < 0)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   std::string("pto.") + in.op->mnemonic + ": offset " +
                       std::to_string(row < 0 ? row : col) + " is negative");
    o.index[0] = static_cast<size_t>(row);
    o.index[1] = static_cast<size_t>(col);
  }
  const pto_status status = in.op->check(o, p_.profile);
  if (status != PTO_OK) return Error(in, status, LastError());
  in.op->run(o, p_.profile);
  return PTO_OK;
}

// tstore ins(%acc fp %fp) outs(%view): each valid element of the acc tile
// quantised by fp's word of its column into the view's dtype.
pto_status CubeExec::FixpipeStore(const Instr& in) {
  const pto_tile& t = tiles_[in.a];
  const uint32_t fp_slot = static_cast<uint32_t>(in.extra - 1);
  const pto_tile& fp = tiles_[fp_slot];
  const pto_dtype out = static_cast<pto_dtype>(in.d);
  if (fp.valid_cols < t.valid_cols)
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 "pto.tstore: fp has " + std::to_string(fp.valid_cols) +
                     " valid columns, fewer than the acc tile's " + std::to_string(t.valid_cols));
  const TileImage fimage = Image(fp_slot), image = Image(in.a);
  const size_t fsize = pto_dtype_size(fp.dtype), in_size = pto_dtype_size(t.dtype);
  const size_t out_size = pto_dtype_size(out);
  std::vector<uint64_t> words(t.valid_cols);
  for (uint32_t j = 0; j < t.valid_cols; ++j)
    words[j] = fixpipe::WordOf(
        fp.dtype, fimage.data + ElementOffset(fimage.layout, fimage.row, fimage.col + j) * fsize,
        out);
  const View& v = views_[in.b];
  char* memory = pointers_[v.pointer].data;
  ForEachViewRow(v, t.valid_rows, [&](int64_t r, int64_t element, int64_t col_stride) {
    for (int64_t c = 0; c < t.valid_cols; ++c) {
      const char* s = image.data + ElementOffset(image.layout, image.row + static_cast<uint64_t>(r),
                                                 image.col + static_cast<uint64_t>(c)) *
                                       in_size;
      char* g = memory + static_cast<size_t>(element + c * col_stride) * out_size;
      fixpipe::ConvertElement(t.dtype, s, out, g, words[static_cast<size_t>(c)], true,
                              in.attr != 0);  // reluPreMode
    }
  });
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
