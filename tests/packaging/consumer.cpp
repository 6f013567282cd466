// The public header compiles as C++ and its names link with C linkage.
#include <pto_c.h>

#include <cstdio>

int main() {
  pto_tile* t = nullptr;
  if (pto_tile_create(PTO_INT32, 1, 1, &t) != PTO_OK) return 1;
  pto_tile_destroy(t);
  std::printf("C++ consumer: %s\n", pto_status_string(PTO_ERR_ALIASING));
  return 0;
}
