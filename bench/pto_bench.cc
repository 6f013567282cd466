// pto-bench: nanoseconds per element of each libpto tile instruction, next to
// the loops a user would otherwise run (a scalar double-precision loop, an
// AVX2 add loop, SLEEF's powf, a vectorised 1/sqrtf), timed in the same run on
// the same tiles; a 1x1 call next to an empty call and a one-element add
// call; and whether each operation gives the same bits on every SIMD target.
// See `pto-bench --help`.
#include <ctype.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "baselines.h"
#include "gemm.h"
#include "programs.h"
#include "pto_c.h"
#include "report.h"
#include "support.h"
#include "target_select.h"
#include "timing.h"

namespace bench {
namespace {

// ---------------------------------------------------------------------------
// Command line

struct Options {
  const char* csv = nullptr;
  const char* plot = nullptr;
  const char* target = nullptr;
  const char* filter = nullptr;
  bool quick = false;
  bool programs_only = false;
  bool launches_only = false;
  bool gemm_only = false;
  size_t gemm_n = 4096;  // examples/kernels/gemm.pto's size (--gemm N)
};

void PrintTimedOperations(FILE* out);

void PrintUsage(FILE* out) {
  fprintf(out,
          "usage: pto-bench [--quick] [--programs] [--launches] [--filter OP] [--target NAME] [--csv FILE] [--plot FILE]\n"
          "  --quick        fewer and shorter samples (a rough run in a few seconds)\n"
          "  --programs     only the PTO assembly rows (instructions in a program, the 4096x4096 kernel,\n"
          "                 the kernels of examples/kernels, the launches)\n"
          "  --launches     only the launch rows (an empty kernel on 1, 2, 4 blocks; small tiles on 1, 2)\n"
          "  --gemm [N]     only the matrix multiply rows (pto_tmatmul against cblas_sgemm, the narrow\n"
          "                 types' rates, examples/kernels/gemm.pto on NxNxN on 1 and 2 blocks; N 4096,\n"
          "                 0 leaves the kernel out)\n"
          "  --filter OP    only this operation:");
  PrintTimedOperations(out);
  fprintf(out,
          "\n"
          "  --target NAME  restrict libpto's timed kernels to one SIMD target (AVX3, AVX2, SSE4, ...);\n"
          "                 the identity summary still runs every target\n"
          "  --csv FILE     also write every row as CSV\n"
          "  --plot FILE    render the 64x64 ratios as a PNG chart (needs gnuplot on PATH)\n");
}

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char** value = nullptr;
    if (strcmp(arg, "--quick") == 0) {
      options->quick = true;
      continue;
    }
    if (strcmp(arg, "--programs") == 0) {
      options->programs_only = true;
      continue;
    }
    if (strcmp(arg, "--gemm") == 0) {
      options->gemm_only = true;
      if (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
        options->gemm_n = strtoul(argv[++i], nullptr, 10);
      continue;
    }
    if (strcmp(arg, "--launches") == 0) {
      options->launches_only = true;
      continue;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      PrintUsage(stdout);
      exit(0);
    }
    if (strcmp(arg, "--csv") == 0) value = &options->csv;
    if (strcmp(arg, "--plot") == 0) value = &options->plot;
    if (strcmp(arg, "--target") == 0) value = &options->target;
    if (strcmp(arg, "--filter") == 0) value = &options->filter;
    if (value == nullptr || i + 1 >= argc) {
      fprintf(stderr, "pto-bench: %s '%s'\n", value == nullptr ? "unknown option" : "missing value for",
              arg);
      PrintUsage(stderr);
      return false;
    }
    *value = argv[++i];
  }
  return true;
}

// ---------------------------------------------------------------------------
// The machine

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown CPU";
}

std::string L1DataCacheSize() {
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string level, type, size;
    std::ifstream(dir + "/level") >> level;
    std::ifstream(dir + "/type") >> type;
    std::ifstream(dir + "/size") >> size;
    if (level == "1" && type == "Data") return size;
  }
  return "?";
}

