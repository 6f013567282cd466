// The stages in order over a module: parse, verify, and every other
// function of the module parsed and verified too (build.h).
#include "program/build.h"

#include <string>

#include "program/ir/program.h"
#include "program/parse/parse.h"
#include "program/verify.h"

namespace pto {
namespace program {

pto_status Build(std::string_view text, std::string_view entry, bool entry_optional,
                 Program* program) {
  pto_status status = Compile(text, entry, false, program);
  if (status == PTO_OK) status = Verify(program);
  if (status != PTO_OK) return status;
  for (const FunctionSummary& f : program->functions) {
    bool read = false;
    for (const std::string& name : program->inlined) read = read || name == f.name;
    if (read) continue;
    Program other;
    other.source_name = program->source_name;
    other.profile = program->profile;
    status = Compile(text, f.name, true, &other);
    if (status == PTO_OK) status = Verify(&other);
    if (status != PTO_OK) return status;
  }
  if (!program->no_entry.empty() && !entry_optional)
    return Diagnose(*program, program->no_entry_loc, PTO_ERR_INVALID_ARGUMENT, program->no_entry);
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
