// Per-target tuning of the floating-point pow kernels: where the generic
// files (pow-log2exp2-inl.h, pow-default-inl.h, pow-float-inl.h) choose by
// target between ways of computing that every target could run, the
// choice is a switch here, and those files name no target for it. (What a
// target can do stays where it is used: FMA or not, SCALAR's one lane.)
// x86-inl.h holds the x86 instruction-level variants of building blocks and
// portable-inl.h their twins; this table arranges the algorithm around
// them. Each switch says what it chooses, its value on each target, and
// why; the measurements behind them are in bench/results/ and
// docs/performance.md.
//
// The switches of HIGH_PRECISION (HighPolyScheme, Exp2ScaleInFma,
// TwoVectorsPerStep, ReadYLate) change the schedule or the evaluation of the
// double result within the error that MarkHardToRound assumes, so its
// results are the same bits on every target. DEFAULT's (EightBuckets,
// DefaultExp2ByPairs) change the f32 arithmetic and with it the bits, within
// DEFAULT's error bound.
//
// Re-included once per target by foreach_target.h, hence the toggle guard.
#if defined(PTO_KERNELS_POW_TUNING_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef PTO_KERNELS_POW_TUNING_INL_H_
#undef PTO_KERNELS_POW_TUNING_INL_H_
#else
#define PTO_KERNELS_POW_TUNING_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// ---------------------------------------------------------------------------
// HIGH_PRECISION (double lanes, pow-log2exp2-inl.h and pow-float-inl.h).

// Where one of HIGH_PRECISION's polynomials (P of degree 10 for log2, Q of
// degree 6 for 2^t) is evaluated, which decides what limits its speed:
//   - kOverlapped: the other uses, chiefly the one-pass row loop (two
//     vectors a step, TwoVectorsPerStep) and PowHighBlocks' first pass,
//     where the compiler interleaves independent chains, so the operation
//     count matters as much as the chain;
//   - kLoneChain: a row tail of at most half a vector, such as a 1x1 tile,
//     where nothing overlaps the chain: its length alone sets the time;
//   - kBlockPass: Q in PowHighBlocks' second pass, whose chain is short
//     (the rounding test is in the third pass) and whose steps overlap.
enum class PolyUse { kOverlapped, kLoneChain, kBlockPass };

// The evaluation schemes of polynomial-inl.h. For P and Q: Estrin's scheme
// costs 13 and 8 FMA-unit operations with the shortest chain; Horner's rule
// 10 and 6, with a chain about twice as long; EvenOdd 11 and 7, half
// Horner's chain, with fewer values live at once than Estrin's.
enum class PolyScheme { kEstrin, kHorner, kEvenOdd };

// The scheme of HIGH_PRECISION's polynomials for a use (HighPolynomial;
// where it is EvenOdd, HighLog2Sum folds k + log2(c) into the even chain).
//   - kLoneChain: Estrin's scheme on every target, the shortest chain.
//   - AVX-512: Horner's rule otherwise: the fewest operations, and with two
//     vectors' chains interleaved the FMA units rather than the chain set
//     the pace.
//   - AVX2: EvenOdd where kOverlapped (faster there than Estrin's scheme and
//     than Horner's rule; EvenOdd for P with Estrin's scheme for Q gains
//     nothing), Horner's rule where kBlockPass (the fewest operations on a
//     chain that is already short).
//   - Every other target: Estrin's scheme. SSE4 (no FMA) runs slower with
//     EvenOdd for kOverlapped and with Horner's rule for kBlockPass; targets
//     of other architectures are not tuned.
constexpr PolyScheme HighPolyScheme(PolyUse use) {
  if (use == PolyUse::kLoneChain) return PolyScheme::kEstrin;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return PolyScheme::kHorner;
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  return use == PolyUse::kBlockPass ? PolyScheme::kHorner : PolyScheme::kEvenOdd;
#else
  return PolyScheme::kEstrin;
#endif
}

// Whether Exp2Scaled computes 2^t = scale Q(r) as scale + (scale r) Q1(r),
// Q = 1 + r Q1: one FMA in place of Q's last one and the multiply by scale,
// which then no longer wait for each other. Targets with FMA, outside the
// lone chain, whose Estrin's scheme gains nothing from it; without FMA the
// FMA would be a multiply and an add, and the product stays.
constexpr bool Exp2ScaleInFma(PolyUse use) { return HWY_NATIVE_FMA && use != PolyUse::kLoneChain; }

// Vectors per step of the one-pass row loop (PowFloatRow: rows shorter than
// a block, and what follows the blocks). HIGH_PRECISION: two on every
// target. Its fast path is one long dependency chain (about 80 cycles from
// x to the result), so with one vector a step the loop is latency bound and
// the out-of-order core overlaps little of the next step; two independent
// vectors in one basic block (PowTwoVectors: no branch until both are
// computed) let the compiler interleave their four double-lane chains, and
// four vectors gain nothing more. DEFAULT: one on AVX-512, two elsewhere.
// Its f32 chain is shorter and the core overlaps the steps by itself; two
// vectors a step still gain a little on AVX2 and cost on AVX-512.
template <bool kHigh>
constexpr bool TwoVectorsPerStep() {
  return kHigh || !(HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3);
}

// Whether PowHighBlocks' first pass reads y after log2|x| (LoadsBelowThis)
// rather than where the compiler schedules it: at the top of the loop,
// converted to double there and spilled to the stack until its multiply at
// the end. AVX2 and AVX-512, where reading it late avoids the spill; SSE4
// (no FMA) runs slower with it and keeps the compiler's order, as do the
// targets of other architectures, which are not tuned.
constexpr bool ReadYLate() { return HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2; }

// ---------------------------------------------------------------------------
// DEFAULT in f32 lanes (targets with FMA, pow-default-inl.h).

// The log2 table: 8 buckets on AVX2, 16 elsewhere. On AVX2 a table of eight
// f32 is one register and a lookup one VPERMPS (Lookup8), against two
// permutes and a blend for 16 (Lookup16); AVX-512 permutes once either way,
// and other targets gather. 8 buckets double |r|, which pow-default-inl.h
// makes up for (the tail's -y r^2/2 carried apart, M8 by Estrin's scheme),
// at a little more error: the largest test_accuracy finds on its fast-path
// inputs is 3.26 ulp with 8 buckets, 2.89 with 16.
constexpr bool EightBuckets() { return HWY_TARGET == HWY_AVX2; }

// Whether DEFAULT's 2^f is evaluated by Pairs rather than Horner's rule: on
// AVX2, where Pairs' shorter chain makes the loop faster; other targets keep
// Horner's rule. Pairs rather than Estrin's scheme, whose chain is about as
// short but whose results are less accurate (on pto-bench's 64x64 data 1.58
// ulp at most, against 1.23).
constexpr bool DefaultExp2ByPairs() { return HWY_TARGET == HWY_AVX2; }

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#endif  // PTO_KERNELS_POW_TUNING_INL_H_
