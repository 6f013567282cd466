// The executor's instructions on global memory: scalar loads and stores,
// views and partitions (bounds checked against the bound memory), tload and
// tstore, tile subviews and pto.tprint.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "board.h"
#include "checked.h"
#include "comm.h"
#include "dtype_rules.h"
#include "float_scalars.h"
#include "low_precision.h"
#include "ops/ops.h"
#include "program/ir/types.h"
#include "program/run/block.h"
#include "tile.h"

namespace pto {
namespace program {

// One element of global memory, after the bounds check.
pto_status Block::ScalarAccess(const Instr& in, bool load) {
  const Binding& ptr = pointers_[in.b];
  const int64_t i = ints_[in.c];
  const char* what = load ? "pto.load_scalar" : "pto.store_scalar";
  if (i < 0 || i >= ptr.count)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 std::string(what) + ": element " + std::to_string(i) + " of " +
                     PointerName(in.b) + ", which holds " + std::to_string(ptr.count) +
                     " elements");
  const pto_dtype d = static_cast<pto_dtype>(in.d);
  char* at = ptr.data + static_cast<size_t>(i) * pto_dtype_size(d);
  // Another rank's element: read into, or written from, a local copy.
  char peer_copy[8];
  char* const element = at;
  if (ptr.peer) {
    at = peer_copy;
    if (load) {
      const pto_status s = comm_.PeerAccess(in, element, at, pto_dtype_size(d), true);
      if (s != PTO_OK) return s;
    }
  }
  const pto_status done = ScalarValue(in, load, d, at);
  if (ptr.peer && !load) return comm_.PeerAccess(in, element, at, pto_dtype_size(d), false);
  return done;
}

// A scalar access's value: floats_ or ints_[in.a] from or to `at`.
pto_status Block::ScalarValue(const Instr& in, bool load, pto_dtype d, char* at) {
  if (in.sub != 0) {
    double& v = floats_[in.a];
    if (d == PTO_FLOAT32) {
      float x;
      if (load) memcpy(&x, at, 4), v = x;
      else x = static_cast<float>(v), memcpy(at, &x, 4);
    } else {
      uint16_t bits;
      if (load) memcpy(&bits, at, 2), v = HalfBitsToDouble(bits, d);
      else bits = DoubleToHalfBits(v, d), memcpy(at, &bits, 2);
    }
    return PTO_OK;
  }
  int64_t& v = ints_[in.a];
  const size_t size = pto_dtype_size(d);
  if (load) {
    uint64_t raw = 0;
    memcpy(&raw, at, size);  // little-endian; iN registers are signless
    v = Wrap(raw, 8 * static_cast<unsigned>(size));
  } else {
    const uint64_t raw = static_cast<uint64_t>(v);
    memcpy(at, &raw, size);
  }
  return PTO_OK;
}

namespace {

// base moved by offset elements of size bytes, in unsigned arithmetic;
// nullptr where the address would wrap around.
char* MovedAddress(char* base, int64_t offset, size_t size) {
  const uint64_t steps = offset < 0 ? 0 - static_cast<uint64_t>(offset) : static_cast<uint64_t>(offset);
  const uintptr_t at = reinterpret_cast<uintptr_t>(base);
  if (steps > UINTPTR_MAX / size || (offset < 0 ? steps * size > at : steps * size > UINTPTR_MAX - at))
    return nullptr;
  return reinterpret_cast<char*>(offset < 0 ? at - steps * size : at + steps * size);
}

// pto.addptr's refusal of a pointer moved from rank's window to `to`.
std::string RefusedMove(const std::string& pointer, int64_t offset, int32_t rank, const char* to) {
  std::string reason;
  comm::InOneWindow(to, 1, &reason);
  return "pto.addptr: offset " + std::to_string(offset) + " moves " + pointer + " from rank " +
         std::to_string(rank) + "'s window to an address no window holds: " + reason;
}

}  // namespace

// The pointer moved by an element offset: the same memory, from that
// element on (an offset past its end names no element).
// pto.addptr from a buffer in a rank's window to the same buffer in another
// rank's window (PyPTO's CommRemoteOffset: the difference of two window
// bases, negative as often as not): allowed where both addresses lie in
// windows (pto_comm.h) at offsets that keep the pointer inside the buffer's
// copy there; the moved pointer is then that rank's memory. A move the
// transport refuses (an address standing for no rank) is an error here.
bool Block::WindowMove(const Instr& in, pto_status* status) {
  const Binding& base = pointers_[in.b];
  const int64_t size = static_cast<int64_t>(pto_dtype_size(static_cast<pto_dtype>(in.d)));
  const comm::Target from = comm::Resolve(base.data, 1);
  char* to_address = MovedAddress(base.data, ints_[in.c], static_cast<size_t>(size));
  if (from.rank < 0 || to_address == nullptr) return false;
  const comm::Target to = comm::Resolve(to_address, 1);
  if (to.rank == comm::kRefused)
    return *status = Error(in, PTO_ERR_OUT_OF_RANGE,
                           RefusedMove(PointerName(in.b), ints_[in.c], from.rank, to_address)), true;
  if (to.rank < 0 || to.rank == from.rank) return false;
  const int64_t delta = static_cast<int64_t>(to.offset - from.offset), moved = delta / size;
  if (moved < 0 || moved > base.count || delta % size != 0) return false;
  Binding& result = pointers_[in.a];
  result = base;
  result.data = to_address;
  result.count = base.count - moved;
  result.peer = to.rank != comm::Rank();
  return *status = PTO_OK, true;
}

pto_status Block::AddPtr(const Instr& in) {
  const Binding& base = pointers_[in.b];
  const int64_t offset = ints_[in.c];
  pto_status window_move = PTO_OK;  // into another rank's window, or refused
  if ((offset < 0 || offset > base.count) && p_.uses_comm && WindowMove(in, &window_move))
    return window_move;
  if (offset < 0 || offset > base.count)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 "pto.addptr: offset " + std::to_string(offset) + " is outside " +
                     PointerName(in.b) + ", which holds " + std::to_string(base.count) +
                     " elements");
  Binding& moved = pointers_[in.a];
  moved = base;
  moved.data = base.data + static_cast<size_t>(offset) * pto_dtype_size(static_cast<pto_dtype>(in.d));
  moved.count = base.count - offset;
  return PTO_OK;
}

