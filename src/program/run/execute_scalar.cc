// The executor's scalar arithmetic on a block's registers: the integer binary
// operations, wrapped to their width (a shift by the width or more, a
// division by zero or a signed overflow stops the run), and the float
// instructions, each result rounded to its type.
#include <math.h>
#include <string.h>

#include <string>

#include "dtype_rules.h"
#include "error.h"
#include "float_env.h"
#include "float_scalars.h"
#include "program/run/block.h"

namespace pto {
namespace program {

namespace {

// An integer binary operation on values of `bits` bits, wrapped to them: the
// result in *r, or the refusal's status and sentence in *why.
pto_status IntBinaryValue(IntOp op, int64_t x, int64_t y, unsigned bits, int64_t* r,
                          std::string* why) {
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case IntOp::kAdd: *r = Wrap(ux + uy, bits); break;
    case IntOp::kSub: *r = Wrap(ux - uy, bits); break;
    case IntOp::kMul: *r = Wrap(ux * uy, bits); break;
    case IntOp::kMinS: *r = x < y ? x : y; break;
    case IntOp::kMaxS: *r = x < y ? y : x; break;
    case IntOp::kMinU: *r = Unsigned(x, bits) < Unsigned(y, bits) ? x : y; break;
    case IntOp::kMaxU: *r = Unsigned(x, bits) < Unsigned(y, bits) ? y : x; break;
    case IntOp::kAnd: *r = x & y; break;
    case IntOp::kOr: *r = x | y; break;
    case IntOp::kXor: *r = x ^ y; break;
    case IntOp::kShl:
    case IntOp::kShrS:
    case IntOp::kShrU:
      // A shift by the width or more is poison in MLIR: refused here.
      if (uy >= bits) {
        *why = "shift by " + std::to_string(y) + " of an i" + std::to_string(bits);
        return PTO_ERR_INVALID_ARGUMENT;
      }
      if (op == IntOp::kShl) *r = Wrap(ux << uy, bits);
      else if (op == IntOp::kShrS) *r = x >> uy;
      else *r = Wrap(Unsigned(x, bits) >> uy, bits);
      break;
    case IntOp::kDivS:
    case IntOp::kRemS:
    case IntOp::kCeilDivS:
    case IntOp::kDivU:
    case IntOp::kRemU: {
      if (y == 0) {
        *why = "integer division by zero";
        return PTO_ERR_INVALID_ARGUMENT;
      }
      if (op == IntOp::kDivU || op == IntOp::kRemU) {
        const uint64_t a = Unsigned(x, bits), b = Unsigned(y, bits);
        *r = Wrap(op == IntOp::kDivU ? a / b : a % b, bits);
        break;
      }
      const int64_t min = bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
      if (x == min && y == -1) {
        *why = "signed division overflows";
        return PTO_ERR_OUT_OF_RANGE;
      }
      int64_t q = op == IntOp::kRemS ? x % y : x / y;
      if (op == IntOp::kCeilDivS && (x % y != 0) && ((x < 0) == (y < 0))) ++q;
      *r = Wrap(static_cast<uint64_t>(q), bits);
      break;
    }
  }
  return PTO_OK;
}

}  // namespace

pto_status Block::IntBinary(const Instr& in) {
  int64_t r = 0;
  std::string why;
  const pto_status s =
      IntBinaryValue(static_cast<IntOp>(in.sub), ints_[in.b], ints_[in.c], in.bits, &r, &why);
  if (s != PTO_OK) return Error(in, s, why);
  ints_[in.a] = r;
  return PTO_OK;
}

namespace {

double Round(double x, FloatFormat fmt) {
  switch (fmt) {
    case FloatFormat::kF32: return RoundToFloatType(x, PTO_FLOAT32, 32);
    case FloatFormat::kF16: return RoundToFloatType(x, PTO_FLOAT16, 16);
    case FloatFormat::kBF16: return RoundToFloatType(x, PTO_BFLOAT16, 16);
    default: return x;
  }
}

}  // namespace

pto_status Block::FloatInstr(const Instr& in) {
  double* f = floats_.data();
  int64_t* ints = ints_.data();
  switch (in.code) {
    case Code::kFloatBinary: {
      const double x = f[in.b], y = f[in.c];
      double r = 0;
      switch (static_cast<FloatOp>(in.sub)) {
        case FloatOp::kAdd: r = x + y; break;
        case FloatOp::kSub: r = x - y; break;
        case FloatOp::kMul: r = x * y; break;
        case FloatOp::kDiv: r = x / y; break;
        case FloatOp::kMaximum:
          r = isnan(x) || isnan(y) ? NAN : (x == y ? (signbit(x) ? y : x) : fmax(x, y));
          break;
        case FloatOp::kMinimum:
          r = isnan(x) || isnan(y) ? NAN : (x == y ? (signbit(x) ? x : y) : fmin(x, y));
          break;
        case FloatOp::kMaxNum: r = fmax(x, y); break;
        case FloatOp::kMinNum: r = fmin(x, y); break;
      }
      f[in.a] = Round(r, in.fmt);
      break;
    }
    case Code::kFloatCast: f[in.a] = Round(f[in.b], in.fmt); break;
    case Code::kFloatNeg: f[in.a] = -f[in.b]; break;
    case Code::kFloatCompare: {
      const double x = f[in.b], y = f[in.c];
      const bool unordered = isnan(x) || isnan(y);
      // false oeq ogt oge olt ole one ord, then the unordered ones, then true.
      const int p = in.sub;
      bool r;
      if (p == 0) r = false;
      else if (p == 15) r = true;
      else if (p == 7) r = !unordered;
      else if (p == 14) r = unordered;
      else {
        const int base = p < 8 ? p : p - 7;  // ueq..une as oeq..one
        bool c = false;
        switch (base) {
          case 1: c = x == y; break;
          case 2: c = x > y; break;
          case 3: c = x >= y; break;
          case 4: c = x < y; break;
          case 5: c = x <= y; break;
          case 6: c = x != y; break;
        }
        r = p < 8 ? (!unordered && c) : (unordered || c);
      }
      ints[in.a] = r;
      break;
    }
    case Code::kIntToFloat: {
      const int64_t x = ints[in.b];
      const double v = in.sub != 0 ? static_cast<double>(Unsigned(x, in.bits))
                                   : static_cast<double>(x);
      f[in.a] = Round(v, in.fmt);
      break;
    }
    case Code::kFloatToInt: {
      const double t = trunc(f[in.b]);
      const double lo = in.sub != 0 ? 0.0 : (in.bits >= 64 ? -0x1p63 : -ldexp(1.0, in.bits - 1));
      const double hi = in.sub != 0 ? ldexp(1.0, in.bits) : ldexp(1.0, in.bits - 1);
      if (!(t >= lo && t < hi))
        return Error(in, PTO_ERR_OUT_OF_RANGE,
                     std::string(in.sub != 0 ? "arith.fptoui" : "arith.fptosi") + ": " +
                         std::to_string(f[in.b]) + " is outside the range of i" +
                         std::to_string(in.bits));
      ints[in.a] = in.sub != 0 && t >= 0x1p63 ? static_cast<int64_t>(static_cast<uint64_t>(t))
                                              : Wrap(static_cast<uint64_t>(
                                                         static_cast<int64_t>(t)), in.bits);
      break;
    }
    default: break;
  }
  return PTO_OK;
}

}  // namespace program
}  // namespace pto
