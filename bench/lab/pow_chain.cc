// pow-chain: how long a float32 tpow call takes when it waits for its input,
// measured through the public API. One vector of float32 lanes (a 1 x lanes
// tile, lanes the width of the target's vector) goes through pto_tpow again
// and again, each call's base the previous call's result (two tiles in turn,
// x = 1.5, y = 1: the fast path every lane takes, and x^1 = x, so the input
// never changes), so a call takes the kernel's dependency chain plus what of
// the call the core cannot overlap with the previous call's chain (the
// result's store and reload between calls, and the call's own work beyond
// what the out-of-order window hides). The same calls on a base that stays
// fixed give a call's cost when nothing waits: their difference is what
// waiting for the input adds. Dependent vector adds give the add's latency,
// the unit of the cycle counts. Run on every SIMD target this CPU supports
// (or the one --target names):
//
//   build/bench/lab/pow-chain [--target AVX2]
//
// prints per target an add's latency, the vector's lanes, per algorithm the
// ns of a fed-back call (and as cycles at 3 cycles an add, the add latency
// of current x86 and Arm cores) and of a call on a fixed base. A fed-back
// call is an upper bound on the kernel's chain, and a 1x1 tpow call whose
// input is the previous result cannot finish sooner than it. It also
// measures how many independent f64 FMAs (the operation HIGH_PRECISION's
// polynomials are made of) the target starts per cycle: 12 accumulators,
// each waiting only for itself, so the FMA units' throughput and not their
// latency sets the pace. Not installed.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utility>

#include "pto_c.h"
#include "target_select.h"
#include "timing.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "pow_chain.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#ifndef PTO_BENCH_POW_CHAIN_ONCE
#define PTO_BENCH_POW_CHAIN_ONCE
namespace pto {
namespace chain {
struct Calls {
  double fed_back_ns, fixed_ns;  // per call
};
struct Result {
  double add_ns, fma_ns;
  size_t lanes;
  Calls default_calls, high_calls;
};
// v, unknown to the compiler: nothing in a pass can be folded.
inline float Opaque(float v) {
  volatile float x = v;
  return x;
}
constexpr int kPasses = 2000;
constexpr int kRounds = 200;

// The tiles of one measurement: 1 x lanes float32, base and result 1.5,
// exponent 1.
struct Tiles {
  pto_tile *a, *b, *exp, *tmp;
};
inline pto_tile* Filled(size_t lanes, float value) {
  pto_tile* t = nullptr;
  if (pto_tile_create(PTO_FLOAT32, 1, static_cast<uint32_t>(lanes), &t) != PTO_OK) {
    fprintf(stderr, "pow-chain: %s\n", pto_last_error());
    exit(1);
  }
  float values[64];
  for (size_t i = 0; i < lanes; ++i) values[i] = value;
  pto_tile_write_f32(t, values, lanes);
  return t;
}
inline Tiles MakeTiles(size_t lanes) {
  return Tiles{Filled(lanes, 1.5f), Filled(lanes, 1.5f), Filled(lanes, 1.0f), Filled(lanes, 0.0f)};
}
inline void Pow(pto_tile* dst, pto_tile* base, const Tiles& t, pto_pow_algorithm algo) {
  if (pto_tpow(dst, base, t.exp, t.tmp, algo) != PTO_OK) {
    fprintf(stderr, "pow-chain: tpow: %s\n", pto_last_error());
    exit(1);
  }
}
// Checks that the chain kept its value, then frees the tiles.
inline void FreeTiles(const Tiles& t, size_t lanes) {
  float values[64];
  pto_tile_read_f32(t.a, values, lanes);
  for (size_t i = 0; i < lanes; ++i) {
    if (values[i] != 1.5f) fprintf(stderr, "pow-chain: the chain drifted to %g\n", values[i]);
  }
  for (pto_tile* tile : {t.a, t.b, t.exp, t.tmp}) pto_tile_destroy(tile);
}
}  // namespace chain
}  // namespace pto
#endif

HWY_BEFORE_NAMESPACE();
namespace pto {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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
  if (hn::GetLane(v) != 1.5f) fprintf(stderr, "pow-chain: the adds drifted to %g\n", hn::GetLane(v));
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

// tpow calls on one vector of lanes: each base the previous result (a to b,
// b to a), and each on the same base (a to b).
chain::Calls TPowNs(size_t lanes, pto_pow_algorithm algo) {
  const chain::Tiles t = chain::MakeTiles(lanes);
  chain::Calls calls;
  calls.fed_back_ns = BestPassNs([&] {
    chain::Pow(t.b, t.a, t, algo);
    chain::Pow(t.a, t.b, t, algo);
  }) / 2;
  calls.fixed_ns = BestPassNs([&] {
    chain::Pow(t.b, t.a, t, algo);
    chain::Pow(t.b, t.a, t, algo);
  }) / 2;
  chain::FreeTiles(t, lanes);
  return calls;
}

void MeasureChains(chain::Result* out) {
#if HWY_TARGET == HWY_SCALAR
  (void)out;
#else
  const hn::ScalableTag<float> d;
  const auto zero = hn::Set(d, chain::Opaque(0.0f));
  // Dependent adds, written out: 8 and 40 a pass. Their difference over 32
  // is an add's latency, free of the pass's own cost.
  const auto adds = [&](auto count) {
    return PassNs(d, [&](hn::Vec<decltype(d)> v) { return AddChain(v, zero, count); });
  };
  const double ns8 = adds(std::make_integer_sequence<int, 8>());
  const double ns40 = adds(std::make_integer_sequence<int, 40>());
  out->add_ns = (ns40 - ns8) / 32;
  // libpto dispatches to this same target (bench::ForEachTarget).
  out->lanes = hn::Lanes(d);
  out->default_calls = TPowNs(out->lanes, PTO_POW_DEFAULT);
  out->high_calls = TPowNs(out->lanes, PTO_POW_HIGH_PRECISION);
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
  const double fma_per_cycle = r.fma_ns > 0 ? r.add_ns / 3 / r.fma_ns : 0;
  printf("%-8s %8.3f %5zu", name, r.add_ns, r.lanes);
  for (const pto::chain::Calls& c : {r.default_calls, r.high_calls}) {
    printf(" %9.2f (%6.1f) %9.2f", c.fed_back_ns, 3 * c.fed_back_ns / r.add_ns, c.fixed_ns);
  }
  printf(" %9.2f\n", fma_per_cycle);
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
  printf("float32 tpow on a 1 x lanes tile, ns a call: fed back (each call's base the last\n"
         "call's result; in cycles at 3 an add) and on a fixed base; FMA/cycle: independent\n"
         "f64 vector FMAs started per cycle (a cycle: a third of the add's latency)\n");
  printf("%-8s %8s %5s %19s %9s %19s %9s %9s\n", "target", "add ns", "lanes", "DEFAULT fed (cyc)",
         "fixed", "HIGH fed (cyc)", "fixed", "FMA/cycle");
  if (only != nullptr) {
    PrintChains(only);
  } else {
    bench::ForEachTarget(PrintChains);
  }
  return 0;
}
#endif
