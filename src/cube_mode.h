// The calling thread's cube modes (pto_set_hf32_mode, pto_set_tf32_mode):
// the rounding of FLOAT32 matrix-multiply inputs that pto-isa's SETHF32MODE
// and SETTF32MODE select, each on the profile whose cube has the format
// (docs/profiles.md, "HF32 and TF32 modes").
#ifndef PTO_CUBE_MODE_H_
#define PTO_CUBE_MODE_H_

#include "pto_c.h"

namespace pto {

struct CubeMode {
  bool hf32 = false;
  pto_round_mode hf32_round = PTO_ROUND_ROUND;
  bool tf32 = false;
  pto_round_mode tf32_round = PTO_ROUND_ROUND;
};

// The thread's modes; a launch's blocks run with the launching thread's
// (CubeModeScope).
CubeMode& ThreadCubeMode();

// How a FLOAT32 input of a matrix multiply is rounded under `profile` in the
// thread's modes: the explicit fraction bits kept (23: unchanged; A2A3's
// HF32 11, A5's TF32 10) and whether ties round away from zero.
struct InputRounding {
  int fraction_bits = 23;
  bool ties_away = false;
};
InputRounding MatmulInputRounding(pto_profile profile);

// Installs `mode` on the calling thread for the scope's life (a launch's
// block threads), then restores what the thread had.
class CubeModeScope {
 public:
  explicit CubeModeScope(const CubeMode& mode) : saved_(ThreadCubeMode()) {
    ThreadCubeMode() = mode;
  }
  ~CubeModeScope() { ThreadCubeMode() = saved_; }
  CubeModeScope(const CubeModeScope&) = delete;
  CubeModeScope& operator=(const CubeModeScope&) = delete;

 private:
  CubeMode saved_;
};

}  // namespace pto

#endif  // PTO_CUBE_MODE_H_
