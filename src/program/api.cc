// The C functions of programs: create (compile and verify), introspection,
// argument sets, run and launch.
#include <math.h>
#include <string.h>

#include <new>
#include <string>
#include <vector>

#include "comm.h"
#include "checked.h"
#include "error.h"
#include "profile.h"
#include "program/build.h"
#include "program/ir/program.h"
#include "program/run/execute.h"
#include "program/verify.h"
#include "pto_c.h"
#include "tile.h"
#include "validate.h"

struct pto_program {
  pto::program::Program program;
  std::string description;  // pto_program_describe's text
};

struct pto_args {
  const pto_program* program;
  std::vector<pto::program::Binding> bindings;
};

namespace {

using pto::Fail;
using pto::program::Param;

const Param* ParamAt(const pto_program* program, size_t index) {
  if (program == nullptr || index >= program->program.params.size()) return nullptr;
  return &program->program.params[index];
}

// A TILE parameter, or NULL (another kind, a bad index, NULL).
const Param* TileParamAt(const pto_program* program, size_t index) {
  const Param* p = ParamAt(program, index);
  return p != nullptr && p->kind == PTO_PARAM_TILE ? p : nullptr;
}

// The parameter `index` of args' program, which must be of `kind`: the
// first checks of v's chain. False when one fails.
bool BindTarget(pto::Validator& v, pto_args* args, size_t index, pto_param_kind kind,
                const Param** out) {
  v.NotNull("args", args);
  if (!v.ok()) return false;
  const Param* param = ParamAt(args->program, index);
  v.Require(param != nullptr, PTO_ERR_INVALID_ARGUMENT,
            "index %zu is not a parameter (the program has %zu)", index,
            args->program->program.params.size());
  if (!v.ok()) return false;
  static const char* const kKinds[] = {"a pointer", "an integer", "a float", "a tile"};
  v.Require(param->kind == kind, PTO_ERR_INVALID_ARGUMENT, "parameter %%%s is %s, not %s",
            param->name.c_str(), kKinds[param->kind], kKinds[kind]);
  *out = param;
  return v.ok();
}

}  // namespace

