// pow-chain: the dependency chain of the float32 pow kernels, measured. One
// vector of float32 lanes goes through the kernel's arithmetic
// (PowInF32Lanes, the fast path every lane takes for x = 1.5, y = 1) again
// and again, each pass starting from the previous pass's result, so a pass
// takes the chain's latency; the same loop over dependent vector adds gives
// the add's latency, the unit the chain is counted in. Run on every SIMD
// target this CPU supports (or the one --target names):
//
//   build/bench/pow-chain [--target AVX2]
//
// prints per target an add's latency, a pass's own cost (carrying the
// vector from one pass to the next), the ns of one pass of DEFAULT and of
// HIGH_PRECISION, and each chain without the pass's cost as dependent adds
// and as cycles at 3 cycles per add (the add latency of current x86 and Arm
// cores). A 1x1 tpow call cannot finish sooner than its chain: this is the
// floor under pto-bench's 1x1 tpow rows. It also measures how many
// independent f64 FMAs (the operation HIGH_PRECISION's polynomials are made
// of) the target starts per cycle: 12 accumulators, each waiting only for
// itself, so the FMA units' throughput and not their latency sets the pace.
// Not installed; not run by `meson test`.
#include <stdio.h>
#include <string.h>

#include <utility>

#include "bench/target_select.h"
#include "bench/timing.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/pow_chain.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/kernels/pow-float-inl.h"

