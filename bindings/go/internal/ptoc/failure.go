package ptoc

/*
#include <stdint.h>

int ptoc_failure_status(uintptr_t f);
const char *ptoc_failure_message(uintptr_t f);
void ptoc_failure_free(uintptr_t f);
*/
import "C"

// Failure is a failed call's status and the pto_last_error() sentence read
// in the same C call, on the thread that failed (see the pto_status typemaps
// in bindings/pto.i). Calls that succeed return a nil *Failure.
type Failure struct {
	Status  int
	Message string
}

// noMessage bounds the values that carry a bare status: the C side returns
// the status itself when it could not allocate the copy of the message.
const noMessage = 1 << 12

// failureFrom takes over what a status-returning wrapper returned: 0 for
// PTO_OK, else a C ptoc_failure that it copies and frees.
func failureFrom(p uintptr) *Failure {
	if p == 0 {
		return nil
	}
	if p < noMessage {
		return &Failure{Status: int(p)}
	}
	f := C.uintptr_t(p)
	out := &Failure{Status: int(C.ptoc_failure_status(f)), Message: C.GoString(C.ptoc_failure_message(f))}
	C.ptoc_failure_free(f)
	return out
}
