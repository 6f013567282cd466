// What every stage of a program shares beyond program.h's declarations: its
// diagnostics.
#include <string>

#include "error.h"
#include "program/ir/program.h"

namespace pto {
namespace program {

pto_status Diagnose(const Program& p, SourceLoc loc, pto_status status,
                    const std::string& message) {
  const std::string line = p.source_name + ":" + std::to_string(loc.line) + ":" +
                           std::to_string(loc.col) + ": error: " + message;
  SetLastError(line.c_str());
  return status;
}

}  // namespace program
}  // namespace pto