// One CPU for the whole run: no migrations between samples.
void PinToCurrentCpu() {
  const int cpu = sched_getcpu();
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

// ---------------------------------------------------------------------------
// Deterministic inputs

struct TileDeleter {
  void operator()(pto_tile* t) const { pto_tile_destroy(t); }
};
using TilePtr = std::unique_ptr<pto_tile, TileDeleter>;

TilePtr MakeTile(pto_dtype dtype, uint32_t rows, uint32_t cols) {
  pto_tile* t = nullptr;
  if (pto_tile_create(dtype, rows, cols, &t) != PTO_OK) {
    fprintf(stderr, "pto-bench: %s\n", pto_last_error());
    exit(1);
  }
  return TilePtr(t);
}

// Fills the whole tile with gen(rng): through pto_tile_write_f32 (rounding to
// nearest even) for float tiles, truncated to the element width for integers.
template <class Gen>
void Fill(pto_tile* tile, rng* r, const Gen& gen) {
  const pto_dtype dtype = pto_tile_dtype(tile);
  const size_t n = static_cast<size_t>(pto_tile_rows(tile)) * pto_tile_cols(tile);
  pto_status status;
  if (ref_is_float(dtype)) {
    std::vector<float> values(n);
    for (float& v : values) v = static_cast<float>(gen(r));
    status = pto_tile_write_f32(tile, values.data(), n);
  } else {
    const size_t size = pto_dtype_size(dtype);
    std::vector<unsigned char> bytes(n * size);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(gen(r)));
      memcpy(&bytes[i * size], &v, size);  // little-endian: the low bytes
    }
    status = pto_tile_write(tile, bytes.data(), bytes.size());
  }
  if (status != PTO_OK) {
    fprintf(stderr, "pto-bench: %s\n", pto_last_error());
    exit(1);
  }
}

// Float tiles uniform in [-range, range]; integer tiles random bits of the
// element width (negatives included).
void FillSigned(pto_tile* tile, rng* r, double range) {
  if (ref_is_float(pto_tile_dtype(tile))) {
    Fill(tile, r, [range](rng* g) { return rng_uniform(g, -range, range); });
  } else {
    Fill(tile, r, [](rng* g) { return static_cast<double>(rng_between(g, INT32_MIN, UINT32_MAX)); });
  }
}

// ---------------------------------------------------------------------------
// Cases

// tpows's exponent in every case (a fractional one: pow's general path).
constexpr double kTPowsExponent = 2.5;

struct Case {
  op_id op;
  pto_dtype dtype;
  pto_pow_algorithm algo = PTO_POW_DEFAULT;  // tpow and tpows only
  bool partial = false;                      // tpartadd only
  pto_dtype src_dtype = PTO_FLOAT32;         // tcvt only: the source's dtype (dtype is dst's)
};

// The dtype's name as the results files spell it: pto_dtype_string in lower case.
std::string DtypeName(pto_dtype t) {
  std::string name = pto_dtype_string(t);
  for (char& c : name) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string AlgoName(const Case& c) {
  if (c.op == OP_TPOW || c.op == OP_TPOWS)
    return c.algo == PTO_POW_HIGH_PRECISION ? "high" : "default";
  if (c.op == OP_TPARTADD) return c.partial ? "partial" : "full";
  if (c.op == OP_TCVT) return "from-" + DtypeName(c.src_dtype);
  return "-";
}

// Float types first: they carry the speed goals.
const pto_dtype kAllDtypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16, PTO_INT8, PTO_UINT8,
                                PTO_INT16,   PTO_UINT16,  PTO_INT32,    PTO_UINT32};
const pto_dtype kFloatDtypes[] = {PTO_FLOAT32, PTO_FLOAT16, PTO_BFLOAT16};
const pto_dtype kF32F16[] = {PTO_FLOAT32, PTO_FLOAT16};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (pto_dtype t : kAllDtypes) cases.push_back({OP_TPOW, t, PTO_POW_DEFAULT, false});
  for (pto_dtype t : kFloatDtypes) cases.push_back({OP_TPOW, t, PTO_POW_HIGH_PRECISION, false});
  // tpows: base ^ 2.5 (kTPowsExponent), float dtypes, both algorithms.
  for (pto_dtype t : kFloatDtypes) {
    cases.push_back({OP_TPOWS, t, PTO_POW_DEFAULT, false});
    cases.push_back({OP_TPOWS, t, PTO_POW_HIGH_PRECISION, false});
  }
  for (pto_dtype t : kF32F16) cases.push_back({OP_TRSQRT, t});
  for (pto_dtype t : kAllDtypes) cases.push_back({OP_TPRELU, t});
  for (pto_dtype t : kF32F16) cases.push_back({OP_TCOLEXPANDDIV, t});
  for (pto_dtype t : kAllDtypes) {
    cases.push_back({OP_TPARTADD, t, PTO_POW_DEFAULT, false});
    cases.push_back({OP_TPARTADD, t, PTO_POW_DEFAULT, true});
  }
  // tcvt (RINT, SAT_ON) on the pairs models use most: dst first, then src.
  cases.push_back({OP_TCVT, PTO_BFLOAT16, PTO_POW_DEFAULT, false, PTO_FLOAT32});
  cases.push_back({OP_TCVT, PTO_FLOAT32, PTO_POW_DEFAULT, false, PTO_BFLOAT16});
  cases.push_back({OP_TCVT, PTO_INT32, PTO_POW_DEFAULT, false, PTO_FLOAT32});
  // tgather: random INT32 indices over the whole source, one per element.
  for (pto_dtype t : kAllDtypes) cases.push_back({OP_TGATHER, t});
  // Every other operations.def row, in each dtype HOST accepts.
  for (int op = 0; op < OP_COUNT; ++op) {
    if (op_row(static_cast<op_id>(op))->family == OP_FAMILY_SPECIAL) continue;
    for (pto_dtype t : kAllDtypes)
      if (op_accepts(static_cast<op_id>(op), PTO_PROFILE_HOST, t))
        cases.push_back({static_cast<op_id>(op), t});
  }
  return cases;
}

