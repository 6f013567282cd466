// The executor's cube instructions: the moves between memories, each element
// kept at its (row, column) and laid out as the destination's layout says
// (layout.h), tload into and tstore out of the cube's tiles, and the matrix
// multiply, run by the table's row on row-major copies of the operands'
// valid regions staged after the block's memories.
#include <string.h>

#include <string>

#include "dtype_rules.h"
#include "error.h"
#include "ops/ops.h"
#include "program/ir/cube.h"
#include "program/ir/types.h"
#include "program/run/block.h"
#include "tile.h"

namespace pto {
namespace program {

pto_status CheckMatmulRegions(const Program& p, const Instr& in, const pto_tile& dst,
                              const pto_tile& a, const pto_tile& b, const pto_tile* bias) {
  // Stand-ins at distinct addresses (never dereferenced): the row's rules
  // judge dtypes and regions; the tiles' memories keep them apart.
  static char stand_in_bytes[4];
  const auto stand_in = [](const pto_tile& t, int k) {
    pto_tile s = t;
    s.rows = t.valid_rows;
    s.cols = t.valid_cols;
    s.buffer = nullptr;
    s.offset = 0;
    s.data = &stand_in_bytes[k];
    return s;
  };
  pto_tile sd = stand_in(dst, 0);
  const pto_tile sa = stand_in(a, 1), sb = stand_in(b, 2);
  const pto_tile sbias = bias != nullptr ? stand_in(*bias, 3) : pto_tile{};
  ops::Operands o{&sd, &sa, &sb, nullptr, 0};
  o.src2 = bias != nullptr ? &sbias : nullptr;
  const pto_status status = in.op->check(o, PTO_PROFILE_HOST);
  if (status != PTO_OK) return status;
  if (p.profile == PTO_PROFILE_HOST) return PTO_OK;
  const uint32_t dims[3] = {a.valid_rows, a.valid_cols, b.valid_cols};
  const char* names[3] = {"M", "K", "N"};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1 || dims[i] > 4095)
      return Fail(PTO_ERR_SHAPE_MISMATCH, in.op->c_function,
                  "%s = %u is outside the cube's 1 to 4095 under %s", names[i], dims[i],
                  pto_profile_string(p.profile));
  }
  return PTO_OK;
}

bool ExtractWindowAligned(const Type& src, Space dst_space, int64_t row, int64_t col,
                          uint32_t* row_step, uint32_t* col_step) {
  const uint32_t size = static_cast<uint32_t>(pto_dtype_size(src.dtype));
  const uint32_t c0 = 32 / size, fractal = size == 1 ? 32 : 16;
  const bool nz = src.col_major && src.box == Box::kRowMajor;
  const bool zn = !src.col_major && src.box == Box::kColMajor;
  const bool left = dst_space == Space::kLeft;
  if ((nz && left) || (zn && !left)) {
    *row_step = left ? 16 : c0;
    *col_step = left ? c0 : 16;
  } else if (nz || zn) {
    *row_step = *col_step = fractal;
  } else {
    const Layout l = LayoutOf(src);
    *row_step = l.inner_rows;
    *col_step = l.inner_cols;
  }
  return row % *row_step == 0 && col % *col_step == 0;
}

namespace {

// One element of `size` bytes (1, 2, 4 or 8), copied with a fixed-size copy.
inline void CopyElement(char* dst, const char* src, size_t size) {
  switch (size) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    default: memcpy(dst, src, 8); break;
  }
}

}  // namespace

TileImage Block::Image(uint32_t slot) const {
  uint32_t root = slot;
  while (p_.tiles[root].IsView() && p_.tiles[root].type.IsCube())
    root = static_cast<uint32_t>(p_.tiles[root].view_of);
  return TileImage{static_cast<char*>(tiles_[slot].data), LayoutOf(p_.tiles[root].type),
                   corners_[slot].row, corners_[slot].col};
}

