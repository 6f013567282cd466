// Element-type facts: which dtypes are floating point, and the one table of
// which dtypes each operation accepts under each target profile.
#ifndef PTO_DTYPE_RULES_H_
#define PTO_DTYPE_RULES_H_

#include <stdint.h>

#include "pto_c.h"

namespace pto {

constexpr uint32_t DtypeBit(pto_dtype d) { return 1u << static_cast<unsigned>(d); }

// A set of dtypes, kept in the order an instruction page lists them so that
// a refusal can quote the list as the page does.
struct DtypeSet {
  uint32_t mask;  // DtypeBit of each member
  uint32_t count;
  pto_dtype members[9];

  constexpr bool Contains(pto_dtype d) const { return (mask & DtypeBit(d)) != 0; }
};

template <typename... Dtypes>
constexpr DtypeSet MakeDtypeSet(Dtypes... members) {
  return DtypeSet{(DtypeBit(members) | ... | 0u), sizeof...(members), {members...}};
}

constexpr DtypeSet kAllDtypes =
    MakeDtypeSet(PTO_INT8, PTO_UINT8, PTO_INT16, PTO_UINT16, PTO_INT32, PTO_UINT32, PTO_FLOAT16,
                 PTO_BFLOAT16, PTO_FLOAT32);
constexpr DtypeSet kFloatDtypes = MakeDtypeSet(PTO_FLOAT16, PTO_BFLOAT16, PTO_FLOAT32);

inline bool IsFloatDtype(pto_dtype d) { return kFloatDtypes.Contains(d); }

// "FLOAT32", ...; "an invalid dtype" outside the enum.
const char* DtypeName(pto_dtype d);

// The operations as far as their dtype rules go (tpow's differ by algorithm).
enum class OpDtypes {
  kPowDefault,
  kPowHighPrecision,
  kRsqrt,
  kPrelu,
  kColExpandDiv,
  kPartAdd,
  kFloatCopy,  // pto_tile_write_f32 / pto_tile_read_f32
};

struct OpDtypeRule {
  DtypeSet by_profile[3];      // indexed by pto_profile: HOST, A2A3, A5
  const char* host_condition;  // completes "dst dtype X is not supported" under HOST
};

// The rule table: HOST from the v0.1 contract, A2A3 and A5 from the pages'
// implementation checks (API.md, "Target profiles").
inline constexpr OpDtypeRule kOpDtypeRules[] = {
    // tpow DEFAULT. A2A3 ignores the algorithm, so its HIGH_PRECISION row is
    // the same list.
    {{kAllDtypes,
      MakeDtypeSet(PTO_INT32, PTO_INT16, PTO_INT8, PTO_UINT32, PTO_UINT16, PTO_UINT8,
                   PTO_FLOAT32),
      kAllDtypes},
     ""},
    // tpow HIGH_PRECISION
    {{kFloatDtypes,
      MakeDtypeSet(PTO_INT32, PTO_INT16, PTO_INT8, PTO_UINT32, PTO_UINT16, PTO_UINT8,
                   PTO_FLOAT32),
      kFloatDtypes},
     " with PTO_POW_HIGH_PRECISION"},
    // trsqrt
    {{MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16), MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16),
      MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16)},
     ""},
    // tprelu
    {{kAllDtypes, kAllDtypes, kAllDtypes}, ""},
    // tcolexpanddiv
    {{MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16), MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16),
      MakeDtypeSet(PTO_FLOAT32, PTO_FLOAT16)},
     ""},
    // tpartadd
    {{kAllDtypes, MakeDtypeSet(PTO_INT32, PTO_INT16, PTO_FLOAT16, PTO_FLOAT32), kAllDtypes},
     ""},
    // whole-tile float copies (no profile restricts them)
    {{kFloatDtypes, kFloatDtypes, kFloatDtypes}, ""},
};

inline const DtypeSet& AcceptedDtypes(OpDtypes op, pto_profile profile) {
  return kOpDtypeRules[static_cast<int>(op)].by_profile[static_cast<int>(profile)];
}

}  // namespace pto

#endif  // PTO_DTYPE_RULES_H_
