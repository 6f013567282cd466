// Highway's target list and test mock behind a C interface.
#include "targets.h"

#include <vector>

#include "hwy/targets.h"

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

void targets_select(int64_t target) {
  (void)AllTargets();  // the list reflects the real CPU, not a mock
  hwy::SetSupportedTargetsForTest(target);
}

}  // extern "C"
