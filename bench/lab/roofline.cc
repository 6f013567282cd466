// roofline: the running machine's limits for libpto's float32 matrix work,
// per core, on 1 and 2 cores at once.
//
//   build/bench/lab/roofline [--target AVX2] [--rounds N] [--mib M]
//
// - FMA, registers only: 16 independent vector FMA chains, nothing loaded;
//   the FMA pipes' rate.
// - FMA, the matrix kernel's inner block in cache: the register block of
//   src/kernels/matmul.cc, kRows rows of a by two vectors of b, one fused
//   multiply-add per accumulator per k, a's elements broadcast from its rows
//   and b's two vectors loaded from a packed strip, all of it in the
//   first-level cache (kRows 4 and 8: the blocks of 0.6 and 0.7); the rate
//   a product can reach when nothing waits for memory.
// - Streaming read: a sum over --mib MiB of float32 per core (far beyond the
//   caches), 4 vector accumulators; the bandwidth a product that reads its
//   operands once (a GEMV, a decode step's weights) is bound by.
// - Tile-order read: the same --mib MiB taken as a bfloat16 weight of 25600
//   columns (a Qwen3-32B MLP projection's rows, 51200 bytes apart), copied
//   into a 64 KiB buffer a tile of 128 rows x 256 columns at a time in the
//   order a decode step's kernels tload their weights: down the rows, then
//   the next 256 columns. Each tile is 128 pieces of 512 bytes on as many
//   pages; the rate a step that loads its weights so is bound by, whatever
//   the copy does with them.
//
// Each figure is the best of --rounds rounds (default 21), each round timed
// in the thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), so that a machine
// shared with other work gives the rate while the probe runs, not its share
// of the CPU; a round is a few milliseconds, under a scheduler's time slice,
// so that the best ones ran undisturbed. The 1-core figures
// run on the last CPU this process may use (taskset -c 1 pins them), the
// 2-core ones on the first two, each thread pinned, both starting together;
// per core is each thread's own rate (their mean), total their sum. Lines
// starting "bound " are for scripts (examples/models/qwen3-decode's
// --roofline): "bound NAME CORES VALUE", VALUE per core. Not installed.
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "target_select.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "roofline.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/aligned_allocator.h"
#include "hwy/highway.h"

#ifndef PTO_BENCH_ROOFLINE_ONCE
#define PTO_BENCH_ROOFLINE_ONCE
namespace roofline {
// v, unknown to the compiler: nothing in a pass can be folded.
inline float Opaque(float v) {
  volatile float x = v;
  return x;
}
// k of a block's pass: b's strip is kK x 2 vectors (16 KiB of AVX-512
// vectors), a's rows kRows x kK: both in the first-level cache.
constexpr size_t kK = 128;
}  // namespace roofline
#endif