// tload into a mat tile: first every element of the tile gets its type's pad
// value (0 for null and zero), as pto-isa's CPU model fills the tile before
// the transfer, then the valid region is written from the view, each
// element at its place in the tile's layout. tstore from an acc or mat tile:
// each valid element to the view, cast (acc FLOAT32 to FLOAT16 or BFLOAT16)
// or, with atomic add, added to what the view holds, once every earlier
// block has finished (so the sums are the same bits whatever the threads:
// global memory plus block 0's adds, then block 1's, ...).
pto_status Block::CubeTransfer(const Instr& in, bool load) {
  const pto_status fits = TransferFits(in, load);
  if (fits != PTO_OK) return fits;
  const View& v = views_[in.b];
  pto_tile& t = tiles_[in.a];
  const Type& type = p_.tiles[in.a].type;
  const int64_t rows = t.valid_rows, cols = t.valid_cols;
  const TileImage image = Image(in.a);
  const Layout& layout = image.layout;
  const size_t size = pto_dtype_size(t.dtype);
  const pto_dtype view_dtype = static_cast<pto_dtype>(in.d);
  const size_t view_size = pto_dtype_size(view_dtype);
  char* memory = pointers_[v.pointer].data;
  char* tile = image.data;
  const bool whole_image = !p_.tiles[in.a].IsView();
  if (load && whole_image) {
    pto_tile whole = t;  // every element, in any order: they all get one value
    whole.valid_rows = whole.valid_cols = 0;
    if (type.pad == PTO_PAD_NULL || type.pad == PTO_PAD_ZERO)
      memset(tile, 0, ElementCount(&t) * size);
    else
      ops::FillPad(&whole, 0, 0, type.rows, type.cols, type.pad);
  } else if (load) {
    // A subview: its window of the root's image, each element at its place.
    uint64_t pad = 0;
    pto_tile one = t;
    one.rows = one.cols = 1;
    one.data = &pad;
    if (type.pad != PTO_PAD_NULL && type.pad != PTO_PAD_ZERO)
      ops::FillPad(&one, 0, 0, 1, 1, type.pad);
    FillRegion(layout, tile, image.row, image.col, image.RowsInside(0, type.rows),
               image.ColsInside(0, type.cols), &pad, size);
  }
  const bool atomic = in.sub != 0;
  // Adds land in block order: the same sums whatever the threads.
  if (atomic && !WaitForTurn(*stop_))
    return Error(in, PTO_ERR_INVALID_ARGUMENT, "pto.tstore: the launch stopped (another block failed)");
  const bool plain = !atomic && view_dtype == t.dtype;
  const bool cast = !load && view_dtype != t.dtype;
  ForEachViewRow(v, rows, [&](int64_t r, int64_t element, int64_t col_stride) {
    for (int64_t c = 0; c < cols;) {
      char* g = memory + static_cast<size_t>(element + c * col_stride) * view_size;
      const uint64_t ir = image.row + static_cast<uint64_t>(r);
      const uint64_t ic = image.col + static_cast<uint64_t>(c);
      char* e = tile + ElementOffset(layout, ir, ic) * size;
      // Runs the tile and the view both hold one after another.
      const int64_t run =
          (plain || cast) && col_stride == 1
              ? static_cast<int64_t>(RowRun(layout, ic, static_cast<uint64_t>(cols - c)))
              : 1;
      c += run;
      if (cast) {
        // The fixpipe's FLOAT32 to FLOAT16 / BFLOAT16, rounded to nearest
        // even as tcvt rounds.
        kernels::FromF32(view_dtype, static_cast<size_t>(run), g, reinterpret_cast<const float*>(e));
      } else if (run > 1) {
        if (load) memcpy(e, g, static_cast<size_t>(run) * size);
        else memcpy(g, e, static_cast<size_t>(run) * size);
      } else if (load) {
        CopyElement(e, g, size);
      } else if (atomic && t.dtype == PTO_FLOAT32) {
        float x, y;
        memcpy(&x, e, 4);
        memcpy(&y, g, 4);
        y += x;
        memcpy(g, &y, 4);
      } else if (atomic) {
        uint32_t x, y;  // INT32: added modulo 2^32
        memcpy(&x, e, 4);
        memcpy(&y, g, 4);
        y += x;
        memcpy(g, &y, 4);
      } else {
        CopyElement(g, e, size);
      }
    }
  });
  return PTO_OK;
}

