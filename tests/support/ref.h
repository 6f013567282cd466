/* The reference that needs MPFR: pow correctly rounded to the element type.
 * Everything else the tests compare with is in support.h. */
#ifndef PTO_TEST_REF_H
#define PTO_TEST_REF_H

#include "support.h"

uint64_t ref_pow(pto_dtype dt, uint64_t base, uint64_t exp);

#endif
