// Highway's target list and test mock behind the C interface of support.h.
#include <strings.h>

#include <vector>

#include "hwy/targets.h"
#include "support.h"

namespace {

const std::vector<int64_t>& AllTargets() {
  static const std::vector<int64_t> targets = [] {
    hwy::SetSupportedTargetsForTest(0);
    return hwy::SupportedAndGeneratedTargets();
  }();
  return targets;
}

}  // namespace

extern "C" {

size_t targets_count(void) { return AllTargets().size(); }

int64_t targets_at(size_t index) {
  return index < AllTargets().size() ? AllTargets()[index] : 0;
}

const char* targets_name(int64_t target) { return hwy::TargetName(target); }

int64_t targets_find(const char* name) {
  for (int64_t target : AllTargets()) {
    if (strcasecmp(hwy::TargetName(target), name) == 0) return target;
  }
  return 0;
}

void targets_select(int64_t target) {
  (void)AllTargets();  // the list reflects the real CPU, not a mock
  hwy::SetSupportedTargetsForTest(target);
}

}  // extern "C"
