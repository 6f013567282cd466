// The verify stage (verify.cc): a parsed Program's tiles placed and every
// operation's rules applied once; and the description of a verified one.
#ifndef PTO_PROGRAM_VERIFY_H_
#define PTO_PROGRAM_VERIFY_H_

#include <string>

#include "program/ir/program.h"
#include "pto_c.h"

namespace pto {
namespace program {

// Places the tiles and applies every operation's rules. On failure records
// "SOURCE:LINE:COL: error: ..." and returns the status.
pto_status Verify(Program* program);

// What pto_program_describe says of p: its functions, the entry's
// parameters, every tile's place in the unified buffer and the peak use.
std::string Describe(const Program& p);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_VERIFY_H_
