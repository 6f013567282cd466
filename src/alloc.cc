#include "alloc.h"

#include <stdlib.h>
#include <string.h>

#include <atomic>

namespace pto {
namespace {
std::atomic<size_t> fail_at{0};    // 0: no injection
std::atomic<size_t> attempts{0};
}  // namespace

void* AllocateZeroed(size_t bytes) {
  const size_t attempt = attempts.fetch_add(1) + 1;
  const size_t target = fail_at.load();
  if (target != 0 && attempt == target) return nullptr;
  const size_t rounded = (bytes + 63) & ~static_cast<size_t>(63);
  void* p = aligned_alloc(64, rounded);
  if (p != nullptr) memset(p, 0, rounded);
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
