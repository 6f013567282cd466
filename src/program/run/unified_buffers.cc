// The unified buffers that blocks run on, kept between launches (block.h):
// allocating and zero-filling a device's buffer for each launch would cost
// more than a small launch's work. Each block still starts on zeros
// (Block::Setup clears the bytes its program's tiles occupy).
#include <stdint.h>

#include <atomic>
#include <new>

#include "alloc.h"
#include "program/run/block.h"

namespace pto {
namespace program {
namespace {

// The largest unified buffer kept between launches: A5's (256 KiB), rounded
// up. A larger one (HOST programs may use up to PTO_TILE_MAX_BYTES) is freed
// when its thread's blocks of the launch are done.
constexpr uint64_t kKeptBufferBytes = uint64_t{1} << 20;

}  // namespace

// An entry of a list that only grows (to the most threads ever running blocks
// at once), used by one thread at a time. The list is lock-free and keeps
// every buffer reachable from g_buffers: a child process after fork finds
// those its lost threads held still taken, not locked, and not leaked.
struct UnifiedBuffer {
  char* data = nullptr;
  uint64_t capacity = 0;
  std::atomic<bool> taken{false};
  UnifiedBuffer* next = nullptr;  // set before the entry is published
};

namespace {

std::atomic<UnifiedBuffer*> g_buffers{nullptr};

UnifiedBuffer* TakeEntry() {
  for (UnifiedBuffer* b = g_buffers.load(std::memory_order_acquire); b != nullptr; b = b->next) {
    bool expected = false;
    if (!b->taken.load(std::memory_order_relaxed) &&
        b->taken.compare_exchange_strong(expected, true, std::memory_order_acquire))
      return b;
  }
  UnifiedBuffer* b = new (std::nothrow) UnifiedBuffer;
  if (b == nullptr) return nullptr;
  b->taken.store(true, std::memory_order_relaxed);
  UnifiedBuffer* head = g_buffers.load(std::memory_order_relaxed);
  do {
    b->next = head;
  } while (!g_buffers.compare_exchange_weak(head, b, std::memory_order_release,
                                            std::memory_order_relaxed));
  return b;
}

}  // namespace

UnifiedBuffer* TakeUnifiedBuffer(uint64_t bytes, char** data, bool* zeroed) {
  UnifiedBuffer* b = TakeEntry();
  if (b == nullptr) return nullptr;
  *zeroed = false;
  if (bytes > b->capacity) {
    Free(b->data);
    b->data = static_cast<char*>(AllocateZeroed(bytes));
    b->capacity = b->data != nullptr ? bytes : 0;
    *zeroed = true;
    if (b->data == nullptr) {
      GiveBackUnifiedBuffer(b);
      return nullptr;
    }
  }
  *data = b->data;
  return b;
}

void GiveBackUnifiedBuffer(UnifiedBuffer* b) {
  if (b == nullptr) return;
  if (b->capacity > kKeptBufferBytes) {
    Free(b->data);
    b->data = nullptr;
    b->capacity = 0;
  }
  b->taken.store(false, std::memory_order_release);
}

}  // namespace program
}  // namespace pto
