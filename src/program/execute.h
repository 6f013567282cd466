// Running a verified program on blocks.
#ifndef PTO_PROGRAM_EXECUTE_H_
#define PTO_PROGRAM_EXECUTE_H_

#include <vector>

#include "program/program.h"

namespace pto {
namespace program {

// What one parameter is bound to.
struct Binding {
  bool bound = false;
  int64_t int_value = 0;
  double float_value = 0;
  char* data = nullptr;  // pointer: the caller's memory
  int64_t count = 0;     // pointer: elements there
  pto_tile* tile = nullptr;
};

// Runs blocks 0..blocks-1 with the bindings (already checked against the
// program's parameters). On failure records the first error's diagnostic on
// the calling thread and returns its status.
pto_status Launch(const Program& p, uint32_t blocks, const std::vector<Binding>& bindings);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_EXECUTE_H_
