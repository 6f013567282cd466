#include "alloc.h"
#include "checked.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <atomic>

namespace pto {
namespace {
std::atomic<size_t> fail_at{0};    // 0: no injection
std::atomic<size_t> attempts{0};

// Large blocks (a 1024x1024 float32 tile is 4 MiB) start on a 2 MiB
// boundary and ask Linux for transparent huge pages, as numpy does for its
// arrays from 4 MiB: streaming kernels over them take fewer TLB misses.
constexpr size_t kHugePage = size_t{1} << 21;
constexpr size_t kHugeFrom = size_t{1} << 22;
}  // namespace

void* AllocateZeroed(size_t bytes) {
  const size_t attempt = attempts.fetch_add(1) + 1;
  const size_t target = fail_at.load();
  if (target != 0 && attempt == target) return nullptr;
  // A size whose rounding up would wrap is no allocation (checked.h).
  size_t rounded = 0;
  if (!AddFits(bytes, size_t{63}, &rounded)) return nullptr;
  rounded &= ~static_cast<size_t>(63);
  const bool huge = rounded >= kHugeFrom && rounded <= SIZE_MAX - kHugePage;
  const size_t align = huge ? kHugePage : 64;
  const size_t size = (rounded + align - 1) & ~(align - 1);
  void* p = aligned_alloc(align, size);
  if (p == nullptr) return nullptr;
#ifdef MADV_HUGEPAGE
  if (huge) madvise(p, size, MADV_HUGEPAGE);  // a hint: where it fails, small pages
#endif
  memset(p, 0, rounded);
  return p;
}

void Free(void* p) { free(p); }

namespace testing {
size_t FailNthAllocation(size_t n) {
  const size_t seen = attempts.exchange(0);
  fail_at.store(n);
  return seen;
}
}  // namespace testing

}  // namespace pto
