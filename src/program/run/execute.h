// Running a verified program on blocks.
#ifndef PTO_PROGRAM_RUN_EXECUTE_H_
#define PTO_PROGRAM_RUN_EXECUTE_H_

#include <vector>

#include "program/ir/program.h"

namespace pto {
namespace program {

// Runs blocks 0..blocks-1 with the bindings (already checked against the
// program's parameters). On failure records the first error's diagnostic on
// the calling thread and returns its status.
pto_status Launch(const Program& p, uint32_t blocks, const std::vector<Binding>& bindings);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_RUN_EXECUTE_H_
