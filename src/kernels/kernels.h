// Kernel entry points. Each one dispatches at run time to the best SIMD
// target (Highway HWY_DYNAMIC_DISPATCH) and assumes its arguments were already
// validated by src/validate.h: dtypes supported and equal, regions in range.
#ifndef PTO_KERNELS_KERNELS_H_
#define PTO_KERNELS_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "hwy/targets.h"
#include "pto_c.h"

namespace pto {
namespace kernels {

// A rows x cols window of a row-major array; stride counts elements. Passed
// by reference: kernels take more arguments than fit in registers, and a
// struct copied on the stack is reloaded as 16 bytes across two 8-byte
// stores, which stalls store forwarding (~15 ns per call).
struct Plane {
  void* data;
  size_t stride;
};
struct ConstPlane {
  const void* data;
  size_t stride;
};

// The SIMD target HWY_DYNAMIC_DISPATCH selects now ("AVX2", "EMU128", ...).
const char* TargetName();

// The object that holds the chosen targets, hwy::GetChosenTarget(), whose
// address is fixed: asked for once, while the library loads (target.cc).
extern hwy::ChosenTarget& chosen_target;

// The index into HWY_EXPORT's tables that HWY_DYNAMIC_DISPATCH computes, the
// same way, but without HWY_DYNAMIC_DISPATCH's call into libhwy for that
// object (through the PLT, with every argument register saved around it: a
// third of a one-element kernel call). A change of targets
// (hwy::SetSupportedTargetsForTest, pto-bench --target) changes the object
// and is seen by the next call.
inline size_t ChosenTargetIndex() { return chosen_target.GetIndex(); }

}  // namespace kernels
}  // namespace pto

// HWY_DYNAMIC_DISPATCH(FUNC_NAME), through ChosenTargetIndex().
#define PTO_DYNAMIC_DISPATCH(FUNC_NAME) \
  (*(HWY_DISPATCH_TABLE(FUNC_NAME)[::pto::kernels::ChosenTargetIndex()]))

