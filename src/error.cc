#include "error.h"

#include <stdio.h>

#include "alloc.h"

namespace pto {
namespace {
// One sentence per thread, long enough for any message this library writes.
// Its buffer is on the heap, allocated at the thread's first failure and freed
// at its exit: the library's thread-local block holds a pointer only. An
// initial-exec variable (current_profile, profile.h) puts that whole block in
// the process's static TLS, a surplus of about 1.6 KiB shared by every library
// loaded later that has such variables (torch's libgomp among them): with the
// sentence's 1024 bytes there, `import pto` before `import torch` failed
// ("cannot allocate memory in static TLS block").
constexpr size_t kSentenceBytes = 1024;
struct Sentence {
  char* text = nullptr;
  bool lost = false;  // a failure whose sentence found no memory
  ~Sentence() { Free(text); }
};
thread_local Sentence last_error;

// The thread's buffer (nullptr, and the sentence marked lost, where there is
// no memory for it).
char* Buffer() {
  if (last_error.text == nullptr)
    last_error.text = static_cast<char*>(AllocateZeroed(kSentenceBytes));
  last_error.lost = last_error.text == nullptr;
  return last_error.text;
}
}  // namespace

pto_status FailV(pto_status status, const char* function, const char* format, va_list args) {
  char* text = Buffer();
  if (text == nullptr) return status;
  int used = snprintf(text, kSentenceBytes, "%s: ", function);
  if (used < 0 || static_cast<size_t>(used) >= kSentenceBytes) return status;
  vsnprintf(text + used, kSentenceBytes - used, format, args);
  return status;
}

pto_status Fail(pto_status status, const char* function, const char* format, ...) {
  va_list args;
  va_start(args, format);
  FailV(status, function, format, args);
  va_end(args);
  return status;
}

const char* LastError() {
  if (last_error.lost) return "libpto: no memory to record this thread's last error";
  return last_error.text != nullptr ? last_error.text : "";
}

void SetLastError(const char* message) {
  char* text = Buffer();
  if (text != nullptr) snprintf(text, kSentenceBytes, "%s", message);
}

}  // namespace pto
