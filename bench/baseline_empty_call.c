/* The cost of a call itself: a function that does nothing, in a translation
 * unit of its own (so the caller cannot inline it) and kept opaque by an
 * empty asm statement, with the arguments of a three-operand operation. */
#include "baselines.h"

__attribute__((noinline)) int empty_call(void *dst, const void *src0, const void *src1) {
  __asm__ volatile("" : : "r"(dst), "r"(src0), "r"(src1) : "memory");
  return 0;
}
