// The executor's cube instructions: the moves between memories, each element
// kept at its (row, column) and laid out as the destination's layout says
// (layout.h), tload into and tstore out of the cube's tiles, and the matrix
// multiply, the table's row checked and run on the operands' cube tiles.
#include <string.h>

#include <string>

#include "dtype_rules.h"
#include "error.h"
#include "fixpipe.h"
#include "float_scalars.h"
#include "ops/ops.h"
#include "program/ir/cube.h"
#include "program/ir/types.h"
#include "program/run/block.h"
#include "tile.h"

namespace pto {
namespace program {

ops::Operands MatmulOperands(const Instr& in, pto_tile* tiles, ops::OperandsExt* ext) {
  ops::Operands o{&tiles[in.a], &tiles[in.b], &tiles[in.c], nullptr, 0};
  o.ext = ext;
  ext->src2 = in.d != kNoSlot ? &tiles[in.d] : nullptr;
  if (in.op->source_count >= 4) {  // MX: (a, a_scale, b, b_scale[, bias])
    o.src1 = &tiles[in.slot[0]];
    ext->src2 = &tiles[in.c];
    ext->src3 = &tiles[in.slot[1]];
    ext->src4 = in.d != kNoSlot ? &tiles[in.d] : nullptr;
  }
  o.cube_placements_checked = true;
  return o;
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

bool IsPackedScaleTile(const Type& type) {
  if (type.dtype != PTO_FLOAT8_E8M0 || type.space != Space::kMat || type.box == Box::kNone)
    return false;
  const bool nn = type.box == Box::kColMajor && type.col_major;
  const bool zz = type.box == Box::kRowMajor && !type.col_major && type.rows != 1;
  return nn || zz;
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

// tload's and tstore's copy where the view's rows are runs of elements
// and nothing is cast or added: the view's rows in groups one stride apart
// (ForEachViewRowGroup), each group a row-major region of pitch that
// stride, moved by CopyRegion. Rows that overlap (a stride shorter than a
// row) or lie beyond a layout's reach go one at a time, in order, as the
// element loop writes them.
void PlainCubeTransfer(const View& v, char* memory, const TileImage& image, int64_t rows,
                       int64_t cols, size_t size, bool load) {
  ForEachViewRowGroup(v, rows, [&](int64_t r, int64_t element, int64_t count, int64_t stride) {
    const bool grouped = count > 1 && stride >= cols && stride <= int64_t{UINT32_MAX};
    const int64_t pitch = grouped ? stride : cols;
    for (int64_t i = 0; i < count; i += grouped ? count : 1) {
      const uint64_t n = grouped ? static_cast<uint64_t>(count) : 1;
      char* g = memory + static_cast<size_t>(element + i * stride) * size;
      const Layout gl = RowMajorLayout(n, static_cast<uint64_t>(pitch));
      const uint64_t ir = image.row + static_cast<uint64_t>(r + i);
      if (load)
        CopyRegion(image.layout, image.data, ir, image.col, gl, g, 0, 0, n,
                   static_cast<uint64_t>(cols), size);
      else
        CopyRegion(gl, g, 0, 0, image.layout, image.data, ir, image.col, n,
                   static_cast<uint64_t>(cols), size);
    }
  });
}

// PTOAS lowers a tload of MX scales (f8E8M0) into a mat tile laid out NN,
// or ZZ with more than one row, to pto-isa's MX_B_NN / MX_A_ZZ global
// layouts (InferPTOLayout, the global tensor of the tile's shape;
// a5/TLoad.hpp TLoadMxCubeNN2NN / ZZ2ZZ): global memory holds the scales
// already in the tile's 32-byte boxes (2 scale rows x 16 columns for b, 16
// rows x 2 scale columns for a), box after box down each strip, strip after
// strip, and the load copies the bytes from the view's first element on,
// whole boxes over the valid region (the view's shape gives that region).

// The load IsPackedScaleTile describes; false (with the sentence) when the
// boxes reach past the pointer's `count` elements.
bool PackedScaleLoad(const Type& type, const View& v, const char* memory, int64_t count,
                     const TileImage& image, int64_t rows, int64_t cols, std::string* why) {
  const bool nn = type.box == Box::kColMajor;
  const int64_t box_rows = nn ? 2 : 16, box_cols = nn ? 16 : 2;
  const int64_t r_all = (rows + box_rows - 1) / box_rows * box_rows;
  const int64_t c_all = (cols + box_cols - 1) / box_cols * box_cols;
  const int64_t bytes = r_all * c_all;
  if (v.offset + bytes > count) {
    *why = std::string("pto.tload: MX scales into a mat ") + LayoutName(type) +
           " tile are read in whole boxes (" + std::to_string(r_all) + "x" + std::to_string(c_all) +
           " bytes from the view's first element, pto-isa's " + (nn ? "MX_B_NN" : "MX_A_ZZ") +
           "), past the pointer's " + std::to_string(count) + " elements";
    return false;
  }
  const int64_t strip = nn ? r_all / 2 : c_all / 2;  // boxes down a strip
  for (int64_t f = 0; f < bytes; ++f) {
    const int64_t box = f / 32, pair = f % 32 / 2, half = f % 2;
    const int64_t r = nn ? box % strip * 2 + half : box / strip * 16 + pair;
    const int64_t c = nn ? box / strip * 16 + pair : box % strip * 2 + half;
    if (r >= type.rows || c >= type.cols) continue;
    image.data[ElementOffset(image.layout, image.row + static_cast<uint64_t>(r),
                             image.col + static_cast<uint64_t>(c))] = memory[v.offset + f];
  }
  return true;
}

// pto-isa's 5-D form of those global layouts (a5/TLoad.hpp TLoadMxCubeZZ2ZZ,
// TLoadMxCubeNN2NN): a view [N0, N1, N2, 16, 2] whose element (n0, n1, n2,
// i, k) is byte (i, k) of a box, 16 x 2 for a (rows i, scale columns k) or
// 2 x 16 for b (scale rows k, columns i). The N0 x N1 boxes run down the
// tile (a: box row n0 N1 + n1, box column n2) or across it (b: box column
// n0 N1 + n1, box row n2), each byte read where the view's strides put it:
// a window of a larger scale tensor loads as its boxes. The region, (N0 N1
// 16) x (N2 2) for a and (N2 2) x (N0 N1 16) for b, lies inside the tile's
// rows x cols (A5's static check), and every byte inside the pointer.
// The view's last two dimensions are 16 and 2 (CubeTransfer's test).
pto_status BoxedScaleLoad(const Type& type, const View& v, const char* memory, int64_t count,
                          const TileImage& image, std::string* why) {
  const bool nn = type.box == Box::kColMajor;
  const int64_t n01 = v.shape[0] * v.shape[1], n2 = v.shape[2];
  const int64_t rows = nn ? n2 * 2 : n01 * 16, cols = nn ? n01 * 16 : n2 * 2;
  if (rows > type.rows || cols > type.cols) {
    *why = "pto.tload: the view's boxes cover " + std::to_string(rows) + "x" +
           std::to_string(cols) + " scales, more than the tile's " + std::to_string(type.rows) +
           "x" + std::to_string(type.cols);
    return PTO_ERR_SHAPE_MISMATCH;
  }
  int64_t last = v.offset;
  for (int d = 0; d < 5; ++d) last += (v.shape[d] - 1) * v.strides[d];
  if (n01 * n2 == 0) return PTO_OK;
  if (last >= count || v.offset < 0) {
    *why = "pto.tload: the view's boxes reach element " + std::to_string(last) +
           ", past the pointer's " + std::to_string(count) + " elements";
    return PTO_ERR_OUT_OF_RANGE;
  }
  for (int64_t a = 0; a < v.shape[0]; ++a)
    for (int64_t b = 0; b < v.shape[1]; ++b)
      for (int64_t c = 0; c < n2; ++c)
        for (int64_t i = 0; i < 16; ++i)
          for (int64_t k = 0; k < 2; ++k) {
            const int64_t box = a * v.shape[1] + b;
            const int64_t r = nn ? c * 2 + k : box * 16 + i;
            const int64_t col = nn ? box * 16 + i : c * 2 + k;
            const int64_t e = v.offset + a * v.strides[0] + b * v.strides[1] + c * v.strides[2] +
                              i * v.strides[3] + k * v.strides[4];
            image.data[ElementOffset(image.layout, image.row + static_cast<uint64_t>(r),
                                     image.col + static_cast<uint64_t>(col))] = memory[e];
          }
  return PTO_OK;
}

}  // namespace

TileImage CubeExec::Image(uint32_t slot) const {
  uint32_t root = slot;
  while (p_.tiles[root].IsView() && p_.tiles[root].type.IsCube())
    root = static_cast<uint32_t>(p_.tiles[root].view_of);
  const pto_tile& t = tiles_[slot];
  Layout layout = LayoutOf(p_.tiles[root].type);
  if (!p_.tiles[root].type.IsCube() && layout.box == Box::kNone && !layout.col_major) {
    // A row-major vec tile, a subview's window too: its elements lie at its
    // own row pitch, the tile's cols (a subview's its parent's), not its
    // type's width.
    layout.rows = t.rows;
    layout.cols = t.cols;
  }
  return TileImage{static_cast<char*>(t.data), layout, t.origin_row, t.origin_col};
}

namespace {

// A load's tile filled with its pad value first (zeros without one): the
// whole tile, or a subview's window of its root's image.
void PadBeforeLoad(const pto_tile& t, const Type& type, const TileImage& image, bool whole_image) {
  const Layout& layout = image.layout;
  const size_t size = pto_dtype_size(t.dtype);
  char* tile = image.data;
  if (whole_image) {
    pto_tile whole = t;  // every element, in any order: they all get one value
    whole.valid_rows = whole.valid_cols = 0;
    if (type.pad == PTO_PAD_NULL || type.pad == PTO_PAD_ZERO)
      memset(tile, 0, ElementCount(&t) * size);
    else
      ops::FillPad(&whole, 0, 0, type.rows, type.cols, type.pad);
  } else {
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
}

}  // namespace

// tload into a mat tile: first every element of the tile gets its type's pad
// value (0 for null and zero), as pto-isa's CPU model fills the tile before
// the transfer, then the valid region is written from the view, each
// element at its place in the tile's layout. tstore from an acc or mat tile:
// each valid element to the view, cast (acc FLOAT32 to FLOAT16 or BFLOAT16)
// or, with atomic add, added to what the view holds, once every earlier
// block has finished (so the sums are the same bits whatever the threads:
// global memory plus block 0's adds, then block 1's, ...).
pto_status CubeExec::CubeTransfer(const Instr& in, bool load) {
  // MX scales from pto-isa's 5-D box form: the view's shape is boxes, not
  // the tile's rows and columns (BoxedScaleLoad checks it). Another 5-D
  // view (PTOAS's padded 2-D one, [1, 1, 1, R, C]) is the tile's rows and
  // columns as before.
  const View& bv = views_[in.b];
  const bool boxed = load && bv.rank == 5 && bv.shape[3] == 16 && bv.shape[4] == 2 &&
                     IsPackedScaleTile(p_.tiles[in.a].type);
  const pto_status fits = boxed ? PTO_OK : block_state_.TransferFits(in, load);
  if (fits != PTO_OK) return fits;
  if (!load && in.extra != 0) return FixpipeStore(in);
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
  if (load) PadBeforeLoad(t, type, image, whole_image);
  const bool atomic = in.sub != 0;
  // Adds land in block order: the same sums whatever the threads.
  if (atomic && !block_state_.WaitForTurn(*stop_))
    return Error(in, PTO_ERR_INVALID_ARGUMENT, "pto.tstore: the launch stopped (another block failed)");
  if (boxed) {
    std::string why;
    const pto_status st = BoxedScaleLoad(type, v, memory, pointers_[v.pointer].count, image, &why);
    return st == PTO_OK ? PTO_OK : Error(in, st, why);
  }
  if (load && IsPackedScaleTile(type)) {
    std::string why;
    if (!PackedScaleLoad(type, v, memory, pointers_[v.pointer].count, image, rows, cols, &why))
      return Error(in, PTO_ERR_OUT_OF_RANGE, why);
    return PTO_OK;
  }
  // reluPreMode = normal_relu: a value below zero stored as +0 (before the
  // cast, as the fixpipe's relu; before an atomic add).
  const bool relu = !load && in.attr != 0;
  const bool plain = !atomic && !relu && view_dtype == t.dtype;
  const bool cast = !load && view_dtype != t.dtype;
  if (plain && v.strides[v.rank - 1] == 1) {
    PlainCubeTransfer(v, memory, image, rows, cols, size, load);
    return PTO_OK;
  }
  ForEachViewRow(v, rows, [&](int64_t r, int64_t element, int64_t col_stride) {
    for (int64_t c = 0; c < cols;) {
      char* g = memory + static_cast<size_t>(element + c * col_stride) * view_size;
      const uint64_t ir = image.row + static_cast<uint64_t>(r);
      const uint64_t ic = image.col + static_cast<uint64_t>(c);
      char* e = tile + ElementOffset(layout, ir, ic) * size;
      // Runs the tile and the view both hold one after another.
      const int64_t run =
          (plain || (cast && !relu)) && col_stride == 1
              ? static_cast<int64_t>(RowRun(layout, ic, static_cast<uint64_t>(cols - c)))
              : 1;
      c += run;
      if (relu && !atomic) {
        fixpipe::CastElementRelu(t.dtype, e, view_dtype, g, true);
      } else if (cast) {
        // The fixpipe's FLOAT32 to FLOAT16 / BFLOAT16, rounded to nearest
        // even as tcvt rounds.
        ops::RoundFromF32(view_dtype, static_cast<size_t>(run), g, reinterpret_cast<const float*>(e));
      } else if (run > 1) {
        if (load) memcpy(e, g, static_cast<size_t>(run) * size);
        else memcpy(g, e, static_cast<size_t>(run) * size);
      } else if (load) {
        CopyElement(e, g, size);
      } else if (atomic && t.dtype == PTO_FLOAT32) {
        float x, y;
        memcpy(&x, e, 4);
        memcpy(&y, g, 4);
        if (relu && x < 0) x = 0;
        y += x;
        memcpy(g, &y, 4);
      } else if (atomic) {
        uint32_t x, y;  // INT32: added modulo 2^32
        memcpy(&x, e, 4);
        memcpy(&y, g, 4);
        if (relu && (x >> 31) != 0) x = 0;
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
// tinsert: src's valid region into dst at (row, col), which must hold it
// (TINSERT.md: indexRow + src.ValidRow <= dst.Rows, and columns alike);
// imm 1: the fixpipe's cast of f32 to dst's f16 or bf16.
pto_status CubeExec::CubeInsert(const Instr& in) {
  const Type& dt = p_.tiles[in.a].type;
  const pto_tile& src = tiles_[in.b];
  const int64_t row = ints_[in.index_regs[0]], col = ints_[in.index_regs[1]];
  if (row < 0 || col < 0)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 "pto.tinsert: offset " + std::to_string(row < 0 ? row : col) + " is negative");
  if (row + src.valid_rows > dt.rows || col + src.valid_cols > dt.cols)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 "pto.tinsert: src's valid region " + std::to_string(src.valid_rows) + "x" +
                     std::to_string(src.valid_cols) + " at [" + std::to_string(row) + ", " +
                     std::to_string(col) + "] is outside %" + p_.tiles[in.a].name + "'s " +
                     std::to_string(dt.rows) + "x" + std::to_string(dt.cols));
  const TileImage to = Image(in.a), from = Image(in.b);
  const uint64_t r0 = static_cast<uint64_t>(row), c0 = static_cast<uint64_t>(col);
  const uint64_t n_rows = std::min(to.RowsInside(r0, src.valid_rows),
                                   from.RowsInside(0, src.valid_rows));
  const uint64_t n_cols = std::min(to.ColsInside(c0, src.valid_cols),
                                   from.ColsInside(0, src.valid_cols));
  if (in.imm != 1) {
    CopyRegion(to.layout, to.data, to.row + r0, to.col + c0, from.layout, from.data, from.row,
               from.col, n_rows, n_cols, pto_dtype_size(dt.dtype));
    return PTO_OK;
  }
  const uint64_t out_size = pto_dtype_size(dt.dtype);
  for (uint64_t i = 0; i < n_rows; ++i)
    for (uint64_t j = 0; j < n_cols; ++j)
      fixpipe::CastElement(
          from.data + ElementOffset(from.layout, from.row + i, from.col + j) * sizeof(float),
          dt.dtype, to.data + ElementOffset(to.layout, to.row + r0 + i, to.col + c0 + j) * out_size);
  return PTO_OK;
}

pto_status CubeExec::CubeMove(const Instr& in) {
  if (in.sub == 4) return FixpipeMove(in);
  if (in.sub == 3) return CubeInsert(in);
  const Type& st = p_.tiles[in.b].type;
  const Type& dt = p_.tiles[in.a].type;
  pto_tile& dst = tiles_[in.a];
  if (in.sub == 2) {  // tfillpad in place on a mat tile: the pad outside the valid region
    uint64_t pad = 0;
    pto_tile one = dst;
    one.rows = one.cols = 1;
    one.data = &pad;
    if (dt.pad != PTO_PAD_NULL && dt.pad != PTO_PAD_ZERO) ops::FillPad(&one, 0, 0, 1, 1, dt.pad);
    const TileImage image = Image(in.a);
    const uint64_t vr = dst.valid_rows, vc = dst.valid_cols, size = pto_dtype_size(dt.dtype);
    if (vc < dt.cols)
      FillRegion(image.layout, image.data, image.row, image.col + vc, image.RowsInside(0, vr),
                 image.ColsInside(vc, dt.cols - vc), &pad, size);
    if (vr < dt.rows)
      FillRegion(image.layout, image.data, image.row + vr, image.col,
                 image.RowsInside(vr, dt.rows - vr), image.ColsInside(0, dt.cols), &pad, size);
    return PTO_OK;
  }
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
  const uint64_t n_rows = std::min(to.RowsInside(0, rows), from.RowsInside(r0, rows));
  const uint64_t n_cols = std::min(to.ColsInside(0, cols), from.ColsInside(c0, cols));
  if (in.imm == 1) {  // the fixpipe's cast (F322F16, F322BF16), element by element
    const uint64_t out_size = pto_dtype_size(dt.dtype);
    for (uint64_t i = 0; i < n_rows; ++i)
      for (uint64_t j = 0; j < n_cols; ++j)
        fixpipe::CastElement(
            from.data + ElementOffset(from.layout, from.row + i, from.col + j) * sizeof(float),
            dt.dtype, to.data + ElementOffset(to.layout, to.row + i, to.col + j) * out_size);
    return PTO_OK;
  }
  if (in.imm == 2) {  // a mat f16 / bf16 row widened into an f32 bias row, each value exact
    for (uint64_t j = 0; n_rows != 0 && j < n_cols; ++j) {
      uint16_t bits;
      memcpy(&bits, from.data + ElementOffset(from.layout, from.row, from.col + j) * 2, 2);
      const float value = static_cast<float>(HalfBitsToDouble(bits, st.dtype));
      memcpy(to.data + ElementOffset(to.layout, to.row, to.col + j) * sizeof(float), &value,
             sizeof value);
    }
    return PTO_OK;
  }
  CopyRegion(to.layout, to.data, to.row, to.col, from.layout, from.data, from.row + r0,
             from.col + c0, n_rows, n_cols, pto_dtype_size(dt.dtype));
  return PTO_OK;
}

// The matrix multiply: the row's check, which decides the rules a dynamic
// valid region leaves to run time and reserves this thread's staging for
// operands in a fractal layout, then its run, which multiplies row-major
// copies of the valid regions and writes dst's back in its layout.
pto_status CubeExec::Matmul(const Instr& in) {
  ops::OperandsExt ext;
  const ops::Operands o = MatmulOperands(in, tiles_.data(), &ext);
  const pto_status status = in.op->check(o, p_.profile);
  if (status != PTO_OK) return Error(in, status, LastError());
  if (o.dst->valid_rows != 0 && o.dst->valid_cols != 0) in.op->run(o, p_.profile);
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