// The mnemonics --filter accepts, in operations.def's order: the operations
// AllCases times (bench/pto-bench.1 lists the same, generated from AllCases).
void PrintTimedOperations(FILE* out) {
  const std::vector<Case> cases = AllCases();
  bool first = true;
  for (int op = 0; op < OP_COUNT; ++op) {
    if (std::none_of(cases.begin(), cases.end(), [op](const Case& c) { return c.op == op; })) continue;
    fprintf(out, "%s %s", first ? "" : ",", op_mnemonic(static_cast<op_id>(op)));
    first = false;
  }
}

bool MatchesFilter(const Case& c, const char* filter) {
  if (filter == nullptr) return true;
  const char* name = op_mnemonic(c.op);
  return strcmp(filter, name) == 0 || strcmp(filter, name + 1) == 0;
}

// ---------------------------------------------------------------------------
// One measurement

struct Machine {
  TimingConfig timing;
  bool avx2 = false;   // AVX2 baselines may run
  bool sleef = false;  // ... and SLEEF's AVX2 powf (needs FMA too)
};

struct AlignedFree {
  void operator()(void* p) const { free(p); }
};
using Buffer = std::unique_ptr<void, AlignedFree>;

// The baselines' buffers: large ones on transparent huge pages, as libpto's
// tiles of 4 MiB or more (src/alloc.cc) and numpy's arrays are, so that the
// add loop stays the machine's load/store bound for the 1024x1024 rows.
Buffer AllocBuffer(size_t bytes) {
  constexpr size_t kHugePage = size_t{1} << 21;
  const bool huge = bytes >= (size_t{1} << 22);
  const size_t align = huge ? kHugePage : 64;
  const size_t size = (bytes + align - 1) / align * align;
  void* p = aligned_alloc(align, size);
  if (p == nullptr) {
    fprintf(stderr, "pto-bench: out of memory\n");
    exit(1);
  }
#ifdef MADV_HUGEPAGE
  if (huge) madvise(p, size, MADV_HUGEPAGE);
#endif
  memset(p, 0, bytes);
  return Buffer(p);
}

// The operands of one case, plus the buffers the baselines write to.
struct Operands {
  pto_dtype dtype;
  uint32_t rows, cols, part_rows, part_cols;
  size_t n;
  TilePtr dst, src0, src1, tmp;
  Buffer scalar_out, vector_out, add_a, add_b, add_out;
};