// tmov (sub 0) and textract (sub 1) with a cube tile on either side: dst's
// elements, each read at its (row, column) of src (from the window's
// corner for textract) in src's layout and written in dst's. A vec dst gets
// its valid region; a cube dst its whole rows x cols (the boxes the cube
// moves whole).
pto_status Block::CubeMove(const Instr& in) {
  const Type& st = p_.tiles[in.b].type;
  const Type& dt = p_.tiles[in.a].type;
  pto_tile& dst = tiles_[in.a];
  int64_t row = 0, col = 0;
  if (in.sub == 1) {
    row = ints_[in.index_regs[0]];
    col = ints_[in.index_regs[1]];
    if (row < 0 || col < 0)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   "pto.textract: offset " + std::to_string(row < 0 ? row : col) + " is negative");
    if (row + dt.rows > st.rows || col + dt.cols > st.cols)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   "pto.textract: the " + std::to_string(dt.rows) + "x" + std::to_string(dt.cols) +
                       " window at [" + std::to_string(row) + ", " + std::to_string(col) +
                       "] is outside %" + p_.tiles[in.b].name + "'s " + std::to_string(st.rows) +
                       "x" + std::to_string(st.cols));
    uint32_t row_step, col_step;
    if (!ExtractWindowAligned(st, dt.space, row, col, &row_step, &col_step))
      return Error(in, PTO_ERR_INVALID_ARGUMENT,
                   "pto.textract: the window at [" + std::to_string(row) + ", " +
                       std::to_string(col) + "] of a " + LayoutName(st) + " " +
                       DtypeSpelling(st.dtype) + " mat tile into a " + SpaceSpelling(dt.space) +
                       " tile must start at a multiple of " + std::to_string(row_step) +
                       " rows and " + std::to_string(col_step) + " columns");
  }
  const uint32_t rows = dt.space == Space::kVec ? dst.valid_rows : dt.rows;
  const uint32_t cols = dt.space == Space::kVec ? dst.valid_cols : dt.cols;
  if (dt.space == Space::kVec && (rows > st.rows || cols > st.cols))
    return Error(in, PTO_ERR_SHAPE_MISMATCH,
                 "pto.tmov: dst's valid region " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " is larger than src's " + std::to_string(st.rows) +
                     "x" + std::to_string(st.cols));
  const TileImage to = Image(in.a), from = Image(in.b);
  const uint64_t r0 = static_cast<uint64_t>(row), c0 = static_cast<uint64_t>(col);
  CopyRegion(to.layout, to.data, to.row, to.col, from.layout, from.data, from.row + r0,
             from.col + c0, std::min(to.RowsInside(0, rows), from.RowsInside(r0, rows)),
             std::min(to.ColsInside(0, cols), from.ColsInside(c0, cols)),
             pto_dtype_size(dt.dtype));
  return PTO_OK;
}

// The matrix multiply: a's and b's valid regions copied row-major into the
// staging area (and dst's for tmatmul_acc, whose chains start from it), the
// row run on those copies, dst's valid region written back in its layout.
pto_status Block::Matmul(const Instr& in) {
  pto_tile& c = tiles_[in.a];
  const pto_tile& a = tiles_[in.b];
  const pto_tile& b = tiles_[in.c];
  const pto_tile* bias = in.d != kNoSlot ? &tiles_[in.d] : nullptr;
  if (in.check_at_run) {
    const pto_status status = CheckMatmulRegions(p_, in, c, a, b, bias);
    if (status != PTO_OK) return Diagnose(p_, in.loc, status, LastError());
  }
  char* stage = ub_ + p_.scratch_base;
  const auto staged = [&stage](const pto_tile& t, uint32_t rows, uint32_t cols) {
    pto_tile s{};
    s.dtype = t.dtype;
    s.rows = s.valid_rows = rows;
    s.cols = s.valid_cols = cols;
    s.data = stage;
    stage += (size_t{rows} * cols * pto_dtype_size(t.dtype) + 63) / 64 * 64;
    return s;
  };
  // A tile's valid region to its row-major copy, or (back) the copy to it.
  const auto gather = [this](uint32_t slot, pto_tile* copy, bool back) {
    const TileImage image = Image(slot);
    const Layout staged = RowMajorLayout(copy->rows, copy->cols);
    const size_t size = pto_dtype_size(copy->dtype);
    char* rows = static_cast<char*>(copy->data);
    if (back)
      CopyRegion(image.layout, image.data, image.row, image.col, staged, rows, 0, 0, copy->rows,
                 copy->cols, size);
    else
      CopyRegion(staged, rows, 0, 0, image.layout, image.data, image.row, image.col, copy->rows,
                 copy->cols, size);
  };
  const uint32_t m = c.valid_rows, n = c.valid_cols, k = a.valid_cols;
  pto_tile sa = staged(a, m, k), sb = staged(b, k, n), sc = staged(c, m, n);
  if (m == 0 || n == 0) return PTO_OK;
  gather(in.b, &sa, false);
  gather(in.c, &sb, false);
  if (in.op->id == ops::OpId::kTMatmulAcc) gather(in.a, &sc, false);
  ops::Operands o{&sc, &sa, &sb, nullptr, 0};
  o.src2 = bias;
  in.op->run(o, PTO_PROFILE_HOST);
  gather(in.a, &sc, true);
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
