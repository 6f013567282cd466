// The stages in order (build.cc): a module's text parsed (parse/parse.h) and
// verified (verify.h), every function of it. api.cc's pto_program_create
// and its kin call it; no stage calls another.
#ifndef PTO_PROGRAM_BUILD_H_
#define PTO_PROGRAM_BUILD_H_

#include <string_view>

#include "program/ir/program.h"
#include "pto_c.h"

namespace pto {
namespace program {

// Compile and Verify of the entry, then every other function of the module
// checked the same way (Compile with check_only and Verify, into a program
// dropped afterwards): a module is accepted whole or not at all. Where the
// module's marks choose no entry (and none is named), every function is
// checked, then the choice is an error unless entry_optional: the program
// then records it in no_entry and cannot run.
pto_status Build(std::string_view text, std::string_view entry, bool entry_optional,
                 Program* program);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_BUILD_H_
