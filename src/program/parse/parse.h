// The parse stage's entry point: a PTO assembly text into a Program's
// instructions (module_reader.cc). The only header of parse/ that a file
// outside it includes (build.cc).
#ifndef PTO_PROGRAM_PARSE_PARSE_H_
#define PTO_PROGRAM_PARSE_PARSE_H_

#include <string_view>

#include "program/ir/program.h"
#include "pto_c.h"

namespace pto {
namespace program {

// Parses and type-checks text into *program (source_name and profile set by
// the caller; the profile may be replaced by the module's target). On failure
// records "SOURCE:LINE:COL: error: ..." and returns the status.
// entry names the func.func to run (empty: the module's pto.entry /
// kernel-kind function, else its only public one); check_only reads the
// function to check it (it is never run).
pto_status Compile(std::string_view text, std::string_view entry, bool check_only,
                   Program* program);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_PARSE_PARSE_H_