namespace pto {
namespace kernels {

// dst = base ^ exp elementwise (pow.cc; floating point in pow-float-inl.h).
void Pow(pto_dtype dtype, pto_pow_algorithm algo, size_t rows, size_t cols,
         const Plane& dst, const ConstPlane& base, const ConstPlane& exp);

// The reductions (reduce.cc): what each combines, and the order of a float
// sum's additions (docs/reductions.md): kA5 and kA2A3 are the NPUs' row sums
// (TROWSUM) and column sums with isBinary = false (TCOLSUM), kA5Binary and
// kA2A3Binary the column sums with isBinary = true; kProd's products
// (TROWPROD, TCOLPROD) take kA5 or kA2A3, their own NPU orders.
enum class Reduction : uint8_t { kSum, kMax, kMin, kProd };
enum class SumOrder : uint8_t { kA5, kA2A3, kA5Binary, kA2A3Binary };

// dst[r * dst.stride] = the reduction of src's row r (cols >= 1 elements),
// for rows r; every row is read before its result is written.
void RowReduce(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src);
// dst[c] = the reduction of src's column c (rows >= 1 elements), for cols c;
// each column's elements are read before its result is written.
void ColReduce(Reduction op, SumOrder order, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src);

// The index reductions (argreduce.cc): along_rows, dst[r * dst.stride] for
// each of rows rows; else dst[c] for each of cols columns: the index (a
// uint32) within that row's cols (column's rows) elements of src, all >= 1,
// of the first NaN, else of the first largest (`largest`) or smallest element
// (floats: -0 below +0). dst shares no byte with src.
void ArgReduce(bool largest, bool along_rows, pto_dtype dtype, size_t rows, size_t cols,
               const Plane& dst, const ConstPlane& src);

// TPARTARGMAX / TPARTARGMIN (argreduce.cc): over rows x cols of dst and
// dst_idx, element (i, j) from source 0 or 1 with its index: where it lies in
// both sources' regions (rows[k] x cols[k]), the one `rule` picks by
// comparing the values (FLOAT16 or FLOAT32, IEEE: -0 equals +0, a NaN
// compares false); elsewhere the one whose region holds it. Values and
// indices (idx_bytes 2 or 4) move bit for bit; each element is read before
// its results are written. Strides count each tile's elements.
enum class PartArgRule : uint8_t {
  kSrc0IfBetter,    // src0 if src0 > src1 (<): ties and NaNs to src1
  kSrc0IfNotWorse,  // src0 if src0 >= src1 (<=): ties to src0, NaNs to src1
  kSrc1IfBetter,    // src1 if src1 > src0 (<): ties and NaNs to src0
};
struct PartArgTiles {
  Plane dst, dst_idx;
  ConstPlane src[2], idx[2];
  size_t rows[2], cols[2];
};
void PartArg(bool largest, PartArgRule rule, pto_dtype dtype, size_t idx_bytes, size_t rows,
             size_t cols, const PartArgTiles& t);

// Compare and select over bit-packed masks (compare.cc): mask row r holds
// one bit per column, byte k columns 8k..8k+7, least significant bit first.
// Compare writes ceil(cols / 8) bytes of each mask row (the bits of columns
// past cols as 0): mask = src0 `mode` src1, or src `mode` the scalar given
// as dtype's bits. Select writes dst = mask bit ? src0 : src1 (or the
// scalar's bits), moving bits unchanged; it reads the mask's bits of columns
// below cols only. Strides count elements (the mask's, bytes).
void Compare(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols, const Plane& mask,
             const ConstPlane& src0, const ConstPlane& src1);
void CompareScalar(pto_cmp_mode mode, pto_dtype dtype, size_t rows, size_t cols,
                   const Plane& mask, const ConstPlane& src, uint64_t scalar_bits);
void Select(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& mask,
            const ConstPlane& src0, const ConstPlane& src1);
void SelectScalar(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
                  const ConstPlane& mask, const ConstPlane& src, uint64_t scalar_bits);

// dst = 1 / sqrt(src) elementwise; FLOAT32 and FLOAT16 (rsqrt.cc).
void Rsqrt(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
           const ConstPlane& src);

// dst = a > 0 ? a : a * b elementwise (binary.cc).
void Prelu(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
           const ConstPlane& b);

// dst = a + b elementwise, wrapping for integers (binary.cc).
void Add(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
         const ConstPlane& b);

// dst = scalar * src + dst elementwise, rounded once to dst's dtype (axpy.cc):
// (dst, src) FLOAT32 and FLOAT32, FLOAT32 and FLOAT16, FLOAT16 and FLOAT16;
// scalar a value of src's dtype.
void Axpy(pto_dtype dst_dtype, pto_dtype src_dtype, size_t rows, size_t cols, const Plane& dst,
          const ConstPlane& src, float scalar);
// dst = a * b + c elementwise, rounded once to dtype (FLOAT32, FLOAT16),
// then max(., 0) with relu (axpy.cc); any of a, b, c may be dst's own plane.
void MulAdd(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b, const ConstPlane& c, bool relu);
// TTRI (datamove.cc): dst(i, j) = 1 where j <= i + diagonal (lower) or
// j >= i + diagonal (upper), 0 elsewhere, over rows x cols.
void Triangle(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, int64_t diagonal,
              bool upper);

// TSORT32 (sort.cc): each row's 32-element blocks of src (cols values) with
// their uint32 indices (idx, a row each) as value-index pairs in descending
// order of value, 8 bytes a pair, into dst's row (strides in elements of
// dtype: FLOAT16, FLOAT32, INT16, INT32, BFLOAT16).
void Sort32(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
            const ConstPlane& idx);
// TMRGSORT's single-list form (sort.cc): every 4 x block_pairs pairs of
// src, four sorted lists of block_pairs, merged in descending order into
// the same place of dst.
void MergeSort4(pto_dtype dtype, size_t pairs, size_t block_pairs, void* dst, const void* src);
// TMRGSORT's multi-list form (sort.cc): `count` sorted lists (lists[k],
// pairs[k] pairs) merged in descending order, at most dst_pairs of the merge
// written to dst; the merge stops when every list is used up or, with
// `exhausted`, when one is. taken[k] receives the pairs taken from list k.
void MergeLists(pto_dtype dtype, size_t count, const void* const* lists, const size_t* pairs,
                bool exhausted, size_t dst_pairs, void* dst, size_t* taken);

// TRANDOM (random.cc): Philox-4x32 with `rounds` rounds into the rows x cols
// 32-bit elements at dst (row i at dst + i * stride), in A5's order from the
// 128-bit counter (word 0 least significant) and the key.
void RandomPhilox(uint32_t* dst, size_t stride, size_t rows, size_t cols, const uint32_t key[2],
                  const uint32_t counter[4], uint32_t rounds);

// dst = src elementwise (binary.cc).
void Copy(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
          const ConstPlane& src);

// dst[i, j] = src[i, j] / divisor[j]; FLOAT32 and FLOAT16 (broadcast.cc).
// Each pass copies its columns of divisor before writing any row of them, so
// divisor may be row 0 of dst itself.
void ColExpandDiv(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,
                  const ConstPlane& src, const void* divisor);

// The elementwise kernels over n contiguous elements: a region whose rows
// follow one another in memory (each tile's rows are exactly its valid
// columns), taken as one row. Same results as the entries above over that
// region; float32 is decided in one compare and runs inline, so a small
// call does not pay for planes, a row loop and a dtype switch.
void PowContiguous(pto_dtype dtype, pto_pow_algorithm algo, size_t n, void* dst,
                   const void* base, const void* exp);
void RsqrtContiguous(pto_dtype dtype, size_t n, void* dst, const void* src);
void PreluContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b);
void AddContiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b);

