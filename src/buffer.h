// The byte arena behind the opaque pto_buffer handle, shared by reference
// counting between the handle and the tiles placed in it.
#ifndef PTO_BUFFER_H_
#define PTO_BUFFER_H_

#include <stddef.h>

#include <atomic>

#include "pto_c.h"

struct pto_buffer {
  // One reference for the handle (until pto_buffer_destroy) and one per
  // placed tile; the last release frees the struct and owned storage.
  std::atomic<size_t> references;
  void* data;
  size_t size;
  bool owned;  // data was allocated by pto_buffer_create
};

namespace pto {

void RetainBuffer(pto_buffer* buffer);
void ReleaseBuffer(pto_buffer* buffer);

}  // namespace pto

#endif  // PTO_BUFFER_H_
