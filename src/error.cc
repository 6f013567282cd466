#include "error.h"

#include <stdio.h>

namespace pto {
namespace {
// One sentence per thread; long enough for any message this library writes.
thread_local char last_error[1024];
}  // namespace

pto_status FailV(pto_status status, const char* function, const char* format, va_list args) {
  int used = snprintf(last_error, sizeof(last_error), "%s: ", function);
  if (used < 0 || static_cast<size_t>(used) >= sizeof(last_error)) return status;
  vsnprintf(last_error + used, sizeof(last_error) - used, format, args);
  return status;
}

pto_status Fail(pto_status status, const char* function, const char* format, ...) {
  va_list args;
  va_start(args, format);
  FailV(status, function, format, args);
  va_end(args);
  return status;
}

const char* LastError() { return last_error; }

void SetLastError(const char* message) { snprintf(last_error, sizeof(last_error), "%s", message); }

}  // namespace pto
