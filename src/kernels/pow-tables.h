// Constants of the floating-point pow kernels (pow-*-inl.h): reduction
// tables and polynomial coefficients. Shared by every SIMD target, so outside
// HWY_NAMESPACE and included once.
#ifndef PTO_KERNELS_POW_TABLES_H_
#define PTO_KERNELS_POW_TABLES_H_

#include <stdint.h>

namespace pto {
namespace pow_tables {

// log2 reduction: bucket i holds z whose double bits lie in
// [kLogOff + i * 2^50, kLogOff + (i + 1) * 2^50); c is its midpoint (1 for
// bucket 2, which holds 1), kInvC[i] = 1/c rounded to f32 and
// kLogC[i] = -log2(kInvC[i]). kLogOff minimises max |r| = 0.1022. The four
// entries are stored twice so that an AVX-512 permute may index with three
// bits (x86-inl.h); the portable lookup reads the first four.
constexpr uint64_t kLogOff = 0x3FE5933333333333ull;  // 0.674...
alignas(64) constexpr double kInvC[8] = {
    0x1.5b7c9cp+0, 0x1.2914a8p+0, 0x1p+0, 0x1.a27e34p-1,
    0x1.5b7c9cp+0, 0x1.2914a8p+0, 0x1p+0, 0x1.a27e34p-1,
};
alignas(64) constexpr double kLogC[8] = {
    -0x1.c364cad46f359p-2, -0x1.b7ba68d3676b5p-3, 0x0p+0, 0x1.29ec46b0525adp-2,
    -0x1.c364cad46f359p-2, -0x1.b7ba68d3676b5p-3, 0x0p+0, 0x1.29ec46b0525adp-2,
};

// exp2 reduction: the bits of 2^(i/4) minus i << 50, so that adding
// round(4 t) << 50 to entry (round(4 t) mod 4) also sets the exponent.
alignas(64) constexpr uint64_t kExp2Bits[8] = {
    0x3ff0000000000000, 0x3fef06fe0a31b715, 0x3feea09e667f3bcd, 0x3feee89f995ad3ad,
    0x3ff0000000000000, 0x3fef06fe0a31b715, 0x3feea09e667f3bcd, 0x3feee89f995ad3ad,
};

// Polynomial fits. log2(1 + r) ~ r * P(r) for |r| <= 0.1022; 2^r ~ Q(r) for
// |r| <= 1/8. HIGH_PRECISION (kLog2High, kExp2High): Chebyshev fits whose
// relative error, evaluated with the coefficients as stored, is
//   P degree 10: 2^-49.67    Q degree 6: 2^-42.89
// (tools/pow-coefficients.py fits and measures them). The fast DEFAULT path
// of targets without FMA (kLog2Fast, kExp2Fast, minimax with Q(0) = 1):
//   r P(r) degree 7: 2^-32.0  Q degree 4: 2^-27.5
constexpr double kLog2High[11] = {
    0x1.71547652b82fep+0,  -0x1.71547652b88c4p-1, 0x1.ec709dc3a0ea7p-2,
    -0x1.7154764d521b8p-2, 0x1.2776c509fdafcp-2,  -0x1.ec70b45d4ee8fp-3,
    0x1.a617778591c06p-3,  -0x1.71412d35b566ap-3, 0x1.48394581f8564p-3,
    -0x1.2ea4f390412a6p-3, 0x1.133b96edac2a8p-3,
};
constexpr double kLog2Fast[7] = {
    0x1.71547652a99a9p+0,  -0x1.71547716971b8p-1, 0x1.ec70a0a8e1be7p-2,
    -0x1.714fe3b077715p-2, 0x1.27712c13dcdb3p-2,  -0x1.f3428fe7e7d6p-3,
    0x1.aceb56c357eep-3,
};
constexpr double kExp2High[7] = {
    0x1p+0,               0x1.62e42fefb19e3p-1, 0x1.ebfbdff83132cp-3,
    0x1.c6b08bb064224p-5, 0x1.3b2ab6606b75bp-7, 0x1.5da3fc8f88406p-10,
    0x1.431c79fede795p-13,
};
constexpr double kExp2Fast[5] = {
    0x1p+0,               0x1.62e42e924e46dp-1, 0x1.ebfbe31fdffb9p-3,
    0x1.c6dc3e1aaef84p-5, 0x1.3b2ab61f78cf5p-7,
};

// The same buckets found from the bits of an f32 |x| (the f32 image of
// kLogOff, rounded up, so every f32 lands in the bucket its double would).
constexpr uint32_t kLogOffFromF32 = 0x3F2C999Au;

// DEFAULT (f32 lanes): 16 buckets of 2^19 f32 bit patterns from
// kLogOffF, z in [0.704, 1.407); 1 sits 0.48 into bucket 9 (c = 1).
// kInvCF[i] has at most 6 significant bits, so r = z * invc - 1 is exact in
// one f32 FMA (|r| <= 0.0333); -log2(invc) = kLogCHiF + kLogCLoF with the
// high part a multiple of 2^-15, so k + kLogCHiF is exact for every
// |k| <= 255. The bucket position of 1 and each invc minimise
// max r^2 / |log2 z| (the weight of the f32 tail term in t near x = 1)
// subject to 1.55 |r| < |log2 invc| (which keeps a_hi - n exact below).
constexpr uint32_t kLogOffF = 0x3F3428F6u;
alignas(64) constexpr float kInvCF[16] = {
    0x1.6p+0, 0x1.58p+0, 0x1.48p+0, 0x1.38p+0,
    0x1.3p+0, 0x1.2p+0, 0x1.18p+0, 0x1.1p+0,
    0x1.08p+0, 0x1p+0, 0x1.ep-1, 0x1.c8p-1,
    0x1.bp-1, 0x1.98p-1, 0x1.88p-1, 0x1.7p-1,
};
alignas(64) constexpr float kLogCHiF[16] = {
    -0x1.d678p-2, -0x1.b48p-2, -0x1.6e2p-2, -0x1.244p-2,
    -0x1.fbcp-3, -0x1.5cp-3, -0x1.08cp-3, -0x1.664p-4,
    -0x1.6bcp-5, 0x0p+0, 0x1.7d6p-4, 0x1.564p-3,
    0x1.f6p-3, 0x1.4f7p-2, 0x1.8a88p-2, 0x1.e7ep-2,
};
alignas(64) constexpr float kLogCLoF[16] = {
    0x1.60fe68p-17, 0x1.408c78p-18, -0x1.0e6ce8p-17, -0x1.eac382p-20,
    -0x1.6b9026p-19, -0x1.a39fbep-19, -0x1.62336ap-17, 0x1.20a6dep-21,
    0x1.2c8a72p-17, 0x0p+0, 0x1.25b3eep-22, -0x1.1eb002p-18,
    -0x1.3ab7cep-18, -0x1.134c4ep-20, 0x1.80abfcp-18, -0x1.40358ep-19,
};

// DEFAULT with 8 buckets (AVX2, where a table of eight f32 is one register
// and one VPERMPS, against two and a blend for 16; see pow-default-inl.h):
// buckets of 2^20 f32 bit patterns from kLogOffF8, z in [0.711, 1.422); 1
// sits 0.625 into bucket 4 (c = 1). tools/pow-coefficients.py chooses the
// offset and each kInvCF8[i] (at most 5 significant bits) to minimise the
// weight of the f32 tail term, max r^2 / |log2 z| = 0.0398 over the buckets,
// subject to r = z * invc - 1 being exact in one f32 FMA (|r| below invc's
// last place where z < 1, twice it where z >= 1) and to 1.55 |r| <
// |log2 invc|; r in [-0.0596, 0.0664]. The 16-bucket table's weight is
// 0.0229: the tail carries -r^2/2 apart (pow-default-inl.h), which cuts
// what is left of it to about a third. -log2(invc) = kLogCHiF8 + kLogCLoF8
// as above; tests/test_pow_tables.cc checks these properties bucket by
// bucket, for every z.
constexpr uint32_t kLogOffF8 = 0x3F360000u;
alignas(32) constexpr float kInvCF8[8] = {
    0x1.6p+0, 0x1.4p+0, 0x1.2p+0, 0x1.1p+0, 0x1p+0, 0x1.dp-1, 0x1.ap-1, 0x1.8p-1,
};
alignas(32) constexpr float kLogCHiF8[8] = {
    -0x1.d678p-2, -0x1.49a8p-2, -0x1.5cp-3, -0x1.664p-4,
    0x0p+0, 0x1.22ep-3, 0x1.32cp-2, 0x1.a9p-2,
};
alignas(32) constexpr float kLogCLoF8[8] = {
    0x1.60fe68p-17, 0x1.ed0cbap-20, -0x1.a39fbep-19, 0x1.20a6dep-21,
    0x0p+0, -0x1.48f554p-17, -0x1.1c8f12p-22, -0x1.a39fbep-20,
};

// log2(1 + r) = kC1Hi * r + r * M(r), M of degree 4 (absolute error 2^-30.4
// on [-0.03335, 0.03255]; M(0) holds the low part of 1/ln 2).
constexpr float kC1Hi = 0x1.715476p+0f;
constexpr float kLogTailF[5] = {
    0x1.4bc598p-26f, -0x1.715474p-1f, 0x1.ec7078p-2f, -0x1.71a47p-2f, 0x1.28593cp-2f,
};
// 8 buckets: log2(1 + r) = kC1Hi * r - r^2 / 2 + r * M8(r), M8 of degree 5
// (absolute error 2^-30.81 on [-0.0596, 0.0664]; M8(0) holds the low part of
// 1/ln 2; tools/pow-coefficients.py).
constexpr float kLogTailF8[6] = {
    0x1.5156ap-26f,  -0x1.c551d8p-3f, 0x1.ec702ap-2f,
    -0x1.71585cp-2f, 0x1.28ae1ep-2f,  -0x1.e606d2p-3f,
};
// 2^f ~ E(f) on |f| <= 0.5002, E(0) = 1, degree 6, relative error 2^-28.3.
constexpr float kExp2F[7] = {
    0x1p+0f,        0x1.62e43p-1f,   0x1.ebfbdcp-3f,  0x1.c6af7ap-5f,
    0x1.3b2dd6p-7f, 0x1.5f095cp-10f, 0x1.4176acp-13f,
};

}  // namespace pow_tables
}  // namespace pto

#endif  // PTO_KERNELS_POW_TABLES_H_
