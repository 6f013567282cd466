// Restricting libpto's run-time dispatch to one SIMD target. libpto.so and
// pto-bench share libhwy.so, and with it the chosen-target state that every
// HWY_DYNAMIC_DISPATCH consults, so mocking the supported targets here
// redirects the library's kernels too (pto_simd_target() confirms it).
#ifndef PTO_BENCH_TARGET_SELECT_H_
#define PTO_BENCH_TARGET_SELECT_H_

#include <functional>
#include <string>

namespace bench {

// Names of the targets this CPU supports and libpto has kernels for, best
// first ("AVX3 AVX2 SSE4 ..."): support.h's targets.
std::string SupportedTargetNames();

// Makes `name` (case-insensitive) the only supported target. False if this
// CPU does not support a target of that name.
bool SelectTarget(const char* name);

// Calls fn(name) with libpto dispatching to each supported target in turn,
// best first, then restores the selection made by SelectTarget (or none).
// Exits if libpto does not dispatch to the target selected.
void ForEachTarget(const std::function<void(const char* name)>& fn);

}  // namespace bench

#endif  // PTO_BENCH_TARGET_SELECT_H_