// One element of a local array (in.c: an event-id array): the registers
// from in.b, row-major over its dims, each index checked against its
// dimension.
pto_status Block::ArrayAccess(const Instr& in, bool get) {
  const uint32_t* indices = &p_.lists[in.extra];
  const uint32_t* dims = indices + in.rank;
  uint64_t element = 0;
  for (uint32_t i = 0; i < in.rank; ++i) {
    const int64_t index = ints_[indices[i]];
    if (index < 0 || index >= static_cast<int64_t>(dims[i]))
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   std::string(in.c != 0 ? "pto.eventid_array_" : "pto.local_array_") +
                       (get ? "get" : "set") + ": index " +
                       std::to_string(index) + " of dimension " + std::to_string(i) +
                       " is outside 0.." + std::to_string(dims[i] - 1));
    element = element * dims[i] + static_cast<uint64_t>(index);
  }
  const size_t at = in.b + element;
  if (in.sub != 0) {
    if (get) floats_[in.a] = floats_[at];
    else floats_[at] = floats_[in.a];
  } else {
    if (get) ints_[in.a] = ints_[at];
    else ints_[at] = ints_[in.a];
  }
  return PTO_OK;
}

pto_status Block::MakeView(const Instr& in) {
  const Binding& ptr = pointers_[in.b];
  View& v = views_[in.a];
  v.pointer = in.b;
  v.rank = in.rank;
  v.offset = 0;
  // in.sub 1: the view of a memref parameter (no make_tensor_view in the text).
  const std::string what = in.sub == 1 ? "the memref parameter" : "pto.make_tensor_view";
  // The last element the view reaches must be inside the bound memory.
  int64_t last = 0, reach = 0;
  bool empty = false, beyond = false;
  for (uint32_t i = 0; i < in.rank; ++i) {
    v.shape[i] = ints_[p_.lists[in.extra + i]];
    v.strides[i] = ints_[p_.lists[in.extra + in.rank + i]];
    if (v.shape[i] < 0 || v.strides[i] < 0)
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   what + ": dimension " + std::to_string(i) + " has shape " +
                       std::to_string(v.shape[i]) + " and stride " + std::to_string(v.strides[i]) +
                       ": both must be >= 0");
    if (v.shape[i] == 0)
      empty = true;
    else if (!MulFits(v.shape[i] - 1, v.strides[i], &reach) || !AddFits(last, reach, &last))
      beyond = true;
  }
  if (!empty && (beyond || last >= ptr.count))
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 what + ": the view reaches element " +
                     (beyond ? std::string("beyond 2^63") : std::to_string(last)) +
                     " of " + PointerName(in.b) + ", which holds " + std::to_string(ptr.count) +
                     " elements");
  return PTO_OK;
}

