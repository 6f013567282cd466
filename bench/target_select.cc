#include "target_select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include <vector>

#include "hwy/highway.h"
#include "hwy/targets.h"
#include "pto_c.h"

namespace bench {
namespace {

// The targets that this CPU supports and that libpto was compiled for (the
// same HWY_TARGETS as this file: same compiler, same flags), best first.
// Taken on first use, which comes before any selection.
const std::vector<int64_t>& SupportedTargets() {
  static const std::vector<int64_t> targets = [] {
    std::vector<int64_t> list;
    for (int64_t bits = hwy::SupportedTargets() & HWY_TARGETS; bits != 0; bits &= bits - 1) {
      list.push_back(bits & -bits);
    }
    return list;
  }();
  return targets;
}

int64_t selected_target = 0;  // SelectTarget's choice; 0: every supported target

void Dispatch(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  if (target != 0 && strcasecmp(pto_simd_target(), hwy::TargetName(target)) != 0) {
    fprintf(stderr, "pto-bench: libpto dispatches to %s, not %s\n", pto_simd_target(),
            hwy::TargetName(target));
    exit(1);
  }
}

}  // namespace

std::string SupportedTargetNames() {
  std::string names;
  for (int64_t target : SupportedTargets()) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(target);
  }
  return names;
}

bool SelectTarget(const char* name) {
  for (int64_t target : SupportedTargets()) {
    if (strcasecmp(hwy::TargetName(target), name) == 0) {
      selected_target = target;
      Dispatch(target);
      return true;
    }
  }
  return false;
}

void ForEachTarget(const std::function<void(const char* name)>& fn) {
  for (int64_t target : SupportedTargets()) {
    Dispatch(target);
    fn(hwy::TargetName(target));
  }
  Dispatch(selected_target);
}

}  // namespace bench
