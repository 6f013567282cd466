#include "target_select.h"

#include <stdint.h>
#include <strings.h>

#include "hwy/highway.h"
#include "hwy/targets.h"

namespace bench {
namespace {

// Calls fn(bit) for each target that this CPU supports and that libpto was
// compiled for (the same HWY_TARGETS as this file: same compiler, same
// flags), lowest bit (best target) first.
template <class Fn>
void ForEachSupportedTarget(const Fn& fn) {
  for (int64_t bits = hwy::SupportedTargets() & HWY_TARGETS; bits != 0; bits &= bits - 1) {
    fn(bits & -bits);
  }
}

}  // namespace

std::string SupportedTargetNames() {
  std::string names;
  ForEachSupportedTarget([&names](int64_t target) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(target);
  });
  return names;
}

bool SelectTarget(const char* name) {
  int64_t chosen = 0;
  ForEachSupportedTarget([&](int64_t target) {
    if (chosen == 0 && strcasecmp(hwy::TargetName(target), name) == 0) chosen = target;
  });
  if (chosen == 0) return false;
  hwy::SetSupportedTargetsForTest(chosen);
  return true;
}

}  // namespace bench