namespace {

// Adds the first and the last element of [offset, offset + size) (size >
// 0) along a dimension of `stride` to *first and *last; false where a sum
// or product does not fit int64_t (past every binding).
bool AddStridedSpan(int64_t stride, int64_t offset, int64_t size, int64_t* first, int64_t* last) {
  int64_t end, to_first, to_last;
  return AddFits(offset, size - 1, &end) && MulFits(stride, offset, &to_first) &&
         MulFits(stride, end, &to_last) && AddFits(*first, to_first, first) &&
         AddFits(*last, to_last, last);
}

}  // namespace

// Whether every element of the partition `in` takes of view `src` (offsets
// and sizes >= 0) lies inside the memory bound to the view's pointer: in
// board mode a window past its view is run where it is (a partition is a
// pointer offset on the NPU, unchecked), never past the memory.
bool Block::WindowInMemory(const Instr& in, const View& src) const {
  int64_t first = src.offset, last = first;
  for (uint32_t i = 0; i < src.rank; ++i) {
    const int64_t offset = i < in.rank ? ints_[p_.lists[in.extra + i]] : 0;
    const int64_t size = i < in.rank ? ints_[p_.lists[in.extra + in.rank + i]] : src.shape[i];
    if (offset < 0 || size < 0 || src.offset < 0) return false;
    if (size == 0) return true;  // no element
    if (!AddStridedSpan(src.strides[i], offset, size, &first, &last)) return false;
  }
  return first <= last && last < pointers_[src.pointer].count;
}

bool Block::BoardWarns(const Instr& in, const std::string& message) {
  if (!BoardRelaxes(p_.profile)) return false;
  const std::string line = p_.source_name + ":" + std::to_string(in.loc.line) + ":" +
                           std::to_string(in.loc.col) + ": warning: board mode: " + message;
  BoardWarnMessage(line.c_str());
  return true;
}

// Written field by field into its register: a kernel takes a partition per
// tile in its loop, and a copy of the whole View through the stack stalls
// there on store forwarding.
pto_status Block::PartitionView(const Instr& in) {
  const View& src = views_[in.b];
  View& v = views_[in.a];
  int64_t element = src.offset;
  for (uint32_t i = 0; i < in.rank; ++i) {
    const int64_t offset = ints_[p_.lists[in.extra + i]];
    const int64_t size = ints_[p_.lists[in.extra + in.rank + i]];
    if (offset < 0 || size < 0 || offset > src.shape[i] - size) {
      int64_t end;
      const std::string sentence = "pto.partition_view: [" + std::to_string(offset) + ", " +
                                   (AddFits(offset, size, &end) ? std::to_string(end) : "2^63+") +
                                   ") of dimension " + std::to_string(i) + " is outside the view's " +
                                   std::to_string(src.shape[i]);
      if (offset < 0 || size < 0 || !WindowInMemory(in, src) || !BoardWarns(in, sentence))
        return Error(in, PTO_ERR_OUT_OF_RANGE, sentence);
    }
    element += offset * src.strides[i];
  }
  if (&v != &src) {
    v.pointer = src.pointer;
    v.rank = src.rank;
    for (uint32_t i = 0; i < src.rank; ++i) {
      v.strides[i] = src.strides[i];
      if (i >= in.rank) v.shape[i] = src.shape[i];
    }
  }
  for (uint32_t i = 0; i < in.rank; ++i) v.shape[i] = ints_[p_.lists[in.extra + in.rank + i]];
  v.offset = element;
  // Leading dimensions of 1 the result's type adds (sub of them).
  if (in.sub != 0) {
    for (int i = static_cast<int>(v.rank) - 1; i >= 0; --i) {
      v.shape[i + in.sub] = v.shape[i];
      v.strides[i + in.sub] = v.strides[i];
    }
    for (uint32_t i = 0; i < in.sub; ++i) v.shape[i] = 1, v.strides[i] = 0;
    v.rank += in.sub;
  }
  return PTO_OK;
}

// Whether the tile's valid region fits in the view's elements.
pto_status Block::TransferFits(const Instr& in, bool load) {
  const View& v = views_[in.b];
  const pto_tile& t = tiles_[in.a];
  int64_t outer = 1;
  for (uint32_t i = 0; i + 1 < v.rank; ++i) outer = SaturatedMul(outer, v.shape[i]);
  const int64_t inner = v.shape[v.rank - 1];
  if (outer >= t.valid_rows && inner >= t.valid_cols) return PTO_OK;
  return Error(in, PTO_ERR_SHAPE_MISMATCH,
               std::string(load ? "pto.tload" : "pto.tstore") + ": the tile's valid region " +
                   std::to_string(t.valid_rows) + "x" + std::to_string(t.valid_cols) +
                   " does not fit in the view's " + std::to_string(outer) + "x" +
                   std::to_string(inner) + " elements");
}

