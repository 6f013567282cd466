// The floating-point environment the kernels assume: round to nearest even,
// subnormals neither flushed nor treated as zero. A caller's thread may run
// with other settings (FTZ/DAZ are common in audio and ML code); each entry
// point that computes in floating point holds a FloatEnvironmentGuard, which
// switches to the defaults only when they differ and restores the caller's
// settings on return. Reading MXCSR costs ~6 ns, so integer work skips it.
#ifndef PTO_FLOAT_ENV_H_
#define PTO_FLOAT_ENV_H_

#if defined(__SSE2__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PTO_HAVE_MXCSR 1
#else
#define PTO_HAVE_MXCSR 0
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
#else
  explicit FloatEnvironmentGuard(bool) {}
#endif
  FloatEnvironmentGuard(const FloatEnvironmentGuard&) = delete;
  FloatEnvironmentGuard& operator=(const FloatEnvironmentGuard&) = delete;
};

}  // namespace pto

#endif  // PTO_FLOAT_ENV_H_
