/* The operations' names, from src/operations.def. */
#include "support.h"

const char *op_mnemonic(op_id op) {
    static const char *const names[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic) #mnemonic,
#include "../../src/operations.def"
#undef PTO_OPERATION
    };
    return names[op];
}

const char *op_name(op_id op) {
    static const char *const names[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic) "pto_" #mnemonic,
#include "../../src/operations.def"
#undef PTO_OPERATION
    };
    return names[op];
}