#ifndef PTO_BENCH_POW_CHAIN_ONCE
#define PTO_BENCH_POW_CHAIN_ONCE
namespace pto {
namespace chain {
struct Result {
  double add_ns, pass_ns, default_ns, high_ns, fma_ns;
};
// v, unknown to the compiler: nothing in a pass can be folded.
inline float Opaque(float v) {
  volatile float x = v;
  return x;
}
constexpr int kPasses = 2000;
constexpr int kRounds = 200;
}  // namespace chain
}  // namespace pto
#endif

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {

// Best of kRounds of kPasses calls of pass(), ns per call. Inlined, so that
// the values a pass carries stay in registers (out of line, the twelve FMA
// accumulators went through memory: 0.86 FMAs a cycle instead of 2.00).
template <class Pass>
HWY_INLINE double BestPassNs(const Pass& pass) {
  double best = 1e30;
  for (int round = 0; round < chain::kRounds; ++round) {
    const uint64_t t0 = bench::NowNs();
    for (int i = 0; i < chain::kPasses; ++i) pass();
    const double ns = static_cast<double>(bench::NowNs() - t0) / chain::kPasses;
    if (ns < best) best = ns;
  }
  return best;
}

// ns per pass of step, each pass from the previous pass's result.
template <class D, class Step>
double PassNs(D d, const Step& step) {
  auto v = hn::Set(d, chain::Opaque(1.5f));
  const double best = BestPassNs([&] { v = step(v); });
  // The result is used, so that the loop is not removed.
  if (hn::GetLane(v) != 1.5f) fprintf(stderr, "pow-chain: the chain drifted to %g\n", hn::GetLane(v));
  return best;
}

// v + z + z + ... (sizeof...(k) adds), each add waiting for the last.
template <class V, int... k>
HWY_INLINE V AddChain(V v, V z, std::integer_sequence<int, k...>) {
  ((v = hn::Add(v, z), (void)k), ...);
  return v;
}

// ns per f64 FMA when 12 independent ones are in flight (v = v * 1 + 0 in
// each of 12 accumulators, unknown to the compiler), best of kRounds.
HWY_NOINLINE double IndependentFmaNs() {
#if HWY_HAVE_FLOAT64
  const hn::ScalableTag<double> dd;
  const auto m = hn::Set(dd, static_cast<double>(chain::Opaque(1.0f)));
  const auto c = hn::Set(dd, static_cast<double>(chain::Opaque(0.0f)));
  // Each accumulator from its own volatile read: equal values the compiler
  // could prove equal would become one accumulator. Written out, not as an
  // array: SVE vectors are sizeless and cannot be array elements.
  const auto one = [&] { return hn::Set(dd, static_cast<double>(chain::Opaque(1.0f))); };
  auto v0 = one(), v1 = one(), v2 = one(), v3 = one(), v4 = one(), v5 = one();
  auto v6 = one(), v7 = one(), v8 = one(), v9 = one(), v10 = one(), v11 = one();
  const double best = BestPassNs([&] {
    v0 = hn::MulAdd(v0, m, c), v1 = hn::MulAdd(v1, m, c), v2 = hn::MulAdd(v2, m, c);
    v3 = hn::MulAdd(v3, m, c), v4 = hn::MulAdd(v4, m, c), v5 = hn::MulAdd(v5, m, c);
    v6 = hn::MulAdd(v6, m, c), v7 = hn::MulAdd(v7, m, c), v8 = hn::MulAdd(v8, m, c);
    v9 = hn::MulAdd(v9, m, c), v10 = hn::MulAdd(v10, m, c), v11 = hn::MulAdd(v11, m, c);
  }) / 12;
  const auto sum = hn::Add(hn::Add(hn::Add(hn::Add(v0, v1), hn::Add(v2, v3)), hn::Add(hn::Add(v4, v5), hn::Add(v6, v7))),
                           hn::Add(hn::Add(v8, v9), hn::Add(v10, v11)));
  if (hn::GetLane(sum) != 12.0) fprintf(stderr, "pow-chain: the FMAs drifted to %g\n", hn::GetLane(sum));
  return best;
#else
  return 0;
#endif
}

void MeasureChains(chain::Result* out) {
#if HWY_TARGET == HWY_SCALAR
  (void)out;
#else
  const hn::ScalableTag<float> d;
  const auto one = hn::Set(d, chain::Opaque(1.0f));
  const auto zero = hn::Set(d, chain::Opaque(0.0f));
  // Dependent adds, written out: 8 and 40 a pass. Their difference over 32
  // is an add's latency; what 8 adds a pass take beyond 8 latencies is the
  // pass's own cost (carrying v from one pass to the next), taken off the
  // pow passes.
  const auto adds = [&](auto count) {
    return PassNs(d, [&](hn::Vec<decltype(d)> v) { return AddChain(v, zero, count); });
  };
  const double ns8 = adds(std::make_integer_sequence<int, 8>());
  const double ns40 = adds(std::make_integer_sequence<int, 40>());
  out->add_ns = (ns40 - ns8) / 32;
  out->pass_ns = ns8 - 8 * out->add_ns;
  out->default_ns = PassNs(d, [&](hn::Vec<decltype(d)> v) {
    return PowInF32Lanes<false, float>(d, v, one);
  });
  out->high_ns = PassNs(d, [&](hn::Vec<decltype(d)> v) {
    return PowInF32Lanes<true, float>(d, v, one);
  });
  out->fma_ns = IndependentFmaNs();
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace pto
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto {
HWY_EXPORT(MeasureChains);
}  // namespace pto

// One line for the target libpto dispatches to now; nothing for targets
// without vector lanes (SCALAR, EMU128), where MeasureChains measures nothing.
static void PrintChains(const char* name) {
  pto::chain::Result r{};
  HWY_DYNAMIC_DISPATCH(pto::MeasureChains)(&r);
  if (r.add_ns == 0) return;
  const double default_adds = (r.default_ns - r.pass_ns) / r.add_ns;
  const double high_adds = (r.high_ns - r.pass_ns) / r.add_ns;
  const double fma_per_cycle = r.fma_ns > 0 ? r.add_ns / 3 / r.fma_ns : 0;
  printf("%-8s %8.3f %8.3f %9.2f (%5.1f, %6.1f) %9.2f (%5.1f, %6.1f) %9.2f\n", name, r.add_ns,
         r.pass_ns, r.default_ns, default_adds, 3 * default_adds, r.high_ns, high_adds,
         3 * high_adds, fma_per_cycle);
}

int main(int argc, char** argv) {
  const char* only = nullptr;
  if (argc == 3 && strcmp(argv[1], "--target") == 0) {
    only = argv[2];
  } else if (argc != 1) {
    fprintf(stderr, "usage: pow-chain [--target NAME]\n");
    return 2;
  }
  if (only != nullptr && !bench::SelectTarget(only)) {
    fprintf(stderr, "pow-chain: this CPU has no target %s (it has: %s)\n", only,
            bench::SupportedTargetNames().c_str());
    return 1;
  }
  printf("float32, one vector a pass: ns, and the chain without the pass's own cost in\n"
         "dependent adds and in cycles at 3 an add; FMA/cycle: independent f64 vector FMAs\n"
         "started per cycle (a cycle: a third of the add's latency)\n");
  printf("%-8s %8s %8s %26s %26s %9s\n", "target", "add ns", "pass ns", "DEFAULT ns (adds, cycles)",
         "HIGH ns (adds, cycles)", "FMA/cycle");
  if (only != nullptr) {
    PrintChains(only);
  } else {
    bench::ForEachTarget(PrintChains);
  }
  return 0;
}
#endif
