// The results of one pto-bench run and the ways it shows them: the table,
// the CSV file, the gnuplot chart and the check against the speed goals.
#ifndef PTO_BENCH_REPORT_H_
#define PTO_BENCH_REPORT_H_

#include <stddef.h>
#include <stdio.h>

#include <string>
#include <vector>

#include "timing.h"

namespace bench {

// The row's call on every supported SIMD target, against the first (best)
// target's result: bitwise, NaN results by NaN-ness only.
struct TargetIdentity {
  std::string targets;     // "AVX2,SSE4,SSSE3,SCALAR"; empty when not compared
  long differing = -1;     // elements where some target differs from the first
  std::string per_target;  // "SSE4 3, SSSE3 3": where some differ
};

// One (operation, dtype, algorithm or region, shape) measurement. A baseline
// that does not apply (or could not run on this CPU) has invalid Stats.
struct Row {
  std::string op;      // "tpow"
  std::string dtype;   // "float32"
  std::string algo;    // "default", "high", "full", "partial" or "-"
  std::string shape;   // "64x64"
  size_t elements = 0;
  double working_set_kib = 0;  // bytes of every operand the call reads or writes
  Stats lib, scalar, avx2_add, sleef, rsqrtf;
  Stats libm;  // texp and tlog float32: the C library's expf/logf loop
  Stats empty_call;  // 1x1 rows: a call to a function that does nothing
  // tpow and trsqrt: max ulp error against a double reference on the
  // benchmark data, of libpto and of the vector baseline (SLEEF or 1/sqrtf).
  double lib_ulp = NAN, base_ulp = NAN;
  // Other operations: elements where libpto differs from the scalar loop
  // (both should be exact); -1 when not checked.
  long mismatches = -1;
  TargetIdentity identity;  // the 64x64 rows
};

// Run description printed above the table and stored in every CSV row.
struct RunInfo {
  std::string cpu;
  std::string target;
  std::string library_version;
};

// baseline time / libpto time: > 1 means libpto is faster. NaN if either is missing.
double Ratio(const Stats& baseline, const Stats& lib);

void PrintTableHeader(FILE* out);
void PrintRow(FILE* out, const Row& row);

// The 1x1 float32 rows as per-call costs, against an empty call.
void PrintCallOverhead(FILE* out, const std::vector<Row>& rows);

// float16 and bfloat16 time per element over float32's, per operation (64x64).
void PrintNarrowTypes(FILE* out, const std::vector<Row>& rows);

// Each of the project's speed goals that the rows cover, PASS or MISS.
void PrintTargetChecks(FILE* out, const std::vector<Row>& rows);

// Per row compared across targets: identical, or how many elements differ;
// PASS or MISS except tpow DEFAULT, which the contract lets differ.
void PrintIdentity(FILE* out, const std::vector<Row>& rows);

// False (with a message on stderr) if the file cannot be written.
bool WriteCsv(const char* path, const std::vector<Row>& rows, const RunInfo& info);

// Renders the ratios of the `shape` rows to a PNG with gnuplot. Prints a note
// and returns false if gnuplot is not on PATH or fails.
bool PlotRatios(const char* png_path, const std::vector<Row>& rows, const std::string& shape,
                const RunInfo& info);

}  // namespace bench

#endif  // PTO_BENCH_REPORT_H_
