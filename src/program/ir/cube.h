// What the verifier and the blocks share about the cube's instructions
// (execute_cube.cc): a matrix multiply's rules on its operands' valid
// regions, and a textract window's alignment.
#ifndef PTO_PROGRAM_IR_CUBE_H_
#define PTO_PROGRAM_IR_CUBE_H_

#include <stdint.h>

#include "program/ir/program.h"
#include "program/ir/types.h"
#include "pto_c.h"

namespace pto {
namespace program {

// The rules of instruction `in` (a kMatmul) on tiles dst, a, b and bias (null
// without one) as they are: the row's rules (dtypes, M, K, N) on row-major
// stand-ins of their valid regions, then under A2A3 and A5 the cube's
// limit of 1 to 4095 for each of M, K and N. Records the sentence on failure.
pto_status CheckMatmulRegions(const Program& p, const Instr& in, const pto_tile& dst,
                              const pto_tile& a, const pto_tile& b, const pto_tile* bias);

// Whether a textract window at (row, col) of src (an NZ or ZN mat tile) into
// a dst of `dst_space` starts where pto-isa's TEXTRACT allows
// (include/pto/common/arch/memory/textract_common.hpp): a left dst from NZ
// at a multiple of 16 rows and C0 = 32 bytes of columns, a right dst from ZN
// at C0 rows and 16 columns, and a transposing read (left from ZN, right
// from NZ) at multiples of the fractal (32 elements of 1 byte, else 16).
// Sets *row_step and *col_step to the multiples asked.
bool ExtractWindowAligned(const Type& src, Space dst_space, int64_t row, int64_t col,
                          uint32_t* row_step, uint32_t* col_step);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_IR_CUBE_H_
