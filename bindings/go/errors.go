package pto

import (
	"errors"
	"runtime"

	"libpto/pto/internal/ptoc"
)

// Status is the outcome of a libpto call (pto_status). Every Status other than
// StatusOK is an error value, so a caller can test for one with errors.Is:
//
//	if errors.Is(err, pto.ErrShapeMismatch) { ... }
type Status int

// The statuses of the C ABI, with the values of include/pto_c.h.
var (
	StatusOK            = Status(ptoc.PTO_OK)
	ErrNullArgument     = Status(ptoc.PTO_ERR_NULL_ARGUMENT)
	ErrInvalidArgument  = Status(ptoc.PTO_ERR_INVALID_ARGUMENT)
	ErrUnsupportedDType = Status(ptoc.PTO_ERR_UNSUPPORTED_DTYPE)
	ErrDTypeMismatch    = Status(ptoc.PTO_ERR_DTYPE_MISMATCH)
	ErrShapeMismatch    = Status(ptoc.PTO_ERR_SHAPE_MISMATCH)
	ErrOutOfRange       = Status(ptoc.PTO_ERR_OUT_OF_RANGE)
	ErrAliasing         = Status(ptoc.PTO_ERR_ALIASING)
	ErrOutOfMemory      = Status(ptoc.PTO_ERR_OUT_OF_MEMORY)
)

// ErrClosed is matched (errors.Is) by the error of any use of a closed Tile.
// Such an error also carries ErrNullArgument, the status libpto itself gives
// for a missing handle.
var ErrClosed = errors.New("pto: tile is closed")

// String returns the enumerator's name, e.g. "PTO_ERR_SHAPE_MISMATCH".
func (s Status) String() string { return ptoc.Pto_status_string(ptoc.Enum_SS_pto_status(s)) }

// Error makes a Status usable as an error value (a sentinel for errors.Is).
func (s Status) Error() string { return s.String() }

// Error is the error every failing call returns: the status and libpto's
// sentence naming the operation, the operand and the rule that failed.
// Retrieve it with errors.As:
//
//	var perr *pto.Error
//	if errors.As(err, &perr) { fmt.Println(perr.Status, perr.Message) }
type Error struct {
	Status  Status
	Message string
	closed  bool
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "pto: " + e.Status.String()
	}
	return "pto: " + e.Status.String() + ": " + e.Message
}

// Is reports whether target is e's Status (or ErrClosed for a closed tile).
func (e *Error) Is(target error) bool {
	if s, ok := target.(Status); ok {
		return s == e.Status
	}
	return e.closed && target == ErrClosed
}

// call runs one fallible C call and, if it fails, reads pto_last_error() on
// the same OS thread: the message is thread-local in C, and without the lock
// the Go scheduler may move the goroutine between the two cgo calls.
func call(f func() ptoc.Enum_SS_pto_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	status := Status(f())
	if status == StatusOK {
		return nil
	}
	return &Error{Status: status, Message: ptoc.Pto_last_error()}
}

// closedError is what any use of a closed tile returns.
func closedError(op, operand string) error {
	return &Error{Status: ErrNullArgument, Message: op + ": " + operand + " tile is closed", closed: true}
}

// bindingError reports a misuse that the Go layer catches before calling C,
// in the same form as libpto's own errors.
func bindingError(status Status, message string) error {
	return &Error{Status: status, Message: message}
}