Operands MakeOperands(const Case& c, uint32_t rows, uint32_t cols, rng* r) {
  Operands o;
  o.dtype = c.dtype;
  o.rows = rows;
  o.cols = cols;
  o.n = static_cast<size_t>(rows) * cols;
  o.part_rows = c.partial ? rows * 3 / 4 : rows;
  o.part_cols = c.partial ? cols * 3 / 4 : cols;
  o.dst = MakeTile(c.dtype, rows, cols);
  o.src0 = MakeTile(c.op == OP_TCVT ? c.src_dtype : c.dtype, rows, cols);
  o.src1 = MakeTile(c.dtype, rows, cols);
  const bool is_float = ref_is_float(c.dtype);
  const bool is_signed = ref_is_signed(c.dtype);
  switch (c.op) {
    case OP_TPOW:
      o.tmp = MakeTile(c.dtype, rows, cols);
      if (is_float) {
        Fill(o.src0.get(), r, [](rng* g) { return 4.0 * (1.0 - rng_unit(g)); });  // (0, 4]
        Fill(o.src1.get(), r, [](rng* g) { return rng_uniform(g, -4, 4); });
      } else {
        Fill(o.src0.get(), r, [is_signed](rng* g) {
          return static_cast<double>(is_signed ? rng_between(g, -6, 6) : rng_between(g, 0, 12));
        });
        Fill(o.src1.get(), r, [is_signed](rng* g) {
          return static_cast<double>(is_signed ? rng_between(g, -2, 12) : rng_between(g, 0, 12));
        });
      }
      break;
    case OP_TPOWS:  // the scalar loop reads the exponent from src1, filled with it
      Fill(o.src0.get(), r, [](rng* g) { return 4.0 * (1.0 - rng_unit(g)); });  // (0, 4]
      Fill(o.src1.get(), r, [](rng*) { return kTPowsExponent; });
      break;
    case OP_TRSQRT: {
      // Positive, log-uniform over most of the type's range.
      const double lo = c.dtype == PTO_FLOAT16 ? -14 : -60, hi = c.dtype == PTO_FLOAT16 ? 15.5 : 60;
      Fill(o.src0.get(), r, [lo, hi](rng* g) { return std::exp2(rng_uniform(g, lo, hi)); });
      break;
    }
    case OP_TEXP:  // vs_numpy.py's inputs: results in the normal range
      Fill(o.src0.get(), r, [](rng* g) { return rng_uniform(g, -10, 10); });
      break;
    case OP_TLOG:  // positive, log-uniform (vs_numpy.py's): no NaN results
      Fill(o.src0.get(), r, [](rng* g) { return std::exp2(rng_uniform(g, -60, 60)); });
      break;
    case OP_TPRELU:
      FillSigned(o.src0.get(), r, 10);
      FillSigned(o.src1.get(), r, 1);  // slopes
      break;
    case OP_TCOLEXPANDDIV:
      Fill(o.src0.get(), r, [](rng* g) { return rng_uniform(g, -100, 100); });
      Fill(o.src1.get(), r, [](rng* g) {
        return (rng_next(g) & 1 ? -1 : 1) * rng_uniform(g, 0.5, 10);  // never zero
      });
      break;
    case OP_TGATHER: {  // the indices in tmp (INT32): any element of src0
      FillSigned(o.src0.get(), r, 100);
      o.tmp = MakeTile(PTO_INT32, rows, cols);
      int32_t* index = static_cast<int32_t*>(pto_tile_data(o.tmp.get()));
      for (size_t i = 0; i < o.n; ++i) index[i] = static_cast<int32_t>(rng_next(r) % o.n);
      break;
    }
    case OP_TPARTADD:
      FillSigned(o.src0.get(), r, 100);
      FillSigned(o.src1.get(), r, 100);
      if (pto_tile_set_valid(o.src1.get(), o.part_rows, o.part_cols) != PTO_OK) {
        fprintf(stderr, "pto-bench: %s\n", pto_last_error());
        exit(1);
      }
      break;
    default:  // the families
      FillSigned(o.src0.get(), r, 100);
      FillSigned(o.src1.get(), r, 100);
      if (op_is_broadcast(c.op)) {  // the last source: one value per row or column
        const int e = op_row(c.op)->source_count - 1;
        uint32_t vr, vc;
        op_source_region(c.op, e, rows, cols, &vr, &vc);
        if (pto_tile_set_valid((e == 0 ? o.src0 : o.src1).get(), vr, vc) != PTO_OK) abort();
      }
      break;
  }
  const size_t bytes = o.n * pto_dtype_size(c.dtype);
  o.scalar_out = AllocBuffer(bytes);
  o.vector_out = AllocBuffer(o.n * sizeof(float));
  o.add_a = AllocBuffer(o.n * sizeof(float));
  o.add_b = AllocBuffer(o.n * sizeof(float));
  o.add_out = AllocBuffer(o.n * sizeof(float));
  float* a = static_cast<float*>(o.add_a.get());
  float* b = static_cast<float*>(o.add_b.get());
  for (size_t i = 0; i < o.n; ++i) {
    a[i] = static_cast<float>(rng_uniform(r, -100, 100));
    b[i] = static_cast<float>(rng_uniform(r, -100, 100));
  }
  return o;
}

// Bytes that one call reads or writes.
double WorkingSetKib(const Case& c, const Operands& o) {
  const double element = static_cast<double>(pto_dtype_size(c.dtype));
  const double n = static_cast<double>(o.n);
  double elements = 3 * n;
  if (c.op == OP_TRSQRT) elements = 2 * n;
  if (c.op == OP_TCOLEXPANDDIV) elements = 2 * n + o.cols;
  if (c.op == OP_TPARTADD) elements = 2 * n + static_cast<double>(o.part_rows) * o.part_cols;
  if (c.op == OP_TGATHER) return n * (2 * element + 4) / 1024.0;  // src, dst, INT32 indices
  if (c.op == OP_TCVT)
    return n * static_cast<double>(pto_dtype_size(c.dtype) + pto_dtype_size(c.src_dtype)) / 1024.0;
  return elements * element / 1024.0;
}

