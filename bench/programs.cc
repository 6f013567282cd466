#include "programs.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

#include "baselines.h"
#include "pto_c.h"

namespace bench {
namespace {

struct Program {
  pto_program* p = nullptr;
  pto_args* args = nullptr;
  ~Program() {
    pto_args_destroy(args);
    pto_program_destroy(p);
  }
};

bool Create(const std::string& text, Program* out) {
  if (pto_program_create(text.data(), text.size(), "bench", &out->p) != PTO_OK ||
      pto_args_create(out->p, &out->args) != PTO_OK) {
    fprintf(stderr, "pto-bench: %s\n", pto_last_error());
    return false;
  }
  return true;
}

// One instruction on 1x1 float32 tiles, `count` times in a row (DPS form: the
// same tiles each time).
std::string Repeated(const char* instruction, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += std::string(instruction) + "\n";
  return text;
}

#define T1 "!pto.tile_buf<vec, 1x1xf32>"
#define T0 "!pto.tile_buf<vec, 1x1xf32, valid=0x0>"
struct Instruction {
  const char* name;
  const char* text;
};
const Instruction kInstructions[] = {
    {"tprelu", "pto.tprelu ins(%a, %b : " T1 ", " T1 ") outs(%d : " T1 ")"},
    {"tpartadd", "pto.tpartadd ins(%a, %b : " T1 ", " T1 ") outs(%d : " T1 ")"},
    {"tcolexpanddiv", "pto.tcolexpanddiv ins(%a, %b : " T1 ", " T1 ") outs(%d : " T1 ")"},
    {"trsqrt", "pto.trsqrt ins(%a : " T1 ") outs(%d : " T1 ")"},
    {"tpow default", "pto.tpow ins(%a, %b : " T1 ", " T1 ") outs(%d : " T1 ")"},
    // Empty valid regions: the interpreter's own cost, no kernel.
    {"tprelu 0x0", "pto.tprelu ins(%a, %b : " T0 ", " T0 ") outs(%d : " T0 ")"},
};

bool BindTiles(Program* prog, pto_tile* a, pto_tile* b, pto_tile* d) {
  if (pto_program_param_valid_rows(prog->p, 0) == 0) {
    static pto_tile* empty[3];
    for (pto_tile*& t : empty) {
      if (t == nullptr && pto_tile_create(PTO_FLOAT32, 1, 1, &t) == PTO_OK) pto_tile_set_valid(t, 0, 0);
    }
    a = empty[0];
    b = empty[1];
    d = empty[2];
  }
  const char* names[] = {"a", "b", "d"};
  pto_tile* tiles[] = {a, b, d};
  for (int i = 0; i < 3; ++i) {
    size_t index;
    if (pto_program_param_find(prog->p, names[i], &index) != PTO_OK) continue;  // trsqrt has no %b
    if (pto_args_set_tile(prog->args, index, tiles[i]) != PTO_OK) return false;
  }
  return true;
}

constexpr int kRepeat = 256;

void PerInstruction(FILE* out, const TimingConfig& timing) {
  fprintf(out,
          "\nProgram instructions, 1x1 float32 tiles (ns per instruction, median): a verified program of\n"
          "%d copies timed against one of 1 copy, the difference / %d; beside it the direct C call\n"
          "and an empty call (a function in another object file that does nothing):\n",
          kRepeat + 1, kRepeat);
  pto_tile *a = nullptr, *b = nullptr, *d = nullptr, *tmp = nullptr;
  pto_tile_create(PTO_FLOAT32, 1, 1, &a);
  pto_tile_create(PTO_FLOAT32, 1, 1, &b);
  pto_tile_create(PTO_FLOAT32, 1, 1, &d);
  pto_tile_create(PTO_FLOAT32, 1, 1, &tmp);
  const float va = 1.5f, vb = 0.75f;
  pto_tile_write_f32(a, &va, 1);
  pto_tile_write_f32(b, &vb, 1);
  // Goal (2) of issue 46: a direct 1x1 call of the rows above tpow (their
  // kernels are a few operations; tpow's chain has its own bound) costs at
  // most 4x an empty call.
  double worst_direct = 0;
  const char* worst_name = "";
  for (const Instruction& ins : kInstructions) {
    Program one, many;
    if (!Create(Repeated(ins.text, 1), &one) || !Create(Repeated(ins.text, kRepeat + 1), &many)) continue;
    if (!BindTiles(&one, a, b, d) || !BindTiles(&many, a, b, d)) continue;
    const char* name = ins.name;
    auto run_one = [&] { pto_program_run(one.p, one.args); };
    auto run_many = [&] { pto_program_run(many.p, many.args); };
    auto direct = [&] {
      if (strncmp(name, "tprelu", 6) == 0) pto_tprelu(d, a, b, nullptr);
      else if (strcmp(name, "tpartadd") == 0) pto_tpartadd(d, a, b);
      else if (strcmp(name, "tcolexpanddiv") == 0) pto_tcolexpanddiv(d, a, b);
      else if (strcmp(name, "trsqrt") == 0) pto_trsqrt(d, a);
      else pto_tpow(d, a, b, tmp, PTO_POW_DEFAULT);
    };
    auto empty = [&] { empty_call(d, a, b); };
    const std::vector<Stats> s =
        Measure({MakeTimed(run_one), MakeTimed(run_many), MakeTimed(direct), MakeTimed(empty)}, 1, timing);
    const double per = (s[1].median - s[0].median) / kRepeat;
    if (strncmp(name, "tpow", 4) != 0 && strcmp(name, "tprelu 0x0") != 0 &&
        s[2].median / s[3].median > worst_direct) {
      worst_direct = s[2].median / s[3].median;
      worst_name = name;
    }
    fprintf(out, "  %-14s in a program %6.2f ns  (%5.2fx empty)   direct C call %6.2f ns  (%5.2fx empty)   "
                 "empty %5.2f ns   one-instruction run %6.1f ns\n",
            ins.name, per, per / s[3].median, s[2].median, s[2].median / s[3].median, s[3].median,
            s[0].median);
  }
  fprintf(out, "  goal: a direct 1x1 call (tprelu, tpartadd, tcolexpanddiv, trsqrt) <= 4x an empty call: "
               "%s (at most %.2fx, %s)\n",
          worst_direct <= 4.0 ? "PASS" : "MISS", worst_direct, worst_name);
  pto_tile_destroy(a);
  pto_tile_destroy(b);
  pto_tile_destroy(d);
  pto_tile_destroy(tmp);
}


std::string ReadFile(const std::string& path) {
  std::string text;
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  fclose(f);
  return text;
}

void Kernel(FILE* out, const TimingConfig& timing, const char* examples_dir) {
  const std::string path = std::string(examples_dir) + "/prelu-4096.pto";
  const std::string text = ReadFile(path);
  Program k;
  if (text.empty() || !Create(text, &k)) {
    fprintf(out, "\nKernel rows skipped: cannot read or verify %s\n", path.c_str());
    return;
  }
  const size_t n = 4096, count = n * n;
  std::vector<float> x(count), s(count), y(count);
  for (size_t i = 0; i < count; ++i) {
    x[i] = static_cast<float>(static_cast<int>(i * 2654435761u % 2001) - 1000) / 100.0f;
    s[i] = 0.25f;
  }
  const char* names[] = {"x", "s", "y"};
  float* arrays[] = {x.data(), s.data(), y.data()};
  for (int i = 0; i < 3; ++i) {
    size_t index;
    pto_program_param_find(k.p, names[i], &index);
    pto_args_set_pointer(k.args, index, arrays[i], count * sizeof(float));
  }
  size_t index;
  pto_program_param_find(k.p, "m", &index);
  pto_args_set_int(k.args, index, static_cast<int64_t>(n));
  pto_program_param_find(k.p, "n", &index);
  pto_args_set_int(k.args, index, static_cast<int64_t>(n));

  const AllCpus all;
  const long cpus = all.count();
  std::vector<uint32_t> block_counts = {1, 2};
  if (cpus > 2) block_counts.push_back(static_cast<uint32_t>(cpus));
  // Whole-tensor runs are long: fewer, longer samples.
  TimingConfig config = timing;
  config.samples = config.samples < 9 ? config.samples : 9;
  fprintf(out, "\nKernel examples/pto/prelu-4096.pto: PReLU over a 4096x4096 float32 tensor, 32x512 tiles\n"
               "loaded, computed and stored by N blocks (ns per element, median; %ld online CPUs):\n", cpus);
  double first = 0;
  for (uint32_t blocks : block_counts) {
    auto run = [&] { pto_program_launch(k.p, blocks, k.args); };
    const Stats st = Measure({MakeTimed(run)}, count, config)[0];
    if (blocks == 1) first = st.median;
    fprintf(out, "  %2u block%s  %7.3f ns/element   %5.2fx the 1-block speed\n", blocks, blocks == 1 ? " " : "s",
            st.median, first / st.median);
  }
}

// The kernels of examples/kernels on their natural shapes: rows x cols
// elements per run, the `d` parameter where the kernel has one.
struct ExampleKernel {
  const char* file;
  const char* entry;  // NULL: the module's marked entry
  size_t rows, cols, d;
  bool half;  // float16 arrays (else float32)
  bool goal;  // goal (3) of issue 46: <= 0.5x numpy's time on 1 block
};
const ExampleKernel kExampleKernels[] = {
    {"softmax", nullptr, 4096, 4096, 0, false, true},
    {"rmsnorm", nullptr, 4096, 4096, 0, false, true},
    {"layernorm", nullptr, 4096, 4096, 0, false, true},
    {"layernorm_f16", nullptr, 2048, 128, 0, true, true},
    {"swiglu", "swiglu", 4096, 1024, 0, false, false},
    {"rope", nullptr, 4096, 1024, 1024, false, false},
    {"quantize", nullptr, 4096, 2048, 0, false, false},
    {"online_softmax", nullptr, 4096, 1024, 256, false, false},
    {"softmax_padded", nullptr, 4096, 1000, 0, false, false},
};

// Binds every parameter of k by its name: pointers to rows x cols floats of
// values in [-2, 2) (room for any element type; float16 values of magnitude
// [0.5, 2) for a half kernel), m, n and d, inv_n = 1/n, eps = 1e-5.
void BindExample(const ExampleKernel& e, Program* k, std::vector<std::vector<float>>* arrays) {
  const size_t count = pto_program_param_count(k->p);
  for (size_t i = 0; i < count; ++i) {
    const std::string name = pto_program_param_name(k->p, i);
    switch (pto_program_param_kind(k->p, i)) {
      case PTO_PARAM_POINTER: {
        arrays->emplace_back(e.rows * e.cols);
        std::vector<float>& a = arrays->back();
        for (size_t j = 0; j < a.size(); ++j)
          a[j] = static_cast<float>(static_cast<int>((j + i) * 2654435761u % 4001) - 2000) / 1000.0f;
        if (e.half) {
          uint16_t* h = reinterpret_cast<uint16_t*>(a.data());
          for (size_t j = 0; j < e.rows * e.cols; ++j) {
            const uint32_t r = static_cast<uint32_t>((j + i) * 2654435761u);
            h[j] = static_cast<uint16_t>(((r >> 31) << 15) | ((14u + (r >> 30 & 1)) << 10) | (r & 0x3FF));
          }
        }
        pto_args_set_pointer(k->args, i, a.data(), a.size() * sizeof(float));
        break;
      }
      case PTO_PARAM_INT:
        pto_args_set_int(k->args, i,
                         static_cast<int64_t>(name == "m" ? e.rows : name == "d" ? e.d : e.cols));
        break;
      case PTO_PARAM_FLOAT:
        pto_args_set_float(k->args, i, name == "inv_n" ? 1.0 / static_cast<double>(e.cols) : 1e-5);
        break;
      case PTO_PARAM_TILE:
        break;
    }
  }
}

// numpy's times for the goal kernels, from bench/python/kernels_vs_numpy.py
// --numpy-only run now (same CPU pin, so the same load), in ms by kernel
// name; empty where no Python with numpy runs it (PTO_BENCH_PYTHON, else
// /usr/bin/python3, else python3 on PATH).
std::vector<std::pair<std::string, double>> NumpyTimes(const char* examples_dir, size_t rounds) {
  std::vector<std::pair<std::string, double>> times;
  std::string names;
  for (const ExampleKernel& e : kExampleKernels)
    if (e.goal) names += std::string(names.empty() ? "" : ",") + e.file;
  const char* python = getenv("PTO_BENCH_PYTHON");
  if (python == nullptr) python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  const std::string command = std::string(python) + " '" + examples_dir +
                              "/../../bench/python/kernels_vs_numpy.py' --numpy-only --rounds " +
                              std::to_string(rounds) + " --kernels " + names + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return times;
  char name[64];
  double ms;
  while (fscanf(pipe, "%63s %lf", name, &ms) == 2) times.emplace_back(name, ms);
  pclose(pipe);
  return times;
}

void ExampleKernels(FILE* out, const TimingConfig& timing, const char* examples_dir) {
  TimingConfig config = timing;
  config.samples = config.samples < 5 ? config.samples : 5;
  fprintf(out, "\nKernels of examples/kernels (float32; ns per element, median; 1 and 2 blocks; "
               "numpy's times: bench/python/kernels_vs_numpy.py):\n");
  const AllCpus all;
  std::vector<std::pair<std::string, double>> goal_ms;  // 1 block, by kernel
  for (const ExampleKernel& e : kExampleKernels) {
    const std::string path = std::string(examples_dir) + "/../kernels/" + e.file + ".pto";
    const std::string text = ReadFile(path);
    Program k;
    if (text.empty() ||
        pto_program_create_entry(text.data(), text.size(), path.c_str(), e.entry, &k.p) != PTO_OK ||
        pto_args_create(k.p, &k.args) != PTO_OK) {
      fprintf(out, "  %-16s skipped: %s\n", e.file, text.empty() ? "cannot read it" : pto_last_error());
      continue;
    }
    std::vector<std::vector<float>> arrays;
    BindExample(e, &k, &arrays);
    double per_block[2] = {0, 0};
    for (uint32_t blocks = 1; blocks <= 2; ++blocks) {
      auto run = [&] { pto_program_launch(k.p, blocks, k.args); };
      per_block[blocks - 1] = Measure({MakeTimed(run)}, e.rows * e.cols, config)[0].median;
    }
    fprintf(out, "  %-16s %5zux%-5zu  1 block %7.3f ns/element   2 blocks %7.3f   (%4.2fx)%s\n", e.file,
            e.rows, e.cols, per_block[0], per_block[1], per_block[0] / per_block[1],
            e.half ? "  float16" : "");
    if (e.goal) goal_ms.emplace_back(e.file, per_block[0] * static_cast<double>(e.rows * e.cols) / 1e6);
  }
  const std::vector<std::pair<std::string, double>> numpy = NumpyTimes(examples_dir, config.samples);
  for (const auto& [name, ms] : goal_ms) {
    double numpy_ms = 0;
    for (const auto& [n, t] : numpy)
      if (n == name) numpy_ms = t;
    if (numpy_ms <= 0) {
      fprintf(out, "  goal: %s on 1 block <= 0.5x numpy: not judged (no numpy time: Python with numpy "
                   "not found; PTO_BENCH_PYTHON names one)\n", name.c_str());
      continue;
    }
    fprintf(out, "  goal: %s on 1 block <= 0.5x numpy: %s (%.2f ms, numpy %.2f ms from "
                 "bench/python/kernels_vs_numpy.py --numpy-only in this run: %.2fx)\n",
            name.c_str(), ms <= 0.5 * numpy_ms ? "PASS" : "MISS", ms, numpy_ms, ms / numpy_ms);
  }
}

// 64 rows x 128 columns processed as 1-row tiles, as a kernel does with small
// tiles: per row a tload, three elementwise instructions and a tstore; against
// the same sequence of direct C calls on tiles of the same shape
// (pto_tile_write for the tload, pto_tile_read for the tstore).
// A row's instructions (x's row %i through %t and %u into y's row %i), the
// loop's end and the function's, in both small-tile programs.
constexpr const char* kSmallTileRow = R"(
    %xp = pto.partition_view %xv, offsets = [%i, %c0], sizes = [%c1, %c128] : !view -> !part
    %yp = pto.partition_view %yv, offsets = [%i, %c0], sizes = [%c1, %c128] : !view -> !part
    pto.tload ins(%xp : !part) outs(%t : !row)
    pto.tmul ins(%t, %t : !row, !row) outs(%u : !row)
    pto.tadd ins(%u, %t : !row, !row) outs(%u : !row)
    pto.tmax ins(%u, %t : !row, !row) outs(%u : !row)
    pto.tstore ins(%u : !row) outs(%yp : !part)
  }
  return
}
)";
const std::string kSmallTiles = R"(
!row = !pto.tile_buf<vec, 1x128xf32>
!view = !pto.tensor_view<64x128xf32>
!part = !pto.partition_tensor_view<1x128xf32>
func.func @rows(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %xv = pto.make_tensor_view %x, shape = [%c64, %c128], strides = [%c128, %c1] : !view
  %yv = pto.make_tensor_view %y, shape = [%c64, %c128], strides = [%c128, %c1] : !view
  %t = pto.alloc_tile : !row
  %u = pto.alloc_tile : !row
  scf.for %i = %c0 to %c64 step %c1 {)" + std::string(kSmallTileRow);

void SmallTiles(FILE* out, const TimingConfig& timing) {
  Program k;
  if (!Create(kSmallTiles, &k)) return;
  constexpr size_t kRows = 64, kCols = 128;
  std::vector<float> x(kRows * kCols), y(kRows * kCols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
  size_t index;
  pto_program_param_find(k.p, "x", &index);
  pto_args_set_pointer(k.args, index, x.data(), x.size() * sizeof(float));
  pto_program_param_find(k.p, "y", &index);
  pto_args_set_pointer(k.args, index, y.data(), y.size() * sizeof(float));
  pto_tile *t = nullptr, *u = nullptr;
  pto_tile_create(PTO_FLOAT32, 1, kCols, &t);
  pto_tile_create(PTO_FLOAT32, 1, kCols, &u);
  auto program = [&] { pto_program_run(k.p, k.args); };
  auto direct = [&] {
    for (size_t i = 0; i < kRows; ++i) {
      pto_tile_write(t, x.data() + i * kCols, kCols * sizeof(float));
      pto_tmul(u, t, t);
      pto_tadd(u, u, t);
      pto_tmax(u, u, t);
      pto_tile_read(u, y.data() + i * kCols, kCols * sizeof(float));
    }
  };
  const std::vector<Stats> s = Measure({MakeTimed(program), MakeTimed(direct)}, kRows * 5, timing);
  fprintf(out,
          "\n64x128 float32 as 1-row tiles (tload, tmul, tadd, tmax, tstore per row; ns per "
          "instruction, median):\n  in a program %6.2f ns   direct C calls %6.2f ns   program / direct "
          "%4.2fx\n",
          s[0].median, s[1].median, s[0].median / s[1].median);
  fprintf(out, "  goal: an instruction on a 1-row tile in a program <= 1.0x the direct C call: %s (%.2fx)\n",
          s[0].median <= s[1].median ? "PASS" : "MISS", s[0].median / s[1].median);
  pto_tile_destroy(t);
  pto_tile_destroy(u);
}

// What a launch costs before any work, and how small-tile work splits over
// two blocks: an empty kernel on 1, 2 and 4 blocks, and rows of 128 float32
// as 1-row tiles (the instructions of kSmallTiles per row), the rows dealt
// round-robin to the blocks.
constexpr const char* kEmptyKernel = "func.func @empty() {\n  return\n}\n";
const std::string kSmallTileBlocks = R"(
!row = !pto.tile_buf<vec, 1x128xf32>
!view = !pto.tensor_view<?x128xf32>
!part = !pto.partition_tensor_view<1x128xf32>
func.func @rows(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %block = pto.get_block_idx
  %blocks = pto.get_block_num
  %first = arith.index_cast %block : i64 to index
  %step = arith.index_cast %blocks : i64 to index
  %xv = pto.make_tensor_view %x, shape = [%m, %c128], strides = [%c128, %c1] : !view
  %yv = pto.make_tensor_view %y, shape = [%m, %c128], strides = [%c128, %c1] : !view
  %t = pto.alloc_tile : !row
  %u = pto.alloc_tile : !row
  scf.for %i = %first to %m step %step {)" + std::string(kSmallTileRow);

void Launches(FILE* out, const TimingConfig& timing) {
  const AllCpus all;
  fprintf(out, "\nLaunches (us per pto_program_launch, median; %ld online CPUs, PTO_NUM_THREADS %s):\n",
          all.count(), getenv("PTO_NUM_THREADS") != nullptr ? getenv("PTO_NUM_THREADS") : "unset");
  Program empty;
  if (!Create(kEmptyKernel, &empty)) return;
  auto one = [&] { pto_program_launch(empty.p, 1, empty.args); };
  auto two = [&] { pto_program_launch(empty.p, 2, empty.args); };
  auto four = [&] { pto_program_launch(empty.p, 4, empty.args); };
  std::vector<Stats> s = Measure({MakeTimed(one), MakeTimed(two), MakeTimed(four)}, 1, timing);
  fprintf(out, "  empty kernel          1 block %8.2f us   2 blocks %8.2f us   4 blocks %8.2f us\n",
          s[0].median / 1e3, s[1].median / 1e3, s[2].median / 1e3);
  Program k;
  if (!Create(kSmallTileBlocks, &k)) return;
  for (size_t rows : {32, 128, 2048}) {
    std::vector<float> x(rows * 128), y(rows * 128);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
    size_t index;
    pto_program_param_find(k.p, "x", &index);
    pto_args_set_pointer(k.args, index, x.data(), x.size() * sizeof(float));
    pto_program_param_find(k.p, "y", &index);
    pto_args_set_pointer(k.args, index, y.data(), y.size() * sizeof(float));
    pto_program_param_find(k.p, "m", &index);
    pto_args_set_int(k.args, index, static_cast<int64_t>(rows));
    auto run1 = [&] { pto_program_launch(k.p, 1, k.args); };
    auto run2 = [&] { pto_program_launch(k.p, 2, k.args); };
    s = Measure({MakeTimed(run1), MakeTimed(run2)}, 1, timing);
    fprintf(out, "  1x128 f32 rows, %4zu   1 block %8.2f us   2 blocks %8.2f us   2 blocks / 1 block %5.2fx\n",
            rows, s[0].median / 1e3, s[1].median / 1e3, s[1].median / s[0].median);
  }
}

}  // namespace

void RunLaunchRows(FILE* out, const TimingConfig& timing) { Launches(out, timing); }

void RunProgramRows(FILE* out, const TimingConfig& timing, const char* examples_dir) {
  PerInstruction(out, timing);
  SmallTiles(out, timing);
  Launches(out, timing);
  Kernel(out, timing, examples_dir);
  ExampleKernels(out, timing, examples_dir);
}

}  // namespace bench
