#include "timing.h"

#include <algorithm>

namespace bench {
namespace {

void WarmUp(const Timed& t, uint64_t warmup_ns) {
  uint64_t spent = 0;
  for (size_t reps = 1; spent < warmup_ns; reps = std::min<size_t>(reps * 2, 1u << 20)) {
    spent += t.run(t.ctx, reps);
  }
}

// Calls per sample so that one sample lasts about sample_ns (at least one).
size_t CallsPerSample(const Timed& t, uint64_t sample_ns) {
  size_t reps = 1;
  uint64_t ns = t.run(t.ctx, reps);
  while (ns < sample_ns / 8 && reps < (1u << 24)) {
    reps *= 2;
    ns = t.run(t.ctx, reps);
  }
  const double per_call = static_cast<double>(ns) / static_cast<double>(reps);
  return std::max<size_t>(1, static_cast<size_t>(static_cast<double>(sample_ns) / std::max(per_call, 1.0)));
}

Stats Summarise(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  return s;
}

}  // namespace

std::vector<Stats> Measure(const std::vector<Timed>& timed, size_t elements,
                           const TimingConfig& config) {
  std::vector<size_t> reps(timed.size());
  for (size_t i = 0; i < timed.size(); ++i) {
    WarmUp(timed[i], config.warmup_ns);
    reps[i] = CallsPerSample(timed[i], config.sample_ns);
  }
  std::vector<std::vector<double>> per_element(timed.size());
  for (size_t s = 0; s < config.samples; ++s) {
    for (size_t i = 0; i < timed.size(); ++i) {
      const uint64_t ns = timed[i].run(timed[i].ctx, reps[i]);
      per_element[i].push_back(static_cast<double>(ns) /
                               (static_cast<double>(reps[i]) * static_cast<double>(elements)));
    }
  }
  std::vector<Stats> stats;
  for (auto& v : per_element) stats.push_back(Summarise(std::move(v)));
  return stats;
}

}  // namespace bench
