// Which SIMD target the dispatch tables select now.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/kernels/target.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/targets.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
const char* TargetNameImpl() { return hwy::TargetName(HWY_TARGET); }
}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "src/kernels/kernels.h"
namespace pto {
HWY_EXPORT(TargetNameImpl);
namespace kernels {
hwy::ChosenTarget& chosen_target = hwy::GetChosenTarget();
const char* TargetName() { return PTO_DYNAMIC_DISPATCH(TargetNameImpl)(); }
}  // namespace kernels
}  // namespace pto
#endif
