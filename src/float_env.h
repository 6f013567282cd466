// The floating-point environment the kernels assume: round to nearest even,
// subnormals neither flushed nor treated as zero. A caller's thread may run
// with other settings (FTZ/DAZ are common in audio and ML code); each entry
// point that computes in floating point holds a FloatEnvironmentGuard, which
// switches to the defaults only when they differ and restores the caller's
// settings on return. For integer work (needed = false) it reads nothing:
// reading the control register is not free, and integer results do not
// depend on it.
// x86: MXCSR. aarch64: FPCR.
#ifndef PTO_FLOAT_ENV_H_
#define PTO_FLOAT_ENV_H_

#if defined(__SSE2__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PTO_HAVE_MXCSR 1
#else
#define PTO_HAVE_MXCSR 0
#endif
#if defined(__aarch64__)
#include <stdint.h>
#define PTO_HAVE_FPCR 1
#else
#define PTO_HAVE_FPCR 0
#endif

namespace pto {

class FloatEnvironmentGuard {
 public:
#if PTO_HAVE_MXCSR
  // MXCSR bits the kernels depend on: flush-to-zero (15), rounding control
  // (13-14) and denormals-are-zero (6). The exception masks and flags are
  // left alone.
  static constexpr unsigned kModeBits = (1u << 15) | (3u << 13) | (1u << 6);

  explicit FloatEnvironmentGuard(bool needed) : saved_(needed ? _mm_getcsr() : 0) {
    if (saved_ & kModeBits) _mm_setcsr(saved_ & ~kModeBits);
  }
  ~FloatEnvironmentGuard() {
    if (saved_ & kModeBits) _mm_setcsr(saved_);
  }

 private:
  unsigned saved_;
#elif PTO_HAVE_FPCR
  // FPCR bits that change results: FIZ (0, flush inputs to zero), AH (1,
  // alternate handling: estimates, min/max and NaN rules), NEP (2), FZ16
  // (19), rounding mode (22-23), FZ (24) and DN (25, default NaN). FIZ, AH
  // and NEP exist with FEAT_AFP only and read as zero elsewhere. The trap
  // enables and the rest are left alone.
  static constexpr uint64_t kModeBits =
      (1u << 0) | (1u << 1) | (1u << 2) | (1u << 19) | (3u << 22) | (1u << 24) | (1u << 25);

  explicit FloatEnvironmentGuard(bool needed) : saved_(needed ? ReadFpcr() : 0) {
    if (saved_ & kModeBits) WriteFpcr(saved_ & ~kModeBits);
  }
  ~FloatEnvironmentGuard() {
    if (saved_ & kModeBits) WriteFpcr(saved_);
  }

 private:
  static uint64_t ReadFpcr() {
    uint64_t v;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
    return v;
  }
  static void WriteFpcr(uint64_t v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v) : "memory"); }

  uint64_t saved_;
#else
  explicit FloatEnvironmentGuard(bool) {}
#endif
  FloatEnvironmentGuard(const FloatEnvironmentGuard&) = delete;
  FloatEnvironmentGuard& operator=(const FloatEnvironmentGuard&) = delete;
};

}  // namespace pto

#endif  // PTO_FLOAT_ENV_H_