// Max ulp error of `out` (elements of dtype) against the double-precision
// result of the case on its own inputs.
double MaxUlpError(const Case& c, const Operands& o, const void* out, pto_dtype out_dtype) {
  const void* a = pto_tile_data(o.src0.get());
  const void* b = pto_tile_data(o.src1.get());
  double worst = 0;
  for (size_t i = 0; i < o.n; ++i) {
    const double x = ref_to_double(c.dtype, ref_load(c.dtype, a, i));
    const double exact = c.op == OP_TPOW || c.op == OP_TPOWS
                             ? std::pow(x, ref_to_double(c.dtype, ref_load(c.dtype, b, i)))
                             : 1.0 / std::sqrt(x);
    worst = std::max(worst, ref_ulp_error(out_dtype, ref_load(out_dtype, out, i), exact));
  }
  return worst;
}

// Elements of dst that differ (bitwise) from the scalar loop's output.
long Mismatches(const Operands& o) {
  const size_t size = pto_dtype_size(o.dtype);
  const unsigned char* lib = static_cast<const unsigned char*>(pto_tile_data(o.dst.get()));
  const unsigned char* ref = static_cast<const unsigned char*>(o.scalar_out.get());
  long count = 0;
  for (size_t i = 0; i < o.n; ++i) count += memcmp(lib + i * size, ref + i * size, size) != 0;
  return count;
}

// Times libpto's call and the scalar loop, with the vector baselines that
// apply, all interleaved; fills the row's Stats.
template <class Lib, class Scalar>
void TimeCase(const Case& c, Operands& o, const Machine& m, Lib& lib, Scalar& scalar, Row* row) {
  const size_t n = o.n;
  float* add_out = static_cast<float*>(o.add_out.get());
  const float* add_a = static_cast<const float*>(o.add_a.get());
  const float* add_b = static_cast<const float*>(o.add_b.get());
  float* vec_out = static_cast<float*>(o.vector_out.get());
  const float* in0 = static_cast<const float*>(pto_tile_data(o.src0.get()));
  const float* in1 = static_cast<const float*>(pto_tile_data(o.src1.get()));
  auto add = [=] { avx2_add_f32(n, add_out, add_a, add_b); };
  auto sleef = [=] { sleef_powf_u10_avx2(n, vec_out, in0, in1); };
  auto rsqrtf = [=] { vec_rsqrtf_f32(n, vec_out, in0); };
  auto expf_loop = [=] { scalar_expf_f32(n, vec_out, in0); };
  auto logf_loop = [=] { scalar_logf_f32(n, vec_out, in0); };
  auto empty = [=] { return empty_call(vec_out, in0, in1); };

  std::vector<Timed> timed = {MakeTimed(lib), MakeTimed(scalar)};
  std::vector<Stats*> results = {&row->lib, &row->scalar};
  const bool f32 = c.dtype == PTO_FLOAT32;
  // On 1x1 tiles the add loop is a non-inlined one-element add call, the
  // floor issue 18 measures every 1x1 call against.
  if (m.avx2 && (n == 1 || c.op == OP_TPRELU || c.op == OP_TPARTADD || c.op == OP_TCOLEXPANDDIV ||
                 op_row(c.op)->family != OP_FAMILY_SPECIAL)) {
    timed.push_back(MakeTimed(add));
    results.push_back(&row->avx2_add);
  }
  if (m.sleef && f32 && c.op == OP_TPOW) {
    timed.push_back(MakeTimed(sleef));
    results.push_back(&row->sleef);
  }
  if (m.avx2 && f32 && c.op == OP_TRSQRT) {
    timed.push_back(MakeTimed(rsqrtf));
    results.push_back(&row->rsqrtf);
  }
  if (f32 && c.op == OP_TEXP) {
    timed.push_back(MakeTimed(expf_loop));
    results.push_back(&row->libm);
  }
  if (f32 && c.op == OP_TLOG) {
    timed.push_back(MakeTimed(logf_loop));
    results.push_back(&row->libm);
  }
  if (n == 1) {  // a 1x1 call is mostly call overhead: time the bare call beside it
    timed.push_back(MakeTimed(empty));
    results.push_back(&row->empty_call);
  }
  const std::vector<Stats> stats = Measure(timed, n, m.timing);
  for (size_t i = 0; i < stats.size(); ++i) *results[i] = stats[i];
}

// Runs the call once outside the timing to see that libpto accepts it.
template <class Lib>
bool Accepted(const Case& c, Lib& lib) {
  if (lib() == PTO_OK) return true;
  fprintf(stderr, "pto-bench: %s %s: %s\n", op_mnemonic(c.op), DtypeName(c.dtype).c_str(), pto_last_error());
  return false;
}