// The Binary and Unary families of operations.def: for a row Camel,
// Camel(...) computes dst = CamelOp(a, b) (Binary) or CamelOp(a) (Unary, b
// unread) elementwise (binary.cc), and CamelContiguous the same over n
// contiguous elements.
#define PTO_BINARY_KERNELS_Special(Camel)
#define PTO_BINARY_KERNELS_RowReduce(Camel)
#define PTO_BINARY_KERNELS_ColReduce(Camel)
#define PTO_BINARY_KERNELS_Unary(Camel) PTO_BINARY_KERNELS_Binary(Camel)
#define PTO_BINARY_KERNELS_Binary(Camel)                                                  \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, \
             const ConstPlane& b);                                                        \
  void Camel##Contiguous(pto_dtype dtype, size_t n, void* dst, const void* a, const void* b);
// The Scalar family: Camel(...) computes dst = CamelOp(a, s) elementwise, s
// the scalar as the element type holds it (exact as a double).
#define PTO_BINARY_KERNELS_Scalar(Camel)                                                  \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a, \
             double scalar);                                                              \
  void Camel##Contiguous(pto_dtype dtype, size_t n, void* dst, const void* a, double scalar);
// The Fill family: a Scalar kernel whose functor ignores a (dst passed as a).
#define PTO_BINARY_KERNELS_Fill(Camel) PTO_BINARY_KERNELS_Scalar(Camel)
// The RowExpand and ColExpand families (broadcast.cc): dst = CamelOp(a, s)
// over rows x cols, a from `full`, s from `expanded`: row i's value e[i, 0]
// (row broadcasts, block 1), row i's 32-byte block e[i, j mod block]
// (block 32 / element size), or column j's value e[0, j] (column
// broadcasts); CamelOp(s, a) where expanded_first. A one-source row's
// kernel writes s alone (full unread). expanded may be dst itself or
// placed exactly on it: each row's (or pass's) values are read before dst
// is written there.
#define PTO_BINARY_KERNELS_RowExpand(Camel)                                               \
  void Camel(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst,                 \
             const ConstPlane& full, const ConstPlane& expanded, size_t block,            \
             bool expanded_first);
#define PTO_BINARY_KERNELS_ColExpand(Camel) PTO_BINARY_KERNELS_RowExpand(Camel)
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_BINARY_KERNELS_##Fam(Camel)
#include "../operations.def"
#undef PTO_OPERATION

