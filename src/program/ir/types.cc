#include "program/ir/types.h"
#include "program/ir/types_layout.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include <stdio.h>

#include <vector>

#include "dtype_rules.h"

namespace pto {
namespace program {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A piece of the body with its offset in the whole token text.
struct Field {
  std::string_view text;
  size_t offset;
};

class BodyParser {
 public:
  BodyParser(std::string_view text, std::string* error, size_t* error_offset)
      : text_(text), error_(error), error_offset_(error_offset) {}

  bool Fail(const Field& f, std::string message) { return Fail(f.offset, std::move(message)); }
  bool Fail(size_t offset, std::string message) {
    *error_ = std::move(message);
    *error_offset_ = offset;
    return false;
  }

  // Splits "<a, b, c>" into trimmed fields; false if there is no body.
  bool Split(std::vector<Field>* fields) {
    const size_t open = text_.find('<');
    if (open == std::string_view::npos || text_.back() != '>')
      return Fail(size_t{0}, "expected '<' after the type name");
    std::string_view body = text_.substr(open + 1, text_.size() - open - 2);
    size_t at = open + 1;
    for (;;) {
      const size_t comma = body.find(',');
      std::string_view piece = body.substr(0, comma);
      size_t skip = 0;
      while (skip < piece.size() && (piece[skip] == ' ' || piece[skip] == '\t' ||
                                     piece[skip] == '\n' || piece[skip] == '\r'))
        ++skip;
      fields->push_back({Trim(piece), at + skip});
      if (comma == std::string_view::npos) break;
      body.remove_prefix(comma + 1);
      at += comma + 1;
    }
    return true;
  }

