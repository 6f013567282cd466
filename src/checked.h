// Arithmetic on a caller's numbers: every index, offset, count, stride and
// byte size a caller passes (a C argument or a program's scalar) meets a
// shape or an element size here, never in a bare + or *. A sum or product
// that does not fit its type is reported as not fitting, which the caller
// turns into a refusal (PTO_ERR_OUT_OF_RANGE, or the status its function's
// text names) before anything is written: SIZE_MAX, 2^63 and 2^32 are
// refused exactly as the bound + 1 is.
#ifndef PTO_CHECKED_H_
#define PTO_CHECKED_H_

#include <stddef.h>
#include <stdint.h>

namespace pto {

// a + b in *sum; false, *sum unspecified, where it wraps.
inline bool AddFits(size_t a, size_t b, size_t* sum) { return !__builtin_add_overflow(a, b, sum); }
inline bool AddFits(int64_t a, int64_t b, int64_t* sum) {
  return !__builtin_add_overflow(a, b, sum);
}

// a * b in *product; false, *product unspecified, where it wraps.
inline bool MulFits(size_t a, size_t b, size_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}
inline bool MulFits(int64_t a, int64_t b, int64_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}

// Whether [start, start + extent) lies inside [0, bound): start + extent <=
// bound, written so that no start overflows.
inline bool SpanInside(size_t start, size_t extent, size_t bound) {
  return start <= bound && extent <= bound - start;
}

// The same for signed numbers (a program's int64_t registers): false
// where any of them is negative.
inline bool SignedSpanInside(int64_t start, int64_t extent, int64_t bound) {
  return start >= 0 && extent >= 0 && bound >= 0 &&
         SpanInside(static_cast<size_t>(start), static_cast<size_t>(extent),
                    static_cast<size_t>(bound));
}

// a * b for a, b >= 0, INT64_MAX where the product does not fit (a count
// that large is past every bound it is compared with).
inline int64_t SaturatedMul(int64_t a, int64_t b) {
  int64_t product;
  return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

// The flat element offset row * cols + col in *offset; false where it wraps.
inline bool FlatOffset(size_t row, size_t cols, size_t col, size_t* offset) {
  size_t base;
  return MulFits(row, cols, &base) && AddFits(base, col, offset);
}

// The byte offset of element `index` of `size`-byte elements; false where
// it wraps.
inline bool ByteOffset(size_t index, size_t size, size_t* bytes) {
  return MulFits(index, size, bytes);
}

// Whether `nbytes` bytes from `address` stay inside the address space (the
// end does not wrap past zero) and below PTRDIFF_MAX, the most one object
// holds.
inline bool RangeInAddressSpace(const void* address, size_t nbytes) {
  uintptr_t end;
  return nbytes <= static_cast<size_t>(PTRDIFF_MAX) &&
         !__builtin_add_overflow(reinterpret_cast<uintptr_t>(address), nbytes, &end);
}

}  // namespace pto

#endif  // PTO_CHECKED_H_