HWY_BEFORE_NAMESPACE();
namespace roofline {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Float32 lanes of this target's vectors.
size_t Lanes() { return hn::Lanes(hn::ScalableTag<float>()); }

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// passes x 16 FMAs on 16 independent vectors; returns a sum of them so that
// nothing is removed. Written out: SVE's vectors cannot be array elements.
float RegisterFmas(size_t passes) {
  const hn::ScalableTag<float> d;
  const auto m = hn::Set(d, Opaque(1.0f)), c = hn::Set(d, Opaque(0.0f));
  const auto one = [&] { return hn::Set(d, Opaque(1.0f)); };
  auto v0 = one(), v1 = one(), v2 = one(), v3 = one(), v4 = one(), v5 = one(), v6 = one();
  auto v7 = one(), v8 = one(), v9 = one(), v10 = one(), v11 = one(), v12 = one();
  auto v13 = one(), v14 = one(), v15 = one();
  for (size_t p = 0; p < passes; ++p) {
    v0 = hn::MulAdd(v0, m, c), v1 = hn::MulAdd(v1, m, c), v2 = hn::MulAdd(v2, m, c);
    v3 = hn::MulAdd(v3, m, c), v4 = hn::MulAdd(v4, m, c), v5 = hn::MulAdd(v5, m, c);
    v6 = hn::MulAdd(v6, m, c), v7 = hn::MulAdd(v7, m, c), v8 = hn::MulAdd(v8, m, c);
    v9 = hn::MulAdd(v9, m, c), v10 = hn::MulAdd(v10, m, c), v11 = hn::MulAdd(v11, m, c);
    v12 = hn::MulAdd(v12, m, c), v13 = hn::MulAdd(v13, m, c), v14 = hn::MulAdd(v14, m, c);
    v15 = hn::MulAdd(v15, m, c);
  }
  const auto s = hn::Add(hn::Add(hn::Add(hn::Add(v0, v1), hn::Add(v2, v3)),
                                 hn::Add(hn::Add(v4, v5), hn::Add(v6, v7))),
                         hn::Add(hn::Add(hn::Add(v8, v9), hn::Add(v10, v11)),
                                 hn::Add(hn::Add(v12, v13), hn::Add(v14, v15))));
  return hn::GetLane(s);
}

// One k of one row: a(row, k) broadcast, times b's two vectors, into c0, c1.
template <class D, class V>
HWY_INLINE void RowStep(D d, float a, V b0, V b1, V& c0, V& c1) {
  const V av = hn::Set(d, a);
  c0 = hn::MulAdd(av, b0, c0);
  c1 = hn::MulAdd(av, b1, c1);
}

// passes x kK steps of a kRows x 2-vector register block (4 or 8 rows), as
// the matrix kernel's: a's rows (stride kK) broadcast, b's packed strip
// (2 vectors a k) loaded. Returns a sum of the accumulators.
template <size_t kRows>
float BlockFmas(size_t passes, const float* a, const float* b) {
  static_assert(kRows == 4 || kRows == 8, "the blocks measured");
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto z = hn::Zero(d);
  auto c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
  auto c40 = z, c41 = z, c50 = z, c51 = z, c60 = z, c61 = z, c70 = z, c71 = z;
  for (size_t p = 0; p < passes; ++p) {
    const float* bk = b;
    for (size_t k = 0; k < kK; ++k, bk += 2 * lanes) {
      const auto b0 = hn::LoadU(d, bk), b1 = hn::LoadU(d, bk + lanes);
      RowStep(d, a[k], b0, b1, c00, c01);
      RowStep(d, a[kK + k], b0, b1, c10, c11);
      RowStep(d, a[2 * kK + k], b0, b1, c20, c21);
      RowStep(d, a[3 * kK + k], b0, b1, c30, c31);
      if constexpr (kRows == 8) {
        RowStep(d, a[4 * kK + k], b0, b1, c40, c41);
        RowStep(d, a[5 * kK + k], b0, b1, c50, c51);
        RowStep(d, a[6 * kK + k], b0, b1, c60, c61);
        RowStep(d, a[7 * kK + k], b0, b1, c70, c71);
      }
    }
  }
  const auto s = hn::Add(hn::Add(hn::Add(hn::Add(c00, c01), hn::Add(c10, c11)),
                                 hn::Add(hn::Add(c20, c21), hn::Add(c30, c31))),
                         hn::Add(hn::Add(hn::Add(c40, c41), hn::Add(c50, c51)),
                                 hn::Add(hn::Add(c60, c61), hn::Add(c70, c71))));
  return hn::GetLane(s);
}
float Block4Fmas(size_t passes, const float* a, const float* b) {
  return BlockFmas<4>(passes, a, b);
}
float Block8Fmas(size_t passes, const float* a, const float* b) {
  return BlockFmas<8>(passes, a, b);
}

// The sum of n floats (n a multiple of 4 vectors), in 4 accumulators.
float StreamSum(const float* p, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  auto s0 = hn::Zero(d), s1 = s0, s2 = s0, s3 = s0;
  for (size_t i = 0; i + 4 * lanes <= n; i += 4 * lanes) {
    s0 = hn::Add(s0, hn::LoadU(d, p + i));
    s1 = hn::Add(s1, hn::LoadU(d, p + i + lanes));
    s2 = hn::Add(s2, hn::LoadU(d, p + i + 2 * lanes));
    s3 = hn::Add(s3, hn::LoadU(d, p + i + 3 * lanes));
  }
  return hn::GetLane(hn::Add(hn::Add(s0, s1), hn::Add(s2, s3)));
}

}  // namespace HWY_NAMESPACE
}  // namespace roofline
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace roofline {
HWY_EXPORT(Lanes);
HWY_EXPORT(TargetName);
HWY_EXPORT(RegisterFmas);
HWY_EXPORT(Block4Fmas);
HWY_EXPORT(Block8Fmas);
HWY_EXPORT(StreamSum);

namespace {

volatile float g_sink;  // every measurement's result lands here

// What one thread measures: `work` runs one round and returns the units it
// did (FLOPs or bytes); the best rate over `rounds`, in units per ns.
using Work = std::function<double()>;

uint64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

double BestRate(const Work& work, int rounds) {
  double best = 0;
  for (int r = 0; r < rounds; ++r) {
    const uint64_t t0 = ThreadCpuNs();
    const double units = work();
    const double rate = units / static_cast<double>(ThreadCpuNs() - t0);
    if (rate > best) best = rate;
  }
  return best;
}

void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

// Per-thread rates of make_work(thread)() run on each of `cpus` at once,
// each thread pinned to its CPU; the threads start together.
std::vector<double> RatesOn(const std::vector<int>& cpus,
                            const std::function<Work(size_t)>& make_work, int rounds) {
  std::vector<double> rates(cpus.size());
  std::atomic<size_t> ready{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < cpus.size(); ++t) {
    threads.emplace_back([&, t] {
      PinTo(cpus[t]);
      const Work work = make_work(t);
      work();  // warm: caches, pages, clock
      ready.fetch_add(1);
      while (ready.load() < cpus.size()) {
      }
      rates[t] = BestRate(work, rounds);
    });
  }
  for (std::thread& th : threads) th.join();
  return rates;
}

struct Figure {
  double per_core = 0, total = 0;
};
Figure Summarise(const std::vector<double>& rates) {
  Figure f;
  for (double r : rates) f.total += r;
  f.per_core = f.total / static_cast<double>(rates.size());
  return f;
}

void Print(const char* label, const char* unit, const char* key, const Figure& one,
           const Figure* two) {
  printf("%-46s 1 core %7.1f %s", label, one.per_core, unit);
  if (two != nullptr)
    printf("   2 cores %7.1f per core (%.1f in all)", two->per_core, two->total);
  printf("\n");
  printf("bound %s 1 %.2f\n", key, one.per_core);
  if (two != nullptr) printf("bound %s 2 %.2f\n", key, two->per_core);
}

int Usage() {
  fprintf(stderr, "usage: roofline [--target NAME] [--rounds N] [--mib M]\n");
  return 2;
}

}  // namespace
}  // namespace roofline

