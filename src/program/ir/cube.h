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

// The operands of instruction `in` (a kMatmul) among `tiles` (a block's, or
// the verifier's), the cube tiles dst, a, b and bias (none without one), for
// the row's check and run under the program's profile. Their locations and
// layouts are parse/core_cube.cc's to judge (cube_placements_checked): a left
// tile may be ZZ or NZ under every profile. The sources past the second go
// into *ext, which o.ext points at.
ops::Operands MatmulOperands(const Instr& in, pto_tile* tiles, ops::OperandsExt* ext);

// Whether a textract window at (row, col) of src (an NZ or ZN mat tile) into
// a dst of `dst_space` starts where pto-isa's TEXTRACT allows
// (include/pto/common/arch/memory/textract_common.hpp): a left dst from NZ
// at a multiple of 16 rows and C0 = 32 bytes of columns, a right dst from ZN
// at C0 rows and 16 columns, and a transposing read (left from ZN, right
// from NZ) at multiples of the fractal (32 elements of 1 byte, else 16).
// Sets *row_step and *col_step to the multiples asked.
bool ExtractWindowAligned(const Type& src, Space dst_space, int64_t row, int64_t col,
                          uint32_t* row_step, uint32_t* col_step);

// A mat tile of MX scales (f8E8M0) laid out NN, or ZZ with more than one
// row: PTOAS lowers its tload to pto-isa's MX_B_NN / MX_A_ZZ global layouts
// (the bytes already in the tile's boxes); a 5-D view [N0, N1, N2, 16, 2]
// of such a tile is pto-isa's box form, whose shape is not the tile's rows
// and columns (execute_cube.cc).
bool IsPackedScaleTile(const Type& type);

}  // namespace program
}  // namespace pto

#endif  // PTO_PROGRAM_IR_CUBE_H_