// Calls fn(lib, scalar) with the case's libpto call and scalar loop as
// lambdas: each has its own type, so that timing calls them directly.
template <class Fn>
void WithCalls(const Case& c, Operands& o, const Fn& fn) {
  pto_tile* dst = o.dst.get();
  pto_tile* src0 = o.src0.get();
  pto_tile* src1 = o.src1.get();
  pto_tile* tmp = o.tmp.get();
  const void* in0 = pto_tile_data(src0);
  const void* in1 = pto_tile_data(src1);
  void* out = o.scalar_out.get();
  const pto_dtype t = c.dtype;
  const size_t n = o.n, rows = o.rows, cols = o.cols;
  switch (c.op) {
    case OP_TPOW: {
      const pto_pow_algorithm algo = c.algo;
      auto lib = [=] { return pto_tpow(dst, src0, src1, tmp, algo); };
      auto scalar = [=] { scalar_pow(t, n, out, in0, in1); };
      fn(lib, scalar);
      break;
    }
    case OP_TPOWS: {
      const pto_pow_algorithm algo = c.algo;
      auto lib = [=] { return pto_tpows(dst, src0, kTPowsExponent, algo); };
      auto scalar = [=] { scalar_pow(t, n, out, in0, in1); };
      fn(lib, scalar);
      break;
    }
    case OP_TRSQRT: {
      auto lib = [=] { return pto_trsqrt(dst, src0); };
      auto scalar = [=] { scalar_rsqrt(t, n, out, in0); };
      fn(lib, scalar);
      break;
    }
    case OP_TPRELU: {
      auto lib = [=] { return pto_tprelu(dst, src0, src1, nullptr); };
      auto scalar = [=] { scalar_prelu(t, n, out, in0, in1); };
      fn(lib, scalar);
      break;
    }
    case OP_TCOLEXPANDDIV: {
      auto lib = [=] { return pto_tcolexpanddiv(dst, src0, src1); };
      auto scalar = [=] { scalar_colexpanddiv(t, rows, cols, out, in0, in1); };
      fn(lib, scalar);
      break;
    }
    case OP_TPARTADD: {
      const size_t pr = o.part_rows, pc = o.part_cols;
      auto lib = [=] { return pto_tpartadd(dst, src0, src1); };
      auto scalar = [=] { scalar_partadd(t, rows, cols, pr, pc, out, in0, in1); };
      fn(lib, scalar);
      break;
    }
    case OP_TGATHER: {
      const int32_t* index = static_cast<const int32_t*>(pto_tile_data(tmp));
      auto lib = [=] { return pto_tgather(dst, src0, tmp, nullptr); };
      auto scalar = [=] { scalar_gather(t, n, out, in0, index); };
      fn(lib, scalar);
      break;
    }
    case OP_TCVT: {
      const pto_dtype from = c.src_dtype;
      auto lib = [=] { return pto_tcvt(dst, src0, nullptr, PTO_ROUND_RINT, PTO_SAT_ON); };
      auto scalar = [=] { scalar_cvt(t, from, n, out, in0); };
      fn(lib, scalar);
      break;
    }
    default:  // the families; the scalar loop is the tests' reference
      if (op_is_reduction(c.op)) {  // the tests' order reference
        static std::vector<uint64_t> reduced;
        reduced.resize(rows + cols);
        uint64_t* results = reduced.data();
        const op_id op = c.op;
        auto lib = [=] { return op_call(op, PTO_POW_DEFAULT, dst, src0, nullptr, nullptr); };
        // dst is a zero-filled [rows, cols] tile whose column 0 (row 0) the
        // call writes: the scalar loop's output has the same layout.
        memset(out, 0, n * pto_dtype_size(t));
        const bool by_row = op_row(op)->family == OP_FAMILY_ROW_REDUCE;
        auto scalar = [=] {
          op_reduce_reference(op, PTO_PROFILE_HOST, 0, t, in0, rows, cols, cols, results);
          for (size_t k = 0; k < (by_row ? rows : cols); ++k)
            ref_store(t, out, by_row ? k * cols : k, results[k]);
        };
        fn(lib, scalar);
        break;
      }
      if (op_is_broadcast(c.op)) {
        const op_id id = c.op;
        const op_element_reference ref = op_binary_reference(id);
        auto lib = [=] { return op_call(id, PTO_POW_DEFAULT, dst, src0, src1, nullptr); };
        auto scalar = [=] {
          for (size_t i = 0; i < rows; ++i)
            for (size_t j = 0; j < cols; ++j) {
              size_t i0, j0, i1, j1;
              op_source_index(id, 0, i, j, &i0, &j0);
              op_source_index(id, 1, i, j, &i1, &j1);
              ref_store(t, out, i * cols + j,
                        ref(t, ref_load(t, in0, i0 * cols + j0), ref_load(t, in1, i1 * cols + j1)));
            }
        };
        fn(lib, scalar);
        break;
      }
      {  // the elementwise families
        const op_binary_call call = op_binary_function(c.op);
        const op_element_reference ref = op_binary_reference(c.op);
        // A Scalar or Fill row's scalar is src1(0, 0) (op_binary_function).
        const op_family family = op_row(c.op)->family;
        const size_t b_step = family == OP_FAMILY_SCALAR || family == OP_FAMILY_FILL ? 0 : 1;
        auto lib = [=] { return call(dst, src0, src1); };
        auto scalar = [=] {
          for (size_t i = 0; i < n; ++i)
            ref_store(t, out, i, ref(t, ref_load(t, in0, i), ref_load(t, in1, i * b_step)));
        };
        fn(lib, scalar);
        break;
      }
  }
}

