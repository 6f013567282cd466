// Board mode: the per-thread switch, the warning handler and the reports.
#include "board.h"

#include <stdarg.h>
#include <stdio.h>

#include <mutex>

#include "error.h"

namespace pto {
namespace {
thread_local BoardState board_state;
// Warnings of a launch's blocks come from several threads: a handler is
// called (and stderr written) one report at a time.
std::mutex& WarningMutex() {
  static std::mutex mutex;
  return mutex;
}
}  // namespace

BoardState& ThreadBoardState() { return board_state; }

void BoardWarnMessage(const char* message) {
  const BoardState& state = board_state;
  std::lock_guard<std::mutex> lock(WarningMutex());
  if (state.handler != nullptr) state.handler(message, state.user_data);
  else fprintf(stderr, "libpto warning: %s\n", message);
}

void BoardWarn(const char* function, const char* format, ...) {
  char message[1024];
  int used = snprintf(message, sizeof(message), "%s: board mode: ", function);
  if (used < 0 || static_cast<size_t>(used) >= sizeof(message)) used = 0;
  va_list args;
  va_start(args, format);
  vsnprintf(message + used, sizeof(message) - used, format, args);
  va_end(args);
  BoardWarnMessage(message);
}

}  // namespace pto

extern "C" {

pto_status pto_set_board_mode(int on) {
  // (error.h's Fail, not the Validator: validate.h includes board.h.)
  if (on != 0 && on != 1)
    return pto::Fail(PTO_ERR_INVALID_ARGUMENT, "pto_set_board_mode",
                     "board mode %d is not 0 (off) or 1 (on)", on);
  pto::ThreadBoardState().on = on == 1;
  return PTO_OK;
}

int pto_board_mode(void) { return pto::ThreadBoardState().on ? 1 : 0; }

void pto_set_warning_handler(pto_warning_fn handler, void* user_data) {
  pto::BoardState& state = pto::ThreadBoardState();
  state.handler = handler;
  state.user_data = handler != nullptr ? user_data : nullptr;
}

}  // extern "C"
