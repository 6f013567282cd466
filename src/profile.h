// The calling thread's target profile (pto_set_profile), read by every
// operation's validation.
#ifndef PTO_PROFILE_H_
#define PTO_PROFILE_H_

#include "pto_c.h"

namespace pto {

// Every operation reads the profile, so the variable is plain __thread data
// (no C++ thread_local initialisation guard to test on each access) with the
// initial-exec TLS model: one load from the thread pointer instead of a
// __tls_get_addr call. Four bytes fit in the static TLS space glibc keeps for
// libraries loaded with dlopen.
#if defined(__GNUC__) && !defined(_WIN32)
extern __thread pto_profile current_profile __attribute__((tls_model("initial-exec")));
#else
extern thread_local pto_profile current_profile;
#endif

inline pto_profile CurrentProfile() { return current_profile; }

}  // namespace pto

#endif  // PTO_PROFILE_H_