// Whether two elements hold the same result: the same bits, or both NaN.
bool SameResult(pto_dtype dtype, const unsigned char* a, const unsigned char* b) {
  const uint32_t x = ref_load(dtype, a, 0), y = ref_load(dtype, b, 0);
  return x == y || (ref_is_nan(dtype, x) && ref_is_nan(dtype, y));
}

// Runs the call on every supported target and compares each target's dst
// with the first (best) target's.
template <class Lib>
TargetIdentity CompareTargets(const Operands& o, Lib& lib) {
  const size_t size = pto_dtype_size(o.dtype);
  const unsigned char* dst = static_cast<const unsigned char*>(pto_tile_data(o.dst.get()));
  std::vector<unsigned char> first;
  std::vector<bool> differs(o.n);
  TargetIdentity identity;
  ForEachTarget([&](const char* target) {
    lib();
    identity.targets += (identity.targets.empty() ? "" : ",") + std::string(target);
    if (first.empty()) {
      first.assign(dst, dst + o.n * size);
      return;
    }
    long count = 0;
    for (size_t i = 0; i < o.n; ++i) {
      if (SameResult(o.dtype, &first[i * size], dst + i * size)) continue;
      differs[i] = true;
      ++count;
    }
    if (count == 0) return;
    if (!identity.per_target.empty()) identity.per_target += ", ";
    identity.per_target += std::string(target) + " " + std::to_string(count);
  });
  identity.differing = std::count(differs.begin(), differs.end(), true);
  return identity;
}

Row RunCase(const Case& c, uint32_t rows, uint32_t cols, const Machine& m, bool check_identity,
            rng* r) {
  Operands o = MakeOperands(c, rows, cols, r);
  Row row;
  row.op = op_mnemonic(c.op);
  row.dtype = DtypeName(c.dtype);
  row.algo = AlgoName(c);
  row.shape = std::to_string(rows) + "x" + std::to_string(cols);
  row.elements = o.n;
  row.working_set_kib = WorkingSetKib(c, o);

  bool ok = false;
  WithCalls(c, o, [&](auto& lib, auto& scalar) {
    if ((ok = Accepted(c, lib))) TimeCase(c, o, m, lib, scalar, &row);
  });
  if (!ok) return row;

  const bool approximated =
      ref_is_float(c.dtype) && (c.op == OP_TPOW || c.op == OP_TPOWS || c.op == OP_TRSQRT);
  if (approximated) {
    row.lib_ulp = MaxUlpError(c, o, pto_tile_data(o.dst.get()), c.dtype);
    if (row.sleef.valid() || row.rsqrtf.valid()) {
      row.base_ulp = MaxUlpError(c, o, o.vector_out.get(), PTO_FLOAT32);
    }
  } else {
    row.mismatches = Mismatches(o);
  }
  if (check_identity) {  // last: it leaves dst as the last target computed it
    WithCalls(c, o, [&](auto& lib, auto&) { row.identity = CompareTargets(o, lib); });
  }
  return row;
}

struct Shape {
  uint32_t rows, cols;
};
const Shape kShapes[] = {{1, 1}, {16, 16}, {64, 64}, {128, 128}};
// The shape whose data every target also computes, for the identity summary.
const Shape kIdentityShape = {64, 64};
// Far beyond the caches: float32 operations bound by loads and stores only,
// and tpow, whose time per element should not depend on the size (rows long
// enough that the row tail and the call cost vanish); the row reductions
// trowsum and trowmax, whose rows are then 16 of A5's 256-byte chunks;
// texp and tlog, whose goal against numpy is set at this size.
const Shape kLargeShape = {1024, 1024};

