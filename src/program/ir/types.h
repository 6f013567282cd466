// The types of PTO assembly: tiles (!pto.tile_buf in PTOAS's keyword and
// compact spellings, !pto.tile of the synchronous and SSA forms), global
// memory (!pto.ptr, !pto.tensor_view, !pto.partition_tensor_view) and the
// builtin scalars (index, iN, fN).
#ifndef PTO_PROGRAM_IR_TYPES_H_
#define PTO_PROGRAM_IR_TYPES_H_

#include <stdint.h>

#include <string>
#include <string_view>

#include "fractal.h"
#include "pto_c.h"

namespace pto {
namespace program {

// A position in the text (1-based line and column).
struct SourceLoc {
  uint32_t line = 1;
  uint32_t col = 1;
};

constexpr int kMaxRank = 8;
// The most elements of a pto.declare_local_array (registers of the block).
constexpr int64_t kMostLocalArrayElements = 65536;
constexpr int64_t kDynamic = -1;

enum class TypeKind : uint8_t {
  kNone,
  kIndex,
  kInt,    // bits: 1, 8, 16, 32, 64
  kFloat,  // dtype FLOAT16/BFLOAT16/FLOAT32, or bits 64 for f64
  kPtr,
  kTensorView,
  kPartitionView,
  kTile,
  kLocalArray,  // pto.declare_local_array's: rank, dims and an element dtype
  kVector,      // MLIR's vector<4xi16>: rank, dims and an element dtype (tmrgsort's executed)
  kHandle,      // an opaque handle of PTOAS's asynchronous prefetch: a Handle in bits
};

// The handles of PTOAS's prefetch into the L2 cache (!pto.prefetch_async_context,
// !pto.async_session, !pto.async_event): values that hold nothing here.
enum class Handle : uint8_t { kPrefetchContext, kAsyncSession, kAsyncEvent };

// Where a tile lives: the unified buffer (vec) or one of the cube's memories
// (PTOAS's address spaces: mat L1, left L0A, right L0B, acc L0C, bias BT,
// scaling FB), each a byte arena of its own.
enum class Space : uint8_t { kVec, kMat, kLeft, kRight, kAcc, kBias, kScaling };
constexpr int kSpaceCount = 7;
const char* SpaceSpelling(Space s);  // "vec", "mat", ...

// A tile's slayout: pto::Box (fractal.h).

struct Type {
  TypeKind kind = TypeKind::kNone;
  uint8_t bits = 0;           // kInt, kIndex (64), kFloat (16/32/64)
  pto_dtype dtype = PTO_INT8;  // element type of pointers, views and tiles; kFloat's format
  // Tiles: shape and valid region (kDynamic: `?`, set at run time).
  uint32_t rows = 0, cols = 0;
  int64_t valid_rows = 0, valid_cols = 0;
  // Tiles: the pad value (a pto_pad_value: tile_buf `pad=`), which
  // tfillpad writes; 0 (null) unless the type says otherwise.
  uint8_t pad = 0;
  // Tiles: the memory and the layout (blayout col_major, slayout, fractal
  // size in bytes); vec tiles are row-major without boxes (a one-row or
  // one-column col_major tile has the same bytes), or boxed (IsBoxedVec).
  Space space = Space::kVec;
  bool col_major = false;
  Box box = Box::kNone;
  uint16_t fractal = 512;
  // Tiles: tile_buf `compact=` (pto-isa's CompactMode: 0 null, 1 normal, 2
  // row_plus_one). Only row_plus_one changes what is accepted: an NZ tile
  // of 16k+1 rows (CheckLayout).
  uint8_t compact = 0;
  // A vec tile written ZZ of one-byte elements: MX scale exponents in
  // TMOV's X-to-ZZ order, its bytes row-major (box kNone).
  bool mx_zz = false;
  // Views: rank and static dims (kDynamic: `?`).
  uint8_t rank = 0;
  // A view written as PTOAS's older `memref<...>` in global memory: as an
  // entry parameter, an array of its shape (a pointer and a view of it whole);
  // a tile written as a memref in vec (SameType ignores it).
  bool memref = false;
  // A local array written as PTOAS's `!pto.eventid_array<N>`: N event ids
  // (index values) of manual synchronisation.
  bool eventids = false;
  int64_t dims[kMaxRank] = {};

