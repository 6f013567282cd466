/* Deterministic random numbers: splitmix64. */
#include "support.h"

uint64_t rng_next(rng *r) {
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint32_t rng_below(rng *r, uint32_t n) { return (uint32_t)((rng_next(r) >> 32) % n); }

double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

double rng_uniform(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

int64_t rng_between(rng *r, int64_t lo, int64_t hi) {
    return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}
