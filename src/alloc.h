// The one place libpto allocates memory, so that allocation failure can be
// injected by tests (which link the internal static library, not libpto.so).
#ifndef PTO_ALLOC_H_
#define PTO_ALLOC_H_

#include <stddef.h>

namespace pto {

// 64-byte aligned, zero-filled storage of `bytes` (> 0) bytes; NULL on failure.
// From 4 MiB on, 2 MiB aligned, with transparent huge pages asked for (Linux).
void* AllocateZeroed(size_t bytes);
void Free(void* p);

namespace testing {
// Makes the n-th allocation from now (1-based) and only that one fail;
// 0 disables injection. Returns how many allocations were attempted since the
// previous call, so a test can learn how many a scenario makes.
size_t FailNthAllocation(size_t n);
}  // namespace testing

}  // namespace pto

#endif  // PTO_ALLOC_H_