  bool IsInteger() const { return kind == TypeKind::kInt || kind == TypeKind::kIndex; }
  // A tile of the cube's memories, whose bytes are its layout's image.
  bool IsCube() const { return kind == TypeKind::kTile && space != Space::kVec; }
  // A vec tile laid out in boxes (NZ, ZN, ...): its bytes are its layout's
  // image, as a cube tile's; only tmov and the pipes take one.
  bool IsBoxedVec() const {
    return kind == TypeKind::kTile && space == Space::kVec && box != Box::kNone;
  }
  bool HasDynamicValid() const { return valid_rows == kDynamic || valid_cols == kDynamic; }
};

bool SameType(const Type& a, const Type& b);
// Whether t is the scalar type of an element of dtype d: the float type
// itself, or the signless integer of its width.
bool IsElementTypeOf(const Type& t, pto_dtype d);
// How the type is written, for messages ("index", "i32", "tile 16x16xf32", ...).
std::string TypeString(const Type& t);

// The element type spelled as PTOAS spells it: f32 f16 bf16 i8 i16 i32 ui8
// ui16 ui32 (si8 si16 si32 as i8 i16 i32). False for anything else.
bool ParseDtype(std::string_view s, pto_dtype* out);
const char* DtypeSpelling(pto_dtype d);

// A builtin scalar type name (index, i1..i64, f16, bf16, f32, f64).
bool ParseScalarType(std::string_view name, Type* out);
// A handle type's name (!pto.async_event, ...).
bool ParseHandleType(std::string_view name, Type* out);
bool IsHandle(const Type& t, Handle h);

// A !pto.* type token's text. On failure returns false with a sentence in
// *error and, in *error_offset, the byte offset in `text` it is about.
bool ParsePtoType(std::string_view text, Type* out, std::string* error, size_t* error_offset);

// A program tile's layout: row-major for vec tiles, and for the cube's tiles
// the layout their type names (blayout, slayout, fractal), whose offsets
// fractal.h computes.

// The layout of t (fractal.h), its boxes of t's fractal size.
inline Layout LayoutOf(const Type& t) {
  return MakeLayout(t.dtype, t.rows, t.cols, t.col_major, t.box, t.fractal);
}

// Whether t's elements lie row-major, as a vec tile's (and a C tile's) do.
inline bool IsRowMajor(const Type& t) {
  return t.box == Box::kNone && (!t.col_major || t.rows == 1 || t.cols == 1);
}

// The memory of t as the C API names it (pto_location; Space lists the
// same memories in the same order).
inline pto_location LocationOf(const Type& t) {
  static_assert(static_cast<int>(Space::kScaling) == PTO_LOC_SCALING, "Space follows pto_location");
  return static_cast<pto_location>(t.space);
}

// t's box order and the order inside a box as the C API names them
// (pto_layout): ND for a tile without boxes (a DN vec tile is one row or
// column, the same bytes). With the boxes of C's tiles in its memory (1024
// bytes in acc, 512 elsewhere), which every operand of a matrix multiply has
// (parse/core_cube.cc), TileLayout then places each element as LayoutOf(t)
// does; a mat tile of 1024-byte boxes or DN has no such name, and is read
// through its type only (Block::Image): no row takes a mat tile from a
// program.
inline pto_layout PtoLayoutOf(const Type& t) {
  if (t.box == Box::kNone) return PTO_LAYOUT_ND;
  if (t.box == Box::kRowMajor) return t.col_major ? PTO_LAYOUT_NZ : PTO_LAYOUT_ZZ;
  return t.col_major ? PTO_LAYOUT_NN : PTO_LAYOUT_ZN;
}

// The layout's name as pto-isa's pages write it (NZ, ZN, ZZ, NN, ND, DN).
inline const char* LayoutName(const Type& t) {
  if (t.box == Box::kNone) return t.col_major ? "DN" : "ND";
  if (t.box == Box::kRowMajor) return t.col_major ? "NZ" : "ZZ";
  return t.col_major ? "NN" : "ZN";
}

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_IR_TYPES_H_