// tcvt's conversion of one element (tcvt.cc). `round` is never
// PTO_ROUND_NONE (the caller resolves it). Float results beyond dst's range:
// infinity or the largest finite value as IEEE 754 overflow gives for the
// mode, or the largest finite value when saturate_float. Integer results
// beyond dst's range (and NaN) by int_overflow.
enum class IntOverflow : int {
  kSaturate,        // the nearest bound; NaN -> 0
  kWrap,            // the low bits (integer sources)
  kInt32ThenWrap,   // saturated to INT32 (NaN -> 0), then the low bits
};
struct ConvertSpec {
  pto_dtype dst;
  pto_dtype src;
  pto_round_mode round;
  bool saturate_float;
  IntOverflow int_overflow;
};
void Convert(const ConvertSpec& spec, size_t rows, size_t cols, const Plane& dst,
             const ConstPlane& src);
// The same for one element, bits in and bits out (zero-extended).
uint64_t ConvertElement(const ConvertSpec& spec, uint64_t bits);

// tquant (quant.cc): dst(i, j) = src(i, j) * scale row i (+ offset row i),
// float32 products and sums each rounded once, then rounded to an integer
// ties to even and saturated to INT8 (UINT8 when to_unsigned); NaN gives 0.
// A parameter's stride steps its rows (0: one value for every row); offset
// NULL for none.
void Quantize(bool to_unsigned, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
              const ConstPlane& scale, const ConstPlane* offset);
// tdequant (quant.cc): dst(i, j) = (src(i, j) - offset row i) * scale row
// i, in float32, each operation rounded once; src INT8 (INT16 when
// from_int16).
void Dequantize(bool from_int16, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src,
                const ConstPlane& scale, const ConstPlane& offset);

// tquant's MX forms (quant_mx.cc): src (FLOAT32, BFLOAT16 or FLOAT16) in
// blocks of 32 along its rows (ND) or its columns (DN, `dn`), each block's
// E8M0 exponent into exp, its abs maximum into max and its reciprocal scale
// into scaling (both in src's dtype, float16's as A5 keeps them; data NULL:
// not written), each element scaled and rounded to E4M3 (one byte) or E2M1
// (`fp4`: two a byte, the even column in the low nibble). OCP or NV
// (`nv`) shared exponents, as pto-isa's MxQuantAlg.
struct MxQuantSpec {
  pto_dtype src;
  bool fp4, nv, dn;
  size_t rows, cols;  // src's valid region
  Plane dst;          // stride in bytes
  ConstPlane src_plane;
  Plane exp, max, scaling;
};
void QuantizeMx(const MxQuantSpec& spec);

// TQUANT_HIF4 (quant_hif4.cc): BFLOAT16 src in groups of 64 along its rows
// (a last group short of 64 padded with zeros), each group's metadata word
// into exp (UINT32: bits 0-7 Ea, the e6m2 code; bit 8 + j Eb of its 8-group
// j; bit 16 + q Ec of its 4-group q), each element's E1M2 code into dst (two
// a byte, the even column in the low nibble), each 4-group's abs maximum and
// scale (bfloat16 bits) into max and scaling (data NULL: not written).
struct Hif4QuantSpec {
  size_t rows, cols;  // src's valid region
  Plane dst;          // stride in bytes
  ConstPlane src;
  Plane exp, max, scaling;
};
void QuantizeHif4(const Hif4QuantSpec& spec);

// Matrix multiply (matmul.cc): dst (m x n, FLOAT32 for FLOAT16, BFLOAT16
// and FLOAT32 sources, INT32 for INT8 ones), holding each chain's seed
// (with zero_seed, every seed is zero bits, +0.0f or 0, and dst's values are
// not read), gets for every (i, j) the chain over k = 0..k-1 in order of
// fma(a(i,k), b(k,j), acc) rounded once to float32 (a and b widened
// exactly), or of acc + a(i,k) b(k,j) modulo 2^32; a is m x k and b k x n,
// both of `dtype`.
void Matmul(pto_dtype dtype, size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b, bool zero_seed);

