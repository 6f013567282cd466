// Target profiles: per-thread selection of which target's rules apply.
#include "profile.h"

#include "validate.h"

namespace pto {
#if defined(__GNUC__) && !defined(_WIN32)
__thread pto_profile current_profile __attribute__((tls_model("initial-exec"))) =
    PTO_PROFILE_HOST;
#else
thread_local pto_profile current_profile = PTO_PROFILE_HOST;
#endif
}  // namespace pto

extern "C" {

pto_status pto_set_profile(pto_profile profile) {
  const int raw = pto::RawEnumValue(profile);
  pto::Validator v("pto_set_profile");
  v.Require(raw >= PTO_PROFILE_HOST && raw <= PTO_PROFILE_A5, PTO_ERR_INVALID_ARGUMENT,
            "profile %d is not a pto_profile value (%d..%d)", raw, PTO_PROFILE_HOST,
            PTO_PROFILE_A5);
  if (!v.ok()) return v.status();
  pto::current_profile = profile;
  return PTO_OK;
}

pto_profile pto_get_profile(void) { return pto::CurrentProfile(); }

const char* pto_profile_string(pto_profile p) {
  switch (pto::RawEnumValue(p)) {
    case PTO_PROFILE_HOST: return "HOST";
    case PTO_PROFILE_A2A3: return "A2A3";
    case PTO_PROFILE_A5: return "A5";
  }
  return "PTO_PROFILE_UNKNOWN";
}

}  // extern "C"