// tload / tstore of a tile's valid region: the view's last dimension runs
// along a row, the others, flattened, over the rows; the region is the
// window at the view's first row and column. A load into a tile whose type
// has a pad value writes it over the rest of the tile (as TFILLPAD).
pto_status Block::Transfer(const Instr& in, bool load) {
  if (p_.tiles[in.a].type.IsCube() || in.sub != 0) {
    if (pointers_[views_[in.b].pointer].peer)
      return comm_.PeerAccessError(in, views_[in.b].pointer, load ? "pto.tload" : "pto.tstore");
    return cube_.CubeTransfer(in, load);
  }
  const pto_status fits = TransferFits(in, load);
  if (fits != PTO_OK) return fits;
  const View& v = views_[in.b];
  pto_tile& t = tiles_[in.a];
  const int64_t cols = t.valid_cols;
  const size_t size = pto_dtype_size(t.dtype);
  char* memory = pointers_[v.pointer].data;
  // Another rank's memory goes through the comm transport (pto_comm.h).
  const bool peer = pointers_[v.pointer].peer;
  pto_status status = PTO_OK;
  auto move = [&](char* local, char* global, size_t bytes) {
    if (peer) {
      if (status == PTO_OK) status = comm_.PeerAccess(in, global, local, bytes, load);
    } else if (load) {
      memcpy(local, global, bytes);
    } else {
      memcpy(global, local, bytes);
    }
  };
  ForEachViewRow(v, t.valid_rows, [&](int64_t r, int64_t element, int64_t col_stride) {
    char* row = static_cast<char*>(t.data) + static_cast<size_t>(r) * t.cols * size;
    char* global = memory + static_cast<size_t>(element) * size;
    if (col_stride == 1) {
      move(row, global, static_cast<size_t>(cols) * size);
    } else {
      for (int64_t c = 0; c < cols; ++c)
        move(row + c * size, global + static_cast<size_t>(c * col_stride) * size, size);
    }
  });
  if (status != PTO_OK) return status;
  const Type& type = p_.tiles[in.a].type;
  if (load && type.pad != PTO_PAD_NULL) {
    // The tile's own rows x cols (a subview's window, not its parent's rows).
    ops::FillPad(&t, t.valid_rows, t.valid_cols, type.rows, type.cols, type.pad);
  }
  return PTO_OK;
}

