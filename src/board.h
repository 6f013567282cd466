// The calling thread's board mode and warning handler (pto_set_board_mode,
// pto_set_warning_handler): under A2A3 and A5 a rule that the profile's
// implementation checks only with PTO_ASSERT (or not at all) is a warning in
// board mode instead of a refusal (docs/profiles.md, "Board mode").
#ifndef PTO_BOARD_H_
#define PTO_BOARD_H_

#include "pto_c.h"

namespace pto {

struct BoardState {
  bool on = false;
  pto_warning_fn handler = nullptr;
  void* user_data = nullptr;
};

// The thread's state; a launch's blocks run with the launching thread's
// (BoardScope).
BoardState& ThreadBoardState();

// Whether a rule the implementation leaves to PTO_ASSERT is a warning on
// this thread under `profile`: board mode on and an NPU profile.
inline bool BoardRelaxes(pto_profile profile) {
  return profile != PTO_PROFILE_HOST && ThreadBoardState().on;
}

// Reports "function: board mode: sentence" to the thread's handler, else as
// one line on stderr; one report at a time across threads.
void BoardWarn(const char* function, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
// The same with a sentence formatted elsewhere (a program's diagnostic).
void BoardWarnMessage(const char* message);

// Installs `state` on the calling thread for the scope's life (a launch's
// block threads), then restores what the thread had.
class BoardScope {
 public:
  explicit BoardScope(const BoardState& state) : saved_(ThreadBoardState()) {
    ThreadBoardState() = state;
  }
  ~BoardScope() { ThreadBoardState() = saved_; }
  BoardScope(const BoardScope&) = delete;
  BoardScope& operator=(const BoardScope&) = delete;

 private:
  BoardState saved_;
};

}  // namespace pto

#endif  // PTO_BOARD_H_
