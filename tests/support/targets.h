/* The SIMD targets the tests run the library on: those this CPU supports and
 * libpto was compiled for (Highway's SupportedAndGeneratedTargets), best
 * first. Selecting one mocks Highway's supported-target set, which libpto.so
 * shares through libhwy.so, so the library's next dispatch picks it. */
#ifndef PTO_TEST_TARGETS_H
#define PTO_TEST_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t targets_count(void);
int64_t targets_at(size_t index);
const char *targets_name(int64_t target);
/* Makes `target` the only supported one; 0 restores the CPU's real set. */
void targets_select(int64_t target);

#ifdef __cplusplus
}
#endif

#endif
