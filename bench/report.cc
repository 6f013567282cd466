#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "pto_c.h"

namespace bench {
namespace {

// The vector baseline that bounds each operation: SLEEF for pow, the
// 1/sqrtf loop for rsqrt, the AVX2 add loop for the load/store-bound rest.
const Stats& VectorBaseline(const Row& row) {
  if (row.op == "tpow") return row.sleef;
  if (row.op == "trsqrt") return row.rsqrtf;
  return row.avx2_add;
}

std::string FormatRatio(double r) {
  if (std::isnan(r)) return "-";
  char buf[32];
  snprintf(buf, sizeof buf, r >= 100 ? "%.0fx" : r >= 10 ? "%.1fx" : "%.2fx", r);
  return buf;
}

std::string FormatUlp(double ulp) {
  if (std::isnan(ulp)) return "-";
  if (std::isinf(ulp)) return "inf";
  char buf[32];
  snprintf(buf, sizeof buf, ulp >= 100 ? "%.3g" : "%.2f", ulp);
  return buf;
}

std::string Accuracy(const Row& row) {
  if (!std::isnan(row.lib_ulp)) return FormatUlp(row.lib_ulp) + " ulp";
  if (row.mismatches == 0) return "exact";
  if (row.mismatches > 0) return std::to_string(row.mismatches) + " differ";
  return "-";
}

std::string BaseAccuracy(const Row& row) {
  return std::isnan(row.base_ulp) ? "-" : FormatUlp(row.base_ulp) + " ulp";
}

std::string Csv(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

const Row* Find(const std::vector<Row>& rows, const char* op, const char* dtype,
                const char* algo, const char* shape) {
  for (const Row& r : rows) {
    if (r.op == op && r.dtype == dtype && r.algo == algo && r.shape == shape) return &r;
  }
  return nullptr;
}

// Whether the row's results are within the contract's bound (the speed of a
// wrong result counts for nothing).
bool MeetsContract(const Row& r) {
  if (r.mismatches > 0) return false;
  if (std::isnan(r.lib_ulp)) return true;
  const bool loose =
      (r.op == "tpow" || r.op == "tpows") && r.dtype == "float32" && r.algo == "default";
  return r.lib_ulp <= (loose ? 8.0 : 1.0);
}

std::string Describe(const Row& r, const char* what) {
  std::string s = r.op;
  if (r.algo != "-") s += " " + r.algo;
  if (r.dtype != "float32") s += " " + r.dtype;
  return s + " " + what;
}

void Check(FILE* out, const Row& row, bool pass, const std::string& what, std::string measured,
           const char* goal) {
  if (!MeetsContract(row)) measured += " but results wrong (" + Accuracy(row) + ")";
  fprintf(out, "  [%s] %-48s %-24s (target %s)\n", pass && MeetsContract(row) ? "PASS" : "MISS",
          what.c_str(), measured.c_str(), goal);
}

// ratio >= goal; silent when the ratio was not measured.
void CheckRatio(FILE* out, const Row& row, double ratio, double goal, const char* what,
                const char* goal_text) {
  if (std::isnan(ratio)) return;
  Check(out, row, ratio >= goal, Describe(row, what), FormatRatio(ratio), goal_text);
}

// float16 and bfloat16 rows of a float32 row's operation, and their time
// per element over float32's (NaN where the row or a time is missing).
struct NarrowTimes {
  const Row* half = nullptr;
  const Row* bfloat = nullptr;
  double half_ratio = NAN, bfloat_ratio = NAN;
};

NarrowTimes NarrowAgainst(const std::vector<Row>& rows, const Row& wide) {
  NarrowTimes t;
  t.half = Find(rows, wide.op.c_str(), "float16", wide.algo.c_str(), wide.shape.c_str());
  t.bfloat = Find(rows, wide.op.c_str(), "bfloat16", wide.algo.c_str(), wide.shape.c_str());
  if (t.half != nullptr) t.half_ratio = Ratio(t.half->lib, wide.lib);
  if (t.bfloat != nullptr) t.bfloat_ratio = Ratio(t.bfloat->lib, wide.lib);
  return t;
}

bool IsFloatDtype(const std::string& dtype) {
  return dtype == "float32" || dtype == "float16" || dtype == "bfloat16";
}

bool OnPath(const char* program) {
  const char* path = getenv("PATH");
  if (path == nullptr) return false;
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Labels carry no gnuplot-special characters: "tpow f32 default".
std::string ShortDtype(const std::string& dtype) {
  if (dtype == "float32") return "f32";
  if (dtype == "float16") return "f16";
  if (dtype == "bfloat16") return "bf16";
  return dtype;
}

}  // namespace

double Ratio(const Stats& baseline, const Stats& lib) {  // or any a.median / b.median
  if (!baseline.valid() || !lib.valid() || lib.median <= 0) return NAN;
  return baseline.median / lib.median;
}

void PrintTableHeader(FILE* out) {
  fprintf(out,
          "ns/elem: nanoseconds per dst element (median, min and max over the samples).\n"
          "Ratio columns: baseline time / libpto time, so > 1 means libpto is faster.\n"
          "  scalar:  per-element loop computing in double, rounded once (-O2, x86-64 baseline)\n"
          "  add:     AVX2 float d[i] = a[i] + b[i] over the same number of elements\n"
          "  sleef:   Sleef_powf8_u10avx2 (float32 pow only)\n"
          "  rsqrtf:  auto-vectorised 1.0f / sqrtf(x), -O3 -mavx2 -fno-math-errno (float32 only)\n"
          "accuracy: tpow/trsqrt max ulp vs a double reference (libpto | sleef or rsqrtf);\n"
          "          other ops: comparison with the scalar loop's results.\n\n");
  fprintf(out, "%-14s %-8s %-7s %-7s %6s | %8s %8s %8s | %7s %7s %7s %7s | %-11s %-9s\n", "op",
          "dtype", "algo", "shape", "KiB", "median", "min", "max", "scalar", "add", "sleef",
          "rsqrtf", "accuracy", "baseline");
}

void PrintRow(FILE* out, const Row& r) {
  fprintf(out, "%-14s %-8s %-7s %-7s %6.1f | %8.3f %8.3f %8.3f | %7s %7s %7s %7s | %-11s %-9s\n",
          r.op.c_str(), r.dtype.c_str(), r.algo.c_str(), r.shape.c_str(), r.working_set_kib,
          r.lib.median, r.lib.min, r.lib.max, FormatRatio(Ratio(r.scalar, r.lib)).c_str(),
          FormatRatio(Ratio(r.avx2_add, r.lib)).c_str(), FormatRatio(Ratio(r.sleef, r.lib)).c_str(),
          FormatRatio(Ratio(r.rsqrtf, r.lib)).c_str(), Accuracy(r).c_str(),
          BaseAccuracy(r).c_str());
  fflush(out);
}

void PrintCallOverhead(FILE* out, const std::vector<Row>& rows) {
  fprintf(out,
          "\nPer-call cost on 1x1 tiles (ns per call, median; the scalar loop for scale; empty: a\n"
          "call to a function in another object file that does nothing; add: the AVX2 add loop of\n"
          "another object file on one element; the call's multiple of each):\n");
  for (const Row& r : rows) {
    if (r.shape != "1x1" || r.dtype != "float32") continue;
    fprintf(out,
            "  %-14s %-8s %-7s %7.1f ns   scalar %7.1f ns   empty %5.2f ns   add %5.2f ns   %6s empty"
            "   %6s add\n",
            r.op.c_str(), r.dtype.c_str(), r.algo.c_str(), r.lib.median, r.scalar.median,
            r.empty_call.median, r.avx2_add.median, FormatRatio(Ratio(r.lib, r.empty_call)).c_str(),
            FormatRatio(Ratio(r.lib, r.avx2_add)).c_str());
  }
}

void PrintNarrowTypes(FILE* out, const std::vector<Row>& rows) {
  bool header = false;
  for (const Row& wide : rows) {
    if (wide.shape != "64x64" || wide.dtype != "float32") continue;
    const NarrowTimes t = NarrowAgainst(rows, wide);
    if (t.half == nullptr && t.bfloat == nullptr) continue;
    if (!header) {
      fprintf(out, "\nNarrow types, 64x64 (time per element / float32's for the same operation):\n");
      header = true;
    }
    fprintf(out, "  %-14s %-7s   float16 %6s   bfloat16 %6s\n", wide.op.c_str(), wide.algo.c_str(),
            FormatRatio(t.half_ratio).c_str(), FormatRatio(t.bfloat_ratio).c_str());
  }
}

void PrintTargetChecks(FILE* out, const std::vector<Row>& rows) {
  fprintf(out, "\nIssue targets (float32, 64x64 unless said; ratios from this run):\n");
  const char* f32 = "float32";
  const char* shape = "64x64";
  const Row* pow_default = Find(rows, "tpow", f32, "default", shape);
  const Row* pow_high = Find(rows, "tpow", f32, "high", shape);
  const Row* rsqrt = Find(rows, "trsqrt", f32, "-", shape);

  for (const Row* r : {pow_default, pow_high, rsqrt}) {
    if (r == nullptr) continue;
    CheckRatio(out, *r, Ratio(r->scalar, r->lib), 8.0, "vs scalar double loop", ">= 8x");
  }
  for (const char* bound_shape : {shape, "1024x1024"}) {
    const std::string what = std::string(bound_shape == shape ? "" : "1024x1024 ") + "vs AVX2 add loop";
    const Row* bound_rows[] = {Find(rows, "tprelu", f32, "-", bound_shape),
                               Find(rows, "tpartadd", f32, "full", bound_shape),
                               Find(rows, "tpartadd", f32, "partial", bound_shape),
                               Find(rows, "tcolexpanddiv", f32, "-", bound_shape),
                               Find(rows, "tcolexpanddiv", "float16", "-", bound_shape)};
    for (const Row* r : bound_rows) {
      if (r == nullptr) continue;
      CheckRatio(out, *r, Ratio(r->avx2_add, r->lib), 1.0 / 1.5, what.c_str(),
                 ">= 0.67x, i.e. 1.5x time");
    }
  }
  if (rsqrt != nullptr) {
    CheckRatio(out, *rsqrt, Ratio(rsqrt->rsqrtf, rsqrt->lib), 1.0, "vs 1/sqrtf loop (<= 1 ulp)",
               ">= 1x");
  }
  // texp and tlog (correctly rounded) against the C library's expf/logf
  // loop: issue 46's goal is 4x on the AVX2 target, judged in runs on it
  // (--target AVX2). Their goal against numpy's np.exp/np.log (AVX-512,
  // 1024x1024, time <= 1.0x) needs numpy: bench/python/exp_log_vs_numpy.py
  // and vs_numpy.py print it; this table's 1024x1024 rows give libpto's
  // ns/element.
  const bool on_avx2 = strcmp(pto_simd_target(), "AVX2") == 0;
  for (const char* op : {"texp", "tlog"}) {
    if (!on_avx2) break;
    for (const char* exp_shape : {shape, "1024x1024"}) {
      const Row* r = Find(rows, op, f32, "-", exp_shape);
      if (r == nullptr) continue;
      const std::string what = std::string(exp_shape == shape ? "" : "1024x1024 ") +
                               (r->op == "texp" ? "vs expf loop" : "vs logf loop");
      CheckRatio(out, *r, Ratio(r->libm, r->lib), 4.0, what.c_str(), ">= 4x");
    }
  }
  if (pow_high != nullptr) {
    CheckRatio(out, *pow_high, Ratio(pow_high->sleef, pow_high->lib), 2.0,
               "vs SLEEF u10 (<= 1 ulp)", ">= 2x, i.e. 0.5x time");
  }
  if (pow_default != nullptr) {
    CheckRatio(out, *pow_default, Ratio(pow_default->sleef, pow_default->lib), 4.0,
               "vs SLEEF u10", ">= 4x, i.e. 0.25x time");
  }
  if (pow_default != nullptr && pow_high != nullptr) {
    CheckRatio(out, *pow_default, Ratio(pow_high->lib, pow_default->lib), 1.5,
               "vs tpow high", ">= 1.5x");
  }
  // Narrow floats: time per element against float32 of the same operation,
  // one line per operation.
  for (const Row& wide : rows) {
    if (wide.shape != shape || wide.dtype != f32) continue;
    const NarrowTimes t = NarrowAgainst(rows, wide);
    if (std::isnan(t.half_ratio) && std::isnan(t.bfloat_ratio)) continue;
    const bool fast = !(t.half_ratio > 2.0) && !(t.bfloat_ratio > 2.0);
    // Check reads MISS when the row it is given breaks the contract: give it
    // the narrow row that does, if one does.
    const Row* judged = t.half != nullptr ? t.half : t.bfloat;
    if (t.bfloat != nullptr && !MeetsContract(*t.bfloat)) judged = t.bfloat;
    const std::string measured = FormatRatio(t.half_ratio) + " | " + FormatRatio(t.bfloat_ratio) +
                                 " f32 time";
    Check(out, *judged, fast, Describe(wide, "float16 | bfloat16 vs float32"), measured, "<= 2x");
  }
  // Issue 18's 1x1 goals, against a non-inlined one-element add call.
  struct CallGoal {
    const char* op;
    const char* algo;
    double times;
    const char* text;
  };
  for (const CallGoal& g : {CallGoal{"tprelu", "-", 5.0, "<= 5x"}, CallGoal{"tpow", "default", 8.0, "<= 8x"}}) {
    const Row* r = Find(rows, g.op, f32, g.algo, "1x1");
    if (r == nullptr) continue;
    const double ratio = Ratio(r->lib, r->avx2_add);
    if (std::isnan(ratio)) continue;
    Check(out, *r, ratio <= g.times, Describe(*r, "1x1 call vs 1-element add call"),
          FormatRatio(ratio) + " add", g.text);
  }
  // A call's own cost, against an empty call; tpow's is reported above only,
  // and tpows's (tpow's kernel) not at all.
  for (const Row& r : rows) {
    if (r.shape != "1x1" || r.dtype != f32 || r.op == "tpow" || r.op == "tpows") continue;
    const double ratio = Ratio(r.lib, r.empty_call);
    if (std::isnan(ratio)) continue;
    Check(out, r, ratio <= 3.0, Describe(r, "1x1 call vs empty call"), FormatRatio(ratio) + " empty",
          "<= 3x");
  }
}

void PrintIdentity(FILE* out, const std::vector<Row>& rows) {
  bool header = false;
  for (const Row& r : rows) {
    const TargetIdentity& id = r.identity;
    if (id.differing < 0) continue;
    if (!header) {
      fprintf(out,
              "\nIdentity across SIMD targets (each row's %s data on every target against the first;\n"
              "bitwise, NaN results by NaN-ness):\n",
              r.shape.c_str());
      header = true;
    }
    // tpow and tpows DEFAULT on float types promise an error bound, not the same bits.
    const bool goal =
        !((r.op == "tpow" || r.op == "tpows") && r.algo == "default" && IsFloatDtype(r.dtype));
    std::string line = "identity: " + r.op + " " + r.dtype + " " + r.algo + ": ";
    if (id.differing == 0) {
      line += "identical on " + id.targets;
    } else {
      line += std::to_string(id.differing) + " of " + std::to_string(r.elements) +
              " elements differ (" + id.per_target + ") on " + id.targets;
    }
    if (!goal) line += " (DEFAULT: no identity goal)";
    fprintf(out, "  [%s] %s\n", !goal ? "----" : id.differing == 0 ? "PASS" : "MISS", line.c_str());
  }
}

bool WriteCsv(const char* path, const std::vector<Row>& rows, const RunInfo& info) {
  FILE* f = fopen(path, "w");
  if (f == nullptr) {
    fprintf(stderr, "pto-bench: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  fprintf(f,
          "op,dtype,algo,shape,elements,working_set_kib,"
          "libpto_ns_median,libpto_ns_min,libpto_ns_max,"
          "scalar_ns,ratio_scalar,avx2_add_ns,ratio_avx2_add,sleef_ns,ratio_sleef,"
          "rsqrtf_ns,ratio_rsqrtf,libpto_max_ulp,baseline_max_ulp,mismatches_vs_scalar,"
          "target,cpu,libpto_version,empty_call_ns,identity_targets,differing_between_targets\n");
  for (const Row& r : rows) {
    fprintf(f, "%s,%s,%s,%s,%zu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\",%s,%s,\"%s\",%s\n",
            r.op.c_str(), r.dtype.c_str(), r.algo.c_str(), r.shape.c_str(), r.elements,
            Csv(r.working_set_kib).c_str(), Csv(r.lib.median).c_str(), Csv(r.lib.min).c_str(),
            Csv(r.lib.max).c_str(), Csv(r.scalar.median).c_str(),
            Csv(Ratio(r.scalar, r.lib)).c_str(), Csv(r.avx2_add.median).c_str(),
            Csv(Ratio(r.avx2_add, r.lib)).c_str(), Csv(r.sleef.median).c_str(),
            Csv(Ratio(r.sleef, r.lib)).c_str(), Csv(r.rsqrtf.median).c_str(),
            Csv(Ratio(r.rsqrtf, r.lib)).c_str(), Csv(r.lib_ulp).c_str(), Csv(r.base_ulp).c_str(),
            r.mismatches < 0 ? "" : std::to_string(r.mismatches).c_str(), info.target.c_str(),
            info.cpu.c_str(), info.library_version.c_str(), Csv(r.empty_call.median).c_str(),
            r.identity.targets.c_str(),
            r.identity.differing < 0 ? "" : std::to_string(r.identity.differing).c_str());
  }
  const bool ok = fclose(f) == 0;
  if (!ok) fprintf(stderr, "pto-bench: cannot write %s\n", path);
  return ok;
}

bool PlotRatios(const char* png_path, const std::vector<Row>& rows, const std::string& shape,
                const RunInfo& info) {
  if (!OnPath("gnuplot")) {
    fprintf(stderr, "pto-bench: note: gnuplot is not on PATH; skipping the chart %s\n", png_path);
    return false;
  }
  char data_path[] = "/tmp/pto-bench-data-XXXXXX";
  const int fd = mkstemp(data_path);
  if (fd < 0) return false;
  FILE* data = fdopen(fd, "w");
  size_t points = 0;
  for (const Row& r : rows) {
    if (r.shape != shape) continue;
    const double scalar = Ratio(r.scalar, r.lib);
    const double vec = Ratio(VectorBaseline(r), r.lib);
    std::string label = r.op + " " + ShortDtype(r.dtype) + (r.algo == "-" ? "" : " " + r.algo);
    fprintf(data, "\"%s\" %s %s\n", label.c_str(), std::isnan(scalar) ? "-" : Csv(scalar).c_str(),
            std::isnan(vec) ? "-" : Csv(vec).c_str());
    ++points;
  }
  fclose(data);
  if (points == 0) {
    unlink(data_path);
    fprintf(stderr, "pto-bench: note: no %s rows to plot\n", shape.c_str());
    return false;
  }

  bool ok = false;
  // pngcairo where gnuplot has it, the plain png terminal otherwise.
  for (const char* terminal : {"pngcairo size 1600,900 noenhanced font ',10'",
                               "png size 1600,900 noenhanced"}) {
    char script_path[] = "/tmp/pto-bench-plot-XXXXXX";
    const int sfd = mkstemp(script_path);
    if (sfd < 0) break;
    FILE* s = fdopen(sfd, "w");
    fprintf(s,
            "set terminal %s\n"
            "set output '%s'\n"
            "set title \"libpto speed-up over baselines, %s tiles - %s, target %s "
            "(>1: libpto faster)\"\n"
            "set datafile missing '-'\n"
            "set style data histograms\n"
            "set style histogram clustered gap 1\n"
            "set style fill solid 0.85 border -1\n"
            "set logscale y 10\n"
            "set yrange [0.1:*]\n"
            "set ylabel 'baseline time / libpto time'\n"
            "set xtics rotate by -60 scale 0 font ',8'\n"
            "set grid ytics\n"
            "set key top right\n"
            "set bmargin 9\n"
            "set rmargin 8\n"
            "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb 'black'\n"
            "plot '%s' using 2:xtic(1) title 'vs scalar double loop', "
            "'' using 3 title 'vs vector baseline (AVX2 add / SLEEF u10 / 1/sqrtf)'\n",
            terminal, png_path, shape.c_str(), info.cpu.c_str(), info.target.c_str(), data_path);
    fclose(s);
    const std::string command = std::string("gnuplot '") + script_path + "' 2>/dev/null";
    ok = system(command.c_str()) == 0;
    unlink(script_path);
    if (ok) break;
  }
  unlink(data_path);
  if (!ok) fprintf(stderr, "pto-bench: note: gnuplot failed; no chart written to %s\n", png_path);
  return ok;
}

}  // namespace bench
