#include "target_select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "pto_c.h"
#include "support.h"

namespace bench {
namespace {

int64_t selected_target = 0;  // SelectTarget's choice; 0: every supported target

void Dispatch(int64_t target) {
  targets_select(target);
  if (target != 0 && strcasecmp(pto_simd_target(), targets_name(target)) != 0) {
    fprintf(stderr, "pto-bench: libpto dispatches to %s, not %s\n", pto_simd_target(),
            targets_name(target));
    exit(1);
  }
}

}  // namespace

std::string SupportedTargetNames() {
  std::string names;
  for (size_t i = 0; i < targets_count(); ++i) {
    if (!names.empty()) names += ' ';
    names += targets_name(targets_at(i));
  }
  return names;
}

bool SelectTarget(const char* name) {
  const int64_t target = targets_find(name);
  if (target == 0) return false;
  selected_target = target;
  Dispatch(target);
  return true;
}

void ForEachTarget(const std::function<void(const char* name)>& fn) {
  for (size_t i = 0; i < targets_count(); ++i) {
    Dispatch(targets_at(i));
    fn(targets_name(targets_at(i)));
  }
  Dispatch(selected_target);
}

}  // namespace bench