extern "C" {

namespace {

pto_status Create(const char* function, const char* text, size_t length, const char* source_name,
                  const char* entry, bool entry_optional, pto_program** out) {
  pto::Validator v(function);
  v.NotNull("text", text).NotNull("out", out);
  if (!v.ok()) return v.status();
  // length is the caller's count of readable bytes: one that runs past the
  // end of the address space (or PTRDIFF_MAX) describes no text.
  v.Require(pto::RangeInAddressSpace(text, length), PTO_ERR_INVALID_ARGUMENT,
            "length %zu from text %p runs past the end of the address space", length,
            static_cast<const void*>(text));
  if (!v.ok()) return v.status();
  try {
    pto_program* program = new pto_program;
    pto::program::Program& p = program->program;
    p.source_name = source_name != nullptr ? source_name : "<string>";
    p.profile = pto::CurrentProfile();
    const pto_status status = pto::program::Build(
        std::string_view(text, length), entry != nullptr ? entry : "", entry_optional, &p);
    if (status != PTO_OK) {
      delete program;
      return status;
    }
    program->description = pto::program::Describe(p);
    *out = program;
    return PTO_OK;
  } catch (const std::bad_alloc&) {
    return Fail(PTO_ERR_OUT_OF_MEMORY, v.function(), "out of memory");
  }
}

}  // namespace

pto_status pto_program_create(const char* text, size_t length, const char* source_name,
                              pto_program** out) {
  return Create("pto_program_create", text, length, source_name, nullptr, false, out);
}

pto_status pto_program_check(const char* text, size_t length, const char* source_name,
                             pto_program** out) {
  return Create("pto_program_check", text, length, source_name, nullptr, true, out);
}

pto_status pto_program_create_entry(const char* text, size_t length, const char* source_name,
                                    const char* entry, pto_program** out) {
  if (entry != nullptr && entry[0] == '@') ++entry;
  return Create("pto_program_create_entry", text, length, source_name,
                entry != nullptr && entry[0] != '\0' ? entry : nullptr, false, out);
}

const char* pto_program_describe(const pto_program* program) {
  return program != nullptr ? program->description.c_str() : "";
}

void pto_program_destroy(pto_program* program) { delete program; }

pto_profile pto_program_profile(const pto_program* program) {
  return program != nullptr ? program->program.profile : PTO_PROFILE_HOST;
}

size_t pto_program_param_count(const pto_program* program) {
  return program != nullptr ? program->program.params.size() : 0;
}

const char* pto_program_param_name(const pto_program* program, size_t index) {
  const Param* p = ParamAt(program, index);
  return p != nullptr ? p->name.c_str() : nullptr;
}

pto_param_kind pto_program_param_kind(const pto_program* program, size_t index) {
  const Param* p = ParamAt(program, index);
  return p != nullptr ? p->kind : PTO_PARAM_POINTER;
}

pto_dtype pto_program_param_dtype(const pto_program* program, size_t index) {
  const Param* p = ParamAt(program, index);
  if (p == nullptr) return static_cast<pto_dtype>(0);
  switch (p->kind) {
    case PTO_PARAM_INT:
      return p->type.bits == 8 ? PTO_INT8 : p->type.bits == 16 ? PTO_INT16 : PTO_INT32;
    case PTO_PARAM_FLOAT:
      return p->type.bits == 64 ? PTO_FLOAT32 : p->type.dtype;
    default:
      return p->type.dtype;
  }
}

uint32_t pto_program_param_rows(const pto_program* program, size_t index) {
  const Param* p = TileParamAt(program, index);
  return p != nullptr ? p->type.rows : 0;
}

uint32_t pto_program_param_cols(const pto_program* program, size_t index) {
  const Param* p = TileParamAt(program, index);
  return p != nullptr ? p->type.cols : 0;
}

int64_t pto_program_param_valid_rows(const pto_program* program, size_t index) {
  const Param* p = TileParamAt(program, index);
  return p != nullptr ? p->type.valid_rows : 0;
}

int64_t pto_program_param_valid_cols(const pto_program* program, size_t index) {
  const Param* p = TileParamAt(program, index);
  return p != nullptr ? p->type.valid_cols : 0;
}

unsigned pto_program_param_access(const pto_program* program, size_t index) {
  const Param* p = ParamAt(program, index);
  return p != nullptr ? p->access : 0;
}

pto_status pto_program_param_find(const pto_program* program, const char* name, size_t* index) {
  pto::Validator v("pto_program_param_find");
  v.NotNull("program", program).NotNull("name", name).NotNull("index", index);
  if (!v.ok()) return v.status();
  const char* bare = name[0] == '%' ? name + 1 : name;
  const auto& params = program->program.params;
  size_t found = 0;
  while (found < params.size() && params[found].name != bare) ++found;
  v.Require(found < params.size(), PTO_ERR_INVALID_ARGUMENT,
            "the program has no parameter %%%.200s", bare);
  if (v.ok()) *index = found;
  return v.status();
}

pto_status pto_args_create(const pto_program* program, pto_args** out) {
  pto::Validator v("pto_args_create");
  v.NotNull("program", program).NotNull("out", out);
  if (!v.ok()) return v.status();
  try {
    pto_args* args = new pto_args;
    args->program = program;
    args->bindings.resize(program->program.params.size());
    *out = args;
    return PTO_OK;
  } catch (const std::bad_alloc&) {
    return Fail(PTO_ERR_OUT_OF_MEMORY, v.function(), "out of memory");
  }
}

void pto_args_destroy(pto_args* args) { delete args; }

pto_status pto_args_set_pointer(pto_args* args, size_t index, void* data, size_t nbytes) {
  pto::Validator v("pto_args_set_pointer");
  const Param* param = nullptr;
  if (!BindTarget(v, args, index, PTO_PARAM_POINTER, &param)) return v.status();
  const size_t size = pto_dtype_size(param->type.dtype);
  v.NotNull("data", data)
      .Require(nbytes % size == 0, PTO_ERR_INVALID_ARGUMENT,
               "nbytes %zu for %%%s is not a multiple of %s's %zu bytes", nbytes,
               param->name.c_str(), pto_dtype_string(param->type.dtype), size)
      .Require(reinterpret_cast<uintptr_t>(data) % size == 0, PTO_ERR_INVALID_ARGUMENT,
               "data for %%%s is not aligned to %zu bytes", param->name.c_str(), size);
  // nbytes is the caller's count of the memory's bytes: one that runs past
  // the end of the address space (or PTRDIFF_MAX) describes no memory, and
  // every element offset a kernel computes must fit int64_t (checked.h).
  if (v.ok())
    v.Require(pto::RangeInAddressSpace(data, nbytes), PTO_ERR_INVALID_ARGUMENT,
              "nbytes %zu for %%%s from %p runs past the end of the address space", nbytes,
              param->name.c_str(), data);
  if (!v.ok()) return v.status();
  pto::program::Binding& b = args->bindings[index];
  b = {};
  b.bound = true;
  b.data = static_cast<char*>(data);
  b.count = static_cast<int64_t>(nbytes / size);
  return PTO_OK;
}

pto_status pto_args_set_int(pto_args* args, size_t index, int64_t value) {
  pto::Validator v("pto_args_set_int");
  const Param* param = nullptr;
  if (!BindTarget(v, args, index, PTO_PARAM_INT, &param)) return v.status();
  const unsigned bits = param->type.bits;
  const bool fits = bits >= 64 || (bits == 1 ? (value == 0 || value == 1)
                                             : (value >= -(int64_t{1} << (bits - 1)) &&
                                                value < (int64_t{1} << (bits - 1))));
  v.Require(fits, PTO_ERR_OUT_OF_RANGE, "%lld does not fit %%%s's type i%u",
            static_cast<long long>(value), param->name.c_str(), bits);
  if (!v.ok()) return v.status();
  pto::program::Binding& b = args->bindings[index];
  b = {};
  b.bound = true;
  b.int_value = value;
  return PTO_OK;
}

pto_status pto_args_set_float(pto_args* args, size_t index, double value) {
  pto::Validator v("pto_args_set_float");
  const Param* param = nullptr;
  if (!BindTarget(v, args, index, PTO_PARAM_FLOAT, &param)) return v.status();
  pto::program::Binding& b = args->bindings[index];
  b = {};
  b.bound = true;
  // Rounded once to the declared type (no operation of this subset reads
  // float scalars yet; the value is kept as the type would hold it).
  b.float_value = param->type.bits == 32 ? static_cast<double>(static_cast<float>(value)) : value;
  return PTO_OK;
}

pto_status pto_args_set_tile(pto_args* args, size_t index, pto_tile* tile) {
  pto::Validator v("pto_args_set_tile");
  const Param* param = nullptr;
  if (!BindTarget(v, args, index, PTO_PARAM_TILE, &param)) return v.status();
  pto::program::Binding& b = args->bindings[index];
  if (tile == nullptr) {
    b = {};
    return PTO_OK;
  }
  const pto::program::Type& t = param->type;
  const bool region_fits =
      (t.valid_rows == pto::program::kDynamic || tile->valid_rows == t.valid_rows) &&
      (t.valid_cols == pto::program::kDynamic || tile->valid_cols == t.valid_cols);
  v.Require(tile->dtype == t.dtype, PTO_ERR_DTYPE_MISMATCH, "tile dtype %s differs from %%%s's %s",
            pto_dtype_string(tile->dtype), param->name.c_str(), pto_dtype_string(t.dtype))
      .Require(tile->rows == t.rows && tile->cols == t.cols, PTO_ERR_SHAPE_MISMATCH,
               "tile of %ux%u differs from %%%s's %ux%u", tile->rows, tile->cols,
               param->name.c_str(), t.rows, t.cols)
      .Require(region_fits, PTO_ERR_SHAPE_MISMATCH,
               "tile valid region %ux%u differs from %%%s's %lldx%lld", tile->valid_rows,
               tile->valid_cols, param->name.c_str(), static_cast<long long>(t.valid_rows),
               static_cast<long long>(t.valid_cols));
  // A program's tile parameters are vec tiles (its cube tiles come from
  // global memory), which the run reads row-major: a cube tile's image is
  // not that.
  v.OnVec("tile", tile);
  if (!v.ok()) return v.status();
  b = {};
  b.bound = true;
  b.tile = tile;
  return PTO_OK;
}

pto_status pto_program_launch(const pto_program* program, uint32_t blocks, const pto_args* args) {
  pto::Validator v("pto_program_launch");
  v.NotNull("program", program).NotNull("args", args);
  if (!v.ok()) return v.status();
  v.Require(program->program.no_entry.empty(), PTO_ERR_INVALID_ARGUMENT, "%s",
            program->program.no_entry.c_str())
      .Require(args->program == program, PTO_ERR_INVALID_ARGUMENT,
               "args were made for another program")
      .Require(blocks != 0 && blocks <= 65536, PTO_ERR_INVALID_ARGUMENT,
               "blocks %u is outside 1..65536", blocks);
  const auto& params = program->program.params;
  for (size_t i = 0; i < params.size() && v.ok(); ++i) {
    const pto::program::Binding& b = args->bindings[i];
    const bool written_tile =
        params[i].kind == PTO_PARAM_TILE && (params[i].access & PTO_PARAM_WRITE) != 0;
    v.Require(b.bound || (params[i].access & PTO_PARAM_READ) == 0, PTO_ERR_INVALID_ARGUMENT,
              "parameter %%%s is read but not bound", params[i].name.c_str())
        .Require(!(b.bound && blocks > 1 && written_tile), PTO_ERR_INVALID_ARGUMENT,
                 "tile %%%s is written, so it cannot be bound for %u blocks (each block would "
                 "write it)",
                 params[i].name.c_str(), blocks);
    // Multi-card: a pointer lies inside one rank's window for its whole
    // byte length, or touches none (pto_comm.h).
    std::string why;
    const bool in_one_window =
        !(v.ok() && b.bound && params[i].kind == PTO_PARAM_POINTER && b.count > 0) ||
        pto::comm::InOneWindow(
            b.data, static_cast<size_t>(b.count) * pto_dtype_size(params[i].type.dtype), &why);
    v.Require(in_one_window, PTO_ERR_OUT_OF_RANGE,
              "%%%s, bound to %lld elements, does not lie inside one window: %s",
              params[i].name.c_str(), static_cast<long long>(b.count), why.c_str());
  }
  if (!v.ok()) return v.status();
  try {
    return pto::program::Launch(program->program, blocks, args->bindings);
  } catch (const std::bad_alloc&) {
    return Fail(PTO_ERR_OUT_OF_MEMORY, v.function(), "out of memory");
  }
}

pto_status pto_program_run(const pto_program* program, const pto_args* args) {
  return pto_program_launch(program, 1, args);
}

}  // extern "C"