// Matmul's float32 chains for FLOAT16 or BFLOAT16 sources (dtype) on the
// cube's own layouts, for M = 1 to 32: a m x k row-major (row stride lda),
// b a right tile's ZN image ldz columns wide (16-bit elements, boxes of
// 16 x 16, ldz and its rows multiples of 16), acc an acc tile's float32 NZ
// image of acc_rows rows (a multiple of 16, or fewer than 16), each from its
// (0, 0), acc holding the seeds; every chain and its bits Matmul's.
// MatmulCubeFits(m): whether the dispatch target runs it for m rows (its
// float32 vectors at most 16 lanes, m at most 32); else the caller stages
// the operands row-major for Matmul.
bool MatmulCubeFits(size_t m);
void MatmulCube(pto_dtype dtype, size_t m, size_t k, size_t n, float* acc, size_t acc_rows,
                const uint16_t* a, size_t lda, const uint16_t* b, size_t ldz);

// Matmul's float32 chains on 8-bit floating sources (A5's TMATMUL): a of
// a_dtype, b of b_dtype, each FLOAT8_E4M3, FLOAT8_E5M2 or HIFLOAT8, every
// code widened exactly to float32 (NaN and infinities kept).
void MatmulFloat8(pto_dtype a_dtype, pto_dtype b_dtype, size_t m, size_t k, size_t n,
                  const Plane& dst, const ConstPlane& a, const ConstPlane& b, bool zero_seed);
// Matmul's INT8 rows by either of its two paths, for their comparison (the
// tests): MatmulInt8Widened (matmul.cc), a and b widened to int32 blocks and
// the int32 chains, on every CPU; MatmulInt8Dot (matmul_int8_vnni.cc), the
// same sums modulo 2^32 by AVX512-VNNI's 8-bit dot products, only where
// Int8DotSupported(): built for x86-64 with GCC or clang (and
// x86_specializations), on a CPU and system that run AVX512F, BW, VL and
// VNNI code. Int8DotEnabled() is that, unless the environment variable
// PTO_INT8_MATMUL was "portable" at the first call; Matmul takes the dot
// products when it is true and its dispatch target is an AVX-512 one.
void MatmulInt8Widened(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                       const ConstPlane& b, bool zero_seed);
void MatmulInt8Dot(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                   const ConstPlane& b, bool zero_seed);
bool Int8DotSupported();
bool Int8DotEnabled();
// MX matrix multiply (matmul_mx.cc): Matmul's float32 chains over a'(i,k)
// b'(k,j), where a' = a(i,k) * 2^(a_scale(i, k/32) - 127) and b' = b(k,j) *
// 2^(b_scale(k/32, j) - 127), each the exact value of its code times its
// e8m0 scale rounded to float32 (exact, or an infinity past float32's
// range; scale 0xFF is NaN). a (a_dtype) and b (b_dtype) are FLOAT8_E4M3,
// FLOAT8_E5M2, FLOAT4_E2M1X2 or FLOAT4_E1M2X2; a packed type's value c of a
// row is byte c/2's low nibble for even c, its high nibble for odd c, and a
// plane's stride counts bytes. Scales are FLOAT8_E8M0 planes: a_scale m x
// ceil(k/32), b_scale ceil(k/32) x n.
void MatmulMx(pto_dtype a_dtype, pto_dtype b_dtype, size_t m, size_t k, size_t n,
              const Plane& dst, const ConstPlane& a, const ConstPlane& a_scale,
              const ConstPlane& b, const ConstPlane& b_scale);
// TMATMUL_MX_HIF4 (matmul_mx.cc): MatmulMx's chains on HiFloat4 operands,
// FLOAT4_E1M2X2 codes a (m x k) and b (k x n) with UINT32 metadata words
// (QuantizeHif4's) per 64 values of K: a_scale m x ceil(k/64), b_scale
// ceil(k/64) x n. A value is its code's E1M2 value times Ea's e6m2 value
// (code 0: 0; 0xFF: NaN) times 2^(Eb + Ec), exact in float32.
void MatmulMxHif4(size_t m, size_t k, size_t n, const Plane& dst, const ConstPlane& a,
                  const ConstPlane& a_scale, const ConstPlane& b, const ConstPlane& b_scale);