  std::string_view text_;
  std::string* error_;
  size_t* error_offset_;
  std::string* error = error_;
};


// Why the element type s (`what`: "element type", "dtype", ...) is refused.
// PTOAS's paired hif8 (two values in 16 bits) has no dtype.
std::string UnsupportedElement(const char* what, std::string_view s) {
  return std::string(what) + " '" + std::string(s) +
         "' is not supported (f32, f16, bf16, i8, i16, i32, i64, ui8, ui16, ui32, ui64, "
         "f8E4M3FN, f8E5M2, !pto.hif8, !pto.f8E8M0, !pto.f4E2M1x2, !pto.f4E1M2x2, !pto.i4x2)";
}

// A valid dimension: an integer, `?` or -1 (dynamic).
bool ParseValidDim(std::string_view s, int64_t* out) {
  if (s == "?") {
    *out = kDynamic;
    return true;
  }
  return ParseInt(s, out) && *out >= -1;
}

// "16x64xf32" (dims then the element type) or "1x255" (dims only, dtype
// false). Dims may be `?` where allow_dynamic.
bool ParseShape(std::string_view s, bool with_dtype, bool allow_dynamic, std::vector<int64_t>* dims,
                pto_dtype* dtype, std::string* what) {
  std::vector<std::string_view> parts;
  // The dims are the parts before an 'x' that start with a digit, '?' or
  // '-'; the element type is the rest, which may hold an 'x' itself
  // (!pto.f4E2M1x2).
  for (;;) {
    const size_t x = s.find('x');
    const bool dim_next = !s.empty() && (isdigit(static_cast<unsigned char>(s[0])) ||
                                         s[0] == '?' || s[0] == '-');
    if (x == std::string_view::npos || (with_dtype && !dim_next)) {
      parts.push_back(s);
      break;
    }
    parts.push_back(s.substr(0, x));
    s.remove_prefix(x + 1);
  }
  if (with_dtype) {
    if (parts.size() < 2) {
      *what = "expected a shape and an element type such as 16x16xf32";
      return false;
    }
    const std::string_view elem = parts.back();
    parts.pop_back();
    if (!ParseDtype(elem, dtype)) {
      *what = UnsupportedElement("element type", elem);
      return false;
    }
  }
  for (std::string_view p : parts) {
    int64_t v;
    if (p == "?" && allow_dynamic) {
      v = kDynamic;
    } else if (!ParseInt(p, &v) || v < 0) {
      *what = "'" + std::string(p) + "' is not a dimension";
      return false;
    }
    dims->push_back(v);
  }
  return true;
}

// The value of valid=ROWSxCOLS (each an integer or ?).
bool ParseValidValue(std::string_view value, Type* t) {
  const size_t x = value.find('x');
  return x != std::string_view::npos && ParseValidDim(Trim(value.substr(0, x)), &t->valid_rows) &&
         ParseValidDim(Trim(value.substr(x + 1)), &t->valid_cols);
}

bool CheckTileShape(Type* t, std::string* what) {
  if (t->rows == 0 || t->cols == 0) {
    *what = "a tile needs rows and cols of at least 1";
    return false;
  }
  const uint64_t bytes = uint64_t{t->rows} * t->cols * pto_dtype_size(t->dtype);
  if (bytes > PTO_TILE_MAX_BYTES) {
    *what = "a tile of " + std::to_string(t->rows) + "x" + std::to_string(t->cols) +
            " elements is larger than PTO_TILE_MAX_BYTES";
    return false;
  }
  if (t->valid_rows > int64_t{t->rows} || t->valid_cols > int64_t{t->cols}) {
    *what = "valid region " + std::to_string(t->valid_rows) + "x" + std::to_string(t->valid_cols) +
            " exceeds the tile's " + std::to_string(t->rows) + "x" + std::to_string(t->cols);
    return false;
  }
  return true;
}

// pad=N: PTOAS's PadValue numbers (0 null, 1 zero, 2 max, 3 min), the same
// as pto_pad_value's. The value changes what tfillpad writes, nothing else.
bool ParsePadKey(std::string_view value, Type* t, std::string* what) {
  int64_t n;
  if (ParseInt(value, &n) && n >= PTO_PAD_NULL && n <= PTO_PAD_MIN) {
    t->pad = static_cast<uint8_t>(n);
    return true;
  }
  *what = "pad=" + std::string(value) + " is not one of 0 (null), 1 (zero), 2 (max), 3 (min)";
  return false;
}

bool SplitKey(std::string_view field, std::string_view* key, std::string_view* value) {
  const size_t eq = field.find('=');
  if (eq == std::string_view::npos) return false;
  *key = Trim(field.substr(0, eq));
  *value = Trim(field.substr(eq + 1));
  return true;
}

bool ParseTileBuf(BodyParser& p, const std::vector<Field>& f, Type* t) {
  std::string what;
  std::string_view key, value;
  if (SplitKey(f[0].text, &key, &value) && key == "loc") {
    // Keyword spelling: loc first, then keys in any order (PTOAS prints
    // dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad;
    // some samples put blayout before v_row); dtype, rows and cols are
    // required, the valid region defaults to the shape.
    static const char* const kKeys[] = {"loc",     "dtype",   "rows",    "cols",
                                        "v_row",   "v_col",   "blayout", "slayout",
                                        "fractal", "pad",     "compact"};
    bool seen[11] = {};
    for (size_t i = 0; i < f.size(); ++i) {
      if (!SplitKey(f[i].text, &key, &value)) return p.Fail(f[i], "expected key=value");
      size_t k = 0;
      while (k < 11 && key != kKeys[k]) ++k;
      if (k == 11) return p.Fail(f[i], "unknown tile_buf key '" + std::string(key) + "'");
      if (seen[k]) return p.Fail(f[i], "key '" + std::string(key) + "' given twice");
      seen[k] = true;
      int64_t n = 0;
      if (k == 1) {
        if (!ParseDtype(value, &t->dtype))
          return p.Fail(f[i], UnsupportedElement("dtype", value));
      } else if (k == 2 || k == 3) {
        if (!ParseInt(value, &n) || n <= 0 || n > 0xFFFFFFFFll)
          return p.Fail(f[i], std::string(kKeys[k]) + " must be a positive integer");
        (k == 2 ? t->rows : t->cols) = static_cast<uint32_t>(n);
      } else if (k == 4 || k == 5) {
        if (!ParseValidDim(value, &n))
          return p.Fail(f[i], std::string(kKeys[k]) + " must be an integer or ?");
        (k == 4 ? t->valid_rows : t->valid_cols) = n;
      } else if (key == "pad") {
        if (!ParsePadKey(value, t, &what)) return p.Fail(f[i], what);
      } else if (!LayoutKey(key, value, t, &what)) {
        return p.Fail(f[i], what);
      }
    }
    for (size_t k = 1; k < 4; ++k)
      if (!seen[k])
        return p.Fail(f[0], std::string("!pto.tile_buf<loc=...> needs ") + kKeys[k] + "=");
    if (!seen[4]) t->valid_rows = t->rows;
    if (!seen[5]) t->valid_cols = t->cols;
  } else {
    // Compact spelling: LOC, ROWSxCOLSxTYPE, then optional keys in any order.
    if (!LayoutKey("loc", f[0].text, t, &what)) return p.Fail(f[0], what);
    if (f.size() < 2) return p.Fail(f[0], "expected a shape such as 16x16xf32 after the location");
    std::vector<int64_t> dims;
    if (!ParseShape(f[1].text, true, false, &dims, &t->dtype, &what)) return p.Fail(f[1], what);
    if (dims.size() != 2) return p.Fail(f[1], "a tile shape has two dimensions");
    if (dims[0] <= 0 || dims[1] <= 0 || dims[0] > 0xFFFFFFFFll || dims[1] > 0xFFFFFFFFll)
      return p.Fail(f[1], "a tile needs rows and cols of at least 1");
    t->rows = static_cast<uint32_t>(dims[0]);
    t->cols = static_cast<uint32_t>(dims[1]);
    t->valid_rows = t->rows;
    t->valid_cols = t->cols;
    std::vector<std::string_view> seen;
    for (size_t i = 2; i < f.size(); ++i) {
      if (!SplitKey(f[i].text, &key, &value)) return p.Fail(f[i], "expected key=value");
      for (std::string_view s : seen)
        if (s == key) return p.Fail(f[i], "key '" + std::string(key) + "' given twice");
      seen.push_back(key);
      if (key == "valid") {
        if (!ParseValidValue(value, t))
          return p.Fail(f[i], "valid= expects ROWSxCOLS (each an integer or ?)");
      } else if (key == "pad") {
        if (!ParsePadKey(value, t, &what)) return p.Fail(f[i], what);
      } else if (key == "loc" || !LayoutKey(key, value, t, &what)) {
        return p.Fail(f[i], key == "loc" ? "key 'loc' given twice" : what);
      }
    }
  }
  // A vec tile laid out ZZ of one-byte elements holds MX scale exponents in
  // TMOV's X-to-ZZ order (fractal.h, MxExponentsToZz): its bytes are that
  // stream, which tload, tstore and treshape move as a row-major tile's.
  if (t->space == Space::kVec && t->box == Box::kRowMajor && !t->col_major &&
      (t->dtype == PTO_UINT8 || t->dtype == PTO_INT8 || t->dtype == PTO_FLOAT8_E8M0)) {
    t->box = Box::kNone;
    t->mx_zz = true;
  }
  if (!CheckTileShape(t, &what) || !CheckLayout(*t, &what)) return p.Fail(f[0], what);
  return true;
}

// !pto.tile<RxCxT[, valid=VRxVC]>: the synchronous and SSA forms' tile.
bool ParseTile(BodyParser& p, const std::vector<Field>& f, Type* t) {
  std::string what;
  std::vector<int64_t> dims;
  if (!ParseShape(f[0].text, true, false, &dims, &t->dtype, &what)) return p.Fail(f[0], what);
  if (dims.size() != 2 || dims[0] <= 0 || dims[1] <= 0 || dims[0] > 0xFFFFFFFFll ||
      dims[1] > 0xFFFFFFFFll)
    return p.Fail(f[0], "a tile shape has two dimensions of at least 1, such as 16x16xf32");
  t->rows = static_cast<uint32_t>(dims[0]);
  t->cols = static_cast<uint32_t>(dims[1]);
  t->valid_rows = t->rows;
  t->valid_cols = t->cols;
  for (size_t i = 1; i < f.size(); ++i) {
    std::string_view key, value;
    if (SplitKey(f[i].text, &key, &value) && key == "pad" && i + 1 == f.size()) {
      // libpto's spelling of the tile_buf key for these forms' tiles
      // (tfillpad's dst): the last key.
      if (!ParsePadKey(value, t, &what)) return p.Fail(f[i], what);
      continue;
    }
    if (!SplitKey(f[i].text, &key, &value) || key != "valid")
      return p.Fail(f[i], "!pto.tile<...> takes a shape and optionally valid=ROWSxCOLS and pad=N");
    if (!ParseValidValue(value, t))
      return p.Fail(f[i], "valid= expects ROWSxCOLS (each an integer or ?)");
  }
  if (!CheckTileShape(t, &what)) return p.Fail(f[0], what);
  return true;
}

// A memref in a cube memory: a 2-D tile whole, laid out as the memory's
// instructions take it (a memref names no layout): mat NZ, left ZZ (A5's
// NZ, set where it is allocated), right ZN, acc NZ of 1024-byte boxes.
static bool CubeMemref(std::string_view space, const std::vector<int64_t>& dims, Type* t,
                       std::string* what) {
  if (dims.size() != 2 || dims[0] < 1 || dims[1] < 1 || dims[0] > 0xFFFFFFFFll ||
      dims[1] > 0xFFFFFFFFll) {
    *what = "a memref in #pto.address_space<" + std::string(space) +
            "> is a tile: 2 dimensions of at least 1";
    return false;
  }
  t->kind = TypeKind::kTile;
  t->memref = true;
  t->space = space == "mat"    ? Space::kMat
             : space == "left" ? Space::kLeft
             : space == "right" ? Space::kRight
                                : Space::kAcc;
  t->rows = static_cast<uint32_t>(dims[0]);
  t->cols = static_cast<uint32_t>(dims[1]);
  t->valid_rows = t->rows;
  t->valid_cols = t->cols;
  t->col_major = t->space != Space::kLeft && t->space != Space::kRight;
  t->box = t->space == Space::kRight ? Box::kColMajor : Box::kRowMajor;
  t->fractal = t->space == Space::kAcc ? 1024 : 512;
  return CheckTileShape(t, what) && CheckLayout(*t, what);
}

// PTOAS's older memref form: memref<SHAPExT, #pto.address_space<S>>, S gm
// (a view of that shape, row-major and contiguous) or vec (a row-major tile
// of its bytes, valid whole).
bool ParseMemref(BodyParser& p, const std::vector<Field>& fields, Type* t) {
  std::vector<int64_t> dims;
  std::string what;
  if (!ParseShape(fields[0].text, true, false, &dims, &t->dtype, &what))
    return p.Fail(fields[0], what);
  std::string_view space;
  for (size_t i = 1; i < fields.size(); ++i) {
    const std::string_view f = fields[i].text;
    if (f.substr(0, 19) == "#pto.address_space<" && f.back() == '>' && space.empty()) {
      space = f.substr(19, f.size() - 20);
      continue;
    }
    return p.Fail(fields[i], f.substr(0, 7) == "strided"
                                 ? "a memref's layout (strided<...>) is not supported: a memref "
                                   "is row-major and contiguous here"
                                 : "a memref takes a shape and #pto.address_space<gm|vec> only");
  }
  if (space == "gm") {
    if (dims.empty() || dims.size() > kMaxRank)
      return p.Fail(fields[0], "a memref has 1 to " + std::to_string(kMaxRank) + " dimensions");
    t->kind = TypeKind::kTensorView;
    t->memref = true;
    t->rank = static_cast<uint8_t>(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) t->dims[i] = dims[i];
  } else if (space == "vec") {
    // A tile of the memref's bytes, row-major: its last dimension is the
    // tile's columns and the product of the others its rows (1-D: one
    // row), as PTOAS's memory-planning tests use 1-, 2- and 3-D buffers.
    int64_t rows = 1;
    bool fits = !dims.empty() && dims.size() <= kMaxRank;
    for (size_t i = 0; fits && i < dims.size(); ++i) {
      fits = dims[i] >= 1 && dims[i] <= 0xFFFFFFFFll;
      if (fits && i + 1 < dims.size()) {
        rows *= dims[i];
        fits = rows <= 0xFFFFFFFFll;
      }
    }
    if (!fits)
      return p.Fail(fields[0], "a memref in the vec memory is a tile: 1 to " +
                                   std::to_string(kMaxRank) +
                                   " dimensions of at least 1 (its rows the product of all "
                                   "but the last, its columns the last)");
    t->kind = TypeKind::kTile;
    t->memref = true;  // as written (SameType ignores it): tquant reads its column 0
    t->rows = static_cast<uint32_t>(rows);
    t->cols = static_cast<uint32_t>(dims.back());
    t->valid_rows = t->rows;
    t->valid_cols = t->cols;
    if (!CheckTileShape(t, &what)) return p.Fail(fields[0], what);
  } else if (space == "mat" || space == "left" || space == "right" || space == "acc") {
    if (!CubeMemref(space, dims, t, &what)) return p.Fail(fields[0], what);
  } else {
    return p.Fail(fields.back(), space.empty()
                                     ? "a memref needs #pto.address_space<gm>, <vec> or a cube "
                                       "memory's (mat, left, right, acc)"
                                     : "a memref in #pto.address_space<" + std::string(space) +
                                           "> is not supported (gm: global memory; vec, mat, "
                                           "left, right, acc: a tile)");
  }
  return true;
}

// !pto.local_array<D1x...xT>, or PTOAS's !pto.eventid_array<N>: a local
// array of N index values.
bool ParseLocalArray(BodyParser& p, const std::vector<Field>& fields, bool eventids, Type* t) {
  t->kind = TypeKind::kLocalArray;
  std::vector<int64_t> dims;
  std::string what;
  if (eventids) {
    int64_t n = 0;
    if (fields.size() != 1 || !ParseInt(fields[0].text, &n))
      return p.Fail(fields.back(), "an event-id array type is !pto.eventid_array<N>");
    t->eventids = true;
    t->dtype = PTO_INT64;
    dims.push_back(n);
  } else {
    if (fields.size() != 1)
      return p.Fail(fields[1], "a local array type is a shape and an element type only");
    if (!ParseShape(fields[0].text, true, false, &dims, &t->dtype, &what))
      return p.Fail(fields[0], what);
  }
  if (dims.empty() || dims.size() > kMaxRank)
    return p.Fail(fields[0], "a local array has 1 to " + std::to_string(kMaxRank) + " dimensions");
  int64_t count = 1;
  for (int64_t d : dims) count = d < 1 || count > kMostLocalArrayElements ? 0 : count * d;
  if (count < 1 || count > kMostLocalArrayElements)
    return p.Fail(fields[0], "a local array has 1 to " + std::to_string(kMostLocalArrayElements) +
                                 " elements");
  t->rank = static_cast<uint8_t>(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) t->dims[i] = dims[i];
  return true;
}

}  // namespace

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 18) return false;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
    if (s.empty()) return false;
  }
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = negative ? -v : v;
  return true;
}