// A subview's tile: the parent's storage from the offsets on, with the
// parent's rows (its cols are the parent's row pitch), after the checks the
// verifier could not make; a cube tile's, its root's image with the
// window's corner (Image).
pto_status Block::Subview(const Instr& in) {
  const pto_tile& parent = tiles_[in.b];
  pto_tile& view = tiles_[in.a];
  const TileSlot& ps = p_.tiles[in.b];
  const TileSlot& vs = p_.tiles[in.a];
  const int64_t r = ints_[in.c], c = ints_[in.d];
  const SubviewRule rule = static_cast<SubviewRule>(in.sub);
  const char* what = rule == SubviewRule::kPeriodic ? "pto.subset" : "pto.subview";
  if (r < 0 || c < 0)
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 std::string(what) + ": offset " + std::to_string(r < 0 ? r : c) +
                     " is negative");
  int64_t valid_rows = view.valid_rows, valid_cols = view.valid_cols;
  const auto inside = SignedSpanInside;  // [r, r + n) in [0, bound), no sum that wraps
  // A vec tile's window lies inside its parent; a cube tile's valid region
  // does (checked below), the rest of the window may reach past it.
  if (rule != SubviewRule::kOwn && !vs.type.IsCube() &&
      (!inside(r, vs.type.rows, ps.type.rows) || !inside(c, vs.type.cols, ps.type.cols)))
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 std::string(what) + ": the " + std::to_string(vs.type.rows) + "x" +
                     std::to_string(vs.type.cols) + " window at [" + std::to_string(r) + ", " +
                     std::to_string(c) + "] is outside %" + ps.name + "'s " +
                     std::to_string(ps.type.rows) + "x" + std::to_string(ps.type.cols));
  if (rule == SubviewRule::kPeriodic) {
    auto periodic = [](int64_t parent_valid, int64_t offset, int64_t size) -> int64_t {
      if (parent_valid <= 0) return 0;
      const int64_t left = parent_valid - offset % parent_valid;
      return left < size ? left : size;
    };
    valid_rows = vs.type.valid_rows != kDynamic ? vs.type.valid_rows
                                                : periodic(parent.valid_rows, r, vs.type.rows);
    valid_cols = vs.type.valid_cols != kDynamic ? vs.type.valid_cols
                                                : periodic(parent.valid_cols, c, vs.type.cols);
  } else if (rule == SubviewRule::kSized) {
    if (in.imm == 1) {
      valid_rows = ints_[in.index_regs[0]];
      valid_cols = ints_[in.index_regs[1]];
    }
    if (valid_rows < 0 || valid_rows > vs.type.rows || valid_cols < 0 ||
        valid_cols > vs.type.cols)
      return Error(in, PTO_ERR_SHAPE_MISMATCH,
                   std::string(what) + ": valid region " + std::to_string(valid_rows) + "x" +
                       std::to_string(valid_cols) + " is outside the " +
                       std::to_string(vs.type.rows) + "x" + std::to_string(vs.type.cols) +
                       " window");
  } else if (!inside(r, valid_rows, parent.valid_rows) || !inside(c, valid_cols, parent.valid_cols)) {
    return Error(in, PTO_ERR_OUT_OF_RANGE,
                 std::string(what) + ": dst's valid region " + std::to_string(valid_rows) + "x" +
                     std::to_string(valid_cols) + " at [" + std::to_string(r) + ", " +
                     std::to_string(c) + "] is outside src's valid region " +
                     std::to_string(parent.valid_rows) + "x" + std::to_string(parent.valid_cols));
  }
  if (vs.type.IsCube()) {
    // The window's valid region inside its parent and inside the root image
    // (whose own windows may reach past it).
    const TileImage image = cube_.Image(in.b);
    if (!inside(r, valid_rows, ps.type.rows) || !inside(c, valid_cols, ps.type.cols) ||
        image.RowsInside(static_cast<uint64_t>(r), static_cast<uint64_t>(valid_rows)) !=
            static_cast<uint64_t>(valid_rows) ||
        image.ColsInside(static_cast<uint64_t>(c), static_cast<uint64_t>(valid_cols)) !=
            static_cast<uint64_t>(valid_cols))
      return Error(in, PTO_ERR_OUT_OF_RANGE,
                   std::string(what) + ": the valid region " + std::to_string(valid_rows) + "x" +
                       std::to_string(valid_cols) + " of the window at [" + std::to_string(r) +
                       ", " + std::to_string(c) + "] is outside %" + ps.name + "'s " +
                       std::to_string(ps.type.rows) + "x" + std::to_string(ps.type.cols));
  }
  view.dtype = parent.dtype;
  view.rows = vs.type.rows;
  view.valid_rows = static_cast<uint32_t>(valid_rows);
  view.valid_cols = static_cast<uint32_t>(valid_cols);
  if (vs.type.IsCube()) {
    // A window of the root's image, whose layout places its elements.
    view.cols = vs.type.cols;
    view.data = parent.data;
    view.image_rows = parent.image_rows;
    view.image_cols = parent.image_cols;
    view.origin_row = parent.origin_row + static_cast<uint32_t>(r);
    view.origin_col = parent.origin_col + static_cast<uint32_t>(c);
    return PTO_OK;
  }
  view.cols = view.image_cols = parent.cols;
  view.image_rows = view.rows;
  view.data = static_cast<char*>(parent.data) +
              (static_cast<size_t>(r) * parent.cols + static_cast<size_t>(c)) *
                  pto_dtype_size(parent.dtype);
  view.buffer = parent.buffer;
  view.offset = parent.offset + (static_cast<size_t>(r) * parent.cols + c) *
                                    pto_dtype_size(parent.dtype);
  return PTO_OK;
}

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
    case Code::kTileOp: *name = in.op->mnemonic; return in.slot[Role::kDst];
    case Code::kLoad: *name = "tload"; return in.a;
    case Code::kStore: *name = "tstore"; return in.a;
    case Code::kTsel: *name = "tsel"; return in.slot[Role::kDst];
    case Code::kMrgSortLists: *name = "tmrgsort"; return in.slot[Role::kDst];
    case Code::kRandom: *name = "trandom"; return in.a;
    case Code::kQuantMx: *name = "tquant.mx"; return in.slot[Role::kDst];
    case Code::kMxZzMove: *name = "tmov"; return in.a;
    case Code::kGlobalIndex:
      if (in.sub != 0) return kNoSlot;
      *name = "mgather";
      return in.a;
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