// A cube mode's input format (matmul.cc): each of n float32 values rounded
// in place to `fraction_bits` explicit fraction bits (below 23), to nearest
// with ties to even or away from zero, a carry into the exponent kept (to
// infinity past the largest finite value); subnormals and zeros become zero
// of their sign; infinities and NaN unchanged (HF32 e8m11, TF32 e8m10).
void RoundFloat32Fraction(size_t n, float* values, int fraction_bits, bool ties_away);

// Converts n floats to FLOAT16/BFLOAT16/FLOAT32 with round-to-nearest-even
// and back (convert.cc).
void FromF32(pto_dtype dtype, size_t n, void* dst, const float* src);
void ToF32(pto_dtype dtype, size_t n, float* dst, const void* src);


// TREM (NpuRem: dst = a rem b) and TREMS (NpuRems: dst = a rem scalar) on
// FLOAT32 and FLOAT16 as the NPU implementations compute them, for
// PTO_PROFILE_A2A3 and PTO_PROFILE_A5 (npu-rem.cc): a - floor(a / b) * b with
// every step rounded in its register's type, then, with sign_correction,
// r + b where b * r < 0. dst may be a or b placed exactly on it.
void NpuRem(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
            const ConstPlane& b);
void NpuRems(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
             double scalar, bool sign_correction);
// TFMOD (NpuFmod) and TFMODS (NpuFmods) likewise: a - trunc(a / b) * b, each
// step rounded in its register's type (FLOAT16 computed in float32 lanes and
// narrowed toward zero, as A5's half path), no sign correction.
void NpuFmod(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
             const ConstPlane& b);
void NpuFmods(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& a,
              double scalar);

// TPAIRREDUCESUM over rows x cols (FLOAT32 or FLOAT16): dst[i,k] =
// src[i,2k] + src[i,2k+1] for k < ceil(cols / 2) (an odd cols' last pair
// src[i,cols-1] + 0), each sum computed in float32 and rounded once to the
// dtype, and +0 at ceil(cols / 2) <= k < cols. Each source row is read whole
// before its dst row is written, so dst may be src (histogram.cc).
void PairSum(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, const ConstPlane& src);
// THISTOGRAM over rows x cols of src (UINT16 when !wide, else UINT32): dst
// row i's 256 UINT32 bins, bin b the number of row i's elements whose byte
// `byte` is <= b and whose upper bytes pass the filter: UINT16 byte 0 byte 1
// == idx[i][0]; UINT32 byte 2, 1, 0: byte 3 == idx[0][0], byte 2 ==
// idx[1][0], byte 1 == idx[2][0] as far as the byte needs (idx UINT8;
// histogram.cc).
void Histogram(bool wide, unsigned byte, size_t rows, size_t cols, const Plane& dst,
               const ConstPlane& src, const ConstPlane& idx);

// MGATHER (scatter false) and MSCATTER over rows x cols of a tile: tile
// element (r, c) from or to table element at[r * cols + c], element_bytes
// each, in row-major order (a later write to one table element wins); an
// offset kNoElement zeroes the tile element (gather) or writes nothing
// (scatter) (global_gather.cc).
constexpr size_t kNoElement = ~size_t{0};
void CopyByOffsets(bool scatter, size_t element_bytes, size_t rows, size_t cols, const Plane& tile,
                   void* table, const size_t* at);

// A double as an element of dtype holds it, exactly as a double: a float
// dtype's value rounded to nearest even (through float32 rounded to odd for
// FLOAT16 and BFLOAT16, which keeps the one rounding to the narrower type
// correct), NaN the positive quiet NaN; an integer dtype's value as given
// (datamove.cc).
double ValueInDtype(pto_dtype dtype, double value);

