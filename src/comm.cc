// The transport registry (pto_comm_set_transport) and the built-in
// transport of a single process: local memory, signals through atomic
// operations, adds under one lock.
#include "comm.h"

#include <stdio.h>
#include <string.h>

#include <atomic>
#include <mutex>
#include <type_traits>

#include "dtype_rules.h"
#include "error.h"
#include "float_scalars.h"
#include "pto_comm.h"

namespace pto {
namespace comm {
namespace {

pto_comm_transport g_transport;
std::atomic<bool> g_registered{false};

// The built-in transport's adds: one lock for all (a single process's
// blocks adding into one buffer at once).
std::mutex g_add_mutex;

template <typename T>
void AddElements(char* dst, const char* src, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    T a, b;
    memcpy(&a, dst + i * sizeof(T), sizeof(T));
    memcpy(&b, src + i * sizeof(T), sizeof(T));
    // Integers wrap (as the NPU's atomic adds): added as unsigned.
    if constexpr (sizeof(T) < 4 && !std::is_floating_point<T>::value) {
      a = static_cast<T>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
    } else {
      a = a + b;
    }
    memcpy(dst + i * sizeof(T), &a, sizeof(T));
  }
}

pto_status LocalAdd(const char* what, char* dst, const void* src, size_t count,
                    pto_dtype dtype) {
  const char* s = static_cast<const char*>(src);
  std::lock_guard<std::mutex> lock(g_add_mutex);
  switch (dtype) {
    case PTO_FLOAT32: AddElements<float>(dst, s, count); break;
    case PTO_INT32: AddElements<uint32_t>(dst, s, count); break;
    case PTO_UINT32: AddElements<uint32_t>(dst, s, count); break;
    case PTO_INT16: AddElements<uint16_t>(dst, s, count); break;
    case PTO_UINT16: AddElements<uint16_t>(dst, s, count); break;
    case PTO_INT8: AddElements<uint8_t>(dst, s, count); break;
    case PTO_UINT8: AddElements<uint8_t>(dst, s, count); break;
    case PTO_INT64: AddElements<uint64_t>(dst, s, count); break;
    case PTO_UINT64: AddElements<uint64_t>(dst, s, count); break;
    default:
      return Fail(PTO_ERR_UNSUPPORTED_DTYPE, what,
                  "an atomic add of %s elements is not implemented (the float and "
                  "integer dtypes are)",
                  DtypeName(dtype));
  }
  return PTO_OK;
}

// A transport's error as the thread's last error.
pto_status Check(const char* what, pto_status status) {
  if (status == PTO_OK) return PTO_OK;
  const char* sentence = g_transport.error != nullptr ? g_transport.error(g_transport.context)
                                                      : nullptr;
  return Fail(status, what, "%s", sentence != nullptr ? sentence : "the transport failed");
}

}  // namespace

bool HasTransport() { return g_registered.load(std::memory_order_acquire); }
int32_t Rank() { return HasTransport() ? g_transport.rank : 0; }
int32_t Ranks() { return HasTransport() ? g_transport.ranks : 1; }

Target Resolve(const void* address, size_t bytes) {
  Target t;
  t.local = static_cast<char*>(const_cast<void*>(address));
  if (HasTransport()) {
    t.rank = g_transport.locate(g_transport.context, address, bytes, &t.offset);
    if (t.rank < -1) t.rank = kRefused;
  }
  return t;
}

bool IsPeer(const void* address, size_t bytes) {
  if (!HasTransport()) return false;
  uint64_t offset;
  const int32_t rank = g_transport.locate(g_transport.context, address, bytes, &offset);
  return rank < -1 || (rank >= 0 && rank != g_transport.rank);
}

bool InOneWindow(const void* address, size_t bytes, std::string* why) {
  if (!HasTransport() || bytes == 0) return true;
  const uintptr_t a = reinterpret_cast<uintptr_t>(address);
  char text[160];
  if (bytes > UINTPTR_MAX - a) {
    snprintf(text, sizeof(text), "%zu bytes from address %p wrap around the address space", bytes,
             address);
    *why = text;
    return false;
  }
  uint64_t offset;
  const int32_t whole = g_transport.locate(g_transport.context, address, bytes, &offset);
  if (whole >= 0) return true;
  if (whole < -1) {
    const char* sentence = g_transport.error(g_transport.context);
    *why = sentence != nullptr ? sentence : "the transport refuses the range";
    return false;
  }
  // A transport that answers -1 for a range it only partly holds: its first
  // and last bytes must lie in no window either.
  const int32_t first = g_transport.locate(g_transport.context, address, 1, &offset);
  const int32_t last = g_transport.locate(
      g_transport.context, reinterpret_cast<const char*>(address) + bytes - 1, 1, &offset);
  if (first == -1 && last == -1) return true;
  snprintf(text, sizeof(text),
           "%zu bytes from %p lie partly in a window (rank %d's at the first byte, rank %d's at "
           "the last; -1: none) and not inside one",
           bytes, address, first, last);
  *why = text;
  return false;
}

// A refused target (kRefused) is never the process's own memory.
static pto_status Refused(const char* what) {
  return Fail(PTO_ERR_OUT_OF_RANGE, what, "the address is not inside one window");
}

pto_status Put(const char* what, const Target& dst, const void* src, size_t bytes) {
  if (dst.rank == kRefused) return Refused(what);
  if (dst.rank < 0) {
    memmove(dst.local, src, bytes);
    return PTO_OK;
  }
  return Check(what, g_transport.put(g_transport.context, dst.rank, dst.offset, src, bytes));
}

pto_status Get(const char* what, const Target& src, void* dst, size_t bytes) {
  if (src.rank == kRefused) return Refused(what);
  if (src.rank < 0) {
    memmove(dst, src.local, bytes);
    return PTO_OK;
  }
  return Check(what, g_transport.get(g_transport.context, src.rank, src.offset, dst, bytes));
}

// 16-bit float elements added one by one: the containing aligned 32-bit
// word read, the element's sum rounded once to its dtype (the sum of two
// such values is exact in double), the word swapped in if no other add
// changed it meanwhile, else again.
pto_status AddHalves(const char* what, const Target& dst, const void* src, size_t count,
                     pto_dtype dtype) {
  for (size_t i = 0; i < count; ++i) {
    uint16_t addend;
    memcpy(&addend, static_cast<const char*>(src) + 2 * i, 2);
    const uint64_t at = (dst.rank < 0 ? reinterpret_cast<uintptr_t>(dst.local) : dst.offset) + 2 * i;
    const uint64_t word_at = at & ~uint64_t{3};
    const unsigned shift = (at & 2) != 0 ? 16 : 0;  // little-endian halves
    uint32_t* local = reinterpret_cast<uint32_t*>(static_cast<uintptr_t>(word_at));
    uint32_t seen = 0;
    if (dst.rank < 0) {
      seen = __atomic_load_n(local, __ATOMIC_SEQ_CST);
    } else {
      int32_t v;
      const pto_status s = Check(what, g_transport.read_signal(g_transport.context, dst.rank,
                                                               word_at, &v));
      if (s != PTO_OK) return s;
      seen = static_cast<uint32_t>(v);
    }
    for (;;) {
      const uint16_t old_half = static_cast<uint16_t>(seen >> shift);
      const double sum = HalfBitsToDouble(old_half, dtype) +
                         HalfBitsToDouble(addend, dtype);
      const uint16_t new_half =
          DoubleToHalfBits(RoundToFloatType(sum, dtype, 16), dtype);
      const uint32_t desired = (seen & ~(uint32_t{0xFFFF} << shift)) | uint32_t{new_half} << shift;
      uint32_t before = seen;
      if (dst.rank < 0) {
        if (__atomic_compare_exchange_n(local, &before, desired, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
          break;
      } else {
        const pto_status s = Check(what, g_transport.compare_swap(g_transport.context, dst.rank,
                                                                  word_at, seen, desired, &before));
        if (s != PTO_OK) return s;
        if (before == seen) break;
      }
      seen = before;
    }
  }
  return PTO_OK;
}

pto_status Add(const char* what, const Target& dst, const void* src, size_t count,
               pto_dtype dtype) {
  if (dst.rank == kRefused) return Refused(what);
  if (dtype == PTO_FLOAT16 || dtype == PTO_BFLOAT16) return AddHalves(what, dst, src, count, dtype);
  if (dst.rank < 0) return LocalAdd(what, dst.local, src, count, dtype);
  return Check(what,
               g_transport.add(g_transport.context, dst.rank, dst.offset, src, count, dtype));
}

pto_status Signal(const char* what, const Target& signal, int32_t value, bool add) {
  if (signal.rank == kRefused) return Refused(what);
  if (signal.rank < 0) {
    int32_t* p = reinterpret_cast<int32_t*>(signal.local);
    if (add) __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);
    else __atomic_store_n(p, value, __ATOMIC_SEQ_CST);
    return PTO_OK;
  }
  return Check(what, g_transport.signal(g_transport.context, signal.rank, signal.offset, value,
                                        add ? 1 : 0));
}

pto_status ReadSignal(const char* what, const Target& signal, int32_t* value) {
  if (signal.rank == kRefused) return Refused(what);
  if (signal.rank < 0) {
    *value = __atomic_load_n(reinterpret_cast<int32_t*>(signal.local), __ATOMIC_SEQ_CST);
    return PTO_OK;
  }
  return Check(what,
               g_transport.read_signal(g_transport.context, signal.rank, signal.offset, value));
}

pto_status Flush(const char* what, int32_t rank) {
  if (rank < 0) return PTO_OK;  // local memory, or refused before anything was issued
  return Check(what, g_transport.flush(g_transport.context, rank));
}

}  // namespace comm
}  // namespace pto