int main(int argc, char** argv) {
  using namespace roofline;
  int rounds = 21;
  size_t mib = 512;  // beyond a server's last-level cache (105 MiB on the Xeon measured)
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
      if (!bench::SelectTarget(argv[++i])) {
        fprintf(stderr, "roofline: this CPU has no target %s (it has: %s)\n", argv[i],
                bench::SupportedTargetNames().c_str());
        return 2;
      }
    } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = atoi(argv[++i]);
      if (rounds < 1) return Usage();
    } else if (strcmp(argv[i], "--mib") == 0 && i + 1 < argc) {
      mib = static_cast<size_t>(atol(argv[++i]));
      if (mib < 1 || mib > 16384) return Usage();
    } else {
      return Usage();
    }
  }

  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  sched_getaffinity(0, sizeof allowed, &allowed);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  const std::vector<int> one_cpu = {cpus.back()};
  const std::vector<int> two_cpus =
      cpus.size() >= 2 ? std::vector<int>{cpus[0], cpus[1]} : std::vector<int>{};

  const size_t lanes = HWY_DYNAMIC_DISPATCH(Lanes)();
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 1) load[0] = -1;
  printf("roofline: target %s, %zu float32 lanes; CPUs %d (1 core) and ",
         HWY_DYNAMIC_DISPATCH(TargetName)(), lanes, one_cpu[0]);
  if (two_cpus.empty())
    printf("none (2 cores: only one CPU allowed)");
  else
    printf("%d, %d (2 cores)", two_cpus[0], two_cpus[1]);
  printf("; best of %d rounds; load average %.2f at the start\n", rounds, load[0]);

  // Each measurement on 1 core, then on 2 if there are two.
  const auto measure = [&](const std::function<Work(size_t)>& make_work, Figure* one,
                           Figure* two) {
    *one = Summarise(RatesOn(one_cpu, make_work, rounds));
    if (!two_cpus.empty()) *two = Summarise(RatesOn(two_cpus, make_work, rounds));
  };
  Figure one, two;
  const Figure* two_or_null = two_cpus.empty() ? nullptr : &two;

  // About 5 ms a round at 100 GFLOP/s.
  const size_t register_passes = static_cast<size_t>(5e8 / (32.0 * lanes));
  measure([&](size_t) -> Work {
    return [=] {
      g_sink = HWY_DYNAMIC_DISPATCH(RegisterFmas)(register_passes);
      return 32.0 * lanes * register_passes;
    };
  }, &one, &two);
  Print("f32 FMA, registers only", "GFLOP/s", "fma_registers_gflops", one, two_or_null);

  struct BlockShape {
    size_t rows;
    float (*fn)(size_t, const float*, const float*);
    const char* label;
    const char* key;
  };
  const BlockShape shapes[] = {
      {4, HWY_DYNAMIC_DISPATCH(Block4Fmas), "f32 FMA, 4 x 2-vector block, in L1", "fma_block4_gflops"},
      {8, HWY_DYNAMIC_DISPATCH(Block8Fmas), "f32 FMA, 8 x 2-vector block, in L1", "fma_block8_gflops"},
  };
  for (const BlockShape& s : shapes) {
    const size_t passes = static_cast<size_t>(5e8 / (4.0 * lanes * s.rows * kK));
    measure([&](size_t) -> Work {
      // Per thread: a's rows and b's strip, small normal values (no
      // subnormal ever reached), in that thread's cache.
      auto a = std::make_shared<std::vector<float>>(s.rows * kK, 0.5f);
      auto b = std::make_shared<std::vector<float>>(2 * lanes * kK, 1e-9f);
      return [=] {
        g_sink = s.fn(passes, a->data(), b->data());
        return 4.0 * lanes * s.rows * kK * static_cast<double>(passes);
      };
    }, &one, &two);
    Print(s.label, "GFLOP/s", s.key, one, two_or_null);
  }

  const size_t floats = mib * (size_t{1} << 20) / sizeof(float);
  measure([&](size_t) -> Work {
    auto buf = std::make_shared<hwy::AlignedFreeUniquePtr<float[]>>(
        hwy::AllocateAligned<float>(floats));
    for (size_t i = 0; i < floats; ++i) (*buf)[i] = 1.0f;  // the pages mapped, by this thread
    return [=] {
      g_sink = HWY_DYNAMIC_DISPATCH(StreamSum)(buf->get(), floats);
      return static_cast<double>(floats * sizeof(float));
    };
  }, &one, &two);
  char label[64];
  snprintf(label, sizeof label, "streaming read, %zu MiB per core", mib);
  Print(label, "GB/s   ", "read_gbs", one, two_or_null);

  // About 40 MiB a round: every tile of 8 of the weight's 100 column blocks,
  // the next 8 the next round (the weight is far beyond the caches, so a
  // round after the last starts over from memory).
  constexpr size_t kPitch = 51200, kPiece = 512, kTileRows = 128, kBlocksPerRound = 8;
  const size_t tile_rows = mib * (size_t{1} << 20) / kPitch / kTileRows * kTileRows;
  if (tile_rows > 0) {
    measure([&](size_t) -> Work {
      auto weight = std::make_shared<hwy::AlignedFreeUniquePtr<uint8_t[]>>(
          hwy::AllocateAligned<uint8_t>(tile_rows * kPitch));
      memset(weight->get(), 1, tile_rows * kPitch);  // the pages mapped, by this thread
      auto tile = std::make_shared<hwy::AlignedFreeUniquePtr<uint8_t[]>>(
          hwy::AllocateAligned<uint8_t>(kTileRows * kPiece));
      auto next = std::make_shared<size_t>(0);
      return [=] {
        const uint8_t* w = weight->get();
        uint8_t* t = tile->get();
        size_t sum = 0;
        for (size_t b = 0; b < kBlocksPerRound; ++b, *next = (*next + 1) % (kPitch / kPiece)) {
          for (size_t r0 = 0; r0 < tile_rows; r0 += kTileRows) {
            for (size_t r = 0; r < kTileRows; ++r)
              memcpy(t + r * kPiece, w + (r0 + r) * kPitch + *next * kPiece, kPiece);
            sum += t[r0 % kPiece];
          }
        }
        g_sink = static_cast<float>(sum);
        return static_cast<double>(kBlocksPerRound * tile_rows * kPiece);
      };
    }, &one, &two);
    Print("tile-order read, 128 x 512-byte pieces", "GB/s   ", "tile_read_gbs", one, two_or_null);
  }
  if (getloadavg(load, 3) < 1) load[0] = -1;
  printf("load average %.2f at the end\n", load[0]);
  return 0;
}
#endif  // HWY_ONCE
