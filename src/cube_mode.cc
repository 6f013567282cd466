// The cube modes: the per-thread switches of SETHF32MODE and SETTF32MODE
// and the input rounding they select under each profile.
#include "cube_mode.h"

#include "validate.h"

namespace pto {
namespace {
thread_local CubeMode cube_mode;

// The pages' RoundMode: CAST_ROUND (ties away from zero, the default) or
// CAST_RINT (ties to even), the two that pto-isa's SetMadTF32Mode accepts.
pto_status SetMode(const char* function, int enable, int round, bool* on,
                   pto_round_mode* mode) {
  Validator v(function);
  v.Require(enable == 0 || enable == 1, PTO_ERR_INVALID_ARGUMENT,
            "enable %d is not 0 (off) or 1 (on)", enable)
      .Require(round == PTO_ROUND_ROUND || round == PTO_ROUND_RINT, PTO_ERR_INVALID_ARGUMENT,
               "round mode %d is not PTO_ROUND_ROUND (CAST_ROUND) or PTO_ROUND_RINT "
               "(CAST_RINT), the two the cube's mode register takes",
               round);
  if (!v.ok()) return v.status();
  *on = enable == 1;
  *mode = static_cast<pto_round_mode>(round);
  return PTO_OK;
}

int GetMode(bool on, pto_round_mode mode, pto_round_mode* round) {
  if (round != nullptr) *round = mode;
  return on ? 1 : 0;
}

}  // namespace

CubeMode& ThreadCubeMode() { return cube_mode; }

// HF32 (e8m11) is A2A3's cube format, TF32 (e8m10) A5's (pto-isa's
// SetMadTF32Mode: "a2/a3 : e8m11", "a5 : e8m10"); SETTF32MODE is a no-op
// on A2A3 and HOST changes no rounding (the pages).
InputRounding MatmulInputRounding(pto_profile profile) {
  InputRounding r;
  if (profile == PTO_PROFILE_A2A3 && cube_mode.hf32) {
    r.fraction_bits = 11;
    r.ties_away = cube_mode.hf32_round == PTO_ROUND_ROUND;
  } else if (profile == PTO_PROFILE_A5 && cube_mode.tf32) {
    r.fraction_bits = 10;
    r.ties_away = cube_mode.tf32_round == PTO_ROUND_ROUND;
  }
  return r;
}

}  // namespace pto

extern "C" {

pto_status pto_set_hf32_mode(int enable, pto_round_mode round) {
  pto::CubeMode& m = pto::ThreadCubeMode();
  return pto::SetMode("pto_set_hf32_mode", enable, pto::RawEnumValue(round), &m.hf32, &m.hf32_round);
}

int pto_hf32_mode(pto_round_mode* round) {
  const pto::CubeMode& m = pto::ThreadCubeMode();
  return pto::GetMode(m.hf32, m.hf32_round, round);
}

pto_status pto_set_tf32_mode(int enable, pto_round_mode round) {
  pto::CubeMode& m = pto::ThreadCubeMode();
  return pto::SetMode("pto_set_tf32_mode", enable, pto::RawEnumValue(round), &m.tf32, &m.tf32_round);
}

int pto_tf32_mode(pto_round_mode* round) {
  const pto::CubeMode& m = pto::ThreadCubeMode();
  return pto::GetMode(m.tf32, m.tf32_round, round);
}

}  // extern "C"