extern "C" {

pto_status pto_comm_set_transport(const pto_comm_transport* transport) {
  using pto::comm::g_registered;
  using pto::comm::g_transport;
  if (transport == nullptr) {
    g_registered.store(false, std::memory_order_release);
    return PTO_OK;
  }
  const pto_comm_transport& t = *transport;
  if (t.version != PTO_COMM_TRANSPORT_VERSION)
    return pto::Fail(PTO_ERR_INVALID_ARGUMENT, "pto_comm_set_transport",
                     "version %u is not PTO_COMM_TRANSPORT_VERSION (%d)", t.version,
                     PTO_COMM_TRANSPORT_VERSION);
  if (t.ranks < 1 || t.rank < 0 || t.rank >= t.ranks)
    return pto::Fail(PTO_ERR_INVALID_ARGUMENT, "pto_comm_set_transport",
                     "rank %d of %d ranks is not a rank (0 <= rank < ranks, ranks >= 1)", t.rank,
                     t.ranks);
  if (t.locate == nullptr || t.put == nullptr || t.get == nullptr || t.add == nullptr ||
      t.signal == nullptr || t.read_signal == nullptr || t.compare_swap == nullptr ||
      t.flush == nullptr || t.error == nullptr)
    return pto::Fail(PTO_ERR_INVALID_ARGUMENT, "pto_comm_set_transport",
                     "every function of the transport must be given (one is NULL)");
  g_transport = t;
  g_registered.store(true, std::memory_order_release);
  return PTO_OK;
}

}  // extern "C"