bool InLargeShape(const Case& c) {
  return c.op == OP_TCVT ||
         (c.dtype == PTO_FLOAT32 && (c.op == OP_TPRELU || c.op == OP_TPARTADD ||
                                     c.op == OP_TCOLEXPANDDIV || c.op == OP_TPOW ||
                                     c.op == OP_TROWSUM || c.op == OP_TROWMAX ||
                                     c.op == OP_TEXP || c.op == OP_TLOG));
}

int Main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) return 2;
  if (options.filter != nullptr) {
    bool known = false;
    for (const Case& c : AllCases()) known |= MatchesFilter(c, options.filter);
    if (!known) {
      fprintf(stderr, "pto-bench: unknown operation '%s'\n", options.filter);
      return 2;
    }
  }
  const std::string supported = SupportedTargetNames();
  if (options.target != nullptr) {
    if (!SelectTarget(options.target)) {
      fprintf(stderr, "pto-bench: this CPU has no SIMD target '%s' (supported: %s)\n",
              options.target, supported.c_str());
      return 2;
    }
  }
  PinToCurrentCpu();

  Machine m;
  m.timing = options.quick ? TimingConfig{9, 20000, 200000} : TimingConfig{51, 200000, 2000000};
  m.avx2 = __builtin_cpu_supports("avx2");
  m.sleef = m.avx2 && __builtin_cpu_supports("fma") && sleef_available();

  RunInfo info;
  info.cpu = CpuModel();
  info.target = pto_simd_target();
  info.library_version = pto_version_string();
  printf("pto-bench: libpto %s\n", info.library_version.c_str());
  printf("CPU: %s (L1d %s; SIMD targets supported: %s)\n", info.cpu.c_str(),
         L1DataCacheSize().c_str(), supported.c_str());
  printf("libpto SIMD target: %s%s\n", info.target.c_str(),
         options.target != nullptr ? " (selected with --target)" : " (best available)");
  printf("Baselines: AVX2 loops %s; SLEEF %s\n", m.avx2 ? "on" : "off (no AVX2)",
         m.sleef ? "on" : sleef_available() ? "off (no AVX2+FMA)" : "off (built without SLEEF)");
  printf("Timing: %zu samples of ~%.0f us each after %.1f ms warm-up, CLOCK_MONOTONIC%s\n\n",
         m.timing.samples, m.timing.sample_ns / 1e3, m.timing.warmup_ns / 1e6,
         options.quick ? " (--quick)" : "");
  if (options.launches_only) {
    RunLaunchRows(stdout, m.timing);
    return 0;
  }
  if (options.gemm_only) {
    RunGemmRows(stdout, m.timing, PTO_BENCH_KERNELS_DIR, options.gemm_n);
    return 0;
  }
  if (options.programs_only) {
    RunProgramRows(stdout, m.timing, PTO_BENCH_EXAMPLES_DIR);
    return 0;
  }
  PrintTableHeader(stdout);

  rng r = {0x5054'4F42'454E'4348ull};
  std::vector<Row> rows;
  for (const Shape& shape : kShapes) {
    printf("\n");
    const bool identity = shape.rows == kIdentityShape.rows && shape.cols == kIdentityShape.cols;
    for (const Case& c : AllCases()) {
      if (!MatchesFilter(c, options.filter)) continue;
      if (c.partial && shape.rows * 3 / 4 == 0) continue;  // 1x1 has no partial region
      rows.push_back(RunCase(c, shape.rows, shape.cols, m, identity, &r));
      PrintRow(stdout, rows.back());
    }
  }
  printf("\n");
  for (const Case& c : AllCases()) {
    if (!MatchesFilter(c, options.filter) || !InLargeShape(c)) continue;
    rows.push_back(RunCase(c, kLargeShape.rows, kLargeShape.cols, m, false, &r));
    PrintRow(stdout, rows.back());
  }
  PrintCallOverhead(stdout, rows);
  if (options.filter == nullptr) {
    RunProgramRows(stdout, m.timing, PTO_BENCH_EXAMPLES_DIR);
    RunGemmRows(stdout, m.timing, PTO_BENCH_KERNELS_DIR, options.quick ? 1024 : 4096);
  }
  PrintNarrowTypes(stdout, rows);
  PrintTargetChecks(stdout, rows);
  PrintIdentity(stdout, rows);

  int status = 0;
  if (options.csv != nullptr) {
    if (WriteCsv(options.csv, rows, info)) printf("\nCSV written to %s\n", options.csv);
    else status = 1;
  }
  if (options.plot != nullptr && PlotRatios(options.plot, rows, "64x64", info)) {
    printf("Chart written to %s\n", options.plot);
  }
  return status;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::Main(argc, argv); }
