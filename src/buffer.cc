// Buffers: owned or wrapped byte arenas that placed tiles share.
#include "buffer.h"

#include <new>

#include "alloc.h"
#include "error.h"
#include "validate.h"

namespace pto {

void RetainBuffer(pto_buffer* buffer) {
  buffer->references.fetch_add(1, std::memory_order_relaxed);
}

void ReleaseBuffer(pto_buffer* buffer) {
  // acq_rel: whichever thread drops the last reference sees every other
  // thread's use of the storage as finished before it frees it.
  if (buffer->references.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (buffer->owned) Free(buffer->data);
  buffer->~pto_buffer();
  Free(buffer);
}

}  // namespace pto

namespace {

// The size rule and the handle allocation shared by create and wrap, after
// v's chain of their NULL checks; `data` NULL asks for owned, zero-filled
// storage.
pto_status MakeBuffer(pto::Validator& v, void* data, size_t nbytes, pto_buffer** out) {
  v.Require(nbytes != 0 && nbytes <= PTO_TILE_MAX_BYTES, PTO_ERR_INVALID_ARGUMENT,
            "nbytes %zu is not between 1 and PTO_TILE_MAX_BYTES (%zu)", nbytes,
            static_cast<size_t>(PTO_TILE_MAX_BYTES));
  if (!v.ok()) return v.status();
  void* handle = pto::AllocateZeroed(sizeof(pto_buffer));
  const bool owned = data == nullptr;
  if (handle != nullptr && owned) data = pto::AllocateZeroed(nbytes);
  if (handle == nullptr || data == nullptr) {
    pto::Free(handle);
    return pto::Fail(PTO_ERR_OUT_OF_MEMORY, v.function(), "cannot allocate a %zu-byte buffer",
                     nbytes);
  }
  pto_buffer* buffer = new (handle) pto_buffer;
  buffer->references.store(1, std::memory_order_relaxed);
  buffer->data = data;
  buffer->size = nbytes;
  buffer->owned = owned;
  *out = buffer;
  return PTO_OK;
}

}  // namespace

extern "C" {

pto_status pto_buffer_create(size_t nbytes, pto_buffer** out) {
  pto::Validator v("pto_buffer_create");
  v.NotNull("out", out);
  return MakeBuffer(v, nullptr, nbytes, out);
}

pto_status pto_buffer_wrap(void* memory, size_t nbytes, pto_buffer** out) {
  pto::Validator v("pto_buffer_wrap");
  v.NotNull("out", out).NotNull("memory", memory);
  return MakeBuffer(v, memory, nbytes, out);
}

void pto_buffer_destroy(pto_buffer* buffer) {
  if (buffer != nullptr) pto::ReleaseBuffer(buffer);
}

void* pto_buffer_data(pto_buffer* buffer) { return buffer != nullptr ? buffer->data : nullptr; }

size_t pto_buffer_size(const pto_buffer* buffer) { return buffer != nullptr ? buffer->size : 0; }

}  // extern "C"
