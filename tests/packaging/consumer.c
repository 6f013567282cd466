/* A program outside the project, built against the installed libpto through
 * pkg-config: it must compile, link and run with only the public header. */
#include <pto_c.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    pto_tile *t = NULL;
    if (pto_tile_create(PTO_FLOAT32, 2, 3, &t) != PTO_OK) return 1;
    const float in[6] = {1, 4, 16, 64, 0.25f, 100};
    float out[6];
    pto_tile *d = NULL;
    if (pto_tile_create(PTO_FLOAT32, 2, 3, &d) != PTO_OK) return 1;
    pto_tile_write_f32(t, in, 6);
    if (pto_trsqrt(d, t) != PTO_OK) return 1;
    pto_tile_read_f32(d, out, 6);
    pto_tile_destroy(t);
    pto_tile_destroy(d);
    printf("libpto %s on %s: rsqrt(16) = %g\n", pto_version_string(), pto_simd_target(), out[2]);
    return (out[2] == 0.25f && strcmp(pto_version_string(), PTO_VERSION_STRING) == 0) ? 0 : 1;
}
