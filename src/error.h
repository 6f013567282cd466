// The per-thread error detail behind pto_last_error().
#ifndef PTO_ERROR_H_
#define PTO_ERROR_H_

#include <stdarg.h>

#include "pto_c.h"

namespace pto {

// Records "function: message" as this thread's last error and returns status,
// so a failing check reads `return Fail(status, "...", ...)`.
pto_status Fail(pto_status status, const char* function, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
// The same with the format's arguments in a va_list.
pto_status FailV(pto_status status, const char* function, const char* format, va_list args)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

const char* LastError();
// Records message as it is (a diagnostic formatted elsewhere).
void SetLastError(const char* message);

}  // namespace pto

#endif  // PTO_ERROR_H_