// The data-movement loops (datamove.cc; Transpose in transpose.cc, in
// 128-bit vectors), the bits of each moved element kept.
// dst[j][i] = src[i][j] over src's rows x cols; element_bytes 1, 2, 4 or 8.
void Transpose(size_t element_bytes, size_t rows, size_t cols, const Plane& dst,
               const ConstPlane& src);
// Transpose of `count` cells of rows x cols elements, cell k's images at
// k * dst_step and k * src_step elements from dst's and src's (a row or a
// column of a cube image's boxes in one call).
void TransposeCells(size_t element_bytes, size_t count, size_t rows, size_t cols, const Plane& dst,
                    size_t dst_step, const ConstPlane& src, size_t src_step);
// dst[i][j] = the element of src at flat offset indices[i][j] over rows x
// cols; index_bytes 2 or 4, every index (read unsigned) naming an element.
void Gather(size_t element_bytes, size_t index_bytes, size_t rows, size_t cols, const Plane& dst,
            const void* src, const ConstPlane& indices);
// TGATHERB: over rows, dst row i's first row_bytes bytes in 32-byte blocks,
// block k the bytes of src from byte offset offsets[i][k] on (offsets
// uint32, the last block of a row cut at row_bytes); dst.stride in bytes,
// offsets.stride in elements; every block inside src.
void GatherBlocks(size_t rows, size_t row_bytes, const Plane& dst, const void* src,
                  const ConstPlane& offsets);
// TINTERLEAVE (interleave) and TDEINTERLEAVE's two-source form over rows x
// cols (cols even), each row's stream of 2 x cols elements: interleave's
// src0[0], src1[0], src0[1], src1[1], ... split in halves, the first into
// dst0, the second into dst1; deinterleave's src0's row then src1's, its
// even elements into dst0, its odd into dst1. Bits moved unchanged; no
// destination shares storage with a source.
void Interleave(bool interleave, size_t element_bytes, size_t rows, size_t cols, const Plane& dst0,
                const Plane& dst1, const ConstPlane& src0, const ConstPlane& src1);
// TGATHER's mask-pattern form: the columns j < cols of each of src's rows
// with j % period == phase, packed one after another from dst's first
// element, row after row; element_bytes 1, 2, 4 or 8.
void GatherColumns(size_t element_bytes, size_t rows, size_t cols, size_t period, size_t phase,
                   void* dst, const ConstPlane& src);
// TGATHER's compare form, one row: the positions j < cols of `row` (cols
// elements of src_dtype) whose value is greater than `threshold` (`greater`)
// or equal to it (a NaN compares false, -0 equals +0), in increasing j; each
// written as the uint32 base + j (modulo 2^32) to out[0], out[1], ... where
// out is not null. Returns their count.
size_t GatherCompareRow(pto_dtype src_dtype, bool greater, size_t cols, const void* row,
                        double threshold, uint32_t base, uint32_t* out);
// TSCATTER's mask-pattern form: src[i][j] (i < rows, j < cols) to
// dst[i * row_step + row_phase][j * col_step + col_phase], bits copied;
// dst's other elements are left as they are. element_bytes 1, 2, 4 or 8.
void Spread(size_t element_bytes, size_t rows, size_t cols, size_t row_step, size_t row_phase,
            size_t col_step, size_t col_phase, const Plane& dst, const ConstPlane& src);
// dst's first dst_elements zeroed, then src[i][j] to dst's element at flat
// offset indices[i][j] over rows x cols, in row order; index_bytes 2 or 4,
// every index (read unsigned) below dst_elements.
void Scatter(size_t element_bytes, size_t index_bytes, size_t dst_elements, size_t rows,
             size_t cols, void* dst, const ConstPlane& src, const ConstPlane& indices);
// Element k of rows x cols (row-major) is start + k, or start - k when
// `down`: integer dtypes modulo 2^bits (start an integer in range), float
// dtypes the exact sum rounded once (ValueInDtype; start a value of dtype,
// plus k exact in double while it matters: k < 2^32).
void Sequence(pto_dtype dtype, size_t rows, size_t cols, const Plane& dst, double start,
              bool down);

}  // namespace kernels
}  // namespace pto

#endif  // PTO_KERNELS_KERNELS_H_
