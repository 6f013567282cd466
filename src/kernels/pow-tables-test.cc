// The properties of DEFAULT pow's log2 tables (src/kernels/pow-tables.h)
// that pow-default-inl.h's error analysis rests on, checked for every f32 z
// of every bucket, for both tables (16 buckets; 8 on AVX2):
//   - r = fma(z, invc, -1) is exact (the reduction loses nothing);
//   - |r| stays within the range the tail polynomial was fitted on;
//   - the bucket holding 1 has invc = 1 and log2 c = 0, so x near 1 loses
//     nothing either;
//   - -log2(invc) = hi + lo to 2^-40, hi a multiple of 2^-15 (so that k + hi
//     is exact for |k| <= 255);
//   - outside the bucket of 1, 1.55 |r| < |log2 invc|.
// Like test_kernel_coverage, it reads the library's own header: the tables
// are the thing under test.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern "C" {
#include <cmocka.h>
}

#include "pow-tables.h"

namespace {

namespace tab = pto::pow_tables;

struct Table {
  const char* name;
  uint32_t offset;  // f32 bits of the first bucket's lowest z
  int shift;        // log2 of the f32 bit patterns per bucket
  const float* invc;
  const float* logc_hi;
  const float* logc_lo;
  size_t buckets;
  double r_min, r_max;  // the tail polynomial's interval (pow-tables.h)
};

float FloatOfBits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

void CheckTable(const Table& t) {
  double r_lo = 0, r_hi = 0;
  size_t one_bucket = t.buckets;
  for (size_t i = 0; i < t.buckets; ++i) {
    const float invc = t.invc[i];
    const uint32_t first = t.offset + (static_cast<uint32_t>(i) << t.shift);
    double bucket_r = 0;
    bool holds_one = false;
    for (uint32_t b = first; b < first + (1u << t.shift); ++b) {
      const float z = FloatOfBits(b);
      const float r = fmaf(z, invc, -1.0f);
      // z has 24 significant bits and invc at most 24: z * invc - 1 is
      // exact in double.
      const double exact = static_cast<double>(z) * invc - 1.0;
      if (static_cast<double>(r) != exact) {
        fail_msg("%s bucket %zu: z = %a, invc = %a: r = %a, exact %a", t.name, i,
                 static_cast<double>(z), static_cast<double>(invc), static_cast<double>(r), exact);
      }
      r_lo = fmin(r_lo, exact);
      r_hi = fmax(r_hi, exact);
      bucket_r = fmax(bucket_r, fabs(exact));
      holds_one = holds_one || z == 1.0f;
    }
    const long double logc = -log2l(static_cast<long double>(invc));
    const long double sum = static_cast<long double>(t.logc_hi[i]) + t.logc_lo[i];
    assert_true(fabsl(sum - logc) <= 0x1p-40L);
    const double hi_units = static_cast<double>(t.logc_hi[i]) * 32768.0;
    assert_true(hi_units == floor(hi_units));
    if (holds_one) {
      one_bucket = i;
      assert_true(invc == 1.0f && t.logc_hi[i] == 0.0f && t.logc_lo[i] == 0.0f);
    } else {
      assert_true(1.55 * bucket_r < fabs(log2(static_cast<double>(invc))));
    }
  }
  assert_true(one_bucket < t.buckets);
  // The buckets cover one octave: the next z after the last is twice the first.
  assert_true(FloatOfBits(t.offset + (static_cast<uint32_t>(t.buckets) << t.shift)) ==
              2.0f * FloatOfBits(t.offset));
  assert_true(r_lo >= t.r_min && r_hi <= t.r_max);
  print_message("[pow tables] %s: %zu buckets of 2^%d f32 each, r exact for every z, r in "
                "[%.5f, %.5f], 1 in bucket %zu\n",
                t.name, t.buckets, t.shift, r_lo, r_hi, one_bucket);
}

void test_sixteen_buckets(void** state) {
  (void)state;
  CheckTable({"DEFAULT 16 buckets", tab::kLogOffF, 19, tab::kInvCF, tab::kLogCHiF, tab::kLogCLoF, 16,
              -0.03335, 0.03255});
}

void test_eight_buckets(void** state) {
  (void)state;
  CheckTable({"DEFAULT 8 buckets", tab::kLogOffF8, 20, tab::kInvCF8, tab::kLogCHiF8, tab::kLogCLoF8, 8,
              -0.0596, 0.0665});
}

}  // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sixteen_buckets),
      cmocka_unit_test(test_eight_buckets),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
