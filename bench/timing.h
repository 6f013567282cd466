// Timing: ns per element of several callables measured interleaved, sample by
// sample, so that clock-frequency drift affects libpto and its baselines alike.
#ifndef PTO_BENCH_TIMING_H_
#define PTO_BENCH_TIMING_H_

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmath>
#include <vector>

namespace bench {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// A callable to time. `run(ctx, reps)` calls it reps times back to back and
// returns the elapsed ns; the loop is instantiated per callable, so a call
// costs what a user's direct call costs (no std::function in between).
struct Timed {
  uint64_t (*run)(void* ctx, size_t reps);
  void* ctx;
};

template <class F>
uint64_t RunReps(void* ctx, size_t reps) {
  F& f = *static_cast<F*>(ctx);
  const uint64_t start = NowNs();
  for (size_t i = 0; i < reps; ++i) f();
  return NowNs() - start;
}

// `f` must outlive the returned Timed.
template <class F>
Timed MakeTimed(F& f) {
  return Timed{&RunReps<F>, &f};
}

struct Stats {
  double median = NAN, min = NAN, max = NAN;  // ns per element
  bool valid() const { return !std::isnan(median); }
};

struct TimingConfig {
  size_t samples;          // samples per callable; the statistics are over these
  uint64_t sample_ns;      // a sample batches enough calls to last about this long
  uint64_t warmup_ns;      // each callable runs this long before calibration
};

// Times each callable over `elements` elements per call: warm-up, a
// calibrated number of calls per sample, then config.samples samples taken
// round-robin. Returns one Stats per callable, in order.
std::vector<Stats> Measure(const std::vector<Timed>& timed, size_t elements,
                           const TimingConfig& config);

}  // namespace bench

#endif  // PTO_BENCH_TIMING_H_