bool ParsePtoType(std::string_view text, Type* out, std::string* error, size_t* error_offset) {
  BodyParser p(text, error, error_offset);
  const size_t open = text.find('<');
  const std::string_view name = text.substr(0, open);
  Type t;
  std::vector<Field> fields;
  if (name == "!pto.tile_buf" || name == "!pto.tile") {
    if (!p.Split(&fields)) return false;
    t.kind = TypeKind::kTile;
    if (!(name == "!pto.tile" ? ParseTile(p, fields, &t) : ParseTileBuf(p, fields, &t)))
      return false;
  } else if (name == "!pto.ptr") {
    if (!p.Split(&fields)) return false;
    t.kind = TypeKind::kPtr;
    if (!ParseDtype(fields[0].text, &t.dtype))
      return p.Fail(fields[0], UnsupportedElement("pointer element type", fields[0].text));
    if (fields.size() > 2 || (fields.size() == 2 && fields[1].text != "gm"))
      return p.Fail(fields.back(),
                    "only global-memory pointers (!pto.ptr<T> or !pto.ptr<T, gm>) are supported");
  } else if (name == "!pto.tensor_view" || name == "!pto.partition_tensor_view" ||
             name == "!pto.tile_view") {
    // !pto.tile_view: PTOAS's older name of the partition view type.
    if (!p.Split(&fields)) return false;
    t.kind = name == "!pto.tensor_view" ? TypeKind::kTensorView : TypeKind::kPartitionView;
    if (fields.size() != 1)
      return p.Fail(fields[1], "a view type is a shape and an element type only");
    std::vector<int64_t> dims;
    std::string what;
    if (!ParseShape(fields[0].text, true, true, &dims, &t.dtype, &what))
      return p.Fail(fields[0], what);
    if (dims.empty() || dims.size() > kMaxRank)
      return p.Fail(fields[0], "a view has 1 to " + std::to_string(kMaxRank) + " dimensions");
    t.rank = static_cast<uint8_t>(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) t.dims[i] = dims[i];
  } else if (name == "vector") {
    // MLIR's vector type, which only tmrgsort's executed operand takes.
    if (!p.Split(&fields)) return false;
    t.kind = TypeKind::kVector;
    std::vector<int64_t> dims;
    std::string what;
    if (fields.size() != 1 || !ParseShape(fields[0].text, true, false, &dims, &t.dtype, &what) ||
        dims.size() != 1)
      return p.Fail(fields[0], "a vector type here is vector<NxT> (tmrgsort's vector<4xi16>)");
    t.rank = 1;
    t.dims[0] = dims[0];
  } else if (name == "memref") {
    if (!p.Split(&fields) || !ParseMemref(p, fields, &t)) return false;
  } else if (name == "!pto.local_array" || name == "!pto.eventid_array") {
    if (!p.Split(&fields) || !ParseLocalArray(p, fields, name == "!pto.eventid_array", &t))
      return false;
  } else {
    return p.Fail(size_t{0}, "type '" + std::string(name) + "' is not supported");
  }
  *out = t;
  return true;
}

}  // namespace program
}  // namespace pto
