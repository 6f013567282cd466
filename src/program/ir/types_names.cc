// Program types: their names and spellings (PTOAS's dtype spellings, the
// memories, the prefetch handles), how a type is written back in messages,
// and when two types are the same. types.cc parses them.
#include <string>

#include "dtype_rules.h"
#include "program/ir/types.h"

namespace pto {
namespace program {
namespace {

struct DtypeName {
  const char* spelling;
  pto_dtype dtype;
};
// PTOAS's spellings (dtype_spellings.def).
constexpr DtypeName kDtypeNames[] = {
#define PTO_DTYPE_SPELLING(spelling, dtype) {spelling, dtype},
#include "program/ir/dtype_spellings.def"
#undef PTO_DTYPE_SPELLING
};

}  // namespace

// Handle's names, in its order.
static const char* const kHandleNames[3] = {"!pto.prefetch_async_context", "!pto.async_session",
                                            "!pto.async_event"};

const char* SpaceSpelling(Space s) {
  static const char* const kNames[kSpaceCount] = {"vec",  "mat",  "left",   "right",
                                                  "acc",  "bias", "scaling"};
  return kNames[static_cast<int>(s)];
}

bool ParseDtype(std::string_view s, pto_dtype* out) {
  for (const DtypeName& n : kDtypeNames) {
    if (s == n.spelling) {
      *out = n.dtype;
      return true;
    }
  }
  return false;
}

const char* DtypeSpelling(pto_dtype d) {
  for (const DtypeName& n : kDtypeNames)
    if (n.dtype == d) return n.spelling;
  return "?";
}

bool ParseScalarType(std::string_view name, Type* out) {
  Type t;
  if (name == "index") {
    t.kind = TypeKind::kIndex;
    t.bits = 64;
  } else if (name == "i1" || name == "i8" || name == "i16" || name == "i32" || name == "i64") {
    t.kind = TypeKind::kInt;
    t.bits = static_cast<uint8_t>(name == "i1"    ? 1
                                  : name == "i8"  ? 8
                                  : name == "i16" ? 16
                                  : name == "i32" ? 32
                                                  : 64);
  } else if (name == "ui8" || name == "ui16" || name == "ui32" || name == "ui64" ||
             name == "si8" || name == "si16" || name == "si32" || name == "si64") {
    // MLIR's signed and unsigned integers: registers are signless, so the
    // width is what counts (ui32 is i32's registers).
    t.kind = TypeKind::kInt;
    const std::string_view width = name.substr(2);
    t.bits = static_cast<uint8_t>(width == "8" ? 8 : width == "16" ? 16 : width == "32" ? 32 : 64);
  } else if (name == "f64") {
    t.kind = TypeKind::kFloat;
    t.bits = 64;
    t.dtype = PTO_FLOAT32;
  } else if (ParseDtype(name, &t.dtype) && IsFloatDtype(t.dtype)) {
    t.kind = TypeKind::kFloat;
    t.bits = static_cast<uint8_t>(pto_dtype_size(t.dtype) * 8);
  } else {
    return false;
  }
  *out = t;
  return true;
}

bool ParseHandleType(std::string_view name, Type* out) {
  for (uint8_t h = 0; h < 3; ++h) {
    if (name != kHandleNames[h]) continue;
    *out = Type();
    out->kind = TypeKind::kHandle;
    out->bits = h;
    return true;
  }
  return false;
}

bool IsHandle(const Type& t, Handle h) {
  return t.kind == TypeKind::kHandle && t.bits == static_cast<uint8_t>(h);
}

bool IsElementTypeOf(const Type& t, pto_dtype d) {
  return IsFloatDtype(d) ? t.kind == TypeKind::kFloat && t.bits != 64 && t.dtype == d
                         : t.kind == TypeKind::kInt && t.bits == 8 * pto_dtype_size(d);
}

bool SameType(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::kIndex:
    case TypeKind::kNone:
      return true;
    case TypeKind::kInt:
    case TypeKind::kHandle:
      return a.bits == b.bits;
    case TypeKind::kFloat:
      return a.bits == b.bits && a.dtype == b.dtype;
    case TypeKind::kPtr:
      return a.dtype == b.dtype;
    case TypeKind::kTile:
      return a.dtype == b.dtype && a.rows == b.rows && a.cols == b.cols &&
             a.valid_rows == b.valid_rows && a.valid_cols == b.valid_cols && a.pad == b.pad &&
             a.space == b.space &&
             ((a.space == Space::kVec && a.box == Box::kNone && b.box == Box::kNone) ||
              ((a.memref || b.memref) && a.space != Space::kVec) ||  // a memory, no layout
              (a.col_major == b.col_major && a.box == b.box && a.fractal == b.fractal));
    case TypeKind::kLocalArray:
    case TypeKind::kVector:
      if (a.dtype != b.dtype || a.rank != b.rank || a.eventids != b.eventids) return false;
      for (int i = 0; i < a.rank; ++i)
        if (a.dims[i] != b.dims[i]) return false;
      return true;
    case TypeKind::kTensorView:
    case TypeKind::kPartitionView:
      // A `?` dimension stands for any: a view made with constant shape
      // operands knows its dims, and the text may still write `?x?` for it
      // (PTOAS's samples do, in scf.yield and iter_args).
      if (a.dtype != b.dtype || a.rank != b.rank) return false;
      for (int i = 0; i < a.rank; ++i)
        if (a.dims[i] != b.dims[i] && a.dims[i] != kDynamic && b.dims[i] != kDynamic) return false;
      return true;
  }
  return false;
}

std::string TypeString(const Type& t) {
  auto dim = [](int64_t d) { return d == kDynamic ? std::string("?") : std::to_string(d); };
  switch (t.kind) {
    case TypeKind::kNone: return "none";
    case TypeKind::kIndex: return "index";
    case TypeKind::kInt: return "i" + std::to_string(t.bits);
    case TypeKind::kFloat: return t.bits == 64 ? "f64" : DtypeSpelling(t.dtype);
    case TypeKind::kPtr: return std::string("!pto.ptr<") + DtypeSpelling(t.dtype) + ">";
    case TypeKind::kHandle: return kHandleNames[t.bits];
    case TypeKind::kTile:
      if (t.IsCube() || t.IsBoxedVec())
        return std::string(SpaceSpelling(t.space)) + " " + LayoutName(t) + " tile " +
               std::to_string(t.rows) + "x" + std::to_string(t.cols) + "x" +
               DtypeSpelling(t.dtype) + " (valid " + dim(t.valid_rows) + "x" + dim(t.valid_cols) +
               ")";
      return "tile " + std::to_string(t.rows) + "x" + std::to_string(t.cols) + "x" +
             DtypeSpelling(t.dtype) + " (valid " + dim(t.valid_rows) + "x" + dim(t.valid_cols) +
             (t.pad != 0 ? ", pad " + std::to_string(t.pad) : std::string()) + ")";
    case TypeKind::kTensorView:
    case TypeKind::kPartitionView:
    case TypeKind::kLocalArray:
    case TypeKind::kVector: {
      if (t.eventids) return "!pto.eventid_array<" + dim(t.dims[0]) + ">";
      std::string s = t.memref                           ? "memref<"
                      : t.kind == TypeKind::kTensorView    ? "!pto.tensor_view<"
                      : t.kind == TypeKind::kLocalArray ? "!pto.local_array<"
                      : t.kind == TypeKind::kVector     ? "vector<"
                                                        : "!pto.partition_tensor_view<";
      for (int i = 0; i < t.rank; ++i) s += dim(t.dims[i]) + "x";
      return s + DtypeSpelling(t.dtype) + (t.memref ? ", #pto.address_space<gm>>" : ">");
    }
  }
  return "?";
}

}  // namespace program
}  // namespace pto
