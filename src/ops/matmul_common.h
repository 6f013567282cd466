// What the matrix multiplies' files share (matmul.cc: TMATMUL, TGEMV and
// their acc and bias forms; matmul_mx.cc: the MX rows and HiFloat4): where
// each chain of dst starts, the instruction's shape, the cube tile each
// operand must be, and the thread's staging of operands in a fractal layout
// (reserved by a check, used by the run that follows it on the same thread).
#ifndef PTO_OPS_MATMUL_COMMON_H
#define PTO_OPS_MATMUL_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "ops/common.h"
#include "validate.h"

namespace pto {
namespace ops {
// Where each chain of dst starts.
enum class Seed : uint8_t {
  kZero,  // tmatmul
  kDst,   // tmatmul_acc: dst as it was
  kBias,  // tmatmul_bias: bias(0, j)
};

// The instruction's shape: a matrix multiply's M x K by K x N, or GEMV's
// one row by K x N (pto-isa TGEMV.md: M = 1, K and N b's valid rows and
// cols).
enum class Shape : uint8_t { kMatmul, kGemv };

// The location and layout each operand must have under an NPU profile (the
// NPU's TileLeft, TileRight, TileAcc: pto-isa include/pto/common/pto_tile.hpp,
// whose TileLeft is ZZ on A2A3 and NZ on A5, and the static checks of
// include/pto/npu/a2a3|a5/TMatmul.hpp; a bias is a one-row bias tile).
struct Placement {
  const char* operand;
  pto_location location;
  pto_layout layout;
};

// Each of the n operands where its Placement says, in order.
void RequirePlaced(Validator& v, pto_profile profile, const Placement* wants,
                   const pto_tile* const* operands, int n);

// Bytes of a rows x cols row-major copy of elements of dtype, 64-byte rounded.
size_t StagedBytes(pto_dtype dtype, size_t rows, size_t cols);

// The thread's staging grown to `bytes`; false when it cannot be.
bool ReserveStaging(size_t bytes);

// A rows x cols row-major tile on the next bytes of the thread's staging
// (*next, advanced past it; start at StagingStart()), holding t's valid
// region from (0, 0) in its values unless `empty`.
pto_tile Staged(const pto_tile* t, uint32_t rows, uint32_t cols, char** next, bool empty);
char* StagingStart();

}  // namespace ops
}  // namespace pto

#endif  // PTO_OPS_MATMUL_COMMON_H
