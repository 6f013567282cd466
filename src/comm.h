// The comm operations' access to ranks' windows (pto_comm.h): the
// registered transport, or the built-in one (rank 0 of 1, every address the
// process's own memory). Private to the library; src/program/run's comm
// instructions (execute_comm.cc) call it.
#ifndef PTO_COMM_INTERNAL_H_
#define PTO_COMM_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include <string>

#include "pto_c.h"

namespace pto {
namespace comm {

// Where an access goes: rank's window at offset, or (rank -1) the process's
// own memory at local.
struct Target {
  int32_t rank = -1;
  uint64_t offset = 0;
  char* local = nullptr;
};

int32_t Rank();
int32_t Ranks();
// Whether a transport is registered (else everything is local memory).
bool HasTransport();
// The target of [address, address + bytes); rank kRefused where the
// transport refuses the range (Refusal gives its sentence).
constexpr int32_t kRefused = -2;
Target Resolve(const void* address, size_t bytes);
// Whether address lies in another rank's window, or is refused by the
// transport (no instruction may touch it directly).
bool IsPeer(const void* address, size_t bytes);
// Whether [address, address + bytes) lies inside one window or touches
// none (always, without a transport); else false with the reason in *why.
// A range whose end wraps around is refused.
bool InOneWindow(const void* address, size_t bytes, std::string* why);

// Each returns PTO_OK or the status with the thread's last error set to
// "what: sentence".
pto_status Put(const char* what, const Target& dst, const void* src, size_t bytes);
pto_status Get(const char* what, const Target& src, void* dst, size_t bytes);
pto_status Add(const char* what, const Target& dst, const void* src, size_t count,
               pto_dtype dtype);
pto_status Signal(const char* what, const Target& signal, int32_t value, bool add);
pto_status ReadSignal(const char* what, const Target& signal, int32_t* value);
// Completes the puts and adds issued to rank (-1: nothing to do).
pto_status Flush(const char* what, int32_t rank);

}  // namespace comm
}  // namespace pto

#endif  // PTO_COMM_INTERNAL_H_
