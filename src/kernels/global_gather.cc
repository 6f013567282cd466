// MGATHER's and MSCATTER's copies between a tile and a table in memory:
// plain loops, the bits of each element kept; the offsets were checked.
#include <stddef.h>
#include <string.h>

#include "src/kernels/kernels.h"

namespace pto {
namespace kernels {

void CopyByOffsets(bool scatter, size_t element_bytes, size_t rows, size_t cols, const Plane& tile,
                   void* table, const size_t* at) {
  const size_t e = element_bytes;
  char* base = static_cast<char*>(table);
  for (size_t r = 0; r < rows; ++r) {
    char* row = static_cast<char*>(tile.data) + r * tile.stride * e;
    for (size_t c = 0; c < cols; ++c) {
      const size_t k = at[r * cols + c];
      if (k == kNoElement) {
        if (!scatter) memset(row + c * e, 0, e);
        continue;
      }
      char* slot = base + k * e;
      if (scatter) memcpy(slot, row + c * e, e);
      else memcpy(row + c * e, slot, e);
    }
  }
}

}  // namespace kernels
}  // namespace pto
